"""The heads-up hold'em raise game of the hold'em note, solved exactly by one linear program.

Game (the hold'em note, first paragraphs): Alice posts the small blind 1, Bob the big
blind 2; each sees only his own class (one of 169).  Alice folds, calls (completes to
2: showdown for a pot of 4) or raises by ``r`` in ``raises`` (default 2..R: she puts
``2 + r`` in); Bob calls (showdown for ``2 (2 + r)``) or folds.  In the re-raise game
("the more interesting case", the hold'em note, last paragraphs) Bob may also re-raise by ``s``
in ``reraises`` (he puts ``2 + r + s`` in) and Alice then folds or calls.  Payoffs are
Alice's net chips, Bob's their negatives (zero-sum):

==================================  ===============================
Alice folds                         -1
Alice calls (showdown, pot 4)       2 (2 e_ij - 1)
raise r, Bob folds                  +2
raise r, Bob calls                  (2 + r)(2 e_ij - 1)
raise r, re-raise s, Alice folds    -(2 + r)
raise r, re-raise s, Alice calls    (2 + r + s)(2 e_ij - 1)
==================================  ===============================

``e_ij`` is the exact showdown equity (win + tie/2) of Alice's class i against Bob's
class j and the deal weight is ``n_ij / (1326 * 1225)`` (disjoint combo pairs), both
from :mod:`guts.games.holdem.equities`.  This is the convention of the note's author's code
too; the note's "at least 0.39776" is that code's value of its (interior-point,
approximate) strategy for Alice against Bob's best response (docs/holdem.md).

Structured LP (the hold'em note: "Bob's response as its own nested linear program", then
duality).  Bob's best response decomposes per (class j, raise r): he picks the action
minimising Alice's payoff from his class-j deals.  With ``x`` Alice's realisation plan
(``x[i, a]`` for fold, call, raise r; ``x[i, (r, s)]`` for "raise r, then call re-raise
s", ``<= x[i, r]``) and ``z[j, r]`` Bob's payoff at (j, r) relative to folding, Alice's
guaranteed value is the LP

    max  sum_i c_i . x_i + sum_{j, r} z_jr
    s.t. z_jr <= 0                          (fold)
         z_jr <= C_jr(x) - F_jr(x)          (call)
         z_jr <= S_jrs(x) - F_jr(x)         (re-raise s, each s)
         x_i on its sequence-form polytope

with ``F, C, S`` the linear payoffs of Bob's actions at (j, r).  The rows of size r
involve only the variables of size r, so the LP has 169 m (1 + q) rows of 169 (or 338)
nonzeros and no scaling variable (m raise sizes, q re-raise sizes).  The row duals are
Bob's action probabilities (the dual LP is Bob's min-max problem), so one solve gives
both strategies.

Raise-size generation (``method="oracle"``): most sizes are never used.  Solve the LP on
a subset of sizes; for every unused size r solve one small LP: Bob's best defence of r,
``min_sigma max_i [P_i(r; sigma) - w_i]`` with ``w_i`` Alice's class payoffs in the
restricted solution (Alice best-responds to the re-raises).  If no unused size gains
anything, the restricted solution extended by these defences is an equilibrium of the
full game (Alice's plan guarantees the restricted value; Bob's extended plan holds her
to it); otherwise the most profitable sizes join the LP.  Either way the returned pair
is certified by the engine's best response (exploitability).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from guts._validate import check_choice, check_int
from guts.engine import highs
from guts.engine.progress import progress_note
from guts.engine.result import Certificate, Details, Solution
from guts.engine.tolerances import CERTIFICATE_TOL, LP_FEAS_TOL
from guts.errors import ConvergenceWarning, GutsInputError, SolverError

from .cards import CLASS_LABELS
from .equities import BOARDS_PER_PAIR, TOTAL_DEALS, EquityTable, equity_table

__all__ = ["RaiseGameResult", "solve_raise_game", "raise_game_payoffs", "best_response_values",
           "resolve_raises", "EXPLOITABILITY_TOL", "METHODS"]

EXPLOITABILITY_TOL = CERTIFICATE_TOL  # chips per hand: the certificate every solve must meet
LP_SCALE = 1326.0             # LP rows in units of Alice combos (coefficients O(1..1e3))
ORACLE_GAIN_TOL = 1e-11       # chips per hand: an unused raise size gaining more joins the LP
ORACLE_START = 12             # the oracle starts with every size <= this, plus a ladder
AUTO_ORACLE_SIZES = 20        # method="auto" uses the oracle above this many raise sizes
METHODS = ("auto", "lp", "oracle", "engine")


@dataclass(frozen=True)
class RaiseGameResult(Details):
    """Solution of the raise game (optionally with Bob's re-raises).

    Attributes
    ----------
    value : float
        Alice's equilibrium value per hand in chips (net; small blind 1, big blind 2).
    values : ndarray (2,)
        ``(value, -value)``.
    raises, reraises : tuple of int
        Alice's raise sizes (column order of the strategies) and Bob's re-raise sizes.
    actions : tuple of str
        Alice's first actions ``("f", "c", "r2", ...)``.
    alice_strategy : ndarray (169, 2 + m)
        Row i: Alice's probabilities of fold, call and each raise with class i.
    bob_strategy : ndarray (169, m)
        ``[j, k]``: probability that Bob calls raise ``raises[k]`` with class j.
    bob_reraise : ndarray (169, m, q)
        Probability that Bob re-raises by ``reraises[l]`` (fold = 1 - call - re-raises).
    alice_call_reraise : ndarray (169, m, q)
        Probability that Alice calls re-raise l after her raise k (any value where she
        never raises k).
    exploitability, nash_conv : float
        Certificate of the returned pair in chips per hand (NashConv = both players'
        best-response gains; exploitability = NashConv / 2), by ``certified_by``.
    """

    value: float
    values: np.ndarray
    raises: tuple
    reraises: tuple
    actions: tuple
    alice_strategy: np.ndarray
    bob_strategy: np.ndarray
    bob_reraise: np.ndarray
    alice_call_reraise: np.ndarray
    exploitability: float
    nash_conv: float
    converged: bool
    num_iter: int
    seconds: float
    method: str
    certified_by: str
    lp_value: float
    info: dict = field(default_factory=dict, compare=False)

    @property
    def labels(self) -> tuple:
        """Class labels of the strategy rows."""
        return CLASS_LABELS

    @property
    def strategies(self) -> list:
        """Both strategies in the engine's format ``{history: (types, actions)}``."""
        return engine_strategies(self.raises, self.reraises, self.alice_strategy, self.bob_strategy,
                                 self.bob_reraise, self.alice_call_reraise)

    @property
    def certificate(self) -> Certificate:
        """The exploitability of the returned pair (the :class:`~guts.engine.result.Result` protocol)."""
        return Certificate("exploitability", exploitability=float(self.exploitability),
                                 nash_conv=float(self.nash_conv))

    def action_frequencies(self, table: EquityTable | None = None) -> np.ndarray:
        """Overall probability of each of Alice's first actions (weighted by the deal)."""
        w = (table or equity_table()).pairs.sum(axis=1) / TOTAL_DEALS
        return w @ self.alice_strategy


#: Largest raise (and re-raise) size and most sizes in one game: ``--max-raise 100000`` and
#: ``--reraise 1000000000`` ran for minutes without output before any check; the
#: hold'em note's game is R = 40, the re-raise study's largest size 160.
MAX_RAISE = 1000


def engine_strategies(raises, reraises, alice_strategy, bob_strategy, bob_reraise, alice_call_reraise) -> list:
    """Both players' strategies in the engine's format ``{history: (types, actions)}``.

    ``alice_strategy`` (169, 2 + m), ``bob_strategy`` (169, m), ``bob_reraise`` and
    ``alice_call_reraise`` (169, m, q), as in :class:`RaiseGameResult`.
    """
    alice = {(): alice_strategy}
    bob = {}
    for k, r in enumerate(raises):
        call = bob_strategy[:, k]
        rr = bob_reraise[:, k, :]
        bob[(f"r{r}",)] = np.column_stack([np.maximum(1.0 - call - rr.sum(axis=1), 0.0), call, rr])
        for ll, s in enumerate(reraises):
            pc = alice_call_reraise[:, k, ll]
            alice[(f"r{r}", f"rr{s}")] = np.column_stack([1.0 - pc, pc])
    return [alice, bob]


def resolve_raises(max_raise=None, raises=None, *, name="raise sizes") -> tuple:
    """The raise sizes: ``raises`` if given (distinct integers >= 2), else 2..max_raise."""
    if raises is None:
        if max_raise is None:
            raise GutsInputError("give max_raise (an integer >= 2) or an explicit list of raise sizes")
        r = check_int("max_raise", max_raise, 2, MAX_RAISE)
        return tuple(range(2, r + 1))
    if isinstance(raises, (str, bytes)) or not hasattr(raises, "__iter__"):
        raise GutsInputError(f"{name} must be a list of integers >= 2; got {raises!r}")
    vals = [check_int(name[:-1] if name.endswith("s") else name, v, 2, MAX_RAISE) for v in raises]
    if not vals and name == "raise sizes":
        raise GutsInputError("raise sizes must contain at least one integer >= 2")
    if len(set(vals)) != len(vals):
        raise GutsInputError(f"{name} must be distinct; got {list(raises)!r}")
    return tuple(sorted(vals))


def raise_game_payoffs(table: EquityTable):
    """Class-pair data of the LP: counts ``n`` (169, 169) and ``B = n (2 e - 1)``.

    Payoffs summed over Bob's classes are in units of 1 / (1326 * 1225) chips.
    """
    n = table.pairs.astype(float)
    B = (table.win - table.win.T).astype(float) / BOARDS_PER_PAIR   # n (P(win) - P(lose))
    return n, B


# --------------------------------------------------------------------------- best responses
def _alice_action_values(n, B, raises, reraises, call, rr):
    """(169, 2 + m) payoff (raw units) of each first action per Alice class, playing the
    best response at re-raises, against Bob's ``call`` (169, m) and ``rr`` (169, m, q)."""
    r = np.asarray(raises, dtype=float)
    ns = n.sum(axis=1)
    out = np.empty((n.shape[0], 2 + len(raises)))
    out[:, 0] = -ns
    out[:, 1] = 2 * B.sum(axis=1)
    fold = 1.0 - call - rr.sum(axis=2)
    out[:, 2:] = 2 * (n @ fold) + (2 + r)[None, :] * (B @ call)
    for ll, s in enumerate(reraises):
        y = rr[:, :, ll]
        out[:, 2:] += np.maximum(-(2 + r)[None, :] * (n @ y), (2 + r + s)[None, :] * (B @ y))
    return out


def _bob_action_values(n, B, raises, reraises, X, XC):
    """(169, m, 2 + q) Alice's payoff (raw) from Bob class j's deals at raise r for each of
    his actions (fold, call, re-raise s), given Alice's plan: X (169, 2 + m) first actions,
    XC (169, m, q) realisation weights of "raise r then call re-raise s"."""
    r = np.asarray(raises, dtype=float)
    Xr = X[:, 2:]
    out = np.empty((n.shape[0], len(raises), 2 + len(reraises)))
    out[:, :, 0] = 2 * (n.T @ Xr)
    out[:, :, 1] = (2 + r)[None, :] * (B.T @ Xr)
    for ll, s in enumerate(reraises):
        xc = XC[:, :, ll]
        out[:, :, 2 + ll] = -(2 + r)[None, :] * (n.T @ (Xr - xc)) + (2 + r + s)[None, :] * (B.T @ xc)
    return out


def best_response_values(table: EquityTable, raises, reraises, alice, alice_call_reraise, bob, bob_reraise):
    """Closed-form values in chips per hand: ``(u, br_alice, br_bob)``.

    ``u`` is Alice's payoff of the pair, ``br_alice`` her best-response value against Bob
    and ``br_bob`` her payoff when Bob best-responds.  NashConv = br_alice - br_bob.
    (The certificate of :func:`solve_raise_game` uses the engine; this is the fast
    cross-check.)
    """
    n, B = raise_game_payoffs(table)
    X = np.asarray(alice, dtype=float)
    pc = np.asarray(alice_call_reraise, dtype=float)
    call = np.asarray(bob, dtype=float)
    rr = np.asarray(bob_reraise, dtype=float)
    XC = X[:, 2:, None] * pc
    bob_vals = _bob_action_values(n, B, raises, reraises, X, XC)
    ns = n.sum(axis=1)
    root = (-ns * X[:, 0]).sum() + (2 * B.sum(axis=1) * X[:, 1]).sum()
    sigma = np.concatenate([(1.0 - call - rr.sum(axis=2))[:, :, None], call[:, :, None], rr], axis=2)
    u = (root + (bob_vals * sigma).sum()) / TOTAL_DEALS
    br_b = (root + bob_vals.min(axis=2).sum()) / TOTAL_DEALS
    br_a = _alice_action_values(n, B, raises, reraises, call, rr).max(axis=1).sum() / TOTAL_DEALS
    return float(u), float(br_a), float(br_b)


# --------------------------------------------------------------------------- structured LP
def _highs(lp, what, *, solver="ipm", time_limit=None):
    return highs.run(lp, what, solver=solver, time_limit=time_limit, tol=LP_FEAS_TOL)


_make_lp = highs.make_lp


def _structured_lp(n, B, raises, reraises=(), *, solver="ipm", lazy=None, progress=False):
    """Solve the structured LP; return (X, XC, call, rr, value, info) (behaviour not normalised).

    With ``lazy`` (default when there are re-raises) Bob's re-raise rows are generated:
    the LP starts with his call rows only, and the rows ``z_jr <= S_jrs - F_jr`` that the
    current solution violates are added and the LP re-solved by the dual simplex from
    the previous basis, until none is violated (Bob re-raises with few (class, size)
    pairs, so most of the 169 m q rows never enter).
    """
    nc, m, q = n.shape[0], len(raises), len(reraises)
    lazy = bool(q) if lazy is None else bool(lazy and q)
    s = LP_SCALE / TOTAL_DEALS
    ns = n.sum(axis=1)
    rv = np.asarray(raises, dtype=float)
    sv = np.asarray(reraises, dtype=float)
    # columns: [x(i, f, c, r_1..r_m) : nc*(2+m)] [xc(i, k, l) : nc*m*q] [z(j, k) : nc*m]
    A0 = 2 + m
    nx, nxc, nz = nc * A0, nc * m * q, nc * m
    ii = np.arange(nc)
    col_x = lambda k: ii * A0 + 2 + k                               # noqa: E731
    col_xc = lambda k, ll: nx + (ii * m + k) * q + ll               # noqa: E731
    col_z = lambda k: nx + nxc + k * nc + ii                        # noqa: E731
    cost = np.zeros(nx + nxc + nz)
    cost[ii * A0] = -ns * s
    cost[ii * A0 + 1] = 2 * B.sum(axis=1) * s
    for k in range(m):
        cost[col_x(k)] = 2 * ns * s
    cost[nx + nxc:] = 1.0
    R, C, V = [], [], []

    def add(rows, cols, vals):
        R.append(rows); C.append(cols); V.append(vals)

    def dense(row0, cols, coef):     # coef[i, j] -> row row0 + j, column cols[i]
        add(np.tile(row0 + ii, nc), np.repeat(cols, nc), coef.ravel())

    def rr_coefs(k, ll):             # Bob's re-raise row (k, l): coefficients on x_r and xc_rs
        r, sz = rv[k], sv[ll]
        return s * (4 + r) * n, -s * ((2 + r) * n + (2 + r + sz) * B)

    row = 0
    call_row = {}
    for k in range(m):               # call - fold: z - ((2 + r) B - 2 n)^T x_r <= 0
        dense(row, col_x(k), -s * ((2 + rv[k]) * B - 2 * n))
        add(row + ii, col_z(k), np.ones(nc))
        call_row[k] = row
        row += nc
    rr_rows = {}                     # (k, l) -> array of row index per Bob class (-1: absent)
    if not lazy:
        for k in range(m):
            for ll in range(q):
                cx, cxc = rr_coefs(k, ll)
                dense(row, col_x(k), cx)
                dense(row, col_xc(k, ll), cxc)
                add(row + ii, col_z(k), np.ones(nc))
                rr_rows[(k, ll)] = row + ii
                row += nc
    sum_row = row                    # Alice: sum of first actions = 1
    add(sum_row + np.repeat(ii, A0), np.arange(nx), np.ones(nx))
    row += nc
    if q:                            # Alice: xc_rs - x_r <= 0
        kk, lll = [a.ravel() for a in np.meshgrid(np.arange(m), np.arange(q), indexing="ij")]
        for i in range(nc):
            rows_i = row + (i * m + kk) * q + lll
            add(rows_i, nx + (i * m + kk) * q + lll, np.ones(m * q))
            add(rows_i, i * A0 + 2 + kk, -np.ones(m * q))
        row += nxc
    M = sp.coo_matrix((np.concatenate(V), (np.concatenate(R), np.concatenate(C))), shape=(row, nx + nxc + nz))
    inf = highs.INF
    lower = np.concatenate([np.zeros(nx + nxc), np.full(nz, -inf)])
    upper = np.concatenate([np.full(nx + nxc, inf), np.zeros(nz)])
    row_lower = np.full(row, -inf)
    row_upper = np.zeros(row)
    row_lower[sum_row:sum_row + nc] = 1.0
    row_upper[sum_row:sum_row + nc] = 1.0
    lp = _make_lp(cost, lower, upper, M, row_lower, row_upper, maximize=True)
    what = f"raise-game LP ({m} raise sizes, {q} re-raise sizes)"
    h, secs = _highs(lp, what, solver=solver)
    nnz = int(M.nnz)
    rounds = 0
    while lazy:
        xv = np.asarray(h.getSolution().col_value)
        X = xv[:nx].reshape(nc, A0)
        XC = xv[nx:nx + nxc].reshape(nc, m, q)
        Z = xv[nx + nxc:].reshape(m, nc)                                 # [k, j]
        Xr = X[:, 2:]
        # Bob's most profitable re-raise per (class, size), if it beats the current z
        act = np.empty((m, q, nc))
        for k in range(m):
            for ll in range(q):
                cx, cxc = rr_coefs(k, ll)
                act[k, ll] = cx.T @ Xr[:, k] + cxc.T @ XC[:, k, ll] + Z[k]   # row activity (must be <= 0)
                have = rr_rows.get((k, ll))
                if have is not None:
                    act[k, ll, have >= 0] = -np.inf                        # already in the LP
        best = act.argmax(axis=1)                                          # (m, nc)
        worst = np.take_along_axis(act, best[:, None, :], axis=1)[:, 0, :]
        new_rows = []
        for k in range(m):
            for ll in range(q):
                js = np.nonzero((worst[k] > 10 * LP_FEAS_TOL) & (best[k] == ll))[0]
                if js.size:
                    new_rows.append((k, ll, js))
        if not new_rows:
            break
        rounds += 1
        starts, idx, vals = [], [], []
        base = h.getNumRow()
        count = 0
        for k, ll, js in new_rows:
            cx, cxc = rr_coefs(k, ll)
            have = rr_rows.setdefault((k, ll), np.full(nc, -1, dtype=np.int64))
            for j in js:
                starts.append(len(idx) if idx else 0)
                idx.append(np.concatenate([col_x(k), col_xc(k, ll), [nx + nxc + k * nc + j]]))
                vals.append(np.concatenate([cx[:, j], cxc[:, j], [1.0]]))
                have[j] = base + count
                count += 1
        lens = np.array([len(a) for a in idx])
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int32)
        flat_idx = np.concatenate(idx).astype(np.int32)
        flat_val = np.concatenate(vals)
        secs += highs.add_rows_and_resolve(h, f"{what} after adding re-raise rows",
                                           np.full(count, -inf), np.zeros(count), starts, flat_idx, flat_val)
        nnz += len(flat_idx)
        progress_note(progress, f"    re-raise rows: +{count} (round {rounds}), value "
                                f"{h.getInfo().objective_function_value / LP_SCALE:.12f}")
    sol = h.getSolution()
    xv = np.asarray(sol.col_value)
    duals = np.abs(np.asarray(sol.row_dual))                         # max problem: sign convention varies
    X = xv[:nx].reshape(nc, A0)
    XC = xv[nx:nx + nxc].reshape(nc, m, q)
    call = np.stack([duals[call_row[k] + ii] for k in range(m)], axis=1)
    rr = np.zeros((nc, m, q))
    for (k, ll), rows_ in rr_rows.items():
        ok = rows_ >= 0
        rr[ok, k, ll] = duals[rows_[ok]]
    value = h.getInfo().objective_function_value / LP_SCALE
    info = {"lp_seconds": secs, "lp_rows": int(h.getNumRow()), "lp_cols": int(M.shape[1]), "lp_nonzeros": nnz,
            "row_rounds": rounds, "simplex_iterations": int(h.getInfo().simplex_iteration_count),
            "ipm_iterations": int(h.getInfo().ipm_iteration_count)}
    return X, XC, call, rr, value, info


def _normalise(X, XC, call, rr):
    """Behaviour strategies from the LP plan and duals (clip round-off, renormalise)."""
    X = np.clip(X, 0.0, None)
    X = X / X.sum(axis=1, keepdims=True)
    xr = X[:, 2:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        pc = np.where(xr > 0, np.clip(XC, 0.0, None) / np.where(xr > 0, xr, 1.0), 0.0)
    pc = np.clip(pc, 0.0, 1.0)
    call = np.clip(call, 0.0, 1.0)
    rr = np.clip(rr, 0.0, 1.0)
    tot = call + rr.sum(axis=2)
    over = tot > 1.0
    if over.any():   # round-off only: scale the continuing actions back into the simplex
        scale = np.where(over, 1.0 / np.maximum(tot, 1.0), 1.0)
        call, rr = call * scale, rr * scale[:, :, None]
    return X, pc, call, rr


def _alice_reraise_response(n, B, raises, reraises, rr, pc, X):
    """Where Alice never raises r, her call/fold at the re-raises is irrelevant to her payoff;
    set it to her best response there so that the strategy is sensible to read."""
    r = np.asarray(raises, dtype=float)
    for ll, s in enumerate(reraises):
        y = rr[:, :, ll]
        better = (2 + r + s)[None, :] * (B @ y) > -(2 + r)[None, :] * (n @ y)
        unused = X[:, 2:] <= 0
        pc[:, :, ll] = np.where(unused, better.astype(float), pc[:, :, ll])
    return pc


# --------------------------------------------------------------------------- raise-size oracle
def _deter_size(n, B, r, reraises, w_raw):
    """Bob's best defence of an unused raise size r: ``(gain, call, rr)``.

    Solves ``min max_i [P_i(r; sigma) - w_i]`` over Bob's behaviour sigma at size r, with
    Alice best-responding to each re-raise (``u_is >= `` both of her options); ``gain`` is
    in chips per hand (``<= 0``: r does not pay for any class)."""
    nc, q = n.shape[0], len(reraises)
    s = LP_SCALE / TOTAL_DEALS
    ii = np.arange(nc)
    # columns: y_call (nc) | y_rr (nc*q, index nc + l*nc + j) | u (nc*q, index nc + nc*q + l*nc + i) | t
    ncol = nc + 2 * nc * q + 1
    it = ncol - 1
    R, C, V = [], [], []
    # row i: sum_j ((2+r)B - 2n)_ij yc_j - 2 sum_l sum_j n_ij yrr_lj + sum_l u_li - t <= w_i - 2 ns_i
    R.append(np.repeat(ii, nc)); C.append(np.tile(ii, nc)); V.append((s * ((2 + r) * B - 2 * n)).ravel())
    for ll in range(q):
        R.append(np.repeat(ii, nc)); C.append(nc + ll * nc + np.tile(ii, nc)); V.append((-2 * s * n).ravel())
        R.append(ii); C.append(nc + nc * q + ll * nc + ii); V.append(np.ones(nc))
    R.append(ii); C.append(np.full(nc, it)); V.append(-np.ones(nc))
    row = nc
    for ll, sz in enumerate(reraises):
        # fold option: -(2 + r) sum_j n_ij yrr_lj - u_li <= 0 ; call: (2 + r + s) sum_j B_ij yrr_lj - u_li <= 0
        for coef in (-(2 + r) * s * n, (2 + r + sz) * s * B):
            R.append(row + np.repeat(ii, nc)); C.append(nc + ll * nc + np.tile(ii, nc)); V.append(coef.ravel())
            R.append(row + ii); C.append(nc + nc * q + ll * nc + ii); V.append(-np.ones(nc))
            row += nc
    # Bob's behaviour: call + re-raises <= 1 per class
    if q:
        for ll in range(-1, q):
            R.append(row + ii); C.append(ii if ll < 0 else nc + ll * nc + ii); V.append(np.ones(nc))
        row += nc
    M = sp.coo_matrix((np.concatenate(V), (np.concatenate(R), np.concatenate(C))), shape=(row, ncol))
    inf = highs.INF
    rhs = s * (w_raw - 2 * n.sum(axis=1))
    row_upper = np.concatenate([rhs, np.zeros(2 * nc * q), np.ones(nc if q else 0)])
    lower = np.concatenate([np.zeros(nc * (1 + q)), np.full(nc * q + 1, -inf)])
    upper = np.concatenate([np.ones(nc * (1 + q)), np.full(nc * q + 1, inf)])
    cost = np.zeros(ncol)
    cost[it] = 1.0
    lp = _make_lp(cost, lower, upper, M, np.full(row, -inf), row_upper, maximize=False)
    h, _ = _highs(lp, f"deterrence LP of raise size {r}", solver="simplex")
    v = np.asarray(h.getSolution().col_value)
    call = np.clip(v[:nc], 0.0, 1.0)
    rr = np.clip(v[nc:nc + nc * q].reshape(q, nc).T, 0.0, 1.0)
    tot = call + rr.sum(axis=1)
    if (tot > 1).any():
        call, rr = call / np.maximum(tot, 1.0), rr / np.maximum(tot, 1.0)[:, None]
    return _size_gain(n, B, r, reraises, call, rr, w_raw), call, rr


def _size_gain(n, B, r, reraises, call, rr, w_raw):
    """max_i [P_i(r; call, rr) - w_i] in chips per hand (recomputed, not the LP's t)."""
    vals = _alice_action_values(n, B, (r,), reraises, call[:, None], rr[:, None, :])[:, 2]
    return float((vals - w_raw).max()) / TOTAL_DEALS


def _initial_sizes(all_raises, reraises=()):
    """A coarse start: every size up to ORACLE_START and a geometric ladder (a sparser
    ladder when Bob re-raises: each size then costs 1 + q dense row blocks), plus the
    largest size."""
    if reraises:
        ladder = {2, 4, 6, 9, 13, 20, 30, 45, 68, 100, 150, 225}
        return sorted({r for r in all_raises if r in ladder} | {all_raises[-1]})
    ladder = {16, 20, 24, 32, 48, 64, 96, 128, 192, 256}
    return sorted({r for r in all_raises if r <= ORACLE_START or r in ladder} | {all_raises[-1]})


def _solve_oracle(n, B, all_raises, reraises, *, solver="ipm", max_add=4, max_rounds=100, progress=False):
    """Raise-size generation (module docstring); returns (X, XC, call, rr, value, info)."""
    nc, m, q = n.shape[0], len(all_raises), len(reraises)
    pos = {r: k for k, r in enumerate(all_raises)}
    active = _initial_sizes(all_raises, reraises)
    info = {"rounds": [], "lp_seconds": 0.0, "deter_seconds": 0.0, "deter_lps": 0}
    defence = {}
    for rnd in range(1, max_rounds + 1):
        Xs, XCs, calls, rrs, value, lpinfo = _structured_lp(n, B, tuple(active), reraises, solver=solver)
        info["lp_seconds"] += lpinfo["lp_seconds"]
        Xn, pcn, calln, rrn = _normalise(Xs, XCs, calls, rrs)
        w = _alice_action_values(n, B, tuple(active), reraises, calln, rrn).max(axis=1)
        t0 = time.perf_counter()
        gains = {}
        for r in all_raises:
            if r in active:
                continue
            if r in defence:   # last round's defence may still deter against the new w
                g = _size_gain(n, B, r, reraises, defence[r][0], defence[r][1], w)
                if g <= ORACLE_GAIN_TOL:
                    gains[r] = g
                    continue
            g, c, y = _deter_size(n, B, r, reraises, w)
            info["deter_lps"] += 1
            gains[r], defence[r] = g, (c, y)
        info["deter_seconds"] += time.perf_counter() - t0
        bad = sorted(((g, r) for r, g in gains.items() if g > ORACLE_GAIN_TOL), reverse=True)
        info["rounds"].append({"sizes": len(active), "value": value, "profitable": len(bad),
                               "max_gain": bad[0][0] if bad else max(gains.values(), default=0.0)})
        progress_note(progress, f"  round {rnd}: LP on {len(active)} sizes, value {value:.12f}; "
                      + (f"{len(bad)} unused sizes pay (best +{bad[0][0]:.3g} chips/hand)" if bad
                         else "no unused size pays"))
        if not bad:
            X = np.zeros((nc, 2 + m))
            XC = np.zeros((nc, m, q))
            call = np.zeros((nc, m))
            rr = np.zeros((nc, m, q))
            X[:, :2] = Xs[:, :2]
            for k, r in enumerate(active):
                X[:, 2 + pos[r]] = Xs[:, 2 + k]
                XC[:, pos[r]] = XCs[:, k]
                call[:, pos[r]] = calls[:, k]
                rr[:, pos[r]] = rrs[:, k]
            for r in all_raises:
                if r not in active:
                    call[:, pos[r]], rr[:, pos[r]] = defence[r]
            info.update(num_rounds=rnd, active=tuple(active))
            return X, XC, call, rr, value, info
        active = sorted(set(active) | {r for _, r in bad[:max_add]})
    raise SolverError(f"raise-size generation did not converge in {max_rounds} rounds")


# --------------------------------------------------------------------------- public entry point
def solve_raise_game(max_raise=40, *, raises=None, reraises=(), method="auto", table: EquityTable | None = None,
                     certify: bool = True, progress: bool = False) -> Solution:
    """Exact equilibrium of the hold'em raise game (the hold'em note) with an exploitability certificate.

    Parameters
    ----------
    max_raise : int
        Alice raises by 2..max_raise (ignored when ``raises`` is given); must be >= 2.
    raises : sequence of int, optional
        Explicit raise sizes (distinct integers >= 2).
    reraises : sequence of int
        Bob's re-raise sizes after a raise (empty: the note's game, Bob calls or folds).
    method : {"auto", "lp", "oracle", "engine"}
        ``"lp"``: the structured LP on all sizes; ``"oracle"``: raise-size generation
        (same answer, fast at large R); ``"engine"``: the engine's sequence-form LP on the
        public tree (the reference; slow at large R); ``"auto"``: ``"lp"`` up to
        AUTO_ORACLE_SIZES raise sizes, else ``"oracle"``.
    table : EquityTable, optional
        Default: the package's verified cache.
    certify : bool
        Compute the exploitability with the engine's best response (otherwise with the
        closed-form best responses of :func:`best_response_values`).

    Returns
    -------
    RaiseGameResult
        ``converged`` is True when the exploitability is <= EXPLOITABILITY_TOL chips per
        hand; otherwise a ConvergenceWarning is issued.
    """
    rs = resolve_raises(max_raise, raises)
    rrs = resolve_raises(None, () if reraises is None else reraises, name="re-raise sizes")
    method = check_choice("method", method, METHODS)
    if method == "auto":
        method = "lp" if len(rs) <= AUTO_ORACLE_SIZES else "oracle"
    table = table or equity_table()
    n, B = raise_game_payoffs(table)
    t0 = time.perf_counter()
    game = None
    if method == "engine":
        from guts.engine.extensive import solve_lp

        from .tree import raise_game_tree

        game = raise_game_tree(rs, rrs, table)
        res = solve_lp(game)
        alice, bob = res.strategies
        X = alice[()]
        pc = np.stack([np.stack([alice[(f"r{r}", f"rr{s}")][:, 1] for s in rrs], axis=1) if rrs
                       else np.zeros((169, 0)) for r in rs], axis=1)
        sig = np.stack([bob[(f"r{r}",)] for r in rs], axis=1)            # (169, m, 2 + q)
        call, rr = sig[:, :, 1], sig[:, :, 2:]
        lp_value, info, num_iter = res.value, {"engine_seconds": res.seconds}, res.num_iter
    else:
        if method == "lp":
            Xr, XC, call, rr, lp_value, info = _structured_lp(n, B, rs, rrs)
            num_iter = info["simplex_iterations"] + info["ipm_iterations"]
        else:
            Xr, XC, call, rr, lp_value, info = _solve_oracle(n, B, rs, rrs, progress=progress)
            num_iter = info["num_rounds"]
        X, pc, call, rr = _normalise(Xr, XC, call, rr)
    pc = _alice_reraise_response(n, B, rs, rrs, rr, pc, X)
    solve_seconds = time.perf_counter() - t0
    u, br_a, br_b = best_response_values(table, rs, rrs, X, pc, call, rr)
    info.update(direct_nash_conv=br_a - br_b, solve_seconds=solve_seconds)
    empty = np.zeros((169, len(rs), len(rrs)))
    result_kw = dict(raises=rs, reraises=rrs, actions=("f", "c") + tuple(f"r{r}" for r in rs),
                     alice_strategy=X, bob_strategy=call, bob_reraise=rr if rrs else empty,
                     alice_call_reraise=pc if rrs else empty.copy())
    if certify:
        from guts.engine.extensive import expected_values, nash_conv

        from .tree import raise_game_tree

        game = game or raise_game_tree(rs, rrs, table)
        strategies = engine_strategies(rs, rrs, result_kw["alice_strategy"], result_kw["bob_strategy"],
                                       result_kw["bob_reraise"], result_kw["alice_call_reraise"])
        nc_ = nash_conv(game, strategies)
        u = float(expected_values(game, strategies)[0])
        certified_by = "engine"
    else:
        nc_ = br_a - br_b
        certified_by = "direct"
    expl = nc_ / 2
    converged = bool(expl <= EXPLOITABILITY_TOL)
    if not converged:
        warnings.warn(f"raise game (R = {rs[-1]}, re-raises {list(rrs)}): exploitability {expl:.3g} of the "
                      f"returned pair exceeds {EXPLOITABILITY_TOL:g} chips per hand", ConvergenceWarning, stacklevel=2)
    return Solution.of(RaiseGameResult(value=u, values=np.array([u, -u]), exploitability=float(expl), nash_conv=float(nc_),
                           converged=converged, num_iter=int(num_iter), seconds=time.perf_counter() - t0,
                           method=method, certified_by=certified_by, lp_value=float(lp_value), info=info,
                           **result_kw))
