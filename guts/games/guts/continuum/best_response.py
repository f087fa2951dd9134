"""Best responses in the continuum 1 v. N pseudo-bloc game: player 1's exact, the coalition's
certified by branch and bound (paper §3, §5; see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from guts._validate import GutsInputError, check_int, check_positive_float, check_thresholds
from guts.games.guts.payoffs import alpha_matrix, beta_matrix
from guts.games.guts.pseudo_bloc import (_alpha, _beta, _gradient_bounds, _stage_payoff, minimize_on_box,
                                         stage_gradient, stage_payoff)
from guts.games.guts.continuum.rounding import (ROUNDING_FACTOR, UNIT_ROUNDOFF, alpha_beta_error,
                                                partials_magnitude, sum_error)

#: Smallest branch-and-bound tolerance: the rounding bound of one stage payoff near the
#: equilibrium is ~1e-14 (:mod:`guts.games.guts.continuum.rounding`); boxes cannot be
#: discarded below it.
MIN_BOX_TOL = 1e-13


def _first_positive(phi, knots) -> float:
    """Where the continuous, non-decreasing ``phi`` turns positive on [0, 1]: 1 if it never does,
    0 if it already is at 0, else its root between the two ``knots`` (sorted, 0 and 1 included:
    where the polynomial pieces of ``phi`` meet) that bracket the change of sign (Brent's method
    to machine precision)."""
    vals = np.array([phi(t) for t in knots])
    pos = np.flatnonzero(vals > 0)
    if pos.size == 0:
        return 1.0
    if pos[0] == 0:
        return 0.0
    lo, hi = knots[pos[0] - 1], knots[pos[0]]
    return float(lo if vals[pos[0] - 1] == 0 else brentq(phi, lo, hi, xtol=1e-16, rtol=4 * np.finfo(float).eps))


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
    q = _first_positive(phi, knots)
    value = float(y @ (alpha_matrix([q], P)[0] + V * beta_matrix([q], P)[0]))
    return float(q), value


def _stage_error(size, q, w, a, b, V):
    """Rounding bound of :func:`_stage_payoff` ``Σ_i w_i [α + V β]`` at every ``(a, b)``.

    Per-entry bounds of :func:`alpha_beta_error` plus the sum over the ``R`` rows
    (:func:`sum_error`).
    """
    qc, ar, br = q[:, None], a[None, :], b[None, :]
    eA, eB = alpha_beta_error(qc, ar, br, size)
    mag = np.abs(_alpha(qc, ar, br, size)) + abs(V) * np.abs(_beta(qc, ar, br, size))
    return w @ (eA + abs(V) * eB) + sum_error(q.size + 2, w @ mag)


def player1_best_response_pseudo_bloc(size: int, free, bloc, weights, V: float) -> tuple[float, float, float]:
    """Player 1's exact best response to a mixture of pseudo-bloc profiles, with a rigorous bound.

    Same maximisation as :func:`player1_best_response` (``f(q) = Σ_j y_j [α + V β]`` is
    concave in q) for profiles ``(a_j, b_j, ..., b_j)``, evaluated with the O(1)
    closed forms (:func:`guts.games.guts.pseudo_bloc.pseudo_bloc_alpha`), so its cost
    does not grow with N.

    Returns
    -------
    (q, value, upper)
        The maximiser found, ``f(q)`` as computed, and a rigorous upper bound of
        ``max_[0,1] f`` *including floating-point error*: by concavity
        ``f(x) <= f(q) + f'(q)(x - q)`` for every x (the tangent), and the maximiser
        lies in ``[x_l, x_h]`` once ``f'(x_l) > 0 > f'(x_h)`` is proved beyond the
        rounding bound of ``f'`` (``x_l = 0``, ``x_h = 1`` need no proof), so
        ``max f <= f(q) + e_f + max((f'(q) + e')(x_h - q), (e' - f'(q))(q - x_l))``
        with ``e_f``, ``e'`` the rounding bounds of ``f(q)`` and ``f'(q)``
        (:mod:`guts.games.guts.continuum.rounding`).
    """
    size = check_int("size", size, 1)
    a = check_thresholds("free", free).ravel()
    b = np.broadcast_to(check_thresholds("bloc", bloc).ravel(), a.shape)
    y = np.asarray(weights, dtype=float).ravel()
    if y.size != a.size or np.any(y < 0) or not abs(y.sum() - 1.0) <= 1e-9:
        raise GutsInputError(f"weights must be {a.size} probabilities summing to 1")
    keep = y > 0
    a, b, y = a[keep], b[keep], y[keep]
    n, k = size + 1, size - 1
    Pi = a * b**k
    c_terms = n - 1 + 2 * Pi + V * (2 * Pi - 1)
    c = float(y @ c_terms)
    c_mag = float(y @ (n - 1 + 2 * Pi + abs(V) * (2 * Pi + 1)))

    def D(t):
        return float(y @ (np.maximum(a, t) * np.maximum(b, t) ** k))

    def phi(t):  # -f'(t) = 2n D(t) - c, non-decreasing
        return 2.0 * n * D(t) - c

    def dphi_err(t):  # rounding bound of phi(t) (products of powers, sums, the final difference)
        return ROUNDING_FACTOR * (2.0 * n * D(t) + c_mag) + sum_error(2 * y.size + 2, 2.0 * n * D(t) + c_mag)

    knots = np.unique(np.concatenate([[0.0, 1.0], a, b if size > 1 else a]))
    q = _first_positive(phi, knots)
    qa = np.array([q])
    value = float(_stage_payoff(size, qa, np.array([1.0]), a, b, V) @ y)
    err_f = float(_stage_error(size, qa, np.array([1.0]), a, b, V) @ y) + sum_error(y.size, abs(value))
    fp, efp = -phi(q), dphi_err(q)
    xl, xh = 0.0, 1.0
    for delta in (1e-14, 1e-12, 1e-10, 1e-8, 1e-6):  # locate the maximiser as tightly as can be proved
        tl, th = max(0.0, q - delta), min(1.0, q + delta)
        ok_l = tl == 0.0 or -phi(tl) - dphi_err(tl) > 0
        ok_h = th == 1.0 or -phi(th) + dphi_err(th) < 0
        if ok_l and ok_h:
            xl, xh = tl, th
            break
    tangent = max((fp + efp) * (xh - q), (efp - fp) * (q - xl), 0.0)
    upper = value + err_f + tangent
    upper += 2.0 * UNIT_ROUNDOFF * abs(upper)  # the two additions above
    return q, value, float(upper)


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
        Rigorous lower bound of the minimum (mean-value bound on every box, less the
        rounding bounds of the payoff and gradients computed entry by entry,
        :mod:`guts.games.guts.continuum.rounding`).
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


def _initial_edges(size: int, grid: int) -> np.ndarray:
    """Initial box edges on [0, 1]: uniform, plus log-spaced in ``1 - p`` down to ``0.02 / N``.

    The coalition's payoff varies on the scale ``1 - p ~ 1/N`` near 1 (its b-gradient
    is O(N)), so the scaled edges (:func:`guts.games.guts.large_n.threshold_mesh`'s
    spacing) let the branch and bound discard the far boxes at once for any N.
    """
    uniform = np.linspace(0.0, 1.0, grid // 2 + 1)
    if size < 4:
        return np.linspace(0.0, 1.0, grid + 1)
    gaps = np.exp(np.linspace(0.0, np.log(0.02 / size), grid // 2))
    return np.unique(np.concatenate([uniform, 1.0 - gaps, [1.0]]))


def _gradient_error(size, q, w, V, a0, a1, b0, b1):
    """Rounding bounds of the corner partials used by :func:`_gradient_bounds` (both corners)."""
    out = []
    lo = partials_magnitude(size, q, a0, b0)
    hi = partials_magnitude(size, q, a1, b1)
    for k in (0, 2):
        mag = np.maximum(w @ (lo[k] + abs(V) * lo[k + 1]), w @ (hi[k] + abs(V) * hi[k + 1]))
        out.append(ROUNDING_FACTOR * mag + sum_error(2 * q.size + 2, mag))
    return out


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

    Floating point: the bound subtracts the rounding bounds of ``h(c)`` and of the
    corner gradients (relative to the magnitudes of the closed forms' terms, O(u) near
    the equilibrium whatever N), so ``lower`` holds for the exact payoff.  The initial
    edges are log-spaced in ``1 - p`` near 1 (:func:`_initial_edges`), where the
    payoff varies on the scale 1/N: N = 1e5 costs about as many boxes as N = 10.
    """
    size = check_int("size", size, 1)
    q = check_thresholds("thresholds", thresholds).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    keep_rows = w > 0
    q, w = q[keep_rows], w[keep_rows]
    tol = max(check_positive_float("tol", tol), MIN_BOX_TOL)
    edges = _initial_edges(size, grid)
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
        ga_err, gb_err = _gradient_error(size, q, w, V, a0, a1, b0, b1)
        # half-widths about the *computed* centre (it may be off the midpoint by an ulp)
        ra = np.maximum(ca - a0, a1 - ca) * (1.0 + 4.0 * UNIT_ROUNDOFF)
        rb = np.maximum(cb - b0, b1 - cb) * (1.0 + 4.0 * UNIT_ROUNDOFF)
        bound_a = np.maximum(np.abs(ga_lo), np.abs(ga_hi)) + ga_err
        bound_b = np.maximum(np.abs(gb_lo), np.abs(gb_hi)) + gb_err if size > 1 else 0.0 * ga_err
        slack = bound_a * ra + bound_b * rb + _stage_error(size, q, w, ca, cb, V)
        lb = hc - slack - 4.0 * UNIT_ROUNDOFF * (np.abs(hc) + slack)  # the two subtractions
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
