"""``guts curve``: coalition values for large N (pseudo-bloc, refined meshes) into results/large_n.csv."""
from __future__ import annotations

from guts.cli.options import add_sizes, add_study_options, number_arg, study_args
from guts.games.guts.large_n.refine import MAX_ROUNDS, MAX_TARGET_WIDTH
from guts.studies.large_n import DEFAULT_SIZES, MAX_CURVE_SIZE

HELP = "coalition values for large N (pseudo-bloc, refined meshes) into results/large_n.csv"
DEFAULT_CURVE_SIZES = DEFAULT_SIZES


def add_subparser(subparsers):
    p = subparsers.add_parser("curve", help=HELP, description=HELP)
    add_sizes(p, DEFAULT_CURVE_SIZES, maximum=MAX_CURVE_SIZE, help="coalition sizes N, e.g. 1-30,50,100,200")
    p.add_argument("--mesh", "--points", dest="mesh", type=number_arg("mesh", int, 10), default=100,
                   help="points of the initial scaled mesh (--points: its old name)")
    p.add_argument("--target-width", type=number_arg("target-width", float, 0.0, strict=True,
                                                     maximum=MAX_TARGET_WIDTH), default=1e-9,
                   help=f"refine until the certified bracket is this narrow (at most {MAX_TARGET_WIDTH:g}: one ante)")
    p.add_argument("--max-iterations", "--max-rounds", dest="max_iterations",
                   type=number_arg("max-iterations", int, 1, maximum=MAX_ROUNDS),
                   default=10, help="mesh solves per N at most (--max-rounds: its old name)")
    p.add_argument("--study-mesh", "--study-points", dest="study_mesh", type=number_arg("study-mesh", int, 0),
                   default=400, help="also solve on a plain scaled mesh of this many points, for the refinement "
                                     "study (0: skip; >= 10 otherwise; --study-points: its old name)")
    add_study_options(p, "curve", what="local processes", cache=True, unit="sizes")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.large_n import run_large_n

    df = run_large_n(args.sizes, mesh=args.mesh, max_iterations=args.max_iterations,
                     target_width=args.target_width, study_mesh=args.study_mesh, **study_args(args))
    return 0 if bool(df["converged"].all()) else 1
