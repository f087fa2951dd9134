"""Fixed point of the value map T(V) = Value(A + B V) and its a-posteriori certificates.

Paper §1 ((1.4)–(1.6)), §2 (Theorems 1.2–1.4) and §4.2.

Starting from the termination value ``V_0 = -t`` (forfeit the ante: -1 for player 1,
-N for a coalition of N), ``V_{k+1} = T(V_k)`` is the value forcable in ``k+1``
rounds.  Because ``B >= 0`` the map is monotone, so the iterates increase to the
least fixed point above ``V_0`` when ``V_1 > V_0``; if ``V_1 <= V_0`` the player
should not enter and the value is ``V_0``.

Methods
-------
``"iterate"``
    The paper's plain iteration (1.4).
``"newton"``
    Newton steps on ``T(V) - V`` with the Danskin slope ``x*^T B y*`` (a
    derivative of T at V when the optimal strategies are unique).  A Newton point
    ``c`` is accepted only when the stage strategy ``x_c`` satisfies the transition
    criterion of Theorem 1.2 on ``[V_0, c]``, so an accepted point never passes
    the value reached from below; otherwise the method falls back to a plain step.

Certificates
------------
:func:`certify` applies Theorem 1.2 to one fixed mixed strategy: if
``f(v) = min_j [x A + (x B - 1) v]_j`` is ``> 0`` at ``v_*`` and ``>= 0`` at ``v^*``,
repeating ``x`` forces at least ``v^*`` from any start in ``[v_*, v^*]``, at the
geometric rate ``(1 - ε)^n`` with ``ε = f(v_*)`` (Theorem 1.3).

Examples
--------
The 2×1 overshoot game of §2.2: the value from below is 0, but 0 repels from above.

>>> import numpy as np
>>> from guts.engine.recursive import fixed_point
>>> r = fixed_point(np.zeros((2, 1)), np.array([[0.5], [2.0]]), v0=-1.0, warn=False)
>>> abs(r.value) < 1e-9, r.status, r.attracting_from_above
(True, 'converged', False)
"""
from __future__ import annotations

import math
from typing import Callable
import time
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from guts._validate import GutsInputError, check_bool, check_choice, check_int, check_positive_float, check_random_state
from guts.engine.tolerances import (ACCEPT_REL, CERT_ROUNDING, CERT_VALUE_TOL, FIXED_POINT_TOL,
                                    MAX_FIXED_POINT_TOL, MAX_ITERATIONS, NO_ENTRY_REL, ORACLE_STAGE_TOL, PROBABILITY_SUM_TOL,
                                    SLOPE_MARGIN, SUPPORT_TOL)
from guts.engine.matrix_game import MatrixGameSolution, _solve_lp, double_oracle, solve_fp
from guts.engine.result import Certificate, Details, Solution, interval, lower_bound_certificate
from guts.errors import ConvergenceWarning
from guts.engine.stage import StageGame, as_stage

__all__ = [
    "SOLVERS",
    "METHODS",
    "FixedPointResult",
    "StrategyBound",
    "StageSolver",
    "fixed_point",
    "certify",
    "CertifiedInterval",
    "TwoSidedResult",
    "solve_both_sides",
    "support",
]

SOLVERS = ("lp", "fp", "oracle")
METHODS = ("iterate", "newton")


@dataclass(frozen=True)
class FixedPointResult(Details):
    """Outcome of the fixed-point computation from one side.

    Attributes
    ----------
    value : float
        The value forcable from ``v0`` (the least fixed point above ``v0``), ``v0``
        itself when ``status == "no-entry"``, ``cap`` when ``"capped"``.
    row_strategy, col_strategy : numpy.ndarray
        Optimal strategies of the stage game ``A + B * value`` (the fixed-point
        strategies); the row strategy is the player's own.
    status : {"converged", "no-entry", "diverged", "capped", "max-iter"}
    converged : bool
        ``status`` is "converged" or "no-entry".
    num_iter : int
        Outer iterations (values after ``v0`` in ``history``).
    num_solves : int
        Inner matrix-game solves.
    history : tuple of float
        ``V_0, V_1, ...`` (accepted iterates).
    residual : float
        ``T(V) - V`` at the last accepted iterate.
    error_estimate : float
        Estimated distance to the fixed point (geometric tail ``r / (1 - slope)``).
    slope : float
        ``x^T B y`` at the fixed-point strategies (Danskin derivative of T).
    inner_gap : float
        Duality gap of the last inner solve.
    attracting_from_above : bool or None
        Whether ``T(V + δ) < V + δ`` just above the fixed point (Theorem 1.4); ``False``
        flags the overshoot situation of §2.2.
    certified_lower : float
        What the row strategy forces from ``v0`` by Theorem 1.2 (:func:`certify`), or ``v0``
        itself where that check fails (the value forcable from ``v0`` is at least ``v0``).

    The protocol names: ``values = (value,)`` (one side: the row player's),
    ``strategies = (row_strategy, col_strategy)``, ``certificate`` a ``lower_bound``:
    ``certified_lower`` rigorously below the value, measured by ``value - certified_lower``;
    ``seconds`` is not timed (``nan``).
    """

    value: float
    row_strategy: np.ndarray
    col_strategy: np.ndarray
    status: str
    converged: bool
    num_iter: int
    num_solves: int
    history: tuple
    residual: float
    error_estimate: float
    slope: float
    inner_gap: float
    attracting_from_above: bool | None
    method: str
    solver: str
    certified_lower: float = math.nan
    seconds: float = math.nan

    @property
    def values(self) -> tuple:
        return (self.value,)

    @property
    def strategies(self) -> tuple:
        return (self.row_strategy, self.col_strategy)

    @property
    def certificate(self) -> Certificate:
        return lower_bound_certificate(self.certified_lower, self.value)


@dataclass(frozen=True)
class StrategyBound:
    """Theorem 1.2 applied to one fixed mixed strategy of the row player.

    Attributes
    ----------
    valid : bool
        ``f(v_start) > 0``: the strategy certifies a lower bound.
    v_start : float
        ``v_*``, the starting (termination) value.
    v_certified : float
        ``v^*``: the largest value with ``f(v^*) >= 0`` after the rounding allowance;
        repeating the strategy forces at least ``v^*``.  ``nan`` when invalid.
    epsilon : float
        ``f(v_*)``, the rate of Theorem 1.3: ``v^* - V_n <= (1 - ε)^n (v^* - v_*)``.
    reason : str
    """

    valid: bool
    v_start: float
    v_certified: float
    epsilon: float
    reason: str


class StageSolver:
    """Solve ``Value(A + B V)`` repeatedly with one inner method, warm-starting.

    Parameters
    ----------
    stage : StageGame
    solver : {"lp", "fp", "oracle"}
        Full LP (HiGHS), nashpy fictitious play, or double oracle (LP on restricted
        games with best-response row and column generation; exact to ``oracle_tol``).
    """

    def __init__(self, stage: StageGame, solver: str = "lp", fp_iterations: int = 10_000,
                 random_state=None, oracle_tol: float = ORACLE_STAGE_TOL):
        self.stage = stage
        self.solver = check_choice("solver", solver, SOLVERS)
        self.fp_iterations = check_int("fp_iterations", fp_iterations, 1, MAX_ITERATIONS)
        self.random_state = check_random_state("random_state", random_state)
        self.oracle_tol = oracle_tol
        self.num_solves = 0
        self._rows = None
        self._cols = None

    def __call__(self, V: float) -> MatrixGameSolution:
        self.num_solves += 1
        if self.solver == "oracle":
            st = self.stage

            def get_rows(I):
                A, B = st.rows(I)
                return A + V * B

            def get_cols(J):
                A, B = st.cols(J)
                return A + V * B

            init_r = self._rows if self._rows is not None else [st.shape[0] // 2]
            init_c = self._cols if self._cols is not None else [st.shape[1] // 2]
            sol, _, _ = double_oracle(get_rows, get_cols, st.shape, init_r, init_c, tol=self.oracle_tol)
            # warm-start the next value of V from this one's supports
            self._rows = np.flatnonzero(sol.row_strategy > 0)
            self._cols = np.flatnonzero(sol.col_strategy > 0)
            return sol
        A, B = self.stage.dense()
        M = A + V * B
        if self.solver == "lp":
            return _solve_lp(M)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # gap reported in the result
            return solve_fp(M, iterations=self.fp_iterations, random_state=self.random_state, tol=np.inf)

    def slope(self, sol: MatrixGameSolution) -> float:
        """``x^T B y`` for a solution's strategies."""
        I = np.flatnonzero(sol.row_strategy > 0)
        _, B = self.stage.rows(I)
        return float(sol.row_strategy[I] @ B @ sol.col_strategy)


def fixed_point(A: ArrayLike | StageGame, B: ArrayLike | None = None, v0: float = -1.0, solver: str = "lp",
                method: str = "iterate",
                tol: float = FIXED_POINT_TOL, max_iterations: int = 10_000, cap: float | None = None,
                fp_iterations: int = 10_000, random_state=None, check_above: bool = True,
                warn: bool = True, callback: Callable[[float, float], None] | None = None) -> Solution:
    """Value forcable by the row player from ``v0``: the limit of ``V <- Value(A + B V)``.

    Parameters
    ----------
    A, B : array_like or StageGame
        Stage payoff and stakes multiplier (``B >= 0``), or a :class:`StageGame` as ``A``.
    v0 : float
        Termination value ``-t`` (paper (1.3)): -1 for one player, -N for a coalition.
    solver : {"lp", "fp", "oracle"}
    method : {"iterate", "newton"}
    tol : float
        Stop when the estimated distance to the fixed point is below ``tol``.
    max_iterations : int
        Iteration budget, 1 to :data:`~guts.engine.tolerances.MAX_ITERATIONS`; exceeding it gives
        status "max-iter" and a warning (was ``max_iter``).
    cap : float or None
        ``t_2``: what the opponent forfeits by leaving; the forcable value is at most
        ``cap`` (paper §1).  Iterates beyond it stop with status "capped".
    check_above : bool
        Probe ``T`` just above the fixed point to report ``attracting_from_above``.
    warn : bool
        Emit :class:`ConvergenceWarning` on "max-iter", "diverged", or a fixed point
        that repels from above.
    callback : callable, optional
        ``callback(V, T(V))`` at every accepted iterate (was ``progress``; ``progress`` is a
        flag everywhere else, see :mod:`guts._names`).

    Returns
    -------
    Solution
        Its details a :class:`FixedPointResult`; its certificate the ``lower_bound`` that
        the returned row strategy forces from ``v0`` (Theorem 1.2).
    """
    t0 = time.perf_counter()
    stage = as_stage(A, B)
    v0 = float(v0)
    if not math.isfinite(v0):
        raise GutsInputError(f"v0 must be a finite number; got {v0!r}")
    check_choice("method", method, METHODS)
    tol = check_positive_float("tol", tol, maximum=MAX_FIXED_POINT_TOL)
    max_iter = check_int("max_iterations", max_iterations, 1, MAX_ITERATIONS)
    solve = StageSolver(stage, solver, fp_iterations=fp_iterations, random_state=random_state)
    bound = cap if cap is not None else 1e9 * max(1.0, abs(v0))

    history = [v0]
    sol = solve(v0)
    T = sol.value
    if T <= v0 + NO_ENTRY_REL * max(1.0, abs(v0)):
        return _finish(stage, solve, sol, v0, "no-entry", history, T - v0, 0.0, method, solver,
                       check_above=False, warn=warn, t0=t0)

    L, sol_L, T_L = v0, sol, T
    s_L = solve.slope(sol_L)
    U = g_U = s_U = None  # an upper bracket: T(U) < U implies U >= the value from below
    status = "max-iter"
    err = math.inf
    for _ in range(max_iter):
        r = T_L - L
        err = r / (1.0 - s_L) if s_L < 1.0 else math.inf
        if r <= 0 or err <= tol or (U is not None and U - L <= tol):
            status = "converged"
            break
        if callback is not None:
            callback(L, T_L)
        if method == "newton":
            candidates = _newton_candidates(L, r, s_L, U, g_U, s_U, bound)
            moved = False
            for c in candidates:
                if c <= L or (U is not None and c >= U):
                    continue  # the bracket moved past this trial point
                sol_c = solve(c)
                g_c = sol_c.value - c
                if sol_c.lower >= c - ACCEPT_REL * max(1.0, abs(c)) and _margin(stage, sol_c.row_strategy, v0) > 0:
                    # Theorem 1.2: x_c forces at least c from v0, so c <= value from below
                    L, sol_L, T_L, s_L = c, sol_c, sol_c.value, solve.slope(sol_c)
                    history.append(L)
                    moved = True
                elif sol_c.upper < c:
                    # T(c) < c: iterates from v0 never pass c (T is monotone)
                    if U is None or c < U:
                        U, g_U, s_U = c, g_c, solve.slope(sol_c)
                    moved = True
            if L >= bound:
                status = "capped" if cap is not None else "diverged"
                break
            if moved:
                continue
        # plain step (the paper's iteration (1.4)); T(L) <= least fixed point
        L = T_L
        history.append(L)
        if not math.isfinite(L) or L >= bound:
            status = "capped" if cap is not None else "diverged"
            break
        sol_L = solve(L)
        T_L = sol_L.value
        s_L = solve.slope(sol_L)
    if status == "capped":
        return _finish(stage, solve, sol_L, cap, status, history, T_L - L, math.inf, method, solver,
                       check_above=False, warn=warn, t0=t0)
    value = T_L if status == "converged" else L
    return _finish(stage, solve, sol_L, value, status, history, T_L - L, err, method, solver,
                   check_above=check_above and status == "converged", warn=warn, t0=t0)


def _newton_candidates(L, r, s_L, U, g_U, s_U, bound):
    """Trial points for the bracketed Newton/secant step on g(V) = T(V) - V.

    Without an upper bracket: the Newton point from L.  With one: the Newton point
    from the end with the smaller |g| and the secant (chord) point; for g concave
    or convex these fall on opposite sides of the root, so both ends tighten.
    """
    if U is None:
        if s_L >= 1.0 - SLOPE_MARGIN:
            return []
        return [min(L + r / (1.0 - s_L), bound * (1 + 1e-12))]
    out = []
    if r <= -g_U and s_L < 1.0 - SLOPE_MARGIN:
        out.append(L + r / (1.0 - s_L))
    elif s_U is not None and s_U < 1.0 - SLOPE_MARGIN:
        out.append(U + g_U / (1.0 - s_U))
    out.append(L + r * (U - L) / (r - g_U))
    return [c for c in out if L < c < U]


def _margin(stage: StageGame, x: np.ndarray, v: float) -> float:
    """``f(v) = min_j [x A + (x B - 1) v]_j`` over all columns of the stage."""
    I = np.flatnonzero(x > 0)
    A, B = stage.rows(I)
    return float(np.min(x[I] @ A + (x[I] @ B - 1.0) * v))


def _finish(stage, solve, sol, value, status, history, residual, err, method, solver, check_above, warn, t0):
    attracting = None
    if check_above:
        # the probe must stand clear of the inner solver's error (fictitious play)
        delta = max(1e-6 * max(1.0, abs(value)), 10.0 * sol.gap)
        above = solve(value + delta)
        attracting = bool(above.value < value + delta)
        if not attracting and warn:
            warnings.warn(
                f"fixed point {value:.12g} is not attracting from above (T(V+δ) >= V+δ): "
                "iteration from above may overshoot (paper §2.2, Theorem 1.4)",
                ConvergenceWarning, stacklevel=3,
            )
    if warn and status in ("max-iter", "diverged"):
        warnings.warn(f"fixed-point iteration ended with status {status!r} after {len(history) - 1} "
                      f"iterations (last value {history[-1]:.6g})", ConvergenceWarning, stacklevel=3)
    slope = solve.slope(sol)
    v0 = float(history[0])
    bound = _certify(stage, np.asarray(sol.row_strategy, dtype=float), v0, CERT_ROUNDING)
    lower = bound.v_certified if bound.valid and math.isfinite(bound.v_certified) else v0
    return Solution.of(FixedPointResult(
        value=float(value), row_strategy=sol.row_strategy, col_strategy=sol.col_strategy, status=status,
        converged=status in ("converged", "no-entry"), num_iter=len(history) - 1,
        num_solves=solve.num_solves, history=tuple(float(h) for h in history), residual=float(residual),
        error_estimate=float(err), slope=slope, inner_gap=float(sol.gap),
        attracting_from_above=attracting, method=method, solver=solver,
        certified_lower=float(min(lower, value) if status == "capped" else lower), seconds=time.perf_counter() - t0,
    ))


def certify(A: ArrayLike | StageGame, B: ArrayLike | None = None, strategy: ArrayLike | None = None,
            v_start: float = -1.0, rounding: float = CERT_ROUNDING) -> StrategyBound:
    """Certify the value forced by repeating one mixed strategy (Theorems 1.2 and 1.3).

    Parameters
    ----------
    A, B : array_like or StageGame
        The stage game from the certifying player's side (rows are its strategies;
        use ``stage.transpose()`` for the column player).
    strategy : array_like
        The fixed mixed strategy over rows.
    v_start : float
        ``v_*``: the termination value the play starts from (-1, or -N).
    rounding : float
        Absolute allowance for floating-point error in each ``[x A + (x B - 1) v]_j``,
        scaled by ``1 + |v|``.

    Returns
    -------
    StrategyBound
        ``v_certified`` is a value the strategy forces against *every* pure strategy
        of the opponent; a failed check is reported as ``valid=False``.
    """
    stage = as_stage(A, B)
    try:
        x = np.asarray(strategy, dtype=float).ravel()
    except (TypeError, ValueError):
        raise GutsInputError(f"strategy must be a probability vector of length {stage.shape[0]}; got "
                             f"{type(strategy).__name__} {strategy!r:.40}") from None
    if x.size != stage.shape[0] or np.any(~np.isfinite(x)) or np.any(x < 0) or abs(x.sum() - 1) > PROBABILITY_SUM_TOL:
        raise GutsInputError(
            f"strategy must be a probability vector of length {stage.shape[0]}; got length {x.size}, sum {x.sum()}")
    return _certify(stage, x, float(v_start), rounding)


def _certify(stage: StageGame, x: np.ndarray, v_start: float, rounding: float) -> StrategyBound:
    """:func:`certify` without the input checks (``x`` a probability vector over the rows)."""
    I = np.flatnonzero(x > 0)
    AI, BI = stage.rows(I)
    a = x[I] @ AI
    b = x[I] @ BI
    eps = float(np.min(a + (b - 1.0) * v_start))
    allowance = rounding * (1.0 + abs(v_start))
    if not eps > allowance:
        return StrategyBound(False, float(v_start), math.nan, eps,
                           f"f(v_*) = {eps:.3e} is not > 0 at v_* = {v_start}: the strategy does not "
                           "improve on the termination value against every opponent strategy")
    shrink = b < 1.0
    if not np.any(shrink):
        return StrategyBound(True, float(v_start), math.inf, eps, "every column has x B >= 1: unbounded")
    raw = float(np.min(a[shrink] / (1.0 - b[shrink])))
    V = abs(raw) + 1.0
    num = a[shrink] - rounding * (1.0 + V)
    den = 1.0 - b[shrink]
    den = np.where(num > 0, den + rounding, np.maximum(den - rounding, 1e-300))
    v_cert = float(np.min(num / den))
    return StrategyBound(True, float(v_start), max(v_cert, float(v_start)), eps,
                       "f(v_*) > 0 and f(v^*) >= 0 (Theorem 1.2)")


class CertifiedInterval(Details):
    """Base of the results with a Theorem 1.2 interval ``[certified_lower, certified_upper]``.

    Their :class:`~guts.engine.result.Result` ``certificate`` is that interval (kind
    ``"interval"``): a rigorous bracket of the first player's value.
    """

    certified_lower: float
    certified_upper: float

    @property
    def certificate(self) -> Certificate:
        """The Theorem 1.2 bracket of ``value`` (nan ends where a certificate failed)."""
        return interval(self.certified_lower, self.certified_upper)

    @property
    def certified_width(self) -> float:
        """``certified_upper - certified_lower`` (nan if a certificate failed)."""
        return self.certified_upper - self.certified_lower


@dataclass(frozen=True)
class TwoSidedResult(CertifiedInterval):
    """The recursive game solved from both sides and certified (paper §1, Theorem 1.2).

    Attributes
    ----------
    row, col : FixedPointResult
        The row player's fixed point from ``v_row`` and the column player's (its own
        value, on the transposed stage) from ``v_col``.
    certificate_lower, certificate_upper : StrategyBound
        Theorem 1.2 for the row player's strategy (from ``v_row``) and the column
        player's (from ``v_col``).
    certified_lower, certified_upper : float
        Rigorous interval for the row player's value (``nan`` where a certificate failed
        or was not computed).
    converged : bool
        Both fixed points converged.
    num_iter, num_solves : int
        Outer iterations and inner solves, both sides.
    """

    row: FixedPointResult
    col: FixedPointResult
    certificate_lower: StrategyBound
    certificate_upper: StrategyBound
    certified_lower: float
    certified_upper: float
    converged: bool
    num_iter: int
    num_solves: int
    seconds: float = math.nan
    method: str = "fixed-point"

    @property
    def value(self) -> float:
        """The row player's value (from ``v_row``)."""
        return self.row.value

    @property
    def values(self) -> tuple:
        """Each side's value from its own termination value: ``(row.value, col.value)``."""
        return (self.row.value, self.col.value)

    @property
    def strategies(self) -> tuple:
        """Each side's fixed-point strategy: ``(row.row_strategy, col.row_strategy)``."""
        return (self.row.row_strategy, self.col.row_strategy)


def support(strategy: ArrayLike, label: Callable[[int], object], tol: float = SUPPORT_TOL) -> dict:
    """``{label(i): p_i}`` for the entries of a mixed strategy above ``tol``.

    The relabelling step every recursive-game driver shares (coalition, teams, pseudo-bloc):
    build a stage, :func:`solve_both_sides`, then name each side's support by its thresholds.
    """
    x = np.asarray(strategy, dtype=float)
    return {label(int(i)): float(x[i]) for i in np.flatnonzero(x > tol)}


NOT_CERTIFIED = StrategyBound(False, math.nan, math.nan, math.nan, "not computed")


def solve_both_sides(stage: StageGame, v_row: float, v_col: float, certify_result: bool = True,
                     **fixed_point_kwargs) -> Solution:
    """Solve the recursive game from both sides and certify both ends.

    The row player iterates from ``v_row`` (its termination value, e.g. -1), the column
    player from ``v_col`` (e.g. -N) on ``stage.transpose()``; each is capped at what
    the other forfeits by leaving (``-v_col`` and ``-v_row``, paper §1).  When the game
    has a value, ``row.value = -col.value``.

    Parameters
    ----------
    stage : StageGame
    v_row, v_col : float
        Termination values of the two sides (both < 0).
    certify_result : bool
        Apply :func:`certify` to both fixed-point strategies (without it the result is never
        ``converged``: its certificate is nan).
    **fixed_point_kwargs
        Passed to :func:`fixed_point` (``solver``, ``method``, ``tol`` ...).
    """
    t0 = time.perf_counter()
    certify_result = check_bool("certify_result", certify_result)
    v_row, v_col = float(v_row), float(v_col)
    row = fixed_point(stage, v0=v_row, cap=-v_col, **fixed_point_kwargs)
    col = fixed_point(stage.transpose(), v0=v_col, cap=-v_row, **fixed_point_kwargs)
    if certify_result:
        lo = _certify(stage, row.row_strategy, v_row, CERT_ROUNDING)
        hi = _certify(stage.transpose(), col.row_strategy, v_col, CERT_ROUNDING)
    else:
        lo = hi = NOT_CERTIFIED
    c_lo = lo.v_certified if lo.valid else math.nan
    c_hi = -hi.v_certified if hi.valid else math.nan
    # without the certificates nothing vouches for the values (a nan certificate is never
    # certified): the fixed points may have stopped, the result is not "converged"
    converged = row.converged and col.converged and bool(certify_result)
    if converged:
        # no allowance for an approximate inner solver's gap: the values printed are the fixed
        # points', so they count as certified only where the strategies' certificates put them
        problem = certificate_problem(row.value, -col.value, c_lo, c_hi)
        if problem:
            converged = False
            warnings.warn(f"the fixed points stopped but the result is not certified: {problem}",
                          ConvergenceWarning, stacklevel=2)
    return Solution.of(TwoSidedResult(
        row=row, col=col, certificate_lower=lo, certificate_upper=hi,
        certified_lower=c_lo, certified_upper=c_hi,
        converged=converged, num_iter=row.num_iter + col.num_iter,
        num_solves=row.num_solves + col.num_solves, seconds=time.perf_counter() - t0,
        method=f"{fixed_point_kwargs.get('solver', 'lp')}/{fixed_point_kwargs.get('method', 'iterate')}",
    ))


def certificate_problem(lower: float, upper: float, certified_lower: float, certified_upper: float,
                        allowance: float = 0.0) -> str:
    """Why ``[lower, upper]`` is not certified by ``[certified_lower, certified_upper]`` ("" if it is).

    A two-sided result is certified when both ends of its interval are finite, ordered
    (``certified_lower <= certified_upper``) and both reported values lie inside it, up to
    :data:`~guts.engine.tolerances.CERT_VALUE_TOL` (relative) plus ``allowance`` (an
    approximate inner solver's reported gap).  Used by every two-sided solver and by the
    readers of result tables, which re-certify rather than trust a file.
    """
    vals = (lower, upper, certified_lower, certified_upper)
    if not all(isinstance(v, (int, float, np.floating, np.integer)) and math.isfinite(v) for v in vals):
        return (f"certified interval [{certified_lower}, {certified_upper}] or value [{lower}, {upper}] "
                "is not finite (a certificate failed)")
    slack = CERT_VALUE_TOL * (1.0 + max(abs(lower), abs(upper))) + allowance
    if certified_lower > certified_upper + slack:
        return f"certified lower {certified_lower:.12g} > certified upper {certified_upper:.12g}"
    for name, v in (("lower", lower), ("upper", upper)):
        if not certified_lower - slack <= v <= certified_upper + slack:
            return (f"value {name} {v:.12g} lies outside its certified interval "
                    f"[{certified_lower:.12g}, {certified_upper:.12g}]")
    return ""

