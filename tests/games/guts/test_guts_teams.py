"""m v. n team games (paper §1.2, §5): payoffs, identities, the 2 v. 2 finding."""
import importlib
from pathlib import Path

import numpy as np
import pytest

from guts import GutsInputError, solve_coalition
from guts.games.guts.strategies import mesh
from guts.games.guts.coalition import coalition_stage
from guts.games.guts.payoffs import alpha_all, alpha_enumeration, beta_enumeration
from guts.games.guts.teams import TeamStage, solve_teams, team_payoff_matrix, team_stage

ROOT = Path(__file__).resolve().parents[3]


def _script(name):
    return importlib.import_module(f"guts.studies.{name}")


@pytest.mark.parametrize("m,n", [(1, 2), (2, 2), (2, 3), (3, 1)])
def test_team_payoff_matches_the_paper_enumeration(m, n):
    """A = Σ_{team 1} α_i and B = β, against the paper's Θ(n 3^n) enumeration (§4.1)."""
    rng = np.random.default_rng(7)
    rows = rng.choice(mesh(11), size=(4, m))
    cols = rng.choice(mesh(11), size=(5, n))
    rows[0, :] = 0.3  # ties inside a team and across teams
    cols[0, 0] = 0.3
    A, B = team_payoff_matrix(rows, cols)
    for i in range(4):
        for j in range(5):
            prof = np.concatenate([rows[i], cols[j]])
            assert A[i, j] == pytest.approx(alpha_enumeration(prof)[:m].sum(), abs=1e-12)
            assert B[i, j] == pytest.approx(beta_enumeration(prof), abs=1e-12)


def test_team_payoff_is_zero_sum():
    """Team 2's immediate return (Σ of its members' α) is exactly -A (§3: every event is zero-sum)."""
    st = team_stage(2, 3, 6, "full")
    A, _ = st.dense()
    R, C = st.shape
    prof = np.concatenate([np.repeat(st.team1_profiles, C, axis=0), np.tile(st.team2_profiles, (R, 1))], axis=1)
    team2 = alpha_all(prof)[:, 2:].sum(axis=1).reshape(R, C)
    np.testing.assert_allclose(team2, -A, atol=1e-12)


def test_lazy_rows_and_columns_equal_dense():
    st = team_stage(2, 2, 9, "full")
    lazy = team_stage(2, 2, 9, "full")
    A, B = st.dense()
    I, J = [3, 0, 17], [5, 1]
    np.testing.assert_array_equal(lazy.rows(I)[0], A[I])
    np.testing.assert_array_equal(lazy.rows(I)[1], B[I])
    np.testing.assert_array_equal(lazy.cols(J)[0], A[:, J])
    At, Bt = st.transpose().dense()
    np.testing.assert_array_equal(At, -A.T)
    np.testing.assert_array_equal(Bt, B.T)


@pytest.mark.parametrize("N", [2, 3])
def test_one_versus_N_teams_is_the_coalition_game(N):
    """m = 1: the same matrices and the same values as :func:`solve_coalition`."""
    st = team_stage(1, N, 21, "full")
    ref = coalition_stage(N, 21, "full")
    np.testing.assert_allclose(st.dense()[0], ref.dense()[0], atol=1e-12)
    np.testing.assert_allclose(st.dense()[1], ref.dense()[1], atol=1e-12)
    t = solve_teams(1, N, 21, "full", solver="oracle")
    c = solve_coalition(N, 21, structure="full", solver="oracle")
    assert t.team1_value == pytest.approx(c.player1_value, abs=1e-10)
    assert t.team2_value == pytest.approx(c.coalition_value, abs=1e-10)
    assert t.has_value and t.converged


def test_N_versus_one_is_the_mirror_image():
    """Swapping the teams swaps the values: 2 v. 1 team 1 = the 1 v. 2 coalition."""
    a = solve_teams(2, 1, 21, "full", solver="oracle")
    b = solve_teams(1, 2, 21, "full", solver="oracle")
    assert a.team1_value == pytest.approx(b.team2_value, abs=1e-10)
    assert a.team2_value == pytest.approx(b.team1_value, abs=1e-10)


@pytest.mark.parametrize("m,structure", [(2, "full"), (2, "pseudo-bloc"), (3, "full"), (3, "bloc")])
def test_symmetric_team_game_is_antisymmetric_and_fair(m, structure):
    """m = n with one structure: A = -A^T, B = B^T, hence value 0 from both sides."""
    st = team_stage(m, m, 11, structure)
    A, B = st.dense()
    np.testing.assert_allclose(A, -A.T, atol=1e-12)
    np.testing.assert_allclose(B, B.T, atol=1e-12)
    r = solve_teams(m, m, 11, structure)  # solver="auto": dense LP for small games
    assert r.solver == "lp"
    assert abs(r.team1_value) < 1e-9 and abs(r.team2_value) < 1e-9
    assert r.certified_lower <= 1e-12 and r.certified_upper >= -1e-12
    assert r.certified_width < 1e-9


def test_solvers_agree_on_2v2():
    lp = solve_teams(2, 2, 11, "full", solver="lp")
    do = solve_teams(2, 2, 11, "full", solver="oracle")
    assert lp.team1_value == pytest.approx(do.team1_value, abs=1e-10)


def test_more_freedom_never_hurts_a_team():
    """Team 2's value is monotone in its strategy space: bloc ⊂ pseudo-bloc ⊂ full (as multisets)."""
    v = [solve_teams(2, 3, 11, ("full", s), solver="lp").team2_value for s in ("bloc", "pseudo-bloc", "full")]
    assert v[0] <= v[1] + 1e-10 <= v[2] + 2e-10


def test_paper_2v2_at_mesh_21():
    """§5: value 0 in the strong sense, bloc thresholds 0.75-0.8 w.p. ≈ 0.95, (0, 0.95) w.p. ≈ 0.05."""
    r = solve_teams(2, 2, 21, "full", solver="oracle")
    assert abs(r.lower) < 1e-9 and abs(r.upper) < 1e-9 and r.has_value
    for team in (1, 2):
        comps = r.components(team)
        bloc = [(p, w) for p, w in comps if max(p) - min(p) <= 0.05 + 1e-9]
        other = [(p, w) for p, w in comps if max(p) - min(p) > 0.05 + 1e-9]
        assert all(0.75 - 1e-9 <= min(p) and max(p) <= 0.8 + 1e-9 for p, _ in bloc)
        assert sum(w for _, w in bloc) == pytest.approx(0.95, abs=0.03)
        heaviest = max(other, key=lambda pw: pw[1])
        assert heaviest[0] == pytest.approx((0.0, 0.95), abs=1e-9)
        assert sum(w for _, w in other) == pytest.approx(0.05, abs=0.03)
    # "different from the symmetric Nash equilibrium": the 4-player Nash threshold
    # 2^(-1/3) ≈ 0.794 played as a bloc is not in the optimal support as a pure strategy
    assert r.team1_strategy.get((0.8, 0.8), 0.0) < 0.5


def test_validation():
    with pytest.raises(GutsInputError, match="m"):
        solve_teams(0, 2, 11)
    with pytest.raises(GutsInputError, match="structure"):
        solve_teams(2, 2, 11, structure="blob")
    with pytest.raises(GutsInputError, match="structure"):
        solve_teams(2, 2, 11, structure=("full",))
    with pytest.raises(GutsInputError, match="mesh"):
        solve_teams(2, 2, 1)
    with pytest.raises(GutsInputError, match="solver"):
        solve_teams(2, 2, 11, solver="simplex")
    with pytest.raises(GutsInputError, match="oracle"):
        solve_teams(3, 3, 101, solver="lp")
    with pytest.raises(GutsInputError):
        team_payoff_matrix([0.1, 0.2], [[0.3]])
    with pytest.raises(GutsInputError):
        TeamStage([[1.5]], [[0.2]])


def test_teams_script(tmp_path):
    from guts.cli import main

    assert main(["teams", "--cases", "2v2:11:full,1v2:11:full", "--out", str(tmp_path), "--quiet"]) == 0
    import pandas as pd

    df = pd.read_csv(tmp_path / "teams.csv")
    assert len(df) == 2 and (tmp_path / "teams.meta.json").exists()
    assert abs(df.team1_value[0]) < 1e-9
    # the 4-player symmetric Nash bloc is exploitable by a free team 2 (§1.2: optima differ from Nash)
    assert df.team2_vs_nash_bloc[0] > 0
    assert df.team2_value[1] == pytest.approx(solve_coalition(2, 11, structure="full", solver="oracle").coalition_value,
                                              abs=1e-10)
    bad = tmp_path / "bad"
    assert main(["teams", "--cases", "2x2:11:full", "--out", str(bad), "--quiet"]) == 2
    assert not bad.exists()
