"""Hold'em raise-game solutions kept on disk and read back with their game.

A :class:`~guts.games.holdem.raise_game.RaiseGameResult` is saved by the engine's format
(``result.save(path)``, :mod:`guts.engine.persist`: one ``.npz`` of arrays and a JSON header,
no pickle) with its raise and re-raise sizes; :func:`load_raise_game` rebuilds the game
(:func:`guts.games.holdem.tree.raise_game_tree`, the package's verified equity table) and
re-checks the certificate by the engine's best-response pass
(:func:`guts.engine.extensive.persist.check_solution`).
"""
from __future__ import annotations

import os

from guts.engine.persist import SOLUTION_FORMAT, from_json, read_container
from guts.errors import GutsInputError

__all__ = ["load_raise_game"]

_CLASS = "guts.games.holdem.raise_game.RaiseGameResult"


def load_raise_game(path, *, verify: bool = True) -> tuple:
    """``(solution, game)``: a raise-game solution file and the game it solves, rebuilt from
    the recorded raise sizes (``verify``: values and NashConv recomputed and compared)."""
    from guts.engine.extensive.persist import check_solution, load_solution

    from .raise_game import resolve_raises
    from .tree import raise_game_tree

    name = os.fspath(path)
    meta, _ = read_container(path, SOLUTION_FORMAT)
    fields = meta.get("result", {}).get("fields", {})
    if meta.get("result", {}).get("class") != _CLASS or "raises" not in fields:
        raise GutsInputError(f"{name!r} is not a hold'em raise-game solution; accepted: a file written by "
                             "RaiseGameResult.save")
    raises = resolve_raises(None, from_json(fields["raises"]["json"]))
    reraises = resolve_raises(None, from_json(fields.get("reraises", {"json": []})["json"]), name="re-raise sizes")
    game = raise_game_tree(raises, reraises)
    solution = load_solution(path)
    check_solution(solution, meta, game, verify=verify, path=name)
    return solution, game
