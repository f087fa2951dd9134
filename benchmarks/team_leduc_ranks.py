"""Three-player Leduc's correlated (TMECor) value by the team belief DAG over the members' card
ranks instead of their cards, the adversary in every seat.

    PYTHONPATH=. python benchmarks/team_leduc_ranks.py [--out results/benchmarks] [--ranks 3 4]
                                                       [--time-limit 120] [--cards-max-ranks 3]
    python benchmarks/team_leduc_ranks.py --table    # docs/teams.md's table from <out>/team_leduc_ranks.csv

A card's suit never changes a payoff in Leduc hold'em, so the members' plans may see only
their card's rank (``solve_team(..., member_types={seat: ranks})``): the graph has ``2^ranks``
sets of each member's types instead of ``2^cards``.  Every bracket is certified in the game
with cards (the adversary's exact best response there, and the team's exact best response
over plans that see the cards), so the rows say what the merge costs, if anything.  For
decks of up to ``--cards-max-ranks`` ranks the DAG over cards runs beside it for the same time.

Writes ``<out>/team_leduc_ranks.csv`` (+ ``.meta.json``): one row per deck x adversary seat x
graph (``ranks`` or ``cards``) with the bracket, its width, iterations, seconds and the
graph's regrets; ``width_ratio`` = width(cards) / width(ranks) in the same time.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.engine.extensive import solve_team  # noqa: E402
from guts.engine.extensive.team import _merge_types, _Team  # noqa: E402
from guts.engine.extensive.team_dag import dag_size  # noqa: E402
from guts.errors import ConvergenceWarning  # noqa: E402
from guts.games.toy import leduc_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402

SUITS = 2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--ranks", type=int, nargs="+", default=[3, 4], help="decks (ranks, two suits each)")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    ap.add_argument("--cards-max-ranks", type=int, default=3,
                    help="the DAG over cards beside it up to this many ranks (4 ranks: 925 million regrets)")
    ap.add_argument("--table", action="store_true",
                    help="solve nothing: print from <out>/team_leduc_ranks.csv the markdown table of docs/teams.md")
    args = ap.parse_args(argv)
    if args.table:
        from guts import GutsInputError
        from guts.studies.team_games import read_team_ranks, team_ranks_markdown

        try:
            df = read_team_ranks(args.out)
        except GutsInputError as e:
            ap.error(str(e))
        print(team_ranks_markdown(df))
        return df
    out = ensure_output_dir(args.out)
    rows = []
    for R in args.ranks:
        g = leduc_poker(3, ranks=R, suits=SUITS)
        ranks = [c // SUITS for c in range(R * SUITS)]
        for adv in range(3):
            team = tuple(p for p in range(3) if p != adv)
            types = {m: ranks for m in team}
            tm = _Team(g, team, adv)
            merged = _merge_types(g, tm, types)[0]
            graphs = [("ranks", types, dag_size(merged, merged.dp))]
            if R <= args.cards_max_ranks:
                graphs.append(("cards", None, dag_size(tm, tm.dp)))
            for graph, mt, regrets in graphs:
                t = time.perf_counter()
                load = os.getloadavg()[0]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)     # the row says how far it got
                    r = solve_team(g, team, "correlated", method="belief-dag", member_types=mt,
                                   target=1e-6, time_limit=args.time_limit)
                rows.append(dict(game=f"leduc3 r={R}", ranks=R, adversary=adv, graph=graph, regrets=regrets,
                                 value=r.value, lower=r.lower, upper=r.upper, width=r.upper - r.lower,
                                 num_iter=r.num_iter, seconds=time.perf_counter() - t, load=load))
                print(f"leduc3 r={R} adv {adv} {graph:5s} [{r.lower:+.6f}, {r.upper:+.6f}] "
                      f"{r.num_iter} it {rows[-1]['seconds']:.0f}s", flush=True)
            if len(graphs) == 2:
                rows[-2]["width_ratio"] = rows[-1]["width"] / rows[-2]["width"]
        df = pd.DataFrame(rows)
        target = out / "team_leduc_ranks.csv"
        write_csv(df, target)
        write_meta(target, dict(ranks=args.ranks, time_limit=args.time_limit, cards_max_ranks=args.cards_max_ranks,
                                suits=SUITS, method="belief-dag", target=1e-6))
    return df


if __name__ == "__main__":
    main()
