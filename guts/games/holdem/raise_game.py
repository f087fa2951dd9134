"""The heads-up hold'em raise game of seed 001, solved exactly by one linear program.

Game (seed 001, first paragraphs; issue 12): Alice posts the small blind 1, Bob the big
blind 2; both see only their own class (one of 169).  Alice folds, calls (completes to
2: showdown for a pot of 4) or raises by ``r`` in ``raises`` (default 2..R: she puts
``2 + r`` in); Bob then calls (showdown for ``2 (2 + r)``) or folds.  Payoffs are
Alice's net chips; Bob's are their negatives:

=============================  ===============================
fold                           -1
call (showdown, pot 4)         4 e_ij - 2 = 2 (2 e_ij - 1)
raise r, Bob folds             +2
raise r, Bob calls             (2 + r)(2 e_ij - 1)
=============================  ===============================

with ``e_ij`` the exact showdown equity (win + tie/2) of Alice's class i against Bob's
class j and the deal weight ``n_ij / (1326 * 1225)`` (disjoint combo pairs), both from
:mod:`guts.games.holdem.equity`.  This is also the convention of the seed author's
code, whose printed value 0.39776 is "Alice's equity if Bob switches", i.e. a lower
bound from an interior-point solution (see docs/holdem.md).

Structured LP (seed 001, "nested linear program" then duality).  Bob's best response
decomposes per (class j, raise r): against Alice's behaviour ``x[i, a]`` his call costs
him ``L_jr(x) = sum_i n_ij x_ir ((2 + r)(2 e_ij - 1) - 2)`` relative to folding, so he
calls iff ``L_jr < 0`` and Alice's guaranteed value is

    max_x  sum_i c_i . x_i  +  sum_{j, r} min(0, L_jr(x))

- an LP with ``z_jr <= 0``, ``z_jr <= L_jr(x)``: 169 (m + 2) + 169 m columns, 169 (m + 1)
rows and 169^2 m + O(169 m) nonzeros (m raise sizes), with no scaling variable.  The
row duals of ``z_jr <= L_jr`` are Bob's call probabilities (LP duality: the dual is
Bob's min-max problem), so one solve gives both strategies.

For large R most raise sizes are never used; ``method="oracle"`` solves the LP on a
growing set of raise sizes and certifies the rest by one small LP per unused size:
Bob needs call probabilities ``y_r`` with ``sum_j n_ij (2 + y_jr g_ij(r)) <= w_i`` for
every class (``w_i`` Alice's equilibrium payoff with class i); when that holds for every
unused r the restricted solution is an equilibrium of the full game; otherwise the
most profitable sizes join the LP.  Either way the returned pair is certified by an
independent best-response computation (exploitability).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from guts._validate import check_int
from guts.errors import ConvergenceWarning, GutsInputError, SolverError

from .cards import CLASS_LABELS, NUM_CLASSES
from .equity import BOARDS_PER_PAIR, TOTAL_DEALS, EquityTable, equity_table

__all__ = ["RaiseGameResult", "solve_raise_game", "raise_game_payoffs", "raise_game_best_responses",
           "EXPLOITABILITY_TOL", "resolve_raises"]

EXPLOITABILITY_TOL = 1e-9    # chips per hand: the certificate every solve must meet
LP_SCALE = 1326.0            # LP rows in units of combos (payoff x 1326): coefficients O(1..1e2)
ORACLE_VIOLATION_TOL = 1e-10  # chips per hand of Alice's class weight: an unused size is unprofitable


@dataclass(frozen=True)
class RaiseGameResult:
    """Solution of the raise game.

    Attributes
    ----------
    value : float
        Alice's equilibrium value per hand in chips (net; small blind 1, big blind 2).
    values : ndarray (2,)
        ``(value, -value)``.
    raises : tuple of int
        Alice's raise sizes, in the column order of the strategies.
    actions : tuple of str
        Alice's actions: ``("f", "c", "r2", ..., "rR")``.
    alice_strategy : ndarray (169, 2 + m)
        Row i: Alice's probabilities of fold, call and each raise with class i.
    bob_strategy : ndarray (169, m)
        ``[j, k]``: Bob's probability of calling raise ``raises[k]`` with class j.
    exploitability, nash_conv : float
        Certificate of the returned pair (chips per hand): NashConv = sum of both players'
        best-response gains, exploitability = NashConv / 2.
    certified_by : str
        ``"engine"`` (guts.engine.extensive.exploitability) or ``"direct"`` (this module's
        closed-form best responses).
    """

    value: float
    values: np.ndarray
    raises: tuple
    actions: tuple
    alice_strategy: np.ndarray
    bob_strategy: np.ndarray
    exploitability: float
    nash_conv: float
    converged: bool
    num_iter: int
    seconds: float
    method: str
    certified_by: str
    lp_value: float
    active_raises: tuple = ()
    info: dict = field(default_factory=dict)

    @property
    def labels(self) -> tuple:
        return CLASS_LABELS

    @property
    def strategies(self) -> list:
        """Both strategies in the engine's format ``{history: (types, actions)}``."""
        alice = {(): self.alice_strategy}
        bob = {(f"r{r}",): np.column_stack([1 - self.bob_strategy[:, k], self.bob_strategy[:, k]])
               for k, r in enumerate(self.raises)}
        return [alice, bob]

    def action_frequencies(self, table: EquityTable | None = None) -> np.ndarray:
        """Overall probability of each of Alice's actions (weighted by the deal)."""
        w = (table or equity_table()).pairs.sum(axis=1) / TOTAL_DEALS
        return w @ self.alice_strategy


def resolve_raises(max_raise=None, raises=None) -> tuple:
    """The raise sizes: ``raises`` if given (distinct integers >= 2), else 2..max_raise."""
    if raises is None:
        if max_raise is None:
            raise GutsInputError("give max_raise (an integer >= 2) or an explicit list of raise sizes")
        r = check_int("max_raise", max_raise, 2)
        return tuple(range(2, r + 1))
    try:
        vals = [check_int("raise size", v, 2) for v in raises]
    except TypeError:
        raise GutsInputError(f"raises must be a list of integers >= 2; got {raises!r}") from None
    if not vals:
        raise GutsInputError("raises must contain at least one raise size (an integer >= 2)")
    if len(set(vals)) != len(vals):
        raise GutsInputError(f"raise sizes must be distinct; got {list(raises)!r}")
    return tuple(sorted(vals))


def raise_game_payoffs(table: EquityTable):
    """The class-pair data of the LP: counts ``n`` (169, 169) and ``B = n (2 e - 1)``.

    Alice's payoff summed over Bob's classes, in units of 1 / (1326 * 1225) chips:
    fold ``-n.sum(1)``, call ``2 B.sum(1)``, raise r against call probabilities
    ``y[:, r]``: ``2 n.sum(1) + (2 + r) B y_r - 2 n y_r``.
    """
    n = table.pairs.astype(float)
    B = (table.win - table.win.T).astype(float) / BOARDS_PER_PAIR  # n (P(win) - P(lose)) = n (2e - 1)
    return n, B


def _alice_action_payoffs(n, B, raises, Y):
    """(169, 2 + m) payoff of each action per Alice class against Bob's calls Y (169, m), raw units."""
    r = np.asarray(raises, dtype=float)
    ns = n.sum(axis=1)
    out = np.empty((n.shape[0], 2 + len(raises)))
    out[:, 0] = -ns
    out[:, 1] = 2 * B.sum(axis=1)
    out[:, 2:] = 2 * ns[:, None] + (B @ Y) * (2 + r)[None, :] - 2 * (n @ Y)
    return out


def _bob_call_costs(n, B, raises, X):
    """(169, m) ``L_jr``: change of Alice's payoff (raw units) when Bob class j calls raise r."""
    r = np.asarray(raises, dtype=float)
    Xr = X[:, 2:]
    return (B.T @ Xr) * (2 + r)[None, :] - 2 * (n.T @ Xr)


def raise_game_best_responses(table: EquityTable, raises, alice, bob):
    """Closed-form best responses: ``(u, br_alice, br_bob)`` in chips per hand.

    ``u`` is Alice's payoff of the pair, ``br_alice`` her best-response value against
    ``bob`` and ``br_bob`` her payoff when Bob best-responds to ``alice``.
    """
    n, B = raise_game_payoffs(table)
    X = np.asarray(alice, dtype=float)
    Y = np.asarray(bob, dtype=float)
    P = _alice_action_payoffs(n, B, raises, Y)
    u = float((P * X).sum()) / TOTAL_DEALS
    br_a = float(P.max(axis=1).sum()) / TOTAL_DEALS
    L = _bob_call_costs(n, B, raises, X)
    base = _alice_action_payoffs(n, B, raises, np.zeros_like(Y))
    br_b = (float((base * X).sum()) + float(np.minimum(L, 0).sum())) / TOTAL_DEALS
    return u, br_a, br_b


def _structured_lp(n, B, raises, *, solver="ipm", threads=1, time_limit=None):
    """Solve the structured LP on the given raise sizes; return (X, Y, value, info)."""
    import highspy

    nc = n.shape[0]
    m = len(raises)
    A = 2 + m
    r = np.asarray(raises, dtype=float)
    s = LP_SCALE / TOTAL_DEALS
    ns = n.sum(axis=1)
    # columns: x[i, a] -> i * A + a ; z[j, k] -> nc * A + k * nc + j
    nx, nz = nc * A, nc * m
    cost = np.zeros(nx + nz)
    cost[0:nx:A] = -ns * s
    cost[1:nx:A] = 2 * B.sum(axis=1) * s
    for k in range(m):
        cost[2 + k:nx:A] = 2 * ns * s
    cost[nx:] = 1.0
    # rows: (j, k) -> k * nc + j : z_jk - sum_i n_ij g_ij(r_k) x_{i, 2+k} <= 0 ; then nc sum rows
    # entries of raise column (i, k): rows k*nc + j for all j, value -(s) ((2 + r) B_ij - 2 n_ij)
    G = -s * ((2 + r)[None, None, :] * B[:, :, None] - 2 * n[:, :, None])   # (i, j, k)
    rows_l, cols_l, vals_l = [], [], []
    ii, jj, kk = np.meshgrid(np.arange(nc), np.arange(nc), np.arange(m), indexing="ij")
    rows_l.append((kk * nc + jj).ravel())
    cols_l.append((ii * A + 2 + kk).ravel())
    vals_l.append(G.ravel())
    zr = np.arange(nz)
    rows_l.append(zr)
    cols_l.append(nx + zr)
    vals_l.append(np.ones(nz))
    xi = np.arange(nx)
    rows_l.append(nz + xi // A)
    cols_l.append(xi)
    vals_l.append(np.ones(nx))
    M = sp.csc_matrix((np.concatenate(vals_l), (np.concatenate(rows_l), np.concatenate(cols_l))),
                      shape=(nz + nc, nx + nz))
    M.sort_indices()
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = nx + nz
    lp.num_row_ = nz + nc
    lp.col_cost_ = cost
    lp.col_lower_ = np.concatenate([np.zeros(nx), np.full(nz, -inf)])
    lp.col_upper_ = np.concatenate([np.full(nx, inf), np.zeros(nz)])
    lp.row_lower_ = np.concatenate([np.full(nz, -inf), np.ones(nc)])
    lp.row_upper_ = np.concatenate([np.zeros(nz), np.ones(nc)])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = M.indptr
    lp.a_matrix_.index_ = M.indices
    lp.a_matrix_.value_ = M.data
    lp.a_matrix_.num_col_ = nx + nz
    lp.a_matrix_.num_row_ = nz + nc
    lp.sense_ = highspy.ObjSense.kMaximize
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("solver", solver)
    h.setOptionValue("threads", int(threads))
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    if solver == "ipm":
        h.setOptionValue("ipm_optimality_tolerance", 1e-12)
        h.setOptionValue("run_crossover", "on")
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    h.passModel(lp)
    t0 = time.perf_counter()
    h.run()
    secs = time.perf_counter() - t0
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS did not solve the raise-game LP (raises {raises[0]}..{raises[-1]}, "
                          f"{len(raises)} sizes): status {h.modelStatusToString(status)}")
    sol = h.getSolution()
    xv = np.asarray(sol.col_value)
    X = xv[:nx].reshape(nc, A)
    duals = np.asarray(sol.row_dual)[:nz].reshape(m, nc).T        # (j, k)
    Y = np.abs(duals)                                             # sign convention of a max problem
    value = h.getInfo().objective_function_value / LP_SCALE
    info = {"lp_seconds": secs, "lp_rows": nz + nc, "lp_cols": nx + nz, "lp_nonzeros": int(M.nnz),
            "lp_iterations": int(h.getInfo().simplex_iteration_count), "ipm_iterations": int(h.getInfo().ipm_iteration_count)}
    return X, Y, value, info


def _clean(X, Y):
    X = np.clip(X, 0.0, None)
    X = X / X.sum(axis=1, keepdims=True)
    Y = np.clip(Y, 0.0, 1.0)
    return X, Y


def _deter_size(n, B, r, w_raw):
    """Bob's best defence of an unused raise size ``r``.

    Solves ``min_{y in [0,1]^169} max_i [P_i(r; y) - w_i]`` (raw units) and returns
    ``(gain, y)`` with ``gain`` in chips per hand: the most Alice can win by moving a class
    to size r when Bob defends it optimally (``<= 0``: r is deterred)."""
    import highspy

    nc = n.shape[0]
    s = LP_SCALE / TOTAL_DEALS
    G = s * ((2 + r) * B - 2 * n)                                  # (i, j): coefficient of y_j in row i
    rhs = s * (w_raw - 2 * n.sum(axis=1))
    M = sp.csc_matrix(np.hstack([G, -np.ones((nc, 1))]))
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = nc + 1, nc
    lp.col_cost_ = np.concatenate([np.zeros(nc), [1.0]])
    lp.col_lower_ = np.concatenate([np.zeros(nc), [-inf]])
    lp.col_upper_ = np.concatenate([np.ones(nc), [inf]])
    lp.row_lower_ = np.full(nc, -inf)
    lp.row_upper_ = rhs
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = M.indptr, M.indices, M.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = nc + 1, nc
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS did not solve the deterrence LP of raise size {r}: "
                          f"status {h.modelStatusToString(status)}")
    v = np.asarray(h.getSolution().col_value)
    y = np.clip(v[:nc], 0.0, 1.0)
    gain = float((G @ y - rhs).max()) / LP_SCALE                # recomputed from the clipped y
    return gain, y


def _initial_sizes(all_raises):
    """A coarse start for the oracle: every size up to 12, then a geometric ladder."""
    small = [r for r in all_raises if r <= 12]
    ladder = {r for r in all_raises if r in (16, 20, 24, 32, 48, 64, 96, 128, 192, 256)}
    start = sorted(set(small) | ladder | {all_raises[-1]})
    return start


def _solve_oracle(n, B, all_raises, *, solver="ipm", max_add=4, max_rounds=200, progress=False):
    """Raise-size generation (see the module docstring); returns (X, Y, value, info)."""
    all_raises = tuple(all_raises)
    pos = {r: k for k, r in enumerate(all_raises)}
    active = _initial_sizes(all_raises)
    info = {"rounds": [], "lp_seconds": 0.0, "deter_seconds": 0.0}
    for rnd in range(1, max_rounds + 1):
        Xs, Ys, value, lpinfo = _structured_lp(n, B, tuple(active), solver=solver)
        Xs, Ys = _clean(Xs, Ys)
        info["lp_seconds"] += lpinfo["lp_seconds"]
        w = (_alice_action_payoffs(n, B, tuple(active), Ys) * Xs).sum(axis=1)  # Alice's class payoffs
        w = np.maximum(w, _alice_action_payoffs(n, B, tuple(active), Ys).max(axis=1))
        t0 = time.perf_counter()
        gains, ys = {}, {}
        for r in all_raises:
            if r in active:
                continue
            gains[r], ys[r] = _deter_size(n, B, r, w)
        info["deter_seconds"] += time.perf_counter() - t0
        bad = sorted((g, r) for r, g in gains.items() if g > ORACLE_VIOLATION_TOL)[::-1]
        info["rounds"].append({"active": len(active), "value": value, "violated": len(bad),
                               "max_gain": bad[0][0] if bad else 0.0})
        if progress:
            print(f"round {rnd}: {len(active)} sizes, LP value {value:.12f}, "
                  f"{len(bad)} unused sizes profitable" + (f" (max gain {bad[0][0]:.3g})" if bad else ""), flush=True)
        if not bad:
            X = np.zeros((n.shape[0], 2 + len(all_raises)))
            Y = np.zeros((n.shape[0], len(all_raises)))
            X[:, :2] = Xs[:, :2]
            for k, r in enumerate(active):
                X[:, 2 + pos[r]] = Xs[:, 2 + k]
                Y[:, pos[r]] = Ys[:, k]
            for r, y in ys.items():
                Y[:, pos[r]] = y
            info["num_rounds"] = rnd
            info["active"] = tuple(active)
            return X, Y, value, info
        active = sorted(set(active) | {r for _, r in bad[:max_add]})
    raise SolverError(f"raise-size generation did not converge in {max_rounds} rounds")
