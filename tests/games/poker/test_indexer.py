"""Hand isomorphism indexer (Waugh, "A Fast and Optimal Hand Isomorphism Algorithm", 2013).

Oracle: brute force on small decks -- every hand is enumerated, put in canonical form by
trying every suit permutation, and the classes are counted; the indexer's size must equal
the number of classes, its index must be constant on every class and distinct across
classes, and unindex must invert it.  The hold'em counts of Waugh's Table 1 are checked on
size() only."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts.errors import GutsInputError
from guts.games.poker import HandIndexer


def canonical(hand, cpr, suits):
    """Brute-force canonical form: the smallest image under every suit permutation, each
    round sorted (rounds ordered, cards unordered within a round)."""
    best = None
    for perm in itertools.permutations(range(suits)):
        img, pos = [], 0
        for n in cpr:
            img.append(tuple(sorted((c // suits) * suits + perm[c % suits] for c in hand[pos:pos + n])))
            pos += n
        img = tuple(img)
        if best is None or img < best:
            best = img
    return best


def all_hands(cpr, ranks, suits):
    """Every hand dealt in rounds: each round an unordered set of new cards."""
    deck = range(ranks * suits)

    def rec(prefix, k):
        if k == len(cpr):
            yield prefix
            return
        rest = [c for c in deck if c not in prefix]
        for combo in itertools.combinations(rest, cpr[k]):
            yield from rec(prefix + combo, k + 1)
    yield from rec((), 0)


SMALL = [((2, 1, 1), 4, 3), ((1, 2, 1), 3, 4), ((2, 3), 5, 2), ((1, 1, 1), 4, 4), ((3, 1), 3, 3),
         ((2, 2), 2, 4)]


@pytest.mark.parametrize("cpr,ranks,suits", SMALL)
def test_brute_force_classes(cpr, ranks, suits):
    """size(k) = number of classes; index constant on classes, distinct across them;
    index_many agrees; unindex(index) is a member of the class; index(unindex(i)) = i."""
    idx = HandIndexer(cpr, ranks=ranks, suits=suits)
    for k in range(len(cpr)):
        sub = cpr[:k + 1]
        hands = list(all_hands(sub, ranks, suits))
        classes = {}
        for h in hands:
            classes.setdefault(canonical(h, sub, suits), []).append(h)
        assert idx.size(k) == len(classes)
        seen = {}
        for key, members in classes.items():
            values = {idx.index(h) for h in members}
            assert len(values) == 1                      # constant on the orbit
            v = values.pop()
            assert 0 <= v < idx.size(k)
            assert v not in seen                         # distinct across orbits
            seen[v] = key
        assert sorted(seen) == list(range(idx.size(k)))
        many = idx.index_many(np.array(hands, dtype=np.int64))
        assert many.tolist() == [idx.index(h) for h in hands]
        for i in range(idx.size(k)):
            rep = idx.unindex(k, i)
            assert canonical(rep, sub, suits) == seen[i]
            assert idx.index(rep) == i


def burnside(cpr, ranks, suits):
    """Number of classes by Burnside's lemma: the mean over suit permutations g of the hands
    fixed by g.  A hand is fixed when every round's set is a union of g's card orbits (for
    each rank, one orbit per cycle of g), so Fix(g) is the number of ways to give orbits to
    rounds with round j receiving exactly cpr[j] cards (a small dynamic programme)."""
    total = 0
    for perm in itertools.permutations(range(suits)):
        seen, cycles = set(), []
        for s in range(suits):
            if s not in seen:
                n, t = 0, s
                while t not in seen:
                    seen.add(t)
                    t, n = perm[t], n + 1
                cycles.append(n)
        dp = {(0,) * len(cpr): 1}
        for _ in range(ranks):
            for ell in cycles:
                nxt = dict(dp)
                for state, v in dp.items():
                    for j in range(len(cpr)):
                        if state[j] + ell <= cpr[j]:
                            key = state[:j] + (state[j] + ell,) + state[j + 1:]
                            nxt[key] = nxt.get(key, 0) + v
                dp = nxt
        total += dp.get(tuple(cpr), 0)
    assert total % math.factorial(suits) == 0
    return total // math.factorial(suits)


@pytest.mark.parametrize("cpr,ranks,suits", SMALL)
def test_burnside_small(cpr, ranks, suits):
    """The Burnside oracle agrees with the brute force's class counts (checked above)."""
    idx = HandIndexer(cpr, ranks=ranks, suits=suits)
    assert [idx.size(k) for k in range(len(cpr))] == [burnside(cpr[:k + 1], ranks, suits) for k in range(len(cpr))]


def test_holdem_counts():
    """Canonical hold'em hands with ordered rounds (2, 3, 1, 1), as reported by Waugh 2013:
    169, 1 286 792, 55 190 538, 2 428 287 420; with the board dealt as one round, (2, 4) and
    (2, 5) (the order of the board cards forgotten): 13 960 050 and 123 156 254.  Each also
    equals Burnside's count, an oracle independent of the indexer."""
    idx = HandIndexer((2, 3, 1, 1))
    assert [idx.size(k) for k in range(4)] == [169, 1_286_792, 55_190_538, 2_428_287_420]
    assert HandIndexer((2, 4)).size(1) == 13_960_050
    assert HandIndexer((2, 5)).size(1) == 123_156_254
    for cpr in ((2, 3, 1, 1), (2, 4), (2, 5)):
        assert idx.size(0) == burnside(cpr[:1], 13, 4)
        ix = HandIndexer(cpr)
        assert ix.size(len(cpr) - 1) == burnside(cpr, 13, 4)


def test_holdem_preflop_brute_force():
    """169 = 13 pairs + 78 suited + 78 offsuit, and the full deck's 1326 hands fall in them."""
    idx = HandIndexer((2,))
    hands = list(itertools.combinations(range(52), 2))
    classes = {canonical(h, (2,), 4) for h in hands}
    assert len(classes) == 13 + 2 * math.comb(13, 2) == idx.size(0)
    values = idx.index_many(np.array(hands))
    assert len(set(values.tolist())) == 169
    # orbit sizes: pairs 6, suited 4, offsuit 12 (hands per class)
    counts = np.bincount(values, minlength=169)
    assert sorted(set(counts.tolist())) == [4, 6, 12]
    assert counts.sum() == 1326


def test_rounds_are_ordered():
    """A card moved from the flop to the hole is a different hand; within a round order is free."""
    idx = HandIndexer((2, 3))
    a = (0, 4, 8, 12, 16)
    assert idx.index(a) == idx.index((4, 0, 16, 8, 12))
    assert idx.index(a) != idx.index((0, 8, 4, 12, 16))


holdem = HandIndexer((2, 3, 1, 1))


@st.composite
def hand_and_perm(draw):
    k = draw(st.integers(0, 3))
    n = holdem.cards_through[k]
    cards = draw(st.permutations(range(52)))[:n]
    perm = draw(st.permutations(range(4)))
    return k, tuple(cards), tuple(perm)


@settings(max_examples=120, deadline=None)
@given(hand_and_perm())
def test_index_invariant_under_suit_permutations(args):
    k, cards, perm = args
    moved = tuple((c // 4) * 4 + perm[c % 4] for c in cards)
    i = holdem.index(cards)
    assert holdem.index(moved) == i
    assert 0 <= i < holdem.size(k)
    rep = holdem.unindex(k, i)
    assert holdem.index(rep) == i
    cpr = holdem.cards_per_round[:k + 1]
    assert canonical(rep, cpr, 4) == canonical(cards, cpr, 4)
    assert holdem.index_many(np.array([cards, moved])).tolist() == [i, i]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 3), st.integers(0, 2 ** 62))
def test_unindex_round_trip_holdem(k, raw):
    i = raw % holdem.size(k)
    rep = holdem.unindex(k, i)
    assert len(rep) == holdem.cards_through[k] and len(set(rep)) == len(rep)
    assert holdem.index(rep) == i


def test_index_many_random_rivers():
    rng = np.random.default_rng(7)
    hands = np.array([rng.permutation(52)[:7] for _ in range(2000)])
    assert holdem.index_many(hands).tolist() == [holdem.index(h) for h in hands.tolist()]


@pytest.mark.parametrize("bad", [
    lambda: HandIndexer(()), lambda: HandIndexer((2, 0)), lambda: HandIndexer((30, 30)),
    lambda: HandIndexer(ranks=0), lambda: HandIndexer(suits=9),
    lambda: holdem.index((0, 1, 2)), lambda: holdem.index((0, 0)), lambda: holdem.index((0, 52)),
    lambda: holdem.unindex(0, 169), lambda: holdem.unindex(4, 0), lambda: holdem.size(-1),
    lambda: holdem.index_many(np.array([[0, 0]])), lambda: holdem.index_many(np.zeros((2, 3), dtype=int)),
])
def test_bad_input(bad):
    with pytest.raises(GutsInputError):
        bad()


def test_index_many_on_every_flop_of_a_small_deck():
    """Every (2, 3) hand of a 4-rank x 4-suit deck, indexed at once: each class is hit by
    exactly as many hands as its orbit has members (the distinct images of its
    representative under the 24 suit permutations)."""
    ranks, suits = 4, 4
    idx = HandIndexer((2, 3), ranks=ranks, suits=suits)
    n = ranks * suits
    hole = np.array(list(itertools.combinations(range(n), 2)))
    rows = []
    for h in hole:
        rest = [c for c in range(n) if c not in h]
        flops = np.array(list(itertools.combinations(rest, 3)))
        rows.append(np.hstack([np.repeat(h[None, :], len(flops), axis=0), flops]))
    hands = np.vstack(rows)
    assert len(hands) == math.comb(n, 2) * math.comb(n - 2, 3)
    counts = np.bincount(idx.index_many(hands), minlength=idx.size(1))
    assert len(counts) == idx.size(1)
    for i in range(idx.size(1)):
        rep = idx.unindex(1, i)
        images = {tuple(frozenset((c // suits) * suits + p[c % suits] for c in part)
                        for part in (rep[:2], rep[2:])) for p in itertools.permutations(range(suits))}
        assert counts[i] == len(images)
