"""Deal probabilities with card removal against brute-force enumeration of physical cards."""
import itertools
import math
from collections import Counter

import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.games.poker.mercer import Deck

PROB_ATOL = 1e-12


def _physical(deck: Deck):
    """Every physical card as its kind index (copies are distinct objects)."""
    return [k for k in range(deck.num_kinds) for _ in range(deck.copies)]


def _enumerate(deck: Deck, players: int, hole: int, board: int):
    """P(hands, board) by dealing every combination of distinct physical cards."""
    cards = _physical(deck)
    idx = range(len(cards))
    out = Counter()
    total = 0

    def rec(rest, parts, sizes):
        if not sizes:
            yield parts
            return
        for c in itertools.combinations(rest, sizes[0]):
            yield from rec([i for i in rest if i not in c], parts + [tuple(sorted(cards[i] for i in c))], sizes[1:])

    for parts in rec(list(idx), [], [hole] * players + ([board] if board else [])):
        out[tuple(parts)] += 1
        total += 1
    return {k: v / total for k, v in out.items()}


@pytest.mark.parametrize("ranks,copies,players", [((2, 3, 4), 2, 2), ((2, 3, 4), 3, 3), ((2, 3, 4, 5), 2, 3),
                                                   ((2, 3, 4, 5, 6), 4, 2)])
def test_joint_deals_match_enumeration(ranks, copies, players):
    deck = Deck(ranks, copies)
    hands, types, prob, left = deck.joint_deals(players, 2)
    brute = _enumerate(deck, players, 2, 0)
    got = {tuple(hands[t] for t in row): p for row, p in zip(types, prob)}
    assert set(got) == set(brute)                       # exactly the deals that can happen
    for k, p in brute.items():
        assert got[k] == pytest.approx(p, abs=PROB_ATOL)
    assert prob.sum() == pytest.approx(1.0, abs=PROB_ATOL)
    # cards left: every kind's copies minus those in the hands
    for row, lf in zip(types, left):
        used = Counter(k for t in row for k in hands[t])
        assert all(lf[k] == copies - used[k] for k in range(deck.num_kinds))


@pytest.mark.parametrize("ranks,copies,players", [((2, 3, 4), 2, 2), ((2, 3, 4), 3, 3)])
def test_public_deal_matches_enumeration(ranks, copies, players):
    deck = Deck(ranks, copies)
    hands, types, prob, left = deck.joint_deals(players, 2)
    flops = deck.public_deal(left, 2)
    brute = _enumerate(deck, players, 2, 2)
    got = {}
    for f, pf in flops:
        for row, p, q in zip(types, prob, pf):
            if q > 0:
                got[tuple(hands[t] for t in row) + (f,)] = p * q
    assert set(got) == set(brute)
    for k, p in brute.items():
        assert got[k] == pytest.approx(p, abs=PROB_ATOL)
    total = sum(pf for _, pf in flops)
    np.testing.assert_allclose(total, 1.0, atol=PROB_ATOL)


def test_mercer_single_hand_probabilities():
    # one player: P(pair) = C(4,2)/C(20,2), P(unpaired) = 4*4/C(20,2) (seed §4.2 deck)
    deck = Deck.mercer()
    hands, types, prob, _ = deck.joint_deals(1, 2)
    for row, p in zip(types, prob):
        h = hands[row[0]]
        assert p == pytest.approx((6 if h[0] == h[1] else 16) / math.comb(20, 2), abs=PROB_ATOL)


def test_three_player_mercer_deals_exclude_five_of_a_rank():
    deck = Deck.mercer()
    hands, types, prob, left = deck.joint_deals(3, 2)
    # 15^3 type triples minus those needing five or more copies of one rank
    bad = sum(1 for t in itertools.product(range(15), repeat=3)
              if max(Counter(k for x in t for k in hands[x]).values()) > 4)
    assert len(prob) == 15 ** 3 - bad
    assert (left >= 0).all()


def test_deck_validation():
    with pytest.raises(GutsInputError, match="ranks"):
        Deck((3, 2), 4)
    with pytest.raises(GutsInputError, match="copies"):
        Deck((2, 3), 0)
    with pytest.raises(GutsInputError, match="cannot deal"):
        Deck((2, 3), 1).joint_deals(2, 2)


def test_suited_deck_labels_and_sizes():
    deck = Deck((2, 3), 1, suits=2)
    assert deck.size == 4 and deck.num_kinds == 4
    assert [deck.hand_label(h) for h in deck.hands(2)] == ["2s2h", "2s3s", "2s3h", "2h3s", "2h3h", "3s3h"]
