"""Many cores: the CFR kernels' speed-up with threads on games of half a million public states.

    PYTHONPATH=. python benchmarks/many_cores.py [--threads 1,2,4,8,16] [--games check,limit]
                                                 [--out results/benchmarks] [--time-limit 600]

For each game and each thread count, the Mercer study's solve (predictive CFR+ with adaptive
best-response checks, Farina, Kroer and Sandholm 2021) of three-player Multiround Mercer
hold'em to NashConv <= 0.01, in one process, one after the other:

* ``check``: 3P-MMH with a check (Ullman 2015's Multiround Mercer hold'em, three players, a
  check allowed; 515 k public states);
* ``limit``: its limit-betting (call/raise) variant.

The numba kernels are compiled on tiny games first and the tree is built once per game, so
each row is the solve alone (compile and build times excluded, and reported in their own
columns). ``speedup`` is the one-thread time over this row's, measured in this run; ``identical``
says the strategies equal the one-thread run's bit for bit (the kernels' results do not depend
on the thread count). Writes ``<out>/many_cores.csv`` (+ ``.meta.json``).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 0.01
SOLVER = dict(variant="pcfr+", check="adaptive")
GAMES = {"check": dict(check=True), "limit": dict(betting="limit")}


def _warm_up():
    """Compile the kernels (first call of each specialisation) on small games."""
    from guts.engine.extensive import cfr_plus
    from guts.games.poker.mercer import build_game, variant_rules
    from guts.games.toy import leduc_poker

    for g in (leduc_poker(2), build_game(variant_rules("smh", 3)).game):
        for th in (1, 2):
            cfr_plus(g, max_iterations=3, threads=th, **SOLVER)


def _flat(strategies):
    return np.concatenate([np.asarray(v, dtype=float).ravel() for s in strategies
                           for v in (s.values() if isinstance(s, dict) else [s])])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--games", default="check,limit")
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per solve")
    args = ap.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    from guts.engine.extensive import cfr_plus, nash_conv
    from guts.games.poker.mercer import build_game, variant_rules
    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    import pandas as pd

    warnings.simplefilter("ignore")
    t = time.perf_counter()
    _warm_up()
    compile_seconds = time.perf_counter() - t
    rows = []
    for name in args.games.split(","):
        t = time.perf_counter()
        game = build_game(variant_rules("mmh", 3, **GAMES[name])).game
        build = time.perf_counter() - t
        base = None
        for th in threads:
            load = os.getloadavg()[0]
            t = time.perf_counter()
            r = cfr_plus(game, target=TARGET / 3, time_limit=args.time_limit, threads=th, **SOLVER)
            sec = time.perf_counter() - t
            flat = _flat(r.strategies)
            if base is None:
                base = (sec, flat)
            rows.append(dict(game=f"3P-MMH {name}", threads=th, seconds=sec, speedup=base[0] / sec,
                             iterations=r.num_iter, converged=bool(r.converged),
                             nash_conv=float(nash_conv(game, r.strategies)),
                             identical=bool(flat.shape == base[1].shape and np.array_equal(flat, base[1])),
                             build_seconds=build, compile_seconds=compile_seconds, load=load,
                             cpus=os.cpu_count()))
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    out = ensure_output_dir(args.out)
    target = Path(out) / "many_cores.csv"
    write_csv(df, target, float_format="%.6g")
    write_meta(target, {"threads": threads, "games": args.games, "target_nash_conv": TARGET, "solver": SOLVER,
                        "note": "solve time only: kernels compiled and trees built before timing"})
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
