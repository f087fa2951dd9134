"""The mesh game's LP in prefix-sum form: O(M x sequences) non-zeros instead of O(M^2).

The mesh game of :mod:`.discrete` (``M`` equally likely hands per player, equal hands
split the pot, the public betting tree of :mod:`.rules`) is a two-player zero-sum
extensive game; its sequence-form LP (Koller, Megiddo and von Stengel, *Efficient
computation of equilibria for extensive two-person games*, 1996) is

    max_{x, v}  sum_j v[0, j]   s.t.   F^T v - A^T x <= 0,   E x = e,   x >= 0,

P1's realisation plan ``x[s, i]`` on his sequences ``s`` and hands ``i``, one row per P2
sequence ``s'`` and hand ``j``.  The payoff of a terminal ``t`` at deal ``(i, j)`` depends on
the hands only through ``sgn(i - j)`` (showdown) or not at all (fold), plus, with the
selection tie-break of :func:`.discrete.discretised_game`, terms linear in ``h_i`` and in
``h_j`` alone.  So the row ``(s', j)`` needs ``x[s, .]`` only through

    T_s = sum_i x[s, i],   sum_i x[s, i] sgn(i - j) = T_s - S_s(j + 1) - S_s(j),   W_s = sum_i (h_i - 1/2) x[s, i],

with the prefix sums ``S_s(j) = sum_{i < j} x[s, i]`` as variables (``S_s(j + 1) = S_s(j) +
x[s, j]``: three non-zeros a row).  Each payoff row then has a handful of non-zeros where
the engine's sequence form has ``M`` per terminal: the LP has ``O(M (|S_1| + |S_2|))``
non-zeros instead of ``O(M^2 |terminals|)``.  It is the same LP after a linear change of
variables, so it has the same value and the same optimal plans; P2's plan ``y`` is the dual
of the payoff rows.  The mirror (P2's minmax LP, with prefix sums of his plan; ``side=1``)
has the same value too; on games b and c it solved 10-45 % faster at 400-1 000 hands in one
measurement on a loaded machine, not enough to be the default without a benchmark.

The solution is certified independently: the exploitability of the returned behaviour
pair in the engine's :func:`.discrete.discretised_game` (unperturbed), by the engine's best
response (:func:`guts.engine.extensive.nash_conv`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sps
import sympy as sp

from guts._validate import check_int
from guts.engine import highs

from .method import exact_pot
from .rules import P, BettingRules, GameStructure, TerminalNode, derive


#: Peak resident memory of :func:`solve_mesh` over the interpreter's, measured by
#: ``benchmarks/mesh_lp.py`` (column ``extra_rss_mb``, P = 3): the prefix-sum LP is O(M)
#: and its cost is the engine's certificate on the ``M^2``-deal game, 188-217 B a deal on
#: games a-d at M = 1 000 and 2 000 (bytes per deal); the sequence form's is its payoff
#: matrix, one non-zero per deal and terminal, 183-219 B each on games a-c at M = 400
#: (bytes per deal and terminal).
MESH_BYTES = {"prefix-sum": 220.0, "sequence-form": 220.0}


#: Most hands per player of a mesh game (its LP would need petabytes long before).
MAX_MESH = 10**6


def mesh_memory_estimate(rules: BettingRules, mesh: int, formulation: str = "prefix-sum") -> float:
    """Bytes :func:`solve_mesh` needs at ``mesh`` hands per player (see :data:`MESH_BYTES`)."""
    deals = float(mesh) * float(mesh)  # inf, not OverflowError, for an absurd mesh: refused by the budget
    if formulation == "sequence-form":
        return MESH_BYTES[formulation] * deals * len(derive(rules).terminals)
    return MESH_BYTES[formulation] * deals

__all__ = ["MeshPlans", "solve_mesh_plans", "mesh_hands", "engine_history"]


def mesh_hands(mesh: int) -> np.ndarray:
    """The ``M`` hand values ``(i + 1/2) / M``."""

    mesh = check_int("mesh", mesh, 2, MAX_MESH)
    return (np.arange(mesh) + 0.5) / mesh


def engine_history(history: tuple) -> tuple:
    """Our ``((player, action), ...)`` history as the engine's tuple of labels."""
    return tuple(a for _, a in history)


def _last_own(history: tuple, player: int):
    """The player's last own ``(prefix history, action)`` on ``history`` (his sequence), or ``None``."""
    for k in range(len(history) - 1, -1, -1):
        if history[k][0] == player:
            return (history[:k], history[k][1])
    return None


def _aggressiveness(seq) -> int:
    return sum({"fold": 0, "pass": 1, "call": 2}.get(a, 3) for a in seq)


def _sequences(structure: GameStructure, player: int) -> list:
    """The player's non-empty sequences ``(history, action)``, in tree order."""
    out = []
    for h, node in structure.decisions.items():
        if node.player == player:
            out.extend((h, a) for a in node.actions)
    return out


@dataclass(frozen=True)
class MeshPlans:
    """The prefix-sum LP's solution: behaviour ``strategies`` (engine format,
    ``strategies[player][history labels]`` an ``(M, actions)`` array), the LP's ``value``
    of P1 (of the perturbed game when ``perturbation > 0``), HiGHS's simplex iterations,
    seconds, and the LP's size."""

    strategies: tuple
    value: float
    num_iter: int
    seconds: float
    rows: int
    cols: int
    nonzeros: int


def solve_mesh_plans(rules: BettingRules, pot, mesh: int, perturbation: float = 0.0, side: int = 0) -> MeshPlans:
    """Solve the mesh game's LP in prefix-sum form (see the module docstring).

    ``side``: the player whose plan is the LP's primal (0: P1's maxmin LP, as written in the
    module docstring; 1: P2's, the mirror); the other's plan comes from the duals.  Same
    value either way.  The solution is not certified here: :func:`.discrete.solve_mesh` does it.

    Raises
    ------
    SolverError
        HiGHS does not report an optimal solution.
    """
    from guts._validate import check_memory


    M = check_int("mesh", mesh, 2, MAX_MESH)
    check_memory(f"the {M}-hand mesh game", mesh_memory_estimate(rules, M, "prefix-sum"), "use a smaller mesh")
    side = check_int("side", side, 0, 1)
    p = float(exact_pot(pot))
    eps = float(perturbation)
    structure = derive(rules)
    pa, pb = side, 1 - side                 # primal player (plan x), dual player (plan y)
    seq1, seq2 = _sequences(structure, pa), _sequences(structure, pb)
    n1, n2 = len(seq1), len(seq2)
    i1 = {s: k for k, s in enumerate(seq1)}
    i2 = {s: k for k, s in enumerate(seq2)}
    dec1 = [h for h, n in structure.decisions.items() if n.player == pa]
    dec2 = [h for h, n in structure.decisions.items() if n.player == pb]
    d2 = {h: k for k, h in enumerate(dec2)}
    g = mesh_hands(M) - 0.5
    jj = np.arange(M)

    # ---- columns: x[s, i] (n1 M), S[s, j] j = 1..M (n1 M), W[s] (n1, with a tie-break),
    #      v0[j] (M), v[h2, j] (|dec2| M); "1" is the primal player, "2" the dual one
    cx = 0
    cS = cx + n1 * M
    cW = cS + n1 * M
    cv0 = cW + (n1 if eps else 0)
    cv = cv0 + M
    ncol = cv + len(dec2) * M

    def colx(s, i):
        return cx + i1[s] * M + i

    def colS(s, j):                       # S[s, j] for j >= 1 (S[s, 0] = 0 is not a column)
        return cS + i1[s] * M + (j - 1)

    R, C, V = [], [], []
    lo_rows, up_rows = [], []
    row = 0

    def add(rows, cols, vals):
        R.append(np.broadcast_to(rows, np.shape(cols)).ravel())
        C.append(np.asarray(cols).ravel())
        V.append(np.broadcast_to(np.asarray(vals, dtype=float), np.shape(cols)).ravel())

    # ---- E x = e: at each of his nodes and hands, the actions' weights sum to the parent's
    for h in dec1:
        r = row + jj
        for a in structure.decisions[h].actions:
            add(r, colx((h, a), jj), 1.0)
        par = _last_own(h, pa)
        if par is None:
            lo_rows.append(np.ones(M)); up_rows.append(np.ones(M))
        else:
            add(r, colx(par, jj), -1.0)
            lo_rows.append(np.zeros(M)); up_rows.append(np.zeros(M))
        row += M
    # ---- prefix sums: S[s, j + 1] - S[s, j] - x[s, j] = 0
    for s in seq1:
        r = row + jj
        add(r, colS(s, jj + 1), 1.0)
        add(r[1:], colS(s, jj[1:]), -1.0)
        add(r, colx(s, jj), -1.0)
        lo_rows.append(np.zeros(M)); up_rows.append(np.zeros(M))
        row += M
    if eps:                                # W[s] - sum_i g_i x[s, i] = 0
        for s in seq1:
            add(np.full(M + 1, row), np.concatenate([[cW + i1[s]], colx(s, jj)]), np.concatenate([[1.0], -g]))
            lo_rows.append(np.zeros(1)); up_rows.append(np.zeros(1))
            row += 1

    # ---- payoff rows, one per dual-player sequence (empty first) and hand j:
    #      (F^T v)[s', j] - M^2 (A^T x)[s', j] <= 0, constants of the empty sequence on the right
    def payoff(t: TerminalNode):
        """The primal player's payoff at deal (own i, other j): k + cs sgn(i - j) + e1 g_i - e2 g_j."""
        c = [float(sp.sympify(x).subs(P, p)) for x in t.contrib]
        if t.folder is None:
            k, cs = 0.0, c[1]              # P1 nets c[1] * sgn(i - j) (c[0] = c[1]); so does P2 with his hand first
        else:
            k, cs = (c[1] if t.folder == 1 else -c[0]), 0.0
        k = k if pa == 0 else -k
        e1 = eps * _aggressiveness(t.sequence(pa))
        e2 = eps * _aggressiveness(t.sequence(pb))
        return k, cs, e1, e2

    terms = {None: []}
    for s in seq2:
        terms[s] = []
    for t in structure.terminals:
        terms[_last_own(t.history, pb)].append((_last_own(t.history, pa), payoff(t)))
    pay0 = row
    for s2 in [None] + seq2:
        r = row + jj
        rhs = np.zeros(M)
        # F^T v: + v[own info set] (v0 for the empty sequence), - v of the info sets it leads to
        add(r, (cv0 + jj) if s2 is None else (cv + d2[s2[0]] * M + jj), 1.0)
        for h in dec2:
            if _last_own(h, pb) == s2:
                add(r, cv + d2[h] * M + jj, -1.0)
        for s1, (k, cs, e1, e2) in terms[s2]:
            # M^2 (A^T x) = sum_t k T + cs (T - S(j+1) - S(j)) + e1 W - e2 g_j T
            tcoef = k + cs - e2 * g
            if s1 is None:                 # x[empty, i] = 1: T = M, S(j) = j, W = 0
                rhs += tcoef * M - cs * (2 * jj + 1)
                continue
            add(r, np.full(M, colS(s1, M)), -tcoef)
            add(r, colS(s1, jj + 1), cs)
            add(r[1:], colS(s1, jj[1:]), cs)
            if eps:
                add(r, np.full(M, cW + i1[s1]), -e1)
        lo_rows.append(np.full(M, -highs.INF)); up_rows.append(rhs)
        row += M
    A = sps.coo_matrix((np.concatenate(V), (np.concatenate(R), np.concatenate(C))), shape=(row, ncol))
    cost = np.zeros(ncol)
    cost[cv0:cv0 + M] = 1.0
    lower = np.full(ncol, -highs.INF)
    lower[cx:cx + n1 * M] = 0.0
    upper = np.full(ncol, highs.INF)
    lp = highs.make_lp(cost, lower, upper, A, np.concatenate(lo_rows), np.concatenate(up_rows), maximize=True)
    h, secs = highs.run(lp, f"prefix-sum mesh LP of {rules.name} (M = {M})", solver="simplex")
    sol = h.getSolution()
    xv = np.clip(np.asarray(sol.col_value)[cx:cx + n1 * M], 0.0, None).reshape(n1, M)
    duals = np.asarray(sol.row_dual)[pay0:pay0 + (n2 + 1) * M].reshape(n2 + 1, M)
    if np.sum(duals) < 0:                  # HiGHS's sign convention for a maximisation
        duals = -duals
    yv = np.clip(duals[1:], 0.0, None)
    value = float(h.getInfo().objective_function_value) / (M * M)
    value = value if pa == 0 else -value    # P1's
    nit = int(h.getInfo().simplex_iteration_count)

    strategies = ({}, {})
    for pl, plan, index in ((pa, xv, i1), (pb, yv, i2)):
        for hist, node in structure.decisions.items():
            if node.player != pl:
                continue
            w = np.column_stack([plan[index[(hist, a)]] for a in node.actions])
            tot = w.sum(axis=1, keepdims=True)
            n = w.shape[1]
            beh = np.where(tot > 0, w / np.where(tot > 0, tot, 1.0), 1.0 / n)
            strategies[pl][engine_history(hist)] = beh
    return MeshPlans(strategies=strategies, value=value, num_iter=nit, seconds=secs, rows=int(A.shape[0]),
                     cols=int(A.shape[1]), nonzeros=int(A.tocsr().nnz))
