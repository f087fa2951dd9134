"""Team games: three-player Kuhn (3..8 ranks) and Leduc in three regimes, the adversary in every seat.

    PYTHONPATH=. python benchmarks/team_games.py [--out results/benchmarks] [--quick] [--time-limit 120]
                                                 [--leduc-ranks 3 4] [--leduc-time-limit 120]
    python benchmarks/team_games.py --table    # time per game from <out>/team_games.csv (docs/teams.md)
    python benchmarks/team_games.py --table seats   # each seat's values and correlated seconds (docs/teams.md)

Writes ``<out>/team_games.csv`` (+ ``.meta.json``): one row per game x adversary seat x
regime x method with the team's value, the certified bracket ``[lower, upper]`` of its
max-min value, its width, ``converged`` (width <= 1e-9), iterations, support size (correlated)
and seconds.  Regimes (:func:`guts.engine.extensive.solve_team`):

* ``communication``: the sequence-form LP of the merged two-player game;
* ``correlated``: the default method (discounted CFR on the team belief DAG,
  ``belief-dag``, on three-player Leduc with 3 ranks; column generation priced by the dynamic
  programme over public states, with Wentges smoothing, ``column-generation``, elsewhere),
  the latter also beside the former where the former is the default, and, for the speed
  comparison in the same run, the plain column generation priced by the mixed-integer LP (``column-generation-milp``,
  as in Celli and Gatti 2018 / Farina et al. 2018), each under ``--time-limit`` seconds on Kuhn
  (the MILP one up to ``--milp-max-ranks`` ranks) and ``--leduc-time-limit`` on Leduc, where
  neither closes its bracket: the rows compare the brackets reached in the same time (a MILP
  pricing that finds no plan in time leaves a row with no bracket and a ``note``);
* ``independent``: the local search from the correlated solution (its seconds exclude the
  correlated solve it starts from).

The ``ratio_to_dp`` column is ``seconds(milp) / seconds(default)`` for the correlated rows, measured
in this run on this machine (shared: ``load`` is ``os.getloadavg()[0]`` at the row's start).
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

from guts.engine.extensive import solve_team  # noqa: E402
from guts.errors import SolverError  # noqa: E402
from guts.games.toy import kuhn_poker, leduc_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402


def games(quick: bool, leduc_ranks, max_ranks: int):
    for r in range(3, (5 if quick else max_ranks) + 1):
        yield f"kuhn3 r={r}", r, (lambda r=r: kuhn_poker(3, ranks=r))
    for r in ([] if quick else [r for r in leduc_ranks if r > 0]):
        yield f"leduc3 r={r}", r, (lambda r=r: leduc_poker(3, ranks=r))


def row(name, ranks, adv, regime, method, res, seconds):
    return dict(game=name, ranks=ranks, adversary=adv, regime=regime, method=method, value=res.value,
                lower=res.lower, upper=res.upper, width=res.upper - res.lower, converged=res.converged,
                num_iter=res.num_iter, support=len(res.support) if res.support else 0, seconds=seconds,
                load=os.getloadavg()[0])


def failed_row(name, ranks, adv, regime, method, error, seconds):
    """A solve that ended without a bracket (the MILP pricing found no first plan in time)."""
    nan = float("nan")
    return dict(game=name, ranks=ranks, adversary=adv, regime=regime, method=method, value=nan, lower=nan,
                upper=nan, width=nan, converged=False, num_iter=0, support=0, seconds=seconds,
                load=os.getloadavg()[0], note=str(error).split(";")[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="Kuhn with 3..5 ranks only")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per correlated solve")
    ap.add_argument("--max-ranks", type=int, default=8)
    ap.add_argument("--leduc-ranks", type=int, nargs="*", default=[3, 4],
                    help="three-player Leduc with these numbers of ranks (default: 3 4; 0: no Leduc). The "
                         "correlated column generation does not close its bracket within minutes there")
    ap.add_argument("--leduc-time-limit", type=float, default=120.0,
                    help="seconds per correlated and independent solve on Leduc")
    ap.add_argument("--milp-max-ranks", type=int, default=8,
                    help="largest Kuhn deck timed with the MILP pricing too (default 8: every deck; its time grows fastest)")
    ap.add_argument("--table", nargs="?", const="times", choices=("times", "seats"),
                    help="solve nothing: print from <out>/team_games.csv the markdown table of docs/teams.md: "
                         "'times' (the default), the time per game (seconds summed over the adversary seats, "
                         "widest certificate, converged); 'seats', each seat's values and correlated seconds")
    args = ap.parse_args(argv)
    if args.table:
        from guts import GutsInputError
        from guts.studies.team_games import (read_team_games, team_game_seats_markdown, team_game_times,
                                             team_game_times_markdown)

        try:
            df = read_team_games(args.out)
        except GutsInputError as e:
            ap.error(str(e))
        if args.table == "seats":
            print(team_game_seats_markdown(df))
            return df
        times = team_game_times(df)
        print(team_game_times_markdown(times))
        return times
    out = ensure_output_dir(args.out)
    rows = []
    first = 0
    for name, ranks, make in games(args.quick, args.leduc_ranks, args.max_ranks):
        g = make()
        leduc = name.startswith("leduc")
        limit = args.leduc_time_limit if leduc else args.time_limit
        for adv in range(3):
            team = tuple(p for p in range(3) if p != adv)
            t = time.perf_counter()
            com = solve_team(g, team, "communication")
            rows.append(row(name, ranks, adv, "communication", "lp", com, time.perf_counter() - t))
            t = time.perf_counter()
            cor = solve_team(g, team, "correlated", time_limit=limit)
            dp_s = time.perf_counter() - t
            rows.append(row(name, ranks, adv, "correlated", cor.method, cor, dp_s))
            if cor.method == "belief-dag":
                # the default is the belief DAG here: column generation in the same time beside it
                t = time.perf_counter()
                cgr = solve_team(g, team, "correlated", method="column-generation", time_limit=limit)
                rows.append(row(name, ranks, adv, "correlated", "column-generation", cgr, time.perf_counter() - t))
            if leduc or ranks <= args.milp_max_ranks:
                t = time.perf_counter()
                try:
                    mil = solve_team(g, team, "correlated", method="column-generation-milp", time_limit=limit)
                except SolverError as e:
                    rows.append(failed_row(name, ranks, adv, "correlated", "column-generation-milp", e,
                                           time.perf_counter() - t))
                else:
                    mil_s = time.perf_counter() - t
                    rows.append(dict(row(name, ranks, adv, "correlated", "column-generation-milp", mil, mil_s),
                                     ratio_to_dp=mil_s / dp_s))
            t = time.perf_counter()
            ind = solve_team(g, team, "independent", correlated=cor, time_limit=limit)
            rows.append(row(name, ranks, adv, "independent", "coordinate-ascent", ind, time.perf_counter() - t))
            for r in rows[first:]:
                print(f"{r['game']:12s} adv {r['adversary']} {r['regime']:13s} {r['method']:24s} "
                      f"[{r['lower']:+.9f}, {r['upper']:+.9f}] {r['seconds']:7.2f}s", flush=True)
            first = len(rows)
        df = pd.DataFrame(rows)             # after every game: an interrupted run keeps what it finished
        target = out / "team_games.csv"
        write_csv(df, target)
        write_meta(target, dict(quick=args.quick, time_limit=args.time_limit, max_ranks=args.max_ranks,
                                leduc_ranks=args.leduc_ranks, leduc_time_limit=args.leduc_time_limit,
                                milp_max_ranks=args.milp_max_ranks,
                                games_done=sorted(set(df.game))))
    return df


if __name__ == "__main__":
    main()
