"""``guts table1-regimes``: Table 1's coalition with communication, ex-ante correlation (the paper's) or neither.

    guts table1-regimes
    guts table1-regimes --cases "11:2-3" --out /tmp/x
"""
from __future__ import annotations

from guts.cli.options import add_cases, add_study_options, int_arg, study_args

HELP = ("Table 1's coalition in three team regimes (communication, correlated, independent) "
        "into table1_regimes.csv")


def add_subparser(subparsers):
    from guts.studies.table1_regimes import DEFAULT_CASES, parse_cases

    p = subparsers.add_parser("table1-regimes", help=HELP, description=HELP)
    add_cases(p, parse_cases, DEFAULT_CASES, "mesh:sizes list, e.g. 101:2-3,21:2-6")
    p.add_argument("--random-starts", type=int_arg("random-starts", 0, 1000), default=0, metavar="K",
                   help="extra random starts of the independent regime's search (0..1000)")
    p.add_argument("--seed", type=int_arg("seed", 0), default=0, help="random state of the random starts (integer >= 0)")
    add_study_options(p, "table1_regimes")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.table1_regimes import run_table1_regimes

    df = run_table1_regimes(args.cases, random_starts=args.random_starts, random_state=args.seed, **study_args(args))
    print(f"{'N':>3} {'mesh':>4} {'Table 1':>11} {'communication':>14} {'correlated':>11} "
          f"{'independent [found, correlated]':>31} {'width com':>9} {'width cor':>9}")
    for r in df.itertuples():
        print(f"{r.N:>3} {r.mesh:>4} {r.table1_pseudo_bloc:>11.8f} {r.communication:>14.8f} {r.correlated:>11.8f} "
              f"{'[' + format(r.independent_lower, '.8f') + ', ' + format(r.independent_upper, '.8f') + ']':>31} "
              f"{r.communication_upper - r.communication_lower:>9.1e} {r.correlated_upper - r.correlated_lower:>9.1e}")
    ok = bool(df["certified"].all() and df["communication_ge_correlated"].all() and df["correlated_ge_independent"].all())
    if not ok:
        print("guts table1-regimes: some row is not certified or breaks communication >= correlated >= independent")
    return 0 if ok else 1
