"""Leduc hold'em against OpenSpiel's leduc_poker: information sets, values, exploitability."""
import numpy as np
import pytest

from guts.engine.extensive import (
    cfr_plus, exploitability, expected_values, nash_conv, solve_lp, uniform_strategy,
)
from guts.games.toy import LEDUC_CARDS, leduc_poker
from guts.engine.extensive import openspiel_link, to_openspiel_policy

OPENSPIEL_TOL = 1e-9



@pytest.fixture(scope="module")
def game():
    return leduc_poker()


@pytest.fixture(scope="module")
def os_game():
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("leduc_poker")


def leduc_link(game, os_game):
    """OpenSpiel's leduc_poker deals each player a card (action = card index = our type),
    then its actions 0, 1, 2 are fold, call, raise and the board card is its index."""
    cards = game.deals.type_labels[0]
    return openspiel_link(
        game, os_game, deal_types=lambda dealt: dealt,
        label=lambda state, a: cards[a] if state.is_chance_node() else "fcr"[a])


@pytest.fixture(scope="module")
def link(game, os_game):
    return leduc_link(game, os_game)


@pytest.fixture(scope="module")
def info_map(link):
    """OpenSpiel information-state string -> (player, our history, our type)."""
    return link.infosets


_LINKS = {}


def to_policy(game, strategies, os_game, info_map):
    key = (id(game), id(os_game))
    if key not in _LINKS:
        _LINKS[key] = (game, os_game, leduc_link(game, os_game))   # keep both alive: ids stay unique
    return to_openspiel_policy(game, strategies, os_game, link=_LINKS[key][2])


def random_profile(game, rng):
    return tuple({h: rng.dirichlet(np.full(len(labs), 0.5), size=game.num_types[p])
                  for h, labs in game.action_labels(p).items()} for p in range(2))


def test_information_sets_map_one_to_one(game, info_map):
    # every OpenSpiel info state is one (decision node, card) of ours, and every
    # (decision node, card) with positive reach probability is one OpenSpiel info state
    assert len(info_map) == 936
    ours = set()
    for p in range(2):
        for h in game.decision_histories(p):
            board = [x for x in h if x in LEDUC_CARDS]
            for c in range(6):
                if not board or board[0] != LEDUC_CARDS[c]:
                    ours.add((p, h, c))
    assert ours == set(info_map.values())


def test_lp_strategies_unexploitable_for_openspiel(game, os_game, info_map):
    from open_spiel.python.algorithms import exploitability as os_expl
    from open_spiel.python.algorithms import expected_game_score

    r = solve_lp(game)
    assert r.converged and r.exploitability <= OPENSPIEL_TOL
    pol = to_policy(game, r.strategies, os_game, info_map)
    assert os_expl.exploitability(os_game, pol) <= OPENSPIEL_TOL
    theirs = expected_game_score.policy_value(os_game.new_initial_state(), [pol, pol])
    np.testing.assert_allclose(r.values, theirs, atol=OPENSPIEL_TOL)
    assert r.value < 0  # the second player has the edge in Leduc


def test_exploitability_equals_openspiel_on_random_policies(game, os_game, info_map):
    from open_spiel.python.algorithms import exploitability as os_expl

    rng = np.random.default_rng(2024)
    profiles = [uniform_strategy(game)] + [random_profile(game, rng) for _ in range(3)]
    for s in profiles:
        pol = to_policy(game, s, os_game, info_map)
        assert abs(exploitability(game, s) - os_expl.exploitability(os_game, pol)) <= OPENSPIEL_TOL
        assert abs(nash_conv(game, s) - os_expl.nash_conv(os_game, pol)) <= OPENSPIEL_TOL


def test_cfr_plus_follows_openspiel_cfr_plus(game, os_game):
    # same algorithm, same arithmetic up to rounding: identical for the first iterations
    # (later the clipping at zero of RM+ lets rounding differences grow)
    pyspiel = pytest.importorskip("pyspiel")
    solver = pyspiel.CFRPlusSolver(os_game)
    theirs = []
    for i in range(1, 31):
        solver.evaluate_and_update_policy()
        if i % 10 == 0:
            theirs.append(pyspiel.exploitability(os_game, solver.average_policy()))
    r = cfr_plus(game, max_iterations=30, report_every=10)
    np.testing.assert_allclose([e for _, e, _ in r.history], theirs, rtol=0, atol=OPENSPIEL_TOL)


def test_zero_sum_structure(game):
    assert game.zero_sum
    assert game.num_types == (6, 6) and game.compiled.num_deals == 30
    np.testing.assert_allclose(expected_values(game, uniform_strategy(game)).sum(), 0.0, atol=1e-14)


@pytest.mark.slow
def test_three_player_leduc_nash_conv_equals_openspiel():
    # the n-player rules (fold order, round ends, split pots) against OpenSpiel's
    # leduc_poker(players=3); ~2 min, mostly OpenSpiel's Python best response
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl

    g = leduc_poker(3)
    osg = pyspiel.load_game("leduc_poker", {"players": 3})
    r = cfr_plus(g, max_iterations=50)
    pol = to_openspiel_policy(g, r.strategies, osg, link=leduc_link(g, osg))
    assert abs(os_expl.nash_conv(osg, pol) - r.nash_conv) <= OPENSPIEL_TOL
