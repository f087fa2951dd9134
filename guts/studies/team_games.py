"""Time per game of the team-games benchmark (``benchmarks/team_games.py``), from its CSV.

The benchmark writes one row per game x adversary seat x regime x method;
:func:`team_game_times` sums the seconds over the three adversary seats and keeps the widest
certificate and whether every seat converged, one row per game and method.
:func:`team_game_times_markdown` is the table shown in ``docs/teams.md`` between
:data:`TABLE_START` and :data:`TABLE_END`.

    python benchmarks/team_games.py --table        # prints the table from results/benchmarks/team_games.csv
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from guts import GutsInputError

TABLE_START, TABLE_END = "<!-- team-times:start -->", "<!-- team-times:end -->"
#: Columns of the benchmark's CSV this table reads.
CSV_COLUMNS = ("game", "ranks", "adversary", "regime", "method", "width", "converged", "seconds")
#: The order of the methods within a game (the benchmark's order).
METHOD_ORDER = ("lp", "column-generation", "column-generation-milp", "coordinate-ascent")
#: How each method reads in the table.
METHOD_LABELS = {"lp": "sequence-form LP", "column-generation": "column generation, DP pricing",
                 "column-generation-milp": "column generation, MILP pricing",
                 "coordinate-ascent": "local search (from the correlated solution)"}


def read_team_games(path) -> pd.DataFrame:
    """The benchmark's CSV at ``path`` (a file, or the folder holding ``team_games.csv``)."""
    path = Path(path)
    if path.is_dir():
        path = path / "team_games.csv"
    if not path.is_file():
        raise GutsInputError(f"no team-games CSV at {str(path)!r}; expected the file written by "
                             f"benchmarks/team_games.py (or its folder)")
    df = pd.read_csv(path)
    missing = [c for c in CSV_COLUMNS if c not in df.columns]
    if missing:
        raise GutsInputError(f"{str(path)!r} lacks the columns {', '.join(missing)}; "
                             f"accepted: a CSV written by benchmarks/team_games.py")
    return df


def team_game_times(df: pd.DataFrame) -> pd.DataFrame:
    """Per game and method: seconds summed over the adversary seats, the widest certificate
    (``upper - lower``; the largest over the seats), and how many seats converged.

    Columns: game, ranks, regime, method, seats, seconds, max_width, converged (every seat),
    seats_converged.  Rows in the CSV's game order, the methods in :data:`METHOD_ORDER`.
    """
    df = df.copy()
    df["converged"] = df["converged"].astype(str).str.lower().eq("true")
    games = list(dict.fromkeys(df["game"]))
    rows = []
    for game in games:
        g = df[df["game"] == game]
        methods = sorted(set(g["method"]), key=lambda m: (METHOD_ORDER.index(m) if m in METHOD_ORDER
                                                          else len(METHOD_ORDER), m))
        for method in methods:
            s = g[g["method"] == method]
            rows.append(dict(game=game, ranks=int(s["ranks"].iloc[0]), regime=str(s["regime"].iloc[0]),
                             method=method, seats=int(s["adversary"].nunique()),
                             seconds=float(s["seconds"].sum()), max_width=float(s["width"].max()),
                             converged=bool(s["converged"].all()), seats_converged=int(s["converged"].sum())))
    return pd.DataFrame(rows)


def team_game_times_markdown(times: pd.DataFrame) -> str:
    """The markdown table of :func:`team_game_times` (seconds to 2 decimals, widths to 1 digit; a
    method that ended without a bracket on every seat reads "none")."""
    lines = ["| game | ranks | regime | method | seconds (all seats) | widest certificate | converged |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in times.itertuples(index=False):
        conv = ("yes" if r.converged else "no") + f" ({r.seats_converged} of {r.seats} seats)"
        lines.append(f"| {r.game} | {r.ranks} | {r.regime} | {METHOD_LABELS.get(r.method, r.method)} | "
                     f"{r.seconds:.2f} | {'none' if np.isnan(r.max_width) else f'{r.max_width:.1e}'} | {conv} |")
    return "\n".join(lines)


def documented_table(text: str) -> str:
    """The table between :data:`TABLE_START` and :data:`TABLE_END` in ``text`` (a docs page)."""
    try:
        start = text.index(TABLE_START) + len(TABLE_START)
        end = text.index(TABLE_END, start)
    except ValueError:
        raise GutsInputError(f"the page has no {TABLE_START} ... {TABLE_END} block") from None
    return text[start:end].strip()
