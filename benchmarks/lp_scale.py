"""LP scale: old against new formulation on the mesh LPs, and the two-player Mercer
sequence-form LPs with their memory estimate, in one run.

    PYTHONPATH=. python benchmarks/lp_scale.py [--quick] [--large] [--out results/benchmarks]

Writes ``<out>/lp_scale.csv`` (+ ``.meta.json`` with the command, machine,
CPU count and load average at start and end) and prints the table.

* ``mesh``: limit continuous poker (Spears 2025) discretised on ``hands`` mesh cells and
  ``sizes`` bet sizes.  ``old``: the engine's sequence-form LP of the discretised game
  (:func:`guts.engine.extensive.solve_sequence_form_lp`, the formulation used before);
  ``new``: :func:`guts.games.continuous_poker.discrete.solve_discretised` (the direct
  prefix-sum bettor LP, O(K M) non-zeros).  Both are certified by the engine's
  exploitability; ``ratio`` = old seconds / new seconds, measured here.
* ``mercer``: two-player Mercer hold'em variants (Ullman 2015, and the variants beyond
  it): the memory estimate of the sequence-form LP (computed before building it) and,
  where it is solved here, the time, value and certificate (``--large`` adds the
  20 400-information-set 2P-MMH limit game with a check, a few minutes; ``--xlarge`` the
  54 225-information-set 2P-MMH fixed game with a check, about 8 minutes under load).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings

MESH = [  # (min_bet, max_bet, hands, sizes)
    (1.0, 1.0, 400, 1),
    (0.5, 2.0, 160, 8),
    (0.5, 2.0, 400, 8),
]
MESH_QUICK = [(1.0, 1.0, 100, 1), (0.5, 2.0, 80, 4)]
MERCER = [  # (label, variant, rules, solve here: "yes" / "large" / "xlarge" / "no")
    ("2P-MMH paper (fixed bet 4, no check)", "mmh", {}, "yes"),
    ("2P-MMH limit (call / raise 4)", "mmh", dict(betting="limit"), "yes"),
    ("2P-MMH limit, check allowed", "mmh", dict(betting="limit", check=True), "large"),
    ("2P-MMH fixed, check allowed", "mmh", dict(check=True), "xlarge"),
    ("2P-MMH limit, raise 4 or 8", "mmh", dict(betting="limit", bets=(4.0, 8.0)), "no"),
]


def mesh_rows(cases):
    from guts.engine.extensive import solve_sequence_form_lp
    from guts.games.continuous_poker.discrete import discretised_game, solve_discretised

    rows = []
    for L, U, M, K in cases:
        t0 = time.perf_counter()
        old = solve_sequence_form_lp(discretised_game(L, U, M, K))
        t_old = time.perf_counter() - t0
        t0 = time.perf_counter()
        new = solve_discretised(L, U, M, K)
        t_new = time.perf_counter() - t0
        rows.append(dict(family="continuous_poker", case=f"L={L:g} U={U:g} hands={M} sizes={K}",
                         old_seconds=t_old, new_seconds=t_new, ratio=t_old / t_new,
                         old_value=old.value, new_value=new.value,
                         old_exploitability=old.exploitability, new_exploitability=new.exploitability,
                         new_method=new.lp.method))
        print(f"mesh {rows[-1]['case']:34s} old {t_old:7.2f} s  new {t_new:6.2f} s  "
              f"x{t_old / t_new:5.1f}  |dv| {abs(old.value - new.value):.1e}", flush=True)
    return rows


def mercer_rows(large, xlarge=False):
    from guts.engine.extensive import solve_sequence_form_lp
    from guts.engine.extensive.lp import lp_memory_estimate
    from guts.games.poker.mercer import build_game, variant_rules
    from guts.studies.output import peak_rss_mb

    rows = []
    for label, v, opts, when in MERCER:
        built = build_game(variant_rules(v, 2, **opts))
        nnz, need = lp_memory_estimate(built.game)
        row = dict(family="mercer", case=label, info_sets=built.stats.info_sets,
                   lp_nonzeros_estimate=nnz, lp_memory_estimate_gb=need / 2**30)
        if when == "yes" or (when == "large" and large) or (when == "xlarge" and xlarge):
            t0 = time.perf_counter()
            r = solve_sequence_form_lp(built.game)
            row.update(new_seconds=time.perf_counter() - t0, new_value=r.value,
                       new_exploitability=r.exploitability, new_method="lp",
                       peak_rss_mb=peak_rss_mb())
        rows.append(row)
        print(f"mercer {label:40s} {built.stats.info_sets:7d} info sets  est. {nnz:9d} nnz "
              f"{need / 2**30:5.2f} GiB  " + (f"{row['new_seconds']:7.1f} s  v {row['new_value']:+.12f}"
                                              if "new_seconds" in row else "not solved here"), flush=True)
    return rows


def main(argv=None) -> int:
    import pandas as pd

    from guts.errors import ConvergenceWarning
    from guts.studies.output import ensure_output_dir, write_csv, write_meta

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="small meshes, small Mercer games")
    ap.add_argument("--large", action="store_true", help="also the 20 400-information-set Mercer LP")
    ap.add_argument("--xlarge", action="store_true",
                    help="also the 54 225-information-set Mercer LP (~8 min, ~0.75 GB)")
    args = ap.parse_args(argv)
    out = ensure_output_dir(args.out)
    load_start = [round(x, 2) for x in os.getloadavg()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        rows = mesh_rows(MESH_QUICK if args.quick else MESH) + mercer_rows(args.large and not args.quick, args.xlarge and not args.quick)
    df = pd.DataFrame(rows)
    write_csv(df, out / "lp_scale.csv")
    write_meta(out / "lp_scale.csv", {"quick": args.quick, "large": args.large, "xlarge": args.xlarge},
               machine=f"{platform.machine()} {platform.processor() or platform.platform()}",
               cpus=os.cpu_count(), load_average_start=load_start,
               load_average_end=[round(x, 2) for x in os.getloadavg()])
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
