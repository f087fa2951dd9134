"""Engine games exported to OpenSpiel by ``to_openspiel_game``: OpenSpiel's own algorithms
(``exploitability.nash_conv``, ``expected_game_score.policy_value``) on the exported game
and the exported policy are the oracle for the package's NashConv and values, and where
OpenSpiel has the game itself (Kuhn, Leduc) the exported game is checked against it."""
import numpy as np
import pytest

import guts
from guts.engine.extensive import (
    ExplicitGame, cfr_plus, efg_text, expected_values, from_openspiel, nash_conv, openspiel_link, read_efg,
    solve_lp, to_openspiel_game, to_openspiel_policy,
)
from guts.errors import GutsInputError
from guts.games.poker.mercer import Deck, build_game, variant_rules
from guts.games.toy import kuhn_poker, leduc_poker

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import expected_game_score, exploitability as os_expl  # noqa: E402

#: Agreement of OpenSpiel's evaluation with the package's (both exact up to rounding).
OPENSPIEL_TOL = 1e-9
#: Kuhn poker's value to player 1 (Kuhn, *A simplified two-person poker*, 1950).
KUHN_VALUE = -1.0 / 18.0
#: A three-player Mercer hold'em small enough for OpenSpiel's Python best response (a few
#: seconds): Multiround Mercer hold'em, no check, on a nine-card deck (ranks 2-4, three of each).
SMALL_MMH3 = dict(variant="mmh", num_players=3, deck=Deck(ranks=(2, 3, 4), copies=3))


def their_values(os_game, policy, n):
    return np.asarray(expected_game_score.policy_value(os_game.new_initial_state(), [policy] * n))


def assert_openspiel_agrees(game, strategies, os_game, pol=None):
    """OpenSpiel's NashConv and values of the exported policy ``pol`` (default: exported
    here) are the package's."""
    pol = to_openspiel_policy(game, strategies, os_game) if pol is None else pol
    assert os_expl.nash_conv(os_game, pol) == pytest.approx(nash_conv(game, strategies), abs=OPENSPIEL_TOL)
    np.testing.assert_allclose(their_values(os_game, pol, game.num_players), expected_values(game, strategies),
                               rtol=0, atol=OPENSPIEL_TOL)
    return pol


def random_profile(game, seed):
    rng = np.random.default_rng(seed)
    return tuple({h: rng.dirichlet(np.full(len(labs), 0.5), size=game.num_types[p])
                  for h, labs in game.action_labels(p).items()} for p in range(game.num_players))


# ------------------------------------------------------------------ (a) Kuhn and Leduc
def test_kuhn_exported_has_kuhns_value_under_the_lp():
    g = kuhn_poker()
    os_game, link = to_openspiel_game(g)
    r = solve_lp(g)
    assert r.value == pytest.approx(KUHN_VALUE, abs=OPENSPIEL_TOL)
    pol = to_openspiel_policy(g, r.strategies, os_game, link=link)
    assert their_values(os_game, pol, 2)[0] == pytest.approx(KUHN_VALUE, abs=OPENSPIEL_TOL)
    assert os_expl.nash_conv(os_game, pol) == pytest.approx(nash_conv(g, r.strategies), abs=OPENSPIEL_TOL)
    # OpenSpiel's own Kuhn poker, imported, has the same LP value
    assert solve_lp(from_openspiel("kuhn_poker")).value == pytest.approx(r.value, abs=OPENSPIEL_TOL)


def test_leduc_exported_is_openspiels_leduc():
    """The package's Leduc, exported, and OpenSpiel's leduc_poker give every profile the same
    values and NashConv; the LP value is the same on both."""
    g = leduc_poker()
    os_game, _ = to_openspiel_game(g)
    theirs = pyspiel.load_game("leduc_poker")
    cards = g.deals.type_labels[0]
    their_link = openspiel_link(g, theirs, deal_types=lambda dealt: dealt,
                                label=lambda state, a: cards[a] if state.is_chance_node() else "fcr"[a])
    r = solve_lp(g)
    for s in (r.strategies, random_profile(g, 1)):
        pol = assert_openspiel_agrees(g, s, os_game)
        their_pol = to_openspiel_policy(g, s, theirs, link=their_link)
        np.testing.assert_allclose(their_values(os_game, pol, 2), their_values(theirs, their_pol, 2),
                                   rtol=0, atol=OPENSPIEL_TOL)
        assert os_expl.nash_conv(os_game, pol) == pytest.approx(os_expl.nash_conv(theirs, their_pol),
                                                               abs=OPENSPIEL_TOL)
    assert solve_lp(from_openspiel(theirs)).value == pytest.approx(r.value, abs=OPENSPIEL_TOL)


# ------------------------------------------------------------------ (b) 3-player Mercer hold'em
@pytest.fixture(scope="module")
def mmh3():
    rules = variant_rules(SMALL_MMH3["variant"], SMALL_MMH3["num_players"], deck=SMALL_MMH3["deck"])
    g = build_game(rules).game
    return g, to_openspiel_game(g)[0]


def test_a_three_player_mercer_solution_saves_reloads_and_exports(mmh3, tmp_path):
    """CFR+ on 3-player Mercer hold'em, saved and reloaded (certificate re-checked), exported:
    OpenSpiel's NashConv and values of the policy are the package's."""
    g, os_game = mmh3
    assert g.num_players == 3
    r = cfr_plus(g, max_iterations=20)
    back = guts.load_solution(r.save(tmp_path / "mmh3.npz"), game=g)
    assert_openspiel_agrees(g, back.strategies, os_game, back.to_openspiel_policy(g, os_game))
    assert nash_conv(g, back.strategies) == pytest.approx(back.nash_conv, abs=OPENSPIEL_TOL)


# ------------------------------------------------------------------ (d) a Gambit .efg game
@pytest.mark.parametrize("name", ["leduc", "kuhn3"])
def test_an_efg_game_solved_saved_reloaded_and_exported(name, tmp_path):
    path = tmp_path / f"{name}.efg"
    path.write_text(efg_text(leduc_poker() if name == "leduc" else kuhn_poker(3)))
    g = read_efg(path)
    assert isinstance(g, ExplicitGame)
    os_game, link = to_openspiel_game(g)
    solved = [cfr_plus(g, max_iterations=40)] + ([solve_lp(g)] if name == "leduc" else [])
    for r in solved:
        back = guts.load_solution(r.save(tmp_path / f"{name}.npz"), game=g)     # certificate re-checked
        assert_openspiel_agrees(g, back.strategies, os_game, back.to_openspiel_policy(g, os_game, link=link))
        assert nash_conv(g, back.strategies) == pytest.approx(back.nash_conv, abs=OPENSPIEL_TOL)
        np.testing.assert_allclose(expected_values(g, back.strategies), back.values, rtol=0, atol=OPENSPIEL_TOL)
    if name == "leduc":     # the LP's value is Leduc's, read from the file or built
        assert solved[1].value == pytest.approx(solve_lp(leduc_poker()).value, abs=OPENSPIEL_TOL)


# ------------------------------------------------------------------ the game itself
def test_information_sets_are_the_engines():
    g = kuhn_poker(3)
    os_game, link = to_openspiel_game(g)
    rows = {(p, h, t) for p in range(g.num_players) for h in g.decision_histories(p)
            for t in range(g.num_types[p])}
    assert set(link.infosets.values()) == rows
    from open_spiel.python import policy as os_policy
    assert set(os_policy.TabularPolicy(os_game).state_lookup) == set(link.infosets)
    assert os_game.num_players() == 3 and os_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_the_registered_name_loads_the_same_game():
    g = kuhn_poker()
    os_game, _ = to_openspiel_game(g, name="guts_test_kuhn")
    again = pyspiel.load_game("guts_test_kuhn")
    s = random_profile(g, 3)
    assert os_expl.nash_conv(again, to_openspiel_policy(g, s, again)) == pytest.approx(
        os_expl.nash_conv(os_game, to_openspiel_policy(g, s, os_game)), abs=OPENSPIEL_TOL)


def test_a_general_sum_game_exports():
    from guts.engine.extensive import ExplicitChance, ExplicitDecision, ExplicitTerminal

    leaf = {a: ExplicitTerminal([1.0 + i, 2.0 * i]) for i, a in enumerate("xy")}
    root = ExplicitChance({"h": (0.25, ExplicitDecision(0, "I", leaf)), "t": (0.75, ExplicitDecision(0, "I", leaf))})
    g = ExplicitGame(ExplicitDecision(1, "J", {"l": root, "r": ExplicitTerminal([0.0, 5.0])}), 2)
    assert not g.zero_sum
    os_game, _ = to_openspiel_game(g)
    assert_openspiel_agrees(g, random_profile(g, 4), os_game)


def test_games_over_the_budget_are_refused_in_one_line():
    g = leduc_poker()
    with pytest.raises(GutsInputError, match="max_histories=1,000") as e:
        to_openspiel_game(g, max_histories=1000)
    assert "\n" not in str(e.value)
    for bad in (0, -1, 1.5, True, "10"):
        with pytest.raises(GutsInputError, match="max_histories"):
            to_openspiel_game(g, max_histories=bad)
    with pytest.raises(GutsInputError, match="PublicTreeGame or an ExplicitGame"):
        to_openspiel_game(object())
    with pytest.raises(GutsInputError, match="name"):
        to_openspiel_game(g, name="kuhn(players=3)")
