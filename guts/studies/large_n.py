"""The sweep over coalition sizes N: ``results/large_n.csv`` (paper §5, large N).

Each row is :func:`guts.games.guts.large_n.solve_large_n` (adaptive mesh refinement with
a certified bracket) plus the plain-mesh refinement study; :func:`run_large_n` fans the
sizes out with :func:`guts.studies.sweep.run_sweep` and writes the CSV and its meta file.
"""
from __future__ import annotations

import math
import time

from guts import __version__
from guts._validate import GutsInputError, check_int, check_memory, check_positive_float
from guts.games.guts.large_n import solve_large_n, solve_pseudo_bloc, threshold_mesh
from guts.games.guts.large_n.refine import MAX_ROUNDS, MAX_TARGET_WIDTH
from guts.games.guts.payoffs import symmetric_equilibrium
from guts.games.guts.pseudo_bloc import stage_bytes
from guts.studies.output import AUTO, RESULTS, plan_output, publish, write_csv, write_meta
from guts.studies.sweep import check_backend, default_cache, parse_sizes, run_sweep

__all__ = ["LARGE_N_COLUMNS", "large_n_row", "run_large_n", "format_large_n", "DEFAULT_SIZES", "FULL_RUN"]

#: The sizes of the committed results/large_n.csv (54 sizes up to 10^5).
DEFAULT_SIZES = ("1-30,35,40,45,50,60,70,80,90,100,120,140,160,180,200,250,300,400,500,700,1000,2000,5000,"
                 "10000,100000")
#: Largest N of :func:`run_large_n`: the committed run's largest (100 000); 1e6 had not finished
#: in 100 s and 1e8 and beyond fail in HiGHS (the scaled mesh loses all precision).
MAX_CURVE_SIZE = 100_000
#: The full default run (``guts curve``): the parameters of the committed results/large_n.csv.
FULL_RUN = {"sizes": parse_sizes(DEFAULT_SIZES), "mesh": 100, "max_iterations": 10, "target_width": 1e-9,
            "s_min": 0.02, "local": 4, "study_mesh": 400}

LARGE_N_COLUMNS = [
    "N", "value", "certified_lower", "certified_upper", "certified_width", "converged", "rounds",
    "mesh_points", "value_previous_round", "value_uniform_101", "value_scaled_initial", "value_scaled_study",
    "study_points",
    "player1_threshold", "bloc_threshold", "pseudo_bloc_threshold", "pseudo_bloc_free", "pseudo_bloc_weight",
    "player1_scaled", "bloc_scaled", "pseudo_bloc_scaled", "equilibrium_threshold", "player1_support",
    "coalition_support", "seconds",
]


def large_n_row(params: dict) -> dict:
    """One row of ``large_n.csv``: :func:`solve_large_n` plus the plain-mesh refinement study.

    ``value_previous_round`` is the mesh value one refinement before the last (two
    meshes to compare); ``value_uniform_101``, ``value_scaled_initial`` and
    ``value_scaled_study`` are the values on the paper's uniform mesh, the initial
    scaled mesh and a plain scaled mesh of ``study_mesh`` points (column ``study_points``).

    ``params`` holds ``size``, ``mesh``, ``max_iterations``, ``target_width``,
    ``s_min``, ``local`` and ``study_mesh`` (a plain scaled mesh solved for
    comparison; 0 to skip).  Module-level so that sweeps can pickle and cache it.
    """
    t0 = time.perf_counter()
    N = params["size"]
    v = solve_large_n(N, mesh=params["mesh"], max_iterations=params["max_iterations"],
                      target_width=params["target_width"], s_min=params["s_min"], local=params["local"])
    uniform = solve_pseudo_bloc(N, threshold_mesh(N, 101, "uniform"), certify_result=False).coalition_value
    study = params.get("study_mesh", 0)
    study_value = (solve_pseudo_bloc(N, threshold_mesh(N, study, "scaled", params["s_min"]),
                                     certify_result=False).coalition_value if study else math.nan)
    p1, bloc, pseudo, free, weight = v.mesh_result.bloc_and_pseudo_bloc()
    return {
        "N": N, "value": v.value, "certified_lower": v.lower, "certified_upper": v.upper,
        "certified_width": v.width, "converged": v.converged, "rounds": v.rounds, "mesh_points": v.points,
        "value_previous_round": v.history[-2][1] if len(v.history) > 1 else math.nan,
        "value_uniform_101": uniform, "value_scaled_initial": v.history[0][1],
        "value_scaled_study": study_value, "study_points": study,
        "player1_threshold": p1, "bloc_threshold": bloc, "pseudo_bloc_threshold": pseudo,
        "pseudo_bloc_free": free, "pseudo_bloc_weight": weight,
        "player1_scaled": N * (1.0 - p1), "bloc_scaled": N * (1.0 - bloc), "pseudo_bloc_scaled": N * (1.0 - pseudo),
        "equilibrium_threshold": symmetric_equilibrium(N + 1),  # n = N + 1 players
        "player1_support": " ".join(f"{t:.10g}:{w:.6f}" for t, w in sorted(v.player1_strategy.items())),
        "coalition_support": " ".join(f"{a:.10g}/{b:.10g}:{w:.6f}"
                                      for (a, b), w in sorted(v.coalition_strategy.items(), key=lambda kv: -kv[1])),
        "seconds": time.perf_counter() - t0,
    }


def run_large_n(sizes, mesh: int = 100, max_iterations: int = 10, target_width: float = 1e-9,
                s_min: float = 0.02, local: int = 4, study_mesh: int = 400, jobs: int = 1,
                backend: str | None = None, scheduler: str | None = None, cache=None, out=AUTO,
                progress: bool = True, echo=None):
    """Coalition values for many N (pseudo-bloc, continuous thresholds) into ``<out>/large_n.csv``.

    Parameters
    ----------
    sizes : iterable of int
        Coalition sizes N >= 1.
    mesh, max_iterations, target_width, s_min, local
        See :func:`solve_large_n` (``mesh``: points of the initial scaled mesh;
        ``max_iterations``: mesh solves per N at most).
    study_mesh : int
        Also solve on a plain scaled mesh of this many points (0: skip) — with the
        uniform 101-point mesh and the initial mesh, the refinement study (CSV column
        ``study_points``).
    jobs, backend, scheduler, cache
        See :func:`guts.studies.sweep.run_sweep` (``cache``: folder of finished points).
    out : AUTO, path or None
        Output folder (see :func:`guts.studies.output.plan_output`): the full run
        (:data:`FULL_RUN`) writes ``results/``, any other a fresh ``results/runs/curve-<time>/``;
        ``None`` writes nothing.  ``cache="default"`` is ``results/.cache`` (``<out>/.cache``
        for an explicit ``out``), shared by full and partial runs.
    echo : callable, optional
        Called with one line of text per row.

    Returns
    -------
    pandas.DataFrame
        One row per N with :data:`LARGE_N_COLUMNS`.
    """
    import pandas as pd

    sizes = sorted({check_int("size", s, 1, MAX_CURVE_SIZE) for s in sizes})
    if not sizes:
        raise GutsInputError("sizes must not be empty")
    mesh = check_int("mesh", mesh, 10)
    max_iterations = check_int("max_iterations", max_iterations, 1, MAX_ROUNDS)
    target_width = check_positive_float("target_width", target_width, maximum=MAX_TARGET_WIDTH)
    s_min = check_positive_float("s_min", s_min)
    if s_min >= 1:
        raise GutsInputError(f"s_min must be below 1 (the smallest coalition size); got {s_min}")
    local = check_int("local", local, 1)
    study_mesh = check_int("study_mesh", study_mesh, 0)
    if 0 < study_mesh < 10:
        raise GutsInputError(f"study_mesh must be 0 (skip) or >= 10; got {study_mesh}")
    check_backend(backend, scheduler)
    # refuse before any worker starts: the refined meshes reach about twice the initial points
    for what, pts in (("mesh", mesh), ("study_mesh", study_mesh)):
        if pts:
            check_memory(f"{what} {pts} (the pseudo-bloc game on {2 * pts} thresholds)",
                         stage_bytes(max(sizes), 2 * pts), f"use a smaller --{what.replace('_', '-')}")
    plan = plan_output("curve", out, {"sizes": sizes, "mesh": mesh, "max_iterations": max_iterations,
                                      "target_width": target_width, "s_min": s_min, "local": local,
                                      "study_mesh": study_mesh}, FULL_RUN, targets=["large_n.csv"], echo=echo)
    out_dir = plan.folder
    cache = default_cache(cache, (RESULTS if plan.auto or out_dir is None else out_dir) / ".cache")
    params = [dict(size=N, mesh=mesh, max_iterations=max_iterations, target_width=target_width, s_min=s_min,
                   local=local, study_mesh=study_mesh, guts_version=__version__) for N in sizes]
    t0 = time.perf_counter()
    rows = run_sweep(large_n_row, params, jobs=jobs, progress=progress, desc="large N", backend=backend,
                     scheduler=scheduler, cache=cache)
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)[LARGE_N_COLUMNS]
    if echo is not None:
        echo(format_large_n(df))
        echo(f"wall time {wall:.1f} s for {len(df)} sizes (jobs={jobs}, backend={backend or 'local'})")
    if out_dir is not None:
        target = out_dir / "large_n.csv"
        with publish(plan, parameters={"sizes": sizes, "mesh": mesh, "max_iterations": max_iterations}):
            write_csv(df, target, float_format="%.15g")
            write_meta(target, {"sizes": sizes, "mesh": mesh, "max_iterations": max_iterations,
                                "target_width": target_width, "s_min": s_min, "local": local,
                                "study_mesh": study_mesh, "structure": "pseudo-bloc",
                                "jobs": jobs, "backend": backend or "local"}, plan=plan, wall_seconds=wall,
                       compute_seconds=float(df["seconds"].sum()))  # including sizes loaded from the cache
        if echo is not None:
            echo(f"wrote {target}")
    return df


def format_large_n(df) -> str:
    """Fixed-width text table of :func:`run_large_n` output."""
    head = (f"{'N':>6} {'value':>14} {'cert. width':>11} {'prev.round':>10} {'uniform101':>11} {'scaled-init':>11} "
            f"{'scaled-study':>12} {'s_p1':>6} {'s_bloc':>6} {'s_pseudo':>8} {'weight':>6} {'rounds':>6} {'sec':>6}")
    lines = [head, "-" * len(head)]
    for _, r in df.iterrows():
        lines.append(
            f"{int(r.N):>6} {r.value:>14.10f} {r.certified_width:>11.1e} {r.value_previous_round - r.value:>+10.1e} "
            f"{r.value_uniform_101 - r.value:>+11.1e} "
            f"{r.value_scaled_initial - r.value:>+11.1e} {r.value_scaled_study - r.value:>+12.1e} "
            f"{r.player1_scaled:>6.3f} {r.bloc_scaled:>6.3f} {r.pseudo_bloc_scaled:>8.3f} "
            f"{r.pseudo_bloc_weight:>6.3f} {int(r.rounds):>6} {r.seconds:>6.1f}")
    lines.append("(prev.round: the previous refinement's mesh value, uniform101, scaled-init, scaled-study: "
                 "plain-mesh values; each minus the refined value)")
    return "\n".join(lines)
