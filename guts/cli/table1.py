"""``guts table1``: Table 1 of the paper (1 v. N coalitions, N = 1..15) into results/."""
from __future__ import annotations

from guts.cli.options import add_jobs, add_mesh, add_out, add_quiet, add_seed, add_sizes, int_arg
from guts.engine.recursive import METHODS, SOLVERS
from guts.games.guts.strategies import STRUCTURES

HELP = "reproduce Table 1 (1 v. N coalitions) into results/"


def add_game_options(p) -> None:
    """Options of one 1 v. N game (shared with ``guts solve``)."""
    add_mesh(p)
    p.add_argument("--structure", choices=STRUCTURES, default="pseudo-bloc", help="coalition strategy space")
    p.add_argument("--solver", choices=SOLVERS, default="lp",
                   help="inner matrix-game solver: lp (exact, HiGHS), fp (nashpy fictitious play, the paper's), "
                        "oracle (double oracle: exact LP on generated rows/columns, fastest)")
    p.add_argument("--method", choices=METHODS, default="newton",
                   help="fixed-point method: newton (bracketed Newton/secant, certified steps) or iterate (the paper's)")
    p.add_argument("--fp-iterations", type=int_arg("fp-iterations", 1), default=10_000,
                   help="fictitious-play rounds per stage game (solver fp)")
    add_seed(p, help="random state for fictitious play (integer >= 0; default 0)")


def add_subparser(subparsers):
    p = subparsers.add_parser("table1", help=HELP, description=HELP)
    add_sizes(p)
    add_game_options(p)
    add_jobs(p)
    add_out(p)
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.table1 import run_table1

    run_table1(sizes=args.sizes, mesh=args.mesh, structure=args.structure, solver=args.solver, method=args.method,
               jobs=args.jobs, out=args.out, fp_iterations=args.fp_iterations, random_state=args.seed,
               progress=not args.quiet, echo=print)
    print(f"wrote {args.out.rstrip('/')}/table1.csv")
    return 0
