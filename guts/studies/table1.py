"""Table 1 of the paper (§5): the 1 v. N pseudo-bloc game for N = 1..15 at mesh 101.

:func:`run_table1` solves every row (joblib fan-out over N), compares with the
paper's printed values (shipped as ``guts/data/paper_table1.csv``) and writes
``table1.csv`` plus ``table1.meta.json`` atomically.  ``guts table1`` and
``experiments/table1.py`` both call it.

The paper used fictitious play, so its values are approximate; the values here are
exact LP values of the same discretized game with a certified interval.  They are
never adjusted toward the paper's.
"""
from __future__ import annotations

import math
import time
from importlib import resources

import pandas as pd

from guts._validate import check_choice, check_int, check_jobs
from guts.games.guts.strategies import STRUCTURES
from guts.engine.tolerances import MAX_ITERATIONS
from guts.games.guts.coalition import CoalitionResult, check_coalition_memory, format_profile, solve_coalition
from guts.games.guts.strategies import BLOC_STEPS, classify_components, mesh_step, pseudo_bloc_parts
from guts.engine.recursive import METHODS, SOLVERS
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta
from guts.studies.sweep import check_backend, run_sweep

__all__ = ["paper_table1", "table1_row", "solve_table1_row", "run_table1", "compare_with_paper", "TABLE1_COLUMNS",
           "FULL_RUN", "full_run_parameters"]

# The committed results/table1.csv: the full default run (``guts table1``), byte for byte.
# lp and oracle are both exact (same values to 1e-10, tested on every row) but not equal to
# the last bit, so only the default solver regenerates the committed file; the others are
# runs of their own (results/runs/).  Row times go to the meta file, not the CSV, so that a
# rerun of the default command leaves the CSV unchanged.
FULL_RUN = {"sizes": list(range(1, 16)), "mesh": 101, "structure": "pseudo-bloc", "solver": "oracle",
            "method": "newton"}


def full_run_parameters(sizes, mesh, structure, solver, method) -> dict:
    """The parameters that decide whether a run is the full default run (see :data:`FULL_RUN`)."""
    return {"sizes": list(sizes), "mesh": mesh, "structure": structure,
            "solver": solver, "method": method}

TABLE1_COLUMNS = [
    "N", "mesh", "structure", "solver", "method", "opponent_value", "value_lower", "value_upper",
    "certified_lower", "certified_upper", "certified_width", "epsilon", "player1_strategy",
    "bloc_strategy", "pseudo_bloc_strategy", "pseudo_bloc_free", "pseudo_bloc_weight",
    "player1_support", "coalition_support", "iterations", "coalition_iterations", "num_solves",
    "converged", "status", "seconds",
]
#: The ``status`` column: a row is ``certified`` only when its fixed points converged and the
#: values lie in their own Theorem 1.2 interval (:func:`guts.engine.recursive.certificate_problem`).
CERTIFIED, NOT_CERTIFIED = "certified", "not certified"


def _fmt_support(items) -> str:
    return " ".join(f"{k}:{v:.6f}" for k, v in items)


def _parts(profile) -> tuple[float, float]:
    parts = pseudo_bloc_parts(profile)
    return parts if parts is not None else (math.nan, math.nan)


def table1_row(r: CoalitionResult) -> dict:
    """The Table 1 columns for one solved row.

    ``player1_strategy`` is player 1's heaviest support threshold.  Coalition
    components are split by :func:`guts.games.guts.strategies.classify_components`
    into *bloc* ones (all members within ``BLOC_STEPS`` mesh steps) and *pseudo-bloc*
    ones ``(p_2, p_3, ..., p_3)`` (the paper's has ``p_2 = 0``: always hold; any other
    profile counts here with unknown thresholds).  ``bloc_strategy`` is the common
    threshold ``p_3`` of the heaviest bloc component, ``pseudo_bloc_strategy`` the
    ``p_3`` of the heaviest pseudo-bloc one, ``pseudo_bloc_free`` its ``p_2`` and
    ``pseudo_bloc_weight`` the total weight of pseudo-bloc components.
    """
    p1 = sorted(r.player1_strategy.items(), key=lambda kv: -kv[1])
    kinds = classify_components(r.coalition_components(), BLOC_STEPS * mesh_step(r.coalition_profiles))
    bloc = [(_parts(prof), w) for prof, w in kinds["bloc"]]
    pseudo = [(_parts(prof), w) for prof, w in kinds["pseudo-bloc"] + kinds["other"]]
    co_items = [(format_profile(prof), w) for prof, w in r.coalition_components()]
    return {
        "N": r.size,
        "mesh": r.mesh,
        "structure": r.structure,
        "solver": r.solver,
        "method": r.method,
        "opponent_value": r.coalition_value,
        "value_lower": r.lower,
        "value_upper": r.upper,
        "certified_lower": r.certified_lower,
        "certified_upper": r.certified_upper,
        "epsilon": r.epsilon,
        "player1_strategy": p1[0][0],
        "bloc_strategy": bloc[0][0][1] if bloc else math.nan,
        "pseudo_bloc_strategy": pseudo[0][0][1] if pseudo else math.nan,
        "pseudo_bloc_free": pseudo[0][0][0] if pseudo else math.nan,
        "pseudo_bloc_weight": float(sum(w for _, w in pseudo)),
        "player1_support": _fmt_support(p1),
        "coalition_support": _fmt_support(co_items),
        "iterations": r.iterations,
        "coalition_iterations": r.coalition_iterations,
        "num_solves": r.num_solves,
        "converged": r.converged,
        "status": CERTIFIED if r.converged else NOT_CERTIFIED,
        "seconds": r.seconds,
    }


def paper_table1() -> pd.DataFrame:
    """The paper's Table 1 as printed (mesh 101, pseudo-bloc, fictitious play)."""
    with resources.files("guts").joinpath("data", "paper_table1.csv").open() as fh:
        return pd.read_csv(fh)


def solve_table1_row(params: dict) -> dict:
    """Solve one row; ``params`` holds the keyword arguments of :func:`solve_coalition`."""
    r = solve_coalition(**params)
    row = table1_row(r)
    row["certified_width"] = row["certified_upper"] - row["certified_lower"]
    return row


def run_table1(sizes=range(1, 16), mesh: int = 101, structure: str = "pseudo-bloc", solver: str = "oracle",
               method: str = "newton", jobs: int = 1, out=AUTO, fp_iterations: int = 10_000,
               random_state: int = 0, progress: bool = True, echo=None, backend: str | None = None,
               scheduler: str | None = None) -> pd.DataFrame:
    """Reproduce Table 1 and write ``<out>/table1.csv`` (+ ``table1.meta.json``).

    Parameters
    ----------
    sizes : iterable of int
        Coalition sizes N (>= 1).
    mesh : int
        Mesh points (>= 2), for player 1 and the coalition.
    structure, solver, method
        See :func:`guts.solve_coalition`.
    jobs : int
        joblib processes (-1: all cores).
    backend, scheduler : str, optional
        See :func:`guts.studies.sweep.run_sweep` (``"dask"`` with a scheduler address).
    out : AUTO, path or None
        Output folder (see :func:`guts.studies.output.plan_output`): by default the full
        run (:data:`FULL_RUN`) writes ``results/``, any other run a fresh
        ``results/runs/table1-<time>/``; ``None`` writes nothing.
    echo : callable, optional
        Called with one line of text per finished row (e.g. ``print``).

    Returns
    -------
    pandas.DataFrame
        One row per N with :data:`TABLE1_COLUMNS` (the CSV holds all but ``seconds``,
        which goes to its meta file as ``row_seconds``).
    """
    sizes = [check_int("size", s, 1) for s in sizes]
    if not sizes:
        check_int("size", 0, 1)
    mesh = check_int("mesh", mesh, 3)  # a threshold strictly between 0 and 1 (check_recursive_grid)
    check_choice("structure", structure, STRUCTURES)
    check_choice("solver", solver, SOLVERS)
    check_choice("method", method, METHODS)
    check_int("fp_iterations", fp_iterations, 1, MAX_ITERATIONS)  # pre-flight: every input before any work
    check_jobs(jobs)
    check_coalition_memory(max(sizes), mesh, structure, solver)  # before any worker starts
    check_backend(backend, scheduler)
    plan = plan_output("table1", out, full_run_parameters(sizes, mesh, structure, solver, method), FULL_RUN,
                       targets=["table1.csv"], echo=echo)
    out_dir = plan.folder
    params = [dict(size=N, mesh=mesh, structure=structure, solver=solver, method=method,
                   fp_iterations=fp_iterations, random_state=random_state) for N in sizes]
    t0 = time.perf_counter()
    rows = run_sweep(solve_table1_row, params, jobs=jobs, progress=progress, desc="Table 1", backend=backend,
                     scheduler=scheduler)
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)[TABLE1_COLUMNS]
    if echo is not None:
        for line in format_comparison(df).splitlines():
            echo(line)
        echo(f"wall time {wall:.2f} s for {len(df)} rows (jobs={jobs})")
    if out_dir is not None:
        target = out_dir / "table1.csv"
        run = {"sizes": sizes, "mesh": mesh, "structure": structure, "solver": solver, "method": method,
               "jobs": jobs, "fp_iterations": fp_iterations, "random_state": random_state}
        with publish(plan, parameters=run):
            write_csv(df.drop(columns=["seconds"]), target, float_format="%.15g")
            write_meta(target, run, plan=plan, wall_seconds=wall,
                       row_seconds={int(n): round(float(t), 3) for n, t in zip(df["N"], df["seconds"])})
        if echo is not None:
            echo(f"wrote {target}")
    return df


def compare_with_paper(df: pd.DataFrame) -> pd.DataFrame:
    """Side by side with the paper's Table 1 (rows for the N present in both)."""
    paper = paper_table1().rename(columns={
        "opponent_value": "paper_value", "player1_strategy": "paper_player1",
        "bloc_strategy": "paper_bloc", "pseudo_bloc_strategy": "paper_pseudo_bloc"})
    merged = df.merge(paper, on="N", how="left")
    merged["value_diff"] = merged["opponent_value"] - merged["paper_value"]
    return merged


def format_comparison(df: pd.DataFrame) -> str:
    """A fixed-width text table: computed vs paper, per row with its wall time."""
    m = compare_with_paper(df)
    head = (f"{'N':>3} {'value':>12} {'paper':>7} {'diff':>9} {'cert. width':>11} "
            f"{'p1':>5} {'paper':>5} {'bloc':>5} {'paper':>5} {'pseudo':>6} {'paper':>5} {'weight':>6} {'sec':>6}")
    lines = [head, "-" * len(head)]

    def f(v, spec):
        return format(v, spec) if v == v else "-".rjust(len(format(0.0, spec)))

    for _, r in m.iterrows():
        lines.append(
            f"{int(r.N):>3} {r.opponent_value:>12.8f} {f(r.paper_value, '7.4f')} {f(r.value_diff, '+9.1e')} "
            f"{f(r.certified_width, '11.1e')} {r.player1_strategy:>5.2f} {f(r.paper_player1, '5.2f')} "
            f"{f(r.bloc_strategy, '5.2f')} {f(r.paper_bloc, '5.2f')} {f(r.pseudo_bloc_strategy, '6.2f')} "
            f"{f(r.paper_pseudo_bloc, '5.2f')} {r.pseudo_bloc_weight:>6.3f} {r.seconds:>6.2f}"
        )
    return "\n".join(lines)
