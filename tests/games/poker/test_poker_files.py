"""Poker descriptions and ACPC game definitions, built as public trees, against OpenSpiel's
``universal_poker`` on the same ACPC definitions (its own builder and evaluator): LP
values and NashConv of random policies equal to 1e-9; a TOML file and its ACPC twin give
the same game; bad files end in one clear message."""
import numpy as np
import pytest

from guts.engine.extensive import (
    expected_values, from_openspiel, nash_conv, openspiel_link, solve_lp, to_openspiel_policy,
)
from guts.errors import GutsInputError
from guts.games.poker import PokerSpec, acpc_text, hand_rank, load_poker, read_acpc, read_poker

TOL = 1e-9
LEDUC = """GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""
LEDUC_TOML = """
name = "leduc"
players = 2
blinds = [1, 1]
[deck]
ranks = 3
suits = 2
[[rounds]]
hole_cards = 1
raise_size = 2
max_raises = 2
[[rounds]]
board_cards = 1
raise_size = 4
max_raises = 2
"""
# two hole cards each (pairs, trips with the board), blinds 1 2, second player first,
# one raise per round (a smaller tree: OpenSpiel's Python walk is the slow part)
TWO_HOLE = LEDUC.replace("numHoleCards = 1", "numHoleCards = 2").replace("blind = 1 1", "blind = 1 2") \
    .replace("firstPlayer = 1 1", "firstPlayer = 1 2").replace("maxRaises = 2 2", "maxRaises = 1 1")
# three players, 4 cards
THREE = LEDUC.replace("numPlayers = 2", "numPlayers = 3").replace("blind = 1 1", "blind = 1 1 1") \
    .replace("numRanks = 3", "numRanks = 2").replace("maxRaises = 2 2", "maxRaises = 1 1")


def universal(text):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(text)


def link(game, osg):
    """universal_poker deals hole cards as chance actions = ACPC card ids, player by player
    (card i of player p is deal action p * h + i... checked by the link: one OpenSpiel
    information state per (public node, hand)); actions 0, 1, 2 = fold, call, raise."""
    spec = game.poker_spec
    h, n = spec.hole_cards, spec.num_players
    index = {tuple(sorted(hd)): i for i, hd in enumerate(
        __import__("itertools").combinations(range(spec.deck_size), h))}

    def deal_types(dealt):
        return [index[tuple(sorted(dealt[p * h:(p + 1) * h]))] for p in range(n)]

    def label(state, a):
        if state.is_chance_node():
            return state.action_to_string(a).rsplit(" ", 1)[-1]
        return "fcr"[a]
    return openspiel_link(game, osg, deal_types=deal_types, label=label)


def random_profile(g, seed):
    rng = np.random.default_rng(seed)
    return tuple({k: rng.dirichlet(np.full(len(labs), 0.7), size=g.num_types[p])
                  for k, labs in g.action_labels(p).items()} for p in range(g.num_players))


@pytest.mark.parametrize("text", [LEDUC, TWO_HOLE, THREE], ids=["leduc", "two-hole", "three-players"])
def test_nash_conv_of_random_policies_equals_universal_poker(text):
    import pyspiel
    from open_spiel.python import policy as os_policy

    g = load_poker(text)
    osg = universal(text)
    lk = link(g, osg)
    for seed in ((0, 1) if text != TWO_HOLE else (0,)):     # OpenSpiel's Python BR is the slow part
        s = random_profile(g, seed)
        pol = to_openspiel_policy(g, s, link=lk)
        theirs = pyspiel.nash_conv(osg, os_policy.python_policy_to_pyspiel_policy(pol))   # OpenSpiel's C++ BR
        assert nash_conv(g, s) == pytest.approx(theirs, abs=TOL)


@pytest.mark.parametrize("text", [LEDUC], ids=["leduc"])
def test_lp_values_agree_with_universal_poker(text):
    pyspiel = pytest.importorskip("pyspiel")
    g = load_poker(text)
    r = solve_lp(g)
    assert r.converged
    assert r.value == pytest.approx(solve_lp(from_openspiel(universal(text))).value, abs=TOL)
    if text == LEDUC:       # and with OpenSpiel's hand-coded leduc_poker
        assert r.value == pytest.approx(solve_lp(from_openspiel(pyspiel.load_game("leduc_poker"))).value, abs=TOL)


def test_toml_description_and_its_acpc_twin_are_the_same_game(tmp_path):
    (tmp_path / "leduc.toml").write_text(LEDUC_TOML)
    (tmp_path / "leduc.game").write_text(LEDUC)
    a, b = read_poker(str(tmp_path / "leduc.toml")), read_poker(str(tmp_path / "leduc.game"))
    assert (a.num_players, a.ranks, a.suits, a.hole_cards, a.rounds, a.blinds) == \
        (b.num_players, b.ranks, b.suits, b.hole_cards, b.rounds, b.blinds)
    back = read_acpc(acpc_text(a))
    assert (back.rounds, back.blinds, back.ranks, back.suits) == (a.rounds, a.blinds, a.ranks, a.suits)
    ga, gb = load_poker(str(tmp_path / "leduc.toml")), load_poker(str(tmp_path / "leduc.game"))
    s = random_profile(ga, 3)
    assert np.array_equal(expected_values(ga, s), expected_values(gb, s))
    assert ga.decision_histories(0) == gb.decision_histories(0)


def test_hand_ranking_closed_facts():
    def r(*labels, suits=4, ranks=13):
        cards = ["23456789TJQKA".index(x[0]) * suits + "cdhs".index(x[1]) for x in labels]
        return hand_rank(cards, suits, ranks)
    assert r("2c", "2d") > r("Ac", "Kd")                                   # a pair beats high cards
    assert r("Ac", "Kd") > r("Ac", "Qd")                                    # kicker
    assert r("2c", "7c", "9c", "Jc", "Kc") > r("9d", "Tc", "Jh", "Qs", "Kc")  # flush > straight
    assert r("Ac", "2d", "3h", "4s", "5c") < r("2d", "3h", "4s", "5c", "6c")  # the wheel is the lowest straight
    assert r("Ac", "2d", "3h", "4s", "5c") > r("Ac", "Ad", "Kh", "Ks", "Qc")  # but a straight
    assert r("3c", "3d", "3h", "2s", "2c") > r("Ac", "Kc", "Qc", "Jc", "9c")  # full house > flush


@pytest.mark.parametrize("text, match", [
    (LEDUC.replace("limit", "nolimit"), "accepted: limit"),
    (LEDUC.replace("numRanks = 3", "numRanks = 3\nnumBigBlinds = 2"), "unknown key 'numBigBlinds'"),
    (LEDUC.replace("numRanks = 3", "numRanks = 1"), "cannot deal"),
    (LEDUC.replace("END GAMEDEF", ""), "END GAMEDEF"),
    (LEDUC.replace("raiseSize = 2 4", "raiseSize = 2 x"), "not a list of numbers"),
    (LEDUC.replace("firstPlayer = 1 1", "firstPlayer = 3 1"), "firstPlayer"),
    (LEDUC_TOML.replace("ranks = 3", "ranks = 3\ncolour = 1"), "unknown key"),
    (LEDUC_TOML.replace("ranks = 3", "ranks = 1"), "cannot deal"),
    (LEDUC_TOML.replace("max_raises = 2\n[[rounds]]", "max_raises = 2\nbets = 1\n[[rounds]]"),
     "bets and check are fixed betting"),        # a fixed-betting key in a limit game
    (LEDUC_TOML.replace("ranks = 3", "ranks = 3\ncolour = 1").replace("[deck]", "[table]"), "unknown key"),
    (LEDUC_TOML.replace("[deck]", "[deck"), "not valid TOML"),
    ("/no/such/file.game", "cannot read"),
])
def test_bad_files_one_clear_message(text, match):
    with pytest.raises(GutsInputError, match=match) as exc:
        load_poker(text)
    assert "\n" not in str(exc.value)
    assert isinstance(PokerSpec, type)


def test_the_issue_entry_point_loads_leduc_by_name(tmp_path, monkeypatch):
    """``load_poker("leduc.game")`` (the documented entry point) from a folder without such a file reads the
    shipped ACPC definition; its exact LP value is Leduc's, as the hand-built toy game gives it."""
    from guts.engine.extensive import solve_lp
    from guts.games.toy import leduc_poker

    monkeypatch.chdir(tmp_path)
    assert read_poker("leduc.game") == read_acpc(LEDUC)
    assert abs(solve_lp(load_poker("leduc.game")).value - solve_lp(leduc_poker()).value) < TOL
