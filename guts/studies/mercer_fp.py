"""The Mercer hold'em program's fictitious play against its published runs, and the
classical (realisation-average) fictitious play beside it, on every game with an output.

For every run written by Ullman's (2015) program (``rjullman/poker-nasheq``, ``output/``,
kept in :data:`guts.games.poker.mercer.paper.PROGRAM_FP`) and for the thesis's §3.4 figure (3P-MMH
to 0.01 in "3600 iterations"): the program's rule (``averaging="behavioural"``) run here,
its iteration count and its first and last printed regrets beside the program's; the
iteration count of classical fictitious play (``averaging="realisation"``) on the same game.
Strong collusion is played as the program plays it: three players, pooled payoffs and
shared hands (not the merged team).

    python experiments/mercer_program_fp.py      (= guts mercer study program_fp)
"""
from __future__ import annotations

import os
import time
import warnings

import numpy as np
import pandas as pd

from guts.engine.extensive import fictitious_play
from guts.errors import ConvergenceWarning
from guts.games.poker.mercer import Collusion, build_game, variant_rules
from guts.games.poker.mercer.paper import PAPER_FP_ITERATIONS, PROGRAM_FP
from guts.games.poker.mercer.solve import program_action_priority
from guts.studies.output import ensure_output_dir, publish, write_csv, write_meta

__all__ = ["run_program_fp", "program_fp_tables", "MAX_ITERATIONS", "TABLE_RUNS"]

#: Cap of one run (the program's 3P-MMH collusion runs took "up to roughly 8500").
MAX_ITERATIONS = 20_000
TARGET = "program_fp.csv"
TABLES_TARGET = "program_fp_tables.csv"
#: The program's runs behind the printed strategy tables: (variant, players, collusion, team,
#: epsilon) -> tables. Tables 2-3 are the 2P-MMH run at 0.01 and Tables 4-6, 8 the 3P-MMH runs
#: at 0.1 (the epsilon of the program's 3P-MMH output files), figure for figure; Table 1 is
#: not the program's 2P-SMH output at 0.001 (its smh2p.nash, reproduced here, says 75.0 / 69.3
#: where Table 1 prints 66 / 65).
TABLE_RUNS = {
    ("smh", 2, None, None, 0.001): ("table1",),
    ("mmh", 2, None, None, 0.01): ("table2", "table3"),
    ("mmh", 3, None, None, 0.1): ("table4", "table5", "table6", "table8_nocol"),
    ("mmh", 3, "weak", (0, 1), 0.1): ("table8_col",),
}


def _label(variant, players, collusion, team):
    name = f"{players}P-{variant.upper()}"
    return name + (f" {collusion} ({team[0]},{team[1]})" if collusion else "")


def program_fp_row(case) -> dict:
    """One row of :func:`run_program_fp`: ``case = ((variant, players, collusion, team, epsilon),
    (program iterations, first printed regrets, last printed regret), source)`` (module-level:
    a sweep pickles it)."""
    (variant, players, collusion, team, eps), (n_ref, first, last), source = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        game = build_game(variant_rules(variant, players),
                          Collusion(team, collusion) if collusion else None).game
        t0 = time.perf_counter()
        r = fictitious_play(game, target=eps, averaging="behavioural", max_iterations=MAX_ITERATIONS,
                            action_priority=program_action_priority)
        sec = time.perf_counter() - t0
        c = fictitious_play(game, target=eps, averaging="realisation", max_iterations=MAX_ITERATIONS)
    printed = r.regrets[:-1].max(axis=1)
    return dict(game=_label(variant, players, collusion, team), epsilon=eps, source=source,
                program_iterations=n_ref, iterations=r.num_iter,
                same_count=r.num_iter == n_ref,
                first4_max_abs_diff=(float(np.max(np.abs(printed[:4] - first))) if first else np.nan),
                last_printed=last if last is not None else np.nan, last_ours=float(printed[-1]),
                last_abs_diff=abs(float(printed[-1]) - last) if last is not None else np.nan,
                returned_max_regret=float(r.regrets[-1].max()), converged=r.converged,
                seconds=sec, ms_per_iteration=1e3 * sec / max(r.num_iter, 1),
                realisation_iterations=c.num_iter, realisation_converged=c.converged,
                ratio=r.num_iter / max(c.num_iter, 1))


def run_program_fp(out="results/mercer", quick: bool = False, echo=None, jobs: int = 1, backend: str | None = None,
                   scheduler: str | None = None, cache=None, progress: bool = False) -> pd.DataFrame:
    """One row per published run (and the thesis's 3P-MMH figure); ``quick`` skips 3P-MMH.

    Writes ``program_fp.csv`` and ``program_fp_tables.csv`` (:func:`program_fp_tables`) under
    ``out`` (nothing if ``out`` is None), each with its ``.meta.json``; ``echo(line)`` is told
    each run's counts.  ``jobs``, ``backend``, ``scheduler``, ``cache`` (``"default"``:
    ``<out>/.cache``), ``progress``: the runs as the points of a
    :func:`guts.studies.sweep.run_sweep` (rows in the order above whatever the backend)."""
    from pathlib import Path

    from guts.studies.sweep import check_backend, default_cache, run_sweep

    check_backend(backend, scheduler)
    cases = [(k, PROGRAM_FP[k], "program output") for k in PROGRAM_FP]
    cases += [(k, (n, None, None), "thesis §3.4") for k, n in PAPER_FP_ITERATIONS.items()]
    if quick:
        cases = [c for c in cases if not (c[0][0] == "mmh" and c[0][1] == 3)]
    cache = default_cache(cache, Path("results/mercer" if out is None else out) / ".cache")
    rows = run_sweep(program_fp_row, cases, jobs=jobs, progress=progress, desc="program fictitious play",
                     backend=backend, scheduler=scheduler, cache=cache)
    if echo is not None:
        for row in rows:
            echo(f"{row['game']:22s} eps {row['epsilon']:<6g} program {row['program_iterations']:5d}  "
                 f"ours {row['iterations']:5d}  realisation FP {row['realisation_iterations']:5d}  "
                 f"({row['seconds']:.1f} s)")
    df = pd.DataFrame(rows)
    if out is not None:
        folder = ensure_output_dir(out)
        with publish(folder, "program_fp"):
            write_csv(df, folder / TARGET)
            write_meta(folder / TARGET, {"quick": quick, "max_iterations": MAX_ITERATIONS},
                       load_average=list(os.getloadavg()),
                       note="program_iterations: printed by github.com/rjullman/poker-nasheq (output/*.out) or the "
                            "thesis's §3.4 (Ullman 2015); iterations: averaging='behavioural' (the program's rule) here; "
                            "realisation_iterations: classical fictitious play on the same game and epsilon")
            tables = program_fp_tables(quick)
            write_csv(tables, folder / TABLES_TARGET)
            write_meta(folder / TABLES_TARGET, {"quick": quick},
                       note="ours: bet percentage of the program's rule (averaging='behavioural') run to the "
                            "epsilon of the program's own run; equal: ours at the table's printed precision "
                            "equals the printed figure; start_residue: printed 100, ours 100 - 50/(t+1) "
                            "(always bet since the start, the uniform start's share left)")
            if echo is not None:
                for (t, eps), d in tables.groupby(["table", "epsilon"], sort=False):
                    echo(f"{t:13s} eps {eps:<6g} equal at printed precision {int(d.equal.sum())}/{len(d)}, "
                         f"printed 100 for the start's residue {int(d.start_residue.sum())}, "
                         f"max |diff| {float((d.ours - d.paper).abs().max()):.2f}")
    return df


def program_fp_tables(quick: bool = False) -> pd.DataFrame:
    """The printed strategy tables beside the program's rule at the program's epsilon.

    ``equal`` = ours rounded to the table's printed precision (one decimal where the table
    prints any, else integers) equals the printed figure."""
    from guts.games.poker.mercer.tables import table_frame

    frames = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for (variant, players, collusion, team, eps), names in TABLE_RUNS.items():
            if quick and variant == "mmh" and players == 3:
                continue
            built = build_game(variant_rules(variant, players), Collusion(team, collusion) if collusion else None)
            r = fictitious_play(built.game, target=eps, averaging="behavioural", max_iterations=MAX_ITERATIONS,
                                action_priority=program_action_priority)
            for name in names:
                df = table_frame(name, built, r.strategies, method="fp")
                dec = 1 if np.any(np.abs(df.paper - np.round(df.paper)) > 1e-9) else 0
                df["epsilon"] = eps
                df["iterations"] = r.num_iter
                df["equal"] = np.abs(np.round(df.ours, dec) - df.paper) < 1e-9
                # "always bet" after t iterations keeps the uniform start's 1/2 of weight
                # 1/(t+1) on the fold: 100 - 50/(t+1) %, which the thesis prints as 100
                df["start_residue"] = (df.paper == 100) & (np.abs(df.ours - (100 - 50 / (r.num_iter + 1))) < 1e-6)
                frames.append(df)
    return pd.concat(frames, ignore_index=True)
