"""Threshold meshes that follow where the strategies live for a 1 v. N game (see
:mod:`guts.games.guts.large_n`).
"""
from __future__ import annotations

import math

import numpy as np

from guts._validate import GutsInputError, check_choice, check_int, check_memory, check_positive_float
from guts.games.guts.strategies import BYTES_PER_MESH_POINT, mesh


MESH_KINDS = ("scaled", "uniform")


def threshold_mesh(size: int, points: int, kind: str = "scaled", s_min: float = 0.02) -> np.ndarray:
    """Thresholds for a 1 v. N game that follow where the strategies live.

    Parameters
    ----------
    size : int
        Coalition size N (the mesh is for n = N + 1 players).
    points : int
        Number of thresholds (>= 3).
    kind : {"scaled", "uniform"}
        ``"uniform"``: ``linspace(0, 1, points)`` (the paper's mesh).
        ``"scaled"``: 0, 1 and ``points - 2`` thresholds ``p = 1 - s/N`` with the
        scaled coordinate ``s = N (1 - p)`` uniform on a log scale from ``s = N``
        (``p = 0``) down to ``s = s_min``.  Equilibrium thresholds have
        ``s = N (1 - 2^(-1/N)) -> log 2`` (Proposition 3.3 with n = N + 1), and the Table 1
        strategies ``s`` in about [0.4, 1.2] at every N, so this mesh resolves
        them with the same relative step ``log(N / s_min) / (points - 3)`` whatever N.
    s_min : float
        Smallest positive scaled gap ``N (1 - p)`` (default 0.02, far below the
        thresholds ever used).

    Returns
    -------
    numpy.ndarray
        Sorted thresholds in [0, 1], including 0 (always hold: the pseudo-bloc's
        free member) and 1 (always drop).

    Examples
    --------
    >>> g = threshold_mesh(200, 9)
    >>> float(g[0]), float(g[-1]), len(g)
    (0.0, 1.0, 9)
    """
    size = check_int("size", size, 1)
    check_choice("mesh kind", kind, MESH_KINDS)
    points = check_int("points", points, 3)
    check_memory(f"a threshold mesh of {points} points", BYTES_PER_MESH_POINT * points, "use fewer points")
    if kind == "uniform":
        return mesh(points)
    s_min = check_positive_float("s_min", s_min)
    if s_min >= size:
        raise GutsInputError(f"s_min must be below the coalition size {size}; got {s_min}")
    # log(1 - p) uniform on [log(s_min / N), 0]; 1 - p computed directly (no 1 - (1 - x)).
    gaps = np.exp(np.linspace(0.0, math.log(s_min / size), points - 1))
    gaps[0] = 1.0
    return np.concatenate([1.0 - gaps, [1.0]])
