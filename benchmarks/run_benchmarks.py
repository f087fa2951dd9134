"""Speed and memory of guts against the paper's algorithms, measured in one run.

    python benchmarks/run_benchmarks.py [--quick] [--out results/benchmarks]

Writes ``<out>/run_benchmarks.csv`` (+ ``run_benchmarks.meta.json``) and prints a Markdown
table (pasted into the README's performance section).  Every ratio compares two
timings taken in this same run on this machine:

1. payoff matrix build, per entry: the vectorised closed form (``alpha_matrix`` +
   ``beta_matrix``) against the paper's enumerations — the O(n^2) pseudo-bloc one
   of §4.1.4 (what the paper used for Table 1) and the Θ(n 3^n) general one of
   §4.1.1 — timed on a random sample of entries;
2. one fixed point (mesh 101, N = 2 and 15): the paper's algorithm (plain
   iteration, 1.4) with an exact full LP, and with nashpy fictitious play (the
   paper's inner solver, N = 2 only), against double oracle + certified Newton;
3. the whole of Table 1 (N = 1..15, mesh 101, exact, certified), with its peak
   memory (maximum resident set of the worker processes).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd

from guts import solve_coalition
from guts.games.guts.strategies import coalition_profiles, mesh
from guts.errors import ConvergenceWarning
from guts.games.guts.payoffs import alpha_enumeration, alpha_matrix, alpha_pseudo_bloc_enumeration, beta_matrix
from guts.studies.output import AUTO, RESULTS, plan_output, write_csv, write_meta

# Expected seconds of each stage on an idle 2-core machine (from the committed run), for the
# progress bar's estimate; on a loaded machine the bar's rate adapts (measured 2-11 min in all).
STAGE_SECONDS = {"payoff entries": 15, "fixed point N=2": 35, "fixed point N=15": 40, "fictitious play": 16,
                 "Table 1, oracle": 10, "Table 1, full LP": 40}


def per_entry_vectorised(N, M=101, repeats=3):
    g = mesh(M)
    cols = coalition_profiles(N, g, "pseudo-bloc")
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        alpha_matrix(g, cols)
        beta_matrix(g, cols)
        best = min(best, time.perf_counter() - t)
    return best / (g.size * cols.shape[0]), g.size * cols.shape[0], best


def per_entry_pseudo_bloc_enumeration(N, samples, rng):
    q, a, b = rng.random((3, samples))
    t = time.perf_counter()
    for k in range(samples):
        alpha_pseudo_bloc_enumeration(q[k], a[k], b[k], N)
    return (time.perf_counter() - t) / samples


def per_entry_full_enumeration(N, samples, rng):
    p = rng.random((samples, N + 1))
    t = time.perf_counter()
    for k in range(samples):
        alpha_enumeration(p[k])
    return (time.perf_counter() - t) / samples


def timed_solve(**kw):
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_coalition(**kw)
    return time.perf_counter() - t, r


def table1_subprocess(solver, jobs):
    code = (
        "import time, resource, json\n"
        "from guts.studies.table1 import run_table1\n"
        "t = time.perf_counter()\n"
        f"df = run_table1(range(1, 16), mesh=101, solver={solver!r}, method='newton', jobs={jobs}, out=None, progress=False)\n"
        "wall = time.perf_counter() - t\n"
        "own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(json.dumps({'wall': wall, 'maxrss_kb': max(own, kids), 'width': float((df.certified_upper - df.certified_lower).max()), 'converged': bool(df.converged.all())}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="output folder (default: results/benchmarks/ for the full run; --quick runs "
                    "go to a fresh results/runs/benchmarks-<time>/)")
    ap.add_argument("--quick", action="store_true", help="fewer samples, skip the slow baselines (default: off)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar (default: off)")
    args = ap.parse_args(argv)
    plan = plan_output("benchmarks", AUTO if args.out is None else args.out, {"quick": args.quick}, {"quick": False},
                       targets=["run_benchmarks.csv"], echo=print,
                       results=RESULTS / "benchmarks")
    out = plan.folder
    from tqdm.auto import tqdm

    stages = dict(STAGE_SECONDS)
    if args.quick:
        for k in ("fictitious play", "Table 1, full LP"):
            stages.pop(k)
    bar = tqdm(total=sum(stages.values()), unit="s", desc="benchmarks (estimated seconds of work)",
               disable=args.quiet, bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}] {postfix}")

    def done(stage):
        bar.set_postfix_str(f"{stage} done")
        bar.update(stages.get(stage, 0))
    rng = np.random.default_rng(20221)
    rows = []

    def add(group, case, ours, baseline, ours_s, base_s, note=""):
        rows.append(dict(group=group, case=case, ours=ours, baseline=baseline, ours_seconds=ours_s,
                         baseline_seconds=base_s, ratio=base_s / ours_s if ours_s > 0 else np.nan, note=note))

    # 1. payoff entries
    samples = 200 if args.quick else 1000
    for N in (2, 5, 15):
        vec, entries, whole = per_entry_vectorised(N)
        enum = per_entry_pseudo_bloc_enumeration(N, samples, rng)
        add("payoff entry", f"pseudo-bloc N={N}, mesh 101 ({entries} entries; full build {whole:.3f} s)",
            "closed form, vectorised", "paper §4.1.4 O(n^2) enumeration", vec, enum,
            f"enumeration timed on {samples} random entries")
    for N in (2, 5, 8):
        vec, _, _ = per_entry_vectorised(N)
        s = max(5, samples // (10 * 3 ** (N - 2)) + 5)
        enum = per_entry_full_enumeration(N, s, rng)
        add("payoff entry", f"general n={N + 1}", "closed form, vectorised", "paper §4.1.1 Θ(n 3^n) enumeration",
            vec, enum, f"enumeration timed on {s} random profiles")

    done("payoff entries")

    # 2. one fixed point, mesh 101
    for N in (2, 15):
        t_new, r_new = timed_solve(size=N, mesh=101, solver="oracle", method="newton")
        t_lpi, r_lpi = timed_solve(size=N, mesh=101, solver="lp", method="iterate")
        add("fixed point", f"1 v. {N}, mesh 101, both sides", f"double oracle + Newton ({r_new.num_solves} solves)",
            f"full LP + plain iteration ({r_lpi.num_solves} solves)", t_new, t_lpi,
            f"values agree to {abs(r_new.coalition_value - r_lpi.coalition_value):.1e}")
        if N == 2 and not args.quick:
            t_fp, r_fp = timed_solve(size=N, mesh=101, solver="fp", method="iterate", fp_iterations=1000, random_state=0)
            add("fixed point", "1 v. 2, mesh 101, both sides", "double oracle + Newton",
                f"nashpy fictitious play (1000 rounds) + plain iteration ({r_fp.num_solves} solves)", t_new, t_fp,
                f"FP value off by {abs(r_fp.coalition_value - r_new.coalition_value):.1e}, inner gap {r_fp.coalition.inner_gap:.1e}")
            done("fictitious play")
        done(f"fixed point N={N}")

    # 3. whole Table 1
    fast1 = table1_subprocess("oracle", 1)
    fast2 = table1_subprocess("oracle", 2)
    done("Table 1, oracle")
    note = (f"1 process: {fast1['wall']:.2f} s; peak RSS {max(fast1['maxrss_kb'], fast2['maxrss_kb']) / 1024:.0f} MB; "
            f"widest certified interval {max(fast1['width'], fast2['width']):.1e}")
    if not args.quick:
        base = table1_subprocess("lp", 2)
        add("Table 1", "N = 1..15, mesh 101, exact, certified", "double oracle + Newton, 2 processes",
            "full LP + Newton, 2 processes", fast2["wall"], base["wall"],
            note + f"; full LP peak RSS {base['maxrss_kb'] / 1024:.0f} MB")
        done("Table 1, full LP")
    bar.close()
    add("Table 1", "N = 1..15, mesh 101, exact, certified", "double oracle + Newton, 2 processes",
        "paper: ~1 h for N = 15 alone (laptop, quoted from App. A, not measured)", fast2["wall"], 3600.0, note)

    df = pd.DataFrame(rows)
    target = out / "run_benchmarks.csv"
    write_csv(df, target, float_format="%.6g")
    write_meta(target, {"quick": args.quick, "samples": samples}, plan=plan)
    print("| group | case | ours | baseline | ours (s) | baseline (s) | ratio | note |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['group']} | {r['case']} | {r['ours']} | {r['baseline']} | {r['ours_seconds']:.3g} | "
              f"{r['baseline_seconds']:.3g} | {r['ratio']:.3g}× | {r['note']} |")


if __name__ == "__main__":
    from guts.cli.guard import guarded

    sys.exit(guarded("run_benchmarks", main)[0])
