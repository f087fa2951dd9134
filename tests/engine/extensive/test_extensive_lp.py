"""Sequence-form LP and best response against hand-derived equilibria and brute force."""
import numpy as np
import pytest

from guts.engine.extensive import (
    best_response, expected_values, exploitability, nash_conv, solve_lp, uniform_strategy,
)
from guts.games.toy import kuhn_poker

from extensive_oracle import brute_best_response_value, brute_values, random_strategy
from test_extensive_tree import half_street

KUHN_TOL = 1e-12


def test_half_street_equilibrium_by_hand():
    # P0 holds H or L (1/2 each), antes 1, bet 1.  Indifference of P1 between call and
    # fold: -2/(1+b) + 2b/(1+b) = -1 -> bluff b = 1/3; of P0 with L between check (-1)
    # and bet (-2c + (1-c)) -> call c = 2/3.  Value = (5/3 - 1)/2 = 1/3.
    g = half_street()
    r = solve_lp(g)
    assert r.converged
    assert abs(r.value - 1 / 3) < 1e-12
    np.testing.assert_allclose(r.strategies[0][()], [[2 / 3, 1 / 3], [0.0, 1.0]], atol=1e-10)
    np.testing.assert_allclose(r.strategies[1][("b",)], [[1 / 3, 2 / 3]], atol=1e-10)
    np.testing.assert_allclose(r.values.sum(), 0.0, atol=1e-15)
    assert r.exploitability <= 1e-12


def test_half_street_best_response_by_hand():
    g = half_street()
    s = list(uniform_strategy(g))
    s[1] = {("b",): np.array([[0.0, 1.0]])}          # P1 always calls
    br = best_response(g, s, 0)
    # H bets (+2), L checks (-1): value (2 - 1)/2
    assert abs(br.value - 0.5) < 1e-15
    np.testing.assert_array_equal(br.strategy[()], [[1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_allclose(br.type_values, [-0.5, 1.0])


def test_kuhn_value_minus_one_eighteenth():
    r = solve_lp(kuhn_poker(2))
    assert abs(r.value - (-1 / 18)) <= KUHN_TOL
    assert r.converged and r.exploitability <= 1e-12
    # P0 never bets the Q in any equilibrium (Kuhn 1950); K bets with 3x the J's rate
    root = r.strategies[0][()]
    assert abs(root[1, 1]) < 1e-12
    assert abs(root[2, 1] - 3 * root[0, 1]) < 1e-10


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_values_and_best_response_match_brute_force(seed):
    g = kuhn_poker(2)
    s = random_strategy(g, np.random.default_rng(seed))
    np.testing.assert_allclose(expected_values(g, s), brute_values(g, s), atol=1e-14)
    for p in range(2):
        assert abs(best_response(g, s, p).value - brute_best_response_value(g, s, p)) < 1e-14
    ev = brute_values(g, s)
    nc = sum(brute_best_response_value(g, s, p) - ev[p] for p in range(2))
    assert abs(nash_conv(g, s) - nc) < 1e-13
    assert abs(exploitability(g, s) - nc / 2) < 1e-13


def test_three_player_kuhn_values_match_brute_force():
    g = kuhn_poker(3)
    s = random_strategy(g, np.random.default_rng(7))
    ev = expected_values(g, s)
    np.testing.assert_allclose(ev, brute_values(g, s), atol=1e-14)
    assert abs(ev.sum()) < 1e-14
    # brute-force BR for the last seat (2 decision nodes x 4 cards: 256 pure strategies)
    br = best_response(g, s, 2)
    assert abs(br.value - brute_best_response_value(g, s, 2)) < 1e-14


def test_lp_input_errors_and_solver_status():
    from guts.errors import GutsInputError, SolverError
    from guts.games.toy import leduc_poker

    from test_extensive_solvers import _sequential_prisoners_dilemma

    with pytest.raises(GutsInputError, match="2-player"):
        solve_lp(kuhn_poker(3))
    with pytest.raises(GutsInputError, match="zero-sum"):
        solve_lp(_sequential_prisoners_dilemma())
    with pytest.raises(GutsInputError, match="method"):
        solve_lp(kuhn_poker(2), method="dual")
    # HiGHS stopped by its time limit: the status is checked, never a silent answer
    with pytest.raises(SolverError, match="status"):
        solve_lp(leduc_poker(), time_limit=1e-6)


@pytest.mark.parametrize("method", ["highs-ds", "highs-ipm"])
def test_lp_methods_agree_on_kuhn(method):
    r = solve_lp(kuhn_poker(2), method=method)
    assert abs(r.value + 1 / 18) <= KUHN_TOL and r.converged


def test_lp_memory_estimate_bounds_the_payoff_nonzeros_and_refuses_before_building(monkeypatch):
    """The estimate is an upper bound on A's non-zeros computed without building A; a
    memory limit below it refuses with the estimate in the message and builds nothing."""
    from guts.engine.extensive import lp as lpmod
    from guts.errors import GutsInputError
    from guts.games.toy import leduc_poker

    for game in (kuhn_poker(), leduc_poker()):
        nnz, need = lpmod.lp_memory_estimate(game)
        A = lpmod.sequence_form(game)[0]
        assert A.nnz <= nnz <= 2 * A.nnz
        assert need >= lpmod.LP_BYTES_BASE + nnz * min(lpmod.LP_BYTES_PER_NONZERO, lpmod.LP_IPM_BYTES_PER_NONZERO)

    def boom(*a, **k):
        raise AssertionError("sequence_form built although the LP was refused")

    monkeypatch.setattr(lpmod, "sequence_form", boom)
    with pytest.raises(GutsInputError, match="GiB.*accepted: memory_limit"):
        lpmod.solve_sequence_form_lp(leduc_poker(), memory_limit=1000.0)
