"""The ``guts`` command.

Every subcommand is a module of this package exposing ``add_subparser(subparsers)``, which
adds its parser and sets ``func`` (``func(args) -> exit code``).  :data:`SUBCOMMANDS` is
the one list of them: a new game family adds one module and one line.  Bad input
(:class:`guts.errors.GutsInputError` or an argparse error) ends with one line
``guts <command>: error: <message>`` on stderr and exit code 2, Ctrl-C with exit code
130, never with a traceback or a usage dump.
"""
from __future__ import annotations

import argparse
import sys

from guts.cli import continuum, curve, fit, play, simulate, solve, table1
from guts.errors import guarded

__all__ = ["main", "build_parser", "guarded", "SUBCOMMANDS"]

SUBCOMMANDS = [table1, solve, play, simulate, curve, fit, continuum]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2 (no usage dump)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from guts import __version__

    parser = _Parser(prog="guts", description="Generalized recursive games and continuous Guts poker "
                     "(Buck, Lee, Platnick, Wheeler, Zumbrun 2022).")
    parser.add_argument("--version", action="version", version=f"guts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in SUBCOMMANDS:
        module.add_subparser(sub)
    return parser


def main(argv=None) -> int:
    """Run the ``guts`` command; return its exit code (argparse's own exits included)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a bad argument (2)
        return exc.code if isinstance(exc.code, int) else 2
    code, result = guarded(f"guts {args.command}", args.func, args)
    return code if code else int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
