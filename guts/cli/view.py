"""``guts view SOLUTION --game GAME``: a strategy explorer for a kept solution, in one HTML file.

    guts solve-game openspiel:kuhn_poker --save kuhn.npz
    guts view kuhn.npz --game openspiel:kuhn_poker            # writes kuhn.html

SOLUTION is a file written by ``result.save`` (``guts solve-game ... --save``); GAME is the
game it solves, named as ``guts solve-game`` names it (``openspiel:NAME(params)``, ``.efg``,
``.toml``, ``.game``).  The solution is checked against the game (fingerprint and
certificate) before the page is written.  See docs/view.md.
"""
from __future__ import annotations

HELP = "write a kept solution's strategies as one self-contained HTML page (a strategy explorer)"


def add_subparser(subparsers):
    p = subparsers.add_parser("view", help=HELP, description=HELP + " (docs/view.md)")
    p.add_argument("solution", metavar="SOLUTION",
                   help="a solution file written by result.save or guts solve-game --save (.npz)")
    p.add_argument("--game", required=True, metavar="GAME",
                   help="the game solved: FILE.efg, FILE.toml, FILE.game or openspiel:NAME(params)")
    p.add_argument("--out", default=None, metavar="FILE.html",
                   help="the page to write (default: SOLUTION with the suffix .html)")
    p.add_argument("--title", default=None,
                   help="the page's title (default: the game's name and the method)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from pathlib import Path

    from guts.engine.extensive.persist import load_solution
    from guts.errors import GutsInputError
    from guts.studies.solve_game import load_game
    from guts.studies.view import write_view

    out = Path(args.out) if args.out is not None else Path(args.solution).with_suffix(".html")
    if out.suffix.lower() not in (".html", ".htm"):
        raise GutsInputError(f"--out {args.out!r}; accepted: a file name ending in .html")
    if out.resolve() == Path(args.solution).resolve():
        raise GutsInputError(f"--out {args.out!r} is the solution file itself; accepted: another file")
    if not out.parent.is_dir():
        raise GutsInputError(f"--out {str(out)!r}: the folder {str(out.parent)!r} does not exist; accepted: a "
                             "file in an existing folder")
    if not Path(args.solution).is_file():
        raise GutsInputError(f"solution file {args.solution!r} does not exist; accepted: a solution file written by "
                             "result.save or guts solve-game --save")
    game = load_game(args.game)
    solution = load_solution(args.solution, game=game)
    print(write_view(solution, game, out, title=args.title))
    return 0
