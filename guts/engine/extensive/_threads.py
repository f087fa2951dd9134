"""The ``threads=`` option of the extensive-form solvers (issue 21: both cores).

The numba kernels run their parallel loops (``prange``) on numba's thread pool; this
context manager sets its size for one call and restores it. Results do not depend on the
number of threads (see :mod:`._fused`: no reduction is split between threads).
"""
from __future__ import annotations

import contextlib
import math

from ..._validate import check_int

__all__ = ["using_threads", "max_threads", "auto_threads", "current_threads", "ThreadTuner", "set_threads"]

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


def set_threads(k: int):
    """Inside :func:`using_threads`: run the following kernels with ``k`` threads (restored
    when the block ends)."""
    global _CURRENT
    try:
        import numba
    except ImportError:  # pragma: no cover
        return
    _CURRENT = k
    numba.set_num_threads(k)


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


class ThreadTuner:
    """``threads=None`` in an iterative solver: time iterations with 1 and with
    :func:`max_threads` threads and run the faster (issue 21: both cores).

    Whether two threads help depends on the game's size and on the machine's load, which
    the load average sees late: with one other busy process (load ~1) a parallel region
    waits for its descheduled worker at every barrier (measured: 8 ms per region on the
    2-core machine, 30x a 3P-MMH reach pass), while on a quiet machine two threads make
    3P-MMH iterations 1.8x faster. Results do not depend on the thread count, so measuring
    is free of consequences: iteration 1 runs with the initial choice (:func:`auto_threads`;
    compilation, first touches), then each candidate is timed on ``PROBE`` iterations, the
    faster (by the minimum) runs; the other is re-timed after ``period`` iterations, a
    period that doubles (up to ``MAX_PERIOD``) each time the choice is confirmed, and long
    enough that probes of a much slower count cost at most ``OVERHEAD`` of the time.
    """

    PROBE = 2
    FIRST_PERIOD = 32
    MAX_PERIOD = 1024
    #: A probe stops after one iteration this many times slower than the current choice's.
    GIVE_UP = 1.5
    #: Largest share of the time spent probing a slower thread count.
    OVERHEAD = 0.02

    def __init__(self, threads=None):
        n = max_threads()
        self.fixed = threads is not None or n < 2
        self.choice = (threads if threads is not None else auto_threads()) if n >= 2 else 1
        self.candidates = (1, n)
        self.period = self.FIRST_PERIOD
        self._plan = []              # thread counts of the coming timed iterations
        self._times = {}
        # first measurement at iteration 2; on a saturated machine (the initial choice is one
        # thread) later: a probe of two threads there costs ~10 iterations' time
        self._next_probe = 2 if self.choice > 1 else self.FIRST_PERIOD
        self.switches = []           # (iteration, threads) every time the choice changed

    @property
    def probing(self) -> bool:
        """In the middle of a measurement (the next iterations' thread counts are planned)."""
        return bool(self._plan)

    def threads(self, t: int) -> int:
        """Threads for iteration ``t`` (1-based)."""
        if self.fixed:
            return self.choice
        if not self._plan and t >= self._next_probe:
            other = [k for k in self.candidates if k != self.choice][0]
            self._plan = [self.choice] * self.PROBE + [other] * self.PROBE
            self._times = {}
        return self._plan[0] if self._plan else self.choice

    def record(self, t: int, k: int, seconds: float):
        """Iteration ``t`` ran ``seconds`` with ``k`` threads (its best-response check excluded)."""
        if self.fixed or not self._plan or self._plan[0] != k:
            return
        self._plan.pop(0)
        self._times[k] = min(self._times.get(k, float("inf")), seconds)
        cur = self._times.get(self.choice)
        if self._plan and not (k != self.choice and cur is not None and seconds > self.GIVE_UP * cur):
            return
        self._plan = []               # measured, or the other count is already far slower
        best = min(self._times, key=lambda j: (self._times[j], j))
        if best == self.choice:
            # a probe that was r times slower than an iteration is not repeated before
            # ~r / OVERHEAD iterations (at most OVERHEAD of the time goes to probes)
            r = self._times[k] / cur if k != self.choice and cur else 1.0
            self.period = max(min(2 * self.period, self.MAX_PERIOD), math.ceil(r / self.OVERHEAD))
        else:
            self.choice = best
            self.period = self.FIRST_PERIOD
            self.switches.append((t, best))
        self._next_probe = t + self.period
