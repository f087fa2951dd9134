"""Argument converters, the help formatter and the option groups shared by ``guts`` subcommands.

One name, one meaning, everywhere:

=============  =========================================================================
``size``       the coalition size N of one game (``guts solve N``; ``--size/-N`` in play,
               simulate; ``--opponents`` is kept as an alias)
``--sizes``    a list of coalition sizes (``1-15``, ``2,3,5``, ``1-5,8``)
``--mesh``     mesh points on [0, 1] (``--meshes``: a list of them)
``--seed``     the random state of everything random the command does (integer >= 0)
``--jobs``     local processes (-1: all cores)
``--backend``  joblib backend of a sweep (``dask`` with ``--scheduler ADDRESS``)
``--cache``    folder of a sweep's finished points, so an interrupted sweep resumes
``--out``      output folder (default: ``results/`` for the full default run, else a fresh
               ``results/runs/<command>-<time>/``; a partial run never replaces a full one)
``--quiet``    no progress bar
=============  =========================================================================

``--lp-method`` (on commands that solve an exact LP) names HiGHS's algorithm: ``auto`` (by the
LP's size), ``simplex`` or ``ipm``.

Converters raise ``argparse.ArgumentTypeError`` with ``"<value>; accepted: <range>"``; the
parser (:class:`guts.cli.Parser`) prefixes the option, giving the one error format
``guts <command>: error: <option> <value>; accepted: <range>`` (exit 2, no usage dump).
Every help text shows its default (:class:`DefaultsFormatter`).
"""
from __future__ import annotations

import argparse
import math

from guts._validate import available_cores, check_jobs
from guts.errors import GutsInputError
from guts.studies.output import AUTO
from guts.studies.sweep import parse_sizes

__all__ = ["DefaultsFormatter", "int_arg", "number_arg", "jobs_arg", "sizes_arg", "seed_arg", "out_folder",
           "path_arg", "add_out", "add_jobs", "add_sweep", "sweep_args", "add_seed", "add_quiet", "add_sizes",
           "add_mesh", "add_size", "add_lp_method", "cases_arg", "add_cases", "add_study_options", "study_args", "OUT_HELP"]


class DefaultsFormatter(argparse.HelpFormatter):
    """argparse's defaults formatter, without ``(default: None)``/``False`` noise.

    Appends ``(default: X)`` to every option whose help does not already state its
    default; flags get ``(default: off)``; an option whose default is ``None`` must say
    in its help what happens when it is not given (the help-walk test checks this).
    """

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default is argparse.SUPPRESS or not action.option_strings:
            return text
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            return text
        if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
            return text + " (default: off)" if action.default is False else text + " (default: on)"
        if action.default is None:
            return text
        return text + " (default: %(default)s)"


def _accepted(value, accepted: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"{value}; accepted: {accepted}")


def int_arg(name: str, minimum: int, maximum: int | None = None):
    """Converter for an integer option in ``[minimum, maximum]`` (``name`` is kept for callers)."""
    rng = f"integers >= {minimum}" if maximum is None else f"integers {minimum}..{maximum}"

    def conv(text):
        try:
            v = int(text)
        except (TypeError, ValueError):
            raise _accepted(repr(text), rng) from None
        if v < minimum or (maximum is not None and v > maximum):
            raise _accepted(v, rng)
        return v

    conv.__name__ = name
    return conv


def number_arg(name: str, kind=float, minimum: float = 0.0, strict: bool = False, maximum: float | None = None,
               strict_max: bool = False):
    """Converter for a finite number ``>= minimum`` (``> minimum`` when ``strict``), optionally bounded above."""
    lo = f"{'>' if strict else '>='} {minimum:g}"
    hi = "" if maximum is None else f" and {'<' if strict_max else '<='} {maximum:g}"
    what = ("integers " if kind is int else "finite numbers ") + lo + hi

    def conv(text):
        try:
            v = kind(text)
        except (TypeError, ValueError):
            raise _accepted(repr(text), what) from None
        bad = not math.isfinite(v) or v < minimum or (strict and v == minimum)
        if maximum is not None:
            bad = bad or v > maximum or (strict_max and v == maximum)
        if bad:
            raise _accepted(text, what)
        return v

    conv.__name__ = name
    return conv


def jobs_arg(text):
    """Converter for ``--jobs``: -1 (all cores) or a number of processes up to the cores available."""
    cores = available_cores()
    accepted = f"1..{cores} (the cores available) or -1 (all cores)"
    try:
        v = int(text)
    except ValueError:
        raise _accepted(repr(text), accepted) from None
    try:
        return check_jobs(v)
    except GutsInputError:
        raise _accepted(v, accepted) from None


def sizes_arg(minimum: int = 1, maximum: int | None = None):
    """Converter for a list of sizes: ``"1-15"``, ``"2,3,5"`` or ``"1-5,8,10-12"``."""

    def conv(text):
        try:
            return parse_sizes(text, minimum=minimum, name=None, maximum=maximum)
        except GutsInputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    conv.__name__ = "sizes"
    return conv


def seed_arg(text):
    """``--seed``: an integer >= 0, or ``fresh`` (a new one, printed so the run can be replayed)."""
    if str(text).strip().lower() == "fresh":
        return None
    try:
        return int_arg("seed", 0)(text)
    except argparse.ArgumentTypeError:
        raise _accepted(repr(text), "integers >= 0, or fresh (a new seed, printed)") from None


def path_arg(text):
    """A file or folder path: any non-empty text without NUL bytes (checked for use later)."""
    t = str(text)
    if not t.strip() or "\0" in t:
        raise _accepted(repr(t), "a non-empty path")
    return t


def cases_arg(parse, accepted: str):
    """Converter for ``--cases``: ``parse`` (a study's ``parse_cases``) of the text, its
    ``GutsInputError`` given back with the ``accepted`` form."""

    def conv(text):
        try:
            return parse(text)
        except GutsInputError as exc:
            raise argparse.ArgumentTypeError(f"{text!r} ({exc}); accepted: {accepted}") from None

    conv.__name__ = "cases"
    return conv


def add_cases(p, parse, default, accepted: str) -> None:
    """``--cases``: a study's list of cases, read by ``parse`` (the study's ``parse_cases``);
    ``accepted`` says its form with an example (``"mesh:sizes list, e.g. 21:2-5,101:2"``)."""
    p.add_argument("--cases", type=cases_arg(parse, accepted), default=default, metavar="CASES", help=accepted)


def out_folder(args):
    """The ``out`` of a study: ``AUTO`` when ``--out`` was not given."""
    return AUTO if args.out is None else args.out


OUT_HELP = ("output folder (default: results/ for the full default run, which regenerates the committed "
            "file; any other run goes to a fresh results/runs/{command}-<time>/). A partial run never "
            "replaces a full run's file")


def add_out(p, command: str) -> None:
    p.add_argument("--out", type=path_arg, default=None, metavar="DIR", help=OUT_HELP.format(command=command))


def add_jobs(p, what: str = "parallel processes") -> None:
    p.add_argument("--jobs", type=jobs_arg, default=1, help=f"{what} (-1: all cores)")


def add_sweep(p, what: str = "local processes", cache: bool = False, unit: str = "points",
              cache_default: str = "results/.cache, or OUT/.cache with --out") -> None:
    """The scale-out options of a sweep: ``--jobs``, ``--backend``, ``--scheduler`` (and ``--cache``,
    ``--no-cache`` with ``cache=True``); :func:`sweep_args` turns them into the study's keywords."""
    from guts.studies.sweep import BACKENDS

    add_jobs(p, what)
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="joblib backend (default: in-process for --jobs 1, else loky); dask needs --scheduler")
    p.add_argument("--scheduler", type=scheduler_arg, default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (with --backend dask; default: none)")
    if cache:
        p.add_argument("--cache", type=path_arg, default=None, metavar="DIR",
                       help=f"cache of finished {unit}, so an interrupted sweep resumes (default: {cache_default})")
        p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")


def scheduler_arg(text):
    """Converter for ``--scheduler``: a Dask scheduler address (not empty, no spaces)."""
    from guts.studies.sweep import check_scheduler

    try:
        return check_scheduler(text)
    except GutsInputError:
        raise _accepted(repr(text), "a Dask scheduler address such as tcp://127.0.0.1:8786") from None


def sweep_args(args) -> dict:
    """``jobs``, ``backend``, ``scheduler`` (and ``cache``: ``"default"`` unless ``--no-cache``) of
    the options added by :func:`add_sweep`."""
    kw = {"jobs": args.jobs, "backend": args.backend, "scheduler": args.scheduler}
    if hasattr(args, "no_cache"):
        kw["cache"] = None if args.no_cache else (args.cache or "default")
    return kw


def add_study_options(p, command: str, **sweep) -> None:
    """The options of a command that runs a study into ``results/``: :func:`add_sweep` (with
    ``sweep``), ``--out`` (:func:`add_out`) and ``--quiet``; :func:`study_args` reads them back."""
    add_sweep(p, **sweep)
    add_out(p, command)
    add_quiet(p)


def study_args(args) -> dict:
    """The study's keywords of the options added by :func:`add_study_options`: ``out``,
    ``progress``, ``echo`` (``print``) and :func:`sweep_args`."""
    return {"out": out_folder(args), "progress": not args.quiet, "echo": print, **sweep_args(args)}


def add_seed(p, what: str, default=0) -> None:
    """``--seed``: the random state of ``what`` (``default="fresh"``: a new seed, printed)."""
    p.add_argument("--seed", type=seed_arg, default=default,
                   help=f"random state of {what} (integer >= 0" + (", or fresh" if default == "fresh" else "") + ")")


def add_quiet(p) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_lp_method(p, what: str = "the LP") -> None:
    """``--lp-method``: HiGHS's algorithm for ``what`` (:data:`guts.engine.highs.LP_METHOD_CHOICES`)."""
    from guts.engine.highs import LP_METHOD_CHOICES      # on use: the parser of ``guts --help`` stays light
    from guts.engine.tolerances import LP_IPM_ANY_NNZ, LP_IPM_NNZ, LP_IPM_NNZ_PER_ROW

    p.add_argument("--lp-method", choices=LP_METHOD_CHOICES, type=str.lower, default="auto",
                   help=f"algorithm of {what}: simplex (HiGHS's dual simplex), ipm (its interior-point method) "
                        f"or auto (the interior point above {LP_IPM_NNZ:,} payoff non-zeros with "
                        f"{LP_IPM_NNZ_PER_ROW:g} or more per row, above {LP_IPM_ANY_NNZ:,} in any case)")


def add_sizes(p, default: str = "1-15", help: str | None = None, option: str = "--sizes", minimum: int = 1,
              maximum: int | None = None) -> None:
    # a string default goes through the converter too, and the help shows it as typed
    p.add_argument(option, type=sizes_arg(minimum, maximum), default=default, metavar=option.lstrip("-").upper(),
                   help=help or "coalition sizes N, e.g. 1-15, 2,3,5 or 1-5,8")


def add_mesh(p, default=101, maximum: int | None = None, help: str | None = None, minimum: int = 3) -> None:
    """``--mesh``: points of the uniform mesh; at least 3 for the recursive game (a threshold strictly
    between 0 and 1: :func:`guts.games.guts.strategies.check_recursive_grid`)."""
    p.add_argument("--mesh", type=int_arg("mesh", minimum, maximum), default=default, metavar="M",
                   help=help or f"mesh points on [0, 1] (>= {minimum}; the paper's is 101)")


def add_size(p, maximum: int | None = None, default: int = 2) -> None:
    """``--size/-N`` (alias ``--opponents``): the coalition size N of one game."""
    rng = f"1..{maximum}" if maximum is not None else ">= 1"
    p.add_argument("--size", "-N", "--opponents", dest="size", type=int_arg("size", 1, maximum), default=default,
                   metavar="N", help=f"coalition size N ({rng}): player 1 against N opponents, a table of N + 1")


def certificate_text(x: float, spec: str = ".3e") -> str:
    """A certificate number (exploitability, NashConv, a gap) as printed: never below zero.

    Best-response gains are non-negative; floating-point rounding can compute a tiny negative
    one (``-4.4e-16``).  It is shown as ``0`` with the computed number beside it, so that no
    line prints a negative certificate.
    """
    x = float(x)
    if math.isnan(x):
        return "nan (not computed)"
    if x < 0:
        return f"{0.0:{spec}} (rounding: computed {x:.1e})"
    return f"{x:{spec}}"


#: The one wording of a solve's verdict on every command, and its exit code.
VERDICTS = {
    "certified": ("certified", 0),
    "not certified": ("not certified: the target was not reached within the budget", 1),
    "budget done": ("budget done: no target was set, the certificate above is what holds", 0),
}


def verdict(converged: bool, target_set: bool = True) -> tuple[str, int]:
    """``(line, exit code)`` of a finished solve: certified (0), not certified (1) or, for an
    iterative run given only an iteration budget, budget done (0, its certificate printed)."""
    if not target_set:
        return VERDICTS["budget done"]
    return VERDICTS["certified" if converged else "not certified"]
