"""``guts full-vs-pseudo-bloc``: free coalitions against the pseudo-bloc restriction (paper §5, App. A).

    guts full-vs-pseudo-bloc
    guts full-vs-pseudo-bloc --cases "21:2-5" --out /tmp/x
"""
from __future__ import annotations

import argparse

from guts.cli.options import add_out, add_quiet, add_sweep, out_folder, sweep_args

HELP = "full (independent-member) coalitions against the pseudo-bloc restriction into full_vs_pseudo_bloc.csv"


def _cases(text):
    from guts.errors import GutsInputError
    from guts.studies.full_vs_pseudo_bloc import parse_cases

    try:
        return parse_cases(text)
    except GutsInputError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} ({exc}); accepted: mesh:sizes list, e.g. 21:2-5,101:2") from None


def add_subparser(subparsers):
    from guts.studies.full_vs_pseudo_bloc import DEFAULT_CASES

    p = subparsers.add_parser("full-vs-pseudo-bloc", help=HELP, description=HELP)
    p.add_argument("--cases", type=_cases, default=DEFAULT_CASES, metavar="CASES",
                   help="mesh:sizes list, e.g. 21:2-5,101:2")
    add_sweep(p)
    add_out(p, "full_vs_pseudo_bloc")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import pandas as pd

    from guts.studies.full_vs_pseudo_bloc import run as run_study

    df = run_study(args.cases, out=out_folder(args), progress=not args.quiet, echo=print,
                   **sweep_args(args))
    with pd.option_context("display.width", 220, "display.max_colwidth", 60, "display.float_format", "{:.10f}".format):
        print(df[["N", "mesh", "columns_full", "value_full", "value_pseudo_bloc", "difference",
                  "certified_strictly_greater", "full_bloc_spread_steps", "full_strategy"]].to_string(index=False))
    from guts.cli.table1 import not_certified_exit

    return not_certified_exit(args._prog, [f"{N} at mesh {m}" for N, m in zip(df["N"], df["mesh"])], df["converged"],
                              where="column converged False")
