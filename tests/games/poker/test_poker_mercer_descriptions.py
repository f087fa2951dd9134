"""Mercer hold'em as poker descriptions: the shipped ``mercer_smh.toml`` and
``mercer_mmh.toml`` build the same game as :mod:`guts.games.poker.mercer` (Ullman 2015,
"Solving Mercer Hold'em", §4.2) for 2 and 3 players: same sizes, same NashConv of random
policies to 1e-12, and the 2-player LP values of the study (2P-SMH −0.104194, printed −0.1
by the thesis; 2P-MMH −0.419302, printed −0.4); the fixed-betting options (check, several
bet sizes) translate into the same rules; bad descriptions end in one clear message."""
import numpy as np
import pytest

from guts.engine.extensive import nash_conv, solve_lp
from guts.errors import GutsInputError
from guts.games.poker import acpc_text, descriptions, load_poker, read_poker
from guts.games.poker.cards import Deck
from guts.games.poker.mercer import build_game, mmh_rules, smh_rules

TOL = 1e-12


def random_profile(g, seed):
    rng = np.random.default_rng(seed)
    return tuple({k: rng.dirichlet(np.full(len(labs), 0.7), size=g.num_types[p])
                  for k, labs in g.action_labels(p).items()} for p in range(g.num_players))


def test_descriptions_are_shipped():
    assert {"mercer_smh", "mercer_mmh"} <= set(descriptions())


@pytest.mark.parametrize("variant, rules", [("smh", smh_rules), ("mmh", mmh_rules)])
@pytest.mark.parametrize("players", [2, 3])
def test_description_builds_the_mercer_game(variant, rules, players):
    g = load_poker(f"mercer_{variant}", players=players)
    ref = build_game(rules(players))
    assert g.built.stats == ref.stats and g.built.hands == ref.hands
    ours, theirs = g.built.stats, ref.stats
    assert (ours.public_states, ours.info_sets, ours.deals) == (theirs.public_states, theirs.info_sets, theirs.deals)
    h = ref.game
    assert g.num_players == h.num_players == players
    assert tuple(g.num_types) == tuple(h.num_types)
    for p in range(players):
        assert g.action_labels(p) == h.action_labels(p)
    for seed in (0, 1):
        s = random_profile(h, seed)
        assert nash_conv(g, s) == pytest.approx(nash_conv(h, s), abs=TOL)
        assert nash_conv(g, s) > 1e-3        # a random profile is far from equilibrium


@pytest.mark.parametrize("name, value", [("mercer_smh", -0.104194), ("mercer_mmh", -0.419302)])
def test_two_player_lp_values_of_the_descriptions(name, value):
    r = solve_lp(load_poker(name))
    assert r.converged
    assert r.value == pytest.approx(value, abs=5e-7)      # docs/mercer.md, printed to 6 decimals


def test_description_by_path_and_by_text_equal_by_name(tmp_path):
    from guts.games.poker import DESCRIPTIONS

    text = (DESCRIPTIONS / "mercer_smh.toml").read_text()
    (tmp_path / "smh.toml").write_text(text)
    by_name = read_poker("mercer_smh")
    assert read_poker(str(tmp_path / "smh.toml")) == by_name == read_poker(text)
    assert (by_name.ranks, by_name.suits, by_name.copies, by_name.deck_size) == (5, 0, 4, 20)


def test_check_and_several_bet_sizes_translate_to_the_same_rules():
    text = """
betting = "fixed"
evaluator = "mercer"
[deck]
ranks = 4
suits = 0
copies = 3
[[rounds]]
ante = 1
hole_cards = 2
bets = [2, 4]
check = true
[[rounds]]
board_cards = 2
"""
    g = load_poker(text)
    ref = build_game(smh_rules(2, Deck((2, 3, 4, 5), 3), check=True, bets=(2.0, 4.0)))
    assert g.built.stats == ref.stats
    # the fixed model (rules.py): bet 2, bet 4, check or fold, whatever the others put in
    assert sorted(g.action_labels(0)[()]) == ["b2", "b4", "f", "k"]
    s = random_profile(ref.game, 5)
    assert nash_conv(g, s) == pytest.approx(nash_conv(ref.game, s), abs=TOL)


@pytest.mark.parametrize("text, match", [
    ('betting = "fixed"\n[[rounds]]\nhole_cards = 2\nbets = [4]\nraise_size = 2\n', "limit betting"),
    ('[deck]\nranks = 5\nsuits = 2\n[[rounds]]\nhole_cards = 1\nbets = [4]\n', "fixed betting"),
    ('betting = "fixed"\nevaluator = "omaha"\n[[rounds]]\nhole_cards = 2\nbets = [4]\n', "evaluator"),
    ('betting = "pot"\n[[rounds]]\nhole_cards = 2\n', "betting"),
    ('betting = "fixed"\n[deck]\nranks = 5\nsuits = 0\ncopies = 4\n[[rounds]]\nhole_cards = 2\nbets = [4]\n'
     '[[rounds]]\nboard_cards = 1\n', "4-card hand"),
    ('betting = "fixed"\n[deck]\nranks = 2\nsuits = 0\ncopies = 1\n[[rounds]]\nhole_cards = 2\nbets = [4]\n'
     '[[rounds]]\nboard_cards = 2\n', "deck of 2 cards"),
    ('betting = "fixed"\n[[rounds]]\nhole_cards = 2\norbits = 1\n[[rounds]]\nboard_cards = 2\n', "no bets"),
])
def test_bad_fixed_descriptions_one_clear_message(text, match):
    with pytest.raises(GutsInputError, match=match):
        load_poker(text)


def test_bad_name_and_player_override():
    with pytest.raises(GutsInputError, match="mercer_smh"):        # lists the shipped names
        load_poker("mercer_xyz")
    with pytest.raises(GutsInputError, match="players 1"):
        load_poker("mercer_smh", players=1)
    with pytest.raises(GutsInputError, match="225 private deals exceed max_deals=100"):   # 15 x 15 hands
        load_poker("mercer_smh", max_deals=100)
    with pytest.raises(GutsInputError, match="ACPC form"):
        acpc_text(read_poker("mercer_smh"))
