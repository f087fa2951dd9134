"""The ``guts`` command.

Each subcommand lives in the module that holds its computation and exposes two
functions, ``add_arguments(parser)`` and ``run(args) -> int``; this file only
registers them.  Bad input (:class:`guts.GutsInputError`) ends with one line on
stderr and exit code 2, Ctrl-C with exit code 130, never with a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from ._validate import GutsInputError

# name -> (module holding add_arguments/run, one-line help)
COMMANDS = {
    "table1": ("guts.cli_table1", "reproduce Table 1 (1 v. N coalitions) into results/"),
    "solve": ("guts.cli_table1", "solve one 1 v. N game and print value, strategies, certificate"),
    "continuum": ("guts.cli_continuum", "the 1 v. N game without a mesh (continuum limit) and mesh refinement"),
    "curve": ("guts.cli_fit", "coalition values for large N (pseudo-bloc, refined meshes) into results/large_n.csv"),
    "fit": ("guts.cli_fit", "fit the value curve V(N), its asymptote and Figure 3 into results/fit.csv"),
    "play": ("guts.cli_bot", "play player 1 against the guts-bot's optimal coalition (paper §5.1)"),
    "simulate": ("guts.cli_bot", "simulate many games against the guts-bot: mean return vs the game value"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: usage + one line, exit 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="guts", description="Generalized recursive games and continuous Guts poker "
                     "(Buck, Lee, Platnick, Wheeler, Zumbrun 2022).")
    parser.add_argument("--version", action="version", version=f"guts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (module, help_) in COMMANDS.items():
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=help_, description=help_)
        getattr(mod, f"add_arguments_{name.replace('-', '_')}", getattr(mod, "add_arguments", None))(p)
        p.set_defaults(_run=getattr(mod, f"run_{name.replace('-', '_')}", getattr(mod, "run", None)))
    return parser


def guarded(prog: str, func, *args, **kwargs):
    """Run ``func``; return ``(exit_code, result)`` with bad input and Ctrl-C turned into codes.

    :class:`GutsInputError` prints one line ``<prog>: error: ...`` and gives 2;
    Ctrl-C prints a line and gives 130 (outputs are atomic, so nothing is half-written).
    Shared by the ``guts`` command and the ``experiments/`` scripts.
    """
    try:
        return 0, func(*args, **kwargs)
    except GutsInputError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2, None
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted; no partial output was written", file=sys.stderr)
        return 130, None


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code, result = guarded(f"guts {args.command}", args._run, args)
    return code if code else int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
