"""Two-player zero-sum matrix games behind one interface.

The row player maximises ``x^T M y``.  Every solver returns a
:class:`MatrixGameSolution` whose ``lower``/``upper`` are *checked* guarantees of
the returned strategies (``lower = min_j (x^T M)_j``, ``upper = max_i (M y)_i``),
so the error of any method is visible as ``gap = upper - lower``.

Solvers
-------
``solve_lp``
    Linear programme (Dantzig's equivalence, paper §1) through SciPy's HiGHS.  The
    status is checked (a failure raises :class:`SolverError`), and the solution is
    polished on its support by solving the indifference equations exactly.
``solve_fp``
    Fictitious play through nashpy (Brown; Robinson's theorem, paper App. B), the
    paper's tool.  Approximate: its duality gap is reported.
``double_oracle``
    Row and column generation over lazily evaluated rows and columns: solve the
    restricted game, add best responses, stop when neither side improves by more
    than ``tol``.  The final gap is measured on the *full* game.

Examples
--------
>>> import numpy as np
>>> from guts.engine.matrix_game import solve_lp
>>> sol = solve_lp(np.array([[1.0, -1.0], [-1.0, 1.0]]))     # matching pennies
>>> round(sol.value, 12), sol.row_strategy.round(12).tolist()
(0.0, [0.5, 0.5])
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

from guts._validate import check_choice, check_int, check_matrix
from guts.engine.highs import dense_minimax
from guts.engine.tolerances import (MAX_ITERATIONS, HIGHS_FEASIBILITY_TOL, LP_GAP_REL, ORACLE_GAP_TOL,
                                    ORACLE_IMPROVEMENT_TOL, POLISH_NEGATIVE_TOL, SUPPORT_TOL)
from guts.engine.result import Certificate, Details, Solution, duality_gap_certificate
from guts.errors import ConvergenceWarning, SolverError

__all__ = [
    "MatrixGameSolution",
    "duality_gap",
    "solve_matrix_lp",
    "solve_lp",
    "solve_fp",
    "solve_matrix_game",
    "double_oracle",
    "INNER_SOLVERS",
]

INNER_SOLVERS = ("lp", "fp")


@dataclass(frozen=True)
class MatrixGameSolution(Details):
    """Solution of a zero-sum matrix game (row player maximises).

    Attributes
    ----------
    value : float
        Estimate of the game value, ``(lower + upper) / 2``.
    row_strategy, col_strategy : numpy.ndarray
        Mixed strategies (non-negative, summing to one).
    lower : float
        ``min_j (x^T M)_j``: what ``row_strategy`` guarantees the row player.
    upper : float
        ``max_i (M y)_i``: what ``col_strategy`` holds the row player to.
    gap : float
        ``upper - lower`` >= 0 (up to rounding); the error bound of ``value`` is ``gap / 2``.
    method : str
    converged : bool
        Whether ``gap`` met the requested tolerance.
    num_iter : int
        Simplex iterations, fictitious-play rounds or double-oracle rounds.
    seconds : float
        Wall time (``nan`` for the inner solves of a larger computation, not timed).

    The protocol names (read by :meth:`~guts.engine.result.Solution.of`): ``values = (value, -value)``,
    ``strategies = (row_strategy, col_strategy)``, ``certificate`` the duality gap.
    """

    value: float
    row_strategy: np.ndarray
    col_strategy: np.ndarray
    lower: float
    upper: float
    gap: float
    method: str
    converged: bool
    num_iter: int
    seconds: float = math.nan

    @property
    def values(self) -> tuple:
        return (self.value, -self.value)

    @property
    def strategies(self) -> tuple:
        return (self.row_strategy, self.col_strategy)

    @property
    def certificate(self) -> Certificate:
        return duality_gap_certificate(self.lower, self.upper)


def _normalise(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=float), 0.0, None)
    s = p.sum()
    if not np.isfinite(s) or s <= 0:
        raise SolverError("solver returned a strategy with no positive mass")
    return p / s


def duality_gap(M: ArrayLike, x: ArrayLike, y: ArrayLike) -> tuple[float, float, float]:
    """Return ``(lower, upper, gap)`` of strategies ``x`` (rows) and ``y`` (columns) in ``M``."""
    M = np.asarray(M, dtype=float)
    lower = float(np.min(x @ M))
    upper = float(np.max(M @ y))
    return lower, upper, upper - lower


def _polish(M: np.ndarray, I: np.ndarray, J: np.ndarray):
    """Solve the indifference equations of the square subgame ``M[I, J]``.

    Returns ``(x, y)`` (full length, on supports ``I`` and ``J``) when ``|I| = |J|``, the
    system is regular and the result is a probability vector; else ``None``.
    """
    k = I.size
    if k == 0 or k != J.size:
        return None
    sub = M[np.ix_(I, J)]
    K = np.zeros((k + 1, k + 1))
    rhs = np.zeros(k + 1)
    rhs[-1] = 1.0
    try:
        K[:k, :k] = sub.T
        K[:k, k] = -1.0
        K[k, :k] = 1.0
        xs = np.linalg.solve(K, rhs)[:k]
        K[:k, :k] = sub
        ys = np.linalg.solve(K, rhs)[:k]
    except np.linalg.LinAlgError:
        return None
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(ys))):
        return None
    if np.min(xs) < -POLISH_NEGATIVE_TOL or np.min(ys) < -POLISH_NEGATIVE_TOL:
        return None
    xn = np.zeros(M.shape[0])
    yn = np.zeros(M.shape[1])
    xn[I] = np.clip(xs, 0, None)
    yn[J] = np.clip(ys, 0, None)
    return xn / xn.sum(), yn / yn.sum()


def _polished(M: np.ndarray, x: np.ndarray, y: np.ndarray, gap: float, scale: float):
    """The best of the LP strategies and their support polishes (smallest duality gap).

    Two candidate supports: the supports of ``(x, y)`` themselves, and the best
    responses to them (rows within ``delta`` of ``max M y``, columns within ``delta`` of
    ``min x M``, ``delta`` the LP's own accuracy).  The second repairs a degenerate LP
    solution that leaves weight, within HiGHS's tolerance, on a strategy that is not a
    best response: its supports are then not square, but the best responses are.
    """
    best = (x, y, *duality_gap(M, x, y))
    if gap == 0.0:
        return best
    Mx, My = x @ M, M @ y
    delta = HIGHS_FEASIBILITY_TOL * scale
    candidates = [(np.flatnonzero(x > SUPPORT_TOL), np.flatnonzero(y > SUPPORT_TOL)),
                  (np.flatnonzero(My >= My.max() - delta), np.flatnonzero(Mx <= Mx.min() + delta))]
    for I, J in candidates:
        better = _polish(M, I, J)
        if better is not None:
            cand = (*better, *duality_gap(M, *better))
            if cand[4] <= best[4]:
                best = cand
    return best


def solve_matrix_lp(M: ArrayLike, tol: float = LP_GAP_REL, polish: bool = True) -> Solution:
    """Solve the zero-sum game ``M`` exactly by linear programming (HiGHS).

    Parameters
    ----------
    M : array_like, shape (R, C)
        Row player's payoff.
    tol : float
        Duality gap of the returned strategies accepted without a warning, relative to
        the payoff scale ``max(1, max|M|)``.
    polish : bool
        Refine the HiGHS solution on its support, or on the best responses to it, by
        solving the indifference equations (gap typically ~1e-15).

    Raises
    ------
    SolverError
        HiGHS did not return an optimal solution.
    """
    t0 = time.perf_counter()
    sol = _solve_lp(check_matrix("M", M), tol, polish)
    return Solution.of(replace(sol, seconds=time.perf_counter() - t0))


#: The former name of :func:`solve_matrix_lp` (kept for compatibility).
solve_lp = solve_matrix_lp


def _solve_lp(M: np.ndarray, tol: float = LP_GAP_REL, polish: bool = True, warn: bool = True) -> MatrixGameSolution:
    """:func:`solve_lp` without the input check (``M`` a finite 2-D float array)."""
    R, C = M.shape
    # The column player's LP is the faster form when C >> R, as for coalitions.
    x_raw, y_raw, nit = dense_minimax(M)
    y = _normalise(y_raw)
    x = _normalise(x_raw)
    scale = max(1.0, float(np.abs(M).max()))
    lower, upper, gap = duality_gap(M, x, y)
    if polish:
        x, y, lower, upper, gap = _polished(M, x, y, gap, scale)
    allowed = tol * scale
    converged = gap <= allowed
    if warn and not converged:
        warnings.warn(f"LP solution of a {R}x{C} game has duality gap {gap:.3e} > {allowed:.1e} "
                      f"(tol {tol:.1e} x payoff scale {scale:.3g})", ConvergenceWarning, stacklevel=3)
    return MatrixGameSolution(
        value=0.5 * (lower + upper), row_strategy=x, col_strategy=y, lower=lower, upper=upper,
        gap=gap, method="lp", converged=converged, num_iter=nit,
    )


def solve_fp(M: ArrayLike, iterations: int = 10_000, random_state: int | np.random.Generator | None = None,
             tol: float = 1e-3) -> Solution:
    """Approximate the game by nashpy's fictitious play (the paper's method, §1, App. B).

    Parameters
    ----------
    M : array_like, shape (R, C)
    iterations : int
        Number of fictitious-play rounds.
    random_state : int, numpy.random.Generator or None
        Seeds nashpy's tie-breaking.  nashpy draws from NumPy's global generator;
        its state is saved and restored around the call, so the caller's global
        random state is left untouched.
    tol : float
        Gap below which the result counts as converged (otherwise a
        :class:`ConvergenceWarning` is raised).
    """
    import nashpy

    t0 = time.perf_counter()
    M = check_matrix("M", M)
    iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
    if isinstance(random_state, np.random.Generator):
        seed = int(random_state.integers(2**32 - 1))
    elif random_state is None:
        seed = 0
    else:
        seed = check_int("random_state", random_state, 0, 2**32 - 1)
    saved = np.random.get_state()
    try:
        np.random.seed(seed)
        game = nashpy.Game(M, -M)
        counts = None
        for counts in game.fictitious_play(iterations=iterations):
            pass
    finally:
        np.random.set_state(saved)
    x = _normalise(counts[0])
    y = _normalise(counts[1])
    lower, upper, gap = duality_gap(M, x, y)
    converged = gap <= tol
    if not converged:
        warnings.warn(
            f"fictitious play after {iterations} rounds has duality gap {gap:.3e} > tol {tol:.1e}",
            ConvergenceWarning, stacklevel=2,
        )
    return Solution.of(MatrixGameSolution(
        value=0.5 * (lower + upper), row_strategy=x, col_strategy=y, lower=lower, upper=upper,
        gap=gap, method="fp", converged=converged, num_iter=iterations, seconds=time.perf_counter() - t0,
    ))


def solve_matrix_game(M: ArrayLike, solver: str = "lp", **kwargs) -> Solution:
    """Dispatch to :func:`solve_lp` (``solver="lp"``) or :func:`solve_fp` (``"fp"``)."""
    check_choice("solver", solver, INNER_SOLVERS)
    return solve_lp(M, **kwargs) if solver == "lp" else solve_fp(M, **kwargs)


def double_oracle(get_rows, get_cols, shape, init_rows=(), init_cols=(), tol: float = ORACLE_IMPROVEMENT_TOL,
                  max_iterations: int = 500, gap_tol: float = ORACLE_GAP_TOL) -> tuple[Solution, np.ndarray, np.ndarray]:
    """Solve a large zero-sum game by row/column generation (double oracle).

    Parameters
    ----------
    get_rows : callable
        ``get_rows(I)`` returns the full rows ``M[I, :]`` (shape ``(len(I), C)``).
    get_cols : callable
        ``get_cols(J)`` returns the full columns ``M[:, J]`` (shape ``(R, len(J))``).
    shape : (int, int)
        ``(R, C)``.
    init_rows, init_cols : sequence of int
        Starting supports (e.g. from the previous fixed-point iterate).
    tol : float
        Stop when no best response improves on the restricted value by more than ``tol``.
    gap_tol : float
        Full-game duality gap accepted as converged (the restricted LPs are solved to
        about 1e-10 by HiGHS before polishing, so a best response already in the
        restricted set can leave a gap of a few 1e-12); a larger gap warns.

    Returns
    -------
    (solution, rows, cols)
        The solution embedded in the full game (gap measured on the full game) and
        the final restricted index sets (to warm-start the next call).
    """
    t0 = time.perf_counter()
    R, C = shape
    rows = list(dict.fromkeys(int(i) for i in init_rows)) or [0]
    cols = list(dict.fromkeys(int(j) for j in init_cols)) or [0]
    row_block = get_rows(rows)  # (|I|, C)
    col_block = get_cols(cols)  # (R, |J|)
    for rnd in range(1, max_iterations + 1):
        sub = row_block[:, cols]
        s = _solve_lp(sub, tol=np.inf)
        x = np.zeros(R)
        x[rows] = s.row_strategy
        y = np.zeros(C)
        y[cols] = s.col_strategy
        col_payoff = s.row_strategy @ row_block  # (C,): x^T M over all columns
        row_payoff = col_block @ s.col_strategy  # (R,): M y over all rows
        lower = float(col_payoff.min())
        upper = float(row_payoff.max())
        added = False
        j = int(np.argmin(col_payoff))
        if lower < s.value - tol and j not in cols:
            cols.append(j)
            col_block = np.hstack([col_block, get_cols([j])])
            added = True
        i = int(np.argmax(row_payoff))
        if upper > s.value + tol and i not in rows:
            rows.append(i)
            row_block = np.vstack([row_block, get_rows([i])])
            added = True
        if not added:
            break
    gap = upper - lower
    converged = gap <= max(2 * tol, gap_tol)
    if not converged:
        warnings.warn(f"double oracle stopped after {rnd} rounds with gap {gap:.3e}", ConvergenceWarning, stacklevel=2)
    sol = MatrixGameSolution(
        value=0.5 * (lower + upper), row_strategy=x, col_strategy=y, lower=lower, upper=upper,
        gap=gap, method="double-oracle", converged=converged, num_iter=rnd,
        seconds=time.perf_counter() - t0,
    )
    return Solution.of(sol), np.array(rows), np.array(cols)
