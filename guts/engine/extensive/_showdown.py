"""Two-player terminal pass in O(types) per terminal, for one-card hands ranked by strength.

The general pass (:func:`._fused.terminal_values_blocked`) sums over the deals of every
terminal: ``T (T - 1)`` of them when each player holds one of ``T`` cards.  In the games of
that shape (Kuhn, Leduc, Rhode Island hold'em) every context weighs the deals it allows
equally, and a showdown's table is a comparison of strengths, so the sum over the opponent's
cards is a sum over the cards weaker than mine, plus half the tied ones (the classic
showdown evaluation of CFR on poker: Johanson, Bard, Lanctot, Gibson and Bowling, *Efficient
Nash equilibrium approximation through Monte Carlo counterfactual regret minimization*,
AAMAS 2012, section 4): for player ``p`` with card ``t`` against reach ``r`` of the other,

    g[s_p, t] += c * (off_p * (R - r_t) + scale * (W_t + (E_t - r_t) / 2))

where the sums run over the cards ``u != t`` that the context allows (``R`` all of them,
``W_t`` the weaker ones, ``E_t`` those of equal strength, ``t`` included) and ``c`` is the
context's weight of one deal.  :func:`showdown_data` checks every assumption on the compiled
arrays (the deals, each context row, each table against the strengths it infers) and returns
``None`` where one fails: the general pass then runs.
"""
from __future__ import annotations

import numpy as np

from . import _fused

#: Fewest types (cards) per player for this pass: below it the general pass over the
#: ``T (T - 1)`` deals is as fast (Leduc: 6 cards).
SHOWDOWN_MIN_TYPES = 12
#: Relative agreement required of a context row with one weight per allowed deal.
SHOWDOWN_RTOL = 1e-12

if _fused.HAVE_NUMBA:
    from numba import njit, prange
else:                                           # pragma: no cover - numba is a dependency
    njit = None
    prange = range


def _strengths(share0, a0, a1, valid, T):
    """Strength ranks of the allowed cards from player 0's share table, or None when the
    table is not ``1[s(t0) > s(t1)] + 1[s(t0) = s(t1)] / 2`` for every allowed pair."""
    M = np.full((T, T), np.nan)
    M[a0, a1] = share0
    V = np.flatnonzero(valid)
    sub = M[np.ix_(V, V)]
    off = ~np.eye(V.size, dtype=bool)
    vals = sub[off]
    if np.isnan(vals).any() or not np.all(np.isin(vals, (0.0, 0.5, 1.0))):
        return None
    wins = np.where(off, sub, 0.0).sum(axis=1)            # monotone in strength
    s = np.full(T, -1.0)
    s[V] = wins
    expect = (s[V][:, None] > s[V][None, :]) + 0.5 * (s[V][:, None] == s[V][None, :])
    if not np.array_equal(expect[off], vals):
        return None
    return s


def showdown_data(cg):
    """Per-game arrays of :func:`terminal_values_showdown` (None if not applicable; cached)."""
    sd = getattr(cg, "_showdown", False)
    if sd is not False:
        return sd
    cg._showdown = sd = _build(cg)
    return sd


def _build(cg):
    if not _fused.HAVE_NUMBA or cg.num_players != 2:
        return None
    T = int(cg.num_types[0])
    if T != cg.num_types[1] or T < SHOWDOWN_MIN_TYPES or cg.num_deals != T * (T - 1):
        return None
    a0, a1 = (np.asarray(x, dtype=np.int64) for x in cg.info)
    if np.any(a0 == a1) or np.unique(a0 * T + a1).size != cg.num_deals:
        return None
    # contexts: one weight c_v per allowed deal; allowed = both cards allowed
    nv = cg.ctx.shape[0]
    c_of = np.zeros(nv)
    valid = np.zeros((nv, T), dtype=bool)
    used_v = np.unique(cg.term_vid)
    for v in used_v:
        row = cg.ctx[v]
        pos = row > 0
        if not pos.any():
            continue
        ok0 = np.zeros(T, dtype=bool)
        ok0[a0[pos]] = True
        ok1 = np.zeros(T, dtype=bool)
        ok1[a1[pos]] = True
        if not np.array_equal(ok0, ok1):
            return None
        allowed = ok0[a0] & ok0[a1]
        if not np.array_equal(allowed, pos):
            return None
        c = float(row[pos].mean())
        if np.abs(row[pos] - c).max() > SHOWDOWN_RTOL * c:
            return None
        c_of[v], valid[v] = c, ok0
    # keys: distinct (context, table) pairs; per key the allowed cards by strength and the
    # first position of each one's tie group
    tid = np.where(cg.term_scale != 0.0, cg.term_tid, -1)
    keys, kz = np.unique(np.stack([cg.term_vid, tid]), axis=1, return_inverse=True)
    kz = kz.reshape(-1).astype(np.int64)
    K = keys.shape[1]
    order = np.zeros((K, T), dtype=np.int64)
    nval = np.zeros(K, dtype=np.int64)
    gend = np.zeros((K, T), dtype=np.int64)         # end of the tie group of sorted position i
    kc = np.zeros(K)
    for k in range(K):
        v, tb = int(keys[0, k]), int(keys[1, k])
        V = np.flatnonzero(valid[v])
        kc[k] = c_of[v]
        nval[k] = V.size
        if tb < 0:
            s = np.zeros(T)
        else:
            tab = cg.tables[tb]
            if not np.allclose(tab[0] + tab[1], 1.0, rtol=0, atol=SHOWDOWN_RTOL):
                return None
            s = _strengths(tab[0], a0, a1, valid[v], T)
            if s is None:
                return None
        srt = V[np.argsort(s[V], kind="stable")]
        order[k, :V.size] = srt
        ss = s[srt]
        for i in range(V.size - 1, -1, -1):
            gend[k, i] = i + 1 if i == V.size - 1 or ss[i] != ss[i + 1] else gend[k, i + 1]
    has_table = keys[1] >= 0
    per = []
    for p in range(2):
        q = 1 - p
        sp = cg.term_seq[p]
        row_of = np.argsort(sp, kind="stable").astype(np.int64)
        row_ptr = np.searchsorted(sp[row_of], np.arange(cg.players[p].num_seqs + 1)).astype(np.int64)
        per.append(dict(q=q, row_of=row_of, row_ptr=row_ptr,
                        off=np.ascontiguousarray(cg.term_offset[p], dtype=float)))
    return dict(kz=kz, order=order, nval=nval, gend=gend, kc=kc, has_table=has_table,
                scal=np.ascontiguousarray(cg.term_scal, dtype=float),
                scale=np.ascontiguousarray(np.where(tid >= 0, cg.term_scale, 0.0)),
                seq=np.ascontiguousarray(cg.term_seq, dtype=np.int64), per=per)


def _row(s, p, q, row_ptr, row_of, kz, order, nval, gend, kc, has_table, scal, scale, off, seq, R, g):
    T = g.shape[1]
    for t in range(T):
        g[s, t] = 0.0
    r = np.empty(T)
    for j in range(row_ptr[s], row_ptr[s + 1]):
        z = row_of[j]
        k = kz[z]
        n = nval[k]
        c = kc[k] * scal[z]
        if c == 0.0 or n == 0:
            continue
        sq = seq[q, z]
        tot = 0.0
        for i in range(n):
            r[i] = R[sq, order[k, i]]
            tot += r[i]
        o = off[z]
        sc = scale[z]
        if has_table[k] and sc != 0.0:
            below = 0.0
            i = 0
            while i < n:
                e = gend[k, i]
                tie = 0.0
                for m in range(i, e):
                    tie += r[m]
                for m in range(i, e):
                    g[s, order[k, m]] += c * (o * (tot - r[m]) + sc * (below + 0.5 * (tie - r[m])))
                below += tie
                i = e
        else:
            for i in range(n):
                g[s, order[k, i]] += c * o * (tot - r[i])


def _rows(p, q, row_ptr, row_of, kz, order, nval, gend, kc, has_table, scal, scale, off, seq, R, g):
    for s in prange(g.shape[0]):
        _row_c(s, p, q, row_ptr, row_of, kz, order, nval, gend, kc, has_table, scal, scale, off, seq, R, g)
    return g


def _rows_serial(p, q, row_ptr, row_of, kz, order, nval, gend, kc, has_table, scal, scale, off, seq, R, g):
    for s in range(g.shape[0]):
        _row_c(s, p, q, row_ptr, row_of, kz, order, nval, gend, kc, has_table, scal, scale, off, seq, R, g)
    return g


if njit is not None:
    _row_c = njit(cache=True, nogil=True)(_row)
    _rows_par = njit(cache=True, nogil=True, parallel=True)(_rows)
    _rows_ser = njit(cache=True, nogil=True)(_rows_serial)


def terminal_values_showdown(sd, p, reaches, g, parallel: bool):
    """g (S_p+1, T) of player p (every row written) from the other's reach (see the module)."""
    pp = sd["per"][p]
    kern = _rows_par if parallel else _rows_ser
    return kern(p, pp["q"], pp["row_ptr"], pp["row_of"], sd["kz"], sd["order"], sd["nval"], sd["gend"], sd["kc"],
                sd["has_table"], sd["scal"], sd["scale"], pp["off"], sd["seq"], np.ascontiguousarray(reaches[pp["q"]]), g)
