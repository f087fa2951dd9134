"""CFR iterations compiled whole, in parallel over each player's types (both cores
on small games).

On a Leduc-size game an iteration is tens of microseconds of arithmetic, spread over a
dozen kernel calls (:mod:`._kernels`); the Python between them cost as much as the
arithmetic, and a parallel region per level (the big games' split, :mod:`._fused`) costs
more than its work. Here one call runs many iterations, in one parallel region: with the
other players' reaches fixed, everything about one of a player's types (its column of ``g``,
of the values, regrets, average and behaviour, and of his reach) depends on no other of his
types, so each thread updates a block of every player's types, and the threads meet at a
spinning barrier (:mod:`._atomics`) after each player's update. The arrays are stored transposed,
``(T_p, S_p + 1)``, so that a type's entries are contiguous and no two threads write one
cache line (but at the ends of their blocks).

Every entry is computed in the order of the level-by-level kernels (:func:`._fused.
terminal_values_blocked`, :func:`._fused.backup_update_serial`, :func:`._fused.
reach_levels_serial`): the iterates are bit-identical to theirs, whatever the number of
threads.
"""
from __future__ import annotations

import numpy as np

from . import _atomics, _fused
from ._fused import njit, prange


@njit(cache=True, nogil=True, inline="always")
def _terminal_rows_two(tb, te, tlo, thi, ctxp, tabp, info, tvid, tscal, sp_z, s0_z, off_z, tscale, ttid, R0, g):
    """:func:`_terminal_rows` when there is one other player (his reaches ``R0``, (S, T))."""
    T0 = R0.shape[1]
    for z in range(tvid.shape[0]):
        k = tscal[z]
        if k == 0.0:
            continue
        r = R0[s0_z[z]]
        if not _fused.any_nonzero(r, 0, T0):
            continue
        v = tvid[z]
        tid = ttid[z]
        sp = sp_z[z]
        off = off_z[z]
        sc = tscale[z]
        for t in range(tb, te):
            lo = tlo[t]
            hi = thi[t]
            if hi > lo:
                acc0, acc1 = _fused.deal_sums(lo, hi, v, tid, ctxp, tabp, info, r, 0)
                g[t, sp] += k * (off * acc0 + sc * acc1)


@njit(cache=True, nogil=True, inline="always")
def _terminal_rows(p, b, tb, te, tlo, thi, others, ctxp, tabp, infop, tvid, tscal, tseq, toff, tscale, ttid,
                   RL, g):
    """Rows ``tb:te`` of the transposed g of player p (his types ``tb:te``, whose deals are
    ``tlo[t]:thi[t]`` in his order): :func:`._fused.terminal_values_blocked` for these types,
    terminal by terminal in the same order."""
    for t in range(tb, te):
        for s in range(g.shape[1]):
            g[t, s] = 0.0
    Z = tvid.shape[0]
    no = others.shape[0]
    q0 = others[0]
    R0 = RL[q0][b]
    if no == 1:
        # two players: a loop without the others' tuple and its per-terminal lookups (Leduc
        # ~8 % faster on one thread and on two; the part every thread repeats, ~3.5 -> 2 us
        # per update, is what limits two threads' speedup on a small game)
        _terminal_rows_two(tb, te, tlo, thi, ctxp, tabp, infop[q0], tvid, tscal, tseq[p], tseq[q0], toff[p],
                           tscale, ttid, R0, g)
        return
    for z in range(Z):
        k = tscal[z]
        if k == 0.0:
            continue
        s0 = tseq[q0, z]
        # a terminal another player never reaches (none of his types) adds nothing: skipped,
        # as the level-by-level kernel does (CFR+ zeroes many reaches)
        if not _fused.any_nonzero(R0[s0], 0, R0.shape[1]):
            continue
        dead = False
        for j in range(1, no):
            q = others[j]
            if not _fused.any_nonzero(RL[q][b, tseq[q, z]], 0, RL[q].shape[2]):
                dead = True
                break
        if dead:
            continue
        v = tvid[z]
        tid = ttid[z]
        sp = tseq[p, z]
        off = toff[p, z]
        sc = tscale[z]
        for t in range(tb, te):
            lo = tlo[t]
            hi = thi[t]
            if hi <= lo:
                continue
            acc0 = 0.0
            acc1 = 0.0
            for d in range(lo, hi):
                w = ctxp[v, d]
                for j in range(no):
                    q = others[j]
                    w *= RL[q][b, tseq[q, z], infop[q, d]]
                acc0 += w
                acc1 += w * tabp[tid, d]
            g[t, sp] += k * (off * acc0 + sc * acc1)


@njit(cache=True, nogil=True, inline="always")
def _update_row(t, mode, w, fp, fn, lev_g, grp_par, grp_start, dec_first, dec_na, V, Vdec, regret,
                avg, own, B):
    """Row t of :func:`._fused.backup_update_serial` (transposed arrays): values of ``B``
    bottom-up from ``V`` = g (overwritten), then per decision ``avg += w own``, the regrets
    and the next behaviour."""
    for L in range(lev_g.shape[0] - 2, -1, -1):
        for gi in range(lev_g[L], lev_g[L + 1]):
            lo = grp_start[gi]
            hi = grp_start[gi + 1]
            for h in range(lo, hi):
                f = dec_first[h]
                na = dec_na[h]
                vd = 0.0
                for a in range(na):
                    vd += B[t, f + a] * V[t, f + a]
                Vdec[t, h] = vd
                tot = 0.0
                for a in range(na):
                    s = f + a
                    d = V[t, s] - vd
                    avg[t, s] += w * own[t, s]
                    regret[t, s] = _fused.cumulative_regret(regret[t, s], d, mode, fp, fn)
                    x = _fused.matched_weight(regret[t, s], d, mode)     # the regret as stored
                    B[t, s] = x
                    tot += x
                for a in range(na):
                    s = f + a
                    if tot > 0.0:
                        B[t, s] = B[t, s] / tot
                    else:
                        B[t, s] = 1.0 / na
            acc = Vdec[t, lo]
            for h in range(lo + 1, hi):
                acc += Vdec[t, h]
            V[t, grp_par[gi]] += acc


@njit(cache=True, nogil=True, inline="always")
def _reach_row(t, dec_first, dec_na, dec_parent, B, R):
    """Row t of :func:`._fused.reach_levels_serial` (transposed)."""
    R[t, 0] = 1.0
    for h in range(dec_first.shape[0]):
        f = dec_first[h]
        par = dec_parent[h]
        for a in range(dec_na[h]):
            R[t, f + a] = R[t, par] * B[t, f + a]


@njit(cache=True, nogil=True)
def _update_block(p, b, tb, te, mode, w, fp, fn, game, state):
    """Player p's CFR update for his types ``tb:te``, block b.

    ``game``, ``state``: the tuples of :func:`pack` (per-player entries indexed by p).
    ``RL``: block b's scratch copies of the reaches, ``(S_q + 1, T_q)``: the other players'
    are copied in first, row by row (what another thread wrote streams into this core's
    cache at once, instead of one miss per deal), and read row-wise (a sequence's types are
    contiguous)."""
    (_, others, ctxp, tabp, infop, tlo, thi, tvid, tscal, tseq, toff, tscale, ttid, lev_g, grp_par, grp_start,
     dec_first, dec_na, dec_parent) = game
    R, G, VD, REG, AVG, B, RL = state
    oth = others[p]
    for j in range(oth.shape[0]):
        q = oth[j]
        Rq = R[q]
        L = RL[q][b]
        for u in range(Rq.shape[0]):
            for s in range(Rq.shape[1]):
                L[s, u] = Rq[u, s]
    _terminal_rows(p, b, tb, te, tlo[p], thi[p], oth, ctxp[p], tabp[p], infop[p], tvid, tscal, tseq, toff,
                   tscale, ttid, RL, G[p])
    for t in range(tb, te):
        _update_row(t, mode, w, fp, fn, lev_g[p], grp_par[p], grp_start[p], dec_first[p], dec_na[p], G[p], VD[p],
                    REG[p], AVG[p], R[p], B[p])
        _reach_row(t, dec_first[p], dec_na[p], dec_parent[p], B[p], R[p])


@njit(cache=True, nogil=True, inline="always")
def _weights(variant, t, alpha, beta, gamma, table, it):
    """(mode, w, pos_factor, neg_factor) of iteration t (:meth:`.cfr._CFRState.iterate`); for a
    hyperparameter schedule (variants 3, HS-DCFR, and 4, HS-PCFR+) row ``it`` of ``table``, the
    call's scalars computed beforehand (:class:`._schedules.HyperSchedule`)."""
    if variant >= 3:
        return (1 if variant == 3 else 2), table[it, 0], table[it, 1], table[it, 2]
    if variant == 0:
        return 0, float(t), 1.0, 1.0
    if variant == 2:
        return 2, float(t) ** gamma, 1.0, 1.0
    ta = float(t) ** alpha
    tb = float(t) ** beta
    return 1, float(t) ** gamma, ta / (ta + 1.0), tb / (tb + 1.0)


@njit(cache=True, nogil=True)
def iterations_serial(t_first, count, variant, alpha, beta, gamma, table, blocks, game, state):
    """CFR iterations ``t_first .. t_first + count - 1`` on the calling thread (alternating
    updates, players in order; ``blocks[p]``: the bounds of the blocks of p's types).
    ``table``: ``(count, 3)`` scalars of a scheduled variant (else unused, may be empty).
    ``game``, ``state``: :func:`pack`."""
    active = game[0]
    for it in range(count):
        mode, w, fp, fn = _weights(variant, t_first + it, alpha, beta, gamma, table, it)
        for p in range(active.shape[0]):
            if active[p]:
                bounds = blocks[p]
                for b in range(bounds.shape[0] - 1):
                    _update_block(p, b, bounds[b], bounds[b + 1], mode, w, fp, fn, game, state)
    return count


@njit(cache=True, nogil=True, parallel=True)
def iterations_barrier(ctl, t_first, count, variant, alpha, beta, gamma, table, blocks, game, state):
    """:func:`iterations_serial` in *one* parallel region: block b of every player's types on
    the region's b-th thread, the threads meeting at a spinning barrier after each player's
    update (:mod:`._atomics`). ``ctl``: a fresh control array (:func:`._atomics.control`).
    Returns False, having done nothing, if the region's threads did not all run at once
    (:func:`._atomics.start`)."""
    # a parallel region takes arrays and flat tuples of arrays, not tuples of tuples: the
    # fields go in one by one and are packed again inside
    (active, others, ctxp, tabp, infop, tlo, thi, tvid, tscal, tseq, toff, tscale, ttid, lev_g, grp_par, grp_start,
     dec_first, dec_na, dec_parent) = game
    R, G, VD, REG, AVG, B, RL = state
    nb = blocks[0].shape[0] - 1
    for b in prange(nb):
        if _atomics.start(ctl, nb):
            gm = (active, others, ctxp, tabp, infop, tlo, thi, tvid, tscal, tseq, toff, tscale, ttid, lev_g,
                  grp_par, grp_start, dec_first, dec_na, dec_parent)
            st = (R, G, VD, REG, AVG, B, RL)
            gen = 0
            for it in range(count):
                mode, w, fp, fn = _weights(variant, t_first + it, alpha, beta, gamma, table, it)
                for p in range(active.shape[0]):
                    if active[p]:
                        bounds = blocks[p]
                        _update_block(p, b, bounds[b], bounds[b + 1], mode, w, fp, fn, gm, st)
                        gen = _atomics.barrier(ctl, nb, gen)
    return ctl[_atomics.STATE] == 1


# ------------------------------------------------------------------------------ the data
#: Games of at most this many (sequence, type) entries over all players take this path (in
#: :func:`.cfr.cfr_plus`); bigger ones keep the level-by-level kernels, whose parallel
#: regions pay for themselves there and which copy no reaches. Measured (ms per CFR+
#: iteration, 1 / 2 threads): Leduc, 2 616 entries, level kernels 0.09 / 0.09, here
#: 0.05 / 0.03; two-player Mercer hold'em with a check, 162 705 entries, 5.1 / 5.1 against
#: 4.8 / 4.4 (the copies of the reaches, 1.3 MB a step, eat the second core's gain).
MAX_ENTRIES = 50_000
#: Terminal x deal entries from which the iterations run in parallel (the reaches copied per
#: thread and two barriers per iteration cost more than Kuhn's 180 entries of work; Leduc
#: has 8 220).
MIN_PARALLEL_WORK = 4_000


def applicable(cg) -> bool:
    """Does game ``cg`` take this path? (numba, no type-tensor kernel, at most MAX_ENTRIES)."""
    from . import _kernels as K

    if not (K.USE_FUSED and _fused.HAVE_NUMBA) or cg.quotient:
        return False
    if (K._dense_data(cg) if K.USE_DENSE else None) is not None:
        return False
    return sum(pt.num_seqs * pt.num_types for pt in cg.players) <= MAX_ENTRIES


def static_data(cg) -> dict:
    """The game's arrays for :func:`iterations_serial` and :func:`iterations_barrier`, by name
    (cached on ``cg``)."""
    data = getattr(cg, "_whole", None)
    if data is not None:
        return data
    from . import _kernels as K

    fd = K._fused_data(cg)
    n = cg.num_players
    lays = [K._layout(pt) for pt in cg.players]
    tlo, thi = [], []
    for p in range(n):
        pp = fd["per"][p]
        lo = np.zeros(cg.num_types[p], np.int64)
        hi = np.zeros(cg.num_types[p], np.int64)
        lo[pp["btype"]] = pp["bstart"]
        hi[pp["btype"]] = pp["bend"]
        tlo.append(lo)
        thi.append(hi)
    per = lambda key: tuple(fd["per"][p][key] for p in range(n))      # noqa: E731
    lay = lambda key: tuple(lay_[key] for lay_ in lays)               # noqa: E731
    data = dict(
        active=np.array([pt.num_decisions > 0 for pt in cg.players]),
        others=per("others"), ctxp=per("ctxp"), tabp=per("tabp"), infop=per("infop"),
        tlo=tuple(tlo), thi=tuple(thi),
        tvid=fd["tvid"], tscal=fd["tscal"], tseq=fd["tseq"], toff=fd["toff"], tscale=fd["tscale"],
        ttid=fd["ttid"],
        lev_g=lay("lev_g"), grp_par=lay("grp_par"), grp_start=lay("grp_start"),
        dec_first=lay("dec_first"), dec_na=lay("dec_na"), dec_parent=lay("dec_parent"),
        work=int(cg.num_terminals) * int(cg.num_deals),
    )
    cg._whole = data
    return data


def type_blocks(cg, k: int) -> tuple:
    """Per player, ``k`` contiguous blocks of his types with about equal numbers of deals
    (bounds, length ``k + 1``; a block may be empty). The blocks change no result."""
    out = []
    for p in range(cg.num_players):
        counts = np.bincount(cg.info[p], minlength=cg.num_types[p]).astype(float)
        # every type also costs its update: weigh a type by its deals plus one
        cum = np.concatenate(([0.0], np.cumsum(counts + 1.0)))
        cuts = np.searchsorted(cum, cum[-1] * np.arange(1, k) / k)
        out.append(np.concatenate(([0], np.minimum(cuts, cg.num_types[p]), [cg.num_types[p]])).astype(np.int64))
    return tuple(out)


def pack(data) -> tuple:
    """The game's arrays of :func:`static_data` as the ``game`` tuple of the kernels."""
    return tuple(data[k] for k in ("active", "others", "ctxp", "tabp", "infop", "tlo", "thi", "tvid", "tscal",
                                   "tseq", "toff", "tscale", "ttid", "lev_g", "grp_par", "grp_start", "dec_first",
                                   "dec_na", "dec_parent"))
