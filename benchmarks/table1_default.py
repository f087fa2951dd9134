"""``guts table1`` with its default options against the old default, measured in one run.

    python benchmarks/table1_default.py [--jobs 1] [--out results/benchmarks]

Runs the whole Table 1 (N = 1..15, mesh 101, pseudo-bloc) twice, in this order and in
the same process: the default (double oracle + certified Newton, the fastest exact,
certified path) and the old default (one full HiGHS LP per stage game + Newton).  Writes
``<out>/table1_default.csv`` (+ meta) with both wall times, their ratio and the
largest difference of the coalition values (the two are exact: it must be below 1e-10),
and prints the README line.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from guts.cli.table1 import DEFAULT_METHOD, DEFAULT_SOLVER
from guts.cli.guard import guarded
from guts.studies.output import AUTO, RESULTS, plan_output, write_csv, write_meta
from guts.studies.table1 import run_table1

OLD_DEFAULT = {"solver": "lp", "method": "newton"}


def measure(jobs: int = 1, progress: bool = True) -> pd.DataFrame:
    runs = {}
    for label, opts in (("default", {"solver": DEFAULT_SOLVER, "method": DEFAULT_METHOD}), ("old default", OLD_DEFAULT)):
        t0 = time.perf_counter()
        # the progress bar (one tick per size, with an estimate): the full-LP run takes minutes
        df = run_table1(range(1, 16), mesh=101, jobs=jobs, out=None, progress=progress, **opts)
        runs[label] = (time.perf_counter() - t0, df, opts)
    (t_new, new, o_new), (t_old, old, o_old) = runs["default"], runs["old default"]
    diff = float(np.max(np.abs(new.opponent_value.to_numpy() - old.opponent_value.to_numpy())))
    return pd.DataFrame([{
        "case": "guts table1 (N = 1..15, mesh 101, exact, certified)", "jobs": jobs,
        "default": f"--solver {o_new['solver']} --method {o_new['method']}",
        "old_default": f"--solver {o_old['solver']} --method {o_old['method']}",
        "default_seconds": t_new, "old_default_seconds": t_old, "ratio": t_old / t_new,
        "max_value_difference": diff,
        "widest_certified_interval": float(max(new.certified_width.max(), old.certified_width.max())),
    }])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=1, help="processes for each run (default 1)")
    p.add_argument("--out", default=None, help="output folder (default: results/benchmarks/ for the full run, --jobs 1; "
                   "others go to a fresh results/runs/table1_default-<time>/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: off)")
    args = p.parse_args(argv)

    def work():
        plan = plan_output("table1_default", AUTO if args.out is None else args.out, {"jobs": args.jobs},
                           {"jobs": 1}, targets=["table1_default.csv"], echo=print,
                           results=RESULTS / "benchmarks")
        df = measure(args.jobs, progress=not args.quiet)
        target = plan.folder / "table1_default.csv"
        write_csv(df, target, float_format="%.6g")
        write_meta(target, {"jobs": args.jobs, "sizes": "1-15", "mesh": 101}, plan=plan)
        return df

    code, df = guarded("table1_default", work)
    if code:
        return code
    r = df.iloc[0]
    print(f"guts table1 default ({r.default}): {r.default_seconds:.1f} s; old default ({r.old_default}): "
          f"{r.old_default_seconds:.1f} s; ratio {r.ratio:.1f}x; values agree to {r.max_value_difference:.1e} "
          f"({int(r.jobs)} process{'es' if r.jobs != 1 else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
