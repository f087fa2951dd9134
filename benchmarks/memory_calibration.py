"""Memory estimates against the measured peak resident memory (the pre-flight).

    python benchmarks/memory_calibration.py [--quick] [--out results/benchmarks]

Every estimate that a guard compares with the memory budget (``guts._validate.check_memory``)
is run on a few sizes, each in a fresh Python process: the child imports what it needs,
prepares the arguments, reads its resident memory (``/proc/self/statm``), runs the request
and reads its peak resident memory (``VmHWM``, :func:`guts._validate.peak_rss_bytes`; not ``ru_maxrss``, which keeps the peak of the process it was forked from). The
*measured* figure is the increment, peak minus the resident memory before the request (the
interpreter, NumPy, SciPy and numba are not the request's); ``ratio`` = estimate / measured.
The guards want ``1 <= ratio <= 2``: never under-estimate (a refused request must really not
fit), and refuse nothing that fits in half the budget.

Models (``model`` column):

* ``build_game``: :func:`guts.games.poker.builder.count_tree`'s ``bytes``
  (``BUILD_BYTES_PER_NODE`` ... in :mod:`guts.games.poker.builder`), the pre-flight of
  :func:`~guts.games.poker.builder.build_game` (build and compile a Mercer hold'em tree).
  The row also gives the engine's own estimate of the built tree
  (:func:`guts.engine.extensive.estimate_size`, ``engine_estimate``), whose ratio to the
  same measurement calibrates ``_BYTES_PER_NODE`` of :mod:`guts.engine.extensive.tree`.
* ``build_poker``: :func:`guts.games.poker.build.count_poker`'s ``bytes``, the same constants,
  for the ACPC limit builder (:func:`~guts.games.poker.build.build_poker`).
* ``coalition``: :func:`guts.games.guts.coalition.coalition_bytes` of ``solve_coalition``.
* ``pseudo_bloc``: :func:`guts.games.guts.pseudo_bloc.stage_bytes` of ``solve_pseudo_bloc``.
* ``mesh``: ``UNIFORM_MESH_BYTES_PER_POINT`` of :func:`guts.games.guts.strategies.mesh`;
  ``threshold_mesh``: ``BYTES_PER_MESH_POINT`` of :func:`guts.games.guts.large_n.mesh.threshold_mesh`.

Writes ``results/benchmarks/memory_calibration.csv`` and its ``.meta.json`` (machine, load,
command).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (model, label, parameters); ``QUICK`` marks the cases of ``--quick`` (and of the test)
CASES = [
    ("build_game", "2P-MMH fixed, bets 2,4, check", dict(variant="mmh", players=2, bets=(2.0, 4.0), check=True,
                                                          betting="fixed")),
    ("build_game", "2P-MMH limit, bets 2,4, check", dict(variant="mmh", players=2, bets=(2.0, 4.0), check=True,
                                                          betting="limit")),
    ("build_game", "3P-MMH fixed, check", dict(variant="mmh", players=3, bets=(4.0,), check=True, betting="fixed")),
    ("build_game", "2P-MMH fixed, bets 2,4,8, check", dict(variant="mmh", players=2, bets=(2.0, 4.0, 8.0),
                                                            check=True, betting="fixed")),
    ("build_poker", "ACPC 2P, 12 cards, 3 rounds of 3 raises", dict(players=2, ranks=6, suits=2, rounds=[
        [0, 2.0, 3, 0], [1, 4.0, 3, 0], [1, 4.0, 3, 0]])),
    ("build_poker", "ACPC 3P, 8 cards, 3 rounds", dict(players=3, ranks=4, suits=2, rounds=[
        [0, 2.0, 2, 0], [1, 4.0, 2, 0], [1, 4.0, 1, 0]])),
    ("coalition", "1 v. 2 pseudo-bloc mesh 101 LP", dict(size=2, mesh=101, structure="pseudo-bloc", solver="lp")),
    ("coalition", "1 v. 3 pseudo-bloc mesh 201 LP", dict(size=3, mesh=201, structure="pseudo-bloc", solver="lp")),
    ("coalition", "1 v. 3 full mesh 61 oracle", dict(size=3, mesh=61, structure="full", solver="oracle")),
    ("coalition", "1 v. 4 full mesh 41 oracle", dict(size=4, mesh=41, structure="full", solver="oracle")),
    ("coalition", "1 v. 2 pseudo-bloc mesh 101 FP", dict(size=2, mesh=101, structure="pseudo-bloc", solver="fp",
                                                         fp_iterations=200, max_iterations=5)),
    ("pseudo_bloc", "1 v. 5 pseudo-bloc mesh 401", dict(size=5, points=401)),
    ("pseudo_bloc", "1 v. 5 pseudo-bloc mesh 801", dict(size=5, points=801)),
    ("mesh", "mesh 2e7 points", dict(points=20_000_000)),
    ("mesh", "mesh 5e7 points", dict(points=50_000_000)),
    ("threshold_mesh", "scaled threshold mesh 2e7 points", dict(points=20_000_000)),
]
QUICK = {"2P-MMH limit, bets 2,4, check", "1 v. 2 pseudo-bloc mesh 101 LP", "mesh 2e7 points"}

CHILD = r"""
import json, os, resource, sys, time
from guts._validate import peak_rss_bytes
model, p = sys.argv[1], json.loads(sys.argv[2])

def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

out = {}
if model == "build_game":
    from guts.engine.extensive import estimate_size
    from guts.games.poker.builder import build_game, count_tree
    from guts.games.poker.rules import variant_rules
    rules = variant_rules(p["variant"], p["players"], bets=tuple(p["bets"]), check=p["check"], betting=p["betting"])
    est = count_tree(rules)
    run = lambda: build_game(rules)
    out.update(estimate=est.bytes, public_states=est.public_states, sequences=est.sequences,
               deal_floats=est.deal_floats)
elif model == "build_poker":
    from guts.games.poker.build import build_poker, count_poker
    from guts.games.poker.spec import PokerRound, PokerSpec
    spec = PokerSpec(p["players"], p["ranks"], p["suits"], 1, tuple(PokerRound(*r) for r in p["rounds"]),
                     antes=(1,) * p["players"])
    est = count_poker(spec)
    run = lambda: build_poker(spec)
    out.update(estimate=est.bytes, public_states=est.public_states, sequences=est.sequences,
               deal_floats=est.deal_floats)
elif model == "coalition":
    from guts.games.guts.coalition import coalition_bytes, solve_coalition
    est = coalition_bytes(p["size"], p["mesh"], p["mesh"], p["structure"], p["solver"])
    extra = {k: p[k] for k in ("fp_iterations", "max_iterations") if k in p}   # memory does not grow with them
    run = lambda: solve_coalition(p["size"], p["mesh"], p["structure"], solver=p["solver"], certify_result=False,
                                  **extra)
    out.update(estimate=est)
elif model == "pseudo_bloc":
    from guts.games.guts.large_n.solve import solve_pseudo_bloc
    from guts.games.guts.pseudo_bloc import stage_bytes
    from guts.games.guts.strategies import mesh
    g = mesh(p["points"])
    est = stage_bytes(p["size"], p["points"])
    run = lambda: solve_pseudo_bloc(p["size"], g, certify_result=False)
    out.update(estimate=est)
elif model == "threshold_mesh":
    from guts.games.guts.large_n.mesh import threshold_mesh
    from guts.games.guts.strategies import BYTES_PER_MESH_POINT
    est = BYTES_PER_MESH_POINT * p["points"]
    run = lambda: float(threshold_mesh(5, p["points"]).sum())
    out.update(estimate=est)
else:
    from guts.games.guts.strategies import UNIFORM_MESH_BYTES_PER_POINT, mesh
    est = UNIFORM_MESH_BYTES_PER_POINT * p["points"]
    run = lambda: float(mesh(p["points"]).sum())
    out.update(estimate=est)
import gc, warnings
gc.collect()
before = rss()
peak_before = peak_rss_bytes()
t0 = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    result = run()
seconds = time.perf_counter() - t0
peak = peak_rss_bytes()
if model == "build_game":
    out.update(engine_estimate=result.game.size.bytes, built_public_states=result.stats.public_states)
elif model == "build_poker":
    out.update(engine_estimate=result.size.bytes, built_public_states=result.size.public_nodes)
out.update(rss_before=before, peak_before=peak_before, peak=peak, seconds=seconds)
print(json.dumps(out))
"""


def measure(model: str, params: dict, timeout: float = 1800.0) -> dict:
    """Run one case in a fresh process; return the child's figures plus ``measured`` and ``ratio``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("GUTS_MEMORY_BUDGET", None)
    p = subprocess.run([sys.executable, "-c", CHILD, model, json.dumps(params)], capture_output=True, text=True,
                       timeout=timeout, env=env, cwd=str(ROOT))
    if p.returncode != 0:
        raise RuntimeError(f"{model} {params}: exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    row = json.loads(p.stdout.strip().splitlines()[-1])
    # the request's own memory: peak over the run minus what the process held before it
    row["measured"] = max(row["peak"] - max(row["rss_before"], 0), 1)
    row["ratio"] = row["estimate"] / row["measured"]
    if "engine_estimate" in row:
        row["engine_ratio"] = row["engine_estimate"] / row["measured"]
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="three small cases only")
    ap.add_argument("--out", default=str(ROOT / "results" / "benchmarks"), help="output folder (default results/benchmarks/)")
    ap.add_argument("--only", default="", help="comma-separated models to re-measure; their rows replace "
                                               "those of the existing CSV")
    args = ap.parse_args(argv)
    only = {m for m in args.only.split(",") if m}
    rows = []
    for model, label, params in CASES:
        if (args.quick and label not in QUICK) or (only and model not in only):
            continue
        load = round(os.getloadavg()[0], 2)
        t0 = time.perf_counter()
        row = measure(model, params)
        row = {"model": model, "case": label, **row, "wall_seconds": round(time.perf_counter() - t0, 2),
               "load": load}
        rows.append(row)
        print(f"{model:12s} {label:34s} estimate {row['estimate'] / 2**20:9.1f} MiB  measured "
              f"{row['measured'] / 2**20:9.1f} MiB  ratio {row['ratio']:.2f}"
              + (f"  engine ratio {row['engine_ratio']:.2f}" if "engine_ratio" in row else ""), flush=True)
    _write(Path(args.out), rows, args)
    return 0


def _write(out, rows, args):
    import platform

    import pandas as pd

    from guts.studies.output import write_csv, write_meta

    out.mkdir(parents=True, exist_ok=True)
    target = out / "memory_calibration.csv"
    df = pd.DataFrame(rows)
    if args.only and target.exists():
        old = pd.read_csv(target)
        df = pd.concat([old[~old.model.isin(df.model.unique())], df], ignore_index=True)
        order = {c[1]: i for i, c in enumerate(CASES)}
        df = df.sort_values("case", key=lambda s: s.map(order)).reset_index(drop=True)
    write_csv(df, target)
    write_meta(target, {"quick": args.quick, "only": args.only, "cases": list(df["case"])},
               machine=dict(cpus=os.cpu_count(), processor=platform.processor() or platform.machine(),
                            python=platform.python_version()),
               load_at_end=list(os.getloadavg()),
               note="measured = peak RSS (VmHWM) of a fresh process minus its RSS just before the "
                    "request; ratio = estimate / measured (the guards want 1..2); load = 1-minute load "
                    "average at the start of each row (the machine is shared)")


if __name__ == "__main__":
    sys.exit(main())
