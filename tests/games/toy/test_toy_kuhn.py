"""Kuhn poker (2 and 3 players) against OpenSpiel: same information sets, same NashConv."""
import numpy as np
import pytest

from guts.engine.extensive import expected_values, nash_conv, solve_lp, uniform_strategy
from guts.games.toy import kuhn_poker
from guts.errors import GutsInputError

OPENSPIEL_TOL = 1e-9


def to_openspiel_policy(game, strategies, os_game):
    """TabularPolicy from our strategies: OpenSpiel's Kuhn info state is '<card><p/b...>'."""
    from open_spiel.python import policy as os_policy

    pol = os_policy.TabularPolicy(os_game)
    for key, idx in pol.state_lookup.items():
        card, hist = int(key[0]), tuple(key[1:])
        player = len(hist) % game.num_players
        pol.action_probability_array[idx] = strategies[player][hist][card]
    return pol


def random_profile(game, rng):
    out = []
    for p in range(game.num_players):
        out.append({h: rng.dirichlet(np.ones(len(labs)), size=game.num_types[p])
                    for h, labs in game.action_labels(p).items()})
    return tuple(out)


@pytest.mark.parametrize("players", [2, 3])
def test_nash_conv_equals_openspiel(players):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl

    g = kuhn_poker(players)
    osg = pyspiel.load_game("kuhn_poker", {"players": players})
    rng = np.random.default_rng(players)
    profiles = [uniform_strategy(g)] + [random_profile(g, rng) for _ in range(4)]
    for s in profiles:
        ours = nash_conv(g, s)
        theirs = os_expl.nash_conv(osg, to_openspiel_policy(g, s, osg))
        assert abs(ours - theirs) <= OPENSPIEL_TOL
        assert ours > 0.0


def test_lp_strategies_unexploitable_for_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl

    g = kuhn_poker(2)
    r = solve_lp(g)
    osg = pyspiel.load_game("kuhn_poker")
    assert os_expl.exploitability(osg, to_openspiel_policy(g, r.strategies, osg)) <= OPENSPIEL_TOL


def test_zero_sum_and_symmetric_deal():
    g = kuhn_poker(3)
    assert g.zero_sum
    np.testing.assert_allclose(g.deals.prob.sum(), 1.0)
    assert abs(expected_values(g, uniform_strategy(g)).sum()) < 1e-14


def test_bad_player_count():
    with pytest.raises(GutsInputError, match="players"):
        kuhn_poker(4)


def test_cfr_plus_matches_openspiel_iteration_for_iteration():
    # same algorithm (RM+, alternating updates, linear averaging): same average policy
    pyspiel = pytest.importorskip("pyspiel")
    from guts.engine.extensive import cfr_plus

    osg = pyspiel.load_game("kuhn_poker")
    solver = pyspiel.CFRPlusSolver(osg)
    theirs = []
    for i in range(1, 301):
        solver.evaluate_and_update_policy()
        if i % 50 == 0:
            theirs.append(pyspiel.exploitability(osg, solver.average_policy()))
    r = cfr_plus(kuhn_poker(2), max_iterations=300, report_every=50)
    np.testing.assert_allclose([e for _, e, _ in r.history], theirs, rtol=0, atol=OPENSPIEL_TOL)


def test_three_player_cfr_nash_conv_equals_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl
    from guts.engine.extensive import cfr_plus

    g = kuhn_poker(3)
    osg = pyspiel.load_game("kuhn_poker", {"players": 3})
    previous = np.inf
    for iters in (10, 100, 1000):
        r = cfr_plus(g, max_iterations=iters, report_every=iters)
        theirs = os_expl.nash_conv(osg, to_openspiel_policy(g, r.strategies, osg))
        assert abs(r.nash_conv - theirs) <= OPENSPIEL_TOL
        assert r.nash_conv < previous
        previous = r.nash_conv
