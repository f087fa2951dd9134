"""Argument converters and the option groups shared by the ``guts`` subcommands.

Every option that more than one subcommand takes (``--out``, ``--jobs``, ``--seed``,
``--quiet``, ``--sizes``, ``--mesh``) is defined here once.  Converters raise
``argparse.ArgumentTypeError`` with a message naming the option, the accepted range and
the value given, so the command exits with code 2 and one line.
"""
from __future__ import annotations

import argparse
import math

from guts.errors import GutsInputError
from guts.studies.sweep import parse_sizes

__all__ = ["int_arg", "number_arg", "jobs_arg", "sizes_arg",
           "add_out", "add_jobs", "add_seed", "add_quiet", "add_sizes", "add_mesh"]


def int_arg(name: str, minimum: int, maximum: int | None = None):
    """Converter for an integer option in ``[minimum, maximum]``."""
    rng = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"

    def conv(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer {rng}; got {text!r}") from None
        if v < minimum or (maximum is not None and v > maximum):
            raise argparse.ArgumentTypeError(f"{name} must be an integer {rng}; got {v}")
        return v

    return conv


def number_arg(name: str, kind=float, minimum: float = 0.0, strict: bool = False):
    """Converter for a finite number ``>= minimum`` (``> minimum`` when ``strict``)."""
    op = ">" if strict else ">="

    def conv(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number {op} {minimum}; got {text!r}") from None
        if not math.isfinite(v) or v < minimum or (strict and v == minimum):
            raise argparse.ArgumentTypeError(f"{name} must be a finite number {op} {minimum}; got {text!r}")
        return v

    return conv


def jobs_arg(text):
    """Converter for ``--jobs``: a positive number of processes or -1 (all cores)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"jobs must be a positive integer or -1 (all cores); got {text!r}") from None
    if v == 0 or v < -1:
        raise argparse.ArgumentTypeError(f"jobs must be a positive integer or -1 (all cores); got {v}")
    return v


def sizes_arg(minimum: int = 1):
    """Converter for a list of sizes: ``"1-15"``, ``"2,3,5"`` or ``"1-5,8,10-12"``."""

    def conv(text):
        try:
            return parse_sizes(text, minimum=minimum)
        except GutsInputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return conv


def add_out(p) -> None:
    p.add_argument("--out", default="results", help="output folder (default results/)")


def add_jobs(p, what: str = "parallel processes") -> None:
    p.add_argument("--jobs", type=jobs_arg, default=1, help=f"{what} (-1: all cores; default 1)")


def add_seed(p, default=0, help: str = "random state (integer >= 0; default 0)") -> None:
    p.add_argument("--seed", type=int_arg("seed", 0), default=default, help=help)


def add_quiet(p) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_sizes(p, default: str = "1-15", help: str | None = None, option: str = "--sizes", minimum: int = 1) -> None:
    p.add_argument(option, type=sizes_arg(minimum), default=parse_sizes(default, minimum),
                   help=help or f"coalition sizes N, e.g. 1-15 or 2,3,5 (default {default})")


def add_mesh(p, default=101, maximum: int | None = None, help: str | None = None) -> None:
    p.add_argument("--mesh", type=int_arg("mesh", 2, maximum), default=default,
                   help=help or f"mesh points on [0, 1] (>= 2; paper: 101; default {default})")
