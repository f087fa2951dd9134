"""Discretised continuous-poker solutions kept on disk and read back with their game.

A :class:`~guts.games.continuous_poker.discrete.DiscretisedSolution` is saved by the
engine's format (``result.save(path)``, :mod:`guts.engine.persist`: one ``.npz`` of arrays
and a JSON header, no pickle) with its mesh and bet grid; :func:`load_discretised` rebuilds
the discretised game (:func:`~guts.games.continuous_poker.discrete.discretised_game`) and
re-checks the certificate by the engine's best-response pass
(:func:`guts.engine.extensive.persist.check_solution`).
"""
from __future__ import annotations

import os

import numpy as np

from guts.engine.persist import SOLUTION_FORMAT, from_json, read_container
from guts.errors import GutsInputError

__all__ = ["load_discretised", "grid_arguments"]

_CLASS = "guts.games.continuous_poker.discrete.DiscretisedSolution"
#: Relative agreement of a recorded bet grid with the grid rebuilt from its ends.
GRID_RTOL = 1e-12


def grid_arguments(bet_sizes) -> tuple:
    """``(min_bet, max_bet, sizes)`` whose :func:`~guts.games.continuous_poker.discrete.bet_grid`
    is ``bet_sizes`` (the grid drops a size 0: ``linspace(0, U, K)`` keeps K - 1 sizes)."""
    from .discrete import bet_grid

    s = np.asarray(bet_sizes, dtype=float)
    if s.size == 1:
        return float(s[0]), float(s[0]), 1
    for lo, k in ((float(s[0]), s.size), (0.0, s.size + 1)):
        g = bet_grid(lo, float(s[-1]), k)
        if g.shape == s.shape and np.allclose(g, s, rtol=GRID_RTOL, atol=0.0):
            return lo, float(s[-1]), k
    raise GutsInputError(f"bet sizes {s.tolist()} are not a grid of the discretised game; accepted: "
                         "linspace(L, U, K) without a size 0")


def load_discretised(path, *, verify: bool = True) -> tuple:
    """``(solution, game)``: a discretised continuous-poker solution file and its game, rebuilt
    from the recorded mesh and bet grid (``verify``: values and NashConv recomputed and compared)."""
    from guts.engine.extensive.persist import check_solution, load_solution

    from .discrete import discretised_game

    name = os.fspath(path)
    meta, _ = read_container(path, SOLUTION_FORMAT)
    fields = meta.get("result", {}).get("fields", {})
    if meta.get("result", {}).get("class") != _CLASS or "hands" not in fields or "bet_sizes" not in fields:
        raise GutsInputError(f"{name!r} is not a discretised continuous-poker solution; accepted: a file written "
                             "by DiscretisedSolution.save")
    lo, hi, k = grid_arguments(from_json(fields["bet_sizes"]["json"]))
    game = discretised_game(lo, hi, int(from_json(fields["hands"]["json"])), k)
    solution = load_solution(path)
    check_solution(solution, meta, game, verify=verify, path=name)
    return solution, game
