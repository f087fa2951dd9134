"""Full (independent-member) coalitions against the pseudo-bloc restriction (paper §5, Appendix A).

The paper: the restricted pseudo-bloc game "correctly reproduced the results from the
independent actor method for N = 2, 3, 4, 5" (mesh 21).  Exactly, it does for
N = 2, 3, 4 and does not for N = 5.
"""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from guts import solve_coalition
from guts.games.guts.strategies import coalition_profiles, mesh, pseudo_bloc_parts
from guts.games.guts.payoffs import alpha_enumeration, beta_enumeration

ROOT = Path(__file__).resolve().parents[3]


def _script():
    import guts.studies.full_vs_pseudo_bloc as mod

    return mod


@pytest.fixture(scope="module")
def mesh21():
    return {(N, s): solve_coalition(N, 21, structure=s, solver="oracle")
            for N in (2, 3, 4, 5) for s in ("full", "pseudo-bloc", "bloc")}


@pytest.mark.parametrize("M", [21, 101])
def test_two_member_coalitions_are_identical(M):
    """N = 2: every pair (p_2, p_3) is pseudo-bloc, so both games are the same game."""
    f = solve_coalition(2, M, structure="full", solver="oracle")
    p = solve_coalition(2, M, structure="pseudo-bloc", solver="oracle")
    assert f.coalition_value == pytest.approx(p.coalition_value, abs=1e-10)


@pytest.mark.parametrize("N,M", [(2, 21), (3, 11)])
def test_multiset_reduction_equals_the_papers_product_space(N, M):
    """§4.1.3's M^N product columns and the C(M+N-1, N) multisets give the same value."""
    f = solve_coalition(N, M, structure="full", solver="lp")
    p = solve_coalition(N, M, structure="product", solver="lp")
    assert len(p.coalition_profiles) == M**N
    assert f.coalition_value == pytest.approx(p.coalition_value, abs=1e-10)


@pytest.mark.parametrize("N", [3, 4, 5])
def test_strategy_spaces_are_nested(mesh21, N):
    """bloc ⊂ pseudo-bloc ⊂ full (as multisets): the coalition's value can only grow."""
    b, p, f = (mesh21[(N, s)].coalition_value for s in ("bloc", "pseudo-bloc", "full"))
    assert b <= p + 1e-10 and p <= f + 1e-10


@pytest.mark.parametrize("N", [2, 3, 4])
def test_claim_holds_exactly_for_N_2_to_4_at_mesh_21(mesh21, N):
    f, p = mesh21[(N, "full")], mesh21[(N, "pseudo-bloc")]
    assert f.coalition_value == pytest.approx(p.coalition_value, abs=1e-9)
    # and the full game's optimal coalition strategy is itself pseudo-bloc
    for prof in f.coalition_strategy:
        vals, counts = np.unique(prof, return_counts=True)
        assert vals.size == 1 or counts.max() >= N - 1


@pytest.mark.slow
def test_claim_fails_for_N_5_at_mesh_21(mesh21):
    """N = 5, mesh 21: the full coalition provably forces more than any pseudo-bloc one.

    Rigorous: the Theorem 1.2 intervals are disjoint.  Independent: the paper's
    enumeration confirms that the full coalition's strategy holds every player-1
    threshold to at least W_full, and that player 1's pseudo-bloc strategy holds every
    pseudo-bloc column to at most W_pb (fixed-point inequalities at both values).
    """
    f, p = mesh21[(5, "full")], mesh21[(5, "pseudo-bloc")]
    W_full, W_pb = f.coalition_value, p.coalition_value
    assert -f.certified_upper > -p.certified_lower  # full's lower bound > pseudo-bloc's upper bound
    assert W_full - W_pb > 5e-4
    g = mesh(21)
    comps = f.coalition_components()
    for q in g:
        ret = sum(w * (-alpha_enumeration([q, *prof])[0] + beta_enumeration([q, *prof]) * W_full)
                  for prof, w in comps)
        assert ret >= W_full - 1e-9
    cols = coalition_profiles(5, g, "pseudo-bloc")
    x = p.player1_strategy
    V = -W_pb
    for col in cols:
        val = sum(w * (alpha_enumeration([q, *col])[0] + beta_enumeration([q, *col]) * V) for q, w in x.items())
        assert val >= V - 1e-9
    # the full optimum leaves pseudo-bloc form by one mesh step: (0, 0.9, 0.95, 0.95, 0.95)
    mod = _script()
    steps = [mod.bloc_spread_steps(prof, 0.05) for prof in f.coalition_strategy]
    assert max(steps) == pytest.approx(1.0)


def test_script_and_committed_results(tmp_path):
    """The script's rows match a direct solve, and the committed results/ are current."""
    from guts.cli import main

    assert main(["full-vs-pseudo-bloc", "--cases", "21:2-5", "--out", str(tmp_path), "--quiet"]) == 0
    df = pd.read_csv(tmp_path / "full_vs_pseudo_bloc.csv").set_index("N")
    assert list(df.index) == [2, 3, 4, 5]
    assert df.loc[[2, 3, 4], "equal"].all() and not df.loc[5, "equal"]
    assert df.loc[5, "certified_strictly_greater"]
    np.testing.assert_allclose(df.difference, df.value_full - df.value_pseudo_bloc, atol=1e-15)
    committed = pd.read_csv(ROOT / "results" / "full_vs_pseudo_bloc.csv")
    committed = committed[committed["mesh"] == 21].set_index("N").loc[[2, 3, 4, 5]]
    np.testing.assert_allclose(committed.value_full, df.value_full, atol=1e-10)
    np.testing.assert_allclose(committed.value_pseudo_bloc, df.value_pseudo_bloc, atol=1e-10)
    assert main(["full-vs-pseudo-bloc", "--cases", "21:1-3", "--out", str(tmp_path / "bad"), "--quiet"]) == 2
    assert not (tmp_path / "bad").exists()


def test_helpers():
    mod = _script()
    assert mod.parse_cases("21:2-3, 11:4") == [(4, 11), (2, 21), (3, 21)]
    assert pseudo_bloc_parts((0.0, 0.9, 0.9)) == (0.0, 0.9)          # sorted multisets: any member free
    assert pseudo_bloc_parts((0.9, 0.9, 0.95)) == (0.95, 0.9)
    assert pseudo_bloc_parts((0.0, 0.9, 0.95, 0.95)) is None
    assert mod.bloc_spread_steps((0.0, 0.9, 0.95, 0.95, 0.95), 0.05) == pytest.approx(1.0)
    assert mod.bloc_spread_steps((0.8, 0.8, 0.82, 0.82), 0.02) == pytest.approx(1.0)
    assert mod.bloc_spread_steps((0.0, 0.9, 0.9), 0.05) == 0.0
