"""A compiled 7-card hold'em hand evaluator (bit masks + four 8192-entry lookup tables).

The strength of a set of 5 to 7 distinct cards is one non-negative ``int64``; a larger
value is a better poker hand, equal values tie.  Layout: ``category << 26 | hi << 13 | lo``
with categories 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
6 full house, 7 quads, 8 straight flush, and ``hi``/``lo`` 13-bit rank masks (bit r =
rank r) ordered so that numeric comparison of masks is the lexicographic comparison
of the ranks that decide ties (a larger highest rank wins first, then the next ...).

Method (per 7 cards): the four 13-bit suit masks give, by bit operations, the ranks
present at least once / twice / three / four times; a flush needs 5 cards of a suit
(in 7 cards a flush excludes quads and full houses, so it is decided first); straights
are read off a table of all 8192 rank masks (the wheel A-2-3-4-5 counts as 5-high);
kickers are the top k bits of a mask, from tables.  Verified against phevaluator (an
independent perfect-hash evaluator) in ``tests/games/holdem/test_holdem_evaluator.py``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from guts._validate import check_numba_env
from guts.errors import GutsInputError

check_numba_env()  # before numba reads NUMBA_NUM_THREADS (0 makes its import fail with a traceback)
from numba import njit  # noqa: E402

__all__ = ["hand_tables", "evaluate", "evaluate_many"]

CATEGORY_SHIFT = 26
HI_SHIFT = 13
CATEGORIES = ("high card", "pair", "two pair", "trips", "straight", "flush",
              "full house", "quads", "straight flush")


@lru_cache(maxsize=None)   # built on first use, not at import (cold start)
def _build_tables():
    masks = np.arange(8192)
    popcount = np.array([bin(m).count("1") for m in masks], dtype=np.int64)
    straight = np.zeros(8192, dtype=np.int64)   # 1 + rank of the top card of the best straight, 0: none
    for m in range(8192):
        for top in range(12, 2, -1):            # tops A (12) down to 5 (3, the wheel A-2-3-4-5)
            need = [3, 2, 1, 0, 12] if top == 3 else [top - k for k in range(5)]
            if all(m >> r & 1 for r in need):
                straight[m] = top + 1
                break
    top = np.zeros((6, 8192), dtype=np.int64)  # top[k, m]: the k highest set bits of m
    for m in range(8192):
        kept, bits = 0, 0
        for r in range(12, -1, -1):
            if m >> r & 1 and bits < 5:
                kept |= 1 << r
                bits += 1
                top[bits, m] = kept
        for k in range(bits + 1, 6):
            top[k, m] = kept
    return popcount, straight, top


def hand_tables():
    """The lookup tables ``(popcount, straight, top)`` passed to the compiled kernels."""
    return _build_tables()


@njit(cache=True, inline="always")
def rank_from_suit_masks(a, b, c, d, popcount, straight, top):
    """Strength of the cards given by four 13-bit suit masks (5 to 7 cards in all)."""
    for m in (a, b, c, d):
        if popcount[m] >= 5:
            s = straight[m]
            if s:
                return (8 << 26) | s
            return (5 << 26) | top[5, m]
    m1 = a | b | c | d
    m4 = a & b & c & d
    if m4:
        return (7 << 26) | (m4 << 13) | top[1, m1 & ~m4]
    m3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    m2 = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    if m3:
        t = top[1, m3]
        p = top[1, m2 & ~t]
        if p:
            return (6 << 26) | (t << 13) | p
    s = straight[m1]
    if s:
        return (4 << 26) | s
    if m3:
        return (3 << 26) | (m3 << 13) | top[2, m1 & ~m3]
    if m2:
        if popcount[m2] >= 2:
            tp = top[2, m2]
            return (2 << 26) | (tp << 13) | top[1, m1 & ~tp]
        return (1 << 26) | (m2 << 13) | top[3, m1 & ~m2]
    return top[5, m1]


@njit(cache=True)
def _evaluate_rows(cards, popcount, straight, top):
    out = np.empty(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        sm = np.zeros(4, dtype=np.int64)
        for j in range(cards.shape[1]):
            c = cards[i, j]
            sm[c & 3] |= 1 << (c >> 2)
        out[i] = rank_from_suit_masks(sm[0], sm[1], sm[2], sm[3], popcount, straight, top)
    return out


def evaluate_many(cards) -> np.ndarray:
    """Strengths of many hands: ``cards`` is an int array (N, k), 5 <= k <= 7, distinct per row."""
    arr = np.ascontiguousarray(np.asarray(cards, dtype=np.int64))
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7 or arr.min(initial=0) < 0 or arr.max(initial=0) > 51:
        raise GutsInputError("cards must be an (N, 5..7) array of card indices 0..51")
    return _evaluate_rows(arr, *_build_tables())


def evaluate(*cards: int) -> int:
    """Strength of one hand of 5 to 7 card indices (larger is better)."""
    return int(evaluate_many(np.array([cards]))[0])


def category(strength: int) -> str:
    """Name of the hand category of a strength value."""
    return CATEGORIES[int(strength) >> CATEGORY_SHIFT]
