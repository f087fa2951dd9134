"""The continuum limit of the 1 v. N pseudo-bloc game: no mesh.

Paper §1 (value map (1.4)–(1.6)), Theorem 1.2 (§2.1), §3 (payoffs) and §5 (the
pseudo-bloc coalition).  Player 1 picks a threshold ``q`` in [0, 1]; the coalition
of N picks a pseudo-bloc profile ``(a, b, ..., b)`` with ``(a, b)`` in [0, 1]^2 (just
``a`` for N = 1).  The stage payoff is ``α(q; a, b..b) + V β(q; a, b..b)``.

Structure used (proved in the docstrings below, checked in the tests)
---------------------------------------------------------------------
* **Player 1's payoff is concave in q.**  ``∂α/∂q = n - 1 + 2Π - 2n Π_j max(p_j, q)``
  is non-increasing and β is affine in q.  Player 1's best response to a finite
  coalition mixture is therefore the root of a monotone piecewise polynomial
  (found on its piece to machine precision), and by Jensen a mixture of thresholds
  is weakly dominated by its mean: player 1's continuum strategy can be taken pure.
* **The coalition's payoff has monotone partial derivatives.**  With ``n = N + 1``,
  ``∂α/∂p_j = -1 + 2q Π_{k≠j} p_k + 2n ∫_q^{max(p_j, q)} Π_{k≠j} max(p_k, x) dx`` and
  ``∂β/∂p_j = -1 + 2 Π_{i≠j} p_i`` are non-decreasing in every threshold.  Over a box
  ``[a0, a1] x [b0, b1]`` the gradient therefore lies between its values at the two
  extreme corners, which gives a rigorous lower bound of the payoff on the box
  (mean-value theorem; α is C^1).  A branch and bound over boxes turns the
  coalition's two-dimensional best response into a *certified* global minimum.

Algorithm
---------
1. *Double oracle around the recursive game.*  The finite game ``GutsStage(Q, P)`` on
   the thresholds ``Q`` and profiles ``P`` generated so far is solved by
   :func:`guts.engine.recursive.fixed_point` (Newton, from ``V_0 = -1``); at its fixed point
   ``V`` both continuum best responses are computed and added, until they improve on
   ``V`` by at most ``tol`` in total.  Starting sets: the supports of the mesh-21
   solution.
2. *Polish.*  The double oracle leaves player 1 mixing neighbouring thresholds and
   the coalition's profiles accurate only to about ``sqrt(tol)`` (the value is
   stationary in them).  With the support known -- one bloc profile ``(t, t..t)`` and
   one pseudo-bloc profile ``(0, b..b)`` for every N >= 2 -- a 2 x 2 Newton system in
   ``(q, V)`` (each profile a stationary best response worth ``V``) gives the
   equilibrium to rounding; the coalition's weights follow from player 1's
   indifference.  It is kept only if its continuum gap is smaller.
3. *Certify.*  Theorem 1.2 in the continuum: player 1's pure threshold against
   *every* profile in [0, 1]^2 (branch and bound), the coalition's mixture against
   *every* q (exact), each from its own termination value (-1, -N).  This gives a
   rigorous interval for the value (up to a floating-point allowance of
   ``CERT_ROUNDING`` per entry), about 1e-10 wide.

Examples
--------
>>> from guts.games.guts.continuum import solve_continuum
>>> r = solve_continuum(1)
>>> abs(r.player1_value) < 1e-9, r.player1_strategy      # 2-player Guts: fair, p* = 1/2
(True, {0.5: 1.0})
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq, minimize

from guts._validate import GutsInputError, check_int, check_positive_float, check_thresholds
from guts.engine.matrix_game import solve_lp
from guts.errors import ConvergenceWarning
from guts.games.guts.payoffs import alpha_matrix, beta_matrix
from guts.engine.recursive import CERT_ROUNDING, fixed_point
from guts.games.guts.stage import GutsStage

__all__ = [
    "ContinuumResult",
    "BoxMinimum",
    "ContinuumCertificate",
    "pseudo_bloc",
    "stage_payoff",
    "stage_gradient",
    "player1_best_response",
    "coalition_best_response",
    "StageValue",
    "stage_value",
    "certify_player1",
    "certify_coalition",
    "solve_continuum",
    "full_coalition_response",
    "continuum_row",
    "refinement_row",
]


# ---------------------------------------------------------------------------
# Pseudo-bloc payoffs and their (a, b)-gradient.
# ---------------------------------------------------------------------------
def pseudo_bloc(size: int, a, b) -> np.ndarray:
    """Profiles ``(a, b, ..., b)`` (``N - 1`` copies of ``b``) of shape ``(C, N)``; ``(a,)`` for N = 1."""
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.broadcast_to(np.asarray(b, dtype=float), a.shape)
    return np.concatenate([a[:, None], np.repeat(b[:, None], size - 1, axis=1)], axis=1)


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
    q = np.asarray(thresholds, dtype=float).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    P = pseudo_bloc(size, a, b)
    return w @ (alpha_matrix(q, P) + V * beta_matrix(q, P))


def _partials(size: int, q: np.ndarray, a: np.ndarray, b: np.ndarray):
    """``(∂α/∂a, ∂β/∂a, ∂α/∂b, ∂β/∂b)`` of ``α(q; a, b..b)``, shape ``(R, C)``.

    With ``n = N + 1``, ``u = max(a, q)``, ``m = clip(b, q, u)`` (and for b:
    ``u' = max(b, q)``, ``m' = clip(a, q, u')``)::

        ∂α/∂a = -1 + 2q b^(N-1) + 2n [b^(N-1)(m - q) + (u^N - m^N)/N]
        ∂α/∂b = (N-1)(-1 + 2q a b^(N-2) + 2n b^(N-2) [a(m' - q) + (u'^2 - m'^2)/2])
        ∂β/∂a = -1 + 2q b^(N-1),   ∂β/∂b = (N-1)(-1 + 2q a b^(N-2))

    (the brackets are ``∫_q^{max(p_j, q)} Π_{k≠j} max(p_k, x) dx``).  Every entry is
    non-decreasing in ``a`` and in ``b``.
    """
    N = size
    n = N + 1
    q = q[:, None]
    a = a[None, :]
    b = b[None, :]
    bN1 = b ** (N - 1)
    u = np.maximum(a, q)
    m = np.clip(b, q, u)
    ia = bN1 * (m - q) + (u**N - m**N) / N
    dBa = -1.0 + 2.0 * q * bN1
    dAa = dBa + 2.0 * n * ia
    if N == 1:
        zero = np.zeros(np.broadcast_shapes(q.shape, a.shape))
        return dAa, dBa, zero, zero
    bN2 = b ** (N - 2)
    u2 = np.maximum(b, q)
    m2 = np.clip(a, q, u2)
    ib = a * (m2 - q) + (u2**2 - m2**2) / 2.0
    dBb = (N - 1) * (-1.0 + 2.0 * q * a * bN2)
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


# ---------------------------------------------------------------------------
# Best responses.
# ---------------------------------------------------------------------------
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
    """Local bounded minimisation (L-BFGS-B with the analytic gradient) from ``(a, b)``."""
    dim = 1 if size == 1 else 2

    def split(z):
        return z[:1], (z[1:] if dim == 2 else 0.0)

    def fun(z):
        return float(stage_payoff(size, q, w, *split(z), V)[0])

    def jac(z):
        ga, gb = stage_gradient(size, q, w, *split(z), V)
        return np.array([ga[0], gb[0]][:dim])

    res = minimize(fun, [a, b][:dim], jac=jac, method="L-BFGS-B", bounds=[(0.0, 1.0)] * dim,
                   options={"ftol": 1e-16, "gtol": 1e-13, "maxiter": 60})
    z = np.clip(res.x, 0.0, 1.0)
    return float(z[0]), (float(z[1]) if dim == 2 else 0.0), fun(z)


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
        hc = stage_payoff(size, q, w, ca, cb, V)
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


# ---------------------------------------------------------------------------
# Theorem 1.2 in the continuum.
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ContinuumCertificate:
    """Theorem 1.2 for one finite mixed strategy against *every* continuum opponent.

    Attributes
    ----------
    side : {"player1", "coalition"}
    valid : bool
        ``f(v_*) > 0`` was proved.
    v_start : float
        ``v_*`` (-1 for player 1, -N for the coalition).
    v_certified : float
        ``v^*`` with ``f(v^*) >= 0`` proved: repeating the strategy forces at least
        ``v^*`` (the certifying side's own value); ``nan`` when invalid.
    epsilon : float
        A proved lower bound of ``f(v_*)`` (Theorem 1.3 rate).
    rigorous : bool
        Whether the opponent's best response was bounded rigorously (exact 1-D
        maximisation, or a converged branch and bound), up to the floating-point
        allowance ``CERT_ROUNDING``.
    reason : str
    """

    side: str
    valid: bool
    v_start: float
    v_certified: float
    epsilon: float
    rigorous: bool
    reason: str


def certify_player1(size: int, thresholds, weights, v_target: float | None = None, v_start: float = -1.0,
                    margin: float = 1e-10) -> ContinuumCertificate:
    """Theorem 1.2 for player 1's mixture against every pseudo-bloc profile in [0, 1]^2.

    ``f(v) = min_{(a,b)} Σ_i w_i [α + (β - 1) v]`` is concave in ``v``.  Its root above
    ``v_*`` is located by Newton steps on the coalition's best-response line (from
    ``v_target``, e.g. the computed fixed point); then ``v^*`` is the largest of
    ``root - margin * 4^k`` (k = 0..10) at which the branch and bound *proves*
    ``f(v^*) >= 0``.

    Parameters
    ----------
    size : int
    thresholds, weights : array_like
        Player 1's strategy.
    v_target : float, optional
        Starting guess for the root (default ``v_start + 1``).
    v_start : float
        ``v_*`` = -1 (forfeit the ante).
    margin : float
        First distance below the root tried.

    Notes
    -----
    ``f`` is bounded below by :func:`coalition_best_response` (rigorous up to the
    floating-point allowance; ``rigorous`` is False if the box budget ran out, the
    bound then being still valid but looser).
    """
    size = check_int("size", size, 1)
    q = check_thresholds("thresholds", thresholds).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    if q.size != w.size or np.any(w < 0) or not abs(w.sum() - 1.0) <= 1e-9:
        raise GutsInputError(f"weights must be {q.size} probabilities summing to 1")
    v_start = float(v_start)
    bm0 = coalition_best_response(size, q, w, v_start, tol=1e-4)  # only f(v_*) > 0 matters here
    eps = bm0.lower - v_start
    if not eps > 0:
        return ContinuumCertificate("player1", False, v_start, math.nan, eps, bm0.converged,
                                    f"f(v_*) lower bound {eps:.3e} is not > 0 at v_* = {v_start}")
    v = v_start + 1.0 if v_target is None else float(v_target)
    for _ in range(50):  # Newton on the concave f: the active line lies above f
        bm = coalition_best_response(size, q, w, v, tol=1e-9)
        f = bm.value - v
        a, b = bm.point
        P = pseudo_bloc(size, [a], [b])
        slope = float(w @ beta_matrix(q, P)[:, 0]) - 1.0
        if abs(f) <= 1e-13 or slope >= 0:
            break
        v = max(v - f / slope, v_start)
    for k in range(11):
        m = margin * 4.0**k
        vc = v - m
        if vc <= v_start:
            break
        bm = coalition_best_response(size, q, w, vc, tol=max(m / 4.0, 1e-11))
        if bm.lower - vc >= 0:
            return ContinuumCertificate("player1", True, v_start, float(vc), eps, bm0.converged and bm.converged,
                                        "f(v_*) > 0 and f(v^*) >= 0 over all (a, b) (Theorem 1.2, branch and bound)")
    return ContinuumCertificate("player1", True, v_start, v_start, eps, bm0.converged,
                                f"f >= 0 not proved within {margin * 4.0**10:.1e} of {v:.12g}; only v_* certified")


def certify_coalition(size: int, profiles, weights, v_target: float = 0.0, v_start: float | None = None,
                      rounding: float = CERT_ROUNDING) -> ContinuumCertificate:
    """Theorem 1.2 for the coalition's mixture against every player-1 threshold q in [0, 1].

    ``g(w) = min_q Σ_j y_j [-α(q; P_j) + (β(q; P_j) - 1) w] = -max_q Σ_j y_j [α - w β] - w``;
    the inner maximum is exact (:func:`player1_best_response`, concave in q), so
    ``g`` is evaluated exactly up to rounding.  ``g`` is concave in ``w``; ``v^*`` is its
    root above ``v_* = -N`` less the rounding allowance.  ``v_certified`` is the
    coalition's value; player 1's certified upper bound is ``-v_certified``.
    """
    size = check_int("size", size, 1)
    P = check_thresholds("profiles", profiles)
    y = np.asarray(weights, dtype=float).ravel()
    v_start = -float(size) if v_start is None else float(v_start)

    def g(wv):
        return -player1_best_response(P, y, -wv)[1] - wv

    allowance = rounding * (1.0 + abs(v_target)) * (size + 1)
    eps = g(v_start) - rounding * (1.0 + abs(v_start)) * (size + 1)
    if not eps > 0:
        return ContinuumCertificate("coalition", False, v_start, math.nan, eps, True,
                                    f"g(v_*) = {eps:.3e} is not > 0 at v_* = {v_start}")
    hi = float(v_target) + 1e-9
    step = 1e-9
    while g(hi) > allowance:  # walk up until g falls below the allowance
        step *= 4.0
        hi = float(v_target) + step
        if step > 1e3:
            return ContinuumCertificate("coalition", True, v_start, math.inf, eps, True, "g stays positive: unbounded")
    lo = max(v_start, float(v_target) - 1e-9)
    while g(lo) < allowance and lo > v_start:
        lo = max(v_start, lo - 4.0 * (float(v_target) - lo))
    root = brentq(lambda wv: g(wv) - allowance, lo, hi, xtol=1e-15)
    v_cert, back = root, 1e-15
    while g(v_cert) < allowance:  # brentq may stop just past the root
        v_cert, back = root - back, 2.0 * back
    return ContinuumCertificate("coalition", True, v_start, float(v_cert), eps, True,
                                "g(v_*) > 0 and g(v^*) >= 0 over all q in [0, 1] (Theorem 1.2, exact 1-D)")


# ---------------------------------------------------------------------------
# Double oracle: restricted finite games plus continuum best responses.
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _OracleState:
    value: float
    thresholds: np.ndarray      # Q, all generated player-1 thresholds
    pairs: np.ndarray           # (C, 2) generated (a, b)
    x: np.ndarray               # player 1's restricted strategy over Q
    y: np.ndarray               # the coalition's restricted strategy over pairs
    upper: float                # max_q of player 1's payoff against y (exact)
    lower: float                # min_(a,b) of the coalition's payoff against x (branch and bound)
    rounds: int
    converged: bool
    extra: object


def _add_point(points, new, atol=1e-13):
    new = np.asarray(new, dtype=float).reshape(1, -1)
    pts = np.asarray(points, dtype=float).reshape(-1, new.shape[1])
    if np.any(np.all(np.abs(pts - new) <= atol, axis=1)):
        return pts, False
    return np.vstack([pts, new]), True


def _double_oracle(size, Q, pairs, solve_restricted, tol, max_rounds, bb_tol) -> _OracleState:
    """Grow ``Q`` and ``pairs`` with continuum best responses until the gap is at most ``tol``.

    ``solve_restricted(stage) -> (V, value, x, y, extra)`` solves the finite game at
    continuation value ``V`` (a stage game at fixed V, or the recursive game's fixed
    point, where ``value = V``).  At ``V``, player 1's exact best response to ``y``
    gives ``upper >= T(V)`` and the coalition's best response to ``x`` gives
    ``lower <= T(V)``; ``value`` lies between them.
    """
    Q = np.unique(np.asarray(Q, dtype=float))
    pairs = np.unique(np.asarray(pairs, dtype=float).reshape(-1, 2), axis=0)
    if size == 1:
        pairs = np.unique(np.column_stack([pairs[:, 0], np.zeros(len(pairs))]), axis=0)
    for rnd in range(1, max_rounds + 1):
        profiles = pseudo_bloc(size, pairs[:, 0], pairs[:, 1])
        V, value, x, y, extra = solve_restricted(GutsStage(Q, profiles))
        J = y > 0
        I = x > 0
        q_br, upper = player1_best_response(profiles[J], y[J], V)
        bm = coalition_best_response(size, Q[I], x[I], V, tol=bb_tol)
        lower = bm.value
        if upper - lower <= tol:
            break
        added = False
        if upper > value + tol / 4:
            Q, new = _add_point(Q[:, None], [q_br])
            Q = Q.ravel()
            added |= new
        if lower < value - tol / 4:
            pairs, new = _add_point(pairs, bm.point)
            added |= new
        if not added:  # the best responses are already in the sets: rounding level
            break
    return _OracleState(value, Q, pairs, x, y, upper, lower, rnd, upper - lower <= tol, extra)


SUPPORT_TOL = 1e-9


def _initial_sets(size, mesh):
    """Supports of the mesh solution (double oracle) as starting sets."""
    from guts.games.guts.coalition import solve_coalition  # deferred: game.py does not depend on this module

    r = solve_coalition(size, mesh=mesh, solver="oracle", certify_result=False)
    Q = np.array(sorted(r.player1_strategy))
    pairs = np.array([(p[0], p[-1]) for p in r.coalition_strategy])
    return Q, pairs


@dataclass(frozen=True)
class StageValue:
    """Continuum value of one round ``T(V)`` (paper (1.6)) by the double oracle.

    Attributes
    ----------
    V : float
        The continuation value the round was solved at.
    value : float
        ``(lower + upper) / 2``.
    lower : float
        What ``player1_strategy`` guarantees against every ``(a, b)`` (branch and bound).
    upper : float
        What ``coalition_strategy`` holds player 1 to over every ``q`` (exact).
    gap : float
        ``upper - lower``.
    player1_strategy : dict
        ``{q: probability}``.
    coalition_strategy : dict
        ``{(a, b): probability}``.
    converged : bool
        ``gap <= tol``.
    num_iter : int
        Double-oracle rounds.
    """

    V: float
    value: float
    lower: float
    upper: float
    gap: float
    player1_strategy: dict
    coalition_strategy: dict
    converged: bool
    num_iter: int


def stage_value(size: int, V: float, tol: float = 1e-10, max_rounds: int = 200, init_mesh: int = 21) -> StageValue:
    """Continuum value ``T(V) = max_x min_y`` of ``α + V β`` over q in [0, 1] and (a, b) in [0, 1]^2.

    The double oracle with the finite stage game ``A + V B`` solved by linear
    programming (:func:`guts.engine.matrix_game.solve_lp`); see :class:`StageValue`.
    """
    size = check_int("size", size, 1)
    V = float(V)
    if not math.isfinite(V):
        raise GutsInputError(f"V must be a finite number; got {V!r}")
    tol = check_positive_float("tol", tol)

    def solve(stage):
        A, B = stage.dense()
        s = solve_lp(A + V * B, tol=1e-9)
        return V, s.value, s.row_strategy, s.col_strategy, None

    Q, pairs = _initial_sets(size, init_mesh)
    st = _double_oracle(size, Q, pairs, solve, tol, max_rounds, bb_tol=max(tol / 10, 1e-11))
    if not st.converged:
        warnings.warn(f"continuum stage game at V={V} stopped with gap {st.upper - st.lower:.3e}",
                      ConvergenceWarning, stacklevel=2)
    return StageValue(
        V=V, value=0.5 * (st.lower + st.upper), lower=st.lower, upper=st.upper, gap=st.upper - st.lower,
        player1_strategy={float(st.thresholds[i]): float(st.x[i]) for i in np.flatnonzero(st.x > SUPPORT_TOL)},
        coalition_strategy={tuple(map(float, st.pairs[j])): float(st.y[j]) for j in np.flatnonzero(st.y > SUPPORT_TOL)},
        converged=st.converged, num_iter=st.rounds,
    )


# ---------------------------------------------------------------------------
# Polishing the equilibrium: a small Newton system instead of more oracle rounds.
# ---------------------------------------------------------------------------
BLOC_ATOL = 1e-6


def _q_slope(size, q, a, b, V):
    """``∂/∂q [α(q; a, b..b) + V β]`` = ``n - 1 + 2Π - 2n Π_j max(p_j, q) + V (2Π - 1)`` (§3)."""
    P = pseudo_bloc(size, [a], [b])[0]
    n = size + 1
    Pi = float(np.prod(P))
    return (n - 1 + 2 * Pi - 2 * n * float(np.prod(np.maximum(P, q)))) + V * (2 * Pi - 1)


def _root_near(d, t0, lo=0.0, hi=1.0):
    """A root of ``d`` in [lo, hi] bracketed around ``t0`` (None if no sign change is found)."""
    d0 = d(t0)
    if d0 == 0:
        return t0
    for k in range(13):
        delta = 1e-8 * 4.0**k
        for t1 in (t0 - delta, t0 + delta):
            t1 = min(max(t1, lo), hi)
            d1 = d(t1)
            if d1 == 0 or np.sign(d1) != np.sign(d0):
                a, b = sorted((t0, t1))
                return brentq(d, a, b, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    return None


def _local_response(size, q, V, a, b):
    """Refine a coalition support profile to the nearby stationary point at ``(q, V)``.

    Bloc profiles ``a = b = t`` solve ``d/dt f(t, t) = 0`` (on the diagonal the
    gradient is ``(g, (N - 1) g)`` by symmetry, so one equation suffices), profiles on
    the edge ``a = 0`` solve ``∂f/∂b (0, b) = 0``; others are refined by L-BFGS-B.
    Returns ``None`` when no root is bracketed.
    """
    def grad(x, y):
        ga, gb = stage_gradient(size, [q], [1.0], [x], [y], V)
        return ga[0], gb[0]

    if size == 1 or abs(a - b) <= BLOC_ATOL:
        t = _root_near(lambda t: sum(grad(t, t)), 0.5 * (a + b))
        return None if t is None else (t, t if size > 1 else 0.0)
    if a <= BLOC_ATOL:
        t = _root_near(lambda t: grad(0.0, t)[1], b)
        return None if t is None or grad(0.0, t)[0] < 0 else (0.0, t)
    a2, b2, _ = _polish(size, [q], [1.0], V, a, b)
    return a2, b2


def _polish_equilibrium(size, q, V, points):
    """Solve for ``(q, V)`` at which every support profile is a local best response worth ``V``.

    Two components: ``f(q, P_k(q, V); V) = V`` for k = 1, 2 (square in ``(q, V)``;
    the Jacobian rows are ``(∂_q f, β - 1)`` by the envelope theorem); one component
    (N = 1): ``f = V`` and ``∂_q f = 0``.  Player 1's indifference then fixes the
    coalition's weights: ``Σ_k y_k ∂_q f(q, P_k) = 0``.  Returns ``(q, V, points,
    weights)`` or ``None``.
    """
    from scipy.optimize import fsolve

    if len(points) not in (1, 2):
        return None
    state = {"pts": [tuple(p) for p in points]}

    def F(z):
        qq, VV = float(np.clip(z[0], 0.0, 1.0)), float(z[1])
        pts = [_local_response(size, qq, VV, *p) for p in state["pts"]]
        if any(p is None for p in pts):
            return [1.0, 1.0]
        state["pts"] = pts
        vals = [float(stage_payoff(size, [qq], [1.0], [p[0]], [p[1]], VV)[0]) - VV for p in pts]
        if len(pts) == 2:
            return vals
        return [vals[0], _q_slope(size, qq, *pts[0], VV)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        z, info, ier, _ = fsolve(F, [q, V], xtol=1e-15, full_output=True)
    if ier != 1 and np.max(np.abs(info["fvec"])) > 1e-12:
        return None
    q, V = float(np.clip(z[0], 0.0, 1.0)), float(z[1])
    F([q, V])
    pts = state["pts"]
    if len(pts) == 1:
        return q, V, pts, np.array([1.0])
    s1, s2 = (_q_slope(size, q, *p, V) for p in pts)
    if not s1 * s2 < 0:
        return None
    w1 = s2 / (s2 - s1)
    return q, V, pts, np.array([w1, 1.0 - w1])


# ---------------------------------------------------------------------------
# The recursive game in the continuum.
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ContinuumResult:
    """The 1 v. N pseudo-bloc recursive game without a mesh.

    Attributes
    ----------
    size : int
        Coalition size N.
    player1_value : float
        Player 1's value from ``V_0 = -1``: the fixed point (:func:`guts.engine.recursive.fixed_point`)
        of a finite game holding the reported equilibrium (the mesh-21 game plus the
        polished support; else the double oracle's generated game).
    coalition_value : float
        The coalition's value from ``W_0 = -N`` on the same finite game (Table 1's
        "opponent value"; ``= -player1_value`` when the game has a value).
    gap : float
        At the reported strategies' fixed point V: player 1's exact best response to the
        coalition's strategy minus the coalition's best response (branch and bound,
        best value found; its rigorous bound is within 1e-11) to player 1's.  The
        continuum round value ``T(V)`` and ``V`` lie in an interval of this width.
    error_estimate : float
        ``gap / (1 - slope)``: distance of ``player1_value`` to the continuum fixed point
        (linearised; the certified interval is the rigorous statement).
    slope : float
        ``x^T B y`` at the fixed point (Danskin slope of T, < 1).
    player1_threshold : float
        Player 1's optimal threshold.  Player 1's payoff is concave in q, so the mean of
        the double oracle's mixture does at least as well against every profile (Jensen);
        it is the strategy certified below.
    player1_strategy : dict
        ``{player1_threshold: 1.0}``.
    coalition_strategy : dict
        ``{(a, b): probability}``: profile ``(a, b, ..., b)`` (``a`` = player 2's free
        threshold, ``b`` = the common one; ``b`` is 0 and meaningless for N = 1).
    certified_lower, certified_upper : float
        Rigorous bounds of player 1's continuum value (Theorem 1.2 against every
        opponent strategy; ``nan`` if a certificate failed).
    certificate_lower, certificate_upper : ContinuumCertificate
    converged : bool
        The double oracle met ``tol`` and both fixed points converged.
    polished : bool
        The double oracle's equilibrium was refined by :func:`_polish_equilibrium`
        (Newton on ``(q, V)`` with each support profile re-solved as a stationary
        point) and accepted because its continuum gap is smaller.  Strategies are then
        accurate to about 1e-12; otherwise only to about ``sqrt(tol)`` (the value is
        stationary in them).
    num_iter : int
        Double-oracle rounds.
    num_thresholds, num_profiles : int
        Sizes of the generated finite game.
    seconds : float
    """

    size: int
    player1_value: float
    coalition_value: float
    gap: float
    error_estimate: float
    slope: float
    player1_threshold: float
    player1_strategy: dict
    coalition_strategy: dict
    certified_lower: float
    certified_upper: float
    converged: bool
    polished: bool
    num_iter: int
    num_thresholds: int
    num_profiles: int
    seconds: float
    certificate_lower: ContinuumCertificate = field(repr=False)
    certificate_upper: ContinuumCertificate = field(repr=False)

    @property
    def certified_width(self) -> float:
        """``certified_upper - certified_lower``."""
        return self.certified_upper - self.certified_lower

    def components(self):
        """Coalition support ``[((a, b), probability), ...]``, heaviest first."""
        return sorted(self.coalition_strategy.items(), key=lambda kv: -kv[1])


def solve_continuum(size: int, tol: float = 1e-10, init_mesh: int = 21, max_rounds: int = 200,
                    certify_result: bool = True) -> ContinuumResult:
    """Value and optimal strategies of the 1 v. N pseudo-bloc recursive game on [0, 1].

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    tol : float
        Stop the double oracle when the continuum best responses improve on the
        restricted fixed point by at most ``tol`` in total (``gap <= tol``); below
        about 1e-11 rounding dominates.
    init_mesh : int
        Mesh of the starting solution (its supports seed the generated sets).
    max_rounds : int
        Double-oracle rounds allowed; exceeding them warns (ConvergenceWarning).
    certify_result : bool
        Apply Theorem 1.2 in the continuum to both strategies (about a second).

    Returns
    -------
    ContinuumResult

    Notes
    -----
    See the module docstring.  Each round solves the finite recursive game on the
    generated sets by :func:`guts.engine.recursive.fixed_point` (Newton, from ``V_0 = -1``),
    then adds player 1's exact best response and the coalition's branch-and-bound
    best response at its fixed point.
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    tol = check_positive_float("tol", tol)
    init_mesh = check_int("init_mesh", init_mesh, 2)
    max_rounds = check_int("max_rounds", max_rounds, 1)
    fp = dict(solver="lp", method="newton", tol=1e-13, check_above=False)

    def solve(stage):
        r = fixed_point(stage, v0=-1.0, cap=float(size), **fp)
        return r.value, r.value, r.row_strategy, r.col_strategy, r

    Q, pairs = _initial_sets(size, init_mesh)
    st = _double_oracle(size, Q, pairs, solve, tol, max_rounds, bb_tol=max(tol / 10, 1e-11))
    p1 = st.extra
    profiles = pseudo_bloc(size, st.pairs[:, 0], st.pairs[:, 1])
    stage = GutsStage(st.thresholds, profiles)
    co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **fp)
    gap = st.upper - st.lower
    converged = st.converged and p1.converged and co.converged
    if not converged:
        warnings.warn(f"continuum 1 v. {size}: double oracle stopped after {st.rounds} rounds with gap "
                      f"{gap:.3e} (tol {tol:.1e})", ConvergenceWarning, stacklevel=2)
    # Player 1's payoff is concave in q: the mean of the mixture does at least as well (Jensen).
    q_star = float(st.x @ st.thresholds)
    y = co.row_strategy
    J = np.flatnonzero(y > SUPPORT_TOL)
    V, pts, weights = p1.value, [tuple(map(float, st.pairs[j])) for j in J], y[J] / y[J].sum()
    slope = p1.slope
    polished = False
    pol = _polish_equilibrium(size, q_star, V, _distinct(pts, weights))
    if pol is not None:
        q2, V2, pts2, w2 = pol
        P2 = pseudo_bloc(size, [p[0] for p in pts2], [p[1] for p in pts2])
        upper2 = player1_best_response(P2, w2, V2)[1]
        lower2 = coalition_best_response(size, [q2], [1.0], V2, tol=1e-11).value
        if upper2 - lower2 <= gap:  # keep whichever equilibrium is more accurate in the continuum
            q_star, V, pts, weights, gap, polished = q2, V2, pts2, w2, upper2 - lower2, True
            slope = float(weights @ beta_matrix([q_star], P2)[0])
            # both sides' values again, from -1 and from -N, on a well-separated finite game
            # holding the polished support (an equilibrium of every game containing it):
            # the mesh-21 game plus the support
            grid = np.linspace(0.0, 1.0, 21)
            A0, B0 = np.meshgrid(grid, grid, indexing="ij")
            pairs_all = np.unique(np.vstack([np.column_stack([A0.ravel(), B0.ravel() if size > 1 else 0 * B0.ravel()]),
                                             np.array(pts2)]), axis=0)
            stage = GutsStage(np.union1d(grid, [q_star]), pseudo_bloc(size, pairs_all[:, 0], pairs_all[:, 1]))
            p1 = fixed_point(stage, v0=-1.0, cap=float(size), **fp)
            co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **fp)
            converged = converged and p1.converged and co.converged
    profiles_y = pseudo_bloc(size, [p[0] for p in pts], [p[1] for p in pts])
    if certify_result:
        cert_lo = certify_player1(size, [q_star], [1.0], v_target=V)
        cert_hi = certify_coalition(size, profiles_y, weights, v_target=-V)
    else:
        cert_lo = ContinuumCertificate("player1", False, -1.0, math.nan, math.nan, False, "not computed")
        cert_hi = ContinuumCertificate("coalition", False, -float(size), math.nan, math.nan, False, "not computed")
    return ContinuumResult(
        size=size, player1_value=p1.value, coalition_value=co.value, gap=gap,
        error_estimate=gap / (1.0 - slope) if slope < 1 else math.inf, slope=slope,
        player1_threshold=q_star, player1_strategy={q_star: 1.0},
        coalition_strategy={p: float(w) for p, w in zip(pts, weights)},
        certified_lower=cert_lo.v_certified if cert_lo.valid else math.nan,
        certified_upper=-cert_hi.v_certified if cert_hi.valid else math.nan,
        converged=converged, polished=polished, num_iter=st.rounds, num_thresholds=st.thresholds.size,
        num_profiles=st.pairs.shape[0], seconds=time.perf_counter() - t0,
        certificate_lower=cert_lo, certificate_upper=cert_hi,
    )


def _distinct(points, weights, atol=1e-3):
    """Support points with near-duplicates (within ``atol``) merged into the heavier one."""
    keep = []
    for k in np.argsort(-np.asarray(weights)):
        if all(max(abs(points[k][0] - p[0]), abs(points[k][1] - p[1])) > atol for p in keep):
            keep.append(points[k])
    return keep


def full_coalition_response(size: int, threshold: float, V: float, starts: int = 20, random_state=0):
    """Best response of an *unrestricted* coalition (independent thresholds) to a pure q.

    Minimises ``α(q; p_2..p_{N+1}) + V β`` over ``[0, 1]^N`` by L-BFGS-B from
    ``starts`` uniform random profiles plus the structured ones ``(0^k, t^(N-k))``.
    A multi-start *local* search: it can show that a non-pseudo-bloc profile does
    better, never prove that none does (no certificate).

    Parameters
    ----------
    size : int
    threshold : float
        Player 1's threshold q.
    V : float
    starts : int
        Random starting profiles.
    random_state : int or numpy.random.Generator

    Returns
    -------
    (value, profile)
        The smallest payoff found and its (sorted) profile.
    """
    size = check_int("size", size, 1)
    q = float(check_thresholds("threshold", threshold))
    starts = check_int("starts", starts, 0)
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)

    def fun(p):
        P = np.clip(p, 0.0, 1.0)[None, :]
        return float(alpha_matrix([q], P)[0, 0] + V * beta_matrix([q], P)[0, 0])

    x0 = [rng.uniform(size=size) for _ in range(starts)]
    for t in (0.5 * (1 + q), q, 0.5 * q):
        x0 += [np.r_[np.zeros(k), np.full(size - k, t)] for k in range(size)]
    best, arg = math.inf, None
    for s0 in x0:
        res = minimize(fun, s0, method="L-BFGS-B", bounds=[(0.0, 1.0)] * size)
        if res.fun < best:
            best, arg = float(res.fun), np.sort(np.clip(res.x, 0.0, 1.0))
    return best, arg


# ---------------------------------------------------------------------------
# Table rows (used by ``guts continuum`` / experiments/continuum.py).
# ---------------------------------------------------------------------------


def continuum_row(size: int, tol: float = 1e-10) -> dict:
    """One row of ``results/continuum.csv``: value, strategies, certificate of the 1 v. N continuum game.

    Coalition components with ``|a - b| <= BLOC_ATOL`` are *bloc* (every member at
    ``b``), the others *pseudo-bloc* (player 2 at ``a``, the rest at ``b``).
    ``full_coalition_gain`` is how much an unrestricted coalition profile found by
    :func:`full_coalition_response` improves on the value against player 1's
    threshold (<= 0 up to rounding: none found; not a certificate).
    """
    r = solve_continuum(size, tol=tol)
    full_value, full_profile = full_coalition_response(size, r.player1_threshold, r.player1_value)
    comps = r.components()
    bloc = [(ab, w) for ab, w in comps if size == 1 or abs(ab[0] - ab[1]) <= BLOC_ATOL]
    pseudo = [(ab, w) for ab, w in comps if not (size == 1 or abs(ab[0] - ab[1]) <= BLOC_ATOL)]
    nan = math.nan

    def fmt(ab):
        return f"{ab[0]:.10f}" if size == 1 else f"({ab[0]:.10f},{ab[1]:.10f})"

    return {
        "N": size,
        "value": r.coalition_value,
        "player1_value": r.player1_value,
        "certified_lower": r.certified_lower,
        "certified_upper": r.certified_upper,
        "certified_width": r.certified_width,
        "gap": r.gap,
        "error_estimate": r.error_estimate,
        "player1_threshold": r.player1_threshold,
        "bloc_threshold": (bloc[0][0][0] if size == 1 else bloc[0][0][1]) if bloc else nan,
        "bloc_weight": float(sum(w for _, w in bloc)),
        "pseudo_bloc_free": pseudo[0][0][0] if pseudo else nan,
        "pseudo_bloc_threshold": pseudo[0][0][1] if pseudo else nan,
        "pseudo_bloc_weight": float(sum(w for _, w in pseudo)),
        "coalition_support": " ".join(f"{fmt(ab)}:{w:.10f}" for ab, w in comps),
        "full_coalition_gain": r.player1_value - full_value,
        "full_coalition_profile": " ".join(f"{v:.6f}" for v in full_profile),
        "epsilon": r.certificate_lower.epsilon,
        "certified_rigorous": bool(r.certificate_lower.rigorous and r.certificate_upper.rigorous),
        "slope": r.slope,
        "num_iter": r.num_iter,
        "polished": r.polished,
        "converged": r.converged,
        "seconds": r.seconds,
    }


def refinement_row(size: int, mesh: int, continuum_value: float) -> dict:
    """One row of ``results/mesh_refinement.csv``: the mesh game against the continuum.

    Values are the coalition's (Table 1's "opponent value").  Besides the mesh value,
    both mesh strategies are certified *in the continuum* (Theorem 1.2 against every
    opponent threshold): ``coalition_forces`` is what the coalition's mesh strategy
    forces, ``player1_concedes`` what player 1's mesh strategy concedes at most.
    Whatever the mesh, ``coalition_forces <= continuum value <= player1_concedes``.
    """
    from guts.games.guts.coalition import solve_coalition

    t0 = time.perf_counter()
    r = solve_coalition(size, mesh=mesh, solver="oracle", certify_result=False)
    x, y = r.player1.row_strategy, r.coalition.row_strategy
    I, J = x > 0, y > 0
    c1 = certify_player1(size, r.player1_grid[I], x[I], v_target=r.player1_value)
    c2 = certify_coalition(size, r.coalition_profiles[J], y[J], v_target=r.coalition_value)
    return {
        "N": size,
        "mesh": int(mesh),
        "value": r.coalition_value,
        "continuum_value": continuum_value,
        "diff": continuum_value - r.coalition_value,
        "coalition_forces": c2.v_certified if c2.valid else math.nan,
        "player1_concedes": -c1.v_certified if c1.valid else math.nan,
        "converged": r.converged,
        "seconds": time.perf_counter() - t0,
    }
