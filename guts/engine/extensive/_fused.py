"""Fused (numba) kernel for the terminal pass: one loop over terminals x deals, no
temporaries.  Same result as the numpy chunked pass in :mod:`._kernels` (which stays
the reference implementation and the fallback when numba is unavailable).
"""
from __future__ import annotations

import numpy as np

from ..._validate import check_numba_env

check_numba_env()  # before numba reads NUMBA_NUM_THREADS (0 makes its import fail with a traceback)

try:  # numba is a runtime dependency, but keep the engine importable without it
    from numba import njit, prange, set_parallel_chunksize  # noqa: F401 - used by _kernels

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False
    prange = range

    def set_parallel_chunksize(n):
        return 0

    def njit(*a, **k):
        def deco(f):
            return f
        return deco

@njit(cache=True, nogil=True, parallel=True)
def null_region(x):
    """A parallel region with (almost) no work: its time is the pool's start-up and barrier
    (:func:`._threads.regions_prompt`)."""
    for i in prange(x.shape[0]):
        x[i] += 1.0
    return x


# Determinism whatever the thread count: every parallel loop below (``prange``) gives each
# output entry to exactly one iteration, which sums in a fixed sequential order; no
# reduction is split between threads, so 1 and k threads give bit-identical results.


@njit(cache=True, nogil=True, inline="always")
def any_nonzero(x, lo, hi):
    """Is some ``x[lo:hi]`` non-zero? (A reach row: a terminal no type of a player reaches
    adds nothing and is skipped.)"""
    for i in range(lo, hi):
        if x[i] != 0.0:
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def deal_sums(lo, hi, v, tid, ctxp, tabp, info, reach, base):
    """``(sum w, sum w table)`` over the deals ``lo:hi`` (in the player's order) of a terminal
    with chance context ``v`` and payoff table ``tid``, ``w = ctxp[v, d] reach[base +
    info[d]]`` (two players: the other's reach at his type ``info[d]``)."""
    acc0 = 0.0
    acc1 = 0.0
    for d in range(lo, hi):
        w = ctxp[v, d] * reach[base + info[d]]
        acc0 += w
        acc1 += w * tabp[tid, d]
    return acc0, acc1


@njit(cache=True, nogil=True)
def terminal_values_blocked(p, others, ctxp, tvid, tscal, tseq, toff, tscale, ttid, tabp, infop,
                            bstart, bend, btype, rflat, rbase, rstride, g):
    """g[seq_p(z), info_p(d)] += scal_z ctx[vid_z, d] prod_{q != p} R_q[seq_q(z), info_q(d)]
    * (offset_p(z) + scale_z * tables[tid_z, p, d]) for all terminals z and deals d, with deals sorted by player p's type
    (``ctxp``, ``tabp``, ``infop`` permuted; ``bstart/bend/btype`` = the type blocks):
    contiguous streaming loads and one write per (terminal, type)."""
    n = tseq.shape[0]
    Z = tvid.shape[0]
    no = others.shape[0]
    nb = bstart.shape[0]
    rb = np.empty(n, dtype=np.int64)
    for z in range(Z):
        k = tscal[z]
        if k == 0.0:
            continue
        skip = False
        for j in range(no):
            q = others[j]
            rb[q] = rbase[q] + tseq[q, z] * rstride[q]
            if not any_nonzero(rflat, rb[q], rb[q] + rstride[q]):
                skip = True
                break
        if skip:
            continue
        v = tvid[z]
        off = toff[p, z]
        sc = tscale[z]
        tid = ttid[z]
        sp = tseq[p, z]
        for b in range(nb):
            acc0 = 0.0
            acc1 = 0.0
            if no == 1:
                q0 = others[0]
                acc0, acc1 = deal_sums(bstart[b], bend[b], v, tid, ctxp, tabp, infop[q0], rflat, rb[q0])
            elif no == 2:
                q0 = others[0]
                q1 = others[1]
                r0 = rb[q0]
                r1 = rb[q1]
                for d in range(bstart[b], bend[b]):
                    w = ctxp[v, d] * rflat[r0 + infop[q0, d]] * rflat[r1 + infop[q1, d]]
                    acc0 += w
                    acc1 += w * tabp[tid, d]
            else:
                for d in range(bstart[b], bend[b]):
                    w = ctxp[v, d]
                    for j in range(no):
                        q = others[j]
                        w *= rflat[rb[q] + infop[q, d]]
                    acc0 += w
                    acc1 += w * tabp[tid, d]
            g[sp, btype[b]] += k * (off * acc0 + sc * acc1)
    return g


@njit(cache=True, nogil=True)
def _live_terminal(z, others, tscal, tseq, rflat, rbase, rstride):
    """False if terminal z has no chance weight or some other player never reaches it."""
    if tscal[z] == 0.0:
        return False
    for j in range(others.shape[0]):
        q = others[j]
        r0 = rbase[q] + tseq[q, z] * rstride[q]
        if not any_nonzero(rflat, r0, r0 + rstride[q]):
            return False
    return True


@njit(cache=True, nogil=True)
def _blocked_column(p, col, lo, hi, live, others, ctxp, tvid, tscal, tseq, toff, tscale, ttid, tabp,
                    infop, rflat, rbase, rstride, g):
    """Column ``col`` of g (player p's type whose deals are ``lo:hi`` in his order)."""
    Z = tvid.shape[0]
    no = others.shape[0]
    for z in range(Z):
        if not live[z]:
            continue
        v = tvid[z]
        tid = ttid[z]
        acc0 = 0.0
        acc1 = 0.0
        if no == 1:
            q0 = others[0]
            acc0, acc1 = deal_sums(lo, hi, v, tid, ctxp, tabp, infop[q0], rflat, rbase[q0] + tseq[q0, z] * rstride[q0])
        elif no == 2:
            q0 = others[0]
            q1 = others[1]
            r0 = rbase[q0] + tseq[q0, z] * rstride[q0]
            r1 = rbase[q1] + tseq[q1, z] * rstride[q1]
            for d in range(lo, hi):
                w = ctxp[v, d] * rflat[r0 + infop[q0, d]] * rflat[r1 + infop[q1, d]]
                acc0 += w
                acc1 += w * tabp[tid, d]
        else:
            for d in range(lo, hi):
                w = ctxp[v, d]
                for j in range(no):
                    q = others[j]
                    w *= rflat[rbase[q] + tseq[q, z] * rstride[q] + infop[q, d]]
                acc0 += w
                acc1 += w * tabp[tid, d]
        g[tseq[p, z], col] += tscal[z] * (toff[p, z] * acc0 + tscale[z] * acc1)


@njit(cache=True, nogil=True, parallel=True)
def terminal_values_blocked_par(p, others, ctxp, tvid, tscal, tseq, toff, tscale, ttid, tabp, infop,
                                bstart, bend, btype, rflat, rbase, rstride, g):
    """:func:`terminal_values_blocked` in parallel over player p's types (type block ``b``
    owns column ``btype[b]`` of ``g``; terminals in the same order in every block)."""
    Z = tvid.shape[0]
    nb = bstart.shape[0]
    live = np.zeros(Z, dtype=np.bool_)
    for z in prange(Z):
        live[z] = _live_terminal(z, others, tscal, tseq, rflat, rbase, rstride)
    for b in prange(nb):
        _blocked_column(p, btype[b], bstart[b], bend[b], live, others, ctxp, tvid, tscal, tseq, toff,
                        tscale, ttid, tabp, infop, rflat, rbase, rstride, g)
    return g


@njit(cache=True, nogil=True)
def _dense3_keys(ulo, uhi, u_start, u_grp, u_sf, z_sl, z_k, z_off, z_sc, A0, A1, has1, Rf, Rl, contrib):
    """Keys ``ulo:uhi`` of :func:`terminal_values_dense3` (one parallel chunk)."""
    G = A0.shape[0]
    Tf = A0.shape[1]
    Tl = A0.shape[2]
    Tp = A0.shape[3]
    M = Tl * Tp
    A0f = A0.reshape((G, Tf, M))
    A1f = A1.reshape((G, Tf, M))
    B0 = np.empty(M)
    B1 = np.empty(M)
    acc0 = np.empty(Tp)
    acc1 = np.empty(Tp)
    for u in range(ulo, uhi):
        g = u_grp[u]
        sf = u_sf[u]
        h1 = has1[u]
        B0[:] = 0.0
        if h1:
            B1[:] = 0.0
        nzf = False
        for tf in range(Tf):
            r = Rf[sf, tf]
            if r == 0.0:
                continue
            nzf = True
            a0 = A0f[g, tf]
            for m in range(M):
                B0[m] += a0[m] * r
            if h1:
                a1 = A1f[g, tf]
                for m in range(M):
                    B1[m] += a1[m] * r
        for i in range(u_start[u], u_start[u + 1]):
            if not nzf:
                for t in range(Tp):
                    contrib[i, t] = 0.0
                continue
            sl = z_sl[i]
            for t in range(Tp):
                acc0[t] = 0.0
                acc1[t] = 0.0
            for tl in range(Tl):
                rl = Rl[sl, tl]
                if rl == 0.0:
                    continue
                b = tl * Tp
                for t in range(Tp):
                    acc0[t] += B0[b + t] * rl
                if h1:
                    for t in range(Tp):
                        acc1[t] += B1[b + t] * rl
            off = z_off[i]
            sc = z_sc[i]
            k = z_k[i]
            for t in range(Tp):
                if h1:
                    contrib[i, t] = k * (off * acc0[t] + sc * acc1[t])
                else:
                    contrib[i, t] = k * (off * acc0[t])


@njit(cache=True, nogil=True, parallel=True)
def terminal_values_dense3(u_start, u_grp, u_sf, z_sl, z_k, z_off, z_sc, A0, A1, has1, Rf, Rl,
                           c_start, contrib):
    """Three players, deals summed out in advance (the *type tensor* form).

    For one player p with the other two f ("first") and l ("last"), a terminal z in group
    g = (chance context, payoff table) contributes to p's type t

        k_z sum_{tf, tl} (off_z A0[g, tf, tl, t] + sc_z A1[g, tf, tl, t]) R_f[s_f(z), tf] R_l[s_l(z), tl]

    where A0 = sum of the deals' chance weights with types (tf, tl, t) and A1 the same
    weighted by the payoff table. Terminals are sorted by key u = (g, s_f): the inner
    contraction with R_f is done once per key (``B``), then once per terminal with R_l.
    Costs (keys x Tf Tl Tp + terminals x Tl Tp) instead of terminals x deals, with
    contiguous loops. Output ``contrib[i, t]`` for the i-th terminal in key order. Parallel
    over the chunks of keys ``c_start[c]:c_start[c+1]``, of equal estimated work
    (:func:`._kernels.balanced_bounds`).
    """
    for c in prange(c_start.shape[0] - 1):
        _dense3_keys(c_start[c], c_start[c + 1], u_start, u_grp, u_sf, z_sl, z_k, z_off, z_sc,
                     A0, A1, has1, Rf, Rl, contrib)
    return contrib


@njit(cache=True, nogil=True, parallel=True)
def scatter_rows(row_ptr, row_of, contrib, blocks, g):
    """Every row of ``g``: ``g[s] = sum of contrib[row_of[j]]`` for j in
    ``row_ptr[s]:row_ptr[s+1]`` in that fixed order, zero for a row without terminals
    (``g`` need not be zeroed). Parallel over the blocks of rows ``blocks[b]:blocks[b+1]``
    of equal work (rows + terminals): the terminals crowd into some rows, and an even split
    of the rows (3P-MMH with a check) left one of 16 threads twice the others' work."""
    for b in prange(blocks.shape[0] - 1):
        for s in range(blocks[b], blocks[b + 1]):
            _scatter_row(s, row_ptr[s], row_ptr[s + 1], row_of, contrib, g)
    return g


@njit(cache=True, nogil=True, inline="always")
def _scatter_row(s, lo, hi, row_of, contrib, g):
    for t in range(g.shape[1]):
        g[s, t] = 0.0
    for j in range(lo, hi):
        i = row_of[j]
        for t in range(g.shape[1]):
            g[s, t] += contrib[i, t]


@njit(cache=True, nogil=True, inline="always")
def cumulative_regret(r, d, mode, pos_factor, neg_factor):
    """The cumulative regret ``r`` after adding the instantaneous regret ``d``: clipped at zero
    (mode 0, CFR+; mode 2, PCFR+) or times ``pos_factor`` if positive, else ``neg_factor``
    (mode 1, DCFR)."""
    r = r + d
    if mode == 1:
        r *= pos_factor if r > 0 else neg_factor
    elif r < 0.0:
        r = 0.0
    return r


@njit(cache=True, nogil=True, inline="always")
def matched_weight(r, d, mode):
    """Regret matching's weight of an action before normalisation: ``max(r, 0)``, or
    ``max(r + d, 0)`` with PCFR+'s prediction (mode 2)."""
    x = r + d if mode == 2 else r
    if x < 0.0:
        x = 0.0
    return x


@njit(cache=True, nogil=True)
def _regret_update_decision(h, mode, w, pos_factor, neg_factor, V, Vdec, dec_first, dec_na, regret, avg,
                            own, B):
    """One player's CFR update at decision h, in place, without temporaries (memory).

    For every type t and action sequence s of h: ``avg[s] += w own[s]`` (the average
    strategy's realisation weights), ``d = V[s] - Vdec[h]`` (instantaneous regret),
    ``regret[s] += d`` then mode 0 (CFR+) / 2 (PCFR+): clip at zero; mode 1 (DCFR): times
    ``pos_factor`` if positive else ``neg_factor``. New behaviour ``B``: regret matching on
    ``max(regret, 0)`` (modes 0, 1) or on ``max(regret + d, 0)`` (mode 2, the prediction),
    uniform where the block sums to zero.
    """
    T = V.shape[1]
    f = dec_first[h]
    na = dec_na[h]
    for t in range(T):
        vd = Vdec[h, t]
        tot = 0.0
        for a in range(na):
            s = f + a
            d = V[s, t] - vd
            avg[s, t] += w * own[s, t]
            regret[s, t] = cumulative_regret(regret[s, t], d, mode, pos_factor, neg_factor)
            # from the regret as stored (float32 accumulators: cfr.ACCUMULATOR_DTYPE)
            x = matched_weight(regret[s, t], d, mode)
            B[s, t] = x
            tot += x
        for a in range(na):
            s = f + a
            if tot > 0.0:
                B[s, t] = B[s, t] / tot
            else:
                B[s, t] = 1.0 / na


@njit(cache=True, nogil=True, parallel=True)
def normalise_into(dec_first, dec_na, X, B):
    """``B`` = rows of ``X`` divided by their decision-block sums, uniform where a block
    sums to zero (row 0 = 1); :func:`.strategies.normalise_blocks` without temporaries."""
    for t in range(X.shape[1]):
        B[0, t] = 1.0
    for h in prange(dec_first.shape[0]):
        _normalise_decision(h, dec_first, dec_na, X, B)
    return B


@njit(cache=True, nogil=True, inline="always")
def _normalise_decision(h, dec_first, dec_na, X, B):
    """One decision block of :func:`normalise_into` (shared by the parallel and serial kernels)."""
    f = dec_first[h]
    na = dec_na[h]
    for t in range(X.shape[1]):
        tot = 0.0
        for a in range(na):
            tot += X[f + a, t]
        for a in range(na):
            B[f + a, t] = X[f + a, t] / tot if tot > 0.0 else 1.0 / na


# ---- serial twins (small games: a parallel region's start-up and barrier cost more than
# the work; on a loaded machine a descheduled worker stalls every region) ----------------
@njit(cache=True, nogil=True)
def normalise_into_serial(dec_first, dec_na, X, B):
    """:func:`normalise_into` on the calling thread."""
    for t in range(X.shape[1]):
        B[0, t] = 1.0
    for h in range(dec_first.shape[0]):
        _normalise_decision(h, dec_first, dec_na, X, B)
    return B


@njit(cache=True, nogil=True)
def terminal_values_dense3_serial(u_start, u_grp, u_sf, z_sl, z_k, z_off, z_sc, A0, A1, has1, Rf, Rl,
                                  c_start, contrib):
    """:func:`terminal_values_dense3` on the calling thread."""
    _dense3_keys(0, u_start.shape[0] - 1, u_start, u_grp, u_sf, z_sl, z_k, z_off, z_sc, A0, A1, has1,
                 Rf, Rl, contrib)
    return contrib


@njit(cache=True, nogil=True)
def scatter_rows_serial(row_ptr, row_of, contrib, blocks, g):
    """:func:`scatter_rows` on the calling thread."""
    for s in range(g.shape[0]):
        _scatter_row(s, row_ptr[s], row_ptr[s + 1], row_of, contrib, g)
    return g


# ---- passes over one player's sequence tree, level by level (both cores) ------
# ``lev_d[L]:lev_d[L+1]`` = the decisions of level L; ``lev_g`` the same for the *groups*
# (decisions of a level sharing a parent sequence, contiguous: ``grp_start[g]:grp_start[g+1]``
# with parent ``grp_par[g]``; the groups of a level partition its decisions).  In parallel,
# one region per level: top-down each *decision* owns its sequences' rows, bottom-up each
# *group* owns its decisions' rows and its parent sequence's row (a sequence's child
# decisions are all in one level and one group).  Whole rows per iteration: no two threads
# write one cache line of a row (a split of the 15 types of a row between threads did, and
# cost 2.5-4x the CPU time of one thread), and a row's arithmetic does not depend on the
# split (determinism).
@njit(cache=True, nogil=True, inline="always")
def _reach_decision(h, dec_first, dec_na, dec_parent, B, R):
    f = dec_first[h]
    par = dec_parent[h]
    for a in range(dec_na[h]):
        for t in range(B.shape[1]):
            R[f + a, t] = R[par, t] * B[f + a, t]


@njit(cache=True, nogil=True, parallel=True)
def reach_levels(lev_d, dec_first, dec_na, dec_parent, B, R):
    """Realisation weights ``R`` of behaviour ``B`` (top-down; :func:`._kernels.reach`),
    parallel over the decisions of each level."""
    for t in range(B.shape[1]):
        R[0, t] = 1.0
    for L in range(lev_d.shape[0] - 1):
        lo = lev_d[L]
        for i in prange(lev_d[L + 1] - lo):
            _reach_decision(lo + i, dec_first, dec_na, dec_parent, B, R)
    return R


@njit(cache=True, nogil=True)
def reach_levels_serial(lev_d, dec_first, dec_na, dec_parent, B, R):
    """:func:`reach_levels` on the calling thread."""
    for t in range(B.shape[1]):
        R[0, t] = 1.0
    for h in range(lev_d[lev_d.shape[0] - 1]):
        _reach_decision(h, dec_first, dec_na, dec_parent, B, R)
    return R


@njit(cache=True, nogil=True, inline="always")
def _decision_value(h, use_max, dec_first, dec_na, B, V, Vdec):
    """``Vdec[h]`` = sum over h's actions of ``B V`` (their max with ``use_max``)."""
    f = dec_first[h]
    na = dec_na[h]
    for t in range(V.shape[1]):
        if use_max:
            acc = V[f, t]
            for a in range(1, na):
                x = V[f + a, t]
                if x > acc:
                    acc = x
        else:
            acc = 0.0
            for a in range(na):
                acc += B[f + a, t] * V[f + a, t]
        Vdec[h, t] = acc


@njit(cache=True, nogil=True, inline="always")
def _add_group(gi, grp_par, grp_start, V, Vdec):
    """``V[parent] +=`` the sum of group ``gi``'s ``Vdec`` rows, in decision order."""
    par = grp_par[gi]
    lo = grp_start[gi]
    hi = grp_start[gi + 1]
    for t in range(V.shape[1]):
        acc = Vdec[lo, t]
        for h in range(lo + 1, hi):
            acc += Vdec[h, t]
        V[par, t] += acc


@njit(cache=True, nogil=True, inline="always")
def _orbit_mean(h, dec_first, dec_na, sym, V):
    """A quotient by a symmetry group: each action sequence of decision h gets, per type, the
    mean of its values over the type's orbit (``sym`` = (seq_sym, sym_order, sym_start,
    sym_ncls) of :class:`._compiled.PlayerTree`; empty ``seq_sym``: no quotient). Its rows
    are complete here (their subtrees are backed up), and the group owns them."""
    seq_sym, sym_order, sym_start, sym_ncls = sym
    if seq_sym.shape[0] == 0:
        return
    f = dec_first[h]
    for a in range(dec_na[h]):
        k = seq_sym[f + a]
        if k < 0:
            continue
        for c in range(sym_ncls[k]):
            lo = sym_start[k, c]
            hi = sym_start[k, c + 1]
            if hi - lo < 2:
                continue
            acc = 0.0
            for j in range(lo, hi):
                acc += V[f + a, sym_order[k, j]]
            acc /= hi - lo
            for j in range(lo, hi):
                V[f + a, sym_order[k, j]] = acc


@njit(cache=True, nogil=True, inline="always")
def _backup_group(gi, use_max, grp_par, grp_start, dec_first, dec_na, B, V, Vdec, sym):
    for h in range(grp_start[gi], grp_start[gi + 1]):
        _orbit_mean(h, dec_first, dec_na, sym, V)
        _decision_value(h, use_max, dec_first, dec_na, B, V, Vdec)
    _add_group(gi, grp_par, grp_start, V, Vdec)


@njit(cache=True, nogil=True, parallel=True)
def backup_levels(use_max, lev_g, grp_par, grp_start, dec_first, dec_na, B, V, Vdec, sym):
    """Bottom-up values in place: ``Vdec[h]`` = sum over h's actions of ``B V`` (or their max
    with ``use_max``: the best response), then each parent sequence ``V[par] +=`` the sum of
    its decisions' ``Vdec`` (:func:`._kernels.backup_mean` / :func:`._kernels.backup_max`),
    parallel over the groups of each level."""
    for L in range(lev_g.shape[0] - 2, -1, -1):
        lo = lev_g[L]
        for i in prange(lev_g[L + 1] - lo):
            _backup_group(lo + i, use_max, grp_par, grp_start, dec_first, dec_na, B, V, Vdec, sym)
    return V


@njit(cache=True, nogil=True)
def backup_levels_serial(use_max, lev_g, grp_par, grp_start, dec_first, dec_na, B, V, Vdec, sym):
    """:func:`backup_levels` on the calling thread."""
    for L in range(lev_g.shape[0] - 2, -1, -1):
        for gi in range(lev_g[L], lev_g[L + 1]):
            _backup_group(gi, use_max, grp_par, grp_start, dec_first, dec_na, B, V, Vdec, sym)
    return V


# ---- CFR: the backup and the regret update in one bottom-up pass --------------------------
# A decision's counterfactual values are final once its level is backed up, and its update
# changes only its own rows of B (its parent decisions, higher up, still read the old B):
# the same iterate as a backup pass followed by an update pass, with one pass over V and B.
@njit(cache=True, nogil=True, inline="always")
def _backup_update_group(gi, mode, w, pos_factor, neg_factor, grp_par, grp_start, dec_first, dec_na,
                         V, Vdec, regret, avg, own, B, sym):
    for h in range(grp_start[gi], grp_start[gi + 1]):
        _orbit_mean(h, dec_first, dec_na, sym, V)
        _decision_value(h, False, dec_first, dec_na, B, V, Vdec)
        _regret_update_decision(h, mode, w, pos_factor, neg_factor, V, Vdec, dec_first, dec_na,
                                regret, avg, own, B)
    _add_group(gi, grp_par, grp_start, V, Vdec)


@njit(cache=True, nogil=True, parallel=True)
def backup_update(mode, w, pos_factor, neg_factor, lev_g, grp_par, grp_start, dec_first, dec_na, V,
                  Vdec, regret, avg, own, B, sym):
    """:func:`backup_levels` (expected values under ``B``) fused with :func:`_regret_update_decision`
    (``B`` becomes the next behaviour), parallel over the groups of each level."""
    for L in range(lev_g.shape[0] - 2, -1, -1):
        lo = lev_g[L]
        for i in prange(lev_g[L + 1] - lo):
            _backup_update_group(lo + i, mode, w, pos_factor, neg_factor, grp_par, grp_start, dec_first,
                                 dec_na, V, Vdec, regret, avg, own, B, sym)
    return B


@njit(cache=True, nogil=True)
def backup_update_serial(mode, w, pos_factor, neg_factor, lev_g, grp_par, grp_start, dec_first, dec_na,
                         V, Vdec, regret, avg, own, B, sym):
    """:func:`backup_update` on the calling thread."""
    for L in range(lev_g.shape[0] - 2, -1, -1):
        for gi in range(lev_g[L], lev_g[L + 1]):
            _backup_update_group(gi, mode, w, pos_factor, neg_factor, grp_par, grp_start, dec_first,
                                 dec_na, V, Vdec, regret, avg, own, B, sym)
    return B


# ---- sum of R * g (a player's expected value), in fixed blocks of rows --------------------
#: Rows per block of :func:`dot_rows` (the blocks, not the threads, fix the summation order).
DOT_BLOCK = 4096


@njit(cache=True, nogil=True, inline="always")
def _dot_block(c, X, Y, part):
    lo = c * DOT_BLOCK
    hi = min(X.shape[0], lo + DOT_BLOCK)
    acc = 0.0
    for s in range(lo, hi):
        for t in range(X.shape[1]):
            acc += X[s, t] * Y[s, t]
    part[c] = acc


@njit(cache=True, nogil=True, parallel=True)
def dot_rows(X, Y):
    """``sum(X * Y)`` for two (S, T) arrays: partial sums over fixed blocks of rows in
    parallel, then added in block order on the calling thread (same bits with any thread count)."""
    nb = (X.shape[0] + DOT_BLOCK - 1) // DOT_BLOCK
    part = np.empty(nb)
    for c in prange(nb):
        _dot_block(c, X, Y, part)
    acc = 0.0
    for c in range(nb):
        acc += part[c]
    return acc


@njit(cache=True, nogil=True)
def dot_rows_serial(X, Y):
    """:func:`dot_rows` on the calling thread."""
    nb = (X.shape[0] + DOT_BLOCK - 1) // DOT_BLOCK
    part = np.empty(nb)
    for c in range(nb):
        _dot_block(c, X, Y, part)
    acc = 0.0
    for c in range(nb):
        acc += part[c]
    return acc
