"""The study writes its artefacts atomically with their parameters; tree sizes as reported."""
import json

import pandas as pd
import pytest

from guts.studies.mercer import run_beyond, run_sizes


def test_sizes_artefact(tmp_path):
    df = run_sizes(tmp_path)
    disk = pd.read_csv(tmp_path / "sizes.csv")
    assert len(disk) == len(df) == 10
    meta = json.loads((tmp_path / "sizes.meta.json").read_text())
    assert meta["file"] == "sizes.csv"
    row = disk[(disk.variant == "3P-MMH") & (disk.collusion == "none")].iloc[0]
    # the seed's explicit tree of 3P-MMH has "around 5 million nodes" (§3.4)
    assert 3e6 < row.thesis_tree_nodes < 6e6
    # information sets = decision nodes x hand types (15 two-card rank multisets)
    assert row.info_sets == 15 * row.decision_nodes
    strong = disk[(disk.variant == "3P-MMH") & disk.collusion.str.startswith("strong")]
    assert set(strong.types) == {"225/225/15", "225/15"}


def test_beyond_artefact_small(tmp_path):
    cases = (("fixed, check allowed", "smh", 2, dict(check=True)),
             ("limit (call / raise 4)", "smh", 2, dict(betting="limit")))
    df = run_beyond(tmp_path, cases=cases)
    assert (tmp_path / "beyond.csv").exists() and (tmp_path / "beyond.meta.json").exists()
    assert abs(df.value_0.iloc[0]) < 1e-9
    assert (df.exploitability < 1e-9).all()


def test_table7_rows_against_the_exact_team_lp():
    """3P-SMH Table 7 rows: the strong public victim value (CFR+ on the merged team, played
    seat by seat in the pooled game) is the merged-team LP value within the solve's NashConv;
    colluders share evenly; seats named cyclically from the victim."""
    from guts.games.poker.mercer import solve
    from guts.studies.mercer import table7_rows

    rows = pd.DataFrame(table7_rows("smh", target=1e-3 / 3))
    assert len(rows) == 2 * 3 * 4
    for team in ((0, 1), (0, 2), (1, 2)):
        victim = ({0, 1, 2} - set(team)).pop()
        exact = solve("smh", 3, "lp", collusion="strong", team=team).values[victim]
        pub = rows[(rows.kind == "strong") & (rows.scenario == "public") & (rows.team == f"{team[0]},{team[1]}")].iloc[0]
        assert abs(pub.victim_value - exact) <= pub.solve_nash_conv
        assert pub.value_A == pub.victim_value and pub.value_B == pub[f"value_{(victim + 1) % 3}"]
        assert abs(pub[f"value_{team[0]}"] - pub[f"value_{team[1]}"]) < 1e-12


#: Relative slack between a committed CSV number and the one the study computes now.
COLUMN_RTOL = 1e-12


def test_study_targets_run_the_committed_solves():
    """The studies' targets are exploitability (CFR) or every player's regret (fictitious play);
    their constants run the very solves of the committed results: the NashConv bound of each CFR
    solve (target x players) and each fictitious play's regret bound is the committed ``epsilon``."""
    from pathlib import Path

    import numpy as np

    from guts.studies.mercer import (BEYOND_TARGET, BEYOND_TARGET_2P, COLLUSION_TARGETS, WEAK_TARGET,
                                     values_items)

    results = Path(__file__).resolve().parents[3] / "results" / "mercer"
    committed = pd.read_csv(results / "values.csv")
    items = values_items()
    assert len(items) == len(committed)
    for (v, n, m, target, _opts, _note), row in zip(items, committed.itertuples()):
        assert row.method == m and row.variant == f"{n}P-{v.upper()}"
        if m == "lp":
            assert target is None and np.isnan(row.epsilon)
        else:
            bound = target if m.startswith("fp") else target * n
            assert bound == pytest.approx(row.epsilon, rel=COLUMN_RTOL)
    eps = sorted(set(pd.read_csv(results / "collusion_epsilon.csv").epsilon))
    assert sorted(3 * t for t in COLLUSION_TARGETS) == pytest.approx(eps, rel=COLUMN_RTOL)
    beyond = pd.read_csv(results / "beyond.csv")
    cfr = beyond[beyond.method != "lp"]
    expected = np.where(cfr.variant.str.startswith("2P"), 2 * BEYOND_TARGET_2P, 3 * BEYOND_TARGET)
    np.testing.assert_allclose(cfr.epsilon, expected, rtol=COLUMN_RTOL)
    assert 3 * WEAK_TARGET == pytest.approx(2e-3, rel=COLUMN_RTOL)
