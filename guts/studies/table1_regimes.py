"""Table 1's coalition in the three team regimes: communication, correlated, independent.

For each case (mesh, N) :func:`run_table1_regimes` solves the 1 v. N game with
:func:`guts.games.guts.regimes.solve_coalition_regime` in every regime, beside the paper's
pseudo-bloc game (Table 1's value), and writes ``table1_regimes.csv`` plus its meta file
atomically (one published set, :func:`guts.studies.output.publish`).  Every value is the
coalition's (Table 1's "opponent value") with its certified bracket; the independent
regime's bracket is [the best product profile found, the correlated value].  ``guts
table1-regimes`` and nothing else writes it; the committed ``results/table1.csv`` is left
alone.
"""
from __future__ import annotations

import time

import pandas as pd

from guts._validate import check_int
from guts.games.guts.coalition import format_profile, solve_coalition
from guts.games.guts.regimes import REGIMES, solve_coalition_regime
from guts.studies.full_vs_pseudo_bloc import parse_cases
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta
from guts.studies.sweep import check_backend, run_sweep

__all__ = ["DEFAULT_CASES", "FULL_RUN", "REGIMES_COLUMNS", "ORDER_TOL", "regimes_row", "run_table1_regimes"]

#: Table 1's mesh for N = 2, 3 (the correlated game of N = 4 at mesh 101 has 4.6 M columns and the
#: communication game 4.4 M joint cells), and mesh 21 up to N = 6.
DEFAULT_CASES = "101:2-3,21:2-6"
FULL_RUN = {"cases": parse_cases(DEFAULT_CASES), "random_starts": 0, "seed": 0}
#: Slack of the ordering checks (the certified brackets are ~1e-11 wide).
ORDER_TOL = 1e-9

REGIMES_COLUMNS = [
    "N", "mesh", "table1_pseudo_bloc", "communication", "communication_lower", "communication_upper",
    "correlated", "correlated_lower", "correlated_upper", "independent_lower", "independent_upper",
    "independent_found", "communication_ge_correlated", "correlated_ge_independent", "certified",
    "communication_rules", "communication_rounds", "correlated_strategy", "independent_strategy",
    "player1_communication", "player1_correlated", "player1_independent",
]


def _p1(strategy: dict) -> str:
    return " ".join(f"{q:g}:{w:.6f}" for q, w in sorted(strategy.items()))


def regimes_row(case) -> dict:
    """Solve one (N, mesh) in the three regimes and the pseudo-bloc game; one row of the table."""
    N, mesh, random_starts, seed = case
    t0 = time.perf_counter()
    pseudo = solve_coalition(N, mesh=mesh, structure="pseudo-bloc")
    com = solve_coalition_regime(N, "communication", mesh=mesh)
    cor = solve_coalition_regime(N, "correlated", mesh=mesh)
    ind = solve_coalition_regime(N, "independent", mesh=mesh, random_starts=random_starts, random_state=seed)
    cor_strategy = " ".join(f"{format_profile(p)}:{w:.6f}" for p, w in cor.correlated.coalition_components())
    ind_strategy = " | ".join(" ".join(f"{t:g}:{w:.6f}" for t, w in sorted(s.items()))
                              for _, s in sorted(ind.coalition_strategy.items()))
    return {
        "N": N, "mesh": mesh, "table1_pseudo_bloc": pseudo.coalition_value,
        "communication": com.coalition_value, "communication_lower": com.coalition_lower,
        "communication_upper": com.coalition_upper,
        "correlated": cor.coalition_value, "correlated_lower": cor.coalition_lower,
        "correlated_upper": cor.coalition_upper,
        "independent_lower": ind.coalition_lower, "independent_upper": ind.coalition_upper,
        "independent_found": ind.coalition_value,
        "communication_ge_correlated": bool(com.coalition_lower >= cor.coalition_upper - ORDER_TOL),
        "correlated_ge_independent": bool(cor.coalition_upper >= ind.coalition_lower - ORDER_TOL),
        "certified": bool(com.converged and cor.converged and pseudo.converged),
        "communication_rules": len(com.coalition_strategy), "communication_rounds": com.num_iter,
        "correlated_strategy": cor_strategy, "independent_strategy": ind_strategy,
        "player1_communication": _p1(com.player1_strategy), "player1_correlated": _p1(cor.player1_strategy),
        "player1_independent": _p1(ind.player1_strategy), "seconds": time.perf_counter() - t0,
    }


def run_table1_regimes(cases=DEFAULT_CASES, random_starts: int = 0, random_state: int = 0, out=AUTO, jobs: int = 1,
                       progress: bool = True, echo=None, backend: str | None = None,
                       scheduler: str | None = None) -> pd.DataFrame:
    """Table 1's coalition in the three regimes; writes ``<out>/table1_regimes.csv`` (+ meta).

    Parameters
    ----------
    cases : str or list of (N, mesh)
        ``"101:2-3,21:2-6"`` (mesh: sizes) or pairs.
    random_starts, random_state : int
        Extra random starts of the independent search and their seed (``seed`` in the
        manifest, as the command line's ``--seed``).
    out : AUTO, path or None
        See :func:`guts.studies.output.plan_output`: the full default run writes ``results/``,
        any other run ``results/runs/table1_regimes-<time>/``; ``None`` writes nothing.
    jobs, backend, scheduler
        See :func:`guts.studies.sweep.run_sweep`.
    echo : callable, optional
        Told where the run writes.

    Returns
    -------
    pandas.DataFrame
        One row per case, :data:`REGIMES_COLUMNS` and ``seconds``.
    """
    cases = parse_cases(cases) if isinstance(cases, str) else [(check_int("size", n, 1), check_int("mesh", m, 2))
                                                                for n, m in cases]
    random_starts = check_int("random_starts", random_starts, 0)
    seed = check_int("random_state", random_state, 0)
    check_backend(backend, scheduler)
    params = {"cases": [tuple(c) for c in cases], "random_starts": random_starts, "seed": seed}
    plan = plan_output("table1_regimes", out, params, FULL_RUN, targets=["table1_regimes.csv"], echo=echo)
    t0 = time.perf_counter()
    rows = run_sweep(regimes_row, [(n, m, random_starts, seed) for n, m in cases], jobs=jobs, progress=progress,
                     desc="Table 1 regimes", backend=backend, scheduler=scheduler)
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)[REGIMES_COLUMNS + ["seconds"]]
    if plan.folder is not None:
        target = plan.folder / "table1_regimes.csv"
        run = {"cases": [list(c) for c in cases], "random_starts": random_starts, "seed": seed,
               "regimes": list(REGIMES), "tol": 1e-11}
        with publish(plan, parameters=run):
            write_csv(df.drop(columns=["seconds"]), target, float_format="%.15g")
            write_meta(target, run, plan=plan, wall_seconds=wall,
                       row_seconds={f"{int(n)}@{int(m)}": round(float(t), 3)
                                    for n, m, t in zip(df["N"], df["mesh"], df["seconds"])},
                       columns={"table1_pseudo_bloc": "the paper's pseudo-bloc game (Table 1's value at mesh 101)",
                                "communication*": "coalition value and certified bracket, members see each other's "
                                                  "cards (joint rules per hand cell)",
                                "correlated*": "coalition value and certified bracket, one joint threshold profile "
                                               "drawn before the deal (TMECor; solve_coalition structure='full')",
                                "independent_lower": "certified value of the best product profile found",
                                "independent_upper": "the correlated certified upper end",
                                "independent_found": "the found profile's fixed-point value"})
        if echo is not None:
            echo(f"wrote {target}")
    return df
