"""Hand ranking: the seed's four-card order against an independent ranking, the five-card
evaluator against phevaluator (an independent hold'em evaluator)."""
import itertools

import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.games.poker.mercer import HandEvaluator, holdem_evaluator, mercer_evaluator

from mercer_oracle import rank_hand


def test_mercer_order_matches_oracle_on_every_pair_of_hands():
    ev = mercer_evaluator()
    hands = list(itertools.combinations_with_replacement(range(2, 7), 4))
    hands = [h for h in hands if max(h.count(r) for r in h) <= 4]
    s = {h: ev.strength(h) for h in hands}
    o = {h: rank_hand(list(h)) for h in hands}
    for a, b in itertools.combinations(hands, 2):
        assert np.sign(s[a] - s[b]) == np.sign((o[a] > o[b]) - (o[a] < o[b])), (a, b)


def test_mercer_categories_in_the_seed_order():
    # footnote 4: high card < one pair < two pair < three of a kind < four of a kind
    ev = mercer_evaluator()
    ladder = [(6, 5, 4, 2), (2, 2, 3, 4), (2, 2, 3, 3), (2, 2, 2, 3), (2, 2, 2, 2)]
    vals = [ev.strength(h) for h in ladder]
    assert vals == sorted(vals) and len(set(vals)) == 5
    assert [ev.category(v) for v in vals] == ["high card", "pair", "two pair", "three of a kind", "four of a kind"]
    # ties: same ranks in any order
    assert ev.strength((5, 3, 5, 2)) == ev.strength((2, 5, 3, 5))


def test_best_of_more_cards():
    ev = HandEvaluator(4)
    # from 2 3 3 6 6: best four cards are 3 3 6 6 (two pair)
    assert ev.best((2, 3, 3, 6, 6)) == ev.strength((3, 3, 6, 6))
    with pytest.raises(GutsInputError):
        ev.best((2, 3))


def _pheval_available():
    try:
        import phevaluator  # noqa: F401
        return True
    except ImportError:
        return False


@pytest.mark.skipif(not _pheval_available(), reason="phevaluator not installed")
def test_holdem_evaluator_matches_phevaluator():
    from phevaluator import evaluate_cards

    ev = holdem_evaluator()
    rng = np.random.default_rng(4)
    ranks = "23456789TJQKA"
    suits = "shdc"
    deck = [(r, s) for r in range(13) for s in range(4)]
    hands = []
    for _ in range(300):
        idx = rng.choice(52, 7, replace=False)
        cards = [deck[i] for i in idx]
        ours = ev.best([c[0] + 2 for c in cards], [c[1] for c in cards])
        theirs = evaluate_cards(*[ranks[c[0]] + suits[c[1]] for c in cards])   # lower is better
        hands.append((ours, theirs))
    for (a, x), (b, y) in itertools.combinations(hands, 2):
        assert np.sign(a - b) == -np.sign(x - y)
