"""The one progress helper of the library.

``progress`` has one meaning in every public function of :mod:`guts`: a flag, ``True``
shows a tqdm bar on stderr (and the function's occasional status lines above it),
``False`` shows nothing.  The command line maps ``--quiet`` to ``progress=False``.
Library code never calls ``print``; it goes through :func:`progress_bar` and
:func:`progress_note`, so a caller (a notebook, a test, a batch job) controls the output
with that one flag.
"""
from __future__ import annotations

import sys
from typing import Iterable

__all__ = ["progress_bar", "progress_note"]


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
