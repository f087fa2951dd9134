"""Scale-out: one study sweep through :func:`guts.studies.sweep.run_sweep` on one
process, on two local processes, on a Dask cluster, and resumed from its cache.

    python benchmarks/sweeps.py [--quick] [--out results/benchmarks]      # needs pip install -e ".[dask]"

Writes ``<out>/sweeps.csv`` (+ ``.meta.json``: machine, load, command). The sweep
is the dividing-point study's scan of the four games of Hundal and Reitzen (US patent
6,129,631, 2000) at pots P = 1..10, each point with its mesh LP at 800 hands
(:func:`guts.studies.dividing_point.sweep_point`; the study itself checks at 200 hands):
40 points of about a second each. Every row is timed against the one-process run of the
same run (``old_seconds``) and checks that its rows are bit-identical to it (``identical``):

* ``2 local processes``: ``jobs=2`` (joblib's loky; the workers' start and imports included);
* ``Dask LocalCluster``: ``backend="dask"`` on a local cluster of 2 worker processes (one
  thread each), started before the timing (``cluster_start_seconds``);
* ``resumed, half the points cached``: a first sweep of every other point filled the cache
  (``cache=``), the timed one computes the rest (one process);
* ``resumed, every point cached``: the whole sweep again from the cache.

The parent process solves one point first (untimed), so that the one-process run does not
include numba's compilation.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time

GAMES = ("a", "b", "c", "d")
POTS = tuple(range(1, 11))
LP_MESH = 800
QUICK = dict(pots=(1, 2, 3), lp_mesh=200)


def _identical(a, b) -> bool:
    """Bit-identical rows and intervals (``DataFrame.equals``: exact, NaN equal to NaN; the
    sweep promises the same files whatever the backend, not close ones)."""
    import pandas as pd

    frames = lambda out: (pd.DataFrame([row for row, _ in out]),                  # noqa: E731
                          pd.DataFrame([iv for _, ivs in out for iv in ivs]))
    return all(x.equals(y) for x, y in zip(frames(a), frames(b)))


def measure(pots=POTS, lp_mesh=LP_MESH, workers=2) -> list[dict]:
    import warnings

    from guts.errors import ConvergenceWarning
    from guts.studies.dividing_point import sweep_point
    from guts.studies.sweep import run_sweep

    warnings.simplefilter("ignore", ConvergenceWarning)
    items = [(g, pot, lp_mesh) for g in GAMES for pot in pots]
    sweep_point(("b", 1, 20))                     # numba compiled (or loaded) before any timing
    what = f"dividing-point scan: {len(GAMES)} games x P = {pots[0]}..{pots[-1]}, mesh LP {lp_mesh} hands"
    rows = []

    def timed(**kw):
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        out = run_sweep(sweep_point, items, progress=False, **kw)
        return out, time.perf_counter() - t0, load

    base, base_s, load = timed()
    rows.append(dict(benchmark="sweep", case="1 process", points=len(items), seconds=base_s, load=load,
                     identical=True, note=what))

    def add(case, out, secs, load, **extra):
        rows.append(dict(benchmark="sweep", case=case, points=len(items), seconds=secs, old_seconds=base_s,
                         ratio_old_over_new=base_s / secs, identical=_identical(out, base), load=load,
                         note=what + "; old_seconds: the 1-process run of the same run", **extra))

    add(f"{workers} local processes (loky)", *timed(jobs=workers))

    try:
        import distributed
    except ImportError:             # the dask extra is not installed: the row is left out
        distributed = None
    if distributed is not None:
        t0 = time.perf_counter()
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            start = time.perf_counter() - t0
            out, secs, ld = timed(backend="dask", scheduler=cluster.scheduler_address)
        add(f"Dask LocalCluster, {workers} worker processes", out, secs, ld, cluster_start_seconds=start)

    with tempfile.TemporaryDirectory(prefix="guts-sweep-cache-") as tmp:
        run_sweep(sweep_point, items[::2], progress=False, cache=tmp)
        add("resumed, half the points cached (1 process)", *timed(cache=tmp))
        add("resumed, every point cached", *timed(cache=tmp))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help=f"P = 1..3 and mesh LPs of {QUICK['lp_mesh']} hands")
    args = ap.parse_args(argv)

    import pandas as pd

    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    kw = dict(QUICK) if args.quick else {}
    df = pd.DataFrame(measure(**kw))
    out = ensure_output_dir(args.out)
    target = out / "sweeps.csv"
    write_csv(df, target)
    write_meta(target, {"quick": args.quick, "games": list(GAMES), "pots": list(kw.get("pots", POTS)),
                        "lp_mesh": kw.get("lp_mesh", LP_MESH), "workers": 2},
               machine=dict(cpus=os.cpu_count(), processor=platform.processor() or platform.machine(),
                            python=platform.python_version()),
               load_at_end=list(os.getloadavg()),
               note="load: 1-minute load average at the start of each row; ratios are two timings of one run")
    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        print(df.drop(columns=["note"]).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
