"""The sequence-pair relaxation's upper bound on the correlated (TMECor) value, beside the exact value.

    PYTHONPATH=. python benchmarks/team_relaxation.py [--out results/benchmarks] [--kuhn-ranks 4 5 6 7 8]
                                                      [--leduc-ranks 3] [--solver hipo] [--time-limit 1800]
    python benchmarks/team_relaxation.py --table   # the markdown table of docs/teams.md from <out>/team_relaxation.csv

Writes ``<out>/team_relaxation.csv`` (+ ``.meta.json``): one row per game x adversary seat with
the relaxation's size (``pairs``), its certified bound (``relaxation``,
:func:`guts.engine.extensive.team_relaxation.pair_relaxation`: weak duality from whatever
dual HiGHS returns, so a solve stopped by ``--time-limit`` still gives a bound), HiGHS's own
objective (``lp_value``), the seconds, on Leduc the bound of the relaxation cut at the board
card (``cut``, :func:`guts.engine.extensive.correlated_upper_bound` with ``communicate_after=1``:
pairs before the card, the merged team after it; ``cut_seconds``), the communication value (the merged-team LP) and, on
Kuhn, the exact correlated value (column generation closed to 1e-9): ``gap`` is
``relaxation - correlated``.  On Leduc the exact value is out of reach; the ``--table`` shows
beside it the column generation's upper end from ``<out>/team_games.csv``
(``benchmarks/team_games.py``).

The relaxation is an LP over pairs of member sequences; HiGHS runs on one thread (HiPO where
installed, else IPX).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.engine.extensive import correlated_upper_bound, solve_team  # noqa: E402
from guts.engine.extensive.team import _Team  # noqa: E402
from guts.engine.extensive.team_relaxation import pair_relaxation  # noqa: E402
from guts.errors import SolverError  # noqa: E402
from guts.games.toy import kuhn_poker, leduc_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--kuhn-ranks", type=int, nargs="*", default=[4, 5, 6, 7, 8])
    ap.add_argument("--leduc-ranks", type=int, nargs="*", default=[3])
    ap.add_argument("--solver", choices=("hipo", "ipm", "pdlp", "simplex"), default=None,
                    help="HiGHS's algorithm for the relaxation LP (default: HiPO where installed, else IPX)")
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds per relaxation LP")
    ap.add_argument("--table", action="store_true",
                    help="solve nothing: print the markdown table of docs/teams.md from <out>/team_relaxation.csv")
    args = ap.parse_args(argv)
    if args.table:
        from guts import GutsInputError
        from guts.studies.team_games import read_team_relaxation, team_relaxation_markdown

        from guts.studies.team_games import read_team_games

        try:
            df = read_team_relaxation(args.out)
            cg = read_team_games(args.out)
        except GutsInputError as e:
            ap.error(str(e))
        print(team_relaxation_markdown(df, cg))
        return df
    out = ensure_output_dir(args.out)
    games = [(f"kuhn3 r={r}", r, lambda r=r: kuhn_poker(3, ranks=r)) for r in args.kuhn_ranks]
    games += [(f"leduc3 r={r}", r, lambda r=r: leduc_poker(3, ranks=r)) for r in args.leduc_ranks]
    rows = []
    for name, ranks, make in games:
        g = make()
        for adv in range(3):
            team = tuple(p for p in range(3) if p != adv)
            load = os.getloadavg()[0]
            com = solve_team(g, team, "communication")
            t = time.perf_counter()
            try:
                rel = pair_relaxation(_Team(g, team, adv), solver=args.solver, time_limit=args.time_limit)
            except SolverError as e:
                rel = dict(upper=float("nan"), lp_value=float("nan"), pairs=0, note=str(e).split(";")[0])
            seconds = time.perf_counter() - t
            cut, cut_seconds = float("nan"), float("nan")
            if name.startswith("leduc"):     # a public board card: the relaxation cut there (Kuhn has none)
                t = time.perf_counter()
                cut = correlated_upper_bound(g, team, communicate_after=1, solver=args.solver)["upper"]
                cut_seconds = time.perf_counter() - t
            exact = float("nan")
            if name.startswith("kuhn"):
                cor = solve_team(g, team, "correlated")
                if cor.converged:
                    exact = float(cor.value)
            rows.append(dict(game=name, ranks=ranks, adversary=adv, pairs=rel["pairs"],
                             relaxation=rel["upper"], lp_value=rel["lp_value"], seconds=seconds,
                             cut=cut, cut_seconds=cut_seconds,
                             communication=float(com.value), correlated=exact, gap=rel["upper"] - exact,
                             load=load, note=rel.get("note", "")))
            r = rows[-1]
            print(f"{name:12s} adv {adv} pairs {r['pairs']:>9,d} relaxation {r['relaxation']:+.6f} "
                  f"communication {r['communication']:+.6f} correlated {r['correlated']:+.6f} "
                  f"{seconds:7.1f}s", flush=True)
        df = pd.DataFrame(rows)             # after every game: an interrupted run keeps what it finished
        target = out / "team_relaxation.csv"
        write_csv(df, target)
        write_meta(target, dict(kuhn_ranks=args.kuhn_ranks, leduc_ranks=args.leduc_ranks,
                                solver=args.solver or "default", time_limit=args.time_limit,
                                games_done=sorted(set(df.game))))
    return df


if __name__ == "__main__":
    main()
