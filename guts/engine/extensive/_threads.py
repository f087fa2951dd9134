"""The ``threads=`` option of the extensive-form solvers (both cores).

The numba kernels run their parallel loops (``prange``) on numba's thread pool; this
context manager sets its size for one call and restores it. Results do not depend on the
number of threads (see :mod:`._fused`: no reduction is split between threads).
"""
from __future__ import annotations

import contextlib
import math
import threading
import time

import numpy as np

from ..._validate import check_int, check_numba_env

__all__ = ["using_threads", "max_threads", "auto_threads", "current_threads", "threads_now", "ThreadTuner",
           "set_threads"]

# Per Python thread, as numba's own thread count: ``current`` = the count set by the
# innermost :func:`using_threads` (None outside one); ``verify`` = inside
# ``using_threads(None)``, check :func:`regions_prompt` before the first parallel kernel.
_local = threading.local()


def current_threads() -> int:
    """numba's thread count for the kernels: the one :func:`using_threads` set (read from
    a module variable: ``numba.get_num_threads()`` costs a few microseconds, and the small
    games' passes ask a dozen times per iteration), else numba's own. Called by a kernel
    about to run in parallel: under the default, the first such call checks that parallel
    regions are prompt on the machine now, and falls back to one thread if not."""
    cur = getattr(_local, "current", None)
    if cur is not None:
        if cur > 1 and _local.verify:
            _local.verify = False
            t = time.perf_counter()
            if not regions_prompt(cur):
                set_threads(1)
                cur = 1
            _local.check_seconds = check_seconds() + time.perf_counter() - t
        return cur
    try:
        import numba
    except ImportError:  # pragma: no cover
        return 1
    return numba.get_num_threads()


def check_seconds() -> float:
    """Seconds this Python thread has spent in the default's pool checks (a solver
    subtracts them from the iteration it times)."""
    return getattr(_local, "check_seconds", 0.0)


def threads_now() -> int | None:
    """The thread count :func:`using_threads` set, as is (no check; None outside one)."""
    return getattr(_local, "current", None)


def max_threads() -> int:
    """Largest accepted ``threads``: numba's pool size (``NUMBA_NUM_THREADS``, by default
    the number of cores), 1 without numba; ``GutsInputError`` if ``NUMBA_NUM_THREADS`` is
    set to anything but an integer in [1, cores] (:func:`guts._validate.check_numba_env`)."""
    check_numba_env()
    try:
        import numba
    except ImportError:  # pragma: no cover
        return 1
    return int(numba.config.NUMBA_NUM_THREADS)


def auto_threads() -> int:
    """The default (``threads=None``): every core numba may use, or 1 when the machine is
    already saturated (1-minute load average >= that number of cores); inside
    :func:`using_threads`, also 1 when a bare parallel region is slow
    (:func:`regions_prompt`, measured before the first kernel that would run in parallel:
    a small game whose kernels all run serially compiles and measures nothing).

    On a shared, loaded machine a parallel region waits for its slowest thread at every
    barrier, and a descheduled thread stalls it for a time slice: measured on the 2-core
    machine at a load of 12-14, two threads made 3P-MMH iterations 8-13x *slower* than one;
    beside a single busy process (load ~1.6, which the load rule lets through) a bare
    region took 8 ms instead of 2 us. Results do not depend on the thread count, so this
    choice never changes a result.
    """
    import os

    n = max_threads()
    try:
        busy = int(os.getloadavg()[0])
    except (AttributeError, OSError):  # pragma: no cover - no load average on this OS
        busy = 0
    return n if n >= 2 and busy < n else 1


#: A bare parallel region slower than this (seconds, three times in a row) means the pool's
#: threads are not run promptly (quiet 2-core machine: ~2 us; beside one busy process: 8 ms).
SLOW_REGION = 5e-4
#: :func:`regions_prompt` is measured at most once per this many seconds.
PROMPT_TTL = 2.0
_prompt_cache = {}


def regions_prompt(n: int) -> bool:
    """Do parallel regions of ``n`` threads start and end promptly on this machine now?
    (one of up to three bare regions under :data:`SLOW_REGION`; cached :data:`PROMPT_TTL` s)."""
    now = time.monotonic()
    hit = _prompt_cache.get(n)
    if hit is not None and now - hit[0] < PROMPT_TTL:
        return hit[1]
    try:
        import numba

        from ._fused import null_region
    except ImportError:  # pragma: no cover
        return False
    x = np.zeros(n)
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        ok = False
        for _ in range(3):
            t = time.perf_counter()
            null_region(x)
            if time.perf_counter() - t < SLOW_REGION:
                ok = True
                break
    finally:
        numba.set_num_threads(old)
    _prompt_cache[n] = (time.monotonic(), ok)
    return ok


def check_threads(threads) -> int | None:
    """``None`` (every core numba may use) or an int in ``[1, max_threads()]``; ``GutsInputError``
    either way if ``NUMBA_NUM_THREADS`` is invalid (:func:`guts._validate.check_numba_env`)."""
    check_numba_env()
    if threads is None:
        return None
    return check_int("threads", threads, 1, max_threads())


def set_threads(k: int):
    """Inside :func:`using_threads`: run the following kernels with ``k`` threads (restored
    when the block ends)."""
    try:
        import numba
    except ImportError:  # pragma: no cover
        return
    _local.current = k
    numba.set_num_threads(k)


@contextlib.contextmanager
def using_threads(threads):
    """Run the block with ``threads`` numba threads (``None``: :func:`auto_threads`, with
    the parallel regions' promptness checked before the first parallel kernel)."""
    threads = check_threads(threads)
    try:
        import numba
    except ImportError:  # pragma: no cover
        yield
        return
    old = numba.get_num_threads()
    old_current, old_verify = getattr(_local, "current", None), getattr(_local, "verify", False)
    _local.current = auto_threads() if threads is None else threads
    _local.verify = threads is None
    numba.set_num_threads(_local.current)
    try:
        yield
    finally:
        numba.set_num_threads(old)
        _local.current, _local.verify = old_current, old_verify


class ThreadTuner:
    """``threads=None`` in an iterative solver: time iterations with 1 and with
    :func:`max_threads` threads and run the faster (both cores).

    Whether two threads help depends on the game's size and on the machine's load, which
    the load average sees late: with one other busy process (load ~1) a parallel region
    waits for its descheduled worker at every barrier (measured: 3P-MMH without a check,
    100 ms per iteration with two threads, 1 ms with one), while on a quiet machine two
    threads make 3P-MMH iterations 1.8x faster. Results do not depend on the thread count,
    so measuring is free of consequences: iteration 1 runs with the initial choice
    (:func:`auto_threads`) untimed (compilation, first touches), the following ones are
    timed; from iteration 3 the other count is timed on up to ``PROBE`` iterations (one if
    it is ``GIVE_UP`` times slower) and the faster by the minimum is kept. The other count
    is re-timed after ``period`` iterations, a period that doubles (up to ``MAX_PERIOD``)
    each time the choice holds, and long enough that probes of a much slower count cost at
    most ``OVERHEAD`` of the time, or at once when a step of the choice is ``REPROBE``
    times slower than the other count was at its last probe (the load changed).

    "Iteration" above is the solver's step: one call of its update, which is one CFR
    iteration or, for a small game compiled whole, a chunk of them (~20 ms); the times
    recorded are per CFR iteration.
    """

    PROBE = 2
    FIRST_PERIOD = 32
    MAX_PERIOD = 1024
    #: A probe stops after one iteration this many times slower than the current choice's.
    GIVE_UP = 1.5
    #: Largest share of the time spent probing a slower thread count.
    OVERHEAD = 0.02
    #: The other count is probed again at once after a step of the choice this many times
    #: slower than the other count was at its last probe.
    REPROBE = 1.1

    def __init__(self, threads=None, first_probe: int = 3, first_period: int | None = None, mean: bool = False):
        n = max_threads()
        self.fixed = threads is not None or n < 2
        self.choice = (threads if threads is not None else auto_threads()) if n >= 2 else 1
        self.candidates = (1, n)
        # steps of ~20 ms (a chunked solver) are re-probed sooner than single iterations, and
        # compared by their mean: a chunk already averages its iterations, and the minimum
        # over chunks favours the count whose time varies most (two threads beside a busy
        # process: one lucky chunk at 54 us per iteration, the others 90-900 us)
        self.first_period = self.FIRST_PERIOD if first_period is None else first_period
        self.period = self.first_period
        self.mean = mean
        self._left = 0               # probe iterations still to run with the other count
        self._probe = _Timing(mean)  # their time per iteration
        self._recent = _Timing(mean)  # the current choice's since the last probe
        self._next_probe = first_probe
        self.decided = self.fixed    # the first probe has decided
        self._other = math.inf       # the other count's time at the last probe
        self._last = {}              # threads -> the last time per iteration recorded
        self.switches = []           # (iteration, threads) every time the choice changed

    @property
    def other(self) -> int:
        return self.candidates[0] if self.choice == self.candidates[1] else self.candidates[1]

    @property
    def probing(self) -> bool:
        """In the middle of a measurement of the other count."""
        return self._left > 0

    @property
    def slowdown(self) -> float:
        """How many times slower per iteration the other count was, when last timed, than
        the choice was when last timed (1 when either is unknown or the other was faster):
        a chunked solver shortens a probe's step by this much."""
        a, b = self._last.get(self.other), self._last.get(self.choice)
        if a is None or b is None:
            return 1.0
        return max(1.0, a / b)

    def threads(self, t: int) -> int:
        """Threads for step ``t`` (1-based)."""
        if self.fixed:
            return self.choice
        if not self._left and t >= self._next_probe and self._recent.value < math.inf:
            self._left, self._probe = self.PROBE, _Timing(self.mean)
        return self.other if self._left else self.choice

    def record(self, t: int, k: int, seconds: float, iterations: int = 1):
        """Step ``t`` ran ``iterations`` iterations, ``seconds`` per iteration, with ``k``
        threads (its best-response check excluded)."""
        if self.fixed or t < 2:
            return
        self._last[k] = seconds
        if not self._left and k != self.choice:
            # the count was changed under us (using_threads' check of a slow pool): follow it
            self.choice, self._recent = k, _Timing(self.mean)
            return
        if self._left and k != self.other:
            # the probe's count was refused (the same check): a lost probe, not soon repeated
            self._left = 0
            self.period = self.MAX_PERIOD
            self._next_probe = t + self.period
            return
        if not self._left:
            if k == self.choice:
                self._recent.add(seconds, iterations)
                if seconds > self.REPROBE * self._other:
                    # the load changed: this step of the choice was slower than the other
                    # count at its last probe; probe again at once instead of after the period
                    # (the probe costs about what this step did)
                    self._next_probe = min(self._next_probe, t + 1)
            return
        self._left -= 1
        self._probe.add(seconds, iterations)
        probe, recent = self._probe.value, self._recent.value
        slower = probe > self.GIVE_UP * recent
        if self._left and not slower:
            return
        self._left = 0
        self.decided = True
        if probe < recent:
            self.choice = k
            self.period = self.first_period
            self.switches.append((t, k))
            self._recent, self._probe = self._probe, _Timing(self.mean)
            self._other = recent
        else:
            self._other = probe
            # a probe r times slower than an iteration is not repeated before ~r / OVERHEAD
            # iterations (at most OVERHEAD of the time goes to probes)
            r = probe / recent
            self.period = max(min(2 * self.period, self.MAX_PERIOD), math.ceil(r / self.OVERHEAD))
            self._recent = _Timing(self.mean)     # re-measured from the next iterations (the load changes)
        self._next_probe = t + self.period


class _Timing:
    """A thread count's time per iteration over the steps recorded: their minimum, or with
    ``mean`` their total over their iterations."""

    def __init__(self, mean: bool):
        self.mean = mean
        self.best = math.inf
        self.seconds = 0.0
        self.iterations = 0

    def add(self, seconds: float, iterations: int):
        self.best = min(self.best, seconds)
        self.seconds += seconds * iterations
        self.iterations += iterations

    @property
    def value(self) -> float:
        if not self.mean:
            return self.best
        return self.seconds / self.iterations if self.iterations else math.inf
