"""n-player fictitious play (paper §5.2, Appendix B.1)."""
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from guts import ConvergenceWarning, GutsInputError
from guts.games.guts.fictitious import (
    _contract,
    _own_first,
    best_response,
    fictitious_play,
    payoff_tensor,
)
from guts.games.guts.payoffs import alpha_enumeration, symmetric_equilibrium

ROOT = Path(__file__).resolve().parents[3]
ROOT2 = 2.0 ** -0.5


@pytest.fixture(scope="module")
def U21():
    return payoff_tensor(3, 21)


@pytest.mark.parametrize("n,M", [(3, 6), (4, 4)])
def test_payoff_tensor_is_the_paper_enumeration(n, M):
    """U[i][a] = α_i of the profile a (§4.1.1 enumeration), and zero-sum."""
    U = payoff_tensor(n, M)
    g = np.linspace(0, 1, M)
    assert U.shape == (n,) + (M,) * n
    rng = np.random.default_rng(3)
    for _ in range(25):
        a = tuple(rng.integers(0, M, size=n))
        np.testing.assert_allclose(U[(slice(None),) + a], alpha_enumeration(g[list(a)]), atol=1e-12)
    np.testing.assert_allclose(U.sum(axis=0), 0.0, atol=1e-12)
    # symmetric game: player 2's payoff is player 1's with their axes swapped
    np.testing.assert_allclose(U[1], np.swapaxes(U[0], 0, 1), atol=1e-12)


def test_contraction_against_einsum(U21):
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(21), size=3)
    T = _own_first(U21[1], 1)
    np.testing.assert_allclose(_contract(T, [p[0], p[2]]), np.einsum("abc,a,c->b", U21[1], p[0], p[2]), atol=1e-12)
    np.testing.assert_allclose(_contract(T, [4, p[2]]), U21[1][4, :, :] @ p[2], atol=1e-12)
    np.testing.assert_allclose(_contract(T, [p[0], 7]), p[0] @ U21[1][:, :, 7], atol=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_symmetric_equilibrium_is_a_best_response_to_itself(n):
    """Proposition 3.3: against others all at p* = 2^(-1/(n-1)) player 1 earns α = 0 with every
    q <= p* (Propositions 3.1-3.2: α = (1 - 2p^(n-1))·(...) vanishes) and strictly less above p*,
    so p* is the largest best response."""
    p = symmetric_equilibrium(n)
    grid = np.union1d(np.linspace(0, 1, 21 if n < 4 else 11), [p])
    U = payoff_tensor(n, grid)
    k = int(np.flatnonzero(np.isclose(grid, p))[0])
    pure = [np.eye(grid.size)[k]] * n
    br = best_response(U[0], 0, pure)
    np.testing.assert_array_equal(br, np.arange(k + 1))
    assert grid[br[-1]] == pytest.approx(p, abs=1e-12)


def _b4(U, x):
    """(B.4) from scratch: Σ_j max_z φ_j(z, p_-j), with φ_j(p) summing to 0."""
    u = [np.einsum("abc,b,c->a", U[0], x[1], x[2]),
         np.einsum("abc,a,c->b", U[1], x[0], x[2]),
         np.einsum("abc,a,b->c", U[2], x[0], x[1])]
    return sum(v.max() for v in u), [x[j] @ u[j] for j in range(3)]


def test_independent_players_converge_to_the_symmetric_equilibrium(U21):
    """§5.2: free-for-all 3-player FP converges to the symmetric Nash equilibrium 1/√2."""
    r = fictitious_play(3, 21, iterations=3000, random_state=0, tensor=U21)
    assert r.converged and r.final_gap <= 1e-3
    # the gap (B.4) falls: over every decade, and to a small fraction of its start
    assert r.gap[-1] < r.gap[1000] < r.gap[100] < r.gap[10] < r.gap[1]
    assert r.final_gap < 1e-2 * r.gap[1]
    # the mixtures concentrate within one mesh step (0.05) of 1/√2
    assert np.all(r.mass_near(ROOT2, steps=1) > 0.95)
    assert np.all(np.abs(r.mean_thresholds[-1] - ROOT2) < 0.05)
    # the recorded gap is (B.4) at the final mixtures, computed from scratch
    g, phi = _b4(U21, r.mixtures)
    assert r.final_gap == pytest.approx(g, abs=1e-12)
    assert sum(phi) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(r.payoffs, phi, atol=1e-12)
    assert np.all(r.gap >= -1e-12)  # (B.4): g >= Σ φ_j = 0
    np.testing.assert_allclose(r.pool_gap, r.gap, atol=1e-10)  # nobody pools: NashConv = (B.4)


def test_pooled_players_2_and_3_also_converge(U21):
    """§1.2/§5.2: with players 2-3 pooling their winnings FP again reaches the symmetric equilibrium."""
    r = fictitious_play(3, 21, iterations=6000, pools=[(0,), (1, 2)], random_state=1, tensor=U21)
    assert r.pools == ((0,), (1, 2))
    assert r.converged
    assert r.gap[-1] < r.gap[1000] < r.gap[100] < r.gap[10]
    assert r.pool_gap[-1] < r.pool_gap[100] < r.pool_gap[10]
    assert np.all(r.mass_near(ROOT2, steps=2) > 0.9)
    g, _ = _b4(U21, r.mixtures)
    assert r.final_gap == pytest.approx(g, abs=1e-12)


def test_two_player_fp_reaches_the_value_zero():
    """Robinson (Appendix B): 2-player zero-sum FP converges; 2-player Guts is fair at 1/2 (Prop. 3.3)."""
    r = fictitious_play(2, 21, iterations=3000, random_state=2)
    assert r.final_gap < 2e-3 and r.gap[-1] < r.gap[100]
    assert np.all(r.mass_near(0.5, steps=1) > 0.95)
    assert abs(r.payoffs[0]) < 2e-3


def test_incremental_update_matches_exact_recomputation(U21):
    a = fictitious_play(3, 21, iterations=400, random_state=5, tensor=U21, refresh=1, warn=False)
    b = fictitious_play(3, 21, iterations=400, random_state=5, tensor=U21, refresh=10**6, warn=False)
    np.testing.assert_array_equal(a.played, b.played)
    np.testing.assert_allclose(a.gap, b.gap, atol=1e-12)


def test_determinism_and_tie_breaking(U21):
    a = fictitious_play(3, 21, iterations=200, random_state=11, tensor=U21, tie_break="random", warn=False)
    b = fictitious_play(3, 21, iterations=200, random_state=np.random.default_rng(11), tensor=U21,
                        tie_break="random", warn=False)
    np.testing.assert_array_equal(a.played, b.played)
    assert a.seed == 11 and b.seed is None
    c = fictitious_play(3, 21, iterations=50, initial=[0.5, 0.52, 0.9], tensor=U21, warn=False)
    assert c.grid[c.played[0]].tolist() == pytest.approx([0.5, 0.5, 0.9])


def test_not_converged_warns(U21):
    with pytest.warns(ConvergenceWarning, match="duality gap"):
        r = fictitious_play(3, 21, iterations=3, random_state=0, tensor=U21, tol=1e-9)
    assert not r.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fictitious_play(3, 21, iterations=3, random_state=0, tensor=U21, tol=1e-9, warn=False)


def test_validation(U21):
    with pytest.raises(GutsInputError, match="partition"):
        fictitious_play(3, 21, pools=[(0, 1), (1, 2)], tensor=U21)
    with pytest.raises(GutsInputError, match="initial"):
        fictitious_play(3, 21, initial=[0.5, 0.5], tensor=U21)
    with pytest.raises(GutsInputError, match="tensor"):
        fictitious_play(3, 11, tensor=U21)
    with pytest.raises(GutsInputError, match="tie_break"):
        fictitious_play(3, 21, tie_break="last", tensor=U21)
    with pytest.raises(GutsInputError, match="entries"):
        payoff_tensor(6, 101)
    with pytest.raises(GutsInputError):
        symmetric_equilibrium(1)


@pytest.mark.slow
def test_fp_script(tmp_path):
    from guts.cli import main

    assert main(["fp-three-player", "--mesh", "21", "--iterations", "6000", "--seed", "1", "--out", str(tmp_path)]) == 0
    summ = pd.read_csv(tmp_path / "fp_three_player_summary.csv")
    assert set(summ.variant) == {"independent", "players 2-3 pooled"}
    assert summ.converged.all()
    df = pd.read_csv(tmp_path / "fp_three_player.csv")
    assert df.iteration.max() == 6000
    for name in ("fp_three_player.png", "fp_three_player.meta.json"):
        assert (tmp_path / name).stat().st_size > 0
    assert main(["fp-three-player", "--mesh", "1", "--out", str(tmp_path / "bad")]) == 2
    assert not (tmp_path / "bad").exists()
