"""The memory estimates of the guards against the measured peak resident memory.

Each case runs in a fresh process (``benchmarks/memory_calibration.py``: the increment of its
peak RSS, ``VmHWM``, over its RSS just before the request). An estimate must not be below
the measurement (a refusal would refuse what fits... or, worse, let through what does not) and
not above twice it (it would refuse what fits in half the budget).
"""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("memory_calibration", ROOT / "benchmarks" / "memory_calibration.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BENCH = _bench()
#: The quick cases of the benchmark, one per model (a 170 k-state Mercer tree, a 1 v. 2 LP at
#: mesh 101, a 2e7-point mesh), then the two smallest of the double-oracle models.
CASES = [c for c in BENCH.CASES if c[1] in BENCH.QUICK | {"1 v. 3 full mesh 61 oracle",
                                                          "1 v. 5 pseudo-bloc mesh 401"}]


#: Fresh processes measured per case; the smallest increment is kept.  The kernel's proactive
#: reclaim (DAMON "pageout" on these machines) can page out a child's idle start-up pages on a
#: busy machine, so that its RSS before the request is read low and the increment high (seen:
#: 49 MB alone, 81 MB during the whole suite); nothing makes the increment read too low.
ATTEMPTS = 3


def _least_measured(model, params):
    best = None
    for _ in range(ATTEMPTS):
        row = BENCH.measure(model, params, timeout=600)
        if best is None or row["measured"] < best["measured"]:
            best = row
        if 1.0 <= best["ratio"] <= 2.0:
            break
    return best


@pytest.mark.slow
@pytest.mark.parametrize("model,label,params", CASES, ids=[c[1] for c in CASES])
def test_estimate_within_one_and_two_times_measured(model, label, params):
    row = _least_measured(model, params)
    assert row["measured"] > 20 * 2**20, "too small to measure above the allocator's noise"
    assert 1.0 <= row["ratio"] <= 2.0, (label, row["estimate"], row["measured"])


def test_a_child_of_a_large_process_reports_its_own_peak():
    """``ru_maxrss`` survives ``exec`` on Linux (a child forked from a 450 MB test session read
    450 MB); the peak the calibration reads (VmHWM) is the child's own."""
    import subprocess
    import sys

    import numpy as np

    if not Path("/proc/self/status").exists():
        pytest.skip("VmHWM is read from /proc")
    ballast = np.ones(300 * 2**20 // 8)   # 300 MiB resident in this (the parent) process
    code = "from guts._validate import peak_rss_bytes; print(peak_rss_bytes())"
    child = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                               cwd=str(ROOT)).stdout)
    assert ballast.sum() > 0 and child < 200 * 2**20
