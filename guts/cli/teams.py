"""``guts teams``: m v. n team games (paper §1.2 and §5) into results/teams.csv.

    guts teams
    guts teams --cases "2v2:21:full" --out /tmp/x
"""
from __future__ import annotations

from guts.cli.options import add_cases, add_study_options, study_args

HELP = "m v. n team games (Buck et al. 2022, §1.2 and §5: 2 v. 2 has value 0), certified, into teams.csv"


def add_subparser(subparsers):
    from guts.studies.teams import DEFAULT_CASES, parse_cases

    p = subparsers.add_parser("teams", help=HELP, description=HELP)
    add_cases(p, parse_cases, DEFAULT_CASES, "mvn:mesh:structure list, e.g. 2v2:21:full,1v2:21:bloc")
    add_study_options(p, "teams")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import pandas as pd

    from guts.studies.teams import run as run_teams

    df = run_teams(args.cases, **study_args(args))
    with pd.option_context("display.width", 250, "display.max_colwidth", 80):
        print(df[["m", "n", "mesh", "structure", "team1_value", "team2_value", "certified_lower",
                  "certified_upper", "team1_strategy", "team2_vs_nash_bloc"]].to_string(index=False))
    from guts.cli.table1 import not_certified_exit

    keys = [f"{m}v{n}:{mesh}:{s}" for m, n, mesh, s in zip(df["m"], df["n"], df["mesh"], df["structure"])]
    return not_certified_exit(args._prog, keys, df["converged"], what="case", where="column converged False")
