"""Three-player fictitious play (paper §5.2, Appendix B.1) into results/fp_three_player.*.

Each of three players best-responds to the product of the other two's empirical
mixtures (simultaneous fictitious play (B.1)) on a threshold mesh; the n-player
duality gap (B.4) is recorded at every step.  Two variants: everybody for himself,
and players 2 and 3 pooling their winnings (each maximising φ_2 + φ_3).  The paper
reports convergence to the symmetric equilibrium 1/√2 in both.

Writes results/fp_three_player.csv (one row per recorded iteration and variant:
gap, pooled-payoff regret, mean thresholds, thresholds played), a per-variant
summary in results/fp_three_player_summary.csv, and results/fp_three_player.png.

    python experiments/fp_three_player.py [--mesh 101] [--iterations 50000] [--seed 0]
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from guts.games.guts.fictitious import fictitious_play, payoff_tensor
from guts.games.guts.payoffs import symmetric_equilibrium
from guts.studies.figures import plot_fictitious_play
from functools import lru_cache, partial

from guts.studies.output import AUTO, plan_output, publish, save_figure, write_csv, write_meta as _write_meta
from guts.studies.sweep import check_backend, run_sweep

VARIANTS = {"independent": None, "players 2-3 pooled": [(0,), (1, 2)]}


def _recorded(num_iter: int, points: int = 400) -> np.ndarray:
    """Iterations to keep in the CSV: the first 100, then log-spaced, and the last."""
    logs = np.unique(np.round(np.logspace(2, np.log10(max(num_iter, 100)), points)).astype(int))
    kept = np.unique(np.concatenate([np.arange(min(100, num_iter) + 1), logs, [num_iter]]))
    return kept[kept <= num_iter]   # a run shorter than 100 iterations has no log-spaced tail


@lru_cache(maxsize=2)
def _tensor(mesh: int):
    """The three-player payoff tensor, built once per process for both variants."""
    return payoff_tensor(players=3, mesh=mesh)


def variant_run(item):
    """Fictitious play of one variant: ``item = (pools, mesh, iterations, seed, tol, progress)``
    (module-level: a sweep pickles it)."""
    pools, mesh, iterations, seed, tol, progress = item
    return fictitious_play(players=3, mesh=mesh, iterations=iterations, pools=pools, random_state=seed, tensor=_tensor(mesh),
                           tol=tol, progress=progress)


def run(mesh: int = 101, iterations: int = 50_000, random_state: int = 0, out=AUTO, tol: float = 1e-3,
        echo=None, progress: bool = False, jobs: int = 1, backend: str | None = None,
        scheduler: str | None = None) -> pd.DataFrame:
    """Both variants (:data:`VARIANTS`), the CSVs and the figure; returns the summary table.

    ``jobs``, ``backend``, ``scheduler``: the variants as the points of a
    :func:`guts.studies.sweep.run_sweep` (the same rows whatever the backend: each run is
    seeded by ``seed``).
    """
    seed = random_state  # the files keep the column name "seed"
    check_backend(backend, scheduler)
    plan = plan_output("fp_three_player", out, {"mesh": mesh, "iterations": iterations, "seed": seed, "tol": tol},
                       {"mesh": 101, "iterations": 50_000, "seed": 0, "tol": 1e-3},
                       targets=["fp_three_player.csv", "fp_three_player_summary.csv", "fp_three_player.png"],
                       echo=echo)
    out_dir = plan.folder
    write_meta = partial(_write_meta, plan=plan)
    target = symmetric_equilibrium(3)
    runs, rows, summary = {}, [], []
    results = run_sweep(variant_run, [(pools, mesh, iterations, seed, tol, progress and jobs == 1)
                                      for pools in VARIANTS.values()],
                        jobs=jobs, progress=progress and jobs != 1, desc="fictitious play", backend=backend,
                        scheduler=scheduler)
    for label, r in zip(VARIANTS, results):
        runs[label] = r
        for k in _recorded(r.num_iter):
            rows.append({"variant": label, "iteration": int(k), "gap": r.gap[k], "pool_gap": r.pool_gap[k],
                         **{f"mean_p{i + 1}": r.mean_thresholds[k, i] for i in range(3)},
                         **{f"played_p{i + 1}": r.grid[r.played[k, i]] for i in range(3)}})
        support = [" ".join(f"{r.grid[j]:g}:{r.mixtures[i, j]:.4f}" for j in np.flatnonzero(r.mixtures[i] > 1e-3))
                   for i in range(3)]
        summary.append({
            "variant": label, "mesh": r.mesh, "iterations": r.num_iter, "seed": seed,
            "initial": " ".join(f"{r.grid[j]:g}" for j in r.played[0]),
            "gap_initial": r.gap[0], "gap_10": r.gap[min(10, r.num_iter)], "gap_1000": r.gap[min(1000, r.num_iter)],
            "gap_final": r.final_gap, "converged": r.converged, "tol": r.tol,
            **{f"mean_p{i + 1}": r.mean_thresholds[-1, i] for i in range(3)},
            **{f"mass_within_1_step_p{i + 1}": r.mass_near(target, 1)[i] for i in range(3)},
            **{f"support_p{i + 1}": support[i] for i in range(3)},
            **{f"payoff_p{i + 1}": r.payoffs[i] for i in range(3)},
            "target": target,
        })
    df = pd.DataFrame(rows)
    params = {"players": 3, "mesh": mesh, "iterations": iterations, "seed": seed, "tie_break": "first",
              "tol": tol, "variants": {k: v for k, v in VARIANTS.items()}}
    with publish(plan, parameters=params):
        write_csv(df, out_dir / "fp_three_player.csv")
        write_meta(out_dir / "fp_three_player.csv", params,
                   note="rows: the first 100 iterations, then ~400 log-spaced ones and the last; gap = (B.4)")
        summ = pd.DataFrame(summary)
        write_csv(summ, out_dir / "fp_three_player_summary.csv")
        write_meta(out_dir / "fp_three_player_summary.csv", params)
        save_figure(plot_fictitious_play(runs, target), out_dir / "fp_three_player.png")
        write_meta(out_dir / "fp_three_player.png", params, data="fp_three_player.csv")
    return summ
