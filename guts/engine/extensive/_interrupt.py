"""Ctrl-C and SIGTERM during the numba kernels.

A Python signal handler runs in the main thread between two bytecodes. While a numba
kernel runs there are none: the handler runs when the kernel returns, *inside* numba's
dispatcher, and its exception surfaces as ``SystemError: ... returned a result with an
exception set``, only after the whole kernel. The solvers therefore run their loops under
:func:`deferred_signals`: SIGINT and SIGTERM are recorded by a handler that does not raise,
and the loop calls :func:`checkpoint` between kernel calls (after each player's pass, at
most a fraction of a second apart on the largest games of the package), where the recorded
signal is handed to the handler that was installed before, from plain Python: a
``KeyboardInterrupt`` (or whatever that handler raises) at a clean point of the loop.

Only in the main thread, and only for signals whose handler is a Python function (the
default ``SIGINT`` handler is one; ``SIG_DFL`` or ``SIG_IGN`` are left alone). Nested
blocks defer once. Outside a block :func:`checkpoint` does nothing.
"""
from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["deferred_signals", "checkpoint"]

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
_state = {"depth": 0, "old": {}, "pending": []}


def _record(signum, frame):
    _state["pending"].append((signum, frame))


def _restore():
    for sig, old in _state["old"].items():
        signal.signal(sig, old)
    _state["old"] = {}


def checkpoint() -> None:
    """Hand a signal recorded since the block started to its own handler (which raises)."""
    if _state["pending"]:
        _deliver()


def _deliver():
    signum, frame = _state["pending"][0]
    _state["pending"] = []
    handler = _state["old"].get(signum)
    _restore()                      # a second Ctrl-C now interrupts at once
    if callable(handler):
        handler(signum, frame)


@contextlib.contextmanager
def deferred_signals():
    """Run the block with SIGINT / SIGTERM deferred to the next :func:`checkpoint`."""
    if _state["depth"] or threading.current_thread() is not threading.main_thread():
        _state["depth"] += 1
        try:
            yield
        finally:
            _state["depth"] -= 1
        return
    old = {}
    for sig in _SIGNALS:
        h = signal.getsignal(sig)
        if callable(h):
            old[sig] = h
    _state["old"] = old
    _state["pending"] = []
    _state["depth"] = 1
    try:
        for sig in old:
            signal.signal(sig, _record)
        yield
        checkpoint()                # a signal in the block's last kernel call
    finally:
        _state["depth"] = 0
        pending = _state["pending"]
        handler = _state["old"]
        _restore()
        _state["pending"] = []
        # an exception is already propagating (or the block ended): deliver a signal that
        # arrived meanwhile only if nothing else is on its way
        if pending and handler:
            import sys

            if sys.exc_info()[0] is None:
                h = handler.get(pending[0][0])
                if callable(h):
                    h(*pending[0])
