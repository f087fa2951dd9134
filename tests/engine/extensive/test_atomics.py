"""The spinning barrier of the small games' CFR kernel (:mod:`guts.engine.extensive._atomics`):
what one thread wrote before a barrier is what the others read after it, and a region whose
threads do not all run at once is refused before any work instead of waiting forever."""
import numba
import numpy as np
import pytest
from numba import njit, prange

from guts.engine.extensive import _atomics as A
from guts.engine.extensive._threads import max_threads


@njit(parallel=True)
def _lockstep(ctl, x, rounds):
    """Each thread bumps its counter, then after a barrier checks every other counter has
    the same value; counts the mismatches in ``x[n]``."""
    n = x.shape[0] - 1
    for b in prange(n):
        if A.start(ctl, n):
            gen = 0
            for r in range(rounds):
                x[b] += 1
                gen = A.barrier(ctl, n, gen)
                for c in range(n):
                    if x[c] != r + 1:
                        A.atomic_add(x, n, 1)
                gen = A.barrier(ctl, n, gen)
    return ctl[A.STATE]


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_barrier_keeps_the_threads_in_lockstep():
    old = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        x = np.zeros(3, dtype=np.int64)
        assert _lockstep(A.control(), x, 20_000) == 1
    finally:
        numba.set_num_threads(old)
    assert x.tolist() == [20_000, 20_000, 0]


def test_a_region_run_on_one_thread_is_refused_before_any_work():
    old = numba.get_num_threads()
    numba.set_num_threads(1)        # the region's two iterations run one after the other
    try:
        x = np.zeros(3, dtype=np.int64)
        assert _lockstep(A.control(spins=10_000), x, 5) == 2
    finally:
        numba.set_num_threads(old)
    assert x.tolist() == [0, 0, 0]
