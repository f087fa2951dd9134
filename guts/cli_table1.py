"""``guts table1`` and ``guts solve``: the 1 v. N coalition game from the command line."""
from __future__ import annotations


from .coalitions import STRUCTURES
from .recursive import METHODS, SOLVERS
from .sweep import parse_sizes
from .cli_args import int_arg, jobs_arg


def _common(p):
    p.add_argument("--mesh", type=int_arg("mesh", 2), default=101, help="mesh points on [0, 1] (>= 2; paper: 101)")
    p.add_argument("--structure", choices=STRUCTURES, default="pseudo-bloc", help="coalition strategy space")
    p.add_argument("--solver", choices=SOLVERS, default="lp",
                   help="inner matrix-game solver: lp (exact, HiGHS), fp (nashpy fictitious play, the paper's), "
                        "oracle (double oracle: exact LP on generated rows/columns, fastest)")
    p.add_argument("--method", choices=METHODS, default="newton",
                   help="fixed-point method: newton (bracketed Newton/secant, certified steps) or iterate (the paper's)")
    p.add_argument("--fp-iterations", type=int_arg("fp-iterations", 1), default=10_000,
                   help="fictitious-play rounds per stage game (solver fp)")
    p.add_argument("--seed", type=int_arg("seed", 0), default=0, help="random state for fictitious play")


def add_arguments_table1(p):
    p.add_argument("--sizes", default="1-15", help="coalition sizes N, e.g. 1-15 or 2,3,5 (default 1-15)")
    _common(p)
    p.add_argument("--jobs", type=jobs_arg, default=1, help="parallel processes (-1: all cores)")
    p.add_argument("--out", default="results", help="output folder (default results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run_table1(args) -> int:
    from .table1 import run_table1 as _run

    sizes = parse_sizes(args.sizes)
    _run(sizes=sizes, mesh=args.mesh, structure=args.structure, solver=args.solver, method=args.method,
         jobs=args.jobs, out=args.out, fp_iterations=args.fp_iterations, random_state=args.seed,
         progress=not args.quiet, echo=print)
    print(f"wrote {args.out.rstrip('/')}/table1.csv")
    return 0


def add_arguments_solve(p):
    p.add_argument("size", type=int_arg("size", 1), help="coalition size N >= 1")
    _common(p)


def run_solve(args) -> int:
    from .game import solve_coalition, table1_row

    r = solve_coalition(size=args.size, mesh=args.mesh, structure=args.structure, solver=args.solver,
                        method=args.method, fp_iterations=args.fp_iterations, random_state=args.seed)
    row = table1_row(r)
    print(f"1 v. {r.size}, mesh {r.mesh}, {r.structure}, solver {r.solver}, method {r.method}")
    print(f"coalition value   {r.coalition_value:.12f}")
    print(f"player 1 value    lower {r.lower:.12f}  upper {r.upper:.12f}")
    print(f"certified         [{r.certified_lower:.12f}, {r.certified_upper:.12f}]  (Theorem 1.2; "
          f"rate eps = {r.epsilon:.4f})")
    print(f"player 1          {row['player1_support']}")
    print(f"coalition         {row['coalition_support']}")
    print(f"iterations        player 1 {r.iterations}, coalition {r.coalition_iterations}; "
          f"{r.num_solves} stage solves; {r.seconds:.2f} s; converged {r.converged}")
    return 0 if r.converged else 1
