"""CFR+ / DCFR, fictitious play and pooling on games whose answers are known by hand."""
import numpy as np
import pytest

from guts.engine.extensive import (
    Deals, Decision, PublicTreeGame, Terminal, cfr_plus, expected_values,
    fictitious_play, nash_conv, pool, uniform_strategy,
)
from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.toy import kuhn_poker

from test_extensive_tree import half_street

KUHN_VALUE = -1.0 / 18.0


@pytest.mark.parametrize("variant", ["cfr+", "dcfr"])
def test_cfr_converges_on_kuhn(variant):
    g = kuhn_poker(2)
    r = cfr_plus(g, max_iterations=2000, variant=variant, report_every=100)
    expl = [e for _, e, _ in r.history]
    # CFR+ on Kuhn is not monotone (OpenSpiel's CFRPlusSolver shows the same trace)
    assert expl[-1] < 1e-4 and expl[-1] < expl[0] / 10 and max(expl[10:]) < max(expl[:10])
    # |value - v*| <= exploitability bound: the BR values bracket the game value
    assert r.br_values[1] * -1 <= KUHN_VALUE + 1e-12 <= r.br_values[0] + 1e-12
    assert abs(r.value - KUHN_VALUE) <= 2 * r.exploitability
    # an iteration budget alone certifies nothing at a target: not "converged"
    assert not r.converged and r.num_iter == 2000 and r.method == variant


def test_cfr_target_and_warning():
    g = kuhn_poker(2)
    r = cfr_plus(g, target=1e-2, report_every=5)
    assert r.converged and r.exploitability <= 1e-2 and r.num_iter % 5 == 0
    with pytest.warns(ConvergenceWarning):
        r = cfr_plus(g, max_iterations=3, target=1e-9)
    assert not r.converged
    with pytest.raises(GutsInputError, match="variant"):
        cfr_plus(g, variant="cfr")


def test_cfr_three_player_nash_conv_falls():
    g = kuhn_poker(3)
    nc = [cfr_plus(g, max_iterations=k).nash_conv for k in (10, 100, 1000)]
    assert nc[0] > nc[1] > nc[2] and nc[2] < 1e-3


def test_fictitious_play_first_iterations_by_hand():
    # half-street toy (see test_extensive_lp): s^0 uniform; r^0 = (P0 always bets,
    # P1 calls) so s^1 = r^0; regrets derived by hand at t = 0, 1, 2:
    # t=0: P0 BR 1/2 vs value 1/4, P1 BR 0 vs -1/4; t=1: P0 BR 1/2 vs 0, P1 0 vs 0;
    # t=2 (P0 bluffs L half the time, P1 calls): P0 1/2 vs 1/4, P1 0.
    g = half_street()
    with pytest.warns(ConvergenceWarning):
        r = fictitious_play(g, target=1e-6, max_iterations=2)
    np.testing.assert_allclose(r.regrets, [[0.25, 0.25], [0.5, 0.0], [0.25, 0.0]], atol=1e-15)
    np.testing.assert_allclose(r.strategies[0][()], [[0.5, 0.5], [0.0, 1.0]])
    np.testing.assert_allclose(r.strategies[1][("b",)], [[0.0, 1.0]])


def test_fictitious_play_converges_to_half_street_value():
    r = fictitious_play(half_street(), target=5e-3, max_iterations=20000)
    assert r.converged and np.all(r.regrets[-1] < 5e-3) and np.any(r.regrets[-2] >= 5e-3)
    # |value - 1/3| <= max regret (the BR values bracket the game value)
    assert abs(r.value - 1 / 3) < 5e-3
    assert abs(r.nash_conv - r.regrets[-1].sum()) < 1e-15


def _two_decisions():
    """P0 alone: L (0) or R, then x (1) or y (0); P1 has no move (zero-sum mirror)."""
    return PublicTreeGame(
        Decision(0, {"L": Terminal([0.0, 0.0]),
                     "R": Decision(0, {"x": Terminal([1.0, -1.0]), "y": Terminal([0.0, 0.0])})}),
        Deals([1.0], [[0], [0]]), 2, name="two decisions")


def test_behavioural_averaging_by_hand():
    """The Mercer program's rule: s^t = (s^0 + r^0 + ... + r^{t-1}) / (t + 1) in behaviour at
    every information set. Best response r = (R, x) (value 1) at every t. By hand:
    s^0: P(R) = P(x) = 1/2, u = 1/4; s^1: 3/4, 3/4, u = 9/16; s^2: 5/6, 5/6, u = 25/36.
    (A realisation average with the same weights would give P(x | R) = 5/6 at s^1, u = 5/8;
    the 1/t realisation average gives s^1 = r^0, regret 0.) With epsilon 1/2 the program's
    test fails at s^0 (3/4) and holds at s^1 (7/16): it counts 2 iterations, returns s^2."""
    g = _two_decisions()
    r = fictitious_play(g, target=0.5, averaging="behavioural")
    assert r.num_iter == 2 and r.converged and r.method == "fictitious_play_behavioural"
    np.testing.assert_allclose(r.regrets[:, 0], [3 / 4, 7 / 16, 11 / 36], atol=1e-15)
    np.testing.assert_allclose(r.regrets[:, 1], 0.0, atol=1e-15)
    np.testing.assert_allclose(r.strategies[0][()], [[1 / 6, 5 / 6]])
    np.testing.assert_allclose(r.strategies[0][("R",)], [[5 / 6, 1 / 6]])
    assert abs(r.value - 25 / 36) < 1e-15 and abs(r.nash_conv - 11 / 36) < 1e-15
    c = fictitious_play(g, target=0.5)                       # realisation average, weight 1/t
    assert c.num_iter == 1 and c.converged and c.nash_conv < 1e-15


def test_fictitious_play_action_priority_breaks_ties():
    """P0's two actions pay the same: the first in the game's order by default, the one
    with the smaller key under ``action_priority``; bad options are refused."""
    g = PublicTreeGame(Decision(0, {"a": Terminal([1.0, -1.0]), "b": Terminal([1.0, -1.0])}),
                       Deals([1.0], [[0], [0]]), 2)
    for averaging in ("realisation", "behavioural"):
        d = fictitious_play(g, target=0.1, max_iterations=1, averaging=averaging)
        p = fictitious_play(g, target=0.1, max_iterations=1, averaging=averaging,
                            action_priority=lambda lab: lab != "b")
        assert d.strategies[0][()][0, 0] > d.strategies[0][()][0, 1]
        assert p.strategies[0][()][0, 1] > p.strategies[0][()][0, 0]
    with pytest.raises(GutsInputError, match="averaging"):
        fictitious_play(g, averaging="reach")
    with pytest.raises(GutsInputError, match="action_priority"):
        fictitious_play(g, action_priority=3)


def _sequential_prisoners_dilemma():
    """P0 then P1 choose c/d openly; (c,c)=(3,3), (c,d)=(0,5), (d,c)=(5,0), (d,d)=(1,1)."""
    pay = {"cc": (3, 3), "cd": (0, 5), "dc": (5, 0), "dd": (1, 1)}
    return PublicTreeGame(
        Decision(0, {a: Decision(1, {b: Terminal(np.array(pay[a + b], float)) for b in "cd"})
                     for a in "cd"}),
        Deals([1.0], [[0], [0]]), 2, name="sequential PD")


def test_general_sum_nash_conv_by_hand():
    g = _sequential_prisoners_dilemma()
    assert not g.zero_sum
    coop = ({(): np.array([[1.0, 0.0]])},
            {("c",): np.array([[1.0, 0.0]]), ("d",): np.array([[1.0, 0.0]])})
    # P0 gains 5 - 3 by defecting, P1 gains 5 - 3 by defecting after c
    assert abs(nash_conv(g, coop) - 4.0) < 1e-15
    # every equilibrium: P0 defects, P1 defects after d: values (1, 1)
    r = cfr_plus(g, max_iterations=200)
    np.testing.assert_allclose(r.values, [1.0, 1.0], atol=1e-2)
    assert r.nash_conv < 1e-2


@pytest.mark.parametrize("rule, value", [("sum", 6.0), ("split", 3.0)])
def test_pooled_payoffs_make_the_team_cooperate(rule, value):
    g = pool(_sequential_prisoners_dilemma(), (0, 1), rule=rule)
    # pooled: (c,c) is worth 6 to the team, the best outcome; both play it
    r = cfr_plus(g, max_iterations=200)
    np.testing.assert_allclose(r.values, [value, value], atol=1e-2)
    assert not g.zero_sum  # the PD is general-sum, pooled or not
    f = fictitious_play(g, target=1e-3, max_iterations=1000)
    np.testing.assert_allclose(f.values, [value, value], atol=1e-2)


def _guessing_game():
    """Seat 1 holds a bit (1/2 each); seat 2, who does not see it, guesses it.
    Seats 1 and 2 each win 1 if the guess is right, lose 1 otherwise; seat 0 pays."""
    deals = Deals([0.5, 0.5], [[0, 0], [0, 1], [0, 0]])
    right = np.array([[-2.0, -2.0], [1.0, 1.0], [1.0, 1.0]])
    right[:, 1] *= -1                   # deal 1 (bit 1): guessing "0" is wrong
    wrong = -right
    return PublicTreeGame(Decision(2, {"0": Terminal(right), "1": Terminal(wrong)}), deals, 3)


def test_shared_information_by_hand():
    g = _guessing_game()
    assert g.zero_sum
    # without the bit the guess is a coin flip: every strategy is worth 0 to the team
    r = cfr_plus(pool(g, (1, 2)), max_iterations=50)
    np.testing.assert_allclose(r.values, [0.0, 0.0, 0.0], atol=1e-12)
    shared = pool(g, (1, 2), share_information=True)
    assert shared.num_types[2] == 2 and shared.deals.type_labels[2] == ("0|0", "1|0")
    r = cfr_plus(shared, max_iterations=50)
    # seeing the bit, seat 2 always guesses right: +1 each for the team, -2 for seat 0
    np.testing.assert_allclose(r.values, [-2.0, 1.0, 1.0], atol=5e-3)
    np.testing.assert_allclose(r.strategies[2][()], [[1.0, 0.0], [0.0, 1.0]], atol=5e-3)


def test_pool_bad_input():
    g = kuhn_poker(3)
    with pytest.raises(GutsInputError, match="team"):
        pool(g, (1, 3))
    with pytest.raises(GutsInputError, match="team"):
        pool(g, (1, 1))
    with pytest.raises(GutsInputError, match="rule"):
        pool(g, (1, 2), rule="max")


def test_pool_keeps_tables_shared_and_split_keeps_zero_sum():
    g = kuhn_poker(3)
    p = pool(g, (1, 2))
    assert p.zero_sum and len(p.compiled.tables) == len(g.compiled.tables)
    s = uniform_strategy(g)
    ev, evp = expected_values(g, s), expected_values(p, s)
    np.testing.assert_allclose(evp, [ev[0], (ev[1] + ev[2]) / 2, (ev[1] + ev[2]) / 2], atol=1e-15)
