"""Compiled loops of the exact preflop equity table (numba).

Plan (all exact integer counting):

1. The 2,598,960 five-card boards fall into orbits under the 24 permutations of the
   suits.  The class-level counts are suit invariant (a suit permutation maps the
   combos of a class onto the combos of the same class), so it suffices to visit one
   board per orbit and weight it by the orbit size.
2. On a board, the 1081 combos that avoid it are ranked once with the evaluator and
   sorted.  A sweep in increasing strength keeps ``C[k]`` = number of combos of class
   ``k`` strictly weaker than the current one; a combo ``a`` of class ``i`` adds ``C`` to
   row ``i`` of the win table (``W[i, k]`` += #class-k combos that ``a`` beats).
3. That counts pairs (a, b) that share a card, which cannot be dealt together; they are
   removed exactly: for each off-board card x, every pair of combos containing x is
   compared and subtracted.  The result counts each (combo a, combo b, board) with all
   9 cards distinct once.

Ties need no separate sweep: every (a, b, board) triple is a win, a loss or a tie, so
``T = n * C(48, 5) - W - W.T`` with ``n`` the disjoint combo-pair counts.
"""
from __future__ import annotations

import itertools

import numpy as np

from .evaluator import rank_from_suit_masks  # first: it checks NUMBA_NUM_THREADS before numba reads it
from numba import njit, prange

SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


@njit(cache=True)
def canonical_boards(perms):
    """One board per suit-permutation orbit of the C(52, 5) boards and its orbit size.

    A board is canonical when its 52-bit card mask is the smallest among its 24 images;
    the orbit size is 24 / (number of permutations fixing it).
    """
    n_max = 2598960
    boards = np.empty((n_max, 5), dtype=np.int64)
    weights = np.empty(n_max, dtype=np.int64)
    cnt = 0
    b = np.empty(5, dtype=np.int64)
    for b0 in range(52):
        for b1 in range(b0 + 1, 52):
            for b2 in range(b1 + 1, 52):
                for b3 in range(b2 + 1, 52):
                    for b4 in range(b3 + 1, 52):
                        b[0] = b0; b[1] = b1; b[2] = b2; b[3] = b3; b[4] = b4
                        own = np.int64(0)
                        for k in range(5):
                            own |= np.int64(1) << b[k]
                        smaller = False
                        fixed = 0
                        for p in range(perms.shape[0]):
                            img = np.int64(0)
                            for k in range(5):
                                c = b[k]
                                img |= np.int64(1) << (4 * (c >> 2) + perms[p, c & 3])
                            if img < own:
                                smaller = True
                                break
                            if img == own:
                                fixed += 1
                        if not smaller:
                            boards[cnt, :] = b
                            weights[cnt] = perms.shape[0] // fixed
                            cnt += 1
    return boards[:cnt].copy(), weights[:cnt].copy()


@njit(cache=True, inline="always")
def _board_into(board, weight, combo_cards, combo_class, with_card, W,
                popcount, straight, top, keys, strength, cnt_lower, loc_r, loc_c):
    """Add ``weight`` x the win counts of one board into ``W`` (see the module docstring)."""
    used = np.int64(0)
    bm0 = 0; bm1 = 0; bm2 = 0; bm3 = 0
    for k in range(5):
        c = board[k]
        used |= np.int64(1) << c
        s = c & 3
        bit = 1 << (c >> 2)
        if s == 0:
            bm0 |= bit
        elif s == 1:
            bm1 |= bit
        elif s == 2:
            bm2 |= bit
        else:
            bm3 |= bit
    n = 0
    for idx in range(combo_cards.shape[0]):
        c1 = combo_cards[idx, 0]
        c2 = combo_cards[idx, 1]
        if (used >> c1) & 1 or (used >> c2) & 1:
            strength[idx] = -1
            continue
        a = bm0; b = bm1; c = bm2; d = bm3
        for cc in (c1, c2):
            s = cc & 3
            bit = 1 << (cc >> 2)
            if s == 0:
                a |= bit
            elif s == 1:
                b |= bit
            elif s == 2:
                c |= bit
            else:
                d |= bit
        r = rank_from_suit_masks(a, b, c, d, popcount, straight, top)
        strength[idx] = r
        keys[n] = (r << 11) | idx
        n += 1
    ks = np.sort(keys[:n])
    nc = cnt_lower.shape[0]
    cnt_lower[:] = 0
    i = 0
    while i < n:
        r = ks[i] >> 11
        g = i
        while g < n and (ks[g] >> 11) == r:
            g += 1
        for q in range(i, g):
            row = combo_class[ks[q] & 2047]
            for k in range(nc):
                W[row, k] += weight * cnt_lower[k]
        for q in range(i, g):
            cnt_lower[combo_class[ks[q] & 2047]] += 1
        i = g
    # pairs of combos sharing card x were counted above but cannot be dealt together
    for x in range(52):
        if (used >> x) & 1:
            continue
        m = 0
        for t in range(with_card.shape[1]):
            idx = with_card[x, t]
            if strength[idx] >= 0:
                loc_r[m] = strength[idx]
                loc_c[m] = combo_class[idx]
                m += 1
        for p in range(m):
            rp = loc_r[p]
            cp = loc_c[p]
            for q in range(p + 1, m):
                rq = loc_r[q]
                if rp > rq:
                    W[cp, loc_c[q]] -= weight
                elif rq > rp:
                    W[loc_c[q], cp] -= weight


@njit(cache=True)
def board_win_counts(board, combo_cards, combo_class, with_card, nclass, popcount, straight, top):
    """Unweighted win counts of one board: ``W[i, j]`` = #(a in i, b in j, disjoint, a beats b)."""
    W = np.zeros((nclass, nclass), dtype=np.int64)
    keys = np.empty(combo_cards.shape[0], dtype=np.int64)
    strength = np.empty(combo_cards.shape[0], dtype=np.int64)
    cnt = np.zeros(nclass, dtype=np.int64)
    loc_r = np.empty(52, dtype=np.int64)
    loc_c = np.empty(52, dtype=np.int64)
    _board_into(board, np.int64(1), combo_cards, combo_class, with_card, W,
                popcount, straight, top, keys, strength, cnt, loc_r, loc_c)
    return W


@njit(cache=True, parallel=True)
def weighted_win_counts(boards, weights, combo_cards, combo_class, with_card, nclass,
                        popcount, straight, top, nchunks):
    """Sum of ``weights[b]`` x win counts of ``boards[b]`` (chunks run in parallel)."""
    out = np.zeros((nchunks, nclass, nclass), dtype=np.int64)
    nb = boards.shape[0]
    for ch in prange(nchunks):
        keys = np.empty(combo_cards.shape[0], dtype=np.int64)
        strength = np.empty(combo_cards.shape[0], dtype=np.int64)
        cnt = np.zeros(nclass, dtype=np.int64)
        loc_r = np.empty(52, dtype=np.int64)
        loc_c = np.empty(52, dtype=np.int64)
        W = out[ch]
        for bi in range(ch * nb // nchunks, (ch + 1) * nb // nchunks):
            _board_into(boards[bi], weights[bi], combo_cards, combo_class, with_card, W,
                        popcount, straight, top, keys, strength, cnt, loc_r, loc_c)
    total = np.zeros((nclass, nclass), dtype=np.int64)
    for ch in range(nchunks):
        total += out[ch]
    return total
