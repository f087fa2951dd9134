"""Solve a user's game file (``guts solve-game``): load, solve, write the strategy.

A game is named by a *spec*:

* ``openspiel:NAME(params)`` — an OpenSpiel game (:func:`guts.engine.extensive.from_openspiel`);
* a path ending in ``.efg`` — Gambit's format (:func:`guts.engine.extensive.read_efg`);
* a path ending in ``.toml`` (poker description) or ``.game``/``.acpc`` (ACPC game
  definition) — :func:`guts.games.poker.load_poker`;
* the name of a shipped description (``rhode_island``, ``leduc``, ``mercer_smh``, ...).

Strategies are written as a long CSV (``player, infoset, type, action, probability``)
and a JSON file (values, certificate, ``strategies[p][infoset][type][action]``).
"""
from __future__ import annotations

import json
import math
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from guts._validate import check_choice
from guts.engine.extensive import cfr_plus, fictitious_play, read_efg, solve_lp, strategy_table
from guts.engine.extensive.lp import constant_sum
from guts.engine.highs import LP_METHOD_CHOICES
from guts.engine.result import Details, Solution
from guts.errors import ConvergenceWarning, GutsInputError

from .output import atomic_path, ensure_output_dir, publish, write_csv

__all__ = ["load_game", "poker_quotient_advised", "solve_game", "write_solution", "METHODS", "SolveGameResult", "solve_team_game",
           "write_team_solution"]

METHODS = ("lp", "cfr+", "dcfr", "fp")
#: Default targets: CFR+/DCFR exploitability, fictitious play's per-player regret.
DEFAULT_TARGET = 1e-3


def load_game(spec: str, *, max_nodes: int | None = None, progress: bool = False, isomorphism=False):
    """The engine game named by ``spec`` (see the module docstring); ``max_nodes``: the node
    budget of an OpenSpiel import (default ``guts.engine.extensive.openspiel.MAX_IMPORT_NODES``),
    ``progress``: its progress bar; ``isomorphism``: poker descriptions only,
    :func:`guts.games.poker.load_poker`'s (``"public"``: the suit quotient of the public tree,
    built directly)."""
    spec = str(spec)
    if isomorphism and (spec.startswith("openspiel:") or os.path.splitext(spec)[1].lower() == ".efg"):
        raise GutsInputError(f"isomorphism {isomorphism!r} with {spec!r}; accepted: a poker description "
                             "(.toml), an ACPC definition (.game) or a shipped description's name")
    if spec.startswith("openspiel:"):
        from guts.engine.extensive import from_openspiel

        name = spec[len("openspiel:"):]
        if not name:
            raise GutsInputError("openspiel: needs a game name, e.g. openspiel:kuhn_poker; accepted: "
                                 "openspiel:NAME(params)")
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            raise GutsInputError(f"{spec!r} needs OpenSpiel; accepted: pip install open_spiel") from None
        return from_openspiel(name, max_nodes=max_nodes, progress=progress)
    ext = os.path.splitext(spec)[1].lower()
    if ext in (".toml", ".game", ".acpc"):
        if not os.path.exists(spec):     # a FIFO, a folder: the reader says what it is, without opening it
            raise GutsInputError(f"game file {spec!r} does not exist; accepted: an existing file")
        try:
            from guts.games.poker import load_poker
        except ImportError:  # pragma: no cover - the poker family is part of the package
            raise GutsInputError(f"{spec!r}: poker descriptions are not available in this version") from None
        return load_poker(spec, isomorphism=isomorphism)
    shipped = _shipped_description(spec)
    if shipped is not None:
        from guts.games.poker import load_poker

        return load_poker(shipped, isomorphism=isomorphism)
    if ext == ".efg":
        if not os.path.exists(spec):
            raise GutsInputError(f"game file {spec!r} does not exist; accepted: an existing file")
        return read_efg(spec)
    raise GutsInputError(f"game {spec!r}: unknown kind; accepted: FILE.efg, FILE.toml (poker description), "
                         "FILE.game (ACPC definition), openspiel:NAME(params) or a shipped description's name")


def _shipped_description(spec: str):
    """The shipped poker description named ``spec`` (``rhode_island``, ``leduc``...), or None."""
    if os.path.sep in spec or os.path.splitext(spec)[1]:
        return None
    from guts.games.poker import descriptions

    names = {os.path.splitext(os.path.basename(str(d)))[0]: str(d) for d in descriptions()}
    return names.get(spec)


#: Public nodes x deals of the full tree from which ``guts solve-game`` solves a suited poker
#: game on its public suit quotient by default: beyond the sequence-form LP (Rhode Island
#: hold'em: 7e9, an LP of ~600 GiB) and where building the full tree alone takes minutes.
AUTO_QUOTIENT_PAIRS = 10**8


def poker_quotient_advised(spec: str, method: str | None):
    """Why to solve the poker description ``spec`` (file or shipped name) on its public suit
    quotient by default, or None: a suited deck of distinct cards, ``method`` None or CFR, and
    a full tree that the memory pre-flight refuses or of more than :data:`AUTO_QUOTIENT_PAIRS`
    (public node, deal) pairs."""
    if method not in (None, "cfr+", "dcfr"):
        return None
    ext = os.path.splitext(spec)[1].lower()
    path = spec if ext in (".toml", ".game", ".acpc") and os.path.exists(spec) else _shipped_description(spec)
    if path is None:
        return None
    from guts.games.poker import read_poker
    from guts.games.poker.build import count_poker, poker_rules
    from guts.games.poker.builder import check_tree_memory

    pspec = read_poker(path)
    rules = poker_rules(pspec)
    if rules.deck.suits < 2 or rules.deck.copies != 1:
        return None
    count = count_poker(pspec)
    try:
        check_tree_memory(count, rules.name or spec)
    except GutsInputError as exc:
        return "the full tree is refused: " + str(exc).split(";")[0]
    pairs = count.public_states * count.deals
    if pairs > AUTO_QUOTIENT_PAIRS:
        return f"the full tree has {pairs:.3g} (public node, deal) pairs"
    return None


@dataclass(frozen=True)
class SolveGameResult(Details):
    """A solved user game: the engine result plus what was asked (the :class:`~guts.engine.result.Result`
    protocol reads through to ``result``)."""

    game: object
    result: object
    method: str
    target: float | None
    build_seconds: float
    #: The LP's value made exact (:func:`guts.engine.extensive.rational.certify_exact`): an
    #: :class:`~guts.engine.extensive.rational.ExactCertificate`, or None when not attempted.
    exact: object = None

    @property
    def values(self):
        return self.result.values

    @property
    def converged(self) -> bool:
        return self.result.converged

    value = property(lambda self: self.result.value)
    strategies = property(lambda self: self.result.strategies)
    certificate = property(lambda self: self.result.certificate)
    num_iter = property(lambda self: self.result.num_iter)
    seconds = property(lambda self: self.result.seconds)


#: ``exact=None`` (automatic) makes an LP's value exact when the game has at most this many
#: sequences (Liar's Dice 1 v 1 with 6 faces: 49 140 sequences, 3 s in rational arithmetic).
EXACT_AUTO_MAX_SEQUENCES = 100_000


def solve_game(game, method: str | None = None, target: float | None = None,
               iterations: int | None = None, progress: bool = False, *, checkpoint=None,
               checkpoint_every: float | None = None, resume=None, exact: bool | None = None,
               lp_method: str = "auto") -> Solution:
    """Solve ``game``: ``method`` None = ``lp`` for two-player zero-sum games, else ``cfr+``.

    ``lp_method``: the LP's algorithm, ``"auto"`` (by its size), ``"simplex"`` or ``"ipm"``
    (:func:`guts.engine.extensive.solve_sequence_form_lp`'s ``method``); ``method="lp"`` only.

    ``exact``: after the LP, reconstruct rational strategies and prove the value by exact best
    responses in rational arithmetic (:func:`guts.engine.extensive.rational.certify_exact`; public-tree
    games); ``None`` does so when the game has at most :data:`EXACT_AUTO_MAX_SEQUENCES` sequences.

    ``checkpoint``, ``checkpoint_every``, ``resume``: CFR+/DCFR and fictitious play, as in
    :func:`guts.engine.extensive.cfr_plus` and :func:`guts.engine.extensive.fictitious_play`
    (keep the solver's state in a file; continue it).

    ``target``: CFR+/DCFR exploitability (NashConv / n), fictitious play's regret bound
    (default 1e-3); ignored by the LP, whose certificate is its exploitability
    (:data:`guts.engine.extensive.LP_CERT_TOL` x payoff scale).
    """
    # constant-sum games (payoffs summing to one constant) are zero-sum up to a shift: the LP takes them
    two_zero = game.num_players == 2 and (game.zero_sum or constant_sum(game) is not None)
    if method is None:
        method = "lp" if two_zero else "cfr+"
    if method not in METHODS:
        raise GutsInputError(f"method {method!r}; accepted: {', '.join(METHODS)}")
    if method == "lp" and not two_zero:
        raise GutsInputError(f"--method lp needs a two-player zero-sum game; this one has "
                             f"{game.num_players} players{'' if game.zero_sum else ' and is not zero-sum'}; "
                             "accepted: cfr+, dcfr, fp")
    lp_method = check_choice("lp_method", lp_method, LP_METHOD_CHOICES)
    if lp_method != "auto" and method != "lp":
        raise GutsInputError(f"lp_method {lp_method!r} chooses the LP's algorithm; method {method!r} solves no LP; "
                             "accepted: --method lp with --lp-method, or no --lp-method")
    keep = {"checkpoint": checkpoint, "checkpoint_every": checkpoint_every, "resume": resume}
    if method not in ("cfr+", "dcfr", "fp") and any(v is not None for v in keep.values()):
        raise GutsInputError(f"method {method!r} keeps no checkpoint (cfr+, dcfr and fp do); accepted: "
                             "--method cfr+, dcfr or fp with --checkpoint / --resume")
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # reported by `converged` instead
        if method == "lp":
            r = solve_lp(game, method=lp_method)
        elif method in ("cfr+", "dcfr"):
            if target is None and iterations is None:
                target = DEFAULT_TARGET
            r = cfr_plus(game, variant=method, target=target, max_iterations=iterations,
                         progress=progress, **keep)
        else:
            kw = {} if iterations is None else {"max_iterations": iterations}
            r = fictitious_play(game, target=DEFAULT_TARGET if target is None else target,
                                progress=progress, **kw, **keep)
    cert = None
    if exact is not None and not isinstance(exact, bool):
        raise GutsInputError(f"exact must be True, False or None; got {exact!r}")
    if exact and method != "lp":
        raise GutsInputError(f"an exact value comes from the LP; got method {method!r}; accepted: --method lp")
    if method == "lp" and exact is not False:
        from guts.engine.extensive import PublicTreeGame

        public = isinstance(game, PublicTreeGame)
        if exact and not public:
            raise GutsInputError(f"an exact value needs a public-tree game; {game.name or 'this game'} is an "
                                 "explicit tree (a Gambit file or an OpenSpiel game that is not poker-shaped)")
        # automatic only on zero-sum games: the exact certificate is for those (a constant-sum game asks for it)
        if public and (exact or (game.zero_sum and game.size.sequences <= EXACT_AUTO_MAX_SEQUENCES)):
            from guts.engine.extensive.rational import certify_exact

            cert = certify_exact(game, r.strategies)
    return Solution.of(SolveGameResult(game=game, result=r, method=method, target=target,
                           build_seconds=max(0.0, time.perf_counter() - t0 - r.seconds), exact=cert))


def _key(k) -> str:
    """An information-set key as text: a public history ``("r", "c")`` -> ``"r/c"``, the
    root ``()`` -> ``"root"``; explicit-form keys as they are."""
    if isinstance(k, tuple):
        return "/".join(map(str, k)) if k else "root"
    return str(k)


def strategy_frame(game, strategies) -> pd.DataFrame:
    frames = []
    for p in range(game.num_players):
        df = strategy_table(game, strategies, p)
        df.insert(0, "player", p)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True).rename(columns={"history": "infoset"})
    out["infoset"] = out["infoset"].map(_key)
    return out


#: Most (information set, action) rows written as text (``strategy.csv`` and the strategies of
#: ``solution.json``): beyond it (Rhode Island hold'em's quotient: 1.6e7) the text takes longer
#: than the solve and gigabytes; ``--save FILE`` keeps the strategies (.npz) instead.
MAX_TEXT_ROWS = 2_000_000


def write_solution(solved: SolveGameResult, folder, efg: bool = False) -> list:
    """Write ``strategy.csv``, ``solution.json`` (and ``game.efg``) into ``folder``; atomic.
    Strategies of more than :data:`MAX_TEXT_ROWS` rows are left out of both (``solution.json``
    says so)."""
    from guts.engine.extensive import write_efg

    folder = ensure_output_dir(folder)
    with publish(folder, "solve_game") as pub:
        g, r = solved.game, solved.result
        rows = sum((pt.num_seqs - 1) * pt.num_types for pt in g.compiled.players)
        text = rows <= MAX_TEXT_ROWS
        written = [write_csv(strategy_frame(g, r.strategies), Path(folder) / "strategy.csv")] if text else []
        labels = g.deals.type_labels
        strategies = [
            {_key(k): {str(labels[p][t]): dict(zip(map(str, g.action_labels(p)[k]), map(float, arr[t])))
                       for t in range(arr.shape[0])}
             for k, arr in r.strategies[p].items()}
            for p in range(g.num_players)] if text else None
        doc = {
            "game": g.name, "players": g.num_players, "method": solved.method,
            "values": [float(v) for v in np.asarray(r.values)],
            "exploitability": float(r.exploitability), "nash_conv": float(r.nash_conv),
            "converged": bool(r.converged), "num_iter": int(r.num_iter), "seconds": float(r.seconds),
            "target": solved.target,
            "certificate": ("exploitability of these strategies by an exact best response "
                            "(NashConv / players; OpenSpiel's definition)"),
            "strategies": strategies,
        }
        if not text:
            doc["strategies_left_out"] = (f"{rows} (information set, action) rows exceed {MAX_TEXT_ROWS} as text; "
                                          "keep them with --save FILE (.npz, guts.load_solution)")
        target = Path(folder) / "solution.json"
        with atomic_path(target) as tmp:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(doc, fh, indent=1, allow_nan=False,
                          default=lambda x: None if isinstance(x, float) and not math.isfinite(x) else str(x))
        written.append(target)
        if efg:
            target = Path(folder) / "game.efg"
            write_efg(g, pub.stage(target) or target)  # its own atomic write, into the set's staging folder
            written.append(target)
    return written


def solve_team_game(game, team, regime: str = "correlated", *, target: float | None = None,
                    iterations: int | None = None, progress: bool = False, method: str | None = None,
                    time_limit: float | None = None) -> Solution:
    """``team`` (every seat but one) against the remaining seat in ``regime`` by ``method``
    (:func:`guts.engine.extensive.solve_team`; ``guts solve-game --team 1,2 --regime correlated
    [--team-method NAME] [--time-limit SECONDS]``)."""
    from guts.engine.extensive import solve_team

    return solve_team(game, team, regime, method=method, target=target, max_iterations=iterations,
                      time_limit=time_limit, progress=progress)


def write_team_solution(game, result, folder) -> list:
    """Write ``team.json`` (regime, team, adversary, every seat's value, the certified bracket, the
    correlated support's weights, the adversary's strategy) into ``folder``; atomic."""
    folder = ensure_output_dir(folder)
    labels = game.deals.type_labels
    adv = result.adversary
    adv_strategy = {_key(k): {str(labels[adv][t]): dict(zip(map(str, game.action_labels(adv)[k]), map(float, arr[t])))
                              for t in range(arr.shape[0])}
                    for k, arr in result.strategies[adv].items()}
    doc = {
        "game": game.name, "players": game.num_players, "regime": result.regime, "method": result.method,
        "team": list(result.team), "adversary": adv, "value": float(result.value),
        "values": [float(v) for v in result.values], "lower": float(result.lower), "upper": float(result.upper),
        "converged": bool(result.converged), "num_iter": int(result.num_iter), "seconds": float(result.seconds),
        "certificate": ("[lower, upper] brackets the team's max-min value in this regime: lower = the team "
                        "strategy against the adversary's exact best response, upper = an exact team best "
                        "response (communication, correlated) or the correlated upper bound (independent)"),
        "support_weights": [float(w) for w, _ in result.support],
        "adversary_strategy": adv_strategy,
    }
    with publish(folder, "solve_game_team"):
        target = Path(folder) / "team.json"
        with atomic_path(target) as tmp:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(doc, fh, indent=1, allow_nan=False)
    return [target]
