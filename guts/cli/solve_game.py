"""``guts solve-game FILE``: solve a game brought by the user.

    guts solve-game openspiel:kuhn_poker
    guts solve-game game.efg --method lp --out DIR --efg
    guts solve-game 'openspiel:kuhn_poker(players=3)' --method dcfr --target 1e-4
    guts solve-game leduc.game                     # ACPC definition (universal_poker's)

FILE is a Gambit ``.efg`` file, a poker description (``.toml``), an ACPC game definition
(``.game``) or ``openspiel:NAME(params)``.  Prints every player's value, the
exploitability / NashConv certificate and the time; writes ``strategy.csv`` and
``solution.json`` (and ``game.efg`` with ``--efg``).  See docs/your_own_game.md.
"""
from __future__ import annotations

import time

from guts.cli.options import add_quiet, int_arg, number_arg

HELP = "solve a game file: .efg, a poker description, an ACPC definition or openspiel:NAME"


def add_subparser(subparsers):
    p = subparsers.add_parser("solve-game", help=HELP, description=HELP + " (docs/your_own_game.md)")
    p.add_argument("file", metavar="FILE",
                   help="FILE.efg (Gambit), FILE.toml (poker description), FILE.game (ACPC) or openspiel:NAME(params)")
    p.add_argument("--method", choices=["lp", "cfr+", "dcfr", "fp"], default=None,
                   help="solver (default: lp for two-player zero-sum games, else cfr+)")
    p.add_argument("--target", type=number_arg("target", float, 0.0, strict=True), default=None,
                   help="exploitability target of cfr+/dcfr, regret bound of fp (default: 1e-3 "
                        "unless --iterations is given; the LP is exact)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=None,
                   help="iteration budget of cfr+/dcfr/fp (default: until the target)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for strategy.csv and solution.json (default: a fresh "
                        "results/runs/solve-game-<time>/)")
    p.add_argument("--efg", action="store_true", help="also write the game as game.efg")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.output import run_folder
    from guts.studies.solve_game import load_game, solve_game, write_solution

    t0 = time.perf_counter()
    game = load_game(args.file)
    build = time.perf_counter() - t0
    s = game.size if hasattr(game, "size") else None
    size = f"{s.public_nodes} nodes x {s.deals} deals, {s.infosets} information sets" if s else ""
    print(f"{game.name or args.file}: {game.num_players} players, {size}; built in {build:.2f} s")
    solved = solve_game(game, method=args.method, target=args.target, iterations=args.iterations,
                        progress=not args.quiet)
    r = solved.result
    print(f"method            {solved.method}" + (f", target {solved.target:g}" if solved.target else ""))
    print("values            " + "  ".join(f"{v:+.9f}" for v in r.values))
    print(f"exploitability    {r.exploitability:.3e}   NashConv {r.nash_conv:.3e}")
    if solved.method == "lp" or solved.target is not None:
        status = "certified" if r.converged else "NOT certified (target or certificate not reached)"
    else:   # an iteration budget without a target: the exploitability above is the certificate
        status = "budget done" if r.converged else "stopped early"
    print(f"iterations        {r.num_iter}; solve {r.seconds:.2f} s; {status}")
    folder = args.out if args.out is not None else run_folder("solve-game")
    for path in write_solution(solved, folder, efg=args.efg):
        print(f"wrote             {path}")
    return 0 if r.converged else 1
