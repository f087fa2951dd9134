"""Time per game of the team-games benchmark (``benchmarks/team_games.py``), from its CSV.

The benchmark writes one row per game x adversary seat x regime x method;
:func:`team_game_times` sums the seconds over the three adversary seats and keeps the widest
certificate and whether every seat converged, one row per game and method.
:func:`team_game_times_markdown` is the table shown in ``docs/teams.md`` between
:data:`TABLE_START` and :data:`TABLE_END`.

    python benchmarks/team_games.py --table        # prints the table from results/benchmarks/team_games.csv
    python benchmarks/team_games.py --table seats  # the per-seat values and times (team_game_seats_markdown)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from guts import GutsInputError

TABLE_START, TABLE_END = "<!-- team-times:start -->", "<!-- team-times:end -->"
#: The markers of the per-seat table (:func:`team_game_seats_markdown`) in ``docs/teams.md``.
SEATS_START, SEATS_END = "<!-- team-seats:start -->", "<!-- team-seats:end -->"
#: A certificate at most this wide shows as one value in the per-seat table (the benchmark's target).
CLOSED_WIDTH = 1e-9
#: Columns of the benchmark's CSV this table reads.
CSV_COLUMNS = ("game", "ranks", "adversary", "regime", "method", "width", "converged", "seconds")
#: The order of the methods within a game (the benchmark's order).
METHOD_ORDER = ("lp", "belief-dag", "column-generation", "column-generation-milp", "coordinate-ascent")
#: How each method reads in the table.
METHOD_LABELS = {"lp": "sequence-form LP", "belief-dag": "belief DAG, discounted CFR",
                 "column-generation": "column generation, DP pricing",
                 "column-generation-milp": "column generation, MILP pricing",
                 "coordinate-ascent": "local search (from the correlated solution)"}


def _read_csv(path, filename: str, columns, what: str, script: str) -> pd.DataFrame:
    """The CSV ``filename`` written by ``script`` at ``path`` (the file, or its folder), with
    its ``columns`` checked; one clear line when it is missing or lacks them."""
    path = Path(path)
    if path.is_dir():
        path = path / filename
    if not path.is_file():
        raise GutsInputError(f"no {what} CSV at {str(path)!r}; expected the file written by "
                             f"{script} (or its folder)")
    df = pd.read_csv(path)
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise GutsInputError(f"{str(path)!r} lacks the columns {', '.join(missing)}; "
                             f"accepted: a CSV written by {script}")
    return df


def read_team_games(path) -> pd.DataFrame:
    """The benchmark's CSV at ``path`` (a file, or the folder holding ``team_games.csv``)."""
    return _read_csv(path, "team_games.csv", CSV_COLUMNS, "team-games", "benchmarks/team_games.py")


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


def _bracket(lower: float, upper: float) -> str:
    if upper - lower <= CLOSED_WIDTH:
        return f"{(lower + upper) / 2:.6f}"
    return f"[{lower:.4f}, {upper:.4f}]"


def team_game_seats_markdown(df: pd.DataFrame) -> str:
    """Per game and adversary seat: the three regimes' values (one value where the certificate is
    closed to :data:`CLOSED_WIDTH`, else the bracket; independent: the certified value of the profile
    found) and the seconds of the default correlated solve (the belief DAG where the benchmark ran
    it, else column generation priced by the dynamic programme) and of the MILP-priced column
    generation ("—" not run; "no plan in N s" where the MILP pricing found no first plan within
    the time limit)."""
    lines = ["| game | adversary | communication | correlated | independent (found) | correlated s (default) | "
             "correlated s (MILP) |", "|---|---|---|---|---|---|---|"]
    for game in dict.fromkeys(df["game"]):
        g = df[df["game"] == game]
        for adv in sorted(set(g["adversary"])):
            s = g[g["adversary"] == adv].set_index("method")
            default = "belief-dag" if "belief-dag" in s.index else "column-generation"
            com, cor, ind = (s.loc[m] if m in s.index else None for m in ("lp", default, "coordinate-ascent"))
            milp = s.loc["column-generation-milp"] if "column-generation-milp" in s.index else None
            if milp is None:
                milp_s = "—"
            elif np.isnan(milp["width"]):
                milp_s = f"no plan in {milp['seconds']:.0f} s"
            else:
                milp_s = f"{milp['seconds']:.1f}"
            cells = [game, str(adv),
                     "—" if com is None else _bracket(com["lower"], com["upper"]),
                     "—" if cor is None else _bracket(cor["lower"], cor["upper"]),
                     "—" if ind is None else f"{ind['lower']:.6f}",
                     "—" if cor is None else f"{cor['seconds']:.1f}", milp_s]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def documented_table(text: str, start_marker: str = TABLE_START, end_marker: str = TABLE_END) -> str:
    """The table between ``start_marker`` and ``end_marker`` (default :data:`TABLE_START`,
    :data:`TABLE_END`) in ``text`` (a docs page)."""
    try:
        start = text.index(start_marker) + len(start_marker)
        end = text.index(end_marker, start)
    except ValueError:
        raise GutsInputError(f"the page has no {start_marker} ... {end_marker} block") from None
    return text[start:end].strip()


#: The markers of the pair-relaxation table (:func:`team_relaxation_markdown`) in ``docs/teams.md``.
RELAXATION_START, RELAXATION_END = "<!-- team-relaxation:start -->", "<!-- team-relaxation:end -->"
#: Columns of ``benchmarks/team_relaxation.py``'s CSV that the table reads.
RELAXATION_COLUMNS = ("game", "adversary", "pairs", "relaxation", "seconds", "cut", "communication", "correlated")


def read_team_relaxation(path) -> pd.DataFrame:
    """``benchmarks/team_relaxation.py``'s CSV at ``path`` (a file, or the folder holding
    ``team_relaxation.csv``)."""
    return _read_csv(path, "team_relaxation.csv", RELAXATION_COLUMNS, "team-relaxation",
                     "benchmarks/team_relaxation.py")


def _cell(x: float, digits: int = 6) -> str:
    return "—" if np.isnan(x) else f"{x:.{digits}f}"


def team_relaxation_markdown(df: pd.DataFrame, team_games: pd.DataFrame) -> str:
    """Per game and adversary seat: the relaxation's pairs, its certified bound, the exact
    correlated value ("—" where out of reach), the default column generation's upper end in
    ``team_games`` (the team-games benchmark's CSV, :func:`read_team_games`; "—" where it has no
    row), the bound of the relaxation cut at the first public chance event ("—" where the game
    has none: the same LP), the communication value and the relaxation's seconds."""
    cg = team_games[(team_games["regime"] == "correlated") & (team_games["method"] == "column-generation")]
    cg_upper = {(g, int(a)): float(u) for g, a, u in zip(cg["game"], cg["adversary"], cg["upper"])}
    lines = ["| game | adversary | pairs | relaxation (upper) | correlated (exact) | column generation's upper "
             "end | cut at the board card (upper) | communication | seconds |", "|---|---|---|---|---|---|---|---|---|"]
    for _, r in df.iterrows():
        cells = [str(r["game"]), str(int(r["adversary"])), f"{int(r['pairs']):,}".replace(",", " "),
                 _cell(float(r["relaxation"])), _cell(float(r["correlated"])), _cell(cg_upper.get((r["game"], int(r["adversary"])), np.nan), 4),
                 _cell(float(r["cut"])), _cell(float(r["communication"])), f"{float(r['seconds']):.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: The markers of the merged-types table (:func:`team_ranks_markdown`) in ``docs/teams.md``.
RANKS_START, RANKS_END = "<!-- team-ranks:start -->", "<!-- team-ranks:end -->"
#: Columns of ``benchmarks/team_leduc_ranks.py``'s CSV that the table reads.
RANKS_COLUMNS = ("game", "adversary", "graph", "regrets", "lower", "upper", "width", "num_iter", "seconds")


def read_team_ranks(path) -> pd.DataFrame:
    """``benchmarks/team_leduc_ranks.py``'s CSV at ``path`` (a file, or the folder holding
    ``team_leduc_ranks.csv``)."""
    return _read_csv(path, "team_leduc_ranks.csv", RANKS_COLUMNS, "team belief DAG over ranks",
                     "benchmarks/team_leduc_ranks.py")


def team_ranks_markdown(df: pd.DataFrame) -> str:
    """Per game and adversary seat: the belief DAG over the members' ranks and over their cards
    (where run) in the same time, each its regrets, certified bracket, width, iterations and
    seconds, and the ratio of the widths (cards / ranks)."""
    lines = ["| game | adversary | graph | regrets | correlated (certified) | width | iterations | seconds | "
             "width ratio |", "|---|---|---|---|---|---|---|---|---|"]
    for _, r in df.iterrows():
        ratio = r.get("width_ratio", np.nan)
        cells = [r["game"], str(r["adversary"]), r["graph"], f"{int(r['regrets']):,}".replace(",", " "),
                 f"[{r['lower']:.6f}, {r['upper']:.6f}]", f"{r['width']:.1e}", str(int(r["num_iter"])),
                 f"{r['seconds']:.0f}", "" if pd.isna(ratio) else f"{ratio:.0f}x"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
