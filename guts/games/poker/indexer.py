"""Lossless hand indexing up to suit isomorphism (Waugh, "A Fast and Optimal Hand Isomorphism
Algorithm", AAAI Workshop on Computer Poker and Imperfect Information, 2013).

Cards are numbered as everywhere in :mod:`guts.games.poker` (the ACPC convention of
:mod:`.spec` and the card kinds of :mod:`.cards`): card ``c = rank * suits + suit`` with
``rank`` in ``0..ranks-1`` (the lowest rank first) and ``suit`` in ``0..suits-1``.  A hand is
dealt in rounds (hold'em: 2 private cards, a 3-card flop, the turn, the river); cards are
unordered within a round, rounds are ordered.  Two hands are isomorphic when a permutation of
the suits maps one onto the other (ranks are never permuted).  :class:`HandIndexer` numbers
the classes of the hands dealt through round ``k`` by ``0..size(k)-1``, a bijection.

The construction (Waugh 2013, §3-4).  For one suit, the ranks it receives in every round form
disjoint sets ``S_0, S_1, ..``; its *shape* is the vector of their sizes ``(m_0, m_1, ..)``
and its *suit index* numbers the sets among all of that shape: ``S_j`` is numbered by the
colexicographic rank of its ranks renumbered among those not in ``S_0..S_{j-1}``, and the
rounds are combined in mixed radix (``C(ranks, m_0) C(ranks - m_0, m_1) ..`` values).  A
hand is then a map suit -> (shape, suit index); a suit permutation only relabels the suits,
so a class is the multiset of those pairs: the *configuration* (the multiset of shapes,
sorted) and, for every distinct shape held by ``g`` suits, a multiset of ``g`` suit indices
(combinations with repetition, ``C(n + g - 1, g)`` of them for ``n`` sets of that shape).
Configurations are numbered in a fixed order with cumulative offsets; inside a configuration
the multisets of the groups are combined in mixed radix.

Examples
--------
>>> idx = HandIndexer((2, 3))
>>> idx.size(0), idx.size(1)
(169, 1286792)
>>> idx.index((48, 49)) == idx.index((50, 51))     # A-A of two suits, any two suits
True
>>> r = idx.unindex(1, 12345)
>>> idx.index(r)
12345
"""
from __future__ import annotations

import bisect
import itertools
import math
from functools import cached_property

import numpy as np

from guts._validate import check_int
from guts.errors import GutsInputError

__all__ = ["HandIndexer", "MAX_RANKS", "MAX_SUITS"]

#: Largest number of ranks (a suit's cards are bit masks; ``index_many`` uses a 2**ranks table)
MAX_RANKS = 16
#: Largest number of suits (the brute-force checks try all ``suits!`` permutations)
MAX_SUITS = 8
_INT64_SAFE = 2 ** 62


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _multiset_size(n: int, g: int) -> int:
    """Multisets of ``g`` values out of ``n`` (combinations with repetition)."""
    return math.comb(n + g - 1, g)


class HandIndexer:
    """Index of hands up to suit permutations, round by round (module docstring).

    Parameters
    ----------
    cards_per_round : tuple of int
        Cards dealt in each round, each >= 1; hold'em is ``(2, 3, 1, 1)``.
    ranks : int
        Ranks in the deck, 1..16 (13 for a standard deck).
    suits : int
        Suits in the deck, 1..8 (4 for a standard deck).

    Notes
    -----
    ``size(k)`` for hold'em, rounds ``(2, 3, 1, 1)``, is 169, 1 286 792, 55 190 538 and
    2 428 287 420 (Waugh 2013); with the board as one round, ``(2, 4)`` and ``(2, 5)`` give
    13 960 050 and 123 156 254 (the order of the board cards forgotten).  :meth:`index` and
    :meth:`unindex` work with Python integers; :meth:`index_many` indexes an array of hands
    of one round with NumPy (int64 results).
    """

    def __init__(self, cards_per_round=(2, 3, 1, 1), *, ranks: int = 13, suits: int = 4):
        try:
            cpr = tuple(cards_per_round)
        except TypeError:
            raise GutsInputError(f"cards_per_round must be a sequence of integers >= 1; "
                                 f"got {cards_per_round!r}") from None
        if not cpr:
            raise GutsInputError("cards_per_round must list at least one round; got ()")
        self.cards_per_round = tuple(check_int("cards per round", c, 1, 64) for c in cpr)
        self.ranks = check_int("ranks", ranks, 1, MAX_RANKS)
        self.suits = check_int("suits", suits, 1, MAX_SUITS)
        total = sum(self.cards_per_round)
        if total > self.ranks * self.suits:
            raise GutsInputError(f"a deck of {self.ranks} ranks x {self.suits} suits has {self.ranks * self.suits} "
                                 f"cards; cards_per_round {self.cards_per_round} deals {total}; accepted: at most "
                                 f"{self.ranks * self.suits} cards in all")
        #: cards dealt through each round (prefix sums)
        self.cards_through = tuple(itertools.accumulate(self.cards_per_round))
        self._rounds = [self._round_tables(k) for k in range(len(self.cards_per_round))]

    def __repr__(self):
        return f"HandIndexer({self.cards_per_round}, ranks={self.ranks}, suits={self.suits})"

    # -- tables --------------------------------------------------------------------------
    def _shape_size(self, shape) -> int:
        """Number of suit indices of a shape: rank sets of sizes m_0, m_1, .. disjoint."""
        n, left = 1, self.ranks
        for m in shape:
            n *= math.comb(left, m)
            left -= m
        return n

    def _round_tables(self, k):
        cpr = self.cards_per_round[:k + 1]
        shapes = [s for s in itertools.product(*[range(min(c, self.ranks) + 1) for c in cpr])
                  if sum(s) <= self.ranks]
        shapes.sort(reverse=True)
        configs = []

        def extend(prefix, left, start):
            if len(prefix) == self.suits:
                if not any(left):
                    configs.append(tuple(prefix))
                return
            for i in range(start, len(shapes)):
                s = shapes[i]
                if all(a <= b for a, b in zip(s, left)):
                    extend(prefix + [s], tuple(b - a for a, b in zip(s, left)), i)

        extend([], cpr, 0)
        offsets, groups_of = [0], []
        for cfg in configs:
            groups = [(shape, sum(1 for _ in run)) for shape, run in itertools.groupby(cfg)]
            groups = [(shape, g, _multiset_size(self._shape_size(shape), g)) for shape, g in groups]
            groups_of.append(tuple(groups))
            offsets.append(offsets[-1] + math.prod(size for _, _, size in groups))
        return {"configs": configs, "position": {c: i for i, c in enumerate(configs)},
                "offsets": offsets, "groups": groups_of}

    # -- public API ----------------------------------------------------------------------
    @property
    def num_rounds(self) -> int:
        return len(self.cards_per_round)

    def _check_round(self, round) -> int:
        return check_int("round", round, 0, self.num_rounds - 1)

    def size(self, round: int) -> int:
        """Number of hands through ``round`` up to suit permutations (classes)."""
        return self._rounds[self._check_round(round)]["offsets"][-1]

    def configurations(self, round: int) -> tuple:
        """The suit configurations of ``round`` (multisets of shapes, each sorted decreasing)."""
        return tuple(self._rounds[self._check_round(round)]["configs"])

    def round_of(self, num_cards: int) -> int:
        """Round whose hands have ``num_cards`` cards (cards of rounds 0..k concatenated)."""
        try:
            return self.cards_through.index(int(num_cards))
        except ValueError:
            raise GutsInputError(f"a hand of {num_cards} cards; accepted: "
                                 f"{', '.join(map(str, self.cards_through))} cards (whole rounds "
                                 f"of {self.cards_per_round})") from None

    def _check_cards(self, cards) -> tuple:
        try:
            cards = tuple(cards)
        except TypeError:
            raise GutsInputError(f"cards must be a sequence of card numbers; got {cards!r}") from None
        n = self.ranks * self.suits
        out = []
        for c in cards:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < n:
                raise GutsInputError(f"card {c!r}; accepted: integers 0..{n - 1} (rank * {self.suits} + suit)")
            out.append(int(c))
        if len(set(out)) != len(out):
            raise GutsInputError(f"cards {list(out)} repeat a card; accepted: distinct cards")
        return tuple(out)

    def _suit_records(self, cards, k):
        """(shape, suit index) of every suit of a hand through round ``k``."""
        S = self.suits
        masks = [[0] * (k + 1) for _ in range(S)]
        pos = 0
        for j in range(k + 1):
            for c in cards[pos:pos + self.cards_per_round[j]]:
                masks[c % S][j] |= 1 << (c // S)
            pos += self.cards_per_round[j]
        recs = []
        for s in range(S):
            used, idx, mult, left, shape = 0, 0, 1, self.ranks, []
            for j in range(k + 1):
                m = masks[s][j]
                cnt, colex, bits = 0, 0, m
                while bits:
                    low = bits & -bits
                    r = low.bit_length() - 1
                    cnt += 1
                    colex += math.comb(r - _popcount(used & (low - 1)), cnt)
                    bits ^= low
                idx += mult * colex
                mult *= math.comb(left, cnt)
                left -= cnt
                used |= m
                shape.append(cnt)
            recs.append((tuple(shape), idx))
        # shapes decreasing (the configuration's order), suit indices increasing within a shape
        recs.sort(key=lambda t: (tuple(-m for m in t[0]), t[1]))
        return recs

    def index(self, cards) -> int:
        """Index of a hand: the cards of rounds 0..k concatenated (any order within a round).

        Returns the index at round ``k`` (``k`` from the number of cards), in ``[0, size(k))``.
        """
        cards = self._check_cards(cards)
        k = self.round_of(len(cards))
        tab = self._rounds[k]
        recs = self._suit_records(cards, k)
        cfg = tuple(shape for shape, _ in recs)
        p = tab["position"][cfg]
        total, i = 0, 0
        for shape, g, size in tab["groups"][p]:
            mi = sum(math.comb(recs[i + t][1] + t, t + 1) for t in range(g))
            total = total * size + mi
            i += g
        return tab["offsets"][p] + total

    def canonical(self, cards) -> tuple:
        """The canonical representative of a hand's class (``unindex(k, index(cards))``)."""
        cards = self._check_cards(cards)
        return self.unindex(self.round_of(len(cards)), self.index(cards))

    def unindex(self, round: int, index: int) -> tuple:
        """A hand (tuple of cards, each round sorted) of the class numbered ``index`` at
        ``round``; ``index(unindex(round, i)) == i``."""
        k = self._check_round(round)
        tab = self._rounds[k]
        size = tab["offsets"][-1]
        i = check_int("index", index, 0, size - 1)
        p = bisect.bisect_right(tab["offsets"], i) - 1
        rem = i - tab["offsets"][p]
        groups = tab["groups"][p]
        mis = []
        for _, _, gsize in reversed(groups):
            mis.append(rem % gsize)
            rem //= gsize
        mis.reverse()
        records = []
        for (shape, g, _), mi in zip(groups, mis):
            n = self._shape_size(shape)
            vals = []
            for t in range(g - 1, -1, -1):
                # largest y with C(y, t + 1) <= mi (y in t..n - 1 + t)
                lo, hi = t, n - 1 + t
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if math.comb(mid, t + 1) <= mi:
                        lo = mid
                    else:
                        hi = mid - 1
                mi -= math.comb(lo, t + 1)
                vals.append(lo - t)
            records.extend((shape, v) for v in reversed(vals))
        rounds = [[] for _ in range(k + 1)]
        for s, (shape, idx) in enumerate(records):
            free = list(range(self.ranks))
            for j, m in enumerate(shape):
                base = math.comb(len(free), m)
                colex = idx % base
                idx //= base
                chosen = []
                for t in range(m, 0, -1):
                    y = t - 1
                    while math.comb(y + 1, t) <= colex:
                        y += 1
                    colex -= math.comb(y, t)
                    chosen.append(free[y])
                for r in chosen:
                    rounds[j].append(r * self.suits + s)
                free = [r for r in free if r not in chosen]
        return tuple(c for rd in rounds for c in sorted(rd))

    # -- vectorised ----------------------------------------------------------------------
    @cached_property
    def _popcount_table(self) -> np.ndarray:
        x = np.arange(1 << self.ranks, dtype=np.int64)
        out = np.zeros_like(x)
        for b in range(self.ranks):
            out += (x >> b) & 1
        return out

    @cached_property
    def _comb_table(self) -> np.ndarray:
        n = self.ranks + 1
        return np.array([[math.comb(a, b) for b in range(n)] for a in range(n)], dtype=np.int64)

    def _vector_tables(self, k):
        tab = self._rounds[k]
        if "vec" in tab:
            return tab["vec"]
        cpr = self.cards_per_round[:k + 1]
        radix = [1]
        for c in cpr[:-1]:
            radix.append(radix[-1] * (c + 1))
        ncodes = radix[-1] * (cpr[-1] + 1)
        shape_size = np.zeros(ncodes, dtype=np.int64)
        for shape in itertools.product(*[range(c + 1) for c in cpr]):
            if sum(shape) <= self.ranks:
                shape_size[sum(m * r for m, r in zip(shape, radix))] = self._shape_size(shape)
        max_idx = int(shape_size.max()) + 1
        # codes ordered so that increasing sort keys give shapes decreasing (the configurations'
        # order): key = rank_of_code * max_idx + suit index
        codes = sorted(range(ncodes), key=lambda c: tuple(-((c // r) % (m + 1)) for r, m in zip(radix, cpr)))
        order = np.empty(ncodes, dtype=np.int64)
        order[codes] = np.arange(ncodes)
        cfg_codes = []
        for cfg in tab["configs"]:
            v = 0
            for shape in cfg:
                v = v * ncodes + sum(m * r for m, r in zip(shape, radix))
            cfg_codes.append(v)
        fits = (ncodes ** self.suits < _INT64_SAFE and ncodes * max_idx < _INT64_SAFE
                and tab["offsets"][-1] * self.suits < _INT64_SAFE)
        vec = {"radix": np.array(radix, dtype=np.int64), "ncodes": ncodes, "shape_size": shape_size,
               "max_idx": max_idx, "order": order, "codes": np.array(codes, dtype=np.int64), "fits": fits}
        if fits:
            srt = np.argsort(np.array(cfg_codes, dtype=np.int64))
            vec["cfg_codes"] = np.array(cfg_codes, dtype=np.int64)[srt]
            vec["cfg_offsets"] = np.array(tab["offsets"][:-1], dtype=np.int64)[srt]
        tab["vec"] = vec
        return vec

    def index_many(self, cards) -> np.ndarray:
        """Indices of many hands of one round at once.

        Parameters
        ----------
        cards : array_like (H, n) of int
            One hand per row, the cards of rounds 0..k concatenated (``n`` cards: round k).

        Returns
        -------
        ndarray (H,) of int64
            ``index(row)`` for every row (an object array of Python ints, computed row by
            row, when the indices or the configuration codes could overflow int64).
        """
        arr = np.asarray(cards)
        if arr.ndim != 2 or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
            raise GutsInputError(f"cards must be a 2-D integer array (one hand per row); got shape "
                                 f"{arr.shape} of {arr.dtype}")
        arr = arr.astype(np.int64, copy=False)
        k = self.round_of(arr.shape[1])
        H, S, N = arr.shape[0], self.suits, self.ranks * self.suits
        if H == 0:
            return np.zeros(0, dtype=np.int64)
        if arr.min() < 0 or arr.max() >= N:
            raise GutsInputError(f"card {int(arr.min() if arr.min() < 0 else arr.max())}; accepted: "
                                 f"integers 0..{N - 1} (rank * {S} + suit)")
        srt = np.sort(arr, axis=1)
        if (srt[:, 1:] == srt[:, :-1]).any():
            row = int(np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))[0])
            raise GutsInputError(f"hand {arr[row].tolist()} (row {row}) repeats a card; accepted: distinct cards")
        vec = self._vector_tables(k)
        if not vec["fits"]:
            return np.array([self.index(row) for row in arr.tolist()], dtype=object)
        pop, comb = self._popcount_table, self._comb_table
        rank, suit = arr // S, arr % S
        bit = np.left_shift(np.int64(1), rank)
        rounds_of_col = np.repeat(np.arange(k + 1), self.cards_per_round[:k + 1])
        masks = np.zeros((H, S, k + 1), dtype=np.int64)
        for c in range(arr.shape[1]):
            j = rounds_of_col[c]
            for s in range(S):
                masks[:, s, j] += np.where(suit[:, c] == s, bit[:, c], 0)
        used = np.zeros_like(masks)                      # ranks of the suit in earlier rounds
        for j in range(1, k + 1):
            used[:, :, j] = used[:, :, j - 1] | masks[:, :, j - 1]
        counts = pop[masks]                              # (H, S, k+1)
        rows = np.arange(H)
        colex = np.zeros((H, S, k + 1), dtype=np.int64)
        for c in range(arr.shape[1]):
            j, s, r = rounds_of_col[c], suit[:, c], rank[:, c]
            below = bit[:, c] - 1
            pos = r - pop[used[rows, s, j] & below]
            nth = pop[masks[rows, s, j] & below] + 1
            colex[rows, s, j] += comb[pos, nth]
        idx = np.zeros((H, S), dtype=np.int64)
        mult = np.ones((H, S), dtype=np.int64)
        left = np.full((H, S), self.ranks, dtype=np.int64)
        code = np.zeros((H, S), dtype=np.int64)
        for j in range(k + 1):
            idx += mult * colex[:, :, j]
            mult *= comb[left, counts[:, :, j]]
            left -= counts[:, :, j]
            code += counts[:, :, j] * vec["radix"][j]
        key = np.sort(vec["order"][code] * vec["max_idx"] + idx, axis=1)
        code = vec["codes"][key // vec["max_idx"]]
        idx = key % vec["max_idx"]
        cfg = np.zeros(H, dtype=np.int64)
        for s in range(S):
            cfg = cfg * vec["ncodes"] + code[:, s]
        p = np.searchsorted(vec["cfg_codes"], cfg)
        total = np.zeros(H, dtype=np.int64)
        run = np.zeros(H, dtype=np.int64)
        nth = np.zeros(H, dtype=np.int64)                # position inside the run of equal shapes
        for s in range(S):
            same = code[:, s] == code[:, s - 1] if s else np.zeros(H, dtype=bool)
            nth = np.where(same, nth + 1, 0)
            run = np.where(same, run, 0) + _comb_vec(idx[:, s] + nth, nth + 1, S)
            end = np.ones(H, dtype=bool) if s == S - 1 else code[:, s + 1] != code[:, s]
            gsize = _comb_vec(vec["shape_size"][code[:, s]] + nth, nth + 1, S)
            total = np.where(end, total * gsize + run, total)
        return vec["cfg_offsets"][p] + total


def _comb_vec(y: np.ndarray, t: np.ndarray, tmax: int) -> np.ndarray:
    """C(y, t) elementwise for 1 <= t <= tmax (exact while C(y, t) * t fits in int64)."""
    c = y.copy()
    for u in range(2, tmax + 1):
        step = u <= t
        c = np.where(step, c * np.where(step, y - u + 1, 1) // u, c)
    return c
