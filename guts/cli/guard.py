"""Exit codes of the command line: bad input -> 2, Ctrl-C -> 130 (issue 15, moved here in issue 19).

The library raises (:class:`guts.errors.GutsInputError`, :class:`guts.errors.Interrupted`);
only the command line turns that into a message on stderr and an exit code.
"""
from __future__ import annotations

import sys

from guts.errors import GutsInputError

__all__ = ["guarded"]


def guarded(prog: str, func, *args, **kwargs):
    """Run ``func``; return ``(exit_code, result)`` with bad input and Ctrl-C turned into codes.

    :class:`~guts.errors.GutsInputError` prints one line ``<prog>: error: ...`` on stderr and
    gives 2; Ctrl-C prints one line and gives 130 (outputs are written atomically, so nothing
    is half-written).  Used by the ``guts`` command and the scripts of ``benchmarks/``.
    """
    try:
        return 0, func(*args, **kwargs)
    except GutsInputError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2, None
    except KeyboardInterrupt as exc:
        done = getattr(exc, "completed", [])
        print(f"\n{prog}: interrupted; " + (f"complete: {', '.join(done)}; nothing else was written" if done
                                             else "no partial output was written"), file=sys.stderr)
        return 130, None
