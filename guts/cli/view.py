"""``guts view SOLUTION [--game GAME]``: a strategy explorer for a kept solution, in one HTML file.

    guts solve-game openspiel:kuhn_poker --save kuhn.npz
    guts view kuhn.npz --game openspiel:kuhn_poker            # writes kuhn.html
    guts view mercer.npz                                      # a family's file names its game
    guts view kuhn.npz --game openspiel:kuhn_poker --serve 8000   # and serve it on localhost

SOLUTION is a file written by ``result.save`` (``guts solve-game ... --save``); GAME is the
game it solves, named as ``guts solve-game`` names it (``openspiel:NAME(params)``, ``.efg``,
``.toml``, ``.game``).  A solution of Mercer hold'em, of the hold'em raise game, of a
discretised continuous-poker game or of a 1 v. N or m v. n guts game records what was solved: its
game is rebuilt from the file (no ``--game``).  The solution is checked against the game
(fingerprint and certificate) before the page is written.  ``--serve PORT`` then serves
that one page on ``http://127.0.0.1:PORT/`` (0: a free port) until Ctrl-C (exit 130); the page
needs no server, this is for a browser on another machine through an SSH tunnel or a container's
forwarded port.  See docs/view.md.
"""
from __future__ import annotations

from guts.cli.options import int_arg

HELP = "write a kept solution's strategies as one self-contained HTML page (a strategy explorer)"


def add_subparser(subparsers):
    p = subparsers.add_parser("view", help=HELP, description=HELP + " (docs/view.md)")
    p.add_argument("solution", metavar="SOLUTION",
                   help="a solution file written by result.save or guts solve-game --save (.npz)")
    p.add_argument("--game", default=None, metavar="GAME",
                   help="the game solved: FILE.efg, FILE.toml, FILE.game or openspiel:NAME(params) (default: the "
                        "game a Mercer, hold'em, continuous-poker or guts solution file records)")
    p.add_argument("--out", default=None, metavar="FILE.html",
                   help="the page to write (default: SOLUTION with the suffix .html)")
    p.add_argument("--title", default=None,
                   help="the page's title (default: the game's name and the method)")
    p.add_argument("--serve", type=int_arg("serve", 0, 65535), default=None, metavar="PORT",
                   help="then serve the page on http://127.0.0.1:PORT/ until Ctrl-C (0: a free port; "
                        "default: write the file only)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from pathlib import Path

    from guts.errors import GutsInputError
    from guts.studies.solve_game import load_game
    from guts.studies.view import write_view
    from guts.studies.view_families import load_for_view

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
    game = load_game(args.game) if args.game is not None else None
    solution, game, title = load_for_view(args.solution, game)
    print(write_view(solution, game, out, title=args.title if args.title is not None else title))
    if args.serve is not None:
        serve_page(out, args.serve)
    return 0


def serve_page(page, port: int) -> None:
    """Serve the one file ``page`` at ``/`` (and ``/<its name>``) on 127.0.0.1 until interrupted.

    Only that file is served (no folder listing, nothing else on disk), from localhost only."""
    import http.server
    from pathlib import Path

    body = Path(page).read_bytes()
    names = {"/", "/" + Path(page).name}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server hook's name
            if self.path.split("?", 1)[0] not in names:
                self.send_error(404, "only the page is served")
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # quiet: one line per request would bury the URL
            pass

    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    except OSError as exc:
        from guts.errors import GutsInputError

        raise GutsInputError(f"--serve {port}: {exc.strerror or exc}; accepted: a free port, or 0 for any") from None
    with server:
        print(f"serving http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
        server.serve_forever()
