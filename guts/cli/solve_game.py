"""``guts solve-game FILE``: solve a game brought by the user.

    guts solve-game openspiel:kuhn_poker
    guts solve-game game.efg --method lp --out DIR --efg
    guts solve-game 'openspiel:kuhn_poker(players=3)' --method dcfr --target 1e-4
    guts solve-game leduc.game                     # ACPC definition (universal_poker's)
    guts solve-game 'openspiel:kuhn_poker(players=3)' --team 1,2 --regime correlated

FILE is a Gambit ``.efg`` file, a poker description (``.toml``), an ACPC game definition
(``.game``) or ``openspiel:NAME(params)``.  Prints every player's value, the
exploitability / NashConv certificate and the time; writes ``strategy.csv`` and
``solution.json`` (and ``game.efg`` with ``--efg``).  See docs/your_own_game.md.
"""
from __future__ import annotations

import time

from guts.engine.progress import elapsed_bar
from guts.cli.options import add_lp_method, certificate_text, verdict, add_quiet, int_arg, number_arg

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
    from guts.engine.tolerances import MAX_ITERATIONS      # light: the solvers are imported by run()

    p.add_argument("--iterations", type=int_arg("iterations", 1, MAX_ITERATIONS), default=None,
                   help="iteration budget of cfr+/dcfr/fp (default: until the target)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for strategy.csv and solution.json (default: a fresh "
                        "results/runs/solve-game-<time>/)")
    p.add_argument("--efg", action="store_true", help="also write the game as game.efg")
    p.add_argument("--isomorphism", nargs="?", const="explicit", choices=["explicit", "public", "none"],
                   default=None,
                   help="poker descriptions and ACPC definitions: solve the quotient by the suit permutations "
                        "that are symmetries of the game (same value). 'explicit' (the flag alone): built from "
                        "the full game, any method, prints the full game's exploitability of the expanded "
                        "strategies; 'public': the public tree's quotient built directly (cfr+/dcfr, default "
                        "dcfr; the way to games whose full tree does not fit). Default: the full game, or "
                        "'public' when the memory pre-flight refuses the full tree of a suited deck")
    p.add_argument("--max-nodes", type=int_arg("max-nodes", 1, None), default=None, metavar="N",
                   help="openspiel:NAME: refuse games of more than N tree nodes, before or while expanding "
                        "them (default: 1 000 000)")
    ex = p.add_mutually_exclusive_group()
    ex.add_argument("--exact", dest="exact", action="store_true", default=None,
                    help="lp: prove the value as a fraction by exact best responses in rational arithmetic "
                         "(default: automatic on public-tree games of at most 100 000 sequences)")
    ex.add_argument("--no-exact", dest="exact", action="store_false", help="lp: skip the exact value")
    add_lp_method(p, "the LP (--method lp)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="also keep the solution in FILE (.npz; read it back with guts.load_solution; default: not kept)")
    p.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="cfr+/dcfr/fp: keep the solver's state in FILE (at the end, on Ctrl-C, and every "
                        "--checkpoint-every seconds; default: none)")
    p.add_argument("--checkpoint-every", type=number_arg("checkpoint-every", float, 0.0, strict=True),
                   default=None, metavar="SECONDS",
                   help="seconds between two checkpoints (default: only at the end and on Ctrl-C)")
    p.add_argument("--resume", default=None, metavar="FILE",
                   help="cfr+/dcfr/fp: continue the solve kept in FILE (--iterations counts from its start; "
                        "default: a new solve)")
    p.add_argument("--team", type=_seats, default=None, metavar="SEATS",
                   help="solve a team game instead: these seats (every seat but one, e.g. 1,2) maximise "
                        "their joint payoff against the other seat (docs/teams.md; default: no team)")
    p.add_argument("--regime", choices=["communication", "correlated", "independent"], default=None,
                   help="how the --team coordinates (default: correlated)")
    p.add_argument("--team-method", default=None, metavar="NAME",
                   help="--team: the regime's method (correlated: column-generation, column-generation-milp, "
                        "column-generation-local or belief-dag; docs/teams.md; default: belief-dag where the team "
                        "belief DAG fits and the game has many public decisions, else the regime's first)")
    p.add_argument("--time-limit", type=number_arg("time-limit", float, 0.0, strict=True), default=None,
                   metavar="SECONDS", help="--team: stop after SECONDS with the bracket found (default: none)")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def _seats(text):
    import argparse

    try:
        seats = tuple(int(s) for s in str(text).split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}; accepted: seats separated by commas, e.g. 1,2") from None
    if not seats or min(seats) < 0:
        raise argparse.ArgumentTypeError(f"{text}; accepted: seats >= 0 separated by commas, e.g. 1,2")
    return seats


def _run_team(args, game) -> int:
    from guts.studies.output import run_folder
    from guts.studies.solve_game import solve_team_game, write_team_solution

    r = solve_team_game(game, args.team, args.regime or "correlated", target=args.target,
                        iterations=args.iterations, progress=not args.quiet, method=args.team_method,
                        time_limit=args.time_limit)
    print(f"team              seats {','.join(map(str, r.team))} against seat {r.adversary}; regime {r.regime}, "
          f"method {r.method}")
    print("values            " + "  ".join(f"{v:+.9f}" for v in r.values))
    print(f"team value        {r.value:+.9f} in [{r.lower:+.9f}, {r.upper:+.9f}] (width "
          f"{certificate_text(r.upper - r.lower)})")
    status, code = verdict(r.converged)
    print(f"iterations        {r.num_iter}; solve {r.seconds:.2f} s; {status}")
    folder = args.out if args.out is not None else run_folder("solve-game")
    for path in write_team_solution(game, r, folder):
        print(f"wrote             {path}")
    return code


def _infoset_text(game, total: int) -> str:
    """``"N information sets (a/b/c per seat)"``: the total over all seats and each seat's (decisions
    x his types, from the compiled game) when they add up to it, else the total, said to be one."""
    try:
        seats = [int(pt.num_decisions) * int(pt.num_types) for pt in game.compiled.players]
    except AttributeError:
        seats = []
    if len(seats) > 1 and sum(seats) == total:
        return f"{total} information sets ({'/'.join(map(str, seats))} per seat)"
    return f"{total} information sets (all seats together)" if len(seats) != 1 else f"{total} information sets"


def run(args) -> int:
    from guts.studies.output import run_folder
    from guts.studies.solve_game import load_game, solve_game, write_solution

    from guts.studies.solve_game import poker_quotient_advised

    mode = getattr(args, "isomorphism", None)
    if mode is None and getattr(args, "team", None) is None:
        why = poker_quotient_advised(str(args.file), args.method)
        if why is not None:
            print(f"{why}: solving its suit quotient of the public tree (--isomorphism public; "
                  "--isomorphism none for the full game)")
            mode = "public"
    if mode == "public" and args.method is None:
        args.method = "dcfr"
    t0 = time.perf_counter()
    # an OpenSpiel import counts its own nodes; a file is built in one call: say it is still working
    with elapsed_bar(f"building {args.file}", enabled=not args.quiet and not str(args.file).startswith("openspiel:")):
        game = load_game(args.file, max_nodes=getattr(args, "max_nodes", None), progress=not args.quiet,
                         isomorphism="public" if mode == "public" else False)
    if mode == "public":
        from guts.games.poker.build import count_poker

        full = count_poker(game.poker_spec)
        print(f"suit quotient     public nodes {full.public_states} -> {game.size.public_nodes}, information sets "
              f"{full.info_sets} -> {game.size.infosets} (the full game's counted, not built)")
    build = time.perf_counter() - t0
    s = game.size if hasattr(game, "size") else None
    size = f"{s.public_nodes} nodes x {s.deals} deals, {_infoset_text(game, s.infosets)}" if s else ""
    print(f"{game.name or args.file}: {game.num_players} players, {size}; built in {build:.2f} s")
    iso = None
    if mode == "explicit":
        from guts.games.poker.isomorphism import suit_quotient

        t1 = time.perf_counter()
        iso = suit_quotient(game)
        game = iso.game
        for line in iso.stats.lines():
            print(line)
        print(f"quotient          {game.size.public_nodes} nodes; built in {time.perf_counter() - t1:.2f} s")
    team_only = ("regime", "team_method", "time_limit")
    if getattr(args, "team", None) is not None or any(getattr(args, k, None) is not None for k in team_only):
        if args.team is None or args.method is not None:
            from guts.errors import GutsInputError

            raise GutsInputError("--regime, --team-method and --time-limit go with --team (and --method without "
                                 "it); accepted: --team SEATS [--regime communication|correlated|independent] "
                                 "[--team-method NAME] [--time-limit SECONDS]")
        return _run_team(args, game)
    keep = {k: getattr(args, k, None) for k in ("checkpoint", "checkpoint_every", "resume")}
    solved = solve_game(game, method=args.method, target=args.target, iterations=args.iterations,
                        progress=not args.quiet, exact=getattr(args, "exact", None),
                        lp_method=getattr(args, "lp_method", "auto"), **keep)
    r = solved.result
    if solved.method == "lp":
        from guts.engine.extensive.lp import lp_method

        chosen = getattr(args, "lp_method", "auto")
        print(f"method            lp, HiGHS {lp_method(game, chosen)} (--lp-method {chosen})")
    else:
        print(f"method            {solved.method}" + (f", target {solved.target:g}" if solved.target else ""))
    print("values            " + "  ".join(f"{v:+.9f}" for v in r.values))
    ex = getattr(solved, "exact", None)
    if ex is not None:
        if ex.value is not None:
            print(f"exact value       {ex.value} (first player; exact best responses to the rational "
                  f"strategies agree, {ex.seconds:.1f} s)")
        else:
            print(f"exact value       not reconstructed; exact bracket [{float(ex.lower):+.12g}, "
                  f"{float(ex.upper):+.12g}]")
    print(f"exploitability    {certificate_text(r.exploitability)}   NashConv {certificate_text(r.nash_conv)}")
    if iso is not None:
        from guts.engine.extensive import exploitability

        full = exploitability(iso.full, iso.expand(r.strategies))
        print(f"full game         exploitability {certificate_text(full)} of the expanded strategies")
    # an iteration budget without a target: the exploitability above is the certificate
    status, code = verdict(r.converged, target_set=solved.method == "lp" or solved.target is not None)
    print(f"iterations        {r.num_iter}; solve {r.seconds:.2f} s; {status}")
    folder = args.out if args.out is not None else run_folder("solve-game")
    for path in write_solution(solved, folder, efg=args.efg):
        print(f"wrote             {path}")
    if getattr(args, "save", None):
        print(f"wrote             {r.save(args.save, game=game)}")
    if keep["checkpoint"]:
        print(f"checkpoint        {keep['checkpoint']}")
    return code
