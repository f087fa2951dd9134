"""``guts table1``: Table 1 of the paper (1 v. N coalitions, N = 1..15) into results/."""
from __future__ import annotations

import sys

from guts.cli.options import add_mesh, add_seed, add_sizes, add_study_options, int_arg, study_args
from guts.engine.recursive import METHODS, SOLVERS
from guts.games.guts.strategies import STRUCTURES

HELP = "reproduce Table 1 (1 v. N coalitions) into results/"
# The fastest exact, certified path (same values as --solver lp to 1e-10, tested on every row);
# the paper's method is `--solver fp --method iterate`.
DEFAULT_SOLVER = "oracle"
DEFAULT_METHOD = "newton"
# Measured: one 1 v. 2 row at mesh 101 with fp (10 000 rounds per stage game, Newton) had not finished
# after 12 min wall / 6.7 min CPU on the loaded 2-core machine; with 1000 rounds and plain
# iteration it takes 15.6 s (benchmarks).  A rough range per size, scaled by rounds and mesh size:
FP_SECONDS_PER_ROW = (400, 1500)


def add_game_options(p) -> None:
    """Options of one 1 v. N game (shared with ``guts solve``)."""
    add_mesh(p)
    p.add_argument("--structure", choices=STRUCTURES, default="pseudo-bloc", help="coalition strategy space")
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER,
                   help="inner matrix-game solver: oracle (double oracle, exact LP on generated "
                        "rows/columns, the fastest exact path), lp (one full HiGHS LP per stage game), "
                        "fp (nashpy fictitious play, the paper's method, approximate and slow: minutes per size)")
    p.add_argument("--method", choices=METHODS, default=DEFAULT_METHOD,
                   help="fixed-point method: newton (bracketed Newton/secant, certified steps) or "
                        "iterate (the paper's plain iteration)")
    p.add_argument("--fp-iterations", type=int_arg("fp-iterations", 1), default=10_000, metavar="K",
                   help="fictitious-play rounds per stage game (only with --solver fp)")
    add_seed(p, "fictitious play (only with --solver fp)")


def _span(lo, hi, unit: str) -> str:
    """``"3-5 s"``, or ``"3 s"`` when both ends agree."""
    return f"{lo} {unit}" if lo == hi else f"{lo}-{hi} {unit}"


def _total(lo_seconds: float, hi_seconds: float) -> str:
    """A time range in minutes, or "under a minute"."""
    if hi_seconds < 60:
        return "under a minute"
    return _span(round(lo_seconds / 60), round(hi_seconds / 60), "min")


def warn_slow(args, prog: str, rows: int) -> None:
    """Warn before the paper's slow method runs a long job (fictitious play, or a full LP iterated)."""
    if args.solver == "fp":
        lo, hi = (max(1, round(s * args.fp_iterations / 10_000 * (args.mesh / 101) ** 2)) for s in FP_SECONDS_PER_ROW)
        print(f"{prog}: warning: --solver fp (fictitious play, the paper's method) is approximate and slow: "
              f"roughly {_span(lo, hi, 's')} per size at mesh {args.mesh} with {args.fp_iterations} rounds, so "
              f"{_total(rows * lo, rows * hi)} for {rows} size(s) on one process; the progress bar "
              f"refines the estimate. The exact default (--solver oracle) takes seconds.", file=sys.stderr)
    elif args.solver == "lp" and args.method == "iterate":
        print(f"{prog}: warning: --solver lp --method iterate (a full LP per plain iteration) takes ~30 s per size "
              f"at mesh 101; the default (oracle, newton) gives the same values in well under a second.",
              file=sys.stderr)


def add_subparser(subparsers):
    p = subparsers.add_parser("table1", help=HELP, description=HELP)
    add_sizes(p)
    add_game_options(p)
    add_study_options(p, "table1")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.table1 import run_table1

    warn_slow(args, args._prog, len(args.sizes))
    df = run_table1(sizes=args.sizes, mesh=args.mesh, structure=args.structure, solver=args.solver, method=args.method,
                    fp_iterations=args.fp_iterations, random_state=args.seed, **study_args(args))
    return not_certified_exit(args._prog, df["N"], df["converged"])


def not_certified_exit(prog: str, keys, converged, what: str = "N",
                       where: str = "status column 'not certified'") -> int:
    """Exit code of a table run: 0 if every row is certified, else 1 with one line naming the rows
    (``where``: where the table says so)."""
    bad = [str(k) for k, ok in zip(keys, converged) if not bool(ok)]
    if not bad:
        return 0
    print(f"{prog}: warning: not certified: {what} = {', '.join(bad)} ({where}; exit code 1)", file=sys.stderr)
    return 1
