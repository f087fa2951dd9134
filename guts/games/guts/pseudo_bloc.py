"""The pseudo-bloc coalition ``(a, b, ..., b)`` of continuous Guts: payoffs, gradient, stage.

Paper §3 (closed form of α, β) and §4.1.4, §5 (the pseudo-bloc coalition: player 2 at
the free threshold ``a``, players 3..N+1 at the common threshold ``b``).  Player 1's
payoff against such a profile has an O(1) closed form (:func:`pseudo_bloc_alpha`), so
its cost and memory do not grow with N; the paper's O(n^2) enumeration is
:func:`guts.games.guts.payoffs.alpha_pseudo_bloc_enumeration` (the test oracle).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from guts._validate import check_int, check_memory, check_thresholds
from guts.engine.stage import LazyStage
from guts.games.guts.strategies import resolve_grid

__all__ = ["pseudo_bloc", "pseudo_bloc_alpha", "pseudo_bloc_beta", "stage_payoff", "stage_gradient",
           "PseudoBlocStage", "stage_bytes", "minimize_on_box"]


def pseudo_bloc(size: int, a, b) -> np.ndarray:
    """Profiles ``(a, b, ..., b)`` (``N - 1`` copies of ``b``) of shape ``(C, N)``; ``(a,)`` for N = 1."""
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.broadcast_to(np.asarray(b, dtype=float), a.shape)
    return np.concatenate([a[:, None], np.repeat(b[:, None], size - 1, axis=1)], axis=1)


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
    return _alpha(np.asarray(q, dtype=float), free, bloc, check_int("size", size, 1))


def _alpha(q, free, bloc, size: int) -> np.ndarray:
    """:func:`pseudo_bloc_alpha` without the argument check (hot loops)."""
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
    return _beta(q, free, bloc, check_int("size", size, 1))


def _beta(q, free, bloc, size: int) -> np.ndarray:
    """:func:`pseudo_bloc_beta` without the argument check."""
    q = np.asarray(q, dtype=float)
    a = np.asarray(free, dtype=float)
    b = np.asarray(bloc, dtype=float)
    k = size - 1
    return (1.0 - q) + (1.0 - a) + k * (1.0 - b) - 1.0 + 2.0 * q * a * b**k


def stage_payoff(size: int, thresholds, weights, a, b, V: float) -> np.ndarray:
    """``Σ_i w_i [α(q_i; a, b..b) + V β(q_i; a, b..b)]`` for every ``(a, b)`` (vectorised).

    Parameters
    ----------
    size : int
        Coalition size N.
    thresholds, weights : array_like, shape (R,)
        Player 1's mixed strategy (thresholds ``q_i`` with probabilities ``w_i``).
    a, b : array_like, shape (C,)
        Pseudo-bloc profiles (``b`` ignored for N = 1).
    V : float
        Continuation value (stakes multiplier weight), paper (1.4).
    """
    q = check_thresholds("thresholds", thresholds).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    a = np.atleast_1d(check_thresholds("a", a))
    b = np.broadcast_to(check_thresholds("b", b), a.shape)
    return _stage_payoff(check_int("size", size, 1), q, w, a, b, V)


def _stage_payoff(size: int, q: np.ndarray, w: np.ndarray, a: np.ndarray, b: np.ndarray, V: float) -> np.ndarray:
    """:func:`stage_payoff` on checked arrays (``q``, ``w`` of shape (R,), ``a``, ``b`` of shape (C,))."""
    qc, ar, br = q[:, None], a[None, :], b[None, :]
    return w @ (_alpha(qc, ar, br, size) + V * _beta(qc, ar, br, size))


def _partials(size: int, q: np.ndarray, a: np.ndarray, b: np.ndarray, magnitude: bool = False):
    """``(∂α/∂a, ∂β/∂a, ∂α/∂b, ∂β/∂b)`` of ``α(q; a, b..b)``, shape ``(R, C)``.

    With ``n = N + 1``, ``u = max(a, q)``, ``m = clip(b, q, u)`` (and for b:
    ``u' = max(b, q)``, ``m' = clip(a, q, u')``)::

        ∂α/∂a = -1 + 2q b^(N-1) + 2n [b^(N-1)(m - q) + (u^N - m^N)/N]
        ∂α/∂b = (N-1)(-1 + 2q a b^(N-2) + 2n b^(N-2) [a(m' - q) + (u'^2 - m'^2)/2])
        ∂β/∂a = -1 + 2q b^(N-1),   ∂β/∂b = (N-1)(-1 + 2q a b^(N-2))

    (the brackets are ``∫_q^{max(p_j, q)} Π_{k≠j} max(p_k, x) dx``).  Every entry is
    non-decreasing in ``a`` and in ``b``.

    With ``magnitude``, the same sums with the absolute value of every term (``-1`` becomes
    ``1``, ``u^N - m^N`` becomes ``u^N + m^N``): the magnitudes whose multiple bounds each
    partial's rounding error (:func:`guts.games.guts.continuum.rounding.partials_magnitude`).
    """
    sign = 1.0 if magnitude else -1.0       # negation is exact: x + (-1.0) * y is x - y
    N = size
    n = N + 1
    q = q[:, None]
    a = a[None, :]
    b = b[None, :]
    bN1 = b ** (N - 1)
    u = np.maximum(a, q)
    m = np.clip(b, q, u)
    ia = bN1 * (m - q) + (u**N + sign * m**N) / N
    dBa = sign + 2.0 * q * bN1
    dAa = dBa + 2.0 * n * ia
    if N == 1:
        zero = np.zeros(np.broadcast_shapes(q.shape, a.shape))
        return dAa, dBa, zero, zero
    bN2 = b ** (N - 2)
    u2 = np.maximum(b, q)
    m2 = np.clip(a, q, u2)
    ib = a * (m2 - q) + (u2**2 + sign * m2**2) / 2.0
    dBb = (N - 1) * (sign + 2.0 * q * a * bN2)
    dAb = dBb + (N - 1) * 2.0 * n * bN2 * ib
    return dAa, dBa, dAb, dBb


def stage_gradient(size: int, thresholds, weights, a, b, V: float) -> tuple[np.ndarray, np.ndarray]:
    """Gradient in ``(a, b)`` of :func:`stage_payoff` (``∂/∂b`` is 0 for N = 1)."""
    q = np.asarray(thresholds, dtype=float).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.broadcast_to(np.asarray(b, dtype=float), a.shape)
    dAa, dBa, dAb, dBb = _partials(size, q, a, b)
    return w @ (dAa + V * dBa), w @ (dAb + V * dBb)


def _gradient_bounds(size, q, w, V, a0, a1, b0, b1):
    """Intervals containing ``∂/∂a`` and ``∂/∂b`` of the payoff over each box.

    Every partial of α and β is non-decreasing in ``(a, b)``, so over a box it lies
    between its values at ``(a0, b0)`` and ``(a1, b1)``; the β part enters with the
    sign of ``V``.
    """
    lo = _partials(size, q, a0, b0)
    hi = _partials(size, q, a1, b1)
    out = []
    for k in (0, 2):
        A_lo, A_hi = w @ lo[k], w @ hi[k]
        B_lo, B_hi = w @ lo[k + 1], w @ hi[k + 1]
        if V >= 0:
            out.append((A_lo + V * B_lo, A_hi + V * B_hi))
        else:
            out.append((A_lo + V * B_hi, A_hi + V * B_lo))
    return out


#: Full rows kept by :class:`PseudoBlocStage` (each row holds M^2 payoffs).
MAX_CACHED_ROWS = 64
#: Float64 words per column at the peak of a pseudo-bloc solve (:func:`stage_bytes`).
STAGE_FLOATS_PER_COLUMN = 2 * MAX_CACHED_ROWS + 12


def stage_bytes(size: int, points: int) -> float:
    """Estimated peak memory of a :class:`PseudoBlocStage` solve with ``points`` thresholds.

    Rows are ``C = points^2`` long (``points`` for N = 1); the double oracle keeps up
    to :data:`MAX_CACHED_ROWS` of them (α and β) in the cache, its restricted game and a
    few full-row temporaries: :data:`STAGE_FLOATS_PER_COLUMN` float64 per column at the peak
    (calibrated by ``benchmarks/memory_calibration.py``: 88 to 104 measured on 1 v. 5,
    meshes 401 and 801).
    """
    C = float(points) if size == 1 else float(points) ** 2
    return 8.0 * C * STAGE_FLOATS_PER_COLUMN


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
        self.row_thresholds = resolve_grid(row_thresholds, "mesh", minimum=1)
        self.col_grid = (self.row_thresholds if col_thresholds is None
                         else resolve_grid(col_thresholds, "coalition_mesh", minimum=1))
        M = self.col_grid.size
        check_memory(f"the pseudo-bloc game with {M} coalition thresholds", stage_bytes(self.size, M),
                     "use fewer mesh points")
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
        return pseudo_bloc(self.size, *self.profile_parts(J))

    max_cached_rows = MAX_CACHED_ROWS  # rows are M^2 long: keep only the ones in use

    def _block(self, I, J):
        q = self.row_thresholds[I]
        a, b = self.profile_parts(J)
        A = _alpha(q[:, None], a[None, :], b[None, :], self.size)
        B = _beta(q[:, None], a[None, :], b[None, :], self.size)
        return A, B


def minimize_on_box(fun, z0, jac=None, dim: int | None = None, **options) -> tuple[np.ndarray, float]:
    """Local minimum of ``fun`` on the box ``[0, 1]^dim`` from ``z0`` by L-BFGS-B.

    The one polish step of the pseudo-bloc best responses: the global searches (branch
    and bound, grid zoom) find the basin, this follows the valley to its bottom.
    ``options`` go to :func:`scipy.optimize.minimize` (``ftol``, ``gtol``, ``maxiter``,
    ``eps``).  Returns the end point (clipped to the box) and ``fun`` there.
    """
    z0 = np.atleast_1d(np.asarray(z0, dtype=float))
    dim = z0.size if dim is None else dim
    res = minimize(fun, z0[:dim], jac=jac, method="L-BFGS-B", bounds=[(0.0, 1.0)] * dim, options=options)
    z = np.clip(res.x, 0.0, 1.0)
    return z, float(fun(z))
