"""The time-per-game table of the team-games benchmark: docs/teams.md shows what
``guts.studies.team_games`` computes from the committed CSV, and README.md's team row quotes it."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError
from guts.studies.team_games import (
    SEATS_END,
    SEATS_START,
    documented_table,
    read_team_games,
    team_game_seats_markdown,
    team_game_times,
    team_game_times_markdown,
)

ROOT = Path(__file__).resolve().parents[2]
CSV = ROOT / "results" / "benchmarks" / "team_games.csv"
#: Sums of a handful of float seconds (and printed figures read back): exact up to rounding.
SUM_RTOL = 1e-12
#: The benchmark's convergence target for a certificate width.
TARGET_WIDTH = 1e-9
SEATS = 3


def test_docs_table_is_the_committed_csv():
    """The table between the markers in docs/teams.md is regenerated from the committed CSV
    (so editing the CSV without the docs, or the docs by hand, fails here)."""
    computed = team_game_times_markdown(team_game_times(read_team_games(CSV)))
    shown = documented_table((ROOT / "docs" / "teams.md").read_text(encoding="utf-8"))
    assert shown == computed, "docs/teams.md is stale: paste `python benchmarks/team_games.py --table`"


def test_docs_seat_table_is_the_committed_csv():
    """The per-seat table of docs/teams.md is regenerated from the committed CSV."""
    shown = documented_table((ROOT / "docs" / "teams.md").read_text(encoding="utf-8"), SEATS_START, SEATS_END)
    assert shown == team_game_seats_markdown(read_team_games(CSV)), \
        "docs/teams.md is stale: paste `python benchmarks/team_games.py --table seats`"


def test_seat_table_from_a_constructed_csv(tmp_path):
    """Closed brackets read as one value, open ones as the bracket, a MILP pricing without a plan
    as "no plan", a method not run as "—" (values chosen by hand)."""
    nan = float("nan")
    rows = [dict(game="g r=3", ranks=3, adversary=0, regime="communication", method="lp",
                 lower=0.25, upper=0.25, width=0.0, converged=True, seconds=1.0),
            dict(game="g r=3", ranks=3, adversary=0, regime="correlated", method="column-generation",
                 lower=0.125, upper=0.1875, width=0.0625, converged=False, seconds=120.0),
            dict(game="g r=3", ranks=3, adversary=0, regime="correlated", method="column-generation-milp",
                 lower=nan, upper=nan, width=nan, converged=False, seconds=121.0),
            dict(game="g r=3", ranks=3, adversary=0, regime="independent", method="coordinate-ascent",
                 lower=0.0625, upper=0.1875, width=0.125, converged=False, seconds=3.0)]
    pd.DataFrame(rows).to_csv(tmp_path / "team_games.csv", index=False)
    line = team_game_seats_markdown(read_team_games(tmp_path)).splitlines()[-1]
    assert line == "| g r=3 | 0 | 0.250000 | [0.1250, 0.1875] | 0.062500 | 120.0 | no plan in 121 s |"
    pd.DataFrame(rows[:2]).to_csv(tmp_path / "team_games.csv", index=False)
    line = team_game_seats_markdown(read_team_games(tmp_path)).splitlines()[-1]
    assert line.endswith("| — | 120.0 | — |")


def test_times_are_sums_over_the_seats_and_flags_are_all_seats():
    df = read_team_games(CSV)
    times = team_game_times(df)
    # one row per (game, method) of the CSV, each over the three adversary seats
    assert len(times) == df.groupby(["game", "method"]).ngroups
    assert (times["seats"] == SEATS).all()
    assert times["seconds"].sum() == pytest.approx(df["seconds"].sum(), rel=SUM_RTOL)
    for r in times.itertuples(index=False):
        rows = df[(df.game == r.game) & (df.method == r.method)]
        assert r.seconds == pytest.approx(sum(rows.seconds), rel=SUM_RTOL)
        if rows.width.isna().all():       # no bracket on any seat (a MILP pricing that found no plan)
            assert np.isnan(r.max_width) and not r.converged
        else:
            assert r.max_width >= rows.width.max()  # the widest seat, no narrower
        assert r.converged == all(rows.converged)
        # converged means the certificate closed to the benchmark's target on every seat
        if r.converged and r.regime != "independent":
            assert r.max_width <= TARGET_WIDTH


def test_table_from_a_constructed_csv(tmp_path):
    """An independent check on a hand-made CSV: two seats, sums and flags read by hand."""
    rows = [dict(game="g r=3", ranks=3, adversary=a, regime="correlated", method="column-generation",
                 width=w, converged=c, seconds=s)
            for a, w, c, s in ((0, 0.0, True, 0.5), (1, 0.25, False, 1.5))]
    rows.insert(0, dict(game="g r=3", ranks=3, adversary=0, regime="communication", method="lp",
                        width=0.0, converged=True, seconds=2.0))
    pd.DataFrame(rows).to_csv(tmp_path / "team_games.csv", index=False)
    times = team_game_times(read_team_games(tmp_path))
    assert list(times.method) == ["lp", "column-generation"]
    cg = times.iloc[1]
    assert cg.seconds == pytest.approx(2.0) and cg.max_width == pytest.approx(0.25)
    assert not cg.converged and cg.seats_converged == 1 and cg.seats == 2
    line = team_game_times_markdown(times).splitlines()[-1]
    assert "| 2.00 | 2.5e-01 | no (1 of 2 seats) |" in line


def test_a_method_without_a_bracket_reads_none(tmp_path):
    """A solve that found no bracket on any seat (NaN widths) is summed by time and shown as "none"."""
    rows = [dict(game="g r=3", ranks=3, adversary=a, regime="correlated", method="column-generation-milp",
                 width=float("nan"), converged=False, seconds=3.0) for a in (0, 1)]
    pd.DataFrame(rows).to_csv(tmp_path / "team_games.csv", index=False)
    times = team_game_times(read_team_games(tmp_path))
    assert times.iloc[0].seconds == pytest.approx(6.0) and np.isnan(times.iloc[0].max_width)
    assert "| 6.00 | none | no (0 of 2 seats) |" in team_game_times_markdown(times).splitlines()[-1]


def test_bad_inputs_name_what_is_accepted(tmp_path):
    with pytest.raises(GutsInputError, match="team-games CSV"):
        read_team_games(tmp_path / "missing.csv")
    (tmp_path / "team_games.csv").write_text("a,b\n1,2\n")
    with pytest.raises(GutsInputError, match="lacks the columns"):
        read_team_games(tmp_path)
    with pytest.raises(GutsInputError, match="team-times:start"):
        documented_table("no table here")


@pytest.mark.slow  # imports the solvers the benchmark runs (about 1.7 s cold)
def test_table_mode_prints_the_docs_table(capsys):
    """``python benchmarks/team_games.py --table`` (the command docs/teams.md shows) solves nothing
    and prints the documented table."""
    spec = importlib.util.spec_from_file_location("team_games_benchmark", ROOT / "benchmarks" / "team_games.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--table", "--out", str(CSV.parent)])
    assert capsys.readouterr().out.strip() == team_game_times_markdown(team_game_times(read_team_games(CSV)))
    module.main(["--table", "seats", "--out", str(CSV.parent)])
    assert capsys.readouterr().out.strip() == team_game_seats_markdown(read_team_games(CSV))
    with pytest.raises(SystemExit):  # argparse's one-line error for a missing CSV
        module.main(["--table", "--out", str(ROOT / "no-such-folder")])
    assert "no team-games CSV" in capsys.readouterr().err


def _readme_team_row() -> str:
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| team games with ex-ante correlation")]
    assert len(rows) == 1
    return rows[0]


def _two_significant(x: float) -> float:
    return float(f"{x:.2g}")


def test_readme_team_row_quotes_the_committed_csv():
    """README.md's team row (3 seats summed; 4 and 5 ranks; 8 ranks) equals the CSV to its digits."""
    row = _readme_team_row()
    assert "docs/teams.md" in row
    times = team_game_times(read_team_games(CSV))
    times = times[times.game.str.startswith("kuhn")].set_index(["ranks", "method"]).seconds
    dp = {r: times[(r, "column-generation")] for r in (4, 5, 8)}
    milp = {r: times[(r, "column-generation-milp")] for r in (4, 5)}
    cells = row.split(" | ")
    assert f"{dp[4]:.2f} s; {dp[5]:.2f} s" in cells[1] and f"8 ranks: {dp[8]:.1f} s" in cells[1]
    assert f"{milp[4]:.1f} s; {milp[5]:.0f} s" in cells[2]
    ratios = [float(x) for x in re.findall(r"([\d.]+)×", cells[3])]
    assert ratios == pytest.approx([_two_significant(milp[r] / dp[r]) for r in (4, 5)], rel=SUM_RTOL)
    # the row's command is the one the committed set records
    meta = json.loads(CSV.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert cells[4].strip(" `|") == meta["command"]


def _leduc_widths():
    df = read_team_games(CSV)
    cor = df[(df.game == "leduc3 r=3") & (df.regime == "correlated")].set_index(["method", "adversary"])
    dag = [float(cor.loc[("belief-dag", a), "width"]) for a in range(3)]
    cg = [float(cor.loc[("column-generation", a), "width"]) for a in range(3)]
    return dag, cg


def test_readme_leduc_team_row_quotes_the_committed_csv():
    """README.md's Leduc team row: each seat's bracket width after the same time, the belief DAG's
    and column generation's, and the range of their ratios, to the row's digits."""
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| team games on three-player Leduc")]
    assert len(rows) == 1
    cells = rows[0].split(" | ")
    dag, cg = _leduc_widths()
    assert ", ".join(f"{w:.2g}" for w in dag) in cells[1]
    assert ", ".join(f"{w:.2g}" for w in cg) in cells[2]
    ratios = [c / d for c, d in zip(cg, dag)]
    assert f"{min(ratios):.0f}–{max(ratios):.0f}×" in cells[3]
