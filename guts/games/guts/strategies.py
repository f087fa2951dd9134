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

from guts._validate import GutsInputError, check_choice, check_int, check_memory, check_thresholds

STRUCTURES = ("pseudo-bloc", "bloc", "full", "product")
MAX_COLUMNS = 20_000_000
#: Bytes held per point while a threshold mesh is built (the guard of
#: :func:`guts.games.guts.large_n.mesh.threshold_mesh`): its scaled mesh peaks at 24 B per
#: point (linspace, exp and the concatenated result; benchmarks/memory_calibration.py).
BYTES_PER_MESH_POINT = 32
#: Bytes per point of a uniform mesh (:func:`mesh`: one linspace, 8 B per point measured).
UNIFORM_MESH_BYTES_PER_POINT = 12
#: Thresholds of one profile closer than this are equal (profiles are rounded to 1e-12).
PROFILE_ATOL = 1e-12
#: Most points of a uniform mesh (12 PB at :data:`UNIFORM_MESH_BYTES_PER_POINT`): any real request is
#: refused by the memory budget long before; this bound only keeps ``1e300`` from becoming an integer.
MAX_MESH_POINTS = 10**15
#: Members within this many mesh steps of each other form a bloc (a continuous bloc
#: threshold is often straddled by two neighbouring mesh points, e.g. (0.67, 0.68)).
BLOC_STEPS = 1.5

__all__ = ["STRUCTURES", "BLOC_STEPS", "mesh", "resolve_grid", "check_recursive_grid", "mesh_step",
           "coalition_profiles", "count_profiles", "product_index", "pseudo_bloc_parts", "profile_kind", "classify_components"]


def mesh(points: int, name: str = "mesh") -> np.ndarray:
    """Uniform mesh of ``points`` thresholds on [0, 1] (the paper's discretization M).

    >>> mesh(5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    points = check_int(name, points, 2, MAX_MESH_POINTS)
    check_memory(f"{name} {points}", UNIFORM_MESH_BYTES_PER_POINT * points, "use fewer mesh points")
    return np.linspace(0.0, 1.0, points)


def resolve_grid(grid, name: str = "mesh", minimum: int = 2, unique: bool = True) -> np.ndarray:
    """Thresholds from a number of uniform mesh points or an explicit array (the one mesh helper).

    A number gives :func:`mesh`; an explicit array must hold at least ``minimum``
    thresholds in [0, 1] and is sorted and de-duplicated (kept in its order when
    ``unique`` is False).  Every public function taking a mesh calls this once.

    >>> resolve_grid(3).tolist(), resolve_grid([0.9, 0.1, 0.9]).tolist()
    ([0.0, 0.5, 1.0], [0.1, 0.9])
    """
    if isinstance(grid, (bool, np.bool_)):
        raise GutsInputError(f"{name} must be a number of mesh points or an array of thresholds; got {grid!r}")
    if isinstance(grid, (int, np.integer, float, np.floating)):
        return mesh(grid, name)
    g = check_thresholds(name, grid).ravel()
    if g.size < minimum:
        raise GutsInputError(f"{name} needs at least {minimum} thresholds; got {g.size}")
    return np.unique(g) if unique else g


def check_recursive_grid(grid: np.ndarray, name: str = "mesh") -> np.ndarray:
    """Refuse (GutsInputError) a side's thresholds for the *recursive* game if none lies strictly in (0, 1).

    With thresholds 0 (always hold) and 1 (never hold) only, a side's hands never decide
    anything.  Against the other side's reply "always hold" (threshold 0, on every uniform
    mesh), its k holders share a showdown of ``h = n_other + k`` holders (each expects
    ``-(N - h)(h - 2) / h``, N players in all), each dropper gets ``h - 2``, and the stakes are
    multiplied by ``h - 1``; the Theorem 1.2 value ``x A y + (x B y - 1) v`` at the side's forfeit
    ``v = -size`` is then ``-(h - 2) k N / h <= 0`` (0 too when nobody of it holds against a
    single opponent: it loses its forfeit and the game ends), never ``> 0``, for every mixture ``x``.  No strategy of that side can be certified, and its
    fixed point from the forfeit stays at the forfeit (1 v. 1 at mesh 2: ``A = [[0, 1], [-1, 0]]``,
    ``B = I``, the value 0 for every ``x``).  ``mesh=2`` is the uniform case.
    """
    g = np.asarray(grid, dtype=float)
    if not np.any((g > 0.0) & (g < 1.0)):
        raise GutsInputError(
            f"{name} (thresholds {sorted(set(g.ravel().tolist()))}) is too small for the recursive game: with only "
            f"0 (always hold) and 1 (never hold) the other side can keep the game from ending and nothing can be "
            f"certified; accepted: a mesh of at least 3 points, or thresholds with one strictly between 0 and 1")
    return grid


def count_profiles(size: int, points: int, structure: str) -> int:
    """Number of coalition pure strategies (matrix columns) for a structure."""
    size = check_int("size", size, 1)
    points = check_int("mesh", points, 2, MAX_MESH_POINTS)
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
    g = resolve_grid(grid, "coalition mesh", unique=False)
    M = g.size
    C = count_profiles(size, M, structure)
    if C > MAX_COLUMNS:
        raise GutsInputError(
            f"structure {structure!r} with size {size} and mesh {M} has {C} coalition strategies; "
            f"at most {MAX_COLUMNS} are supported (use a smaller mesh or size)"
        )
    # the profile array, and for "full" the index tuples it is built from
    per_entry = 8 + (16 if structure == "full" else 0)
    check_memory(f"the {C} coalition strategies of size {size} ({structure!r}, mesh {M})", per_entry * C * size,
                 "use a smaller mesh or coalition")
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


def pseudo_bloc_parts(profile, atol: float = PROFILE_ATOL):
    """Split a coalition profile into ``(free, bloc)`` thresholds if it is pseudo-bloc (§5).

    A profile is pseudo-bloc when all its members but at most one share a threshold
    (within ``atol``); the odd one is the free member (player 2 in the paper's
    ``(p_2, p_3, ..., p_3)``, wherever it stands in ``profile``).  For N = 1 the profile
    is ``(p, p)``; for N = 2 both orders are the same coalition and the free member is
    taken to be the lower threshold (the paper's always-holding player 2).  Returns
    ``None`` for any other profile.
    """
    p = np.asarray(profile, dtype=float).ravel()
    if p.size <= 2:
        return float(p.min()), float(p.max())
    for free in (0, *range(1, p.size)):  # the paper's position first
        rest = np.delete(p, free)
        if np.all(np.abs(rest - rest[0]) <= atol):
            return float(p[free]), float(rest[0])
    return None


def mesh_step(grid, threshold: float | None = None) -> float:
    """Step of a mesh: the smallest gap, or at ``threshold`` the larger gap to its neighbours."""
    g = np.unique(np.asarray(grid, dtype=float))
    if g.size < 2:
        return 0.0
    if threshold is None:
        return float(np.min(np.diff(g)))
    i = int(np.clip(np.searchsorted(g, threshold), 0, g.size - 1))
    lo, hi = g[max(i - 1, 0)], g[min(i + 1, g.size - 1)]
    return float(max(hi - threshold, threshold - lo))


def profile_kind(profile, bloc_tol: float) -> str:
    """``"bloc"``, ``"pseudo-bloc"`` or ``"other"``: the one classification of a coalition profile.

    *Bloc*: every member within ``bloc_tol`` of the others (on a mesh the continuous
    bloc threshold is often straddled by two neighbouring points, so callers pass
    ``BLOC_STEPS`` mesh steps; in the continuum a rounding tolerance).  *Pseudo-bloc*:
    all members but one share a threshold (:func:`pseudo_bloc_parts`).  *Other*: the rest.
    """
    p = np.asarray(profile, dtype=float).ravel()
    if np.ptp(p) <= bloc_tol:
        return "bloc"
    return "pseudo-bloc" if pseudo_bloc_parts(p) is not None else "other"


def classify_components(components, bloc_tol) -> dict:
    """Group ``[(profile, probability), ...]`` by :func:`profile_kind`.

    ``bloc_tol`` is a number or a function of the profile (e.g. a local mesh step).
    Returns ``{"bloc": [...], "pseudo-bloc": [...], "other": [...]}``, each a list of
    ``(profile, probability)`` in the input order.
    """
    out = {"bloc": [], "pseudo-bloc": [], "other": []}
    for prof, w in components:
        tol = bloc_tol(prof) if callable(bloc_tol) else bloc_tol
        out[profile_kind(prof, tol)].append((prof, w))
    return out
