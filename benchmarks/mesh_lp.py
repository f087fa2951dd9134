"""Mesh LPs: the new prefix-sum formulations against the previous ones and the engine's
sequence-form LP of the same discretised game, in one run.

    PYTHONPATH=. python benchmarks/mesh_lp.py [--quick] [--out results/benchmarks]

Writes ``<out>/mesh_lp.csv`` (+ ``.meta.json``: command, machine, CPU count,
load average at start and end) and prints the table.  Every case runs in a fresh
process (a small mesh first, untimed, so that numba's compilation is not timed), which
also gives its peak resident memory (``extra_rss_mb``: Linux's VmHWM, reset after the
warm-up, over the resident size then; the committed run of 2026-11-25 used the process's
peak ``ru_maxrss`` over its value after the warm-up; re-measured this way, game c at
2 000 hands needs 808 MB against the 772 MB recorded).  Each time includes building the LP and the engine's certificate (the
exploitability of the returned pair in the discretised game).

* ``dividing_point``: the patent's games (Hundal and Reitzen, US patent 6,129,631) on an
  ``M``-hand mesh.  ``engine`` = ``old``: :func:`guts.games.dividing_point.discrete.solve_mesh`
  with ``formulation="sequence-form"`` (the engine's ``solve_lp``, used before);
  ``new``: the prefix-sum LP of :mod:`guts.games.dividing_point.mesh_lp` (the default).
* ``continuous_poker``: limit continuous poker (Spears 2025) on ``M`` cells and ``K`` bet
  sizes.  ``engine``: the engine's sequence-form LP; ``old``: the bettor's prefix-sum LP
  (``_direct_lp``, the default before); ``new``: the caller's (``_caller_lp``, the default).

``ratio_engine`` = engine seconds / new seconds and ``ratio_old`` = old / new, measured
in this run.  Rows with only ``new`` are the meshes the old formulations do not reach in
reasonable time (up to 2 000 hands per player).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

DP_COMPARE = [(g, M) for M in (100, 200, 400) for g in "abc"]
DP_NEW_ONLY = [(g, M) for M in (1000, 2000) for g in "abcd"]
CP_COMPARE = [(1.0, 1.0, 400, 1), (0.5, 2.0, 160, 8), (0.5, 2.0, 400, 8)]
CP_NEW_ONLY = [(0.5, 2.0, 1000, 8)]
QUICK = dict(dp_compare=[("b", 100), ("c", 100)], dp_new=[("c", 400)], cp_compare=[(0.5, 2.0, 80, 4)], cp_new=[])
POT = 3


def one(spec: dict) -> dict:
    """Run one case in this process; return its seconds, value, exploitability and memory."""
    import resource
    import warnings

    from guts.errors import ConvergenceWarning

    warnings.simplefilter("ignore", ConvergenceWarning)

    def rss():  # peak resident MB since the last reset (Linux VmHWM), else the process's peak
        try:
            with open("/proc/self/status") as f:
                return next(float(x.split()[1]) for x in f if x.startswith("VmHWM:")) / 1024.0
        except (OSError, StopIteration):
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0

    def reset_peak():  # after the warm-up: the JIT's own peak must not hide the solve's
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass
    if spec["family"] == "dividing_point":
        from guts.games.dividing_point import patent_rules
        from guts.games.dividing_point.discrete import solve_mesh

        form = "sequence-form" if spec["how"] == "engine" else "prefix-sum"
        rules = patent_rules(spec["game"])
        solve_mesh(rules, POT, 8, formulation=form)
        reset_peak()
        base = rss()
        t0 = time.perf_counter()
        r = solve_mesh(rules, POT, spec["M"], formulation=form)
        secs = time.perf_counter() - t0
        out = dict(value=r.value, exploitability=r.exploitability, converged=r.converged, iterations=r.num_iter)
        peak = rss()
        if form == "prefix-sum":        # the LP's size (after the timing and the memory reading)
            from guts.games.dividing_point.mesh_lp import solve_mesh_plans

            out["lp_nonzeros"] = solve_mesh_plans(rules, POT, spec["M"]).nonzeros
        else:                           # the engine's bound on its payoff non-zeros
            from guts.engine.extensive.lp import lp_memory_estimate
            from guts.games.dividing_point.discrete import discretised_game

            out["lp_nonzeros"] = lp_memory_estimate(discretised_game(rules, POT, spec["M"]))[0]
        return dict(out, seconds=secs, extra_rss_mb=peak - base, peak_rss_mb=peak)
    else:
        from guts.engine.extensive import solve_sequence_form_lp
        from guts.games.continuous_poker import discrete as cp

        L, U, M, K = spec["L"], spec["U"], spec["M"], spec["K"]

        def solve(m):
            game = cp.discretised_game(L, U, m, K)
            if spec["how"] == "engine":
                return solve_sequence_form_lp(game)
            return (cp._direct_lp if spec["how"] == "old" else cp._caller_lp)(game, m, cp.bet_grid(L, U, K))

        solve(8)
        reset_peak()
        base = rss()
        t0 = time.perf_counter()
        r = solve(M)
        secs = time.perf_counter() - t0
        out = dict(value=r.value, exploitability=r.exploitability, converged=r.converged, iterations=r.num_iter)
    return dict(out, seconds=secs, extra_rss_mb=rss() - base, peak_rss_mb=rss())


def run_case(spec: dict) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--one", json.dumps(spec)], capture_output=True, text=True,
                          check=True, env=dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", ".")))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="small meshes only")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(json.loads(args.one))))
        return 0
    import pandas as pd

    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    out = ensure_output_dir(args.out)
    load_start = [round(x, 2) for x in os.getloadavg()]
    q = QUICK if args.quick else dict(dp_compare=DP_COMPARE, dp_new=DP_NEW_ONLY, cp_compare=CP_COMPARE,
                                      cp_new=CP_NEW_ONLY)
    cases = []
    for g, M in q["dp_compare"]:
        cases.append((dict(family="dividing_point", game=g, M=M), ("engine", "new")))
    for g, M in q["dp_new"]:
        cases.append((dict(family="dividing_point", game=g, M=M), ("new",)))
    for L, U, M, K in q["cp_compare"]:
        cases.append((dict(family="continuous_poker", L=L, U=U, M=M, K=K), ("engine", "old", "new")))
    for L, U, M, K in q["cp_new"]:
        cases.append((dict(family="continuous_poker", L=L, U=U, M=M, K=K), ("new",)))
    rows = []
    for spec, hows in cases:
        case = (f"game {spec['game']}, P = {POT}, {spec['M']} hands" if spec["family"] == "dividing_point"
                else f"L={spec['L']:g} U={spec['U']:g}, {spec['M']} hands, {spec['K']} sizes")
        row = dict(family=spec["family"], case=case, hands=spec["M"])
        for how in hows:
            res = run_case(dict(spec, how=how))
            for k, v in res.items():
                row[f"{how}_{k}"] = v
        if spec["family"] == "dividing_point" and "engine_seconds" in row:  # the old default was the engine's
            for k in [c for c in row if c.startswith("engine_")]:
                row["old_" + k[len("engine_"):]] = row[k]
        for base in ("engine", "old"):
            if f"{base}_seconds" in row:
                row[f"ratio_{base}"] = row[f"{base}_seconds"] / row["new_seconds"]
                row[f"{base}_minus_new_value"] = row[f"{base}_value"] - row["new_value"]
        rows.append(row)
        print(f"{spec['family']:16s} {case:36s} " + "  ".join(
            f"{h} {row[h + '_seconds']:7.2f} s" for h in ("engine", "old", "new") if h + "_seconds" in row)
            + (f"  x{row['ratio_engine']:5.1f}" if "ratio_engine" in row else "")
            + f"  new: v {row['new_value']:+.12f} expl {row['new_exploitability']:.1e} "
              f"+{row['new_extra_rss_mb']:.0f} MB", flush=True)
    df = pd.DataFrame(rows)
    write_csv(df, out / "mesh_lp.csv")
    write_meta(out / "mesh_lp.csv", {"quick": args.quick, "pot": POT},
               machine=f"{platform.machine()} {platform.processor() or platform.platform()}",
               cpus=os.cpu_count(), load_average_start=load_start,
               load_average_end=[round(x, 2) for x in os.getloadavg()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
