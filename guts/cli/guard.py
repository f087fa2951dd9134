"""Exit codes of the command line: bad input -> 2, Ctrl-C -> 130.

The library raises (:class:`guts.errors.GutsInputError`, :class:`guts.errors.Interrupted`);
only the command line turns that into a message on stderr and an exit code.  What an
interrupted command published is read from the publications it opened
(:data:`guts._atomic.JOURNAL`), never assumed.
"""
from __future__ import annotations

import sys

from guts import _atomic
from guts.errors import GutsInputError

__all__ = ["guarded", "published_report"]


def published_report(mark: int = 0, loose_mark: int = 0) -> str:
    """What the publications opened (and files written) since the marks made visible, in one clause."""
    return _atomic.describe_publications(_atomic.JOURNAL[mark:], _atomic.LOOSE[loose_mark:])


def guarded(prog: str, func, *args, **kwargs):
    """Run ``func``; return ``(exit_code, result)`` with bad input and Ctrl-C turned into codes.

    :class:`~guts.errors.GutsInputError` prints one line ``<prog>: error: ...`` on stderr and
    gives 2 (naming what was published before the error, if anything was); Ctrl-C prints
    one line saying exactly what was published (``published nothing``, the complete sets,
    or the files of a set whose publication was cut short) and gives 130.  Used by the
    ``guts`` command and the scripts of ``benchmarks/``.
    """
    mark, loose_mark = len(_atomic.JOURNAL), len(_atomic.LOOSE)
    try:
        return 0, func(*args, **kwargs)
    except GutsInputError as exc:
        changed = [p for p in _atomic.JOURNAL[mark:] if p.state in ("published", "broken")] or _atomic.LOOSE[loose_mark:]
        tail = f" ({published_report(mark, loose_mark)} before the error)" if changed else ""
        print(f"{prog}: error: {exc}{tail}", file=sys.stderr)
        return 2, None
    except KeyboardInterrupt as exc:
        done = getattr(exc, "completed", [])  # files written outside a publication (guts.errors.Interrupted)
        report = published_report(mark, loose_mark)
        if done:
            report = f"complete: {', '.join(done)}; " + report.replace(" (no file was changed)", "")
        print(f"\n{prog}: interrupted; {report}", file=sys.stderr)
        return 130, None
