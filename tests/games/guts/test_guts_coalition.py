"""Table 1 of the paper, row by row, and the 1 v. N solver's contract."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError, solve_coalition
from guts.studies.table1 import TABLE1_COLUMNS, paper_table1, run_table1
from guts.studies.output import read_run_record

STEP = 0.01 + 1e-9  # one mesh step at mesh 101


@pytest.fixture(scope="module")
def table():
    """All 15 rows, exact (double-oracle LP), Newton fixed point, certified."""
    return run_table1(range(1, 16), mesh=101, solver="oracle", method="newton", jobs=1, out=None,
                      progress=False).set_index("N")


@pytest.mark.parametrize("N", range(1, 16))
def test_table1_row(table, N):
    paper = paper_table1().set_index("N").loc[N]
    row = table.loc[N]
    # the paper used fictitious play: agreement to its precision (5e-4), never nudged
    assert abs(row.opponent_value - paper.opponent_value) < 5e-4
    assert abs(row.player1_strategy - paper.player1_strategy) <= STEP
    assert abs(row.bloc_strategy - paper.bloc_strategy) <= STEP
    if N >= 2:
        assert abs(row.pseudo_bloc_strategy - paper.pseudo_bloc_strategy) <= STEP
        assert row.pseudo_bloc_free == 0.0  # the free member always holds
        assert 0.05 < row.pseudo_bloc_weight < 0.5  # "around 10-30 percent, increasing"
    # both sides meet: the game has a value; the certificate brackets it tightly
    assert abs(row.value_lower - row.value_upper) < 1e-9
    assert abs(row.opponent_value + row.value_lower) < 1e-9
    assert row.certified_lower <= row.value_lower + 1e-12
    assert row.value_upper <= row.certified_upper + 1e-12
    assert row.certified_upper - row.certified_lower <= 1e-8
    assert row.converged


def test_coalition_advantage_grows_with_N(table):
    v = table.opponent_value.to_numpy()
    assert abs(v[0]) < 1e-12
    assert np.all(np.diff(v) > 0)


def test_paper_prose_for_1v2(table):
    """§5: players 2-3 win about 0.013; bloc 0.68 about 86% of the time, (0, 0.86) otherwise."""
    row = table.loc[2]
    assert row.opponent_value == pytest.approx(0.013, abs=5e-4)
    assert row.pseudo_bloc_weight == pytest.approx(0.14, abs=0.03)


def test_lp_and_double_oracle_agree():
    """Column generation is exact: same value as the full LP (issue: to 1e-10)."""
    for N in (2, 5):
        lp = solve_coalition(N, 41, solver="lp")
        do = solve_coalition(N, 41, solver="oracle")
        assert do.coalition_value == pytest.approx(lp.coalition_value, abs=1e-10)
        assert do.lower == pytest.approx(lp.lower, abs=1e-10)


def test_plain_iteration_matches_newton():
    it = solve_coalition(3, 41, solver="oracle", method="iterate")
    nt = solve_coalition(3, 41, solver="oracle", method="newton")
    assert it.coalition_value == pytest.approx(nt.coalition_value, abs=1e-9)
    assert it.num_solves > 2 * nt.num_solves


def test_fictitious_play_is_close_and_reports_its_gap():
    r = solve_coalition(2, 21, solver="fp", method="iterate", fp_iterations=2000, random_state=0)
    exact = solve_coalition(2, 21, solver="lp")
    # FP's error is visible: within a few inner gaps of the exact value
    assert abs(r.coalition_value - exact.coalition_value) <= 5 * max(r.coalition.inner_gap, 1e-4)
    assert r.coalition.inner_gap > 0


def test_result_fields():
    r = solve_coalition(size=2, mesh=21, structure="pseudo-bloc", solver="lp")
    assert set(r.player1_strategy) <= set(np.round(np.linspace(0, 1, 21), 12))
    assert math.isclose(sum(r.player1_strategy.values()), 1.0, abs_tol=1e-12)
    assert math.isclose(sum(r.coalition_strategy.values()), 1.0, abs_tol=1e-12)
    assert all(len(k) == 2 for k in r.coalition_strategy)
    assert r.history[0] == -1.0 and r.coalition_history[0] == -2.0
    assert r.iterations == len(r.history) - 1
    assert r.lower == r.player1_value and r.upper == -r.coalition_value


def test_coalition_mesh_may_differ():
    r = solve_coalition(2, 21, coalition_mesh=11, solver="lp")
    assert r.mesh == 21 and all(v in np.round(np.linspace(0, 1, 11), 12) for k in r.coalition_strategy for v in k)


@pytest.mark.parametrize("kwargs,match", [
    (dict(size=0), "size"), (dict(size=2, mesh=1), "mesh"), (dict(size=2, structure="clique"), "structure"),
    (dict(size=2, solver="simplex"), "solver"), (dict(size=2, mesh=[0.1, np.nan]), r"\[0, 1\]"),
    (dict(size=2, mesh=[0.5, 1.5]), r"\[0, 1\]"), (dict(size=2, method="secant"), "method"),
    (dict(size=2, tol=-1), "tol")])
def test_bad_input(kwargs, match):
    with pytest.raises(GutsInputError, match=match):
        solve_coalition(**kwargs)


def test_csv_columns(tmp_path):
    df = run_table1([1, 2], mesh=21, solver="oracle", out=tmp_path, progress=False)
    disk = pd.read_csv(tmp_path / "table1.csv")
    required = ["N", "mesh", "opponent_value", "value_lower", "value_upper", "player1_strategy", "bloc_strategy",
                "pseudo_bloc_strategy", "pseudo_bloc_weight", "player1_support", "coalition_support",
                "iterations", "status"]
    # the row times go to the run record: a rerun of the default command leaves the CSV and the meta
    # file byte-identical
    assert set(required) <= set(disk.columns) and list(disk.columns) == [c for c in TABLE1_COLUMNS if c != "seconds"]
    meta = json.loads((tmp_path / "table1.meta.json").read_text())
    assert "row_seconds" not in meta and "created_utc" not in meta
    assert sorted(read_run_record(tmp_path / "table1.csv")["row_seconds"]) == ["1", "2"]
    np.testing.assert_allclose(disk.opponent_value, df.opponent_value, atol=1e-14)
    # supports are threshold:probability lists
    for item in disk.player1_support[1].split():
        t, p = item.split(":")
        assert 0 <= float(t) <= 1 and 0 < float(p) <= 1


@pytest.mark.slow
def test_full_lp_equals_double_oracle_on_every_table1_row(table):
    """Column generation must equal the full LP to 1e-10 on every Table 1 row (mesh 101)."""
    lp = run_table1(range(1, 16), mesh=101, solver="lp", method="newton", jobs=2, out=None,
                    progress=False).set_index("N")
    np.testing.assert_allclose(lp.opponent_value, table.opponent_value, rtol=0, atol=1e-10)
    np.testing.assert_allclose(lp.value_lower, table.value_lower, rtol=0, atol=1e-10)


@pytest.mark.parametrize("N", [1, 2, 3, 5])
def test_bloc_game_has_value_zero_at_symmetric_equilibrium(N):
    """Proposition 3.3: against bloc coalitions p* = 2^(-1/N) forces exactly 0 (mesh containing p*)."""
    ps = 2.0 ** (-1.0 / N)
    grid = np.unique(np.r_[np.linspace(0, 1, 41), ps])
    r = solve_coalition(N, mesh=grid, structure="bloc", solver="lp")
    assert abs(r.coalition_value) < 1e-10 and abs(r.lower) < 1e-10
    assert r.certified_lower > -1e-9
    # p* is an optimal fixed-point strategy for player 1: it alone certifies the value 0
    from guts import certify
    from guts.games.guts.coalition import coalition_stage

    stage = coalition_stage(N, grid, "bloc")
    x = (np.abs(grid - ps) < 1e-15).astype(float)
    c = certify(stage, strategy=x, v_start=-1.0)
    assert c.valid and c.v_certified > -1e-9
