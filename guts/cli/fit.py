"""``guts fit``: the value curve V(N), its asymptote and Figure 3 into results/fit.csv."""
from __future__ import annotations

from guts.cli.options import path_arg, add_out, add_quiet, add_seed, number_arg, out_folder

HELP = "fit the value curve V(N), its asymptote and Figure 3 into results/fit.csv"


def add_subparser(subparsers):
    p = subparsers.add_parser("fit", help=HELP, description=HELP)
    p.add_argument("--table1", type=path_arg, default=None, metavar="CSV",
                   help="computed Table 1 (default: results/table1.csv, or OUT/table1.csv with --out; "
                        "a named file must exist)")
    p.add_argument("--large-n", type=path_arg, default=None, metavar="CSV",
                   help="large-N values from `guts curve` (default: results/large_n.csv, or OUT/large_n.csv "
                        "with --out; a named file must exist)")
    p.add_argument("--allow-partial", action="store_true",
                   help="fit inputs from partial runs (with a warning) instead of refusing them")
    p.add_argument("--bootstrap", type=number_arg("bootstrap", int, 0, maximum=100_000), default=1000,
                   help="residual-bootstrap refits per fit (0: skip the bootstrap interval)")
    p.add_argument("--level", type=number_arg("level", float, 0.0, strict=True, maximum=1.0, strict_max=True),
                   default=0.95, help="confidence level of the asymptote's intervals, in (0, 1)")
    add_seed(p, "the bootstrap resampling")
    add_out(p, "fit")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.fit import run_fit

    run_fit(out=out_folder(args), table1=args.table1, large_n=args.large_n, bootstrap=args.bootstrap,
            level=args.level, random_state=args.seed, echo=print, progress=not args.quiet,
            allow_partial=args.allow_partial)
    return 0
