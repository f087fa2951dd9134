"""The ``threads=`` option of the extensive-form solvers (issue 21: both cores).

The numba kernels run their parallel loops (``prange``) on numba's thread pool; this
context manager sets its size for one call and restores it. Results do not depend on the
number of threads (see :mod:`._fused`: no reduction is split between threads).
"""
from __future__ import annotations

import contextlib

from ..._validate import check_int

__all__ = ["using_threads", "max_threads", "auto_threads", "current_threads"]

#: The thread count set by the innermost :func:`using_threads` (None outside one).
_CURRENT = None


def current_threads() -> int:
    """numba's thread count for the kernels: the one :func:`using_threads` set (read from
    a module variable: ``numba.get_num_threads()`` costs a few microseconds, and the small
    games' passes ask a dozen times per iteration), else numba's own."""
    if _CURRENT is not None:
        return _CURRENT
    try:
        import numba
    except ImportError:  # pragma: no cover
        return 1
    return numba.get_num_threads()


def max_threads() -> int:
    """Largest accepted ``threads``: numba's pool size (``NUMBA_NUM_THREADS``, by default
    the number of cores), 1 without numba."""
    try:
        import numba
    except ImportError:  # pragma: no cover
        return 1
    return int(numba.config.NUMBA_NUM_THREADS)


def auto_threads() -> int:
    """The default (``threads=None``): every core numba may use, or 1 when the machine is
    already saturated (1-minute load average >= that number of cores).

    On a shared, loaded machine a parallel region waits for its slowest thread at every
    barrier, and a descheduled thread stalls it for a time slice: measured on the 2-core
    machine at a load of 12-14, two threads made 3P-MMH iterations 8-13x *slower* than one.
    Results do not depend on the thread count, so this choice never changes a result.
    """
    import os

    n = max_threads()
    try:
        busy = int(os.getloadavg()[0])
    except (AttributeError, OSError):  # pragma: no cover - no load average on this OS
        busy = 0
    return n if busy < n else 1


def check_threads(threads) -> int | None:
    """``None`` (every core numba may use) or an int in ``[1, max_threads()]``."""
    if threads is None:
        return None
    return check_int("threads", threads, 1, max_threads())


@contextlib.contextmanager
def using_threads(threads):
    """Run the block with ``threads`` numba threads (``None``: :func:`auto_threads`)."""
    threads = check_threads(threads)
    try:
        import numba
    except ImportError:  # pragma: no cover
        yield
        return
    global _CURRENT
    old, old_current = numba.get_num_threads(), _CURRENT
    _CURRENT = auto_threads() if threads is None else threads
    numba.set_num_threads(_CURRENT)
    try:
        yield
    finally:
        numba.set_num_threads(old)
        _CURRENT = old_current
