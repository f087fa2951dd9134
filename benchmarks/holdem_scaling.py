"""Scaling of the hold'em raise game (seed 001) with the raise cap R.

    python benchmarks/holdem_scaling.py [--caps 10,20,40,80,160] [--baseline-caps 10,20,40]
                                        [--engine-caps 10,20] [--out results/benchmarks]

Every case runs in a fresh subprocess (one thread) so that its peak memory (maximum
resident set, including the ~0.2 GB of Python, numpy, numba and HiGHS) is its own.
Methods, timed in this same run on this machine:

* ``oracle`` - the structured LP on generated raise sizes + per-size deterrence LPs
  (what ``solve_raise_game`` uses above 20 sizes);
* ``lp``     - the structured LP on all sizes at once (Bob's best response per class and
  size; 169^2 (R - 1) nonzeros: the seed's O(n^2 m) size, without its scaling variable);
* ``engine`` - the engine's generic sequence-form LP on the public tree.

Each row: value, exploitability (engine best response), solve time, peak memory.  The
ratio column is baseline time / oracle time at the same R.  Writes
``<out>/holdem_scaling.csv`` (+ meta) and prints a Markdown table for docs/holdem.md.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

CHILD = r"""
import json, resource, sys, time, warnings
sys.path.insert(0, {root!r})
from guts.games.holdem import solve_raise_game, equity_table
t = equity_table()
import numba; numba.set_num_threads(1)
t0 = time.perf_counter()
r = solve_raise_game(max_raise={R}, method={method!r}, table=t)
secs = time.perf_counter() - t0
print(json.dumps(dict(value=r.value, exploitability=r.exploitability, seconds=secs,
                      solve_seconds=r.info.get("solve_seconds", secs),
                      sizes_in_lp=len(r.info.get("active", r.raises)),
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))
"""

BASE = r"""
import json, resource, sys
sys.path.insert(0, {root!r})
from guts.games.holdem import solve_raise_game, equity_table
equity_table()
print(json.dumps(dict(peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))
"""


def run_child(code: str, timeout: float):
    env = dict(os.environ, OMP_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout > {timeout:.0f} s"}
    if out.returncode != 0:
        return {"status": "error: " + out.stderr.strip().splitlines()[-1]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["status"] = "ok"
    res["wall_seconds"] = time.perf_counter() - t0
    return res


def caps_arg(text):
    return [int(v) for v in text.split(",") if v]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--caps", type=caps_arg, default=[10, 20, 40, 80, 160])
    ap.add_argument("--baseline-caps", type=caps_arg, default=[10, 20, 40])
    ap.add_argument("--engine-caps", type=caps_arg, default=[10, 20])
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--out", default="results/benchmarks")
    args = ap.parse_args(argv)
    root = str(Path(__file__).resolve().parents[1])
    sys.path.insert(0, root)
    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    out = ensure_output_dir(args.out)
    base = run_child(BASE.format(root=root), args.timeout)
    print(f"baseline process (imports + equity table): {base.get('peak_mb', float('nan')):.0f} MB", flush=True)
    rows = []
    plan = [(R, "oracle") for R in args.caps] + [(R, "lp") for R in args.baseline_caps] + \
           [(R, "engine") for R in args.engine_caps]
    for R, method in plan:
        res = run_child(CHILD.format(root=root, R=R, method=method), args.timeout)
        rows.append({"R": R, "method": method, **res})
        print(f"R = {R:4d} {method:7s} " + (f"value {res['value']:.12f}  expl {res['exploitability']:.1e}  "
                                           f"{res['seconds']:8.1f} s  {res['peak_mb']:6.0f} MB"
                                           if res["status"] == "ok" else res["status"]), flush=True)
    df = pd.DataFrame(rows)
    orc = df[df.method == "oracle"].set_index("R")["seconds"]
    df["speedup_of_oracle"] = [row.seconds / orc[row.R] if row.method != "oracle" and row.R in orc.index
                               and row.status == "ok" else float("nan") for row in df.itertuples()]
    p = write_csv(df, out / "holdem_scaling.csv", float_format="%.12g")
    write_meta(p, {"caps": args.caps, "baseline_caps": args.baseline_caps, "engine_caps": args.engine_caps,
                   "threads": 1}, baseline_process_mb=base.get("peak_mb"), cpu_count=os.cpu_count(),
               load_average=os.getloadavg())
    print()
    print("| R | method | value (chips/hand) | exploitability | time (s) | peak memory (MB) | baseline / oracle |")
    print("|---|---|---|---|---|---|---|")
    for row in df.itertuples():
        if row.status != "ok":
            print(f"| {row.R} | {row.method} | {row.status} | | | | |")
            continue
        ratio = "" if row.method == "oracle" or pd.isna(row.speedup_of_oracle) else f"{row.speedup_of_oracle:.1f}x"
        print(f"| {row.R} | {row.method} | {row.value:.10f} | {row.exploitability:.1e} | {row.seconds:.1f} | "
              f"{row.peak_mb:.0f} | {ratio} |")
    print(f"\nwrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
