"""An upper bound on a two-member team's correlated (TMECor) value by one LP.

A distribution over the members' joint pure plans induces, for every pair of member
sequences ``(a, b)`` (a sequence = the member's own information set and action, with his
type; ``∅`` the empty sequence, common to every type), the probability
``R(a, b) = E[x_1(a) x_2(b)]`` that both are played.  These numbers satisfy linear
identities: ``R(∅, ∅) = 1``, ``R >= 0``, and for every member-1 information set ``J`` with
parent sequence ``p`` and every member-2 sequence ``b``,
``sum over actions c of J of R(J c, b) = R(p, b)`` (and the same with the members
exchanged).  Maximising the team's payoff over every ``R`` that satisfies them, against the
adversary's sequence form, is an LP whose value bounds the correlated value from above: the
joint sequence form of von Stengel and Forges, *Extensive-form correlated equilibrium:
definition and computational complexity* (2008), here for a team against an adversary (the
"realisation form" relaxation discussed by Farina, Celli, Gatti and Sandholm, *Ex ante
coordination and collusion in zero-sum multi-player extensive-form games*, 2018).  Only the
pairs that meet at a terminal, closed under prefixes and sibling actions, enter the LP
(dropping the other identities weakens the bound but keeps it valid).

Compared with the communication regime (the merged team, an upper bound too), the
relaxation keeps what communication loses: each member's own plan cannot depend on the
partner's type (``R(a, ∅)`` is member 1's plan for every type of member 2).  It is exact on
three-player Kuhn poker with 4 ranks and on two of the three seatings of three-player SMH,
and within 0.006 of the correlated value on Kuhn with 5 and 6 ranks.

The bound is certified from the LP's dual, not taken from the solver: for the adversary's
plan ``Y`` read from the duals (made an exact realisation plan) and the multipliers ``pi``
of the identities, every true ``R`` (which also has ``R <= 1``) earns
``R . (A Y) = pi_∅∅ + R . (A Y - C^T pi) <= pi_∅∅ + sum max(0, A Y - C^T pi)``, so that sum is
an upper bound whatever the LP's tolerances.
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from ...errors import SolverError
from ..tolerances import TEAM_RELAXATION_DUAL_SLACK
from ..highs import hipo_available, make_lp, run
from ._compiled import CHANCE
from .strategies import _realisation, normalise_blocks

__all__ = ["pair_relaxation", "pair_size", "relaxation_data"]


def _member_nodes(pt):
    """One member's sequences with ``∅`` shared by the types.

    Returns ``(node, count, parent, infoset, infoset_parent)``: ``node[s * T + t]`` the
    sequence's number (0 for ``∅``, ``1 + (s - 1) * T + t`` otherwise), ``parent[k]`` and
    ``infoset[k]`` (``decision * T + type``; -1 for ``∅``) of each, and the parent sequence
    of each information set."""
    T, S = pt.num_types, pt.num_seqs
    tt = np.arange(T)
    node = np.zeros(S * T, dtype=np.int64)
    s = np.arange(1, S)
    node[(s[:, None] * T + tt).ravel()] = (1 + (s[:, None] - 1) * T + tt).ravel()
    count = 1 + (S - 1) * T
    parent = np.zeros(count, dtype=np.int64)
    infoset = np.full(count, -1, dtype=np.int64)
    if S > 1:
        parent[1:] = node[(pt.seq_parent[1:, None] * T + tt).ravel()]
        infoset[1:] = (pt.seq_dec[1:, None] * T + tt).ravel()
    if pt.num_decisions:
        iparent = node[(pt.dec_parent[:, None] * T + tt).ravel()]
    else:
        iparent = np.zeros(0, dtype=np.int64)
    return node, count, parent, infoset, iparent


def _sibling_closure(P, nB, infoset, first):
    """Add to the pair keys ``P`` (``a * nB + b``) every sibling action of the member-1
    (``first``) or member-2 sequence of each pair."""
    a, b = (P // nB, P % nB) if first else (P % nB, P // nB)
    order = np.argsort(infoset[1:], kind="stable") + 1          # sequences grouped by information set
    grouped = infoset[order]
    m = a > 0
    inf = infoset[a[m]]
    lo = np.searchsorted(grouped, inf)
    cnt = np.searchsorted(grouped, inf, side="right") - lo
    other = np.repeat(b[m], cnt)
    # the positions lo[k] .. lo[k] + cnt[k] - 1 of every pair, flattened
    pos = np.repeat(lo - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(int(cnt.sum()))
    kids = order[pos]
    add = kids * nB + other if first else other * nB + kids
    return np.union1d(P, add)


def _closure(keys, members):
    """The pair keys ``keys`` (``a * nB + b``) closed under prefixes of both sequences and
    sibling actions, sorted."""
    (_, _, parA, infA, _), (_, nB, parB, infB, _) = members
    P = np.unique(keys)
    new = P
    while new.size:                                   # prefixes of both sequences
        a, b = new // nB, new % nB
        cand = np.unique(np.concatenate([parA[a] * nB + b, a * nB + parB[b]]))
        new = np.setdiff1d(cand, P, assume_unique=True)
        P = np.union1d(P, new)
    P = _sibling_closure(P, nB, infA, True)
    return _sibling_closure(P, nB, infB, False)


def _entry_keys(tm, members):
    """The pair key of every entry: the members' sequences (with their types) there."""
    (nodeA, _, _, _, _), (nodeB, nB, _, _, _) = members
    return nodeA[tm.ent.idx[tm.team[0]]] * nB + nodeB[tm.ent.idx[tm.team[1]]]


def _pairs(tm, members):
    """The sorted pair keys and the entries' pair index."""
    nA, nB = members[0][1], members[1][1]
    entry_key = _entry_keys(tm, members)
    P = _closure(entry_key, members)
    return P, np.searchsorted(P, entry_key), nA, nB


def _identities(P, nA, nB, members):
    """Sparse ``C`` and right-hand side of the identities over the pairs ``P``."""
    (_, _, _, infA, ipA), (_, _, _, infB, ipB) = members
    a, b = P // nB, P % nB
    rows, cols, vals = [], [], []
    nrow = 0
    for first in (True, False):
        x, y, inf, ipar, ny = (a, b, infA, ipA, nB) if first else (b, a, infB, ipB, nA)
        m = np.flatnonzero(x > 0)
        key = inf[x[m]] * ny + y[m]
        uk, inv = np.unique(key, return_inverse=True)
        rows += [nrow + np.asarray(inv).reshape(-1)]
        cols += [m]
        vals += [np.ones(m.size)]
        J, o = uk // ny, uk % ny
        parent_key = ipar[J] * nB + o if first else o * nB + ipar[J]
        j = np.searchsorted(P, parent_key)
        if not np.array_equal(P[np.minimum(j, P.size - 1)], parent_key):
            raise RuntimeError("the pair set is not closed under prefixes")
        rows += [nrow + np.arange(uk.size)]
        cols += [j]
        vals += [-np.ones(uk.size)]
        nrow += uk.size
    rows += [np.array([nrow])]
    cols += [np.array([int(np.searchsorted(P, 0))])]
    vals += [np.ones(1)]
    nrow += 1
    C = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(nrow, P.size))
    rhs = np.zeros(nrow)
    rhs[-1] = 1.0
    return C, rhs


def _public_last(tm, after):
    """Per public node: whether ``after`` public chance events lie above it (the team shares
    its types there), the member who acted last on the path (-1: neither) and each member's
    last (type-free) sequence."""
    cg = tm.cg
    N = cg.num_nodes
    owner = np.full(N, -1, dtype=np.int64)
    first = np.zeros(N, dtype=np.int64)
    for i, pt in enumerate(tm.pts):
        owner[pt.dec_node] = i
        first[pt.dec_node] = pt.dec_first
    chances = np.zeros(N, dtype=np.int64)
    who = np.full(N, -1, dtype=np.int64)
    last = np.zeros((2, N), dtype=np.int64)
    action = np.zeros(N, dtype=np.int64)             # a child's action index at its parent
    seen = np.zeros(N, dtype=np.int64)
    for n in range(1, N):                            # nodes are numbered parents first, children in action order
        par = int(cg.parent[n])
        action[n] = seen[par]
        seen[par] += 1
        chances[n] = chances[par] + (cg.kind[par] == CHANCE)
        who[n], last[:, n] = who[par], last[:, par]
        i = owner[par]
        if i >= 0:
            who[n] = i
            last[i, n] = first[par] + action[n]
    shared = chances >= after
    return shared, who, last


def _shared_data(tm, members, after):
    """The relaxation with the members sharing their types below ``after`` public chance
    events: pairs above, the merged team's sequence form (one type = the joint type) below."""
    cg = tm.cg
    (nodeA, nA, _, _, _), (nodeB, nB, _, _, _) = members
    T = [pt.num_types for pt in tm.pts]
    shared, who, last = _public_last(tm, after)
    for i, m in enumerate(tm.team):                   # the walk agrees with the compiled terminals
        if not np.array_equal(last[i, cg.term_node], cg.term_seq[m]):
            raise RuntimeError("the public tree's children are not in action order")
    # merged sequences: every member sequence whose decision lies below the cut
    mseq = []
    for i, pt in enumerate(tm.pts):
        s = np.arange(1, pt.num_seqs)
        mseq.append(s[shared[pt.dec_node[pt.seq_dec[s]]]])
    moff = [0, mseq[0].size]
    mindex = [np.full(pt.num_seqs, -1, dtype=np.int64) for pt in tm.pts]
    for i in range(2):
        mindex[i][mseq[i]] = moff[i] + np.arange(mseq[i].size)
    nm = mseq[0].size + mseq[1].size
    d_types = cg.info[list(tm.team)]                  # (2, D) each deal's member types
    joint, jt_of = np.unique(d_types[0] * T[1] + d_types[1], return_inverse=True)
    J = joint.size
    t1, t2 = joint // T[1], joint % T[1]

    def merged(node):                                  # merged index of the last team sequence (-1: above the cut)
        w, out = who[node], np.full(node.size, -1, dtype=np.int64)
        for i in range(2):
            k = w == i
            out[k] = mindex[i][last[i, node[k]]]
        return out

    def pair_key(node, ta, tb):
        return nodeA[last[0, node] * T[0] + ta] * nB + nodeB[last[1, node] * T[1] + tb]

    # entries: merged column below the cut, pair above
    z = tm.ent.z
    enode = cg.term_node[z]
    em = merged(enode)
    ejt = np.asarray(jt_of).reshape(-1)[tm.ent.d]
    below = em >= 0
    ekey = pair_key(enode, d_types[0][tm.ent.d], d_types[1][tm.ent.d])
    # the first merged decisions below the cut hang from a pair (one per joint type)
    rows_h = []                                        # (member, decisions below the cut, merged parent, link keys)
    for i, pt in enumerate(tm.pts):
        h = np.flatnonzero(shared[pt.dec_node])
        pm = merged(pt.dec_node[h])
        top = h[pm < 0]
        rows_h.append((i, h, pm, pair_key(np.repeat(pt.dec_node[top], J), np.tile(t1, top.size),
                                          np.tile(t2, top.size))))
    P = _closure(np.concatenate([ekey[~below], *(link for *_, link in rows_h), [0]]), members)
    nP = P.size
    Cp, rhs_p = _identities(P, nA, nB, members)
    # merged identities: sum over the actions of (decision, joint type) = the parent's column
    rows, cols, vals = [], [], []
    nrow = 0
    for (i, h, pm, link), pt in zip(rows_h, tm.pts):
        if not h.size:
            continue
        nh = h.size
        r = nrow + np.arange(nh * J).reshape(nh, J)
        for a in range(int(pt.dec_num_actions[h].max())):
            k = a < pt.dec_num_actions[h]
            ms = mindex[i][pt.dec_first[h[k]] + a]
            rows.append(r[k].ravel())
            cols.append((nP + ms[:, None] * J + np.arange(J)[None, :]).ravel())
            vals.append(np.ones(int(k.sum()) * J))
        up = pm >= 0
        rows.append(r[up].ravel())
        cols.append((nP + pm[up][:, None] * J + np.arange(J)[None, :]).ravel())
        vals.append(-np.ones(int(up.sum()) * J))
        lk = np.searchsorted(P, link)
        rows.append(r[~up].ravel())
        cols.append(lk)
        vals.append(-np.ones(lk.size))
        nrow += nh * J
    ncol = nP + nm * J
    Cm = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(nrow, ncol)) \
        if rows else sp.csr_matrix((0, ncol))
    C = sp.vstack([sp.hstack([Cp, sp.csr_matrix((Cp.shape[0], nm * J))]), Cm], format="csr")
    rhs = np.concatenate([rhs_p, np.zeros(nrow)])
    col = np.where(below, nP + np.maximum(em, 0) * J + ejt, np.searchsorted(P, ekey))
    A = sp.csr_matrix((tm.wt, (col, tm.ent.idx[tm.adv])), shape=(ncol, tm.Na))
    return dict(pairs=P, C=C, rhs=rhs, A=A, merged=nm * J)


def relaxation_data(tm, communicate_after: int | None = None) -> dict:
    """The relaxation's pairs and matrices: ``pairs`` (sorted keys), ``C``, ``rhs`` (the
    identities ``C R = rhs``) and ``A`` (columns x adversary (sequence, type): the team's
    payoff weight).  With ``communicate_after=k`` the members share their types below the
    ``k``-th public chance event: the columns after the pairs are the merged team's
    sequences there (``merged`` of them, one per sequence and joint type)."""
    if len(tm.team) != 2:
        raise ValueError(f"the pair relaxation needs a two-member team; got {tm.team!r}")
    members = [_member_nodes(pt) for pt in tm.pts]
    if communicate_after is not None:
        return _shared_data(tm, members, int(communicate_after))
    P, entry_pair, nA, nB = _pairs(tm, members)
    C, rhs = _identities(P, nA, nB, members)
    A = sp.csr_matrix((tm.wt, (entry_pair, tm.ent.idx[tm.adv])), shape=(P.size, tm.Na))
    return dict(pairs=P, C=C, rhs=rhs, A=A, merged=0)


def _certified_bound(data, Y, pi) -> float:
    """``pi . rhs + sum max(0, A Y - C^T pi)``: an upper bound on every joint plan's payoff
    against the adversary plan ``Y`` (weak duality, with ``0 <= R <= 1``), for any ``pi``."""
    slack = data["A"] @ np.asarray(Y).ravel() - data["C"].T @ pi
    return float(pi @ data["rhs"] + np.clip(slack, 0.0, None).sum())


def pair_size(tm) -> int:
    """The number of sequence pairs (the LP's columns) of the relaxation of ``tm``."""
    members = [_member_nodes(pt) for pt in tm.pts]
    return int(_pairs(tm, members)[0].size)


def pair_relaxation(tm, *, solver: str | None = None, time_limit: float | None = None,
                    communicate_after: int | None = None) -> dict:
    """The sequence-pair relaxation's certified upper bound on the team's correlated value.

    Parameters
    ----------
    tm : guts.engine.extensive.team._Team
        A two-member team against one adversary.
    solver : {"ipm", "hipo", "simplex"}, optional
        HiGHS's algorithm (no crossover: the bound is certified from the duals); default
        HiPO where installed (``pip install 'guts[hipo]'``: on three-player Leduc with 3
        ranks, 507 000 pairs, 15 min where IPX had not finished in 15), else IPX.
    time_limit : float, optional
        Seconds for HiGHS.  Any dual solution certifies a bound (see the module
        docstring), so HiGHS stopping early, or at a status other than optimal, only
        loosens it; :class:`~guts.errors.SolverError` when there is no dual solution.
    communicate_after : int, optional
        Relax further: below the ``k``-th public chance event (``1``: after the flop, or
        Leduc's board card) the members see each other's types, so their plans there are
        one merged plan over joint types (the communication regime's sequence form), tied
        to the pairs at the cut.  Any correlated distribution is still feasible, so the
        bound stays valid, between the full relaxation's and the communication value; its
        LP has pairs only above the cut (three-player MMH: a few thousand pairs instead of
        a million).  ``0`` gives the communication value itself.

    Returns
    -------
    dict
        ``upper`` (the certified bound), ``lp_value`` (HiGHS's objective), ``Y`` (the
        adversary's realisation plan, ``(sequences, types)``, read from the duals),
        ``pairs`` (the LP's pair columns), ``merged`` (its merged columns), ``seconds``.
    """
    t0 = time.perf_counter()
    if solver is None:
        solver = "hipo" if hipo_available() else "ipm"
    data = relaxation_data(tm, communicate_after)
    out = _solve(tm, data, solver, time_limit)
    if solver == "hipo" and out["upper"] - out["lp_value"] > TEAM_RELAXATION_DUAL_SLACK * (1.0 + abs(out["lp_value"])):
        # HiPO's duals certify loosely here: IPX's may certify closer (both bounds are valid)
        left = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), 1.0)
        try:
            again = _solve(tm, data, "ipm", left)
        except SolverError:
            again = out
        if again["upper"] < out["upper"]:
            out = again
    out.update(pairs=int(data["pairs"].size), merged=int(data["merged"]), seconds=time.perf_counter() - t0)
    return out


def _solve(tm, data, solver, time_limit) -> dict:
    """The relaxation LP by HiGHS's ``solver``: the certified bound, HiGHS's objective and the
    adversary's plan read from the duals."""
    P, C, rhs, A = data["pairs"], data["C"], data["rhs"], data["A"]
    ncol = A.shape[0]
    F = sp.csr_matrix(tm.F)
    m2, nrow = F.shape[0], C.shape[0]
    # columns [R, v]: max f.v  s.t.  F^T v - A^T R <= 0 (one row per adversary sequence), C R = rhs
    M = sp.vstack([sp.hstack([-A.T, F.T]), sp.hstack([C, sp.csr_matrix((nrow, m2))])], format="csc")
    cost = np.concatenate([np.zeros(ncol), -np.asarray(tm.f, dtype=float)])
    lower = np.concatenate([np.zeros(ncol), np.full(m2, -np.inf)])
    upper = np.full(ncol + m2, np.inf)
    row_lower = np.concatenate([np.full(tm.Na, -np.inf), rhs])
    row_upper = np.concatenate([np.zeros(tm.Na), rhs])
    h, _ = run(make_lp(cost, lower, upper, M, row_lower, row_upper), "team pair-relaxation LP", solver=solver,
               time_limit=time_limit, crossover=False, require_optimal=False)
    sol = h.getSolution()
    if not sol.dual_valid:
        raise SolverError(f"HiGHS returned no dual solution of the team pair-relaxation LP ({P.size:,} pairs; "
                          f"status {h.modelStatusToString(h.getModelStatus())}), so there is no bound; accepted: "
                          f"a longer time limit, or the communication value as the bound")
    dual = np.asarray(sol.row_dual)
    pa = tm.pa
    y = np.clip(-dual[:tm.Na], 0.0, None).reshape(pa.num_seqs, pa.num_types)
    Y = _realisation(pa, normalise_blocks(pa, y))
    return dict(upper=_certified_bound(data, Y, -dual[tm.Na:]),
                lp_value=-float(h.getInfo().objective_function_value), Y=Y)
