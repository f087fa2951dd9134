"""Double oracle in the continuum: restricted finite games grown by continuum best responses
(see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

from guts.engine.tolerances import MAX_GAP_TOL

import math
import warnings
from dataclasses import dataclass

import numpy as np

from guts._validate import GutsInputError, check_int, check_positive_float
from guts.engine.matrix_game import solve_lp
from guts.engine.tolerances import SUPPORT_TOL
from guts.errors import ConvergenceWarning
from guts.games.guts.pseudo_bloc import pseudo_bloc
from guts.games.guts.stage import GutsStage
from guts.games.guts.continuum.best_response import coalition_best_response, player1_best_response


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
    tol = check_positive_float("tol", tol, maximum=MAX_GAP_TOL)

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
