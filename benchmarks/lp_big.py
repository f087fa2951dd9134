"""Big exact two-player LPs: the Mercer hold'em games beyond the paper, old
path against new, each solve in a fresh subprocess (time and peak resident memory).

    PYTHONPATH=. python benchmarks/lp_big.py [--xlarge] [--time-limit S] [--only PATHS] [--csv NAME] [--out results/benchmarks]

Per game: ``cfr+`` = the former path of ``guts mercer study beyond`` (predictive CFR+ to
NashConv <= 1e-3, a bracket of the value from the best-response gains); ``lp-crossover`` =
the sequence-form LP with the earlier default settings (HiGHS's interior-point method IPX
with crossover to a vertex); ``lp-ipx`` = IPX's interior solution without crossover,
certified by the engine's exploitability (crossover only if that fails); ``lp`` = the
default now (``method="auto"``: the same with HiPO, HiGHS's direct-factorisation IPM,
where ``pip install "guts[hipo]"`` installed it, else IPX).  Every LP is certified
(exploitability <= 1e-9 x payoff scale).  ``--xlarge`` adds the 209 715-information-set
2P-MMH limit game with raises of 4 or 8 (``lp`` and ``lp-ipx`` only, each under
``--time-limit`` seconds of HiGHS; a SolverError row if it does not finish).

Writes ``<out>/lp_big.csv`` (+ ``.meta.json``: command, machine, load average
at start and end) and prints the table; ``ratio`` = lp-crossover seconds / lp seconds,
``ratio_ipx`` = lp-ipx seconds / lp seconds (for a run stopped by the time limit: at least
that, and the row says so).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

GAMES = [  # (label, rule options, size class)
    ("2P-MMH limit, check allowed", dict(betting="limit", check=True), "default"),
    ("2P-MMH fixed, check allowed", dict(check=True), "default"),
    ("2P-MMH limit, raise 4 or 8", dict(betting="limit", bets=[4.0, 8.0]), "xlarge"),
]


def child(opts, how, time_limit) -> dict:
    import warnings

    from guts._validate import peak_rss_bytes
    from guts.engine.extensive.lp import lp_memory_estimate, lp_method, solve_sequence_form_lp
    from guts.errors import ConvergenceWarning, SolverError
    from guts.games.poker.mercer import build_game, solve, variant_rules
    from guts.studies.mercer import BEYOND_CFR, BEYOND_TARGET_2P

    opts = {k: (tuple(v) if isinstance(v, list) else v) for k, v in opts.items()}
    t0 = time.perf_counter()
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if how == "cfr+":
            r = solve("mmh", 2, "cfr+", target=BEYOND_TARGET_2P, cfr_options=BEYOND_CFR, **opts)
            out.update(value_lower=float(r.values[0] - r.gains[1]), value_upper=float(r.values[0] + r.gains[0]),
                       iterations=r.num_iter, converged=r.converged)
        else:
            game = build_game(variant_rules("mmh", 2, **opts)).game
            method = "auto" if how == "lp" else "highs-ipm"
            nnz, need = lp_memory_estimate(game, method)
            out.update(method=lp_method(game, method), nonzeros_estimate=nnz, memory_estimate_mb=need / 2**20)
            try:
                r = solve_sequence_form_lp(game, method=method,
                                           crossover=True if how == "lp-crossover" else None,
                                           time_limit=time_limit)
                out.update(value_lower=r.value - r.exploitability * 2, value_upper=r.value + r.exploitability * 2,
                           value=r.value, exploitability=r.exploitability, iterations=r.num_iter,
                           converged=r.converged)
            except SolverError as exc:
                out.update(error=str(exc)[:200], converged=False)
    out.update(seconds=time.perf_counter() - t0,
               peak_rss_mb=peak_rss_bytes() / 2**20)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--xlarge", action="store_true", help="also the 209 715-information-set game (lp only)")
    ap.add_argument("--time-limit", type=float, default=3600.0, help="HiGHS seconds per LP (default 3600)")
    ap.add_argument("--only", default="", help="comma-separated paths to run (cfr+, lp-crossover, lp-ipx, lp)")
    ap.add_argument("--csv", default="lp_big.csv", help="file name in --out (default %(default)s)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        opts, how, tl = json.loads(args.child)
        print("RESULT " + json.dumps(child(opts, how, tl)), flush=True)
        return 0
    import pandas as pd

    from guts.engine.highs import hipo_available
    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    out = ensure_output_dir(args.out)
    load_start = [round(x, 2) for x in os.getloadavg()]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))] + sys.path))
    only = set(filter(None, args.only.split(",")))
    rows = []
    for label, opts, size in GAMES:
        if size == "xlarge" and not args.xlarge:
            continue
        paths = ["lp", "lp-ipx"] if size == "xlarge" else ["cfr+", "lp-crossover", "lp-ipx", "lp"]
        for how in paths:
            if only and how not in only:
                continue
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                                   json.dumps([opts, how, args.time_limit])], capture_output=True, text=True, env=env)
            line = [s for s in proc.stdout.splitlines() if s.startswith("RESULT ")]
            if proc.returncode or not line:
                print(f"{label} {how}: child failed ({proc.returncode}): {proc.stderr[-500:]}", flush=True)
                continue
            row = dict(case=label, path=how, load_average_1min=round(os.getloadavg()[0], 2), **json.loads(line[-1][7:]))
            rows.append(row)
            print(f"{label:32s} {how:13s} {row['seconds']:8.1f} s  peak {row['peak_rss_mb']:7.0f} MB  "
                  f"[{row.get('value_lower', float('nan')):+.12f}, {row.get('value_upper', float('nan')):+.12f}]"
                  + (f"  {row['error']}" if "error" in row else ""), flush=True)
    df = pd.DataFrame(rows)
    if not df.empty:
        for case in set(df.case):
            d = df[df.case == case].set_index("path")
            for other, col in (("lp-crossover", "ratio"), ("lp-ipx", "ratio_ipx")):
                if {"lp", other} <= set(d.index):
                    df.loc[(df.case == case) & (df.path == "lp"), col] = (
                        d.loc[other, "seconds"] / d.loc["lp", "seconds"])
    write_csv(df, out / args.csv)
    write_meta(out / args.csv, {"xlarge": args.xlarge, "time_limit": args.time_limit, "only": args.only,
                                "hipo_available": hipo_available()},
               machine=f"{platform.machine()} {platform.processor() or platform.platform()}",
               cpus=os.cpu_count(), load_average_start=load_start,
               load_average_end=[round(x, 2) for x in os.getloadavg()],
               note="each solve in a fresh process; peak_rss_mb = that process's peak resident memory "
                    "(interpreter and built game included); value_lower/upper: for cfr+ the best-response "
                    "bracket, for the LPs value -/+ NashConv")
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
