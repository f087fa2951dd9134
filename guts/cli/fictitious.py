"""``guts fp-three-player``: three-player fictitious play (Buck et al. 2022, §5.2, Appendix B.1).

    guts fp-three-player [--mesh 101] [--iterations 50000] [--seed 0]
"""
from __future__ import annotations

from guts.cli.options import add_mesh, add_seed, add_study_options, int_arg, study_args

HELP = "three-player fictitious play (Buck et al. 2022, §5.2, App. B.1) into fp_three_player.*"


def add_subparser(subparsers):
    p = subparsers.add_parser("fp-three-player", help=HELP, description=HELP)
    add_mesh(p, help="thresholds per player (>= 2)", minimum=2)
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=50_000, help="best-response steps")
    add_seed(p, "the initial profile")
    add_study_options(p, "fp_three_player", what="local processes (one per variant)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    import pandas as pd

    from guts.studies.fictitious import run as run_fp

    summ = run_fp(args.mesh, args.iterations, args.seed, **study_args(args))
    with pd.option_context("display.width", 200, "display.max_colwidth", 50):
        print(summ.T.to_string())
    from guts.cli.table1 import not_certified_exit

    # fictitious play is approximate: "converged" is its duality gap (B.4) below tol
    return not_certified_exit(args._prog, summ["variant"], summ["converged"], what="variant",
                              where="duality gap above tol: column converged False")
