"""Ctrl-C and SIGTERM inside a long CFR+ solve: the numba kernels defer the
signal to the solver's next checkpoint (between two kernel calls), so a real
``guts mercer solve`` ends within about a second with one line and 130 / 143, and never
through numba's ``SystemError``.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
#: 3P-MMH with a check (515 k public states): a 20-35 s CFR+ solve on the 2-core machine.
SOLVE = [sys.executable, "-m", "guts", "mercer", "solve", "mmh", "--players", "3", "--check",
         "--method", "cfr+", "--target", "1e-6"]
#: Seconds from the signal to the exit: one kernel call (< 1 s on a quiet machine) plus slack
#: for a shared, loaded machine. Not a speed claim: the bound of the bug was the whole solve.
MAX_LATENCY = 8.0


def _start_and_wait_for_loop():
    """Start the solve and return once its progress bar (created just before the loop) has
    shown on stderr and a few iterations have run."""
    p = subprocess.Popen(SOLVE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    seen = b""
    while b"cfr+" not in seen:
        ch = p.stderr.read1(4096) if hasattr(p.stderr, "read1") else p.stderr.read(1)
        if not ch:
            out, err = p.communicate()
            pytest.fail(f"the solve ended before its loop: {p.returncode} {err.decode()[-2000:]}")
        seen += ch
    time.sleep(3.0)          # inside the iterations (each well under a second)
    return p, seen


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_inside_cfr_kernels_is_one_line_and_prompt(sig, code):
    p, seen = _start_and_wait_for_loop()
    assert p.poll() is None, "the solve finished before the signal"
    t = time.perf_counter()
    p.send_signal(sig)
    try:
        _, rest = p.communicate(timeout=120)
    finally:
        p.kill()
    latency = time.perf_counter() - t
    err = (seen + rest).decode()
    assert p.returncode == code, err[-2000:]
    assert latency < MAX_LATENCY, latency
    assert "Traceback" not in err and "SystemError" not in err, err[-2000:]
    # the progress bar redraws with carriage returns; what is not the bar is one line
    lines = [seg for ln in err.splitlines() for seg in ln.split("\r") if seg.strip()]
    text = [ln for ln in lines if not ln.startswith("cfr+")]
    assert len(text) == 1 and "interrupted" in text[0], text


def test_signal_handed_to_the_previous_handler_from_python():
    """A signal during a deferred block reaches the handler installed before, at the next
    checkpoint, as a plain exception from Python (no SystemError)."""
    from guts.engine.extensive._interrupt import checkpoint, deferred_signals

    seen = []

    def handler(signum, frame):
        seen.append(signum)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with deferred_signals():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
                assert seen == []            # recorded, not raised
                checkpoint()
        assert seen == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is handler   # restored
    finally:
        signal.signal(signal.SIGINT, old)
