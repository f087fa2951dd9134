"""``guts fit``: the value curve V(N), its asymptote and Figure 3 into results/fit.csv."""
from __future__ import annotations

from guts.cli.options import add_out, add_seed, number_arg
from guts.errors import GutsInputError

HELP = "fit the value curve V(N), its asymptote and Figure 3 into results/fit.csv"


def add_subparser(subparsers):
    p = subparsers.add_parser("fit", help=HELP, description=HELP)
    add_out(p)
    p.add_argument("--table1", default=None, metavar="CSV",
                   help="computed Table 1 (default OUT/table1.csv; skipped if missing)")
    p.add_argument("--large-n", default=None, metavar="CSV",
                   help="large-N values from `guts curve` (default OUT/large_n.csv; skipped if missing)")
    p.add_argument("--bootstrap", type=number_arg("bootstrap", int, 0), default=1000,
                   help="residual-bootstrap refits per fit (0: skip; default 1000)")
    p.add_argument("--level", type=number_arg("level", float, 0.0, strict=True), default=0.95,
                   help="confidence level of the asymptote's intervals (default 0.95)")
    add_seed(p, help="bootstrap random state (integer >= 0; default 0)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.fit import run_fit

    if not args.level < 1.0:
        raise GutsInputError(f"level must be in (0, 1); got {args.level}")
    run_fit(out=args.out, table1=args.table1, large_n=args.large_n, bootstrap=args.bootstrap,
            level=args.level, random_state=args.seed, echo=print)
    print(f"wrote {args.out.rstrip('/')}/fit.csv and {args.out.rstrip('/')}/fig3_fit.png")
    return 0
