"""The 7-card evaluator against published hand counts and an independent evaluator."""
import itertools

import numpy as np
import pytest

from guts.games.holdem.evaluator import CATEGORIES, CATEGORY_SHIFT, evaluate, evaluate_many

phevaluator = pytest.importorskip("phevaluator")
from phevaluator import _pheval  # noqa: E402  (C evaluator: perfect hash, smaller = better)

# Number of 5-card poker hands per category out of C(52, 5) = 2,598,960 (standard
# combinatorics, e.g. Wikipedia "Poker probability"), and 7,462 distinct hand values.
FIVE_CARD_COUNTS = {
    "straight flush": 40, "quads": 624, "full house": 3744, "flush": 5108, "straight": 10200,
    "trips": 54912, "two pair": 123552, "pair": 1098240, "high card": 1302540,
}


def test_all_five_card_hands_category_counts_and_distinct_values():
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    s = evaluate_many(hands)
    cats = np.bincount(s >> CATEGORY_SHIFT, minlength=9)
    assert {CATEGORIES[k]: int(cats[k]) for k in range(9)} == FIVE_CARD_COUNTS
    assert len(np.unique(s)) == 7462


def test_seven_card_order_agrees_with_phevaluator():
    rng = np.random.default_rng(20240512)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(60000)], dtype=np.int64)
    mine = evaluate_many(hands)
    theirs = np.array([_pheval.evaluate_7cards(*map(int, h)) for h in hands])
    order = np.argsort(mine, kind="stable")
    dm, dt = np.diff(mine[order]), np.diff(theirs[order])
    assert np.all(dt[dm > 0] < 0)      # strictly better for us  <=> strictly better for phevaluator
    assert np.all(dt[dm == 0] == 0)    # ties are ties


@pytest.mark.parametrize("better,worse", [
    (("As", "2s", "3s", "4s", "5s", "Kd", "Kh"), ("Ks", "Kc", "Kd", "Kh", "Qs", "2d", "3d")),  # steel wheel > quads
    (("Ah", "2d", "3c", "4s", "5h", "9d", "Jc"), ("Ah", "Ad", "Ac", "Ks", "Qh", "9d", "2c")),  # wheel > trips
    (("6h", "2d", "3c", "4s", "5h", "9d", "Jc"), ("Ah", "2d", "3c", "4s", "5h", "9d", "Jc")),  # 6-high > wheel
    (("Ah", "Ad", "Kc", "Ks", "2h", "2d", "Qc"), ("Ah", "Ad", "Kc", "Ks", "2h", "2d", "Jc")),  # the kicker, not the third pair
])
def test_classic_comparisons(better, worse):
    from guts.games.holdem.cards import parse_card

    assert evaluate(*map(parse_card, better)) > evaluate(*map(parse_card, worse))
