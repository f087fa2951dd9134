"""The public suit quotient and the two-player showdown pass on Rhode Island hold'em, in one run.

    PYTHONPATH=. python benchmarks/public_quotient.py [--out results/benchmarks] [--full]

Writes ``<out>/public_quotient.csv`` (+ ``.meta.json``). Rows:

* the sizes and build time of the quotient (``build_poker(spec, isomorphism="public")``), and
  with ``--full`` of the full game (about 4 minutes and 4.6 GB here);
* the terminal pass of one player (the work of a CFR iteration's half) on the quotient with
  the showdown pass (:mod:`guts.engine.extensive._showdown`) and with the general pass that
  sums every deal (``_kernels.USE_SHOWDOWN = False``): the median of ``--repeats`` calls after
  one warm-up (numba compilation excluded), and their ratio;
* a whole CFR iteration (DCFR) on the quotient, the median seconds per iteration over
  ``--iterations`` iterations after a warm-up, with each pass.

``load`` is ``os.getloadavg()[0]`` before each row (the machine may be shared).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guts.engine.extensive import _kernels as K  # noqa: E402
from guts.engine.extensive import cfr_plus  # noqa: E402
from guts.errors import ConvergenceWarning  # noqa: E402
from guts.games.poker import build_poker, read_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402


def _median_seconds(fn, repeats):
    fn()                                                    # warm-up (compilation)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--full", action="store_true", help="also build the full game (minutes, 4.6 GB)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=10)
    args = ap.parse_args(argv)
    spec = read_poker("rhode_island")
    rows = []
    builds = [("quotient", "public")] + ([("full", False)] if args.full else [])
    q = None
    for name, iso in builds:
        load = os.getloadavg()[0]
        t = time.perf_counter()
        g = build_poker(spec, isomorphism=iso)
        sec = time.perf_counter() - t
        cg = g.compiled
        rows.append({"what": f"build {name}", "seconds": sec, "public_nodes": cg.num_nodes,
                     "infosets": int(sum(pt.num_decisions * pt.num_types for pt in cg.players)), "load": load})
        if name == "quotient":
            q = g
        else:
            del g, cg
    cg = q.compiled
    rng = np.random.default_rng(0)
    R = [rng.random((pt.num_seqs, pt.num_types)) for pt in cg.players]
    secs = {}
    for label, flag in (("showdown pass", True), ("sum over deals", False)):
        K.USE_SHOWDOWN = flag
        load = os.getloadavg()[0]
        secs[label] = _median_seconds(lambda: K.terminal_values(cg, 0, R), args.repeats)
        rows.append({"what": f"terminal pass, {label}", "seconds": secs[label], "load": load})
    rows.append({"what": "terminal pass ratio (sum over deals / showdown pass)",
                 "ratio": secs["sum over deals"] / secs["showdown pass"]})
    it_secs = {}
    for label, flag in (("showdown pass", True), ("sum over deals", False)):
        K.USE_SHOWDOWN = flag
        load = os.getloadavg()[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            cfr_plus(q, variant="dcfr", max_iterations=2, report_every=10**6)        # warm-up
            t = time.perf_counter()
            r = cfr_plus(q, variant="dcfr", max_iterations=args.iterations, report_every=10**6)
            total = time.perf_counter() - t
        # the final exploitability check is one extra pass per player: report it apart
        it_secs[label] = total / args.iterations
        rows.append({"what": f"DCFR iteration (+ final check / iterations), {label}", "seconds": it_secs[label],
                     "iterations": r.num_iter, "load": load})
    K.USE_SHOWDOWN = True
    rows.append({"what": "DCFR iteration ratio", "ratio": it_secs["sum over deals"] / it_secs["showdown pass"]})
    df = pd.DataFrame(rows)
    target = ensure_output_dir(args.out) / "public_quotient.csv"
    write_csv(df, target, float_format="%.6g")
    write_meta(target, {"full": args.full, "repeats": args.repeats, "iterations": args.iterations},
               timing="wall-clock seconds; numba compilation and imports excluded (a warm-up call first)")
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
