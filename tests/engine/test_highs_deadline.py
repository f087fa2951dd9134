"""A time-limited MILP never outlives its limit: HiGHS's own limit is not read in every
phase, so the solve runs in a child process that is killed at the deadline."""
import math
import multiprocessing
import time

import numpy as np
import scipy.sparse as sp

import guts.engine.highs as H


def _knapsack():
    # max 5a + 4b + 3c over binaries s.t. 2a + 3b + c <= 5, 4a + b + 2c <= 11, 3a + 4b + 2c <= 8
    # (all three together break the first row): checked by enumeration below
    M = sp.csr_matrix(np.array([[2.0, 3, 1], [4, 1, 2], [3, 4, 2]]))
    return np.array([5.0, 4, 3]), np.zeros(3), np.ones(3), M, np.full(3, -np.inf), np.array([5.0, 11, 8])


def _brute_force(cost, M, hi):
    best = -math.inf
    for bits in range(8):
        x = np.array([(bits >> i) & 1 for i in range(3)], dtype=float)
        if np.all(M @ x <= hi + 1e-12):
            best = max(best, float(cost @ x))
    return best


def test_a_time_limited_milp_gives_the_unlimited_answer():
    cost, lo, up, M, rlo, rhi = _knapsack()
    integer = np.ones(3, dtype=bool)
    free = H.milp(cost, lo, up, M, rlo, rhi, integer, maximize=True)
    limited = H.milp(cost, lo, up, M, rlo, rhi, integer, maximize=True, time_limit=30.0)
    assert free[3] and limited[3]
    assert abs(free[1] - _brute_force(cost, M, rhi)) < 1e-9
    assert abs(limited[1] - free[1]) < 1e-9 and np.allclose(limited[0], free[0])


def test_a_solve_that_ignores_its_limit_is_killed_at_the_deadline(monkeypatch):
    cost, lo, up, M, rlo, rhi = _knapsack()

    def stuck(h, what):           # a HiGHS phase that never reads the clock
        time.sleep(120)

    monkeypatch.setattr(H, "_milp_answer", stuck)
    monkeypatch.setattr(H, "MILP_DEADLINE_GRACE", 0.5)
    t = time.perf_counter()
    x, obj, bound, optimal = H.milp(cost, lo, up, M, rlo, rhi, np.ones(3, dtype=bool), maximize=True,
                                    time_limit=0.5)
    assert time.perf_counter() - t < 10
    assert x is None and obj == -math.inf and bound == math.inf and not optimal
    assert multiprocessing.active_children() == []
