"""The ``guts`` command.

Every subcommand is a module of this package exposing ``add_subparser(subparsers)``, which
adds its parser and sets ``func`` (``func(args) -> exit code``).  :data:`COMMANDS` is
the one list of them: a new game family adds one module and one line (a group such as
``guts poker`` adds its families the same way).  A module is imported only when its
command runs (``guts --help`` lists every command from the modules' ``HELP`` strings,
read from their source without importing them): a command loads only what it uses.

Conventions (shared options in :mod:`guts.cli.options`): every help text shows its default;
every error is one line ``guts <command>: error: <what> <value>; accepted: <range>`` on
stderr with exit code 2 (argparse's own errors are rewritten to that form, no usage dump;
nested commands are named in full, ``guts poker continuous: error: ...``); Ctrl-C gives
exit code 130; never a traceback.

Exit codes (every command):

===  ==========================================================================
0    done, and every result certified
1    ran, but some result is not certified (its certificate failed; the output
     and the CSV ``status`` column say "not certified")
2    bad input (one line ``guts <command>: error: ...; accepted: ...``)
74   an output could not be written (disk full, ...): one line naming the error
130  interrupted (Ctrl-C); 143 terminated (SIGTERM)
141  stdout closed early (``guts ... | head``): silent, as standard tools
===  ==========================================================================

Warnings (e.g. :class:`guts.errors.ConvergenceWarning`) are printed as one line
``guts <command>: warning: ...`` on stderr.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import re
import sys
import warnings

from guts.cli.options import DefaultsFormatter
from guts.cli.guard import guarded

__all__ = ["main", "build_parser", "guarded", "SUBCOMMANDS", "COMMANDS", "Parser", "iter_commands", "EXIT_OK",
           "EXIT_NOT_CERTIFIED", "EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "EXIT_TERMINATED", "EXIT_IO_ERROR",
           "EXIT_BROKEN_PIPE", "run_command"]

EXIT_OK, EXIT_NOT_CERTIFIED, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143
EXIT_IO_ERROR, EXIT_BROKEN_PIPE = 74, 141  # sysexits EX_IOERR; 128 + SIGPIPE

#: ``(command, module)`` of every subcommand, in the order ``guts --help`` lists them.
COMMANDS = (
    ("table1", "guts.cli.table1"),
    ("table1-regimes", "guts.cli.table1_regimes"),
    ("solve", "guts.cli.solve"),
    ("play", "guts.cli.play"),
    ("simulate", "guts.cli.simulate"),
    ("curve", "guts.cli.curve"),
    ("fit", "guts.cli.fit"),
    ("continuum", "guts.cli.continuum"),
    ("poker", "guts.cli.poker"),
    ("holdem", "guts.cli.holdem"),
    ("mercer", "guts.cli.mercer"),
    ("teams", "guts.cli.teams"),
    ("figures", "guts.cli.figures"),
    ("fp-three-player", "guts.cli.fictitious"),
    ("full-vs-pseudo-bloc", "guts.cli.full_vs_pseudo_bloc"),
    ("solve-game", "guts.cli.solve_game"),
    ("view", "guts.cli.view"),
)


def __getattr__(name):  # PEP 562: the module list imports every subcommand module
    if name == "SUBCOMMANDS":
        return [importlib.import_module(mod) for _, mod in COMMANDS]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def command_help(module: str) -> str:
    """The ``HELP`` string of a subcommand module, read from its source without importing it
    (importing it would load the solvers it runs)."""
    spec = importlib.util.find_spec(module)
    tree = ast.parse(spec.loader.get_source(module))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "HELP" for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{module} has no literal HELP string")  # pragma: no cover - checked by the tests

_KIND = {"int": "an integer", "float": "a number"}


def rewrite_error(message: str) -> str:
    """argparse's error text in the package's format ``<what> <value>; accepted: <range>``."""
    m = re.match(r"argument (\S+): (.*)$", message, re.S)  # aliases stay: --size/-N/--opponents
    if not m:
        m2 = re.match(r"unrecognized arguments: (.*)$", message)
        if m2:
            return f"unrecognized argument {m2.group(1)}; accepted: the options listed by --help"
        m2 = re.match(r"the following arguments are required: (.*)$", message)
        if m2:
            return f"missing required argument {m2.group(1)}; accepted: see --help"
        return message
    opt, rest = m.group(1), m.group(2)
    c = re.match(r"invalid choice: (.*?) \(choose from (.*)\)$", rest)
    if c:
        return f"{opt} {c.group(1)}; accepted: {c.group(2).replace(chr(39), '')}"
    c = re.match(r"invalid (\w+) value: (.*)$", rest)
    if c:
        return f"{opt} {c.group(2)}; accepted: {_KIND.get(c.group(1), c.group(1))}"
    if rest.startswith("expected "):
        return f"{opt} without a value; accepted: {rest[len('expected '):]}"
    if "; accepted:" in rest:
        return f"{opt} {rest}"
    return f"{opt}: {rest}"


class Parser(argparse.ArgumentParser):
    """The parser of ``guts`` and of every subcommand: defaults shown, one-line errors."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):  # argparse's own errors: one line, exit 2 (no usage dump)
        self.exit(2, f"{self.prog}: error: {rewrite_error(message)}\n")

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("parser_class", Parser)  # groups (guts poker ...) inherit the conventions
        return super().add_subparsers(**kwargs)


_Parser = Parser  # the name the layout used


def iter_commands(parser, path=()):
    """Yield ``(path, parser)`` for ``parser`` and every (nested) subcommand parser."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from iter_commands(sub, path + (name,))


def build_parser(command: str | None = "*") -> argparse.ArgumentParser:
    """The ``guts`` parser. ``command="*"`` (default): every subcommand in full (imports every
    module); a command name: that one in full, the others as stubs listed by ``--help``;
    ``None``: stubs only (``guts --help``, ``guts --version``)."""
    from guts import __version__

    parser = Parser(prog="guts", description="Generalized recursive games and continuous Guts poker "
                    "(Buck, Lee, Platnick, Wheeler, Zumbrun 2022).")
    parser.add_argument("--version", action="version", version=f"guts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, mod in COMMANDS:
        if command in ("*", name):
            importlib.import_module(mod).add_subparser(sub)
        else:
            summary = command_help(mod)
            sub.add_parser(name, help=summary, description=summary)
    for path, p in iter_commands(parser):  # every command knows its full name and parser
        if path:
            p.set_defaults(_prog=p.prog, _parser=p)
            if not isinstance(p, Parser):  # pragma: no cover - a module built its own parser class
                p.error = Parser.error.__get__(p)
    return parser


def main(argv=None) -> int:
    """Run the ``guts`` command; return its exit code (argparse's own exits included)."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    # the first positional token names the command: build only its parser in full
    first = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(first if first in dict(COMMANDS) else None)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # name the subcommand, not just "guts"
            getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version (0) or a bad argument (2)
        return exc.code if isinstance(exc.code, int) else 2
    prog = getattr(args, "_prog", f"guts {args.command}")
    sub = getattr(args, "_parser", parser)
    for action in sub._actions:  # argparse turns `--opt=--` into [] without calling the converter
        if action.option_strings and action.nargs is None and getattr(args, action.dest, None) == []:
            return _exit_code(sub.error, f"argument {'/'.join(action.option_strings)}: expected one argument")
    return run_command(prog, args.func, args)


def _exit_code(fn, *a) -> int:
    try:
        fn(*a)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return 2  # pragma: no cover - error() always exits


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that the same clean-up as Ctrl-C runs."""


_Terminated.seen = False


def _on_sigterm(signum, frame):
    _Terminated.seen = True
    raise _Terminated()


def _numba_interrupts(func):
    """``func`` with a Ctrl-C inside compiled (numba) code seen as the KeyboardInterrupt it is.

    A signal handler that raises while numba runs surfaces as ``SystemError: ... returned a result
    with an exception set`` whose context is the KeyboardInterrupt (Mercer CFR+).
    """
    def call(*a, **k):
        try:
            return func(*a, **k)
        except SystemError as exc:
            inner = exc.__cause__ or exc.__context__
            if isinstance(inner, KeyboardInterrupt):
                raise inner from None
            raise

    return call


def run_command(prog: str, func, *args) -> int:
    """Run one command: warnings as one line, SIGTERM like Ctrl-C (code 143), a closed
    stdout silent (141), a failed write one line (74); see the exit codes above."""
    import errno
    import os
    import signal

    terminated = False
    old = None
    try:
        old = signal.signal(signal.SIGTERM, _on_sigterm)
    except (ValueError, OSError):  # not the main thread
        pass
    try:
        with one_line_warnings(prog):
            try:
                code, result = guarded(prog, _numba_interrupts(func), *args)
            except _Terminated:  # pragma: no cover - guarded maps KeyboardInterrupt itself
                code, result = EXIT_INTERRUPTED, None
            terminated = code == EXIT_INTERRUPTED and _Terminated.seen
            code = code if code else int(result or 0)
            sys.stdout.flush()  # inside the try: a closed pipe or a full disk is reported here
        return EXIT_TERMINATED if terminated else code
    except BrokenPipeError:
        # stdout's reader went away (| head): exit silently; stdout now points to /dev/null so
        # that the interpreter's final flush does not complain either
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
            pass
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # pragma: no cover - same as BrokenPipeError
            return EXIT_BROKEN_PIPE
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"{prog}: error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        try:  # leave nothing buffered for the interpreter's final flush to fail on again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # pragma: no cover
            pass
        return EXIT_IO_ERROR
    finally:
        _Terminated.seen = False
        if old is not None:
            signal.signal(signal.SIGTERM, old)


@contextlib.contextmanager
def one_line_warnings(prog: str):
    """Show every warning as one line ``<prog>: warning: <message>`` on stderr (no source line)."""
    def show(message, category, filename, lineno, file=None, line=None):
        text = " ".join(str(message).split())
        print(f"{prog}: warning: {text}", file=sys.stderr if file is None else file)

    from guts.errors import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("default", ConvergenceWarning)  # reported (exit code 1), never raised
        warnings.showwarning = show
        yield


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
