"""Mercer hold'em: time per iteration, time to a 0.01-equilibrium and peak memory, for
CFR+, for the study's program's fictitious play and for classical fictitious play, in one run.

    python benchmarks/mercer_speed.py [--quick] [--out results/benchmarks]

Three methods of :func:`guts.games.poker.mercer.solve`: ``cfr+``; ``fp``, the fictitious play of the
Mercer hold'em study's program (``rjullman/poker-nasheq``: behaviour averaged per information
set, the uniform start counted; its iteration count); ``fp-realisation``, classical fictitious
play (mixed-strategy average), a different and faster-converging algorithm. Every (variant,
method) runs in its own process, so its peak resident memory (``ru_maxrss``, imports and JIT
included) is its own; the numba kernels are compiled on tiny games first, so the JIT warm-up
is excluded from the timed solve. Targets: CFR+ stops at NashConv <= 0.01 (which implies
the study's criterion), both fictitious plays at the study's own criterion (every player's
regret < 0.01). The study's figures for comparison (§3.4): 3P-MMH took "roughly 10 hours and
3600 iterations of fictitious play" for a 0.01-equilibrium on a 16-core server, with "around
5 million nodes" and "over 4 gigabytes"; with collusion "up to roughly 24 hours (and 8500
iterations)". The machine's load average is recorded with the run.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CASES = [
    # (label, variant, players, collusion, team)
    ("2P-SMH", "smh", 2, None, None),
    ("2P-MMH", "mmh", 2, None, None),
    ("3P-SMH", "smh", 3, None, None),
    ("3P-MMH", "mmh", 3, None, None),
    ("3P-MMH weak (0,1)", "mmh", 3, "weak", (0, 1)),
    # strong collusion = the team as ONE player (two-player zero-sum team-vs-victim game, 93 720
    # information sets), the game solve(collusion="strong") solves with every method
    ("3P-MMH strong (0,1)", "mmh", 3, "strong", (0, 1)),
]
METHODS = ("cfr+", "fp", "fp-realisation")
# the Mercer hold'em study, §3.4
STUDY_HOURS_3P_MMH = 10.0
STUDY_ITER_3P_MMH = 3600
STUDY_GB_3P_MMH = 4.0


def worker(variant, players, method, epsilon, collusion, team, time_limit):
    import warnings

    from guts.errors import ConvergenceWarning
    from guts.games.poker.mercer import solve
    from guts.studies.output import peak_rss_mb

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        # compile the numba kernels on tiny games first: timings are of the solve, not the JIT
        solve("smh", 2, method, target=0.1)
        solve("smh", 3, method, target=0.1)
        t0 = time.perf_counter()
        # epsilon is a NashConv bound for CFR+ (solve's target: exploitability = NashConv / players of
        # the solved game, 2 for the merged strong team) and the regret bound of fictitious play
        n = 2 if collusion == "strong" else players
        r = solve(variant, players, method, target=epsilon / n if method == "cfr+" else epsilon,
                  collusion=collusion, team=team,
                  time_limit=time_limit)
        wall = time.perf_counter() - t0
    rss_mb = peak_rss_mb()
    return dict(iterations=r.num_iter, solve_seconds=r.seconds, build_seconds=r.build_seconds,
                wall_seconds=wall, seconds_per_iteration=r.seconds / max(r.num_iter, 1),
                nash_conv=r.nash_conv, max_regret=r.max_regret, converged=r.converged,
                peak_rss_mb=rss_mb, values=[float(v) for v in r.values],
                public_states=r.stats.public_states, info_sets=r.stats.info_sets)


def run_case(case, method, epsilon, time_limit):
    label, v, n, coll, team = case
    spec = json.dumps([v, n, method, epsilon, coll, team, time_limit])
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", spec],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{label} {method} failed:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    import pandas as pd

    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--epsilon", type=float, default=0.01)
    ap.add_argument("--quick", action="store_true", help="two-player variants and 3P-SMH only")
    ap.add_argument("--time-limit", type=float, default=1800.0, help="per run, seconds")
    args = ap.parse_args(argv)
    if args.worker:
        v, n, method, eps, coll, team, tl = json.loads(args.worker)
        print(json.dumps(worker(v, n, method, eps, coll, tuple(team) if team else None, tl)))
        return 0
    out = ensure_output_dir(args.out)
    load_start = list(os.getloadavg())
    cases = CASES[:3] if args.quick else CASES
    rows = []
    for case in cases:
        for method in METHODS:
            r = run_case(case, method, args.epsilon, args.time_limit)
            row = dict(case=case[0], method=method, epsilon=args.epsilon, **{k: v for k, v in r.items() if k != "values"})
            row["values"] = " ".join(f"{v:+.4f}" for v in r["values"])
            rows.append(row)
            print(f"{case[0]:22s} {method:14s} {r['iterations']:6d} it  {r['solve_seconds']:8.1f} s  "
                  f"{1e3 * r['seconds_per_iteration']:8.2f} ms/it  NashConv {r['nash_conv']:.4f}  "
                  f"max regret {r['max_regret']:.4f}  {r['peak_rss_mb']:.0f} MB", flush=True)
    df = pd.DataFrame(rows)
    # ratios measured in this run, per case: each fictitious play against CFR+
    ratios = []
    for case in df.case.unique():
        d = df[df.case == case].set_index("method")
        row = dict(case=case)
        for m, tag in (("fp", "fp"), ("fp-realisation", "fp_realisation")):
            if {"cfr+", m} <= set(d.index):
                row[f"{tag}_over_cfr_time"] = d.loc[m, "solve_seconds"] / d.loc["cfr+", "solve_seconds"]
                row[f"{tag}_over_cfr_iterations"] = d.loc[m, "iterations"] / d.loc["cfr+", "iterations"]
        ratios.append(row)
    df = df.merge(pd.DataFrame(ratios), on="case", how="left")
    write_csv(df, out / "mercer_speed.csv")
    mm = df[(df.case == "3P-MMH")]
    extra = {}
    if len(mm):
        for m in METHODS:
            row = mm[mm.method == m].iloc[0]
            extra[f"study_hours_over_ours_{m}"] = STUDY_HOURS_3P_MMH * 3600 / row.solve_seconds
        row = mm[mm.method == "fp"].iloc[0]
        # the same algorithm (the program's rule), so this ratio compares like with like
        extra["fp_iterations_over_study"] = int(row.iterations) / STUDY_ITER_3P_MMH
        extra["study_figures"] = dict(hours=STUDY_HOURS_3P_MMH, fp_iterations=STUDY_ITER_3P_MMH,
                                      memory_gb=STUDY_GB_3P_MMH, machine="16 cores (2x Xeon E5-2680 v2)")
    extra["load_average_start"] = load_start
    extra["load_average_end"] = list(os.getloadavg())
    extra["jit_warm_up"] = "excluded: every worker solves 2P-SMH and 3P-SMH first, untimed"
    write_meta(out / "mercer_speed.csv", {"epsilon": args.epsilon, "quick": args.quick,
                                        "time_limit": args.time_limit, "cpus": os.cpu_count()}, **extra)
    print(df.drop(columns=["values"]).to_string(index=False))
    for k, v in extra.items():
        print(k, v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
