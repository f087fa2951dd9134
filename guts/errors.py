"""The package's exception and warning classes, in one place.

Every module raises these (and only these) so that no module has to import a solver
just to catch or emit its warning class; the CLI turns :class:`GutsInputError` into one
line on stderr and exit code 2.
"""
from __future__ import annotations

__all__ = ["GutsInputError", "SolverError", "ConvergenceWarning", "guarded"]


class GutsInputError(ValueError):
    """Bad input to a public function of :mod:`guts` (bad mesh, size, option ...)."""


class SolverError(RuntimeError):
    """A solver failed (e.g. HiGHS did not report an optimal solution)."""


class ConvergenceWarning(UserWarning):
    """A method stopped before meeting its tolerance."""


def guarded(prog: str, func, *args, **kwargs):
    """Run ``func``; return ``(exit_code, result)`` with bad input and Ctrl-C turned into codes.

    :class:`GutsInputError` prints one line ``<prog>: error: ...`` on stderr and gives 2;
    Ctrl-C prints one line and gives 130 (outputs are written atomically, so nothing is
    half-written).  Shared by the ``guts`` command and the study scripts.
    """
    import sys

    try:
        return 0, func(*args, **kwargs)
    except GutsInputError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2, None
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted; no partial output was written", file=sys.stderr)
        return 130, None
