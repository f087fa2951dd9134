"""Peak memory of the sequence-form LP against its estimate, each case in a
fresh subprocess.

    PYTHONPATH=. python benchmarks/lp_memory.py [--quick] [--large] [--out results/benchmarks]

For every case a new Python process builds the game, reads its resident memory (the
baseline: interpreter, libraries, the built game), solves the LP with
``solve_sequence_form_lp(game, memory_limit=None)`` (``method="auto"``: the simplex up to
``LP_IPM_NNZ`` payoff non-zeros, the interior-point method above) and reports its peak
resident memory (``ru_maxrss``); the LP's share is ``peak - baseline``, set beside
:func:`guts.engine.extensive.lp.lp_memory_estimate` (computed before the LP is built).
The parent also reads ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` after each case (the
largest child so far) as a cross-check of the child's own figure.

Writes ``<out>/lp_memory.csv`` (+ ``.meta.json`` with the command, machine,
load average) and prints the table.  ``ratio`` = estimate / measured LP share: the
estimate is calibrated so that it lies in [1, 2] on these cases.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

#: (label, family, parameters, size class: "quick" / "default" / "large")
CASES = [
    ("2P-MMH paper (fixed bet 4, no check)", "mercer", dict(variant="mmh"), "quick"),
    ("2P-SMH limit, raise 4 or 8", "mercer", dict(variant="smh", betting="limit", bets=[4.0, 8.0]), "quick"),
    ("continuous poker, 160 hands, 8 bet sizes", "continuous", dict(L=0.5, U=2.0, M=160, K=8), "quick"),
    ("2P-MMH limit (call / raise 4)", "mercer", dict(variant="mmh", betting="limit"), "default"),
    ("continuous poker, 400 hands, 8 bet sizes", "continuous", dict(L=0.5, U=2.0, M=400, K=8), "default"),
    ("continuous poker, 400 hands, 20 bet sizes", "continuous", dict(L=0.5, U=2.0, M=400, K=20), "default"),
    ("2P-MMH limit, check allowed", "mercer", dict(variant="mmh", betting="limit", check=True), "default"),
    ("2P-MMH fixed, check allowed", "mercer", dict(variant="mmh", check=True), "large"),
    ("2P-MMH limit, raise 4 or 8", "mercer", dict(variant="mmh", betting="limit", bets=[4.0, 8.0]), "xlarge"),
]


def _rss_now() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def build(family, p):
    if family == "mercer":
        from guts.games.poker.mercer import build_game, variant_rules

        opts = {k: (tuple(v) if isinstance(v, list) else v) for k, v in p.items() if k != "variant"}
        return build_game(variant_rules(p["variant"], 2, **opts)).game
    from guts.games.continuous_poker.discrete import discretised_game

    return discretised_game(p["L"], p["U"], p["M"], p["K"])


def child(family, params) -> dict:
    """Build, measure the baseline, solve, measure the peak (run in a fresh process)."""
    import gc
    import warnings

    from guts._validate import peak_rss_bytes
    from guts.engine.extensive.lp import lp_memory_estimate, lp_method, solve_sequence_form_lp
    from guts.errors import ConvergenceWarning

    game = build(family, params)
    nnz, need = lp_memory_estimate(game)
    gc.collect()
    base = _rss_now()
    peak_before = peak_rss_bytes()
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_sequence_form_lp(game, memory_limit=None)
    secs = time.perf_counter() - t0
    peak = peak_rss_bytes()
    return dict(nonzeros_estimate=nnz, estimate_bytes=need, method=lp_method(game),
                baseline_bytes=base, peak_before_bytes=peak_before, peak_bytes=peak,
                lp_bytes=peak - base, seconds=secs, value=r.value, exploitability=r.exploitability,
                converged=r.converged)


def reestimate(out, argv) -> int:
    """Recompute ``estimate_bytes`` and ``ratio`` of the committed measurements."""
    import pandas as pd

    from guts.engine.extensive.lp import lp_memory_estimate
    from guts.studies.output import write_csv, write_meta

    path = out / "lp_memory.csv"
    df = pd.read_csv(path)
    meta = json.loads((out / "lp_memory.meta.json").read_text())
    params = {label: (family, p) for label, family, p, _ in CASES}
    for i, label in enumerate(df.case):
        family, p = params[label]
        # the method that ran (``auto`` may choose another where HiPO has since been installed)
        nnz, need = lp_memory_estimate(build(family, json.loads(json.dumps(p))), df.loc[i, "method"])
        df.loc[i, "estimate_bytes"] = need
        df.loc[i, "ratio"] = need / max(df.loc[i, "lp_bytes"], 1)
        print(f"{label:45s} est {need / 2**20:8.1f} MB  LP {df.loc[i, 'lp_bytes'] / 2**20:8.1f} MB"
              f"  x{df.loc[i, 'ratio']:.2f}", flush=True)
    write_csv(df, path)
    keep = {k: meta[k] for k in ("machine", "cpus", "load_average_start", "load_average_end") if k in meta}
    # the measurement's command and date survive any number of re-estimates
    measured_by = meta.get("measured_command", meta.get("command", "?"))
    note, _, older = meta.get("note", "").partition("; estimate_bytes and ratio recomputed")
    measured_utc = meta.get("measured_utc") or (older.rpartition("measurements from the run of ")[2]
                                                if "measurements from the run of" in older
                                                else meta.get("created_utc", "?"))
    write_meta(path, meta.get("parameters", {}), **keep, measured_command=measured_by, measured_utc=measured_utc,
               note=note + "; estimate_bytes and ratio recomputed with the current constants "
                    "(python benchmarks/lp_memory.py --reestimate) from the measurements of measured_command")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="the three small cases only")
    ap.add_argument("--large", action="store_true", help="also the 54 225-information-set Mercer LP")
    ap.add_argument("--xlarge", action="store_true", help="also the 209 715-information-set Mercer LP")
    ap.add_argument("--reestimate", action="store_true",
                    help="keep the measurements of <out>/lp_memory.csv, recompute the estimates "
                         "(after a change of the constants; nothing is solved)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        family, params = json.loads(args.child)
        print("RESULT " + json.dumps(child(family, params)), flush=True)
        return 0
    import pandas as pd

    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    if args.reestimate:
        return reestimate(ensure_output_dir(args.out), argv)

    want = {"quick"} if args.quick else {"quick", "default"} | ({"large"} if args.large else set()) | (
        {"xlarge"} if args.xlarge else set())
    out = ensure_output_dir(args.out)
    load_start = [round(x, 2) for x in os.getloadavg()]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))] + sys.path))
    rows = []
    for label, family, params, size in CASES:
        if size not in want:
            continue
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", json.dumps([family, params])],
                              capture_output=True, text=True, env=env)
        line = [s for s in proc.stdout.splitlines() if s.startswith("RESULT ")]
        if proc.returncode or not line:
            print(f"{label}: child failed ({proc.returncode}): {proc.stderr[-500:]}", flush=True)
            continue
        row = dict(case=label, family=family, **json.loads(line[-1][7:]))
        row["children_maxrss_bytes"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        row["ratio"] = row["estimate_bytes"] / max(row["lp_bytes"], 1)
        rows.append(row)
        print(f"{label:45s} {row['method']:9s} nnz {row['nonzeros_estimate']:9d}  est {row['estimate_bytes'] / 2**20:8.1f} MB"
              f"  LP {row['lp_bytes'] / 2**20:8.1f} MB (peak {row['peak_bytes'] / 2**20:7.1f})  x{row['ratio']:.2f}"
              f"  {row['seconds']:7.1f} s", flush=True)
    df = pd.DataFrame(rows)
    write_csv(df, out / "lp_memory.csv")
    write_meta(out / "lp_memory.csv", {"quick": args.quick, "large": args.large, "xlarge": args.xlarge},
               machine=f"{platform.machine()} {platform.processor() or platform.platform()}",
               cpus=os.cpu_count(), load_average_start=load_start,
               load_average_end=[round(x, 2) for x in os.getloadavg()],
               note="lp_bytes = peak resident memory of the child during the solve minus its resident memory "
                    "after the game was built; ratio = estimate / lp_bytes")
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
