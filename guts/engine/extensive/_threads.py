"""The ``threads=`` option of the extensive-form solvers (issue 21: both cores).

The numba kernels run their parallel loops (``prange``) on numba's thread pool; this
context manager sets its size for one call and restores it. Results do not depend on the
number of threads (see :mod:`._fused`: no reduction is split between threads).
"""
from __future__ import annotations

import contextlib

from ..._validate import check_int

__all__ = ["using_threads", "max_threads"]


def max_threads() -> int:
    """Largest accepted ``threads``: numba's pool size (``NUMBA_NUM_THREADS``, by default
    the number of cores), 1 without numba."""
    try:
        import numba
    except ImportError:  # pragma: no cover
        return 1
    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(threads) -> int | None:
    """``None`` (every core numba may use) or an int in ``[1, max_threads()]``."""
    if threads is None:
        return None
    return check_int("threads", threads, 1, max_threads())


@contextlib.contextmanager
def using_threads(threads):
    """Run the block with ``threads`` numba threads (``None``: all of them)."""
    threads = check_threads(threads)
    try:
        import numba
    except ImportError:  # pragma: no cover
        yield
        return
    old = numba.get_num_threads()
    numba.set_num_threads(max_threads() if threads is None else threads)
    try:
        yield
    finally:
        numba.set_num_threads(old)
