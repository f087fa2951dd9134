"""Many cores: the CFR kernels' speed-up with threads on games of half a million public states.

    PYTHONPATH=. python benchmarks/many_cores.py [--threads 1,2,4,8,16] [--games check,limit]
                                                 [--out results/benchmarks] [--time-limit 600]
                                                 [--no-detail] [--detail-iterations 10] [--name many_cores]

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

Two more tables say where the time goes (``--no-detail`` skips them):

* ``many_cores_kernels.csv``: seconds per kernel (the type-tensor terminal pass, its scatter,
  the fused backup and regret update, the reach pass, ...) in a few iterations of the first
  game, at each thread count, and each kernel's speed-up;
* ``many_cores_ceiling.csv``: the machine's own ceiling: k one-thread solves of the same
  iterations at once (k = 1, half and all of the largest thread count), in k processes (no
  shared data, no barrier), against one alone. When k
  of them take f times as long each, k threads cannot beat k / f on this machine (shared
  memory bandwidth and caches, the clock of a fully loaded chip).
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


#: The kernels timed by the detail table (attributes of ``guts.engine.extensive._fused``).
KERNELS = ("terminal_values_dense3", "scatter_rows", "backup_update", "reach_levels", "backup_levels",
           "normalise_into", "dot_rows")


def _timed_kernels():
    """Wrap the kernels (parallel and serial twins) with timers; returns (seconds, restore)."""
    from guts.engine.extensive import _fused

    seconds = {}
    saved = {}
    for name in KERNELS:
        for attr in (name, name + "_serial"):
            fn = getattr(_fused, attr, None)
            if fn is None:
                continue
            saved[attr] = fn

            def wrap(*a, _fn=fn, _name=name):
                t = time.perf_counter()
                try:
                    return _fn(*a)
                finally:
                    seconds[_name] = seconds.get(_name, 0.0) + time.perf_counter() - t
            setattr(_fused, attr, wrap)

    def restore():
        for attr, fn in saved.items():
            setattr(_fused, attr, fn)
    return seconds, restore


def kernel_table(game, threads, iterations):
    """Seconds per kernel in ``iterations`` iterations (and one check) at each thread count."""
    from guts.engine.extensive import cfr_plus

    rows = []
    for th in threads:
        seconds, restore = _timed_kernels()
        try:
            t = time.perf_counter()
            cfr_plus(game, max_iterations=iterations, report_every=iterations, threads=th, **SOLVER)
            total = time.perf_counter() - t
        finally:
            restore()
        for name, sec in sorted(seconds.items(), key=lambda kv: -kv[1]):
            rows.append(dict(kernel=name, threads=th, seconds=sec, share=sec / total))
        rows.append(dict(kernel="total (solve call)", threads=th, seconds=total, share=1.0))
        rows.append(dict(kernel="outside the kernels", threads=th, seconds=total - sum(seconds.values()),
                         share=(total - sum(seconds.values())) / total))
    base = {r["kernel"]: r["seconds"] for r in rows if r["threads"] == threads[0]}
    for r in rows:
        r["speedup"] = base.get(r["kernel"], float("nan")) / r["seconds"] if r["seconds"] > 0 else float("nan")
    return rows


def _one_thread_solve(name, iterations, barrier, conn):
    """One process of :func:`ceiling_table`: build, warm up, wait for the others, time."""
    warnings.simplefilter("ignore")
    from guts.engine.extensive import cfr_plus
    from guts.games.poker.mercer import build_game, variant_rules

    game = build_game(variant_rules("mmh", 3, **GAMES[name])).game
    cfr_plus(game, max_iterations=1, threads=1, **SOLVER)         # compiles the game's arrays
    barrier.wait()
    t = time.perf_counter()
    cfr_plus(game, max_iterations=iterations, report_every=iterations, threads=1, **SOLVER)
    conn.send(time.perf_counter() - t)
    conn.close()


def ceiling_table(name, counts, iterations):
    """k one-thread solves at once (k fresh processes, started together) against one alone."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")        # fresh interpreters: no thread pool inherited
    rows = []
    alone = None
    for k in counts:
        barrier = ctx.Barrier(k)
        pipes, procs = [], []
        for _ in range(k):
            a, b = ctx.Pipe(duplex=False)
            pr = ctx.Process(target=_one_thread_solve, args=(name, iterations, barrier, b))
            pr.start()
            pipes.append(a)
            procs.append(pr)
        secs = [a.recv() for a in pipes]
        for pr in procs:
            pr.join()
        mean = float(np.mean(secs))
        if alone is None:
            alone = mean
        rows.append(dict(processes=k, iterations=iterations, seconds_each=mean, slowest=float(np.max(secs)),
                         slowdown=mean / alone, ceiling=k * alone / float(np.max(secs))))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--games", default="check,limit")
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per solve")
    ap.add_argument("--no-detail", action="store_true", help="skip the kernel and ceiling tables")
    ap.add_argument("--name", default="many_cores", help="stem of the output files (<name>.csv, <name>_kernels.csv, ...)")
    ap.add_argument("--detail-iterations", type=int, default=10)
    args = ap.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    from guts.engine.extensive import cfr_plus, nash_conv
    from guts.games.poker.mercer import build_game, variant_rules
    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    import pandas as pd

    warnings.simplefilter("ignore")
    out = ensure_output_dir(args.out)
    detail = not args.no_detail
    if detail:
        name = args.games.split(",")[0]
        counts = sorted({1, max(threads) // 2, max(threads)} - {0})
        crow = ceiling_table(name, counts, args.detail_iterations)
        target = Path(out) / f"{args.name}_ceiling.csv"
        write_csv(pd.DataFrame(crow), target, float_format="%.6g")
        write_meta(target, {"game": f"3P-MMH {name}", "iterations": args.detail_iterations,
                            "solver": SOLVER, "note": "k one-thread solves at once in k processes"})
        print(pd.DataFrame(crow).to_string(index=False), flush=True)
    t = time.perf_counter()
    _warm_up()
    compile_seconds = time.perf_counter() - t
    if detail:
        first = build_game(variant_rules("mmh", 3, **GAMES[name])).game
        cfr_plus(first, max_iterations=1, threads=1, **SOLVER)      # the game's arrays, before timing
        krow = kernel_table(first, threads, args.detail_iterations)
        target = Path(out) / f"{args.name}_kernels.csv"
        write_csv(pd.DataFrame(krow), target, float_format="%.6g")
        write_meta(target, {"game": f"3P-MMH {name}", "threads": threads,
                            "iterations": args.detail_iterations, "solver": SOLVER,
                            "note": "seconds inside each kernel (parallel or serial twin), one solve call per row group"})
        print(pd.DataFrame(krow).to_string(index=False), flush=True)
        del first
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
            # after every row: a run stopped part-way keeps what it measured
            df = pd.DataFrame(rows)
            target = Path(out) / f"{args.name}.csv"
            write_csv(df, target, float_format="%.6g")
            write_meta(target, {"threads": threads, "games": args.games, "target_nash_conv": TARGET, "solver": SOLVER,
                                "note": "solve time only: kernels compiled and trees built before timing"})
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
