"""argparse converters shared by the ``guts`` subcommands.

Each raises ``argparse.ArgumentTypeError`` with a message naming the option, the
accepted range and the value given, so argparse exits with code 2 and one line.
"""
from __future__ import annotations

import argparse
import math

__all__ = ["int_arg", "number_arg", "jobs_arg"]


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
