"""Argument checks shared by the public functions.

Every check raises :class:`GutsInputError` (a ``ValueError``) with a message that
names the offending value and the accepted range; the CLI turns it into exit code 2.
"""
from __future__ import annotations

import math
import numbers
import os

import numpy as np


from guts.errors import GutsInputError


def check_int(name: str, value, minimum: int, maximum: int | None = None) -> int:
    """Return ``value`` as an int in ``[minimum, maximum]`` or raise ``GutsInputError``."""
    given = value  # named as given: 1e300 is not printed as its 301 digits
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
        shown = float(given) if isinstance(given, (float, np.floating)) else value
        raise GutsInputError(f"{name} must be an integer {rng}; got {shown}")
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
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise GutsInputError(f"{name} must be thresholds in [0, 1] (numbers); got {values!r}") from None
    if arr.size == 0:
        raise GutsInputError(f"{name} must not be empty")
    bad = ~np.isfinite(arr) | (arr < 0.0) | (arr > 1.0)
    if bad.any():
        first = arr[bad].ravel()[0]
        raise GutsInputError(
            f"{name} must be thresholds in [0, 1] (hold when the hand exceeds it); got {first!r}"
        )
    return arr


def check_positive_float(name: str, value, allow_zero: bool = False, maximum: float | None = None) -> float:
    """Return ``value`` as a finite float > 0 (or >= 0), at most ``maximum``, or raise ``GutsInputError``.

    Booleans are refused (``True`` is not a tolerance).
    """
    rng = f"{'>=' if allow_zero else '>'} 0" + ("" if maximum is None else f" and <= {maximum:g}")
    if isinstance(value, (bool, np.bool_)):
        raise GutsInputError(f"{name} must be a finite number {rng}; got {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise GutsInputError(f"{name} must be a number {rng}; got {value!r}") from None
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero) or (maximum is not None and v > maximum):
        raise GutsInputError(f"{name} must be a finite number {rng}; got {value!r}")
    return v


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is a real boolean (``True``/``False``, numpy's too), else ``GutsInputError``.

    Strict on purpose: ``check="no"`` is a non-empty string, hence truthy; accepting it would
    turn on what the caller asked to turn off.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise GutsInputError(f"{name} must be True or False; got {value!r}")


def check_random_state(name: str, value):
    """Return ``value`` if it is a seed NumPy accepts for an explicit random state: None, an
    integer >= 0, a ``numpy.random.Generator``, ``RandomState`` or ``SeedSequence``; else
    ``GutsInputError`` (``"abc"`` or ``1.5`` would otherwise be carried silently into a solve
    that may never use it)."""
    if value is None or isinstance(value, (np.random.Generator, np.random.RandomState, np.random.SeedSequence)):
        return value
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)) or value < 0:
        raise GutsInputError(f"{name} {value!r}; accepted: None, an integer >= 0 or a numpy.random.Generator")
    return int(value)


def check_matrix(name: str, m) -> np.ndarray:
    """Return ``m`` as a finite 2-D float array with at least one row and column."""
    try:
        arr = np.asarray(m, dtype=float)
    except (TypeError, ValueError):
        raise GutsInputError(f"{name} must be a 2-D matrix of numbers; got {type(m).__name__} {m!r:.40}") from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise GutsInputError(f"{name} must be a non-empty 2-D matrix; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise GutsInputError(f"{name} must contain only finite numbers (found NaN or inf)")
    return arr


# ---------------------------------------------------------------------------
# Resource guards: refuse a request that cannot fit before allocating it.
# ---------------------------------------------------------------------------
#: Environment variable overriding the memory budget, in bytes or with a suffix K, M, G, T
#: (e.g. ``GUTS_MEMORY_BUDGET=16G``).
MEMORY_BUDGET_ENV = "GUTS_MEMORY_BUDGET"
#: Fraction of the machine's physical memory a single request may use by default.
MEMORY_BUDGET_FRACTION = 0.5
_FALLBACK_BUDGET = 4 * 2**30


def _parse_bytes(text: str) -> int:
    t = str(text).strip().upper().rstrip("B")
    scale = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale > 1 else t) * scale
    except ValueError:
        raise GutsInputError(f"{MEMORY_BUDGET_ENV} must be a number of bytes such as 8G or 500M; got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise GutsInputError(f"{MEMORY_BUDGET_ENV} must be a positive number of bytes; got {text!r}")
    return int(value)


def peak_rss_bytes() -> int:
    """Peak resident memory of this process's own image, in bytes.

    Read from ``VmHWM`` in ``/proc/self/status``: the high-water mark of the current address
    space, which starts afresh at ``exec``.  ``getrusage(RUSAGE_SELF).ru_maxrss`` does not: on
    Linux it keeps the peak of the image a process was forked from, so a child started by a
    large parent (a test session of 450 MB) reports at least the parent's size.  Falls back to
    ``ru_maxrss`` where ``/proc`` is absent.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)   # bytes on macOS, kB on Linux


def memory_limits() -> dict:
    """Hard limits on this process's memory: ``{"ulimit -v": bytes, "cgroup memory.max": bytes}``.

    ``RLIMIT_AS`` (``ulimit -v``) bounds the address space, the cgroup v2 ``memory.max``
    (or v1 ``memory.limit_in_bytes``) the resident memory of the container; absent or
    unlimited ones are left out.
    """
    limits = {}
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft not in (resource.RLIM_INFINITY, -1) and soft > 0:
            limits["ulimit -v"] = int(soft)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 2**60:
            limits["cgroup memory.max"] = int(text)
            break
    return limits


#: Fraction of a hard limit (``ulimit -v``, cgroup) one request may use: the interpreter,
#: NumPy, SciPy and HiGHS already hold a few hundred MB of address space before it starts.
HARD_LIMIT_FRACTION = 0.75


def memory_budget() -> int:
    """Bytes one request may allocate.

    ``$GUTS_MEMORY_BUDGET`` if set, else half the physical memory; in both cases at most
    :data:`HARD_LIMIT_FRACTION` of the ``ulimit -v`` and cgroup limits (:func:`memory_limits`),
    which the process cannot exceed whatever it is told.
    """
    env = os.environ.get(MEMORY_BUDGET_ENV)
    if env:
        budget = _parse_bytes(env)
    else:
        try:
            budget = int(MEMORY_BUDGET_FRACTION * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
        except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
            budget = _FALLBACK_BUDGET
    for limit in memory_limits().values():
        budget = min(budget, int(HARD_LIMIT_FRACTION * limit))
    return budget


def _human(nbytes: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if nbytes < 1024 or unit == "PB":
            return f"{nbytes:.3g} {unit}"
        nbytes /= 1024.0
    return f"{nbytes:.3g} PB"  # pragma: no cover


def check_memory(what: str, nbytes: float, hint: str = "") -> None:
    """Raise :class:`GutsInputError` if ``what`` would need more than :func:`memory_budget` bytes.

    The message names the request, its estimated size and the budget, and how to
    override it (``GUTS_MEMORY_BUDGET``).
    """
    budget = memory_budget()
    if nbytes > budget:
        raise GutsInputError(
            f"{what} needs about {_human(nbytes)}, more than the memory budget of {_human(budget)}"
            + (f"; {hint}" if hint else "") + f" (set {MEMORY_BUDGET_ENV}, e.g. 16G, to allow more"
            + "".join(f"; {k} is {_human(v)}" for k, v in memory_limits().items()) + ")")


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS reports it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: numba's thread-pool size, read once when numba is first imported.
NUMBA_THREADS_ENV = "NUMBA_NUM_THREADS"


def check_numba_env() -> None:
    """Refuse (``GutsInputError``) a ``NUMBA_NUM_THREADS`` that is set but not an integer in
    ``[1, os.cpu_count()]``.

    Called before numba is imported and where the kernels' thread count is resolved: numba
    itself fails to import at 0 or below (a ``ValueError`` traceback), silently falls back to
    its default for a value ``int()`` cannot read (``abc``, ``1.5``), and takes any larger count,
    whose threads would only wait for one another at every barrier of the kernels.
    """
    text = os.environ.get(NUMBA_THREADS_ENV)
    if text is None:
        return
    cores = os.cpu_count() or 1
    try:
        n = int(text)  # numba's own reading of the variable
    except ValueError:
        n = None
    if n is None or not 1 <= n <= cores:
        raise GutsInputError(f"{NUMBA_THREADS_ENV}={text!r}; accepted: an integer in [1, {cores}] "
                             f"(the machine's cores), or unset")


def check_jobs(jobs) -> int:
    """``jobs`` as a number of processes: -1 (every available core) or 1..available cores."""
    cores = available_cores()
    if isinstance(jobs, bool) or not isinstance(jobs, (numbers.Integral, np.integer)) or jobs == 0 or jobs < -1:
        raise GutsInputError(f"jobs must be -1 (all {cores} cores) or a number of processes in [1, {cores}]; "
                             f"got {jobs!r}")
    if jobs > cores:
        raise GutsInputError(f"jobs must be -1 (all {cores} cores) or a number of processes in [1, {cores}] "
                             f"(the cores available); got {jobs}")
    return int(jobs)
