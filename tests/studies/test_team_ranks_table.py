"""The belief DAG over Leduc's ranks against the DAG over its cards
(``benchmarks/team_leduc_ranks.py``): docs/teams.md shows what ``guts.studies.team_games``
computes from the committed CSV, and the committed brackets obey what certified brackets of
one value must."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from guts import GutsInputError
from guts.studies.team_games import RANKS_END, RANKS_START, documented_table, read_team_ranks, team_ranks_markdown

ROOT = Path(__file__).resolve().parents[2]
CSV = ROOT / "results" / "benchmarks" / "team_leduc_ranks.csv"
#: Rounding of the CSV's floats.
TOL = 1e-9


def test_docs_table_is_the_committed_csv():
    shown = documented_table((ROOT / "docs" / "teams.md").read_text(encoding="utf-8"), RANKS_START, RANKS_END)
    assert shown == team_ranks_markdown(read_team_ranks(CSV)), \
        "docs/teams.md is stale: paste `python benchmarks/team_leduc_ranks.py --table`"


def test_committed_brackets_of_one_seat_overlap_and_ranks_are_narrower():
    # both graphs certify the same game's correlated value: their brackets must intersect;
    # the graph over ranks, 38 times smaller, is the narrower in the same time
    df = read_team_ranks(CSV)
    assert set(df["graph"]) == {"ranks", "cards"}
    for (_game, _adv), g in df.groupby(["game", "adversary"]):
        assert (g["lower"] <= g["upper"] + TOL).all()
        assert g["lower"].max() <= g["upper"].min() + TOL
        if len(g) == 2:
            r, c = (g[g["graph"] == k].iloc[0] for k in ("ranks", "cards"))
            assert r["regrets"] < c["regrets"] and r["width"] < c["width"]
            assert abs(r["width_ratio"] - c["width"] / r["width"]) <= 1e-6 * r["width_ratio"]


def test_table_from_a_constructed_csv(tmp_path):
    rows = [dict(game="g", ranks=3, adversary=0, graph="ranks", regrets=1234567, value=0.5, lower=0.4,
                 upper=0.6, width=0.2, num_iter=10, seconds=1.4, width_ratio=2.0),
            dict(game="g", ranks=3, adversary=0, graph="cards", regrets=9, value=0.5, lower=0.3,
                 upper=0.7, width=0.4, num_iter=5, seconds=1.6)]
    pd.DataFrame(rows).to_csv(tmp_path / "team_leduc_ranks.csv", index=False)
    lines = team_ranks_markdown(read_team_ranks(tmp_path)).splitlines()
    assert lines[2] == "| g | 0 | ranks | 1 234 567 | [0.400000, 0.600000] | 2.0e-01 | 10 | 1 | 2x |"
    assert lines[3].endswith("| 5 | 2 |  |")


def test_a_missing_or_foreign_csv_is_named(tmp_path):
    with pytest.raises(GutsInputError, match="team_leduc_ranks.py"):
        read_team_ranks(tmp_path)
    pd.DataFrame({"game": ["g"]}).to_csv(tmp_path / "team_leduc_ranks.csv", index=False)
    with pytest.raises(GutsInputError, match="lacks the columns"):
        read_team_ranks(tmp_path)


def test_table_mode_prints_the_docs_table(capsys):
    """``python benchmarks/team_leduc_ranks.py --table`` (docs/teams.md) solves nothing and prints
    the documented table."""
    spec = importlib.util.spec_from_file_location("team_ranks_benchmark", ROOT / "benchmarks" / "team_leduc_ranks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--table", "--out", str(CSV.parent)])
    assert capsys.readouterr().out.strip() == team_ranks_markdown(read_team_ranks(CSV))
    with pytest.raises(SystemExit):
        module.main(["--table", "--out", str(ROOT / "no-such-folder")])
    assert "team_leduc_ranks.py" in capsys.readouterr().err


def test_readme_row_quotes_the_committed_csv():
    """README.md's row: each seat's bracket width over ranks and over cards after the same time
    (Leduc with 3 ranks), and the range of their ratios, to the row's digits."""
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| team games over ranks")]
    assert len(rows) == 1
    cells = rows[0].split(" | ")
    df = read_team_ranks(CSV)
    df = df[df["ranks"] == 3].sort_values("adversary")
    ranks, cards = (df[df["graph"] == g]["width"].to_numpy() for g in ("ranks", "cards"))
    assert ", ".join(f"{w:.1e}".replace("e-0", "e-") for w in ranks) in cells[1]
    assert ", ".join(f"{w:.1e}".replace("e-0", "e-") for w in cards) in cells[2]
    ratios = cards / ranks
    assert f"{min(ratios):.0f}–{max(ratios):.0f}×" in cells[3]
