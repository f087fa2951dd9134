"""``guts curve``: coalition values for large N (pseudo-bloc, refined meshes) into results/large_n.csv."""
from __future__ import annotations

from guts.cli.options import path_arg, add_jobs, add_out, add_quiet, add_sizes, number_arg, out_folder
from guts.studies.large_n import DEFAULT_SIZES, MAX_CURVE_SIZE
from guts.studies.sweep import BACKENDS

HELP = "coalition values for large N (pseudo-bloc, refined meshes) into results/large_n.csv"
DEFAULT_CURVE_SIZES = DEFAULT_SIZES


def add_subparser(subparsers):
    p = subparsers.add_parser("curve", help=HELP, description=HELP)
    add_sizes(p, DEFAULT_CURVE_SIZES, maximum=MAX_CURVE_SIZE, help="coalition sizes N, e.g. 1-30,50,100,200")
    p.add_argument("--points", type=number_arg("points", int, 10), default=100,
                   help="points of the initial scaled mesh")
    p.add_argument("--target-width", type=number_arg("target-width", float, 0.0, strict=True), default=1e-9,
                   help="refine until the certified bracket is this narrow")
    p.add_argument("--max-rounds", type=number_arg("max-rounds", int, 1), default=10,
                   help="mesh solves per N at most")
    p.add_argument("--study-points", type=number_arg("study-points", int, 0), default=400,
                   help="also solve on a plain scaled mesh of this many points, for the refinement study (0: skip)")
    add_jobs(p, "local processes")
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="joblib backend (default: in-process for --jobs 1, else loky); dask needs --scheduler")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (with --backend dask; default: none)")
    p.add_argument("--cache", type=path_arg, default=None, metavar="DIR",
                   help="cache of finished sizes, so an interrupted sweep resumes (default: results/.cache, "
                        "or OUT/.cache with --out)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    add_out(p, "curve")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.large_n import run_large_n

    cache = None if args.no_cache else (args.cache or "default")
    df = run_large_n(args.sizes, points=args.points, max_rounds=args.max_rounds, target_width=args.target_width,
                     study_points=args.study_points, jobs=args.jobs, backend=args.backend,
                     scheduler=args.scheduler, cache=cache, out=out_folder(args), progress=not args.quiet,
                     echo=print)
    return 0 if bool(df["converged"].all()) else 1
