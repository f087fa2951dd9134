"""``guts curve`` (coalition values for large N) and ``guts fit`` (the value curve and its asymptote)."""
from __future__ import annotations

from pathlib import Path

from .sweep import BACKENDS, parse_sizes
from .cli_args import jobs_arg, number_arg

DEFAULT_CURVE_SIZES = "1-30,35,40,45,50,60,70,80,90,100,120,140,160,180,200,250,300,400,500,700,1000,2000,5000,10000,100000"


def add_arguments_curve(p):
    p.add_argument("--sizes", default=DEFAULT_CURVE_SIZES,
                   help="coalition sizes N, e.g. 1-30,50,100,200 (default: 1-30 and up to 100000)")
    p.add_argument("--points", type=number_arg("points", int, 10), default=100,
                   help="points of the initial scaled mesh (default 100)")
    p.add_argument("--target-width", type=number_arg("target-width", float, 0.0, strict=True), default=1e-9,
                   help="refine until the certified bracket is this narrow (default 1e-9)")
    p.add_argument("--max-rounds", type=number_arg("max-rounds", int, 1), default=10,
                   help="mesh solves per N at most (default 10)")
    p.add_argument("--study-points", type=number_arg("study-points", int, 0), default=400,
                   help="also solve on a plain scaled mesh of this many points, for the refinement study "
                        "(0: skip; default 400)")
    p.add_argument("--jobs", type=jobs_arg, default=1, help="local processes (-1: all cores)")
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="joblib backend (default: in-process for --jobs 1, else loky); dask needs --scheduler")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (with --backend dask)")
    p.add_argument("--cache", default=None, metavar="DIR",
                   help="cache of finished sizes, so an interrupted sweep resumes (default OUT/.cache)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument("--out", default="results", help="output folder (default results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run_curve(args) -> int:
    from .largen import run_large_n

    sizes = parse_sizes(args.sizes)
    cache = None if args.no_cache else (args.cache or str(Path(args.out) / ".cache"))
    df = run_large_n(sizes, points=args.points, max_rounds=args.max_rounds, target_width=args.target_width,
                     study_points=args.study_points, jobs=args.jobs, backend=args.backend,
                     scheduler=args.scheduler, cache=cache, out=args.out, progress=not args.quiet, echo=print)
    print(f"wrote {args.out.rstrip('/')}/large_n.csv")
    return 0 if bool(df["converged"].all()) else 1


def add_arguments_fit(p):
    p.add_argument("--out", default="results", help="output folder (default results/)")
    p.add_argument("--table1", default=None, metavar="CSV",
                   help="computed Table 1 (default OUT/table1.csv; skipped if missing)")
    p.add_argument("--large-n", default=None, metavar="CSV",
                   help="large-N values from `guts curve` (default OUT/large_n.csv; skipped if missing)")
    p.add_argument("--bootstrap", type=number_arg("bootstrap", int, 0), default=1000,
                   help="residual-bootstrap refits per fit (0: skip; default 1000)")
    p.add_argument("--level", type=number_arg("level", float, 0.0, strict=True), default=0.95,
                   help="confidence level of the asymptote's intervals (default 0.95)")
    p.add_argument("--seed", type=number_arg("seed", int, 0), default=0, help="bootstrap random state")


def run_fit(args) -> int:
    from ._validate import GutsInputError
    from .fit import run_fit as _run

    if not args.level < 1.0:
        raise GutsInputError(f"level must be in (0, 1); got {args.level}")
    _run(out=args.out, table1=args.table1, large_n=args.large_n, bootstrap=args.bootstrap,
         level=args.level, random_state=args.seed, echo=print)
    print(f"wrote {args.out.rstrip('/')}/fit.csv and {args.out.rstrip('/')}/fig3_fit.png")
    return 0
