"""Large coalitions: the compact pseudo-bloc stage, scaled meshes, continuous brackets, large N."""
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError, solve_coalition
from guts.cli import main
from guts.games.guts.strategies import coalition_profiles
from guts.games.guts.large_n import (
    PseudoBlocStage, bracket_value, pseudo_bloc_alpha,
    pseudo_bloc_beta, solve_large_n, solve_pseudo_bloc, threshold_mesh,
)
from guts.games.guts.payoffs import alpha, alpha_enumeration, beta, beta_enumeration, symmetric_equilibrium
from guts.games.guts.stage import GutsStage
from guts.studies.large_n import LARGE_N_COLUMNS, run_large_n


def exact_alpha(q, others):
    """α_1 in exact rational arithmetic from the closed form of §3 (test oracle for large N).

    α_1 = q (E[K] - 2 + 2Π) + (1 - q)(E[K] - 1 - n) + 2n ∫_q^1 Π_j max(p_j, x) dx, the
    integrand being x^k Π_{j>k} s_j between consecutive sorted thresholds.
    """
    q = Fraction(q)
    s = sorted(Fraction(p) for p in others)
    m = len(s)
    n = m + 1
    EK = sum(1 - p for p in s)
    Pi = math.prod(s, start=Fraction(1))
    edges = [Fraction(0), *s, Fraction(1)]
    G = Fraction(0)
    for k in range(m + 1):
        lo, hi = max(edges[k], q), max(edges[k + 1], q)
        if hi > lo:
            G += math.prod(s[k:], start=Fraction(1)) * (hi ** (k + 1) - lo ** (k + 1)) / (k + 1)
    return q * (EK - 2 + 2 * Pi) + (1 - q) * (EK - 1 - n) + 2 * n * G


# ---------------------------------------------------------------------------
# Payoffs of the compact stage
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("N", [1, 2, 3, 4])
def test_pseudo_bloc_payoffs_match_paper_enumeration(N):
    rng = np.random.default_rng(N)
    for _ in range(20):
        q, a, b = rng.random(3)
        if rng.random() < 0.3:
            a = 0.0  # the pseudo-bloc's free member always holds
        profile = [q, a, *([b] * (N - 1))]
        assert pseudo_bloc_alpha(q, a, b, N) == pytest.approx(alpha_enumeration(profile)[0], abs=1e-12)
        assert pseudo_bloc_beta(q, a, b, N) == pytest.approx(beta_enumeration(profile), abs=1e-12)


@pytest.mark.parametrize("N", [1, 2, 5, 15, 40, 200])
def test_compact_stage_equals_general_stage(N):
    rng = np.random.default_rng(100 + N)
    g = np.unique(np.r_[0.0, 1.0, rng.random(6), 1 - rng.random(5) / N])  # with ties: equal thresholds
    compact = PseudoBlocStage(N, g)
    general = GutsStage(g, coalition_profiles(N, g, "pseudo-bloc"))
    A, B = compact.dense()
    A2, B2 = general.dense()
    assert A.shape == A2.shape
    np.testing.assert_allclose(A, A2, rtol=0, atol=1e-12 * N)
    np.testing.assert_allclose(B, B2, rtol=0, atol=1e-12 * N)
    J = [0, 3, A.shape[1] - 1]
    np.testing.assert_allclose(compact.cols(J)[0], A[:, J])
    np.testing.assert_allclose(compact.transpose().rows(J)[0], -A[:, J].T)
    np.testing.assert_allclose(compact.profiles(J), general.col_profiles[J])


@pytest.mark.parametrize("N", [200, 1000, 100_000])
def test_alpha_keeps_precision_at_large_n(N):
    """Thresholds within 1/N of 1 (where the strategies live): float vs exact rational arithmetic."""
    k = N - 1
    cases = [(1 - Fraction(11, 10 * N), Fraction(0), 1 - Fraction(9, 10 * N)),   # pseudo-bloc component
             (1 - Fraction(11, 10 * N), 1 - Fraction(9, 10 * N), 1 - Fraction(9, 10 * N)),  # bloc
             (1 - Fraction(7, 10 * N), 1 - Fraction(1, 2 * N), 1 - Fraction(9, 10 * N)),
             (Fraction(1, 2), 1 - Fraction(3, N), 1 - Fraction(1, 5 * N))]
    for q, a, b in cases:
        if N <= 1000:
            want = float(exact_alpha(q, [a, *([b] * k)]))
        else:  # exact powers of ~10^5 digits are slow: compare with the general O(N) closed form
            want = float(alpha(float(q), np.array([float(a), *([float(b)] * k)])))
        got = float(pseudo_bloc_alpha(float(q), float(a), float(b), N))
        assert got == pytest.approx(want, rel=1e-11, abs=1e-11)
        assert np.isfinite(pseudo_bloc_beta(float(q), float(a), float(b), N))


def test_beta_closed_form():
    # β = Σ (1 - p_i) - 1 + 2 Π p_i over all n players (§3)
    assert pseudo_bloc_beta(0.3, 0.0, 0.9, 4) == pytest.approx(beta([0.3, 0.0, 0.9, 0.9, 0.9]))


# ---------------------------------------------------------------------------
# Meshes
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("N", [1, 15, 200, 100_000])
def test_scaled_mesh_follows_the_thresholds(N):
    g = threshold_mesh(N, 101)
    assert g.size == 101 and g[0] == 0.0 and g[-1] == 1.0 and np.all(np.diff(g) > 0)
    gaps = np.log(1.0 - g[:-1])  # uniform in log N(1 - p)
    np.testing.assert_allclose(np.diff(gaps), np.diff(gaps)[0], rtol=1e-6)
    # the equilibrium threshold 2^(-1/N) of the n = N + 1 players (Prop. 3.3) sits inside with the
    # same relative resolution
    p_star = symmetric_equilibrium(N + 1)
    assert g[1] < p_star < g[-2]
    i = np.searchsorted(g, p_star)
    assert (g[i] - g[i - 1]) / (1 - p_star) < 0.15
    # a uniform mesh of 101 points resolves nothing at N = 200: p* lies between 0.99 and 1
    if N == 200:
        assert 0.99 < p_star < 1.0


def test_mesh_and_stage_validation():
    with pytest.raises(GutsInputError, match="points"):
        threshold_mesh(5, 2)
    with pytest.raises(GutsInputError, match="mesh kind"):
        threshold_mesh(5, 10, kind="log")
    with pytest.raises(GutsInputError, match="s_min"):
        threshold_mesh(2, 10, s_min=3.0)
    with pytest.raises(GutsInputError, match="thresholds in"):
        PseudoBlocStage(3, [0.0, 1.5])
    with pytest.raises(GutsInputError, match="size"):
        solve_pseudo_bloc(0, [0.0, 1.0])


# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("N, mesh", [(2, np.linspace(0, 1, 21)), (30, threshold_mesh(30, 25))])
def test_compact_solver_agrees_with_solve_coalition(N, mesh):
    r = solve_pseudo_bloc(N, mesh)
    ref = solve_coalition(N, mesh=mesh, structure="pseudo-bloc", solver="oracle")
    assert r.converged and ref.converged
    assert r.coalition_value == pytest.approx(ref.coalition_value, abs=1e-10)
    assert r.certified_lower <= -r.coalition_value + 1e-12 <= r.certified_upper + 2e-12
    assert r.certified_width < 1e-9


def test_table1_value_at_mesh_101():
    # Table 1, N = 5: 0.0654 (fictitious play); the exact mesh-101 value to the paper's precision
    r = solve_pseudo_bloc(5, threshold_mesh(5, 101, "uniform"))
    assert abs(r.coalition_value - 0.0654) < 5e-4


def test_two_player_game_is_fair():
    # Proposition 3.3: with n = 2 the symmetric equilibrium p* = 1/2 gives value 0
    v = solve_large_n(1, mesh=30, target_width=1e-9)
    assert v.converged and v.lower <= 1e-12 and v.upper >= -1e-12
    assert abs(v.value) < 1e-9 and v.width < 1e-9
    assert max(v.player1_strategy, key=v.player1_strategy.get) == pytest.approx(0.5, abs=1e-4)


@pytest.fixture(scope="module")
def two():
    # N = 2: the coalition's profiles (a, b) and (b, a) coincide and its bloc component lies
    # exactly on the diagonal a = b, in a narrow valley of the best-response landscape
    return solve_large_n(2, mesh=40, target_width=1e-8)


def test_refinement_converges_and_brackets(two):
    v = two
    assert v.converged and v.width <= 1e-8
    assert v.lower - 1e-12 <= v.value <= v.upper + 1e-12
    # the refinement study: every round's bracket contains the continuous value, and they shrink
    widths = [hi - lo for _, _, lo, hi in v.history]
    for _, _, lo, hi in v.history:
        assert lo - v.width <= v.value <= hi + v.width
    assert widths[-1] < widths[0] / 100
    # the symmetric equilibrium (Prop. 3.3) is available to the coalition as a bloc: V >= 0
    assert v.lower > 0
    # Table 1 (N = 2): 0.0132, to the paper's precision
    assert abs(v.value - 0.0132) < 5e-4
    p1, bloc, pseudo, free, weight = v.mesh_result.bloc_and_pseudo_bloc()
    assert free == 0.0 and abs(pseudo - 0.86) < 0.01 and abs(bloc - 0.68) < 0.01  # Table 1: 0.68, 0.86


def test_bracket_survives_an_independent_search(two):
    """Both certificates against best responses found independently: fine uniform grids, the
    diagonal a = b, and the general closed form of guts.games.guts.payoffs.  Against one opponent pure
    strategy a repeated mixed strategy forces a/(1 - b) (Theorem 1.2; a = x A, b = x B < 1)."""
    r = two.mesh_result  # N = 2
    # player 1's thresholds against the coalition's strategy (coalition pays -α)
    prof = np.array(list(r.coalition_strategy))
    w = np.array(list(r.coalition_strategy.values()))
    w = w / w.sum()
    q = np.unique(np.r_[np.linspace(0, 1, 20001), np.linspace(0.64, 0.65, 20001)])
    others = np.broadcast_to(prof, (q.size,) + prof.shape)
    full = np.concatenate([np.broadcast_to(q[:, None, None], (q.size, len(w), 1)), others], axis=-1)
    b = beta(full) @ w
    ratio = np.where(b < 1, -(alpha(q[:, None], others) @ w) / (1 - b), np.inf)
    assert ratio.min() >= two.lower - 1e-11
    # the coalition's profiles (a, b) against player 1's strategy
    qs = np.array(list(r.player1_strategy))
    x = np.array(list(r.player1_strategy.values()))
    x = x / x.sum()
    g = np.linspace(0, 1, 401)
    t = np.unique(np.r_[np.linspace(0, 1, 20001), np.linspace(0.67, 0.68, 20001)])
    pairs = np.concatenate([np.stack(np.meshgrid(g, g), -1).reshape(-1, 2), np.stack([t, t], -1),
                            np.stack([np.zeros_like(t), t], -1)])
    ratios = []
    for chunk in np.array_split(pairs, 20):
        others = np.broadcast_to(chunk[:, None, :], (chunk.shape[0], qs.size, 2))
        full = np.concatenate([np.broadcast_to(qs[None, :, None], others.shape[:2] + (1,)), others], axis=-1)
        b = beta(full) @ x
        ratios.append(np.where(b < 1, (alpha(qs[None, :], others) @ x) / (1 - b), np.inf))
    assert np.concatenate(ratios).min() >= -two.upper - 1e-11


def test_bracket_of_a_coarse_mesh_contains_the_refined_value(two):
    coarse = solve_pseudo_bloc(2, threshold_mesh(2, 30))
    br = bracket_value(coarse)
    assert br.lower <= two.value <= br.upper
    assert br.lower <= coarse.coalition_value <= br.upper
    assert 0.0 <= br.coalition_response[0] <= 1.0


@pytest.mark.slow
def test_large_coalition_200():
    v = solve_large_n(200, target_width=1e-7)
    assert v.converged and v.width < 1e-7
    p1, bloc, pseudo, free, weight = v.mesh_result.bloc_and_pseudo_bloc()
    # thresholds crowd toward 1 like 1 - s/N with s = O(1): resolved by the scaled mesh
    assert 0.3 < 200 * (1 - pseudo) < 200 * (1 - bloc) < 200 * (1 - p1) < 3
    assert free == 0.0 and 0.2 < weight < 0.6
    # between the N = 15 value of Table 1 and the paper's asymptote 0.163
    assert 0.1184 < v.value < 0.163


def test_warnings_are_kept_when_certificates_fail(monkeypatch):
    import guts.engine.recursive as ln
    from guts.errors import ConvergenceWarning

    real = ln.fixed_point

    def noisy(*a, **k):
        warnings.warn("double oracle stopped after 3 rounds with gap 1e-3", ConvergenceWarning)
        return real(*a, **k)

    monkeypatch.setattr(ln, "fixed_point", noisy)
    with pytest.warns(ConvergenceWarning):
        r = solve_pseudo_bloc(2, np.linspace(0, 1, 11), certify_result=False)  # nothing to vouch for it
    assert r.inner_warnings == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = solve_pseudo_bloc(2, np.linspace(0, 1, 11))  # certified to 1e-11: held back
    assert r.inner_warnings == 2 and r.certified_width < 1e-8


# ---------------------------------------------------------------------------
# Sweep and command line
# ---------------------------------------------------------------------------
def test_run_large_n_writes_csv_and_resumes(tmp_path):
    cache = tmp_path / "cache"
    kw = dict(mesh=20, study_mesh=20, target_width=1e-5, max_iterations=4, cache=cache, progress=False)
    df = run_large_n([1, 2], out=tmp_path, **kw)
    assert list(df.columns) == LARGE_N_COLUMNS and list(df.N) == [1, 2]
    on_disk = pd.read_csv(tmp_path / "large_n.csv")
    assert on_disk.value.tolist() == pytest.approx(df.value.tolist(), abs=1e-14)
    assert (tmp_path / "large_n.meta.json").exists()
    assert (df.certified_lower <= df.value + 1e-12).all() and (df.value <= df.certified_upper + 1e-12).all()
    again = run_large_n([2], out=None, **kw)
    assert again.seconds.iloc[0] == df.seconds.iloc[1]  # loaded from the cache, not recomputed


def test_cli_curve(tmp_path, capsys):
    assert main(["curve", "--sizes", "1", "--mesh", "20", "--study-mesh", "0", "--target-width", "1e-5",
                 "--out", str(tmp_path), "--no-cache", "--quiet"]) == 0
    assert "large_n.csv" in capsys.readouterr().out
    assert main(["curve", "--sizes", "1", "--backend", "dask", "--out", str(tmp_path / "x")]) == 2
    assert "scheduler" in capsys.readouterr().err and not (tmp_path / "x").exists()
    assert main(["curve", "--points", "3"]) == 2
