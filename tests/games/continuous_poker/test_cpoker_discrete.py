"""Equilibrium check 2: the discretised game solved by LP (prefix-sum forms, checked against the
engine's sequence form)."""
import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.games.continuous_poker import limit_poker, von_neumann
from guts.games.continuous_poker.discrete import bet_grid, discretised_game, solve_discretised

LP_EXACT_TOL = 1e-12


@pytest.mark.parametrize("B, M", [(1.0, 9), (1.0, 27), (0.5, 10), (0.5, 30), (2.0, 20)])
def test_aligned_mesh_is_exact_for_von_neumann(B, M):
    """When the mesh cells align with a, b, c the continuum equilibrium is a strategy pair of
    the discretised game (both sides only coarsen information), so the LP value is exactly V_B.
    B = 1: a, b, c = 1/9, 7/9, 5/9; B = 0.5: 1/10, 7/10, 4/10; B = 2: 1/10, 17/20, 7/10."""
    g = von_neumann(B)
    cells = np.array([g.bluff_threshold, g.value_threshold, g.calling_threshold]) * M
    if not np.allclose(cells, np.round(cells), atol=1e-9):
        pytest.skip("mesh not aligned")
    r = solve_discretised(B, B, M, 1)
    assert r.converged and r.exploitability <= 1e-9
    assert abs(r.value - g.value) <= LP_EXACT_TOL


def test_unaligned_von_neumann_is_close_not_exact():
    r = solve_discretised(1.0, 1.0, 20, 1)
    assert 1e-6 < abs(r.error) < 2e-3


def test_limit_value_converges():
    """(L, U) = (0.5, 1): the error shrinks with M and K and is below 1e-4 at M = 80, K = 9
    (the full rate study is experiments/continuous_poker.py -> results/continuous_poker/)."""
    coarse = solve_discretised(0.5, 1.0, 20, 3)
    fine = solve_discretised(0.5, 1.0, 80, 9)
    assert coarse.converged and fine.converged
    assert abs(fine.error) < abs(coarse.error) / 4
    assert abs(fine.error) < 1e-4
    assert fine.closed_form_value == pytest.approx(limit_poker(0.5, 1.0).value, abs=1e-15)


def test_lp_bettor_plays_the_closed_form_regions():
    """Away from the region boundaries the LP bettor bluffs, checks and value-bets where the
    closed form does, and value-bets the closed-form size to within the grid step.  (Bluff
    sizes are not compared: every bluff earns x2 whatever its size, seed §4.1.)"""
    M = 80
    r = solve_discretised(0.5, 1.0, M, 9)
    g = limit_poker(0.5, 1.0)
    x = (np.arange(M) + 0.5) / M
    far = np.min(np.abs(x[:, None] - np.array(g.x)[None, :]), axis=1) > 2.0 / M
    np.testing.assert_array_equal(r.bet_size[far] > 0, g.bet_size(x[far]) > 0)
    step = r.bet_sizes[1] - r.bet_sizes[0]
    bet = far & (r.bet_size > 0) & (x > g.x[3])
    assert np.max(np.abs(r.bet_size[bet] - g.bet_size(x[bet]))) <= step + 1e-12


def test_game_shape_and_zero_sum():
    game = discretised_game(0.0, 1.0, 6, 5)
    assert game.zero_sum
    assert game.num_types == (6, 6)
    labels = game.action_labels(0)[()]
    assert labels[0] == "check" and len(labels) == 1 + 4  # size 0 dropped: it is a check
    np.testing.assert_allclose(bet_grid(0.0, 1.0, 5), [0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(bet_grid(0.7, 0.7, 9), [0.7])


@pytest.mark.parametrize("args", [(1.0, 0.5, 10, 3), (0.5, 1.0, 1, 3), (0.5, 1.0, 10, 1), (-1.0, 1.0, 10, 3),
                                  (0.5, 1.0, 10000, 3)])
def test_bad_input(args):
    with pytest.raises(GutsInputError):
        discretised_game(*args)


@pytest.mark.parametrize("side", ["bettor", "caller"])
def test_direct_mesh_lp_matches_the_sequence_form(side):
    """The prefix-sum bettor and caller LPs (O(K M) non-zeros) are the same game as the
    engine's sequence form: equal values and a certified pair (exploitability <= 1e-9)."""
    from guts.engine.extensive import exploitability, solve_sequence_form_lp
    from guts.games.continuous_poker.discrete import _caller_lp, _direct_lp, bet_grid, discretised_game

    lp = {"bettor": _direct_lp, "caller": _caller_lp}[side]
    for L, U, M, K in [(1.0, 1.0, 17, 1), (0.5, 2.0, 30, 3), (0.25, 3.0, 24, 5), (0.0, 1.0, 2, 5),
                       (2.0, 2.0, 40, 1), (0.1, 10.0, 33, 7)]:
        game = discretised_game(L, U, M, K)
        direct = lp(game, M, bet_grid(L, U, K))
        seq = solve_sequence_form_lp(game)
        assert direct is not None and direct.converged
        assert abs(direct.value - seq.value) <= 1e-9
        assert exploitability(game, direct.strategies) <= 1e-9
