"""``guts full-vs-pseudo-bloc``: free coalitions against the pseudo-bloc restriction (paper §5, App. A).

    guts full-vs-pseudo-bloc
    guts full-vs-pseudo-bloc --cases "21:2-5" --out /tmp/x
"""
from __future__ import annotations

from guts.cli.options import add_cases, add_study_options, study_args

HELP = "full (independent-member) coalitions against the pseudo-bloc restriction into full_vs_pseudo_bloc.csv"


def add_subparser(subparsers):
    from guts.studies.full_vs_pseudo_bloc import DEFAULT_CASES, parse_cases

    p = subparsers.add_parser("full-vs-pseudo-bloc", help=HELP, description=HELP)
    add_cases(p, parse_cases, DEFAULT_CASES, "mesh:sizes list, e.g. 21:2-5,101:2")
    add_study_options(p, "full_vs_pseudo_bloc")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import pandas as pd

    from guts.studies.full_vs_pseudo_bloc import run as run_study

    df = run_study(args.cases, **study_args(args))
    with pd.option_context("display.width", 220, "display.max_colwidth", 60, "display.float_format", "{:.10f}".format):
        print(df[["N", "mesh", "columns_full", "value_full", "value_pseudo_bloc", "difference",
                  "certified_strictly_greater", "full_bloc_spread_steps", "full_strategy"]].to_string(index=False))
    from guts.cli.table1 import not_certified_exit

    return not_certified_exit(args._prog, [f"{N} at mesh {m}" for N, m in zip(df["N"], df["mesh"])], df["converged"],
                              where="column converged False")
