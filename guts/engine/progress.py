"""The one progress helper of the library.

``progress`` has one meaning in every public function of :mod:`guts`: a flag, ``True``
shows a tqdm bar on stderr (and the function's occasional status lines above it),
``False`` shows nothing.  The command line maps ``--quiet`` to ``progress=False``.
Library code never calls ``print``; it goes through :func:`progress_bar` and
:func:`progress_note`, so a caller (a notebook, a test, a batch job) controls the output
with that one flag.
"""
from __future__ import annotations

import contextlib
import sys
import threading
from typing import Iterable

__all__ = ["progress_bar", "progress_note", "elapsed_bar", "ELAPSED_BAR_AFTER"]

#: Seconds a step without its own progress count (a tree build) runs in silence before
#: :func:`elapsed_bar` shows that it is still working.
ELAPSED_BAR_AFTER = 5.0


def progress_bar(iterable: Iterable | None = None, *, enabled: bool, total: int | None = None,
                 desc: str = "", leave: bool = False, **kwargs):
    """A tqdm bar on stderr, silent (``disable=True``) unless ``enabled``.

    Use it as tqdm: iterate over it, or ``bar.update(k)`` and ``bar.close()``.
    """
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=leave, disable=not enabled, file=sys.stderr, **kwargs)


def progress_note(enabled: bool, text: str) -> None:
    """One status line on stderr (printed above any open bar) when ``enabled``; nothing otherwise."""
    if enabled:
        from tqdm.auto import tqdm

        tqdm.write(text, file=sys.stderr)


@contextlib.contextmanager
def elapsed_bar(desc: str, *, enabled: bool, after: float = ELAPSED_BAR_AFTER):
    """Show ``desc`` with the seconds elapsed, once the enclosed step has run ``after`` seconds.

    For work that cannot count its own progress (a game tree built in one call): nothing
    is shown for a quick step; a longer one gets a tqdm line on stderr that ticks every
    second until the step ends (and is then cleared).
    """
    if not enabled:
        yield
        return
    done = threading.Event()

    def tick():
        if done.wait(after):
            return
        bar = progress_bar(enabled=True, total=None, desc=desc, bar_format="{desc}: {elapsed} elapsed")
        try:
            while not done.wait(1.0):
                bar.refresh()
        finally:
            bar.close()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
