"""Polishing the continuum equilibrium: a small Newton system in ``(q, V)`` instead of more
oracle rounds (see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import brentq

from guts.games.guts.pseudo_bloc import pseudo_bloc, stage_gradient, stage_payoff
from guts.games.guts.continuum.best_response import _polish


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
