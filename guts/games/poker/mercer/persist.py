"""Mercer hold'em solutions kept on disk and read back with their game (``result.save(path)``).

A :class:`~guts.games.poker.mercer.solve.MercerResult` is saved by the engine's format
(:mod:`guts.engine.persist`: one ``.npz`` of arrays and a JSON header, no pickle); its
``budget`` records what was solved -- the rules (deck, rounds, evaluator, players, as plain
JSON), the collusion and team, the method and its target -- so that :func:`load_mercer`
rebuilds the very game (:func:`guts.games.poker.builder.build_game`) and re-checks the
certificate: every player's value and the NashConv of the kept strategies, recomputed by the
engine's best responses, must equal the recorded ones within
:data:`guts.engine.tolerances.RELOAD_CERT_TOL` times the payoff scale.
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np

from guts.engine.persist import SOLUTION_FORMAT, from_json, read_container
from guts.errors import GutsInputError

from ..builder import Collusion, build_game
from ..cards import Deck
from ..evaluators import HandEvaluator
from ..rules import Round, Rules

__all__ = ["rules_to_json", "rules_from_json", "solved_budget", "load_mercer"]

#: ``budget["family"]`` of a Mercer solution file.
FAMILY = "mercer"
#: Collusions whose solution files are read back with their certificate recomputed (NashConv of
#: the game solved); a team regime's bracket (``"correlated"``, ``"independent"``) is not.
RELOADED = (None, "weak", "strong", "strong-separate")


def rules_to_json(rules: Rules) -> dict:
    """The rules as a JSON document (every field a number, a string, a flag or a list)."""
    return dataclasses.asdict(rules)


def rules_from_json(doc) -> Rules:
    """Inverse of :func:`rules_to_json` (lists back to tuples)."""
    d = from_json(doc)
    return Rules(deck=Deck(**d["deck"]), rounds=tuple(Round(**r) for r in d["rounds"]),
                 evaluator=HandEvaluator(**d["evaluator"]), num_players=int(d["num_players"]), name=str(d["name"]))


def solved_budget(result) -> dict:
    """``MercerResult.budget``: what :func:`load_mercer` needs to rebuild the game."""
    built = result.built
    return {"family": FAMILY, "rules": rules_to_json(built.rules), "collusion": result.collusion,
            "team": list(result.team) if result.team else None, "method": result.method,
            "target": result.epsilon, "merged": bool(built.seat_player and
                                                      len(set(built.seat_player)) < len(built.seat_player))}


def load_mercer(path, *, verify: bool = True) -> tuple:
    """``(solution, game)``: a Mercer solution file and the game it solves, rebuilt from the file.

    Parameters
    ----------
    path : str or Path
        A file written by ``MercerResult.save``.
    verify : bool
        Recompute every player's value and the NashConv by the engine's best responses and
        refuse the file if they differ from the recorded ones.

    Returns
    -------
    (Solution, PublicTreeGame)
        The solution (:func:`guts.load_solution`) and the game solved (for a strongly
        colluding team: the merged two-player game).

    Raises
    ------
    GutsInputError
        Not a Mercer solution file, strategies that do not fit the rebuilt game, or a
        certificate the game does not confirm (one line).
    """
    from guts.engine.extensive import expected_values, nash_conv
    from guts.engine.extensive.persist import check_solution, confirm_certificate, load_solution

    from ..builder import seat_values

    name = os.fspath(path)
    meta, _ = read_container(path, SOLUTION_FORMAT)
    budget = meta.get("budget") or {}
    if not isinstance(budget, dict) or budget.get("family") != FAMILY:
        raise GutsInputError(f"{name!r} is not a Mercer hold'em solution (no rules recorded); accepted: a file "
                             "written by MercerResult.save")
    collusion, team = budget.get("collusion"), budget.get("team")
    if collusion not in RELOADED:
        raise GutsInputError(f"{name!r} is a Mercer solution with collusion {collusion!r}, whose certificate (a team "
                             f"bracket) is not recomputed here; accepted: collusion {', '.join(map(repr, RELOADED))}")
    try:
        rules = rules_from_json(budget["rules"])
        coll = Collusion(tuple(team), "strong" if collusion == "strong-separate" else collusion) if collusion else None
    except (KeyError, TypeError, ValueError) as exc:
        raise GutsInputError(f"{name!r}: the recorded rules cannot be read ({type(exc).__name__}: {exc})") from None
    built = build_game(rules, coll, merge_team=(collusion == "strong"))
    game = built.game
    solution = load_solution(path)
    check_solution(solution, meta, game, verify=False, path=name)      # the strategies fit the game
    if verify:
        ev = np.asarray(expected_values(game, solution.strategies), dtype=float)
        confirm_certificate(solution, game, nash_conv(game, solution.strategies), seat_values(built, ev),
                            path=name, what=game.name)
    return solution, game
