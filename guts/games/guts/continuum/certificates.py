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
from guts.games.guts.payoffs import beta_matrix
from guts.games.guts.pseudo_bloc import pseudo_bloc
from guts.games.guts.continuum.best_response import coalition_best_response, player1_best_response


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
