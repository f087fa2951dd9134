"""CFR variants with and without hyperparameter schedules: iterations and seconds to exploitability 1e-3, 1e-5, 1e-7.

    PYTHONPATH=. python benchmarks/cfr_schedules.py [--out results/benchmarks] [--quick]
        [--liars-dice] [--mercer] [--cap N] [--threads 1]

Writes ``<out>/cfr_schedules.csv`` (+ ``.meta.json``): one row per game x variant x target with
the first checked iteration whose average strategy has exploitability (NashConv / players) at
most the target, and the seconds of the solve up to that check (checks included: every variant
of a game is checked equally often), NaN where the cap came first.  Variants
(:func:`guts.engine.extensive.cfr_plus`): ``cfr+``, ``dcfr`` (1.5, 0, 2), ``pcfr+`` (quadratic
averaging), ``hs-dcfr`` and ``hs-pcfr+`` (Zhang, McAleer and Sandholm, *Faster Game Solving via
Hyperparameter Schedules*, 2024), whose horizon ``T`` is the game's cap (``--horizon`` to change
it).  ``ratio_to_cfr+`` = seconds / seconds of ``cfr+`` on the same game and target, measured in
this run (``load`` = ``os.getloadavg()[0]`` at the solve's start; the machine is shared).

Games: Kuhn and Leduc poker (``guts.games.toy``) by default; ``--liars-dice``: Liar's Dice 1 v 1
die, 6 faces (``guts.games.liars_dice``); ``--mercer``: three-player Mercer hold'em, the paper's
MMH rules (``guts.games.poker.mercer``).  Rhode Island hold'em is not run: the full game has
2.7e6 public nodes x 2652 deals (about 4.6 GB to build, ``guts/games/poker/descriptions/
rhode_island.toml``).  ``--quick`` lowers the caps (a smoke run).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.engine.extensive import cfr_plus  # noqa: E402
from guts.errors import ConvergenceWarning  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402

VARIANTS = ("cfr+", "dcfr", "pcfr+", "hs-dcfr", "hs-pcfr+")
TARGETS = (1e-3, 1e-5, 1e-7)


def _kuhn():
    from guts.games.toy import kuhn_poker
    return kuhn_poker()


def _leduc():
    from guts.games.toy import leduc_poker
    return leduc_poker()


def _liars_dice():
    from guts.games.liars_dice import liars_dice
    return liars_dice((1, 1), 6)


def _mercer():
    from guts.games.poker.mercer import build_game, variant_rules
    return build_game(variant_rules("mmh", 3)).game


#: name -> (builder, exploitability checked every this many iterations, cap, quick cap)
GAMES = {
    "kuhn": (_kuhn, 5, 20_000, 2_000),
    "leduc": (_leduc, 10, 20_000, 2_000),
    "liars_dice_1v1_6": (_liars_dice, 20, 2_000, 400),
    "3p_mmh": (_mercer, 20, 1_000, 200),
}


def first_reached(history, target):
    """(iteration, seconds) of the first check at or below ``target``, else (NaN, NaN)."""
    for t, e, s in history:
        if e <= target:
            return t, s
    return math.nan, math.nan


def run_game(name, make, every, cap, horizon, threads):
    g = make()
    for v in VARIANTS:          # compile / warm the kernels: timings are of the solves
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            cfr_plus(g, max_iterations=2, variant=v, report_every=1, threads=threads)
    rows = []
    for v in VARIANTS:
        load = os.getloadavg()[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = cfr_plus(g, max_iterations=cap, target=min(TARGETS), variant=v, report_every=every,
                         threads=threads, horizon=horizon)
        for target in TARGETS:
            it, sec = first_reached(r.history, target)
            rows.append(dict(game=name, variant=v, target=target, iterations=it, seconds=sec,
                             cap=cap, horizon=r.budget.get("horizon", math.nan), report_every=every,
                             final_iteration=r.num_iter, final_exploitability=r.exploitability,
                             value=r.value, load=round(load, 2)))
        done = [f"{x['target']:.0e}: {x['iterations']:.0f} it {x['seconds']:.3g} s" for x in rows[-len(TARGETS):]]
        print(f"{name:18s} {v:9s} " + " | ".join(done), flush=True)
    df = pd.DataFrame(rows)
    base = df[df.variant == "cfr+"].set_index("target").seconds
    df["ratio_to_cfr+"] = df.seconds / df.target.map(base)
    return df


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="small caps (a smoke run)")
    ap.add_argument("--liars-dice", action="store_true", help="also Liar's Dice 1 v 1, 6 faces")
    ap.add_argument("--mercer", action="store_true", help="also three-player Mercer hold'em (MMH)")
    ap.add_argument("--cap", type=int, default=None, help="iteration cap of every game (default: per game)")
    ap.add_argument("--horizon", type=int, default=None, help="the hyperparameter schedules' T (default: the cap)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads (1: steadier on a shared machine)")
    args = ap.parse_args(argv)
    out = ensure_output_dir(args.out)
    names = ["kuhn", "leduc"] + (["liars_dice_1v1_6"] if args.liars_dice else []) + (["3p_mmh"] if args.mercer else [])
    frames = []
    t0 = time.perf_counter()
    for name in names:
        make, every, cap, quick_cap = GAMES[name]
        cap = args.cap or (quick_cap if args.quick else cap)
        frames.append(run_game(name, make, every, cap, args.horizon, args.threads))
        df = pd.concat(frames, ignore_index=True)       # after every game: an interrupted run keeps it
        target = out / "cfr_schedules.csv"
        write_csv(df, target)
        write_meta(target, dict(quick=args.quick, cap=args.cap, horizon=args.horizon, threads=args.threads,
                                games=names, variants=list(VARIANTS), targets=list(TARGETS)),
                   games_done=sorted(set(df.game)), seconds=round(time.perf_counter() - t0, 1))
    return df


if __name__ == "__main__":
    main()
