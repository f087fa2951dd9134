"""The package's exception and warning classes, in one place.

Every module raises these (and only these) so that no module has to import a solver
just to catch or emit its warning class; the CLI turns :class:`GutsInputError` into one
line on stderr and exit code 2 (:func:`guts.cli.guard.guarded`: exit codes live in the cli).
"""
from __future__ import annotations

__all__ = ["GutsInputError", "SolverError", "ConvergenceWarning", "Interrupted"]


class GutsInputError(ValueError):
    """Bad input to a public function of :mod:`guts` (bad mesh, size, option ...)."""


class SolverError(RuntimeError):
    """A solver failed (e.g. HiGHS did not report an optimal solution)."""


class ConvergenceWarning(UserWarning):
    """A method stopped before meeting its tolerance."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a multi-stage command, after some of its artefacts were written.

    ``completed`` lists the files that are complete (each written atomically).
    """

    def __init__(self, completed=()):
        super().__init__()
        self.completed = [str(c) for c in completed]
