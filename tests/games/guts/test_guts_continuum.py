"""The continuum limit (no mesh) of the 1 v. N pseudo-bloc game: guts.games.guts.continuum.

Every number asserted comes from mathematics (closed forms, the paper's enumeration
oracle, Proposition 3.3, the paper's Table 1 at its printed precision) or from an
identity the solution must satisfy (fixed point, zero sum, mutual best responses,
Theorem 1.2 re-checked on dense grids), never from the code's own output.
"""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError, solve_coalition
from guts.cli import main
from guts.games.guts.strategies import mesh
from guts.games.guts.continuum import (
    certify_player1,
    coalition_best_response,
    full_coalition_response,
    player1_best_response,
    pseudo_bloc,
    solve_continuum,
    stage_gradient,
    stage_payoff,
    stage_value,
)
from guts.games.guts.payoffs import alpha_enumeration, alpha_matrix, beta, beta_matrix
from guts.studies.continuum import refinement_row

SEED = 20240611


@pytest.fixture(scope="module")
def duo():
    """The 1 v. 2 game without a mesh."""
    return solve_continuum(2)


def _f(size, q, profiles, weights, V):
    """Player 1's payoff ``Σ_j y_j [α + V β]`` at thresholds ``q`` (vector) against a coalition mixture."""
    return (alpha_matrix(q, profiles) + V * beta_matrix(q, profiles)) @ weights


# ---------------------------------------------------------------------------
# The structure the algorithm rests on.
# ---------------------------------------------------------------------------
def test_gradient_matches_the_papers_enumeration():
    """∂/∂a and ∂/∂b of α(q; a, b..b) and β: closed form vs central differences of the Θ(n 3^n) oracle."""
    rng = np.random.default_rng(SEED)
    h = 1e-6
    for N in (1, 2, 3, 4):
        for _ in range(6):
            q, a, b = rng.uniform(0.03, 0.97, 3)

            def alpha1(a_, b_):
                return alpha_enumeration([q, a_] + [b_] * (N - 1))[0]

            def beta1(a_, b_):
                return float(beta([q, a_] + [b_] * (N - 1)))

            ga0, gb0 = stage_gradient(N, [q], [1.0], [a], [b], 0.0)  # α only
            ga1, gb1 = stage_gradient(N, [q], [1.0], [a], [b], 1.0)  # α + β
            assert ga0[0] == pytest.approx((alpha1(a + h, b) - alpha1(a - h, b)) / (2 * h), abs=1e-7)
            assert ga1[0] - ga0[0] == pytest.approx((beta1(a + h, b) - beta1(a - h, b)) / (2 * h), abs=1e-7)
            if N > 1:
                assert gb0[0] == pytest.approx((alpha1(a, b + h) - alpha1(a, b - h)) / (2 * h), abs=1e-7)
                assert gb1[0] - gb0[0] == pytest.approx((beta1(a, b + h) - beta1(a, b - h)) / (2 * h), abs=1e-7)
            else:
                assert gb0[0] == 0.0


def test_partial_derivatives_are_monotone_in_a_and_b():
    """The branch-and-bound bound needs every partial of α and β non-decreasing in (a, b)."""
    rng = np.random.default_rng(SEED + 1)
    for N in (1, 2, 5, 12):
        for _ in range(40):
            q = rng.uniform()
            a0, a1 = np.sort(rng.uniform(size=2))
            b0, b1 = np.sort(rng.uniform(size=2))
            ai, bi = rng.uniform(a0, a1, 5), rng.uniform(b0, b1, 5)
            for V in (0.0, 1.0):  # α alone, then α + β
                lo = np.array(stage_gradient(N, [q], [1.0], [a0], [b0], V)).ravel()
                mid = np.array(stage_gradient(N, [q], [1.0], ai, bi, V))
                hi = np.array(stage_gradient(N, [q], [1.0], [a1], [b1], V)).ravel()
                assert np.all(lo[:, None] <= mid + 1e-12) and np.all(mid <= hi[:, None] + 1e-12)


def test_player1_payoff_is_concave_in_q_so_pure_thresholds_suffice():
    """∂α/∂q = n - 1 + 2Π - 2n Π max(p_j, q) decreases, β is affine in q; Jensen for mixtures."""
    rng = np.random.default_rng(SEED + 2)
    grid = np.linspace(0.0, 1.0, 2001)
    for N in (1, 3, 6):
        P = pseudo_bloc(N, rng.uniform(size=4), rng.uniform(size=4))
        y = rng.dirichlet(np.ones(4))
        V = rng.uniform(-1.0, 1.0)
        f = _f(N, grid, P, y, V)
        assert np.max(np.diff(f, 2)) <= 1e-12
        # a mixture of thresholds does no better than its mean against any profile
        qs, ws = rng.uniform(size=3), rng.dirichlet(np.ones(3))
        Q = pseudo_bloc(N, rng.uniform(size=200), rng.uniform(size=200))
        mixed = ws @ (alpha_matrix(qs, Q) + V * beta_matrix(qs, Q))
        mean = (alpha_matrix([ws @ qs], Q) + V * beta_matrix([ws @ qs], Q))[0]
        assert np.all(mean >= mixed - 1e-13)


def test_player1_best_response_is_the_exact_maximum():
    rng = np.random.default_rng(SEED + 3)
    grid = np.linspace(0.0, 1.0, 20001)
    for N in (1, 2, 5, 10):
        for _ in range(4):
            P = pseudo_bloc(N, rng.uniform(size=3), rng.uniform(size=3))
            y = rng.dirichlet(np.ones(3))
            V = rng.uniform(-1.0, 0.5)
            q, val = player1_best_response(P, y, V)
            scan = _f(N, grid, P, y, V)
            assert val >= scan.max() - 1e-13           # no grid point beats it
            assert val - scan.max() <= 1e-6            # and the grid comes close (spacing 5e-5)
            assert val == pytest.approx(_f(N, [q], P, y, V)[0], abs=1e-15)


def test_coalition_best_response_is_certified_against_a_dense_grid():
    rng = np.random.default_rng(SEED + 4)
    g = np.linspace(0.0, 1.0, 201)
    for N in (1, 3, 8):
        q, w = rng.uniform(0.3, 0.95, 2), rng.dirichlet(np.ones(2))
        V = rng.uniform(-0.5, 0.2)
        bm = coalition_best_response(N, q, w, V, tol=1e-10)
        if N == 1:
            scan = stage_payoff(N, q, w, g, 0.0, V)
        else:
            A, B = np.meshgrid(g, g, indexing="ij")
            scan = stage_payoff(N, q, w, A.ravel(), B.ravel(), V)
        assert bm.converged
        assert bm.lower <= scan.min() + 1e-13          # a rigorous lower bound
        assert bm.value <= scan.min() + 1e-10          # the minimum to within tol
        assert bm.value - bm.lower <= 1e-9
        assert bm.value == pytest.approx(stage_payoff(N, q, w, [bm.point[0]], [bm.point[1]], V)[0], abs=1e-15)


# ---------------------------------------------------------------------------
# The continuum solution.
# ---------------------------------------------------------------------------
def test_two_player_guts_is_fair_with_threshold_one_half():
    """Proposition 3.3 with n = 2: p* = 1/2^(1/(n-1)) = 1/2 and the value is 0."""
    r = solve_continuum(1)
    assert abs(r.player1_value) <= 1e-12 and abs(r.coalition_value) <= 1e-12
    assert r.player1_strategy == {0.5: 1.0}
    assert list(r.coalition_strategy) == [(0.5, 0.0)]
    assert r.certified_lower <= 0.0 <= r.certified_upper and r.certified_width <= 1e-9
    # from a mesh without 1/2 the oracle must find it; the value is quadratic in the
    # threshold error there, so the threshold is only pinned to about sqrt(tol)
    r20 = solve_continuum(1, init_mesh=20, tol=1e-9)
    assert abs(r20.player1_value) <= 1e-9
    assert abs(r20.player1_threshold - 0.5) <= 1e-4
    assert r20.certified_lower <= 0.0 <= r20.certified_upper


def test_zero_sum_the_two_sides_agree(duo):
    assert duo.converged and duo.polished
    assert duo.player1_value == pytest.approx(-duo.coalition_value, abs=1e-9)
    assert sum(duo.coalition_strategy.values()) == pytest.approx(1.0, abs=1e-12)


def test_fixed_point_identity(duo):
    """V = T(V) = Value(A + B V) of the continuous round; T(V) > V below, T(V) < V above (§1, Thm 1.4)."""
    V = duo.player1_value
    t = stage_value(2, V)
    assert t.converged
    assert abs(t.value - V) <= t.gap + 1e-10
    assert stage_value(2, V - 0.05).value > V - 0.05
    assert stage_value(2, V + 0.05).value < V + 0.05


def test_strategies_are_mutual_best_responses(duo):
    V, q = duo.player1_value, duo.player1_threshold
    pts = np.array(list(duo.coalition_strategy))
    y = np.array(list(duo.coalition_strategy.values()))
    P = pseudo_bloc(2, pts[:, 0], pts[:, 1])
    q_br, best = player1_best_response(P, y, V)
    assert q_br == pytest.approx(q, abs=1e-9)
    assert best == pytest.approx(V, abs=1e-11)
    bm = coalition_best_response(2, [q], [1.0], V, tol=1e-11)
    assert bm.lower >= V - 1e-10
    # each support profile is a best response worth exactly V (the coalition is indifferent)
    assert np.allclose(stage_payoff(2, [q], [1.0], pts[:, 0], pts[:, 1], V), V, atol=1e-12)


def test_certificate_brackets_the_value_and_holds_on_dense_grids(duo):
    lo, hi = duo.certified_lower, duo.certified_upper
    assert lo <= duo.player1_value <= hi and lo <= -duo.coalition_value <= hi
    assert hi - lo <= 1e-9
    assert duo.certificate_lower.rigorous and duo.certificate_upper.rigorous
    # Theorem 1.2's conditions re-checked directly: player 1 (pure q*) on a 401 x 401 grid of (a, b)
    q = duo.player1_threshold
    g = np.linspace(0.0, 1.0, 401)
    A, B = np.meshgrid(g, g, indexing="ij")
    P = pseudo_bloc(2, A.ravel(), B.ravel())
    a1, b1 = alpha_matrix([q], P)[0], beta_matrix([q], P)[0]
    assert np.min(a1 + (b1 - 1.0) * lo) >= -1e-12
    assert np.min(a1 + (b1 - 1.0) * -1.0) > 0
    # the coalition's mixture on 100001 thresholds of player 1 (its own value w = -hi, from -N = -2)
    pts = np.array(list(duo.coalition_strategy))
    y = np.array(list(duo.coalition_strategy.values()))
    Py = pseudo_bloc(2, pts[:, 0], pts[:, 1])
    qs = np.linspace(0.0, 1.0, 100001)
    ay, by = alpha_matrix(qs, Py) @ y, beta_matrix(qs, Py) @ y
    assert np.min(-ay + (by - 1.0) * -hi) >= -1e-12
    assert np.min(-ay + (by - 1.0) * -2.0) > 0


def test_continuum_equilibrium_solves_every_mesh_containing_its_support(duo):
    """Restricting both players to a subset holding the equilibrium support keeps it an equilibrium."""
    pts = np.array(list(duo.coalition_strategy))
    grid = np.unique(np.concatenate([mesh(11), [duo.player1_threshold], pts.ravel()]))
    r = solve_coalition(2, mesh=grid, solver="lp")
    assert r.player1_value == pytest.approx(duo.player1_value, abs=1e-10)
    assert r.coalition_value == pytest.approx(-duo.player1_value, abs=1e-10)


def test_mesh_values_converge_to_the_continuum_at_second_order(duo):
    Ms = np.array([51, 101, 201, 401])
    err = np.array([abs(duo.coalition_value - solve_coalition(2, mesh=int(M), solver="oracle",
                                                              certify_result=False).coalition_value) for M in Ms])
    rate = np.polyfit(np.log(1.0 / (Ms - 1)), np.log(err), 1)[0]
    # O(h^2) with a constant that oscillates with where the optimal thresholds fall
    # between mesh points; first order would give a rate near 1
    assert rate > 1.3
    assert err[-1] < err[0] / 10


def test_mesh_strategies_bracket_the_continuum_value(duo):
    """Theorem 1.2 in the continuum for the mesh strategies: they bound the continuum value."""
    widths = []
    for M in (21, 51, 101):
        row = refinement_row(2, M, duo.coalition_value)
        # the continuum coalition value lies in [-certified_upper, -certified_lower]
        assert row["coalition_forces"] <= -duo.certified_lower
        assert row["player1_concedes"] >= -duo.certified_upper
        widths.append(row["player1_concedes"] - row["coalition_forces"])
    assert widths[0] > widths[1] > widths[2] > 0


@pytest.mark.slow
@pytest.mark.parametrize("N, paper_p1, paper_bloc, paper_pseudo", [(3, 0.72, 0.76, 0.89), (5, 0.81, 0.84, 0.93)])
def test_structure_and_strategies_agree_with_table1(N, paper_p1, paper_bloc, paper_pseudo):
    """§5: the coalition blends a bloc profile with a pseudo-bloc one whose free member always holds
    (threshold 0); thresholds within Table 1's precision (2 decimals) plus one mesh step (0.01)."""
    r = solve_continuum(N)
    assert r.converged and r.polished and r.certified_width <= 1e-9
    assert r.player1_value == pytest.approx(-r.coalition_value, abs=1e-9)
    (bloc, _), (pseudo, _) = sorted(r.coalition_strategy.items(), key=lambda kv: kv[0][0], reverse=True)
    assert bloc[0] == pytest.approx(bloc[1], abs=1e-12)      # every member at the same threshold
    assert pseudo[0] == 0.0                                   # player 2 always holds
    assert r.player1_threshold == pytest.approx(paper_p1, abs=0.015)
    assert bloc[1] == pytest.approx(paper_bloc, abs=0.015)
    assert pseudo[1] == pytest.approx(paper_pseudo, abs=0.015)


def test_bad_arguments_raise_guts_input_error():
    with pytest.raises(GutsInputError, match="size"):
        solve_continuum(0)
    with pytest.raises(GutsInputError, match="tol"):
        solve_continuum(2, tol=0.0)
    with pytest.raises(GutsInputError, match="init_mesh"):
        solve_continuum(2, init_mesh=1)
    with pytest.raises(GutsInputError, match="weights"):
        player1_best_response([[0.5, 0.5]], [0.3], 0.0)
    with pytest.raises(GutsInputError, match="thresholds"):
        coalition_best_response(2, [1.5], [1.0], 0.0)
    with pytest.raises(GutsInputError, match="weights"):
        certify_player1(2, [0.5], [0.5])
    with pytest.raises(GutsInputError, match="V"):
        stage_value(2, math.nan)


def test_cli_bad_input_exits_2_without_files(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["continuum", "--sizes", "0", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "sizes" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["continuum", "--sizes", "2", "--meshes", "1", "--out", str(out)]) == 2
    assert main(["continuum", "--tol", "-1"]) == 2
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.slow
def test_cli_writes_the_tables_and_figure(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["continuum", "--sizes", "1-2", "--meshes", "21,51", "--out", str(out), "--quiet"]) == 0
    cont = pd.read_csv(out / "continuum.csv")
    ref = pd.read_csv(out / "mesh_refinement.csv")
    assert cont["N"].tolist() == [1, 2]
    assert abs(cont.loc[0, "value"]) <= 1e-12 and cont.loc[0, "player1_threshold"] == 0.5
    assert (cont["certified_lower"] <= cont["player1_value"]).all()
    assert (cont["player1_value"] <= cont["certified_upper"]).all()
    assert len(ref) == 4 and set(ref["mesh"]) == {21, 51}
    printed = capsys.readouterr().out
    assert "observed order between successive meshes" in printed and "21->51" in printed
    assert "too few meshes (M >= 51) to tell the regime" in printed   # one mesh >= 51: no regime claimed
    assert np.allclose(ref["diff"], ref["continuum_value"] - ref["value"], atol=1e-15)
    for name in ("continuum.meta.json", "mesh_refinement.meta.json", "mesh_refinement.png"):
        assert Path(out / name).stat().st_size > 0


@pytest.mark.slow
def test_unrestricted_coalition_does_not_beat_the_pseudo_bloc_equilibrium():
    """Against player 1's continuum threshold no independent-member profile does better than V
    (multi-start search); and the search is at least as good as the pseudo-bloc optimum elsewhere."""
    r = solve_continuum(3, certify_result=False)
    full, _ = full_coalition_response(3, r.player1_threshold, r.player1_value, random_state=1)
    assert full >= r.player1_value - 1e-10
    bm = coalition_best_response(3, [0.3], [1.0], r.player1_value)
    assert full_coalition_response(3, 0.3, r.player1_value, random_state=1)[0] <= bm.value + 1e-9
