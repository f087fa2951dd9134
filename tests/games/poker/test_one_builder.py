"""Every poker description is built by the one hold'em-like builder (``builder.build_game``):
limit (ACPC) descriptions through the rules' ``"acpc"`` betting model, per-seat blinds,
card-by-card dealing and :class:`CardRanking`, whose integer strengths must order hands
exactly as the ranking's tuples do."""
from __future__ import annotations

import itertools
import random

import pytest

from guts.errors import GutsInputError
from guts.games.poker import hand_rank, load_poker, poker_rules, read_poker
from guts.games.poker.cards import Deck
from guts.games.poker.evaluators import CardRanking, three_card_rank
from guts.games.poker.rules import Round, Rules

SAMPLES = 400


def _sign(x):
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("kind, rank, sizes", [("acpc", hand_rank, (1, 2, 3, 4, 5, 6, 7)),
                                               ("rhode_island", three_card_rank, (3, 4, 5))])
def test_card_ranking_orders_as_the_tuples(kind, rank, sizes):
    ev = CardRanking(kind, 13)
    rng = random.Random(7)
    for _ in range(SAMPLES):
        k = rng.choice(sizes)
        a, b = rng.sample(range(52), k), rng.sample(range(52), k)
        ta, tb = rank(a, 4, 13), rank(b, 4, 13)
        ia = ev.best([2 + c // 4 for c in a], [c % 4 for c in a])
        ib = ev.best([2 + c // 4 for c in b], [c % 4 for c in b])
        assert _sign(ia - ib) == _sign((ta > tb) - (ta < tb))


def test_card_ranking_orders_every_short_hand_of_a_small_deck():
    # every two-card hand of a 3-rank, 2-suit deck against every other (ties included)
    ev = CardRanking("acpc", 3)
    hands = list(itertools.combinations(range(6), 2))
    for a, b in itertools.product(hands, repeat=2):
        ta, tb = hand_rank(a, 2, 3), hand_rank(b, 2, 3)
        ia = ev.best([2 + c // 2 for c in a], [c % 2 for c in a])
        ib = ev.best([2 + c // 2 for c in b], [c % 2 for c in b])
        assert (ia > ib, ia == ib) == (ta > tb, ta == tb)


@pytest.mark.parametrize("name", ["leduc.game", "rhode_island", "mercer_smh"])
def test_every_description_goes_through_the_builder(name):
    spec = read_poker(name)
    rules = poker_rules(spec)
    model = "fixed" if spec.betting == "fixed" else "acpc"
    assert all(r.betting == model for r in rules.rounds)
    assert rules.dealing == ("board" if model == "fixed" else "cards")
    if name == "rhode_island":
        return                                           # 2.7 million states: the rules suffice
    g = load_poker(name)
    assert g.built.rules == rules
    assert g.built.stats.public_states == g.size.public_nodes
    assert g.built.hands == g.deals.type_labels[0]


def test_leduc_labels_are_the_acpc_letters_and_cards():
    g = load_poker("leduc.game")
    assert set(g.root.actions) == {"c", "r"}             # blinds equal: nothing to call, no fold
    node = g.root.actions["c"].actions["c"]              # both check: the board card comes
    assert sorted(node.outcomes) == sorted(f"{r}{s}" for r in "234" for s in "cd")


def test_acpc_rules_are_all_or_nothing():
    deck = Deck((2, 3, 4), 1, 2, suit_chars="cdhs")
    acpc = Round(hole_cards=1, bets=(2.0,), betting="acpc", max_raises=2)
    fixed = Round(shared_cards=1, orbits=1)
    with pytest.raises(GutsInputError, match="every round or none"):
        Rules(deck, (acpc, fixed), CardRanking("acpc", 3), 2, dealing="cards")
    with pytest.raises(GutsInputError, match="blinds"):
        Rules(Deck(), (Round(ante=1, hole_cards=2, orbits=1), Round(shared_cards=2)), blinds=(1, 1))
    with pytest.raises(GutsInputError, match="one at a time"):
        Rules(deck, (acpc,), CardRanking("acpc", 3), 2, dealing="board")
