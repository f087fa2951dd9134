"""Argument checks shared by the public functions.

Every check raises :class:`GutsInputError` (a ``ValueError``) with a message that
names the offending value and the accepted range; the CLI turns it into exit code 2.
"""
from __future__ import annotations

import math
import numbers

import numpy as np


from guts.errors import GutsInputError


def check_int(name: str, value, minimum: int, maximum: int | None = None) -> int:
    """Return ``value`` as an int in ``[minimum, maximum]`` or raise ``GutsInputError``."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
            value = int(value)
        else:
            raise GutsInputError(
                f"{name} must be an integer >= {minimum}"
                + (f" and <= {maximum}" if maximum is not None else "")
                + f"; got {value!r}"
            )
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        rng = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
        raise GutsInputError(f"{name} must be an integer {rng}; got {value}")
    return value


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of ``choices`` or raise ``GutsInputError``."""
    if value not in choices:
        raise GutsInputError(
            f"unknown {name} {value!r}; accepted: {', '.join(repr(c) for c in choices)}"
        )
    return value


def check_thresholds(name: str, values) -> np.ndarray:
    """Return ``values`` as a float array with every entry in [0, 1] (no NaN)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        raise GutsInputError(f"{name} must not be empty")
    bad = ~np.isfinite(arr) | (arr < 0.0) | (arr > 1.0)
    if bad.any():
        first = arr[bad].ravel()[0]
        raise GutsInputError(
            f"{name} must be thresholds in [0, 1] (hold when the hand exceeds it); got {first!r}"
        )
    return arr


def check_positive_float(name: str, value, allow_zero: bool = False) -> float:
    """Return ``value`` as a finite float > 0 (or >= 0) or raise ``GutsInputError``."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise GutsInputError(f"{name} must be a number; got {value!r}") from None
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise GutsInputError(f"{name} must be a finite number {'>=' if allow_zero else '>'} 0; got {value!r}")
    return v


def check_matrix(name: str, m) -> np.ndarray:
    """Return ``m`` as a finite 2-D float array with at least one row and column."""
    arr = np.asarray(m, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise GutsInputError(f"{name} must be a non-empty 2-D matrix; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise GutsInputError(f"{name} must contain only finite numbers (found NaN or inf)")
    return arr
