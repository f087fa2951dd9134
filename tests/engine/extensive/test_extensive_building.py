"""guts.engine.extensive.building: uniform mesh, showdown table, fold terminal."""
import numpy as np
import pytest

from guts.engine.extensive.building import fold_terminal, pair_deals, uniform_mesh


def test_uniform_mesh_is_a_fair_symmetric_showdown():
    M = 7
    deals, share = uniform_mesh(M)
    assert deals.prob.sum() == pytest.approx(1.0, abs=1e-15)
    w = share[0].reshape(M, M)
    # swapping the hands swaps the winner; equal hands split; the higher cell wins
    assert np.allclose(w + w.T, 1.0)
    assert np.allclose(np.diag(w), 0.5)
    assert w[M - 1, 0] == 1.0 and w[0, M - 1] == 0.0
    assert np.allclose(share.sum(axis=0), 1.0)
    # player 0 wins half the showdowns on average (symmetric deal)
    assert float(deals.prob @ share[0]) == pytest.approx(0.5, abs=1e-15)


def test_pair_deals_indexing():
    prob = np.arange(6, dtype=float).reshape(2, 3) / 15.0
    deals = pair_deals(prob, (("a", "b"), ("x", "y", "z")))
    d = 1 * 3 + 2                           # (b, z)
    assert deals.info[:, d].tolist() == [1, 2] and deals.prob[d] == pytest.approx(5 / 15)


@pytest.mark.parametrize("contrib, winner", [([1, 2], 1), ([3.5, 1.0], 0), ([2, 4, 6], 2)])
def test_fold_terminal_pays_the_pot_to_the_winner(contrib, winner):
    pay = fold_terminal(contrib, winner).payoff()
    assert pay.sum() == pytest.approx(0.0, abs=1e-15)          # zero-sum
    losers = [p for p in range(len(contrib)) if p != winner]
    assert pay[losers] == pytest.approx(-np.asarray(contrib, float)[losers])
    assert pay[winner] == pytest.approx(sum(contrib) - contrib[winner])
