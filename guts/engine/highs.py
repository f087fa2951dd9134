"""The one place in guts that calls HiGHS (Huangfu and Hall, *Parallelizing the dual
revised simplex method*, 2018), through ``scipy.optimize.linprog`` or ``highspy``.

Every linear programme of the package goes through this module, so that the solver
options (feasibility tolerances from :mod:`guts.engine.tolerances`), the status check
(anything but *optimal* raises :class:`guts.errors.SolverError` naming the status and
the LP) and the sign conventions of the duals live in one place:

* :func:`dense_minimax` -- a dense zero-sum matrix game (Dantzig's equivalence);
* :func:`sequence_form_maxmin` -- the sparse sequence-form LP of a two-player zero-sum
  extensive game (Koller, Megiddo and von Stengel, *Efficient computation of equilibria
  for extensive two-person games*, 1996), one player's plan and the other's from duals;
* :func:`sequence_form_range` -- the equilibrium-range LPs over that polytope (min and
  max of one realisation weight over all maxmin plans);
* :func:`make_lp`, :func:`run`, :func:`add_rows_and_resolve` -- structured LPs built
  directly as ``highspy`` models, solved by the IPM with crossover or the simplex, with
  row generation warm-started from the previous basis;
* :func:`milp` -- a mixed-integer LP to a zero gap (the team best response of
  :mod:`guts.engine.extensive.team`);
* :func:`hipo_available` -- whether this HiGHS has HiPO, its direct-factorisation
  interior-point method (``pip install "guts[hipo]"``: ``highspy`` with the matching
  ``highspy-extras``, which carries the BLAS and METIS that HiPO needs);
* :func:`linprog` -- any other LP in ``scipy.optimize.linprog`` form, status checked.

The algorithm a user names (``--lp-method``, :data:`LP_METHOD_CHOICES`) is ``"simplex"``
(HiGHS's dual simplex), ``"ipm"`` (its interior-point method IPX, crossover to a vertex when
the caller asks for one) or ``"auto"`` (the caller picks by the LP's size);
:data:`LP_METHOD_HIGHS` gives HiGHS's name of each.  HiGHS 1.16 also has PDLP, a
first-order method (Applegate et al., *Practical large-scale linear programming using
primal-dual hybrid gradient*, 2021); it is not offered: it stops at a relative optimality
tolerance (HiGHS's default 1e-7) without a vertex, while the package certifies to 1e-9.
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from guts.engine.tolerances import HIGHS_FEASIBILITY_TOL, HIGHS_HIPO_OPTIMALITY_TOL, HIGHS_IPM_OPTIMALITY_TOL
from guts.errors import SolverError

#: Seconds a time-limited MILP may run past its limit before its process is killed
#: (:func:`milp`): HiGHS stops by itself within its limit in most phases.
MILP_DEADLINE_GRACE = 5.0

__all__ = ["linprog", "dense_minimax", "sequence_form_maxmin", "sequence_form_range",
           "make_lp", "run", "add_rows_and_resolve", "milp", "hipo_available", "INF", "LINPROG_METHODS",
           "HIPO_NEWTON_SYSTEM", "LP_METHOD_CHOICES", "LP_METHOD_HIGHS"]

#: HiGHS's infinity (``highspy.kHighsInf`` is ``inf``).
INF = np.inf
#: Algorithms accepted by :func:`linprog` (``"highs"`` lets HiGHS choose).
LINPROG_METHODS = ("highs", "highs-ds", "highs-ipm")
#: The LP algorithms a user chooses from (``--lp-method``; ``"auto"``: by the LP's size).
LP_METHOD_CHOICES = ("auto", "simplex", "ipm")
#: HiGHS's method for each named algorithm (``"hipo"``: HiPO, see :func:`hipo_available`).
LP_METHOD_HIGHS = {"simplex": "highs-ds", "ipm": "highs-ipm", "hipo": "highs-hipo"}
#: HiPO's Newton system.  The augmented system, not the normal equations HiPO prefers by
#: default: the sequence-form LP has one free variable per opponent information set, and
#: on 2P Mercer hold'em (20 400 information sets) HiPO on the normal equations stalled
#: after 31 iterations (steps of 1e-2, residuals of order 1) and HiGHS restarted with IPX,
#: while on the augmented system it converged alone (81 iterations).
HIPO_NEWTON_SYSTEM = "augmented"

_HIPO = None


def hipo_available() -> bool:
    """Whether HiGHS accepts ``solver="hipo"`` here (cached).  HiPO needs BLAS, METIS, AMD
    and RCM, which the ``highspy`` wheel leaves to ``highspy-extras``; the two must be the
    same release (``highspy`` 1.16 with ``highspy-extras`` 1.15 reports them missing)."""
    global _HIPO
    if _HIPO is None:
        try:
            import highspy

            h = _new_highs()
            _HIPO = h.setOptionValue("solver", "hipo") == highspy.HighsStatus.kOk
        except Exception:          # noqa: BLE001 - any failure means: not available
            _HIPO = False
    return _HIPO


def _call_linprog(*args, **kwargs):
    from scipy.optimize import linprog as scipy_linprog   # imported on use: cold start

    return scipy_linprog(*args, **kwargs)


def linprog(c, *, A_ub=None, b_ub=None, A_eq=None, b_eq=None, bounds=None, what: str = "LP",
            method: str = "highs", presolve: bool = True, tol: float = HIGHS_FEASIBILITY_TOL,
            time_limit: float | None = None):
    """``scipy.optimize.linprog(method="highs...")`` with the status checked.

    Parameters
    ----------
    c, A_ub, b_ub, A_eq, b_eq, bounds
        As in ``scipy.optimize.linprog`` (minimisation).
    what : str
        Name of the LP, used in the error message.
    method : {"highs", "highs-ds", "highs-ipm"}
    presolve : bool
        HiGHS presolve (costs more than it saves on small dense games).
    tol : float
        Primal and dual feasibility tolerance.
    time_limit : float, optional
        Seconds; reaching it is a :class:`SolverError`.

    Returns
    -------
    scipy.optimize.OptimizeResult
        Optimal (``status == 0``, ``x`` present); ``ineqlin.marginals`` are the duals of
        the inequality rows (``<= 0`` for a minimisation).

    Raises
    ------
    SolverError
        HiGHS did not report an optimal solution; the message names the status.
    """
    options = {"presolve": bool(presolve), "primal_feasibility_tolerance": float(tol),
               "dual_feasibility_tolerance": float(tol)}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    res = _call_linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds,
                         method=method, options=options)
    if res.status != 0 or res.x is None:
        raise SolverError(f"HiGHS did not solve the {what}: status {res.status} ({res.message})")
    return res


def dense_minimax(M: np.ndarray):
    """Column player's LP of the zero-sum game ``M`` (row player maximises).

    ``min u  s.t.  M y <= u 1,  1^T y = 1,  y >= 0``; the row player's strategy is the
    dual of the rows.  This form (``C + 1`` variables, ``R`` rows) is the faster one when
    ``C >> R``; presolve is off (it only costs time on dense games).

    Returns
    -------
    (x, y, nit)
        Unnormalised row and column strategies (clipped at 0 by the caller), and the
        simplex iteration count.
    """
    R, C = M.shape
    c = np.zeros(C + 1)
    c[-1] = 1.0
    A_ub = np.hstack([M, -np.ones((R, 1))])
    A_eq = np.ones((1, C + 1))
    A_eq[0, -1] = 0.0
    lb = np.zeros(C + 1)
    lb[-1] = -np.inf
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(R), A_eq=A_eq, b_eq=[1.0],
                  bounds=np.column_stack([lb, np.full(C + 1, np.inf)]), presolve=False,
                  what=f"{R}x{C} matrix game")
    return -np.asarray(res.ineqlin.marginals), np.asarray(res.x[:C]), int(getattr(res, "nit", 0) or 0)


def _maxmin_blocks(A, E, F, f):
    """Constraint blocks of ``max f^T v s.t. F^T v - A^T x <= 0, E x = e, x >= 0``."""
    n1, m2 = A.shape[0], F.shape[0]
    A_ub = sp.hstack([-A.T, F.T], format="csr")
    A_eq = sp.hstack([E, sp.csr_matrix((E.shape[0], m2))], format="csr")
    bounds = [(0, None)] * n1 + [(None, None)] * m2
    return A_ub, A_eq, bounds


def sequence_form_maxmin(A, E, e, F, f, tol: float = HIGHS_FEASIBILITY_TOL, method: str = "highs",
                         time_limit: float | None = None, crossover: bool = True, presolve: bool = True,
                         value_bound: float | None = None):
    """Solve ``max_x min_y x^T A y`` over the plan polytopes ``E x = e``, ``F y = f``.

    The inner minimum is dualised (Koller, Megiddo and von Stengel 1996, Thm 4.3):
    ``max f^T v  s.t.  F^T v - A^T x <= 0,  E x = e,  x >= 0``; ``y`` is the dual of the
    inequality rows (one per column of ``A``).

    ``method="highs-ipm"`` builds the model directly in ``highspy`` (one sparse
    column-wise matrix, no ``linprog`` copies) and runs the interior-point method (IPX;
    ``"highs-hipo"``: HiPO, see :func:`hipo_available`)
    to ``HIGHS_IPM_OPTIMALITY_TOL``, with crossover to a vertex if ``crossover``
    (without it the interior solution is returned: the caller certifies the plans by
    their exploitability, which needs no vertex).  Other methods go through
    :func:`linprog`.

    ``value_bound`` (interior-point methods only) bounds the free variables ``v`` to
    ``[-value_bound, value_bound]``.  At the optimum where every inequality on ``v`` is
    tight, ``v`` at an information set is the opponent's best-response value of its
    subtree, weighted by chance and ``x``: at most the largest payoff in absolute value, so
    a bound above that leaves the optimum unchanged.  Unbounded, the optimal face is
    unbounded in the ``v`` of information sets that ``x`` does not reach, and HiPO stalled
    on it (2P Mercer hold'em, raise 4 or 8: no progress after 50 iterations, then HiGHS
    fell back to IPX); bounded, it converged in 161 iterations.

    Returns
    -------
    (x, y, value, nit)
        Plans clipped at 0, the LP value and HiGHS's iteration count.
    """
    n1, m2 = A.shape[0], F.shape[0]
    if method in ("highs-ipm", "highs-hipo"):
        M = sp.vstack([sp.hstack([-A.T, F.T]), sp.hstack([E, sp.csr_matrix((E.shape[0], m2))])], format="csc")
        c = np.concatenate([np.zeros(n1), -np.asarray(f, dtype=float)])
        vb = INF if value_bound is None else float(value_bound)
        lower = np.concatenate([np.zeros(n1), np.full(m2, -vb)])
        upper = np.concatenate([np.full(n1, INF), np.full(m2, vb)])
        row_lower = np.concatenate([np.full(A.shape[1], -INF), e])
        row_upper = np.concatenate([np.zeros(A.shape[1]), e])
        lp = make_lp(c, lower, upper, M, row_lower, row_upper)
        del M
        h, _ = run(lp, "sequence-form LP", solver="hipo" if method == "highs-hipo" else "ipm",
                   time_limit=time_limit, tol=tol,
                   crossover=crossover, presolve=presolve)
        del lp
        sol = h.getSolution()
        col = np.asarray(sol.col_value)
        dual = np.asarray(sol.row_dual)
        info = h.getInfo()
        nit = int(info.ipm_iteration_count) + int(max(info.crossover_iteration_count, 0))
        x = np.clip(col[:n1], 0.0, None)
        y = np.clip(-dual[:A.shape[1]], 0.0, None)
        return x, y, -float(info.objective_function_value), nit
    A_ub, A_eq, bounds = _maxmin_blocks(A, E, F, f)
    c = np.concatenate([np.zeros(n1), -f])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(A.shape[1]), A_eq=A_eq, b_eq=e, bounds=bounds,
                  method=method, tol=tol, time_limit=time_limit, what="sequence-form LP", presolve=presolve)
    x = np.clip(res.x[:n1], 0.0, None)
    y = np.clip(-res.ineqlin.marginals, 0.0, None)
    return x, y, -float(res.fun), int(getattr(res, "nit", 0) or 0)


def sequence_form_range(A, E, e, F, f, value: float, slack: float, k: int):
    """(min, max) of ``x[k]`` over the maxmin plans of the row player of ``A``.

    The polytope is ``{x : E x = e, x >= 0, F^T v - A^T x <= 0, f^T v >= value - slack}``:
    every plan guaranteeing the game value up to ``slack`` (the equilibrium strategies
    when ``slack`` is 0).  Two LPs, minimising and maximising ``x[k]``.
    """
    n1, m2 = A.shape[0], F.shape[0]
    A_ub, A_eq, bounds = _maxmin_blocks(A, E, F, f)
    A_ub = sp.vstack([A_ub, sp.hstack([sp.csr_matrix((1, n1)), sp.csr_matrix(-f[None, :])])],
                     format="csr")
    b_ub = np.concatenate([np.zeros(A.shape[1]), [-(value - slack)]])
    out = []
    for sign in (1.0, -1.0):
        c = np.zeros(n1 + m2)
        c[k] = sign
        res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=e, bounds=bounds,
                      what="equilibrium-range LP")
        out.append(sign * float(res.fun))
    return out[0], out[1]


# ------------------------------------------------------------------ highspy models
def make_lp(cost, lower, upper, M, row_lower, row_upper, maximize: bool = False):
    """A ``highspy.HighsLp`` from column data and a sparse row matrix ``M`` (any format)."""
    import highspy

    M = sp.csc_matrix(M)
    M.sort_indices()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = M.shape[1], M.shape[0]
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.asarray(lower, dtype=float)
    lp.col_upper_ = np.asarray(upper, dtype=float)
    lp.row_lower_ = np.asarray(row_lower, dtype=float)
    lp.row_upper_ = np.asarray(row_upper, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = M.indptr
    lp.a_matrix_.index_ = M.indices
    lp.a_matrix_.value_ = M.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = M.shape[1], M.shape[0]
    if maximize:
        lp.sense_ = highspy.ObjSense.kMaximize
    return lp


_BANNER_SHOWN = False


def _new_highs():
    """A ``highspy.Highs`` with no output.  highspy prints its banner on the C stdout at
    the first construction in a process, before any option can be set; the library
    prints nothing, so that one construction runs with file descriptor 1 on /dev/null."""
    global _BANNER_SHOWN
    import os
    import sys

    import highspy

    if _BANNER_SHOWN:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        saved = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(devnull)
        _BANNER_SHOWN = True
    h.setOptionValue("output_flag", False)
    return h


def _check(h, what):
    import highspy

    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS did not solve the {what}: status {h.modelStatusToString(status)}")


def run(lp, what: str, *, solver: str = "ipm", time_limit: float | None = None,
        tol: float = HIGHS_FEASIBILITY_TOL, crossover: bool = True, presolve: bool = True,
        require_optimal: bool = True):
    """Solve a ``highspy`` model; return ``(h, seconds)`` with ``h`` the solved ``Highs``.

    ``solver="ipm"`` runs the interior-point method to ``HIGHS_IPM_OPTIMALITY_TOL`` with
    crossover (a vertex, so that duals and row generation work; ``crossover=False``:
    the interior solution); ``"hipo"`` the same with HiPO on ``HIPO_NEWTON_SYSTEM``
    (HiGHS itself restarts with IPX if HiPO's solution fails its optimality check);
    ``"simplex"`` the simplex.  ``presolve=False`` switches
    HiGHS's presolve off.  One thread (the machine's cores are shared by the caller's processes).
    ``require_optimal=False`` returns whatever HiGHS has (for callers that certify their
    answer from any dual solution, e.g. :mod:`~guts.engine.extensive.team_relaxation`).

    Raises
    ------
    SolverError
        The model status is not optimal (the message names it and ``what``).
    """
    h = _new_highs()
    h.setOptionValue("threads", 1)
    if solver == "hipo" and not hipo_available():
        raise SolverError(f"HiGHS's HiPO is not available for the {what}: install the matching "
                          "highspy-extras (pip install 'guts[hipo]')")
    h.setOptionValue("solver", solver)
    h.setOptionValue("primal_feasibility_tolerance", float(tol))
    h.setOptionValue("dual_feasibility_tolerance", float(tol))
    if solver == "hipo":
        h.setOptionValue("hipo_system", HIPO_NEWTON_SYSTEM)
    if solver in ("ipm", "hipo"):
        h.setOptionValue("ipm_optimality_tolerance",
                         HIGHS_HIPO_OPTIMALITY_TOL if solver == "hipo" else HIGHS_IPM_OPTIMALITY_TOL)
        h.setOptionValue("run_crossover", "on" if crossover else "off")
    if not presolve:
        h.setOptionValue("presolve", "off")
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    h.passModel(lp)
    t0 = time.perf_counter()
    h.run()
    secs = time.perf_counter() - t0
    if require_optimal:
        _check(h, what)
    return h, secs


def add_cols_and_resolve(h, what: str, cost, lower, upper, starts, index, values) -> float:
    """Add columns (CSC: ``starts``, ``index``, ``values``) to a solved model and re-solve by
    the primal simplex from the previous basis, still primal feasible (column generation);
    return the seconds."""
    cost = np.asarray(cost, dtype=float)
    index = np.asarray(index, dtype=np.int32)
    h.addCols(len(cost), cost, np.asarray(lower, dtype=float), np.asarray(upper, dtype=float), len(index),
              np.asarray(starts, dtype=np.int32), index, np.asarray(values, dtype=float))
    return _resolve(h, what)


def _resolve(h, what: str) -> float:
    """Re-solve a changed model by the simplex from its previous basis; the seconds."""
    h.setOptionValue("solver", "simplex")
    t0 = time.perf_counter()
    h.run()
    secs = time.perf_counter() - t0
    _check(h, what)
    return secs


def add_rows_and_resolve(h, what: str, row_lower, row_upper, starts, index, values) -> float:
    """Add rows (CSR: ``starts``, ``index``, ``values``) to a solved model and re-solve by
    the dual simplex from the previous basis (row generation); return the seconds."""
    row_lower = np.asarray(row_lower, dtype=float)
    index = np.asarray(index, dtype=np.int32)
    h.addRows(len(row_lower), row_lower, np.asarray(row_upper, dtype=float), len(index),
              np.asarray(starts, dtype=np.int32), index, np.asarray(values, dtype=float))
    return _resolve(h, what)


def milp(cost, lower, upper, M, row_lower, row_upper, integer, *, maximize: bool = False, what: str = "MILP",
         time_limit: float | None = None, tol: float = HIGHS_FEASIBILITY_TOL):
    """A mixed-integer LP solved by HiGHS's branch and cut to a zero gap.

    The model is :func:`make_lp`'s; ``integer`` (bool per column) marks the integer
    columns.  Unlike ``scipy.optimize.milp`` (whose HiGHS keeps its default absolute gap
    of 1e-6), both the relative and the absolute gap are set to zero here, so that the
    dual bound certifies the optimum to the feasibility tolerances, and those are ``tol``.
    One thread.

    Returns
    -------
    (x, objective, bound, optimal)
        The best integer solution found (``None`` if none), its objective, HiGHS's dual
        bound (for a maximisation an upper bound on the optimum, valid also when the time
        limit stops the search) and whether HiGHS proved optimality.

    Raises
    ------
    SolverError
        HiGHS reports anything but optimal or a time limit (infeasible, unbounded, error).
    """
    import highspy

    lp = make_lp(cost, lower, upper, M, row_lower, row_upper, maximize=maximize)
    lp.integrality_ = [highspy.HighsVarType.kInteger if b else highspy.HighsVarType.kContinuous
                       for b in np.asarray(integer, dtype=bool)]
    h = _new_highs()
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    h.setOptionValue("mip_feasibility_tolerance", float(tol))
    h.setOptionValue("primal_feasibility_tolerance", float(tol))
    h.setOptionValue("dual_feasibility_tolerance", float(tol))
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    h.passModel(lp)
    if time_limit is None:
        return _milp_answer(h, what)
    return _milp_with_deadline(h, what, float(time_limit))


def _milp_answer(h, what):
    import highspy

    h.run()
    status = h.getModelStatus()
    optimal = status == highspy.HighsModelStatus.kOptimal
    if not optimal and status != highspy.HighsModelStatus.kTimeLimit:
        raise SolverError(f"HiGHS did not solve the {what}: status {h.modelStatusToString(status)}")
    info = h.getInfo()
    has_x = int(info.primal_solution_status) == 2      # kSolutionStatusFeasible
    x = np.asarray(h.getSolution().col_value) if has_x else None
    return x, float(info.objective_function_value), float(info.mip_dual_bound), bool(optimal)


def _milp_with_deadline(h, what, time_limit):
    """:func:`_milp_answer` in a forked child that is killed at the deadline.

    HiGHS's branch and cut does not read its ``time_limit`` in every phase: on a model of
    ~2.5e5 rows (a three-player Mercer hold'em team best response) it was seen working past
    a 20 s limit for minutes between its presolve and its root LP.  So a limited MILP runs in a
    child process (forked: the model is not copied), which dies with its parent, and is killed
    :data:`MILP_DEADLINE_GRACE` seconds after the limit; the caller then gets no solution and
    no bound (``x`` None, objective ``-inf``, bound ``+inf``).
    """
    import multiprocessing as mp
    import os
    import signal

    try:
        ctx = mp.get_context("fork")
    except ValueError:  # pragma: no cover - no fork (not POSIX): HiGHS's own limit only
        return _milp_answer(h, what)
    parent, child = ctx.Pipe(duplex=False)

    def work():
        try:   # die with the parent (Linux): no solve outlives the command that asked for it
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - not Linux
            pass
        try:
            child.send(("ok", _milp_answer(h, what)))
        except SolverError as e:
            child.send(("error", str(e)))
        finally:
            os._exit(0)

    proc = ctx.Process(target=work, daemon=True)
    proc.start()
    child.close()
    try:
        got = parent.recv() if parent.poll(time_limit + MILP_DEADLINE_GRACE) else None
    except EOFError:
        got = None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    if got is None:
        return None, -np.inf, np.inf, False
    if got[0] == "error":
        raise SolverError(got[1])
    return got[1]
