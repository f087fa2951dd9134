"""The discretised game: hands on a mesh, bet sizes on a grid, solved by the engine's LP.

The independent check of the closed forms: each player's hand is one of M
mesh points (i + 1/2)/M, i = 0..M-1, uniformly and independently (D = M^2 deals; equal
hands split the pot); the bettor checks or bets one of K sizes spread evenly over
[L, U] (one size if L = U; a size 0 is dropped, it is a check); the caller calls or
folds, knowing his hand and the size.  Antes 0.5 each (pot 1), as in the closed forms.

This is exactly the continuum game in which each player learns only which of M equal
cells his hand is in (within a cell both orders are equally likely: a split pot), with
the bettor restricted to K sizes.  Both restrictions can only move the value toward
the coarser game's, and the value converges to the closed-form value as M, K grow
(the measured rate is in ``results/continuous_poker/lp_convergence.csv``).

The game is built for :mod:`guts.engine.extensive` (``PublicTreeGame``) and solved by its
sequence-form LP :func:`guts.engine.extensive.solve_lp`, whose certificate (the
exploitability of the returned pair) is reported with the value.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from guts._validate import check_int
from guts.engine import highs
from guts.engine.extensive import Decision, PublicTreeGame, Terminal, solve_sequence_form_lp
from guts.engine.extensive.building import fold_terminal, uniform_mesh
from guts.engine.extensive.result import ExtensiveResult
from guts.engine.tolerances import LP_CERT_TOL
from guts.engine.result import Certificate, Details, Solution

from .closed_forms import ANTE, _check_limits, limit_poker

__all__ = ["DiscretisedSolution", "bet_grid", "discretised_game", "solve_discretised", "MAX_DEALS"]

#: refuse meshes whose deal count would make the game impractically large (2 000 hands per
#: player: the LP is O(K M), the engine's certificate on the M^2 deals about 0.8 GB there)
MAX_DEALS = 4_000_000


def bet_grid(min_bet: float, max_bet: float, sizes: int) -> np.ndarray:
    """The K bet sizes of the discretised game: ``linspace(L, U, K)``, one size if L = U,
    without 0 (a bet of 0 is a check)."""
    L, U = _check_limits(min_bet, max_bet)
    K = check_int("sizes", sizes, 1)
    if L == U:
        return np.array([L])
    if K < 2:
        from guts.errors import GutsInputError

        raise GutsInputError(f"sizes must be >= 2 when min_bet < max_bet (the grid spans [L, U]); got {K}")
    grid = np.linspace(L, U, K)
    return grid[grid > 0]


def discretised_game(min_bet: float, max_bet: float, hands: int, sizes: int) -> PublicTreeGame:
    """The discretised limit game on ``hands`` mesh points and ``sizes`` bet sizes (see module doc)."""
    M = check_int("hands", hands, 2)
    if M * M > MAX_DEALS:
        from guts.errors import GutsInputError

        raise GutsInputError(f"hands must be <= {int(MAX_DEALS ** 0.5)} (D = hands^2 deals); got {M}")
    grid = bet_grid(min_bet, max_bet, sizes)
    deals, share = uniform_mesh(M)  # deal d = (bettor's cell i, caller's cell j); one shared table
    actions = {"check": Terminal.showdown([ANTE, ANTE], share)}
    for k, s in enumerate(grid):
        actions[f"bet{k}:{s:.6g}"] = Decision(1, {"fold": fold_terminal([ANTE + s, ANTE], winner=0),
                                                   "call": Terminal.showdown([ANTE + s, ANTE + s], share)})
    name = f"limit continuous poker L={grid[0]:g} U={grid[-1]:g}, M={M} hands, K={grid.size} sizes"
    return PublicTreeGame(Decision(0, actions), deals, 2, name=name)


def _direct_lp(game, M: int, grid: np.ndarray) -> ExtensiveResult | None:
    """The discretised game's bettor LP with prefix sums: O(K M) non-zeros, not O(K M^2).

    The caller's decision after size ``s_k`` with cell ``j`` is separable: against the
    bettor's plan ``x`` the caller calls iff ``g_kj(x) < 0``, where (times ``M^2``)
    ``g_kj = (a + s_k) sum_i x_k(i) sgn(i - j) - a T_k``, ``a`` the ante, ``T_k`` the
    total weight on size ``k``.  The bettor's maxmin LP is therefore

        max  sum_i a (2i - M + 1) x_c(i) + sum_k a M T_k + sum_kj z_kj
        s.t. z_kj <= g_kj(x),  z_kj <= 0,  sum_a x_a(i) = 1,  x >= 0,

    and ``sum_i x_k(i) sgn(i - j) = (T_k - P_k(j + 1)) - P_k(j)`` with the prefix sums
    ``P_k(j) = sum_{i < j} x_k(i)`` as variables (``P_k(j+1) = P_k(j) + x_k(j)``): every row
    has at most four non-zeros, where the sequence form's caller rows are dense in the
    bettor's hands.  The caller's call probability at ``(k, j)`` is the dual of row
    ``z_kj <= g_kj`` (it lies in [0, 1] because z has cost 1).  Same game, same value;
    the certificate is the engine's exploitability of the returned pair.  ``None`` when
    that certificate fails (the caller then falls back to the sequence form).
    """
    t0 = time.perf_counter()
    a = float(ANTE)
    K = grid.size
    nx = M * (1 + K)                     # x[i, a]: a = 0 check, 1 + k bet size k
    nP = K * M                           # P[k, j] for j = 1..M (index k*M + j - 1)
    nz = K * M                           # z[k, j]
    ii = np.arange(M)

    def colx(act):                       # column of x[:, act]
        return ii * (1 + K) + act

    def colP(k, j):                      # column of P[k, j], j >= 1
        return nx + k * M + (j - 1)

    R, C, V = [], [], []
    # rows 0..M-1: sum_a x[i, a] = 1
    R.append(np.repeat(ii, 1 + K)); C.append(np.arange(nx)); V.append(np.ones(nx))
    row = M
    for k in range(K):                   # prefix rows: P[k, j+1] - P[k, j] - x[j, k] = 0
        r = row + ii
        R += [r, r]; C += [colP(k, ii + 1), colx(1 + k)]; V += [np.ones(M), -np.ones(M)]
        R.append(r[1:]); C.append(colP(k, ii[1:])); V.append(-np.ones(M - 1))
        row += M
    zrow0 = row
    for k in range(K):                   # z[k, j] - (a + s)(T - P(j+1) - P(j)) + a T <= 0
        b = a + float(grid[k])
        r = row + ii
        T = colP(k, M)
        R += [r, r, r]; C += [nx + nP + k * M + ii, np.full(M, T), colP(k, ii + 1)]
        V += [np.ones(M), np.full(M, a - b), np.full(M, b)]
        R.append(r[1:]); C.append(colP(k, ii[1:])); V.append(np.full(M - 1, b))
        row += M
    A = sp.coo_matrix(
        (np.concatenate(V), (np.concatenate(R), np.concatenate(C))), shape=(row, nx + nP + nz))
    cost = np.zeros(nx + nP + nz)
    cost[colx(0)] = a * (2 * ii - M + 1)
    for k in range(K):
        cost[colP(k, M)] += a * M
    cost[nx + nP:] = 1.0
    lower = np.concatenate([np.zeros(nx), np.full(nP, -highs.INF), np.full(nz, -highs.INF)])
    upper = np.concatenate([np.full(nx + nP, highs.INF), np.zeros(nz)])
    row_lower = np.concatenate([np.ones(M), np.zeros(K * M), np.full(K * M, -highs.INF)])
    row_upper = np.concatenate([np.ones(M), np.zeros(2 * K * M)])
    lp = highs.make_lp(cost, lower, upper, A, row_lower, row_upper, maximize=True)
    h, _ = highs.run(lp, f"discretised limit-poker LP ({M} hands, {K} sizes)", solver="simplex")
    xv = np.asarray(h.getSolution().col_value)
    X = np.clip(xv[:nx].reshape(M, 1 + K), 0.0, None)
    X /= X.sum(axis=1, keepdims=True)
    Y = np.clip(np.abs(np.asarray(h.getSolution().row_dual)[zrow0:zrow0 + K * M]), 0.0, 1.0).reshape(K, M)
    return _certified(game, X, Y, h, t0, "lp-direct")


def _certified(game, X, Y, h, t0: float, method: str) -> ExtensiveResult | None:
    """The strategies of a prefix-sum LP (bettor ``X`` (M, 1 + K), caller ``Y`` (K, M)) with
    their certificate, the engine's exploitability in ``game``; None when it fails (the caller
    then tries the next formulation)."""
    from guts.engine.extensive import expected_values, nash_conv

    labels = list(game.action_labels(0)[()])[1:]
    strategies = ({(): X}, {(lab,): np.column_stack([1.0 - Y[k], Y[k]]) for k, lab in enumerate(labels)})
    ev = expected_values(game, strategies)
    nc = nash_conv(game, strategies)
    if nc / 2 > LP_CERT_TOL * game.compiled.payoff_scale:
        return None
    return Solution.of(ExtensiveResult(value=float(ev[0]), values=ev, strategies=strategies, exploitability=nc / 2,
                           nash_conv=nc, converged=True,
                           num_iter=int(h.getInfo().simplex_iteration_count), history=(),
                           seconds=time.perf_counter() - t0, method=method))


def _caller_lp(game, M: int, grid: np.ndarray) -> ExtensiveResult | None:
    """The discretised game's caller LP with prefix sums: the mirror of :func:`_direct_lp`,
    fewer simplex iterations (1.5-10x faster in ``benchmarks/mesh_lp.py``).

    Against the caller's call probabilities ``y_k(j)`` the bettor with cell ``i`` gets
    (times ``M^2``) ``a (2i - M + 1)`` by checking and

        a M - a Y_k + (a + s_k) (Q_k(i) - (Y_k - Q_k(i + 1)))

    by betting size ``s_k``, with ``Q_k(i) = sum_{j < i} y_k(j)`` (variables, ``Q_k(i + 1) =
    Q_k(i) + y_k(i)``) and ``Y_k = Q_k(M)``.  The caller's LP is

        min  sum_i v_i   s.t.  v_i >= a (2i - M + 1) (a bound),  v_i >= bet value (k, i),  0 <= y <= 1:

    four non-zeros a row.  The bettor's probability of size ``k`` with cell ``i`` is the dual
    of row ``(k, i)``, his check the rest.  Certificate: the engine's exploitability of the
    returned pair; ``None`` when it fails (the caller then tries the bettor's LP).
    """
    t0 = time.perf_counter()
    a = float(ANTE)
    K = grid.size
    ii = np.arange(M)
    ny = nQ = K * M

    def coly(k, j):
        return k * M + j

    def colQ(k, j):                      # Q[k, j] for j = 1..M
        return ny + k * M + (j - 1)

    R, C, V = [], [], []
    row = 0
    for k in range(K):                   # prefix rows: Q[k, j+1] - Q[k, j] - y[k, j] = 0
        r = row + ii
        R += [r, r]; C += [colQ(k, ii + 1), coly(k, ii)]; V += [np.ones(M), -np.ones(M)]
        R.append(r[1:]); C.append(colQ(k, ii[1:])); V.append(-np.ones(M - 1))
        row += M
    brow0 = row
    for k in range(K):                   # v_i + (a + b) Y_k - b Q_k(i) - b Q_k(i + 1) >= a M
        b = a + float(grid[k])
        r = row + ii
        R += [r, r, r]; C += [ny + nQ + ii, np.full(M, colQ(k, M)), colQ(k, ii + 1)]
        V += [np.ones(M), np.full(M, a + b), np.full(M, -b)]
        R.append(r[1:]); C.append(colQ(k, ii[1:])); V.append(np.full(M - 1, -b))
        row += M
    A = sp.coo_matrix((np.concatenate(V), (np.concatenate(R), np.concatenate(C))), shape=(row, ny + nQ + M))
    cost = np.zeros(ny + nQ + M)
    cost[ny + nQ:] = 1.0
    lower = np.concatenate([np.zeros(ny), np.full(nQ, -highs.INF), a * (2 * ii - M + 1)])
    upper = np.concatenate([np.ones(ny), np.full(nQ + M, highs.INF)])
    row_lower = np.concatenate([np.zeros(K * M), np.full(K * M, a * M)])
    row_upper = np.concatenate([np.zeros(K * M), np.full(K * M, highs.INF)])
    lp = highs.make_lp(cost, lower, upper, A, row_lower, row_upper)
    h, _ = highs.run(lp, f"discretised limit-poker caller LP ({M} hands, {K} sizes)", solver="simplex")
    sol = h.getSolution()
    Y = np.clip(np.asarray(sol.col_value)[:ny], 0.0, 1.0).reshape(K, M)
    D = np.asarray(sol.row_dual)[brow0:brow0 + K * M]
    if D.sum() < 0:                      # HiGHS's sign convention
        D = -D
    Xb = np.clip(D, 0.0, None).reshape(K, M).T          # (M, K)
    X = np.column_stack([np.clip(1.0 - Xb.sum(axis=1), 0.0, None), Xb])
    X /= X.sum(axis=1, keepdims=True)
    return _certified(game, X, Y, h, t0, "lp-caller")


@dataclass(frozen=True)
class DiscretisedSolution(Details):
    """The discretised game solved by the sequence-form LP, beside the closed form.

    Attributes
    ----------
    value : float
        LP value of the discretised game (bettor, pot 1).
    closed_form_value : float
        Value of the continuum game (:func:`limit_poker`).
    error : float
        ``value - closed_form_value``.
    exploitability, nash_conv : float
        The engine's certificate of the LP solution.
    converged : bool
        The engine's certificate is within its tolerance.
    hands, sizes : int
        M and the number of bet sizes actually used.
    bet_sizes : tuple of float
        The grid.
    bet_size : ndarray (M,)
        The LP bettor's (most likely) action per hand: its size, 0 for a check.
    call_threshold : ndarray (K,)
        Per size, the smallest mesh hand the LP caller calls with probability > 1/2.  Not
        comparable with c(s): every threshold between a size's bluffs and value bets is a
        best response, and the LP need not pick the admissible one.
    seconds : float
        Build + solve time.
    lp : ExtensiveResult
        The engine's solution (``strategies``, ``num_iter`` come from it).
    """

    value: float
    closed_form_value: float
    error: float
    exploitability: float
    nash_conv: float
    converged: bool
    hands: int
    sizes: int
    bet_sizes: tuple
    bet_size: np.ndarray = field(repr=False)
    call_threshold: np.ndarray = field(repr=False)
    seconds: float = 0.0
    lp: object = field(default=None, repr=False)

    values = property(lambda self: (self.value, -self.value), doc="``(value, -value)``: bettor, caller.")
    strategies = property(lambda self: tuple(self.lp.strategies) if self.lp is not None else (),
                          doc="The LP's behaviour strategies (engine format), bettor first.")
    num_iter = property(lambda self: int(self.lp.num_iter) if self.lp is not None else 0,
                        doc="HiGHS iterations.")
    method = "lp"

    @property
    def certificate(self) -> Certificate:
        """The engine's exploitability of the LP pair (in the discretised game)."""
        return Certificate("exploitability", exploitability=float(self.exploitability),
                                 nash_conv=float(self.nash_conv))


def solve_discretised(min_bet: float, max_bet: float, mesh: int, sizes: int) -> Solution:
    """Build :func:`discretised_game` and solve it with the engine's sequence-form LP.

    >>> r = solve_discretised(1.0, 1.0, mesh=20, sizes=1)      # von Neumann, B = 1
    >>> r.converged, abs(r.error) < 5e-3
    (True, True)
    """
    t0 = time.perf_counter()
    game = discretised_game(min_bet, max_bet, mesh, sizes)
    grid = bet_grid(min_bet, max_bet, sizes)
    M = int(mesh)
    lp = _caller_lp(game, M, grid)
    if lp is None:                       # certificate failed: the bettor's LP, then the engine's sequence form
        lp = _direct_lp(game, M, grid)
    if lp is None:
        lp = solve_sequence_form_lp(game)
    closed = limit_poker(min_bet, max_bet).value
    root = lp.strategies[0][()]  # (M, 1 + K): check, bet sizes
    act = np.argmax(root, axis=1)
    bet_size = np.where(act == 0, 0.0, grid[np.maximum(act - 1, 0)])
    labels = [lab for lab in game.action_labels(0)[()]][1:]
    thresholds = []
    for lab in labels:
        call = lp.strategies[1][(lab,)][:, 1]
        idx = np.nonzero(call > 0.5)[0]
        thresholds.append((idx[0] + 0.5) / M if idx.size else 1.0)
    return Solution.of(DiscretisedSolution(value=lp.value, closed_form_value=closed, error=lp.value - closed,
                               exploitability=lp.exploitability, nash_conv=lp.nash_conv, converged=lp.converged,
                               hands=M, sizes=int(grid.size), bet_sizes=tuple(float(s) for s in grid),
                               bet_size=bet_size, call_threshold=np.array(thresholds),
                               seconds=time.perf_counter() - t0, lp=lp))
