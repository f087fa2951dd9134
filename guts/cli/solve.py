"""``guts solve N``: one 1 v. N game, its value, strategies and certificate."""
from __future__ import annotations

from guts.cli.options import int_arg
from guts.cli.table1 import add_game_options, warn_slow

HELP = "solve one 1 v. N game and print value, strategies, certificate"


def add_subparser(subparsers):
    p = subparsers.add_parser("solve", help=HELP, description=HELP)
    p.add_argument("size", type=int_arg("size", 1), help="coalition size N >= 1")
    add_game_options(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.games.guts.coalition import solve_coalition
    from guts.studies.table1 import table1_row

    warn_slow(args, args._prog, 1)
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
    print(f"status            {row['status']}")
    return 0 if r.converged else 1
