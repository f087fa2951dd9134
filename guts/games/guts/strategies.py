"""Strategy spaces: player 1's mesh and the coalition's structured strategy sets.

Paper §4.1.3 (product space with its column indexing), §4.1.4 and §5 (bloc and
pseudo-bloc coalitions).  A coalition of ``N`` players (players 2..N+1) picks one
profile ``(p_2, ..., p_{N+1})`` of thresholds per pure strategy.

Structures
----------
``"bloc"``
    ``(p, p, ..., p)``: M columns.
``"pseudo-bloc"``
    ``(p_2, p_3, ..., p_3)``: player 2 free, players 3..N+1 common; M^2 columns
    (M for N = 1).
``"full"``
    Independent members.  α_1 and β depend on the others' thresholds only as a
    multiset, so the product space (M^N columns) is reduced to multisets
    (C(M+N-1, N) columns) with exactly the same game value (duplicate columns of a
    matrix game never change its value).
``"product"``
    The paper's unreduced product space (§4.1.3): column
    ``j = j_1 + j_2 M + ... + j_N M^(N-1)`` has player ``k+1`` at mesh index
    ``j_k``.  Provided for testing the reduction.

Examples
--------
>>> from guts.games.guts.strategies import coalition_profiles, mesh
>>> coalition_profiles(3, mesh(3), "pseudo-bloc").shape
(9, 3)
>>> coalition_profiles(2, mesh(3), "full").shape        # C(4, 2)
(6, 2)
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

import numpy as np

from guts._validate import GutsInputError, check_choice, check_int, check_thresholds

STRUCTURES = ("pseudo-bloc", "bloc", "full", "product")
MAX_COLUMNS = 20_000_000

__all__ = ["STRUCTURES", "mesh", "resolve_grid", "coalition_profiles", "count_profiles", "product_index", "pseudo_bloc_parts"]


def mesh(points: int) -> np.ndarray:
    """Uniform mesh of ``points`` thresholds on [0, 1] (the paper's discretization M).

    >>> mesh(5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    points = check_int("mesh", points, 2)
    return np.linspace(0.0, 1.0, points)


def _grid(grid) -> np.ndarray:
    g = check_thresholds("coalition mesh", grid).ravel()
    if g.size < 2:
        raise GutsInputError(f"a mesh needs at least 2 points; got {g.size}")
    return g


def resolve_grid(mesh, name: str = "mesh") -> np.ndarray:
    """Thresholds from a number of uniform mesh points (>= 2) or an explicit array.

    An explicit array must hold at least 2 thresholds in [0, 1]; it is sorted and
    de-duplicated.

    >>> resolve_grid(3).tolist(), resolve_grid([0.9, 0.1, 0.9]).tolist()
    ([0.0, 0.5, 1.0], [0.1, 0.9])
    """
    if isinstance(mesh, (int, np.integer, float, np.floating)) and not isinstance(mesh, bool):
        return np.linspace(0.0, 1.0, check_int(name, mesh, 2))
    g = check_thresholds(name, mesh).ravel()
    if g.size < 2:
        raise GutsInputError(f"{name} needs at least 2 thresholds; got {g.size}")
    return np.unique(g)


def count_profiles(size: int, points: int, structure: str) -> int:
    """Number of coalition pure strategies (matrix columns) for a structure."""
    size = check_int("size", size, 1)
    points = check_int("mesh", points, 2)
    check_choice("structure", structure, STRUCTURES)
    if structure == "bloc" or size == 1:
        return points
    if structure == "pseudo-bloc":
        return points * points
    if structure == "full":
        return comb(points + size - 1, size)
    return points**size


def coalition_profiles(size: int, grid, structure: str = "pseudo-bloc") -> np.ndarray:
    """All coalition pure strategies as an array of shape (C, size).

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    grid : array_like
        Thresholds available to each coalition member (e.g. ``mesh(101)``).
    structure : {"pseudo-bloc", "bloc", "full", "product"}
        See the module docstring.

    Returns
    -------
    numpy.ndarray, shape (C, size)
        Row j is the profile ``(p_2, ..., p_{N+1})`` of column j.
    """
    size = check_int("size", size, 1)
    check_choice("structure", structure, STRUCTURES)
    g = _grid(grid)
    M = g.size
    C = count_profiles(size, M, structure)
    if C > MAX_COLUMNS:
        raise GutsInputError(
            f"structure {structure!r} with size {size} and mesh {M} has {C} coalition strategies; "
            f"at most {MAX_COLUMNS} are supported (use a smaller mesh or size)"
        )
    if size == 1 or structure == "bloc":
        return np.repeat(g[:, None], size, axis=1)
    if structure == "pseudo-bloc":
        p2, p3 = np.meshgrid(g, g, indexing="ij")
        p2, p3 = p2.ravel(), p3.ravel()
        return np.concatenate([p2[:, None], np.repeat(p3[:, None], size - 1, axis=1)], axis=1)
    if structure == "full":
        idx = np.array(list(combinations_with_replacement(range(M), size)), dtype=np.intp)
        return g[idx]
    # product, paper's indexing: player k+1's index is floor((j mod M^k) / M^(k-1))
    j = np.arange(C)
    idx = np.stack([(j // M**k) % M for k in range(size)], axis=1)
    return g[idx]


def product_index(indices, points: int) -> int:
    """Column of the product space for member mesh indices ``(j_1, ..., j_N)`` (§4.1.3)."""
    points = check_int("mesh", points, 2)
    return int(sum(int(j) * points**k for k, j in enumerate(indices)))


def pseudo_bloc_parts(profile, atol: float = 1e-12):
    """Split a coalition profile into ``(free, bloc)`` thresholds if it is pseudo-bloc.

    Returns ``(p2, p3)`` when players 3.. share one threshold; ``None`` otherwise.
    """
    p = np.asarray(profile, dtype=float).ravel()
    if p.size == 1:
        return float(p[0]), float(p[0])
    rest = p[1:]
    if np.all(np.abs(rest - rest[0]) <= atol):
        return float(p[0]), float(rest[0])
    return None
