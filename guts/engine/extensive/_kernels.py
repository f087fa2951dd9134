"""Vectorised passes over the compiled public tree (see :mod:`._compiled`).

Conventions: a behaviour strategy of player p is a flat array ``B`` (S_p + 1, T_p), row
``s`` = probability of the last action of sequence ``s`` for each type (row 0 = 1).
``R`` = realisation weights (product of own action probabilities to the sequence).
``g`` = terminal payoffs of player p aggregated to his sequences and types, weighted by
deal, chance and the other players' reach: the sequence-form payoff vector of p against
the others (Koller, Megiddo & von Stengel 1996); everything else is a bottom-up pass.
"""
from __future__ import annotations

import math

import numpy as np

from . import _fused, _showdown
from ._interrupt import checkpoint
from ._threads import current_threads

#: Use the fused numba kernel for the terminal pass (the numpy path is the reference).
USE_FUSED = _fused.HAVE_NUMBA
#: Three-player games: sum the deals out into a type tensor per (context, table) and
#: contract it with the other players' reaches (:func:`._fused.terminal_values_dense3`),
#: when that tensor is not much larger than the deal list (``prod(num_types) <=
#: DENSE_MAX_RATIO * num_deals``).  False: the per-deal kernel (the pre-issue-21 code).
USE_DENSE = True
#: Two players holding one card each, showdowns by strength: the terminal pass in O(cards)
#: per terminal (:mod:`._showdown`) instead of a sum over the deals.
USE_SHOWDOWN = True
#: The kernels in parallel (numba ``prange``; False: the serial kernels, as before).
PARALLEL = True
#: Smallest work (terminal x deal entries of a pass, or sequence x type entries of an update)
#: run in parallel: below it a parallel region's start-up and barrier cost more than the work
#: (Leduc: ~1e4 entries), and on a loaded machine a descheduled worker stalls every region.
PARALLEL_MIN_WORK = 2_000_000


#: The same for the level-by-level passes over a sequence tree (reach, backups, scatter,
#: expected value: one parallel region per level, ~1 ns per entry; 3P-MMH's smallest player
#: has 1e6, 3P-MMH without a check 7e3, where two threads were 2x slower on them) ...
LEVEL_MIN_WORK = 200_000
#: ... and for CFR's fused backup and regret update (~7 ns per entry: 3P-MMH without a check,
#: 7e3 entries, 56 us with one thread, 41 us with two).
UPDATE_MIN_WORK = 5_000


def parallel_for(work: int, min_work: int | None = None) -> bool:
    """Run a kernel of ``work`` entries in parallel? (:data:`PARALLEL`, the size from
    ``min_work``, default :data:`PARALLEL_MIN_WORK`, and > 1 thread)."""
    if min_work is None:
        min_work = PARALLEL_MIN_WORK        # read now: tests lower it
    if not PARALLEL or work < min_work or not _fused.HAVE_NUMBA:
        return False
    return current_threads() > 1
DENSE_MAX_RATIO = 2.0
#: The type-tensor kernel's work in parallel from this many entries (keys x Tf Tl Tp +
#: terminals x Tl Tp, an upper bound: keys whose reach is zero are skipped). 3P-MMH without a
#: check has 2.3e6: 216 us per pass with one thread, 124 us with two (16 chunks); with a
#: check 7.5e8.
DENSE_MIN_WORK = 500_000
#: Parallel chunks of the dense kernel: one per DENSE_CHUNK_KEYS keys, at most DENSE_CHUNKS,
#: of equal estimated work (:func:`balanced_bounds`). Each chunk allocates its scratch rows
#: and is handed out on its own: 256 chunks on 3P-MMH without a check, 600 keys, made two
#: threads no faster than one (16 gave 1.7x); on 3P-MMH with a check (2e5 keys) 256 chunks
#: were 16 per thread of 16, and a thread that drew the last one kept the others waiting.
#: A key's arithmetic does not depend on its chunk: the result does not depend on the split.
DENSE_CHUNKS = 2048
DENSE_CHUNK_KEYS = 40
#: Blocks of rows of the scatter after the dense kernel (equal work: rows + terminals), at
#: most one per SCATTER_BLOCK_ROWS rows.
SCATTER_BLOCKS = 256
SCATTER_BLOCK_ROWS = 64
#: From this many chunks they are handed out dynamically (one at a time).
DENSE_DYNAMIC_CHUNKS = 64


def _dense_data(cg):
    """Per-game arrays of the three-player type-tensor kernel (None if not applicable)."""
    dd = getattr(cg, "_dense", False)
    if dd is not False:
        return dd
    dd = None
    n = cg.num_players
    T = tuple(int(t) for t in cg.num_types)
    if n == 3 and np.prod(T) <= DENSE_MAX_RATIO * cg.num_deals:
        tidx = np.ravel_multi_index(tuple(cg.info), T)           # deal -> type triple
        key = np.stack([cg.term_vid, cg.term_tid])
        gkeys, grp = np.unique(key, axis=1, return_inverse=True)
        grp = grp.reshape(-1)
        G = gkeys.shape[1]
        P = int(np.prod(T))
        A0 = np.empty((G, P))
        A1 = np.zeros((n, G, P))
        for gi in range(G):
            v, tid = int(gkeys[0, gi]), int(gkeys[1, gi])
            w = cg.ctx[v]
            A0[gi] = np.bincount(tidx, weights=w, minlength=P)
            if tid >= 0:
                for p in range(n):
                    A1[p, gi] = np.bincount(tidx, weights=w * cg.tables[tid][p], minlength=P)
        A0 = A0.reshape((G,) + T)
        A1 = A1.reshape((n, G) + T)
        grp_has1 = gkeys[1] >= 0
        scale = np.where(cg.term_tid >= 0, cg.term_scale, 0.0)
        per = []
        for p in range(n):
            others = [q for q in range(n) if q != p]
            # contract first with the player whose (group, sequence) keys are fewest
            nkeys = [np.unique(np.stack([grp, cg.term_seq[q]]), axis=1).shape[1] for q in others]
            f, l = (others[0], others[1]) if nkeys[0] <= nkeys[1] else (others[1], others[0])
            order = np.lexsort((cg.term_seq[l], cg.term_seq[f], grp))
            kg, ks = grp[order], cg.term_seq[f][order]
            brk = np.flatnonzero((np.diff(kg) != 0) | (np.diff(ks) != 0)) + 1
            u_start = np.concatenate(([0], brk, [order.size])).astype(np.int64)
            u0 = u_start[:-1]
            sp_sorted = cg.term_seq[p][order]
            row_of = np.argsort(sp_sorted, kind="stable").astype(np.int64)
            # CSR over all of p's sequences: row s gathers row_of[row_ptr[s]:row_ptr[s+1]]
            row_ptr = np.searchsorted(sp_sorted[row_of], np.arange(cg.players[p].num_seqs + 1))
            i32 = np.int32           # index arrays: int32 (memory; < 2**31 terminals)
            per.append(dict(
                f=f, l=l, u_start=u_start.astype(i32),
                u_grp=kg[u0].astype(i32), u_sf=ks[u0].astype(i32),
                z_sl=cg.term_seq[l][order].astype(i32),
                z_k=np.ascontiguousarray(cg.term_scal[order]),
                z_off=np.ascontiguousarray(cg.term_offset[p][order]),
                z_sc=np.ascontiguousarray(scale[order]),
                has1=np.ascontiguousarray(grp_has1[kg[u0]]),
                A0=np.ascontiguousarray(np.transpose(A0, (0, 1 + f, 1 + l, 1 + p))),
                A1=np.ascontiguousarray(np.transpose(A1[p], (0, 1 + f, 1 + l, 1 + p))),
                row_of=row_of.astype(i32), row_ptr=row_ptr.astype(i32),
                # work: per key a (Tf, Tl, Tp) contraction, per terminal a (Tl, Tp) one
                work=int(u0.size * int(np.prod(T)) + order.size * T[l] * T[p]),
                # per key: the (Tf, Tl, Tp) contraction and one (Tl, Tp) per terminal
                key_cost=np.cumsum(int(np.prod(T)) + np.diff(u_start) * (T[l] * T[p])),
                # per row of g: zeroing it and adding each of its terminals
                row_cost=np.cumsum(1 + np.diff(row_ptr)),
            ))
        dd = per
    cg._dense = dd
    return dd


def balanced_bounds(cum_cost, parts):
    """Bounds ``b[0] = 0 < ... < b[k] = n`` of at most ``parts`` contiguous blocks of ``n``
    items of about equal cost (``cum_cost``: the items' cumulative costs)."""
    n = cum_cost.size
    parts = max(1, min(int(parts), n))
    cuts = np.searchsorted(cum_cost, cum_cost[-1] * np.arange(1, parts) / parts, side="right")
    return np.unique(np.concatenate(([0], cuts, [n]))).astype(np.int64)


def _dense_bounds(d):
    """The chunk bounds of a player's dense kernel and scatter (for the constants now)."""
    key = (DENSE_CHUNKS, DENSE_CHUNK_KEYS, SCATTER_BLOCKS, SCATTER_BLOCK_ROWS)
    if d.get("bounds_key") != key:
        nk, nr = d["key_cost"].size, d["row_cost"].size
        d["c_start"] = balanced_bounds(d["key_cost"], min(DENSE_CHUNKS, max(1, nk // DENSE_CHUNK_KEYS)))
        d["blocks"] = balanced_bounds(d["row_cost"], min(SCATTER_BLOCKS, max(1, nr // SCATTER_BLOCK_ROWS)))
        d["bounds_key"] = key
    return d


def prepare(cg):
    """Build the per-game arrays of the terminal pass now (plain numpy: interruptible at
    once), before a solver's loop defers Ctrl-C to its checkpoints (:mod:`._interrupt`)."""
    if USE_FUSED:
        if (_dense_data(cg) if USE_DENSE else None) is None:
            _fused_data(cg)


def _fused_data(cg):
    fd = getattr(cg, "_fused", None)
    if fd is None:
        tid = np.where(cg.term_tid < 0, 0, cg.term_tid)
        order = np.lexsort((cg.term_seq[0], tid, cg.term_vid))  # ctx / table rows stay in cache
        fd = dict(
            tvid=np.ascontiguousarray(cg.term_vid[order]),
            tscal=np.ascontiguousarray(cg.term_scal[order]),
            tseq=np.ascontiguousarray(cg.term_seq[:, order]),
            toff=np.ascontiguousarray(cg.term_offset[:, order]),
            tscale=np.ascontiguousarray(cg.term_scale[order]),
            ttid=np.ascontiguousarray(tid[order]),
            tables=np.ascontiguousarray(np.stack(cg.tables)),
            ctx=np.ascontiguousarray(cg.ctx),
            info=np.ascontiguousarray(cg.info),
            rstride=np.array(cg.num_types, dtype=np.int64),
        )
        # per player: deals sorted by his type (streaming loops, one write per type)
        per = []
        for p in range(cg.num_players):
            perm = cg.perm[p]
            counts = np.bincount(cg.info[p], minlength=cg.num_types[p])
            ends = np.cumsum(counts)
            present = counts > 0
            per.append(dict(
                others=np.array([q for q in range(cg.num_players) if q != p], dtype=np.int64),
                ctxp=np.ascontiguousarray(fd["ctx"][:, perm]),
                tabp=np.ascontiguousarray(fd["tables"][:, p, :][:, perm]),
                infop=np.ascontiguousarray(cg.info[:, perm]),
                bstart=(ends - counts)[present].astype(np.int64),
                bend=ends[present].astype(np.int64),
                btype=np.flatnonzero(present).astype(np.int64),
            ))
        fd["per"] = per
        cg._fused = fd
    return fd


def _aux(cg):
    """Per-game derived arrays, built once and cached on the compiled game."""
    aux = getattr(cg, "_aux", None)
    if aux is None:
        n = cg.num_players
        info_perm = [[cg.info[q][cg.perm[p]] for q in range(n)] for p in range(n)]
        multi = any(c.single_table < 0 for c in cg.chunks)
        table_rows = [np.stack([t[p] for t in cg.tables]) for p in range(n)] if multi else None
        ones_scal = [bool(np.all(c.scal == 1.0)) for c in cg.chunks]
        all_present = [cg.type_present[p].size == cg.num_types[p] for p in range(n)]
        aux = dict(info_perm=info_perm, table_rows=table_rows,
                   ones_scal=ones_scal, all_present=all_present)
        cg._aux = aux
    return aux


def _layout(pt):
    """Player ``pt``'s level arrays for :func:`._fused.reach_levels` / ``backup_levels``."""
    lay = getattr(pt, "_layout", None)
    if lay is None:
        H = pt.num_decisions
        lev_d = [lv[0] for lv in pt.levels] + [H]
        grp_par, grp_start, lev_g = [], [], [0]
        for (dlo, _, _, _, uniq, pstarts, _) in pt.levels:
            grp_par.append(uniq)
            grp_start.append(dlo + pstarts)
            lev_g.append(lev_g[-1] + len(uniq))
        cat = (lambda xs: np.concatenate(xs).astype(np.int64)) if pt.levels else (lambda xs: np.zeros(0, np.int64))
        gstart = np.append(cat(grp_start), H).astype(np.int64)
        lay = dict(lev_d=np.array(lev_d, dtype=np.int64), lev_g=np.array(lev_g, dtype=np.int64),
                   grp_par=cat(grp_par), grp_start=gstart,
                   dec_first=np.ascontiguousarray(pt.dec_first, dtype=np.int64),
                   dec_na=np.ascontiguousarray(pt.dec_num_actions, dtype=np.int64),
                   dec_parent=np.ascontiguousarray(pt.dec_parent, dtype=np.int64),
                   sym=_sym_arrays(pt))
        pt._layout = lay
    return lay


def _sym_arrays(pt):
    """The quotient's orbit arrays of :func:`._fused._orbit_mean` (empty: no quotient)."""
    if pt.seq_sym is None:
        z1, z2 = np.zeros(0, np.int64), np.zeros((0, 0), np.int64)
        return (z1, z2, z2, z1)
    return (pt.seq_sym, np.ascontiguousarray(pt.sym_order), np.ascontiguousarray(pt.sym_start), pt.sym_ncls)


def orbit_mean_rows(pt, V, lo, hi):
    """numpy form of :func:`._fused._orbit_mean` for the sequences ``lo:hi`` (same sums in
    the same order)."""
    if pt.seq_sym is None:
        return
    ks = pt.seq_sym[lo:hi]
    for k in np.unique(ks[ks >= 0]):
        rows = lo + np.flatnonzero(ks == k)
        order, st = pt.sym_order[k], pt.sym_start[k]
        for c in range(int(pt.sym_ncls[k])):
            if st[c + 1] - st[c] < 2:
                continue
            cols = order[st[c]:st[c + 1]]
            acc = V[rows, cols[0]].copy()
            for j in cols[1:]:
                acc += V[rows, j]
            V[np.ix_(rows, cols)] = (acc / cols.size)[:, None]


def reach(pt, B, out=None, fused=None):
    """Top-down realisation weights R (S+1, T) of one player's behaviour B (into ``out``).
    ``fused``: the numba kernel (default when numba is installed) or numpy (the reference)."""
    R = np.empty_like(B) if out is None else out
    if (USE_FUSED if fused is None else fused) and pt.num_decisions and B.flags.c_contiguous:
        lay = _layout(pt)
        kern = _fused.reach_levels if parallel_for(B.size, LEVEL_MIN_WORK) else _fused.reach_levels_serial
        return kern(lay["lev_d"], lay["dec_first"], lay["dec_na"], lay["dec_parent"], B, R)
    R[0] = 1.0
    sp = pt.seq_parent
    for (_, _, slo, shi, _, _, _) in pt.levels:
        np.multiply(R[sp[slo:shi]], B[slo:shi], out=R[slo:shi])
    return R


class Workspace:
    """Scratch arrays reused by the passes of one solve (both cores).

    A fresh big array costs a page fault per 4 kB page at its first write, and page faults
    of two threads contend: measured on 3P-MMH with a check, the type-tensor pass took 71 ms
    with two threads into a fresh 41 MB array, 27 ms into a reused one (51 ms with one
    thread). ``take(name, shape)`` returns a view of a buffer kept under ``name`` (grown when
    too small); the previous view of that name must not be used any more.
    """

    def __init__(self):
        self._buf = {}
        self._views = {}        # (name, shape) -> view of the current buffer (per-call cost)

    def take(self, name, shape):
        v = self._views.get((name, shape))
        if v is not None:
            return v
        size = math.prod(shape)
        buf = self._buf.get(name)
        if buf is None or buf.size < size:
            self._views = {k: x for k, x in self._views.items() if k[0] != name}
            self._buf[name] = buf = None       # free the old one before the new one
            self._buf[name] = buf = np.empty(size)
        v = self._views[(name, shape)] = buf[:size].reshape(shape)
        return v


def _new(work, name, shape, zero=False):
    if work is None:
        return np.zeros(shape) if zero else np.empty(shape)
    out = work.take(name, shape)
    if zero:
        out.fill(0.0)
    return out


def terminal_values(cg, p, reaches, fused=None, work=None):
    """g (S_p+1, T_p): player p's payoffs weighted by deal, chance and the others' reach.

    ``reaches[q]`` is player q's R (ignored for q == p).  ``fused``: use the numba
    kernel streaming over deals sorted by the player's type (default: when numba is
    installed) or the chunked numpy pass (the reference).  ``work``: a :class:`Workspace`
    (the returned g is then its ``"g"`` buffer: valid until the next call with it).
    """
    if USE_FUSED if fused is None else fused:
        sd = _showdown.showdown_data(cg) if USE_SHOWDOWN else None
        if sd is not None:
            g = _new(work, "g", (cg.players[p].num_seqs, cg.num_types[p]))     # every row written
            return _showdown.terminal_values_showdown(
                sd, p, reaches, g, parallel_for(cg.num_terminals * cg.num_types[p], LEVEL_MIN_WORK))
        dd = _dense_data(cg) if USE_DENSE else None
        if dd is not None:
            d = _dense_bounds(dd[p])
            contrib = _new(work, "contrib", (cg.num_terminals, cg.num_types[p]))
            # work: per key a (Tf, Tl, Tp) contraction, per terminal a (Tl, Tp) one
            par = parallel_for(d["work"], DENSE_MIN_WORK)
            # many chunks (a big game) are handed out one at a time (their cost varies: keys
            # whose reach is zero are skipped; a static split left a thread idle); a few
            # (a small game) are split statically (no scheduling calls: ~7 us per pass)
            dyn = par and d["c_start"].size - 1 >= DENSE_DYNAMIC_CHUNKS
            old = _fused.set_parallel_chunksize(1) if dyn else 0
            try:
                (_fused.terminal_values_dense3 if par else _fused.terminal_values_dense3_serial)(
                    d["u_start"], d["u_grp"], d["u_sf"], d["z_sl"], d["z_k"], d["z_off"], d["z_sc"],
                    d["A0"], d["A1"], d["has1"], np.ascontiguousarray(reaches[d["f"]]),
                    np.ascontiguousarray(reaches[d["l"]]), d["c_start"], contrib)
            finally:
                if dyn:
                    _fused.set_parallel_chunksize(old)
            g = _new(work, "g", (cg.players[p].num_seqs, cg.num_types[p]))     # every row written
            return (_fused.scatter_rows if parallel_for(g.size, LEVEL_MIN_WORK) else _fused.scatter_rows_serial)(
                d["row_ptr"], d["row_of"], contrib, d["blocks"], g)
        fd = _fused_data(cg)
        n = cg.num_players
        sizes = [r.size for r in reaches]
        rbase = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        rflat = np.concatenate([np.ascontiguousarray(r).ravel() for r in reaches])
        g = _new(work, "g", (cg.players[p].num_seqs, cg.num_types[p]), zero=True)
        pp = fd["per"][p]
        par = parallel_for(cg.num_terminals * cg.num_deals)
        kern = _fused.terminal_values_blocked_par if par else _fused.terminal_values_blocked
        return kern(
            p, pp["others"], pp["ctxp"], fd["tvid"], fd["tscal"], fd["tseq"], fd["toff"],
            fd["tscale"], fd["ttid"], pp["tabp"], pp["infop"], pp["bstart"], pp["bend"],
            pp["btype"], rflat, rbase, fd["rstride"], g)
    aux = _aux(cg)
    n = cg.num_players
    pt = cg.players[p]
    perm = cg.perm[p]
    ip = aux["info_perm"][p]
    starts = cg.type_starts[p]
    g = np.zeros((pt.num_seqs, cg.num_types[p]))
    for k, c in enumerate(cg.chunks):
        W = cg.ctx[c.vid[:, None], perm[None, :]]
        if not aux["ones_scal"][k]:
            W *= c.scal[:, None]
        for q in range(n):
            if q != p:
                Rq = reaches[q]
                W *= Rq[c.seq[q]][:, ip[q]]
        if c.single_table >= 0:
            trow = cg.tables[c.single_table][p][perm]
            U = c.scale[:, None] * trow[None, :]
        else:
            U = c.scale[:, None] * aux["table_rows"][p][c.tid[:, None], perm[None, :]]
        U += c.offset[p][:, None]
        W *= U
        G = np.add.reduceat(W, starts, axis=1)
        if aux["all_present"][p]:
            g += c.scatter[p] @ G
        else:
            g[:, cg.type_present[p]] += c.scatter[p] @ G
    return g


def _backup(pt, g, B, out, use_max, work=None):
    V = g.copy() if out is None else out
    if out is not None and out is not g:
        V[...] = g
    Vdec = _new(work, "vdec", (pt.num_decisions, g.shape[1]))
    if USE_FUSED and pt.num_decisions and V.flags.c_contiguous:
        lay = _layout(pt)
        kern = _fused.backup_levels if parallel_for(V.size, LEVEL_MIN_WORK) else _fused.backup_levels_serial
        kern(use_max, lay["lev_g"], lay["grp_par"], lay["grp_start"], lay["dec_first"], lay["dec_na"],
             V if B is None else B, V, Vdec, lay["sym"])
        return V, Vdec
    for (dlo, dhi, slo, shi, uniq, pstarts, bstarts) in reversed(pt.levels):
        orbit_mean_rows(pt, V, slo, shi)
        if use_max:
            vd = np.maximum.reduceat(V[slo:shi], bstarts, axis=0)
        else:
            vd = np.add.reduceat(B[slo:shi] * V[slo:shi], bstarts, axis=0)
        Vdec[dlo:dhi] = vd
        V[uniq] += np.add.reduceat(vd, pstarts, axis=0)
    return V, Vdec


def backup_mean(pt, g, B, out=None):
    """Bottom-up values under behaviour B.  Returns (V (S+1,T), Vdec (H,T)).

    ``V[s]`` = counterfactual value of sequence s (its action taken, B below),
    ``Vdec[h]`` = counterfactual value of decision h under B.  ``out=g`` overwrites g
    (saves a copy).  The numba kernel when numba is installed (:data:`USE_FUSED`), else
    numpy; both add in the same order.
    """
    return _backup(pt, g, np.ascontiguousarray(B), out, False)


def backup_max(pt, g, out=None, work=None):
    """Bottom-up best-response values.  Returns (V (S+1,T), Vdec (H,T)); ``out=g``
    overwrites g; ``work``: Vdec is the :class:`Workspace`'s ``"vdec"`` buffer."""
    return _backup(pt, g, None, out, True, work)


def backup_update(pt, g, B, mode, w, pos_factor, neg_factor, regret, avg, own, work=None):
    """CFR's backup and regret update in one bottom-up pass (:func:`._fused.backup_update`):
    the values of ``B`` from ``g`` (overwritten), then ``avg += w own``, the regrets and the
    next behaviour (into ``B``) as :func:`._fused._regret_update_decision`. Numba only (``USE_FUSED``)."""
    lay = _layout(pt)
    Vdec = _new(work, "vdec", (pt.num_decisions, g.shape[1]))
    kern = _fused.backup_update if parallel_for(B.size, UPDATE_MIN_WORK) else _fused.backup_update_serial
    return kern(mode, w, pos_factor, neg_factor, lay["lev_g"], lay["grp_par"], lay["grp_start"],
                lay["dec_first"], lay["dec_na"], g, Vdec, regret, avg, own, B, lay["sym"])


def expected_value(R, g):
    """``sum(R * g)``: player p's expected payoff from his reach and his ``g`` (numba: fixed
    blocks of rows, the same bits with any thread count)."""
    if USE_FUSED and R.flags.c_contiguous and g.flags.c_contiguous and R.dtype == g.dtype == np.float64:
        return float((_fused.dot_rows if parallel_for(R.size, LEVEL_MIN_WORK) else _fused.dot_rows_serial)(R, g))
    return float(np.sum(R * g))


def best_actions(pt, V, Vdec):
    """Pure best response as a flat behaviour (S+1, T): first maximising action."""
    B = np.zeros_like(V)
    B[0] = 1.0
    if pt.num_decisions == 0:
        return B
    is_max = V[1:] >= Vdec[pt.seq_dec[1:]]
    # first maximiser per (decision, type): cumulative count within the block == 1
    cnt = np.cumsum(is_max, axis=0)
    firsts = pt.dec_first - 1
    base = np.where(firsts[:, None] > 0, cnt[np.maximum(firsts - 1, 0)], 0)
    before = base[pt.seq_dec[1:]]
    B[1:] = (is_max & (cnt - before == 1)).astype(float)
    return B


def all_reaches(cg, flat):
    return [reach(cg.players[q], flat[q]) for q in range(cg.num_players)]


def values_and_br(cg, flat, reaches=None, keep=True, work=None):
    """(expected values (n,), best-response values (n,), per-player (V, Vdec) of the BR;
    ``keep=False``: None instead, so only one player's arrays live at a time, in ``work``
    (a :class:`Workspace`) if given)."""
    if keep:
        work = None
    n = cg.num_players
    if reaches is None:
        reaches = all_reaches(cg, flat)
    ev = np.empty(n)
    br = np.empty(n)
    out = []
    for p in range(n):
        g = terminal_values(cg, p, reaches, work=work)
        ev[p] = expected_value(reaches[p], g)
        V, Vdec = backup_max(cg.players[p], g, out=g, work=work)      # g is not needed any more
        br[p] = float(V[0].sum())
        out.append((V, Vdec) if keep else None)
        del g, V, Vdec
        checkpoint()
    return ev, br, out
