"""The continuum study: the 1 v. N pseudo-bloc game without a mesh, and mesh refinement toward it.

:func:`run_continuum_study` (``guts continuum``, ``experiments/continuum.py``) writes
``continuum.csv`` (N, continuum value, certified interval, strategies),
``mesh_refinement.csv`` (mesh value against the continuum value, and what the mesh
strategies force in the continuum) and ``mesh_refinement.png``, each with a
``.meta.json``, atomically.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from guts.studies.sweep import run_sweep


def _continuum_item(item):
    from guts.games.guts.continuum import continuum_row

    return continuum_row(*item)


def _refinement_item(item):
    from guts.games.guts.continuum import refinement_row

    return refinement_row(*item)


def refinement_rates(ref: pd.DataFrame, min_mesh: int = 51) -> pd.DataFrame:
    """Least-squares slope ``r`` of ``log|diff|`` against ``log(M - 1)`` per N (``|diff| ~ C h^r``).

    Also ``envelope``: ``max |diff| (M - 1)^2`` over the meshes used, the constant of
    a second-order bound.
    """
    rows = []
    for N, g in ref[ref["mesh"] >= min_mesh].groupby("N"):
        d = g["diff"].abs().to_numpy()
        h = 1.0 / (g["mesh"].to_numpy() - 1.0)
        ok = d > 1e-12  # N = 1: every mesh containing 1/2 is exact
        if ok.sum() >= 2:
            r = float(np.polyfit(np.log(h[ok]), np.log(d[ok]), 1)[0])
        else:
            r = float("nan")
        rows.append({"N": int(N), "rate": r, "envelope": float(np.max(d / h**2))})
    return pd.DataFrame(rows)


def pooled_rate(ref: pd.DataFrame, min_mesh: int = 51) -> float:
    """One exponent ``r`` for all N: least squares of ``log|diff|`` on ``log h`` with a constant per N."""
    d = ref[(ref["mesh"] >= min_mesh) & (ref["diff"].abs() > 1e-12)].copy()
    d["lx"] = np.log(1.0 / (d["mesh"] - 1.0))
    d["ly"] = np.log(d["diff"].abs())
    dx = d["lx"] - d.groupby("N")["lx"].transform("mean")
    dy = d["ly"] - d.groupby("N")["ly"].transform("mean")
    return float((dx * dy).sum() / (dx * dx).sum()) if (dx * dx).sum() > 0 else float("nan")


def _figure(ref: pd.DataFrame, rates: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    cmap = plt.get_cmap("viridis")
    Ns = sorted(ref["N"].unique())
    for k, N in enumerate(Ns):
        g = ref[ref["N"] == N].sort_values("mesh")
        if (g["diff"].abs() <= 1e-12).all():
            continue
        c = cmap(k / max(1, len(Ns) - 1))
        ax1.loglog(g["mesh"], g["diff"].abs(), "o-", color=c, ms=3, lw=1, label=f"N={N}")
        ax2.loglog(g["mesh"], g["player1_concedes"] - g["coalition_forces"], "o-", color=c, ms=3, lw=1)
    M = np.array([ref["mesh"].min(), ref["mesh"].max()], dtype=float)
    ref_c = float(np.median(rates["envelope"])) if len(rates) else 1.0
    ax1.loglog(M, ref_c / (M - 1) ** 2, "k--", lw=1, label=f"{ref_c:.0f} h^2 (median C)")
    meshes = sorted(ref["mesh"].unique())
    for ax in (ax1, ax2):
        ax.set_xticks(meshes)
        ax.set_xticklabels([str(m) for m in meshes])
        ax.minorticks_off()
    ax1.set_xlabel("mesh points M")
    ax1.set_ylabel("|continuum value - mesh value|")
    ax1.set_title("Mesh value -> continuum value (coalition's)")
    ax1.legend(fontsize=6, ncol=2)
    ax2.set_xlabel("mesh points M")
    ax2.set_ylabel("width")
    ax2.set_title("Mesh strategies in the continuum:\nplayer 1 concedes - coalition forces")
    fig.tight_layout()
    return fig


def run_continuum_study(sizes=range(1, 16), meshes=(21, 51, 101, 201, 401, 801), tol: float = 1e-10,
                        jobs: int = 1, out="results", progress: bool = True, refinement: bool = True, echo=None):
    """Solve the continuum game for every N and (optionally) the meshes; write the results.

    Returns
    -------
    (continuum, refinement, rates) : pandas.DataFrame, DataFrame or None, DataFrame or None
    """
    from guts._validate import check_int, check_positive_float
    from guts.studies.output import ensure_output_dir, save_figure, write_csv, write_meta

    sizes = [check_int("size", s, 1) for s in sizes]
    meshes = [check_int("mesh", m, 2) for m in meshes]
    tol = check_positive_float("tol", tol)
    out_dir = ensure_output_dir(out) if out is not None else None
    t0 = time.perf_counter()
    cont = pd.DataFrame(run_sweep(_continuum_item, [(N, tol) for N in sizes], jobs=jobs, progress=progress,
                                  desc="continuum"))
    wall_c = time.perf_counter() - t0
    if echo is not None:
        echo(f"{'N':>3} {'continuum value':>17} {'certified interval (coalition)':>36} {'q*':>10} "
             f"{'bloc b':>10} {'pseudo (a,b)':>16} {'w_pseudo':>8} {'sec':>6}")
        for _, r in cont.iterrows():
            echo(f"{int(r.N):>3} {r.value:>17.12f} [{-r.certified_upper:>16.12f},{-r.certified_lower:>16.12f}] "
                 f"{r.player1_threshold:>10.7f} {r.bloc_threshold:>10.7f} "
                 f"({r.pseudo_bloc_free:.1f},{r.pseudo_bloc_threshold:>9.7f}) {r.pseudo_bloc_weight:>8.5f} {r.seconds:>6.2f}")
    if out_dir is not None:
        target = out_dir / "continuum.csv"
        write_csv(cont, target, float_format="%.15g")
        write_meta(target, {"sizes": sizes, "tol": tol}, wall_seconds=wall_c)
    ref = rates = None
    if refinement:
        cvalue = dict(zip(cont["N"], cont["value"]))
        items = [(N, M, float(cvalue[N])) for N in sizes for M in meshes]
        t1 = time.perf_counter()
        ref = pd.DataFrame(run_sweep(_refinement_item, items, jobs=jobs, progress=progress, desc="mesh refinement"))
        wall_r = time.perf_counter() - t1
        rates = refinement_rates(ref)
        pooled = pooled_rate(ref)
        if echo is not None:
            echo("mesh refinement: |continuum - mesh| ~ C h^r, h = 1/(M-1), fitted on M >= 51")
            for _, r in rates.iterrows():
                echo(f"  N={int(r.N):>2}  r = {r.rate:5.2f}   max |diff| (M-1)^2 = {r.envelope:8.2f}")
            echo(f"  all N (one constant per N): r = {pooled:.2f}")
        if out_dir is not None:
            target = out_dir / "mesh_refinement.csv"
            write_csv(ref, target, float_format="%.15g")
            write_meta(target, {"sizes": sizes, "meshes": meshes, "tol": tol, "jobs": jobs},
                       wall_seconds=wall_r, rates=rates.to_dict(orient="records"), pooled_rate=pooled)
            import matplotlib.pyplot as plt

            fig = _figure(ref, rates)
            save_figure(fig, out_dir / "mesh_refinement.png", dpi=130)
            plt.close(fig)
    return cont, ref, rates
