"""m v. n team games (paper §1.2 and §5: "2 v. 2 ... value 0") into results/teams.csv.

For each (m, n, mesh, structure) the recursive team game is solved from both sides
(team 1 from -m, team 2 from -n) with the double oracle, and certified (Theorem 1.2).
Besides values and strategies, the table gives the weight of each team's *bloc*
components (all members within one mesh step) and, for m = n, what team 2 forces
against team 1 playing the symmetric Nash threshold 2^(-1/(m+n-1)) as a bloc.

    python experiments/teams.py
    python experiments/teams.py --cases "2v2:21:full" --out /tmp/x
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from guts import GutsInputError, fixed_point
from guts.games.guts.strategies import BLOC_STEPS, STRUCTURES, classify_components
from guts.games.guts.payoffs import symmetric_equilibrium
from guts.games.guts.coalition import format_profile
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta
from guts.games.guts.teams import solve_teams
from guts.studies.sweep import check_backend, run_sweep

DEFAULT_CASES = ("2v2:21:full,2v2:21:pseudo-bloc,2v2:21:bloc,2v2:41:full,2v2:101:full,"
                 "1v2:21:full,2v3:21:full,3v2:21:full,3v3:21:full,1v3:21:full")


def parse_cases(text: str) -> list[tuple[int, int, int, str]]:
    """``"2v2:21:full,3v3:21:pseudo-bloc"`` -> [(m, n, mesh, structure), ...]."""
    out = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        try:
            teams, mesh, structure = part.split(":")
            m, n = (int(x) for x in teams.lower().split("v"))
            mesh = int(mesh)
        except ValueError:
            raise GutsInputError(f"cases must look like '2v2:21:full'; got {part!r}") from None
        if m < 1 or n < 1 or mesh < 3:
            raise GutsInputError(f"need m, n >= 1 and mesh >= 3 (a threshold strictly between 0 and 1); "
                                 f"got {part!r}")
        if structure not in STRUCTURES:
            raise GutsInputError(f"structure must be one of {', '.join(STRUCTURES)}; got {structure!r}")
        out.append((m, n, mesh, structure))
    if not out:
        raise GutsInputError(f"no cases in {text!r}")
    return out


def _support(items) -> str:
    return " ".join(f"{format_profile(p)}:{w:.6f}" for p, w in items)


def _bloc_split(items, step):
    """Weight of components whose members are all within ``BLOC_STEPS`` mesh steps, and the rest."""
    kinds = classify_components(items, BLOC_STEPS * step)
    bloc, other = kinds["bloc"], kinds["pseudo-bloc"] + kinds["other"]
    lo = min((min(p) for p, _ in bloc), default=np.nan)
    hi = max((max(p) for p, _ in bloc), default=np.nan)
    return float(sum(w for _, w in bloc)), lo, hi, other


def _forced_against_pure(r, profile) -> float:
    """Total value team 2 forces (from -n) against team 1 repeating one pure profile."""
    from guts.games.guts.teams import team_payoff_matrix

    A, B = team_payoff_matrix(np.array([profile]), r.team2_profiles)
    # team 2 is the row player of a game with a single column (team 1's fixed profile)
    res = fixed_point(-A.T, B.T, v0=-float(r.n), solver="lp", method="newton", cap=float(r.m))
    return res.value


def solve_case(m, n, mesh, structure) -> dict:
    r = solve_teams(m, n, mesh, structure, solver="oracle")
    step = 1.0 / (mesh - 1)
    w1, lo1, hi1, other1 = _bloc_split(r.components(1), step)
    w2, lo2, hi2, other2 = _bloc_split(r.components(2), step)
    row = {
        "m": m, "n": n, "mesh": mesh, "structure": structure,
        "rows": len(r.team1_profiles), "columns": len(r.team2_profiles),
        "team1_value": r.team1_value, "team2_value": r.team2_value,
        "lower": r.lower, "upper": r.upper, "has_value": r.has_value,
        "certified_lower": r.certified_lower, "certified_upper": r.certified_upper,
        "team1_strategy": _support(r.components(1)), "team2_strategy": _support(r.components(2)),
        "team1_bloc_weight": w1, "team1_bloc_low": lo1, "team1_bloc_high": hi1,
        "team1_nonbloc": _support(other1),
        "team2_bloc_weight": w2, "team2_bloc_low": lo2, "team2_bloc_high": hi2,
        "team2_nonbloc": _support(other2),
        "nash_threshold": symmetric_equilibrium(m + n),
        "team2_vs_nash_bloc": np.nan,
        "converged": r.converged, "seconds": r.seconds,
    }
    if m == n:
        nash = float(r.grid[np.argmin(np.abs(r.grid - symmetric_equilibrium(m + n)))])
        row["nash_mesh_threshold"] = nash
        row["team2_vs_nash_bloc"] = _forced_against_pure(r, [nash] * m)
    else:
        row["nash_mesh_threshold"] = np.nan
    return row


def case_row(case) -> dict:
    """:func:`solve_case` of one ``(m, n, mesh, structure)`` case (module-level: a sweep pickles it)."""
    return solve_case(*case)


def run(cases, out=AUTO, progress=True, echo=None, jobs: int = 1, backend: str | None = None,
        scheduler: str | None = None) -> pd.DataFrame:
    """Solve every case and write ``teams.csv`` (+ meta) into ``out``.

    ``jobs``, ``backend``, ``scheduler``: see :func:`guts.studies.sweep.run_sweep` (rows in
    the order of ``cases`` whatever the backend).
    """
    check_backend(backend, scheduler)
    plan = plan_output("teams", out, {"cases": cases}, {"cases": parse_cases(DEFAULT_CASES)},
                       targets=["teams.csv"], echo=echo)
    out_dir = plan.folder
    df = pd.DataFrame(run_sweep(case_row, list(cases), jobs=jobs, progress=progress, desc="teams",
                                backend=backend, scheduler=scheduler))
    if out_dir is not None:
        target = out_dir / "teams.csv"
        with publish(plan, parameters={"cases": [list(c) for c in cases]}):
            write_csv(df, target)
            write_meta(target, plan=plan, parameters={"cases": [list(c) for c in cases], "solver": "oracle", "method": "newton",
                                "tol": 1e-11},
                       columns={"team1_value": "total value team 1 forces from -m (lower)",
                                "team2_value": "total value team 2 forces from -n (upper = -team2_value)",
                                "team*_bloc_weight": "weight of components with all members within 1.5 mesh steps",
                                "team2_vs_nash_bloc": "m = n: total value team 2 forces against team 1 repeating "
                                                      "the symmetric Nash threshold (nearest mesh point) as a bloc"})
    return df
