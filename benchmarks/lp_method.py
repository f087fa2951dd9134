"""The LP algorithm by size: HiGHS's dual simplex against its interior-point method on poker and
Liar's Dice sequence-form LPs from 30 to 1.5e5 payoff non-zeros, both solved in one run.

    PYTHONPATH=. python benchmarks/lp_method.py [--out results/benchmarks] [--quick] [--repeat 2]

Writes ``<out>/lp_method.csv`` (+ ``.meta.json``): one row per game with the payoff non-zeros
(``nonzeros``: the bound that ``method="auto"`` reads, :func:`guts.engine.extensive.lp.lp_memory_estimate`;
``a_nonzeros``: those of the built payoff matrix), the LP's rows and columns (both players'
sequence x type counts), then for ``simplex`` (HiGHS's dual simplex) and ``ipm`` (IPX, its interior
solution certified, crossover only if the certificate fails: what ``method="ipm"`` runs) the
seconds of :func:`guts.engine.extensive.solve_sequence_form_lp` (build of the LP and certificate
included, the same for both; the best of ``--repeat`` solves below 5 s, else one), the value and the
exploitability; ``ratio`` = simplex seconds / ipm seconds (above 1: the interior point is faster;
``cpu_ratio`` the same with CPU seconds, the steadier one on a loaded machine),
``nonzeros_per_row`` = nonzeros / rows_and_columns, ``auto`` = what
:func:`guts.engine.extensive.lp.choose_lp_method` picks now (``auto_faster``: whether that is the
faster of the two by CPU time), and ``load`` the 1-minute load average at the row's start (the
machine is shared).

Games: Kuhn poker (2 players; 3 and 13 ranks), Leduc hold'em (OpenSpiel's; 4, 5 and 7 ranks; 3 suits),
two-player Mercer hold'em (Ullman 2015: standard, multiround, multiround with call/raise betting),
Liar's Dice (one die each, 5 and 6 faces: LPs with fewer non-zeros per row).
Each pair of solves is checked: both certified (exploitability <= ``LP_CERT_TOL`` x payoff scale)
and their values within the sum of the two exploitabilities.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.engine.extensive import lp as L  # noqa: E402
from guts.errors import ConvergenceWarning  # noqa: E402
from guts.games.liars_dice import liars_dice  # noqa: E402
from guts.games.poker.mercer import build_game, variant_rules  # noqa: E402
from guts.games.toy import kuhn_poker, leduc_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402


def _mercer(variant, **rules):
    return lambda: build_game(variant_rules(variant, 2, **rules)).game


#: (label, builder, in --quick), in order of size.
GAMES = [
    ("kuhn", kuhn_poker, True),
    ("kuhn 13 ranks", lambda: kuhn_poker(ranks=13), True),
    ("2P Mercer SMH", _mercer("smh"), True),
    ("leduc", leduc_poker, True),
    ("leduc 4 ranks", lambda: leduc_poker(ranks=4), True),
    ("2P Mercer MMH", _mercer("mmh"), True),
    ("leduc 3 suits", lambda: leduc_poker(suits=3), True),
    ("leduc 5 ranks", lambda: leduc_poker(ranks=5), True),
    ("leduc 7 ranks", lambda: leduc_poker(ranks=7), False),
    ("2P Mercer MMH call/raise", _mercer("mmh", betting="limit"), False),
    ("liar's dice 1 die, 5 faces", lambda: liars_dice((1, 1), 5), True),
    ("liar's dice 1 die, 6 faces", lambda: liars_dice((1, 1), 6), False),
]
METHODS = ("simplex", "ipm")


def _solve(game, method, repeat):
    best, cpu, r = float("inf"), float("inf"), None
    for i in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)      # an uncertified solve stops the run
            r = L.solve_sequence_form_lp(game, method=method, memory_limit=None)
        best, cpu = min(best, time.perf_counter() - t), min(cpu, time.process_time() - c)
        if best > 5.0:
            break
    return best, cpu, r


def measure(label, game, repeat):
    cg = L._check_game(game)
    nnz, rows = L._lp_size(cg)
    row = dict(game=label, nonzeros=nnz, a_nonzeros=int(L.sequence_form(game)[0].nnz),
               rows_and_columns=rows, load=os.getloadavg()[0])
    res = {}
    for m in METHODS:
        secs, cpu, r = _solve(game, m, repeat)
        res[m] = r
        row.update({f"{m}_seconds": secs, f"{m}_cpu_seconds": cpu, f"{m}_value": r.value,
                    f"{m}_exploitability": r.exploitability, f"{m}_certified": bool(r.converged)})
    gap = abs(res["simplex"].value - res["ipm"].value)
    tol = res["simplex"].exploitability + res["ipm"].exploitability + L.LP_CERT_TOL * cg.payoff_scale
    if not (res["simplex"].converged and res["ipm"].converged and gap <= tol):
        raise RuntimeError(f"{label}: the two methods disagree (values differ by {gap:.3g})")
    row["value_difference"] = gap
    row["ratio"] = row["simplex_seconds"] / row["ipm_seconds"]
    row["cpu_ratio"] = row["simplex_cpu_seconds"] / row["ipm_cpu_seconds"]
    row["nonzeros_per_row"] = nnz / rows
    row["auto"] = L.choose_lp_method(nnz, rows)
    row["auto_faster"] = row["auto"] == ("ipm" if row["cpu_ratio"] > 1.0 else "simplex")
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="LPs up to 3.3e4 non-zeros only")
    ap.add_argument("--repeat", type=int, default=2, help="solves per method below 5 s (the best is kept)")
    args = ap.parse_args(argv)
    out = ensure_output_dir(args.out)
    t0 = time.perf_counter()
    load = os.getloadavg()
    for m in METHODS:                      # HiGHS loaded, certificate kernels compiled, before any timing
        L.solve_sequence_form_lp(kuhn_poker(), method=m)
    rows = []
    for label, make, quick in GAMES:
        if args.quick and not quick:
            continue
        r = measure(label, make(), args.repeat)
        rows.append(r)
        print(f"{label:26s} {r['nonzeros']:8d} nnz {r['rows_and_columns']:6d} rows  simplex {r['simplex_seconds']:7.2f} s"
              f"  ipm {r['ipm_seconds']:7.2f} s  ratio {r['ratio']:5.2f} (CPU {r['cpu_ratio']:5.2f})  auto {r['auto']}"
              f"  (load {r['load']:.1f})",
              flush=True)
    df = pd.DataFrame(rows)
    target = out / "lp_method.csv"
    write_csv(df, target)
    big = df[df.nonzeros > L.LP_IPM_NNZ]
    write_meta(target, dict(quick=args.quick, repeat=args.repeat, games=list(df.game)),
               thresholds=dict(LP_IPM_NNZ=L.LP_IPM_NNZ, LP_IPM_NNZ_PER_ROW=L.LP_IPM_NNZ_PER_ROW,
                               LP_IPM_ANY_NNZ=L.LP_IPM_ANY_NNZ),
               auto_faster=f"{int(df.auto_faster.sum())} of {len(df)}",
               loadavg_before=list(load), loadavg_after=list(os.getloadavg()),
               seconds=time.perf_counter() - t0)
    print(f"auto picks the faster method (CPU) on {int(df.auto_faster.sum())} of {len(df)} LPs, "
          f"{int(big.auto_faster.sum())} of {len(big)} above LP_IPM_NNZ = {L.LP_IPM_NNZ}")
    return df


if __name__ == "__main__":
    main()
