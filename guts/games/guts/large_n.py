"""Large coalitions: meshes that follow the thresholds and the 1 v. N game for N up to hundreds.

Paper §5 solves the pseudo-bloc game for N <= 15 on a uniform mesh of 101 points and
extrapolates the value curve to N -> infinity.  The thresholds that matter crowd
towards 1 as N grows: the symmetric equilibrium is ``p* = 2^(-1/N)`` (Proposition
3.3), so ``1 - p* ~ log(2)/N``, and at N = 15 the bloc threshold is already 0.94.
A uniform mesh of 101 points then has only a handful of points where the
strategies live.  This module

* builds threshold meshes uniform in the scaled coordinate ``s = N (1 - p)`` on a
  log scale (:func:`threshold_mesh`), so the relative resolution near the
  equilibrium thresholds is the same for every N;
* solves the pseudo-bloc game with :class:`PseudoBlocStage`, which stores a
  coalition profile ``(p_2, p_3, ..., p_3)`` as two mesh indices and evaluates
  α in O(1) per entry (instead of an (M^2, N) profile array and O(N) per entry),
  so meshes of a thousand points at N = 200 are cheap under the double oracle;
* checks convergence by solving on two meshes (:func:`solve_large_n` with
  ``points`` and ``2 * points - 1`` ...) and reporting the difference;
* is swept over N by :mod:`guts.studies.large_n` into ``results/large_n.csv``.

The fixed point and the Theorem 1.2 certificates are those of
:mod:`guts.engine.recursive`, exactly as in :func:`guts.solve_coalition`; on a common
mesh both give the same value (tested).

Examples
--------
>>> from guts.games.guts.large_n import solve_pseudo_bloc, threshold_mesh
>>> g = threshold_mesh(2, 101, kind="uniform")
>>> r = solve_pseudo_bloc(2, g)
>>> round(r.coalition_value, 6)      # Table 1 at mesh 101: 0.0132
0.013152
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import GutsInputError, check_choice, check_int, check_positive_float, check_thresholds
from guts.errors import ConvergenceWarning
from guts.engine.recursive import Certificate, FixedPointResult, certify, fixed_point
from guts.engine.stage import LazyStage

__all__ = [
    "MESH_KINDS",
    "threshold_mesh",
    "equilibrium_threshold",
    "pseudo_bloc_alpha",
    "pseudo_bloc_beta",
    "PseudoBlocStage",
    "LargeNResult",
    "solve_pseudo_bloc",
    "solve_large_n",
]

MESH_KINDS = ("scaled", "uniform")

# Inner double-oracle warnings are re-emitted unless both certificates hold and
# bracket the value this tightly.
HELD_WARNING_WIDTH = 1e-8


def equilibrium_threshold(n_players) -> np.ndarray:
    """The symmetric n-player equilibrium threshold ``p* = 2^(-1/n)`` (Proposition 3.3).

    >>> float(equilibrium_threshold(2)) ** 2          # 1/sqrt(2) squared
    0.5000000000000001
    """
    n = np.asarray(n_players, dtype=float)
    if np.any(n < 2):
        raise GutsInputError(f"the symmetric equilibrium needs n >= 2 players; got {n_players!r}")
    return np.exp2(-1.0 / n)


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
        ``s = N (1 - 2^(-1/(N+1))) -> log 2`` (Proposition 3.3), and the Table 1
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
    if kind == "uniform":
        return np.linspace(0.0, 1.0, points)
    s_min = check_positive_float("s_min", s_min)
    if s_min >= size:
        raise GutsInputError(f"s_min must be below the coalition size {size}; got {s_min}")
    # log(1 - p) uniform on [log(s_min / N), 0]; 1 - p computed directly (no 1 - (1 - x)).
    gaps = np.exp(np.linspace(0.0, math.log(s_min / size), points - 1))
    gaps[0] = 1.0
    return np.concatenate([1.0 - gaps, [1.0]])


# ---------------------------------------------------------------------------
# Pseudo-bloc payoffs in O(1) per entry.
# ---------------------------------------------------------------------------
def pseudo_bloc_alpha(q, free, bloc, size: int) -> np.ndarray:
    """Player 1's α against the pseudo-bloc profile ``(free, bloc, ..., bloc)`` (§3, §4.1.4).

    Closed form of :func:`guts.games.guts.payoffs.alpha` for ``N - 1`` equal thresholds:
    with ``k = N - 1`` and ``n = N + 1``,

    ``α = q (E[K] - 2 + 2Π) + (1 - q)(E[K] - 1 - n) + 2n ∫_q^1 max(a, x) max(b, x)^k dx``

    where ``a = free``, ``b = bloc``, ``E[K] = (1 - a) + k (1 - b)`` and
    ``Π = a b^k``.  The integrand is ``a b^k`` below ``min(a, b)``, ``x b^k``
    (a < x < b) or ``a x^k`` (b < x < a) between, and ``x^(k+1)`` above ``max(a, b)``.
    Broadcasts ``q``, ``free`` and ``bloc``; O(1) per entry.
    """
    size = check_int("size", size, 1)
    q = np.asarray(q, dtype=float)
    a = np.asarray(free, dtype=float)
    b = np.asarray(bloc, dtype=float)
    k = size - 1
    n = size + 1
    bk = b**k  # underflows to 0 for tiny b and large k: the exact limit
    EK = (1.0 - a) + k * (1.0 - b)
    Pi = a * bk
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    X1 = np.maximum(q, lo)
    X2 = np.maximum(q, hi)
    with np.errstate(divide="ignore"):
        L1, L2 = np.log(X1), np.log(X2)  # log 0 = -inf gives 0**m = 0 below
    X2k1 = np.exp((k + 1) * L2)
    # middle piece on [X1, X2]: x b^k if a <= b, a x^k if b < a
    mid = np.where(a <= b, bk * (X2 - X1) * (X2 + X1) / 2.0,
                   a * (X2k1 - np.exp((k + 1) * L1)) / (k + 1))
    # constant piece a b^k on [q, X1], and ∫_{X2}^1 x^(k+1) dx = (1 - X2^(k+2)) / (k+2)
    # with 1 - X2^(k+2) = -expm1((k+2) log X2), exact near X2 = 1
    G = Pi * (X1 - q) + mid - np.expm1((k + 2) * L2) / (k + 2)
    return q * (EK - 2.0 + 2.0 * Pi) + (1.0 - q) * (EK - 1.0 - n) + 2.0 * n * G


def pseudo_bloc_beta(q, free, bloc, size: int) -> np.ndarray:
    """Stakes multiplier β = Σ(1 - p_i) - 1 + 2 Π p_i for ``q`` against ``(free, bloc*(N-1))`` (§3)."""
    size = check_int("size", size, 1)
    q = np.asarray(q, dtype=float)
    a = np.asarray(free, dtype=float)
    b = np.asarray(bloc, dtype=float)
    k = size - 1
    return (1.0 - q) + (1.0 - a) + k * (1.0 - b) - 1.0 + 2.0 * q * a * b**k


class PseudoBlocStage(LazyStage):
    """Player 1 (rows: thresholds) against pseudo-bloc coalitions (columns), stored compactly.

    Column ``j = i2 * M + i3`` is the profile ``(g[i2], g[i3], ..., g[i3])`` (free
    member ``p_2 = g[i2]``, the other ``N - 1`` members at ``g[i3]``): the same
    ordering as :func:`guts.games.guts.strategies.coalition_profiles` for ``"pseudo-bloc"``.
    For N = 1 the columns are the M thresholds of the single opponent.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    row_thresholds : array_like
        Player 1's thresholds.
    col_thresholds : array_like, optional
        Thresholds of each coalition member (default: player 1's).
    """

    def __init__(self, size: int, row_thresholds, col_thresholds=None):
        self.size = check_int("size", size, 1)
        self.row_thresholds = _grid("mesh", row_thresholds)
        self.col_grid = self.row_thresholds if col_thresholds is None else _grid("coalition_mesh", col_thresholds)
        M = self.col_grid.size
        super().__init__((self.row_thresholds.size, M if self.size == 1 else M * M))

    def profile_parts(self, J) -> tuple[np.ndarray, np.ndarray]:
        """``(free, bloc)`` thresholds of columns ``J``."""
        J = np.asarray(J, dtype=np.intp)
        if self.size == 1:
            return self.col_grid[J], self.col_grid[J]
        M = self.col_grid.size
        return self.col_grid[J // M], self.col_grid[J % M]

    def profiles(self, J) -> np.ndarray:
        """Columns ``J`` as explicit profiles, shape ``(len(J), N)``."""
        a, b = self.profile_parts(J)
        return np.concatenate([a[:, None], np.repeat(b[:, None], self.size - 1, axis=1)], axis=1)

    max_cached_rows = 64  # rows are M^2 long: keep only the ones in use

    def _block(self, I, J):
        q = self.row_thresholds[I]
        a, b = self.profile_parts(J)
        A = pseudo_bloc_alpha(q[:, None], a[None, :], b[None, :], self.size)
        B = pseudo_bloc_beta(q[:, None], a[None, :], b[None, :], self.size)
        return A, B


def _grid(name, values) -> np.ndarray:
    g = check_thresholds(name, values).ravel()
    return np.unique(g)


# ---------------------------------------------------------------------------
# Solving one size.
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LargeNResult:
    """The 1 v. N pseudo-bloc game on one threshold mesh.

    Attributes
    ----------
    size : int
        Coalition size N.
    points : int
        Number of thresholds in the mesh (player 1 and every coalition member).
    coalition_value : float
        What the coalition forces from ``W_0 = -N`` (Table 1 "Opponent Value").
    player1_value : float
        What player 1 forces from ``V_0 = -1`` (``-coalition_value`` when the game has a value).
    certified_lower, certified_upper : float
        Theorem 1.2 interval for player 1's value of the discretized game (``nan`` if
        a certificate failed); the coalition's value lies in ``[-certified_upper, -certified_lower]``.
    player1_strategy : dict
        ``{threshold: probability}``.
    coalition_strategy : dict
        ``{(free, bloc): probability}`` for profiles ``(free, bloc, ..., bloc)``.
    converged : bool
        Both fixed points converged.
    num_solves : int
        Inner (double-oracle) solves, both sides.
    inner_warnings : int
        Double-oracle stops above its 1e-13 gap target that were held back because
        the Theorem 1.2 certificates confirm the value to ``HELD_WARNING_WIDTH``.
    seconds : float
        Wall time.
    grid : numpy.ndarray
        The mesh.
    """

    size: int
    points: int
    coalition_value: float
    player1_value: float
    certified_lower: float
    certified_upper: float
    player1_strategy: dict
    coalition_strategy: dict
    converged: bool
    num_solves: int
    inner_warnings: int
    seconds: float
    grid: np.ndarray = field(repr=False)
    player1: FixedPointResult = field(repr=False)
    coalition: FixedPointResult = field(repr=False)

    @property
    def certified_width(self) -> float:
        """Width of the certified interval (nan if a certificate failed)."""
        return self.certified_upper - self.certified_lower

    def bloc_and_pseudo_bloc(self):
        """``(player1, bloc, pseudo_bloc, pseudo_free, pseudo_weight)`` summary thresholds.

        Profiles whose free member is within 1.5 local mesh steps of the others
        count as bloc (for N = 2 the free member is the lower threshold) (a continuous bloc threshold is often straddled by two
        neighbouring mesh points), the rest as pseudo-bloc.  Each summary is the
        probability-weighted mean threshold of its group (``nan`` if empty).
        """
        g = self.grid
        bloc_w = bloc_t = pseudo_w = pseudo_t = pseudo_a = 0.0
        for (a, b), w in self.coalition_strategy.items():
            if self.size == 2:  # (a, b) and (b, a) are the same coalition profile
                a, b = min(a, b), max(a, b)
            i = int(np.searchsorted(g, b))
            lo, hi = g[max(i - 1, 0)], g[min(i + 1, g.size - 1)]
            if abs(a - b) <= 1.5 * max(hi - b, b - lo):
                bloc_w, bloc_t = bloc_w + w, bloc_t + w * b
            else:
                pseudo_w, pseudo_t, pseudo_a = pseudo_w + w, pseudo_t + w * b, pseudo_a + w * a
        p1 = sum(t * w for t, w in self.player1_strategy.items())
        nan = math.nan
        return (p1, bloc_t / bloc_w if bloc_w else nan, pseudo_t / pseudo_w if pseudo_w else nan,
                pseudo_a / pseudo_w if pseudo_w else nan, pseudo_w)


def solve_pseudo_bloc(size: int, mesh, coalition_mesh=None, tol: float = 1e-12,
                      certify_result: bool = True) -> LargeNResult:
    """Solve the 1 v. N pseudo-bloc recursive game on an explicit mesh (paper §5).

    Same computation as ``solve_coalition(size, mesh, "pseudo-bloc", solver="oracle")``
    — player 1's fixed point from ``V_0 = -1``, the coalition's from ``W_0 = -N``,
    Newton steps, double-oracle stage solves, Theorem 1.2 certificates — on a
    :class:`PseudoBlocStage`, whose memory and cost per entry do not grow with N.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    mesh : array_like
        Player 1's thresholds (e.g. :func:`threshold_mesh`).
    coalition_mesh : array_like, optional
        The coalition members' thresholds (default: ``mesh``).
    tol : float
        Fixed-point tolerance.
    certify_result : bool
        Compute the Theorem 1.2 certificates.

    Returns
    -------
    LargeNResult
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    tol = check_positive_float("tol", tol)
    stage = PseudoBlocStage(size, mesh, coalition_mesh)
    common = dict(solver="oracle", method="newton", tol=tol)
    with warnings.catch_warnings(record=True) as caught:
        # On fine meshes neighbouring columns differ by ~1e-12 and the restricted LPs
        # (HiGHS) stop the double oracle at gaps of ~1e-11 > its 1e-13 target.  Those
        # warnings are held back and judged below against the certificates, which
        # check the final strategies on the whole game independently of the LPs.
        warnings.simplefilter("always", ConvergenceWarning)
        p1 = fixed_point(stage, v0=-1.0, cap=float(size), **common)
        co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **common)
    held = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    for w in caught:
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    lo = hi = math.nan
    if certify_result:
        c_lo: Certificate = certify(stage, strategy=p1.row_strategy, v_start=-1.0)
        c_hi: Certificate = certify(stage.transpose(), strategy=co.row_strategy, v_start=-float(size))
        lo = c_lo.v_certified if c_lo.valid else math.nan
        hi = -c_hi.v_certified if c_hi.valid else math.nan
    converged = bool(p1.converged and co.converged)
    if held and not (converged and hi - lo <= HELD_WARNING_WIDTH):
        for w in held:
            warnings.warn(str(w.message), ConvergenceWarning, stacklevel=2)
    g = stage.row_thresholds
    x, y = p1.row_strategy, co.row_strategy
    J = np.flatnonzero(y > 1e-9)
    a, b = stage.profile_parts(J)
    return LargeNResult(
        size=size, points=int(g.size), coalition_value=float(co.value), player1_value=float(p1.value),
        certified_lower=float(lo), certified_upper=float(hi),
        player1_strategy={float(g[i]): float(x[i]) for i in np.flatnonzero(x > 1e-9)},
        coalition_strategy={(float(a[k]), float(b[k])): float(y[j]) for k, j in enumerate(J)},
        converged=converged, num_solves=p1.num_solves + co.num_solves, inner_warnings=len(held),
        seconds=time.perf_counter() - t0, grid=g, player1=p1, coalition=co,
    )


# ---------------------------------------------------------------------------
# Continuous best responses: a bracket for the game with thresholds in [0, 1].
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ValueBracket:
    """The coalition's value of the *continuous* pseudo-bloc game, bracketed by two certificates.

    Attributes
    ----------
    lower : float
        The mesh solution's coalition strategy, repeated, forces at least this against
        every player-1 threshold in [0, 1] (Theorem 1.2 with player 1's continuous
        best response).
    upper : float
        Player 1's mesh strategy, repeated, holds the coalition to at most this
        against every pseudo-bloc profile ``(free, bloc)`` in [0, 1]^2.
    player1_response : float
        Player 1's best threshold against the coalition's strategy.
    coalition_response : tuple of float
        The coalition's best profile ``(free, bloc)`` against player 1's strategy.
    lower_certificate, upper_certificate : Certificate
        The two Theorem 1.2 certificates (coalition side, player 1 side).

    Notes
    -----
    The best responses are found by a global search on a dense grid that follows
    the thresholds (:func:`threshold_mesh`, plus a uniform grid and the solve's
    mesh) followed by a zoom around the best grid points; payoffs are C^1 in every
    threshold, so the zoom converges to the local optimum.  The bracket is
    rigorous up to that search (no interval arithmetic).
    """

    lower: float
    upper: float
    player1_response: float
    coalition_response: tuple
    lower_certificate: Certificate = field(repr=False)
    upper_certificate: Certificate = field(repr=False)

    @property
    def width(self) -> float:
        """``upper - lower`` (nan if a certificate failed)."""
        return self.upper - self.lower


def _zoom_min(f, center, lo, hi, points: int = 21, iterations: int = 45):
    """Minimise ``f`` (vectorised over a list of coordinate arrays) near ``center`` in a box.

    Each step evaluates a ``points^d`` grid over the box, recentres on the best
    point and halves the box (still at least 5 grid steps each side of the best
    point, so a smooth local minimum is never lost); 45 halvings take a unit box
    to ~3e-14.
    """
    c = np.array(center, dtype=float)
    lo0, hi0 = np.array(lo, dtype=float), np.array(hi, dtype=float)
    half = np.maximum(np.maximum(c - lo0, hi0 - c), 1e-300)
    best_x, best_f = c, float(f(*[np.array([v]) for v in c])[0])
    for _ in range(iterations):
        axes = [np.clip(np.linspace(ci - h, ci + h, points), l, u) for ci, h, l, u in zip(c, half, lo0, hi0)]
        mesh = np.meshgrid(*axes, indexing="ij")
        vals = f(*[m.ravel() for m in mesh])
        k = int(np.argmin(vals))
        if vals[k] < best_f:
            best_f, best_x = float(vals[k]), np.array([m.ravel()[k] for m in mesh])
        c = best_x
        half = half / 2.0
    # snap to the box's edges (e.g. the free member's threshold 0) within rounding
    best_x = np.where(np.abs(best_x - lo0) < 1e-13, lo0, np.where(np.abs(best_x - hi0) < 1e-13, hi0, best_x))
    return best_x, float(f(*[np.array([v]) for v in best_x])[0])


def _polish(f, z0) -> np.ndarray:
    """L-BFGS-B from ``z0`` on [0, 1]^2 for ``f(a, b)`` (vectorised); returns the end point."""
    from scipy.optimize import minimize

    def obj(z):
        v = float(f(np.array([z[0]]), np.array([z[1]]))[0])
        return v if np.isfinite(v) else 1e6

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = minimize(obj, np.asarray(z0, dtype=float), method="L-BFGS-B", bounds=[(0.0, 1.0)] * 2,
                       options=dict(ftol=1e-16, gtol=1e-14, maxiter=2000, eps=1e-10))
    return np.clip(res.x, 0.0, 1.0)


def _ratio(a, b):
    """Value a repeated strategy forces against one opponent pure strategy (Theorem 1.2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b < 1.0, a / (1.0 - b), np.inf)


def _candidates(vals: np.ndarray, count: int) -> np.ndarray:
    """Flat indices of the ``count`` smallest entries (ties broken by position)."""
    flat = vals.ravel()
    count = min(count, flat.size)
    idx = np.argpartition(flat, count - 1)[:count]
    return idx[np.argsort(flat[idx], kind="stable")]


def _search_grid(size: int, points: int, uniform: int, extra) -> np.ndarray:
    return np.unique(np.concatenate([threshold_mesh(size, points), np.linspace(0.0, 1.0, uniform),
                                     np.asarray(extra, dtype=float).ravel()]))


def bracket_value(result: LargeNResult, search_points: int = 4001, search_points_2d: int = 401,
                  starts: int = 6) -> ValueBracket:
    """Bracket the continuous pseudo-bloc game's value with the mesh solution's strategies.

    The mesh game restricts both sides to the mesh.  Each side's mesh strategy is
    certified (Theorem 1.2) against the opponent's *continuous* pure strategies:
    player 1's thresholds in [0, 1] (a 1-D search) and the coalition's profiles
    ``(free, bloc)`` in [0, 1]^2 (a 2-D search).  The certified value against one
    opponent pure strategy ``j`` is ``a_j / (1 - b_j)`` (``a = x A``, ``b = x B``), so
    each search minimises that ratio.

    Parameters
    ----------
    result : LargeNResult
        A mesh solution (:func:`solve_pseudo_bloc`).
    search_points, search_points_2d : int
        Scaled-mesh points of the 1-D and 2-D search grids (plus 1001 / 101 uniform
        points; the 1-D grid also contains the solve's mesh).
    starts : int
        Best grid points refined by the zoom.

    Returns
    -------
    ValueBracket
    """
    N = result.size
    search_points = check_int("search_points", search_points, 3)
    search_points_2d = check_int("search_points_2d", search_points_2d, 3)
    prof = np.array(list(result.coalition_strategy.keys()), dtype=float)
    w = np.array(list(result.coalition_strategy.values()), dtype=float)
    w = w / w.sum()
    qs = np.array(list(result.player1_strategy.keys()), dtype=float)
    x = np.array(list(result.player1_strategy.values()), dtype=float)
    x = x / x.sum()

    # Player 1's best threshold against the coalition's strategy w (coalition pays -α).
    def coal_ratio(q):
        q = np.asarray(q, dtype=float)[:, None]
        a = -(pseudo_bloc_alpha(q, prof[:, 0], prof[:, 1], N) @ w)
        b = pseudo_bloc_beta(q, prof[:, 0], prof[:, 1], N) @ w
        return _ratio(a, b)

    dense = _search_grid(N, search_points, 1001, result.grid)
    vals = coal_ratio(dense)
    polished = []
    for k in _candidates(vals, starts):
        lo_, hi_ = dense[max(k - 1, 0)], dense[min(k + 1, dense.size - 1)]
        xq, _ = _zoom_min(coal_ratio, [dense[k]], [lo_], [hi_])
        polished.append(float(xq[0]))
    rows = np.union1d(dense, polished)
    col_grid = np.unique(prof)
    st_lo = PseudoBlocStage(N, rows, col_grid)
    y = np.zeros(st_lo.shape[1])
    ia, ib = np.searchsorted(col_grid, prof[:, 0]), np.searchsorted(col_grid, prof[:, 1])
    np.add.at(y, ia if N == 1 else ia * col_grid.size + ib, w)
    cert_lo = certify(st_lo.transpose(), strategy=y, v_start=-float(N))
    p1_best = polished[int(np.argmin(coal_ratio(np.array(polished))))]

    # The coalition's best profile (free, bloc) against player 1's strategy x.
    def p1_ratio(a, b):
        a = np.asarray(a, dtype=float)[:, None]
        b = np.asarray(b, dtype=float)[:, None]
        return _ratio(pseudo_bloc_alpha(qs, a, b, N) @ x, pseudo_bloc_beta(qs, a, b, N) @ x)

    G = _search_grid(N, search_points_2d, 101, [])
    A2, B2 = np.meshgrid(G, G, indexing="ij")
    vals2 = p1_ratio(A2.ravel(), B2.ravel()).reshape(A2.shape)
    best2, co_best = math.inf, (math.nan, math.nan)
    extra = []
    found = []
    for k in _candidates(vals2, starts):
        i, j = np.unravel_index(k, vals2.shape)
        box_lo = [G[max(i - 1, 0)], G[max(j - 1, 0)]]
        box_hi = [G[min(i + 1, G.size - 1)], G[min(j + 1, G.size - 1)]]
        found.append(_zoom_min(p1_ratio, [G[i], G[j]], box_lo, box_hi)[0])
    # Bloc profiles lie in a narrow valley along the diagonal a = b, where an axis-aligned
    # zoom can stall away from the minimum: search the diagonal on its own too, and
    # polish every candidate with a quasi-Newton method that follows valleys.
    diag = p1_ratio(G, G)
    for k in _candidates(diag, max(starts // 2, 1)):
        t, _ = _zoom_min(lambda u: p1_ratio(u, u), [G[k]], [G[max(k - 1, 0)]], [G[min(k + 1, G.size - 1)]])
        found.append(np.array([t[0], t[0]]))
    for z in found:
        for cand in (z, _polish(p1_ratio, z)):
            fz = float(p1_ratio(cand[:1], cand[1:])[0])
            extra.extend(cand.tolist())
            if fz < best2:
                best2, co_best = fz, (float(cand[0]), float(cand[1]))
    st_hi = PseudoBlocStage(N, qs, np.union1d(G, extra))
    xv = np.zeros(st_hi.shape[0])
    xv[np.searchsorted(st_hi.row_thresholds, qs)] = x
    cert_hi = certify(st_hi, strategy=xv, v_start=-1.0)
    return ValueBracket(
        lower=cert_lo.v_certified if cert_lo.valid else math.nan,
        upper=-cert_hi.v_certified if cert_hi.valid else math.nan,
        player1_response=p1_best, coalition_response=co_best,
        lower_certificate=cert_lo, upper_certificate=cert_hi,
    )


# ---------------------------------------------------------------------------
# Adaptive refinement: the value of the continuous pseudo-bloc game for one N.
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LargeNValue:
    """The 1 v. N pseudo-bloc value with thresholds in [0, 1], by adaptive mesh refinement.

    Attributes
    ----------
    size : int
        Coalition size N.
    value : float
        The coalition's value of the final (refined) mesh game.
    lower, upper : float
        Certified bracket for the coalition's value of the continuous pseudo-bloc
        game (:class:`ValueBracket` of the final mesh solution).
    rounds : int
        Mesh solves.
    points : int
        Thresholds in the final mesh.
    converged : bool
        ``upper - lower <= target_width`` and the fixed points converged.
    history : tuple of (points, value, lower, upper)
        One entry per round: the refinement study.
    player1_strategy, coalition_strategy : dict
        Final mesh strategies (``{threshold: p}``, ``{(free, bloc): p}``).
    mesh_result : LargeNResult
        The final mesh solution.
    seconds : float
    """

    size: int
    value: float
    lower: float
    upper: float
    rounds: int
    points: int
    converged: bool
    history: tuple
    player1_strategy: dict
    coalition_strategy: dict
    seconds: float
    mesh_result: LargeNResult = field(repr=False)
    bracket: ValueBracket = field(repr=False)

    @property
    def width(self) -> float:
        """``upper - lower``."""
        return self.upper - self.lower


def _local_points(thresholds, delta: float, count: int) -> np.ndarray:
    """``2 count + 1`` thresholds around each ``t`` with gaps ``(1 - t) e^(k delta)`` (log spacing)."""
    t = np.asarray([v for v in thresholds if 0.0 < v < 1.0], dtype=float)
    if t.size == 0:
        return np.empty(0)
    k = np.arange(-count, count + 1)
    pts = 1.0 - np.outer(1.0 - t, np.exp(delta * k)).ravel()
    return pts[(pts >= 0.0) & (pts <= 1.0)]


def solve_large_n(size: int, points: int = 100, max_rounds: int = 10, target_width: float = 1e-9,
                  s_min: float = 0.02, local: int = 4, warn: bool = True) -> LargeNValue:
    """Value of the 1 v. N pseudo-bloc game with continuous thresholds (paper §5, large N).

    Round 0 solves on :func:`threshold_mesh` ``(size, points)``.  Each round then
    brackets the continuous game's value (:func:`bracket_value`) and refines the
    mesh where the strategies live: it adds both continuous best responses and
    ``2 local + 1`` points with log-spaced gaps ``1 - p`` around every support
    threshold, the spacing shrinking four-fold per round.  It stops when the
    bracket is narrower than ``target_width``.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    points : int
        Points of the initial scaled mesh (>= 10).
    max_rounds : int
        Mesh solves at most.
    target_width : float
        Stop when ``upper - lower <= target_width``.
    s_min : float
        Smallest scaled gap ``N (1 - p)`` of the initial mesh.
    local : int
        Refinement points each side of a support threshold.
    warn : bool
        Warn (ConvergenceWarning) if the bracket is still wider than ``target_width``.

    Returns
    -------
    LargeNValue

    Examples
    --------
    >>> v = solve_large_n(1, points=30)          # 2-player Guts is fair (Prop. 3.3)
    >>> abs(v.lower) < 1e-9 and abs(v.upper) < 1e-9
    True
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    points = check_int("points", points, 10)
    max_rounds = check_int("max_rounds", max_rounds, 1)
    target_width = check_positive_float("target_width", target_width)
    local = check_int("local", local, 1)
    mesh = threshold_mesh(size, points, "scaled", s_min)
    delta = math.log(size / s_min) / (points - 2)  # log spacing of the scaled mesh
    history = []
    for rnd in range(max_rounds):
        res = solve_pseudo_bloc(size, mesh)
        br = bracket_value(res)
        history.append((int(mesh.size), res.coalition_value, br.lower, br.upper))
        if br.width <= target_width or rnd == max_rounds - 1:
            break
        support = [*res.player1_strategy, *(t for prof in res.coalition_strategy for t in prof),
                   br.player1_response, *br.coalition_response]
        delta /= 4.0
        mesh = np.union1d(mesh, np.concatenate([_local_points(support, delta, local),
                                                [br.player1_response, *br.coalition_response]]))
    converged = bool(br.width <= target_width and res.converged)
    if warn and not converged:
        warnings.warn(f"1 v. {size}: bracket width {br.width:.3e} after {len(history)} rounds "
                      f"(target {target_width:.1e}, fixed points converged: {res.converged})",
                      ConvergenceWarning, stacklevel=2)
    return LargeNValue(
        size=size, value=res.coalition_value, lower=br.lower, upper=br.upper, rounds=len(history),
        points=int(mesh.size), converged=converged, history=tuple(history),
        player1_strategy=res.player1_strategy, coalition_strategy=res.coalition_strategy,
        seconds=time.perf_counter() - t0, mesh_result=res, bracket=br,
    )
