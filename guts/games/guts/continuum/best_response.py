"""Best responses in the continuum 1 v. N pseudo-bloc game: player 1's exact, the coalition's
certified by branch and bound (paper §3, §5; see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from guts._validate import GutsInputError, check_int, check_positive_float, check_thresholds
from guts.engine.tolerances import CERT_ROUNDING
from guts.games.guts.payoffs import alpha_matrix, beta_matrix
from guts.games.guts.pseudo_bloc import (_gradient_bounds, _stage_payoff, minimize_on_box, stage_gradient,
                                         stage_payoff)


def player1_best_response(profiles, weights, V: float) -> tuple[float, float]:
    """Player 1's exact best response to a finite coalition mixture.

    Maximises ``f(q) = Σ_j y_j [α(q; P_j) + V β(q; P_j)]`` over [0, 1].

    Parameters
    ----------
    profiles : array_like, shape (C, N)
        Coalition profiles ``P_j`` (any thresholds, not only pseudo-bloc).
    weights : array_like, shape (C,)
        Their probabilities ``y_j``.
    V : float

    Returns
    -------
    (q, value)
        The largest maximiser and ``f(q)``.

    Notes
    -----
    ``f'(q) = c - 2n D(q)`` with ``c = Σ_j y_j [n - 1 + 2Π_j + V (2Π_j - 1)]`` and
    ``D(q) = Σ_j y_j Π_k max(p_jk, q)`` non-decreasing and continuous: ``f`` is concave
    (§3 closed form).  Between consecutive thresholds ``D`` is a polynomial, strictly
    increasing once ``q`` exceeds the smallest threshold, so the maximiser is 0, 1, or
    the unique root of a monotone polynomial on the piece where ``f'`` changes sign
    (Brent's method to machine precision).
    """
    P = check_thresholds("profiles", profiles)
    if P.ndim != 2:
        raise GutsInputError(f"profiles must have shape (C, N); got {P.shape}")
    y = np.asarray(weights, dtype=float).ravel()
    if y.size != P.shape[0] or np.any(y < 0) or not abs(y.sum() - 1.0) <= 1e-9:
        raise GutsInputError(f"weights must be {P.shape[0]} probabilities summing to 1")
    n = P.shape[1] + 1
    Pi = np.prod(P, axis=1)
    c = float(y @ (n - 1 + 2 * Pi + V * (2 * Pi - 1)))

    def phi(t):  # -f'(t) = 2n D(t) - c, non-decreasing
        return 2.0 * n * float(y @ np.prod(np.maximum(P, t), axis=1)) - c

    knots = np.unique(np.concatenate([[0.0, 1.0], P[y > 0].ravel()]))
    vals = np.array([phi(t) for t in knots])
    pos = np.flatnonzero(vals > 0)
    if pos.size == 0:
        q = 1.0
    elif pos[0] == 0:
        q = 0.0
    else:
        lo, hi = knots[pos[0] - 1], knots[pos[0]]
        q = lo if vals[pos[0] - 1] == 0 else brentq(phi, lo, hi, xtol=1e-16, rtol=4 * np.finfo(float).eps)
    value = float(y @ (alpha_matrix([q], P)[0] + V * beta_matrix([q], P)[0]))
    return float(q), value


@dataclass(frozen=True)
class BoxMinimum:
    """Certified global minimum of a pseudo-bloc payoff over [0, 1]^2 (branch and bound).

    Attributes
    ----------
    point : (float, float)
        ``(a, b)`` with the smallest payoff found (``value``).
    value : float
        Payoff at ``point``: an upper bound of the minimum.
    lower : float
        Rigorous lower bound of the minimum (mean-value bound on every box, with a
        floating-point allowance).
    converged : bool
        ``value - lower <= tol`` was reached within the box budget.
    boxes : int
        Boxes examined.
    """

    point: tuple
    value: float
    lower: float
    converged: bool
    boxes: int


def _polish(size, q, w, V, a, b):
    """Local minimum of the coalition's payoff near ``(a, b)`` (L-BFGS-B, analytic gradient)."""
    dim = 1 if size == 1 else 2
    q, w = np.asarray(q, dtype=float).ravel(), np.asarray(w, dtype=float).ravel()

    def split(z):
        return z[:1], (z[1:] if dim == 2 else np.zeros(1))

    def fun(z):
        return float(_stage_payoff(size, q, w, *split(z), V)[0])

    def jac(z):
        ga, gb = stage_gradient(size, q, w, *split(z), V)
        return np.array([ga[0], gb[0]][:dim])

    z, val = minimize_on_box(fun, [a, b], jac=jac, dim=dim, ftol=1e-16, gtol=1e-13, maxiter=60)
    return float(z[0]), (float(z[1]) if dim == 2 else 0.0), val


def coalition_best_response(size: int, thresholds, weights, V: float, tol: float = 1e-10,
                            max_boxes: int = 2_000_000, grid: int = 64) -> BoxMinimum:
    """The coalition's best pseudo-bloc response ``min_{(a,b)} Σ_i w_i [α + V β]``, certified.

    Parameters
    ----------
    size : int
        Coalition size N (for N = 1 the profile is ``a`` alone).
    thresholds, weights : array_like
        Player 1's mixed strategy.
    V : float
    tol : float
        Stop when the rigorous lower bound is within ``tol`` of the best value found.
    max_boxes : int
        Budget of boxes; if exhausted, ``converged`` is False and ``lower`` is still
        rigorous (just looser).
    grid : int
        Initial boxes per axis.

    Notes
    -----
    Branch and bound.  On a box with centre ``c`` and half-widths ``r``, for every
    point ``p`` of the box ``h(p) = h(c) + ∇h(ξ)·(p - c)`` with ``ξ`` in the box, and
    ``∇h(ξ)`` lies in the corner interval of :func:`_gradient_bounds`, so
    ``h(p) >= h(c) - Σ_k max(|lo_k|, |hi_k|) r_k``.  Near a stationary point the
    gradient interval shrinks with the box, so the bound is of second order.  Boxes
    whose bound is above the incumbent minus ``tol`` are discarded, the others split
    in four.  The incumbent is polished by L-BFGS-B from the best grid centres.
    """
    size = check_int("size", size, 1)
    q = check_thresholds("thresholds", thresholds).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    keep_rows = w > 0
    q, w = q[keep_rows], w[keep_rows]
    tol = check_positive_float("tol", tol)
    allowance = CERT_ROUNDING * (1.0 + abs(V)) * (size + 1)
    # below twice the rounding allowance no box can ever be discarded
    tol = max(tol, 2.0 * allowance)
    edges = np.linspace(0.0, 1.0, grid + 1)
    if size == 1:
        a0, a1 = edges[:-1], edges[1:]
        b0 = b1 = np.zeros_like(a0)
    else:
        A0, B0 = np.meshgrid(edges[:-1], edges[:-1], indexing="ij")
        A1, B1 = np.meshgrid(edges[1:], edges[1:], indexing="ij")
        a0, a1, b0, b1 = A0.ravel(), A1.ravel(), B0.ravel(), B1.ravel()
    # incumbent: best grid centres (and the a = 0 edge), polished
    ca, cb = (a0 + a1) / 2, (b0 + b1) / 2
    hc = stage_payoff(size, q, w, ca, cb, V)
    best_val, best_pt = math.inf, (0.0, 0.0)
    order = np.argsort(hc)
    starts = [(ca[order[0]], cb[order[0]]), (ca[order[1]], cb[order[1]]), (0.0, cb[order[0]])]
    for sa, sb in starts:
        pa, pb, val = _polish(size, q, w, V, sa, sb)
        if val < best_val:
            best_val, best_pt = val, (pa, pb)
    lower_done = math.inf
    examined = 0
    converged = False
    while True:
        examined += a0.size
        ca, cb = (a0 + a1) / 2, (b0 + b1) / 2
        hc = _stage_payoff(size, q, w, ca, cb, V)
        k = int(np.argmin(hc))
        if hc[k] < best_val:
            best_val, best_pt = float(hc[k]), (float(ca[k]), float(cb[k]))
        (ga_lo, ga_hi), (gb_lo, gb_hi) = _gradient_bounds(size, q, w, V, a0, a1, b0, b1)
        lb = (hc - np.maximum(np.abs(ga_lo), np.abs(ga_hi)) * (a1 - a0) / 2
              - np.maximum(np.abs(gb_lo), np.abs(gb_hi)) * (b1 - b0) / 2 - allowance)
        open_ = lb < best_val - tol
        if np.any(~open_):
            lower_done = min(lower_done, float(lb[~open_].min()))
        if not np.any(open_):
            converged = True
            lower = lower_done
            break
        if examined > max_boxes:
            lower = min(lower_done, float(lb[open_].min()))
            break
        a0, a1, b0, b1 = a0[open_], a1[open_], b0[open_], b1[open_]
        am = (a0 + a1) / 2
        if size == 1:
            a0, a1 = np.concatenate([a0, am]), np.concatenate([am, a1])
            b0 = b1 = np.zeros_like(a0)
        else:
            bm = (b0 + b1) / 2
            a0, a1, b0, b1 = (np.concatenate([a0, am, a0, am]), np.concatenate([am, a1, am, a1]),
                              np.concatenate([b0, b0, bm, bm]), np.concatenate([bm, bm, b1, b1]))
    pa, pb, val = _polish(size, q, w, V, *best_pt)
    if val < best_val:
        best_val, best_pt = val, (pa, pb)
    return BoxMinimum(point=best_pt, value=best_val, lower=min(lower, best_val), converged=converged,
                      boxes=examined)
