"""Theorem 1.2 in the continuum: a finite mixed strategy certified against *every* opponent
strategy (paper §2.1; see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from guts._validate import GutsInputError, check_int, check_thresholds
from guts.engine.tolerances import CERT_ROUNDING
from guts.games.guts.pseudo_bloc import _beta
from guts.games.guts.continuum.best_response import (_stage_error, coalition_best_response, player1_best_response,
                                                     player1_best_response_pseudo_bloc)
from guts.games.guts.continuum.rounding import UNIT_ROUNDOFF


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
        maximisation, or a converged branch and bound), floating-point error
        included (:mod:`guts.games.guts.continuum.rounding`).
    reason : str
    response : tuple
        The opponent's best response at ``v_certified``: ``(a, b)`` for player 1's
        certificate, ``(q,)`` for the coalition's (empty if not computed).
    rounding : float
        The floating-point error bound already subtracted at ``v_certified`` (part of
        the certified interval's width, not on top of it).
    """

    side: str
    valid: bool
    v_start: float
    v_certified: float
    epsilon: float
    rigorous: bool
    reason: str
    response: tuple = ()
    rounding: float = 0.0


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
    ``f`` is bounded below by :func:`coalition_best_response` (rigorous, rounding
    included; ``rigorous`` is False if the box budget ran out, the bound then being
    still valid but looser).  ``rounding`` is the rounding bound of the stage payoff at
    the coalition's best response.
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
        slope = float(w @ _beta(q, a, b, size)) - 1.0
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
            a, b = bm.point
            rnd = float(_stage_error(size, q, w, np.array([a]), np.array([b]), vc)[0])
            return ContinuumCertificate("player1", True, v_start, float(vc), eps, bm0.converged and bm.converged,
                                        "f(v_*) > 0 and f(v^*) >= 0 over all (a, b) (Theorem 1.2, branch and bound)",
                                        response=(float(a), float(b)), rounding=rnd)
    return ContinuumCertificate("player1", True, v_start, v_start, eps, bm0.converged,
                                f"f >= 0 not proved within {margin * 4.0**10:.1e} of {v:.12g}; only v_* certified",
                                response=tuple(map(float, bm.point)))


def _is_pseudo_bloc(P: np.ndarray) -> bool:
    """Whether every profile (row) is ``(a, b, ..., b)``."""
    return P.shape[1] <= 2 or bool(np.all(P[:, 2:] == P[:, 1:2]))


def certify_coalition(size: int, profiles, weights, v_target: float = 0.0, v_start: float | None = None,
                      rounding: float = CERT_ROUNDING) -> ContinuumCertificate:
    """Theorem 1.2 for the coalition's mixture against every player-1 threshold q in [0, 1].

    ``g(w) = min_q Σ_j y_j [-α(q; P_j) + (β(q; P_j) - 1) w] = -max_q Σ_j y_j [α - w β] - w``;
    the inner maximum is exact (player 1's payoff is concave in q).  ``g`` is concave
    in ``w``; ``v^*`` is the largest point found below its root where a lower bound of
    ``g`` is ``>= 0``.  ``v_certified`` is the coalition's value; player 1's certified
    upper bound is ``-v_certified``.

    Pseudo-bloc profiles ``(a, b, ..., b)`` (every caller's) go through
    :func:`certify_coalition_pseudo_bloc` (O(1) closed forms, rigorous rounding
    bound); ``rounding`` is then unused.  Other profiles use the explicit O(N)
    products of :func:`player1_best_response` and the fixed allowance
    ``rounding * (1 + |w|) (N + 1)`` per evaluation of ``g``.
    """
    size = check_int("size", size, 1)
    P = check_thresholds("profiles", profiles)
    y = np.asarray(weights, dtype=float).ravel()
    if P.ndim == 2 and P.shape[1] == size and _is_pseudo_bloc(P):
        return certify_coalition_pseudo_bloc(size, P[:, 0], P[:, 1] if size > 1 else P[:, 0], y,
                                             v_target=v_target, v_start=v_start)
    v_start = -float(size) if v_start is None else float(v_start)

    def g_lower(wv):
        q, val = player1_best_response(P, y, -wv)
        return -val - wv - rounding * (1.0 + abs(wv)) * (size + 1), q

    return _certify_root(g_lower, size, v_target, v_start, rounding * (1.0 + abs(v_target)) * (size + 1),
                         "g(v_*) > 0 and g(v^*) >= 0 over all q in [0, 1] (Theorem 1.2, exact 1-D, fixed allowance)")


def certify_coalition_pseudo_bloc(size: int, free, bloc, weights, v_target: float = 0.0,
                                  v_start: float | None = None) -> ContinuumCertificate:
    """:func:`certify_coalition` for pseudo-bloc profiles ``(free_j, bloc_j, ..., bloc_j)``, O(1) in N.

    ``g`` is bounded below by ``-upper - w`` with ``upper`` the rigorous bound of
    :func:`player1_best_response_pseudo_bloc` (tangent of the concave payoff, closed-form
    rounding bounds of :mod:`guts.games.guts.continuum.rounding`), so the certificate
    holds in floating point for every N; the bound's rounding part is ~1e-14 near the
    equilibrium whatever N (``rounding`` of the result).
    """
    size = check_int("size", size, 1)
    a = check_thresholds("free", free).ravel()
    b = np.broadcast_to(check_thresholds("bloc", bloc).ravel(), a.shape)
    y = np.asarray(weights, dtype=float).ravel()
    v_start = -float(size) if v_start is None else float(v_start)

    def g_lower(wv):
        q, val, upper = player1_best_response_pseudo_bloc(size, a, b, y, -wv)
        g = -upper - wv
        return g - 2.0 * UNIT_ROUNDOFF * (abs(upper) + abs(wv)), (q, upper - val)

    return _certify_root(g_lower, size, v_target, v_start, 0.0,
                         "g(v_*) > 0 and g(v^*) >= 0 over all q in [0, 1] (Theorem 1.2, exact 1-D, "
                         "rounding bounded)")


def _certify_root(g_lower, size, v_target, v_start, rounding_at_target, reason) -> ContinuumCertificate:
    """Largest ``v`` near the root of the concave ``g`` (from ``v_target``) with ``g_lower(v) >= 0``.

    ``g_lower(v)`` returns ``(lower bound of g(v), info)``; ``info`` is player 1's
    response ``q`` or ``(q, rounding bound)``.
    """
    def g(wv):
        return g_lower(wv)[0]

    eps = g(v_start)
    if not eps > 0:
        return ContinuumCertificate("coalition", False, v_start, math.nan, eps, True,
                                    f"g(v_*) = {eps:.3e} is not > 0 at v_* = {v_start}")
    hi = float(v_target) + 1e-9
    step = 1e-9
    while g(hi) > 0:  # walk up until g falls below 0
        step *= 4.0
        hi = float(v_target) + step
        if step > 1e3:
            return ContinuumCertificate("coalition", True, v_start, math.inf, eps, True, "g stays positive: unbounded")
    lo = max(v_start, float(v_target) - 1e-9)
    while g(lo) < 0 and lo > v_start:
        lo = max(v_start, lo - 4.0 * (float(v_target) - lo))
    root = brentq(g, lo, hi, xtol=1e-15)
    v_cert, back = root, 1e-15
    while True:  # brentq may stop just past the root
        val, info = g_lower(v_cert)
        if val >= 0:
            break
        v_cert, back = root - back, 2.0 * back
    if isinstance(info, tuple):
        q, rnd = info
    else:
        q, rnd = info, rounding_at_target
    return ContinuumCertificate("coalition", True, v_start, float(v_cert), eps, True, reason,
                                response=(float(q),), rounding=float(rnd))
