"""guts: generalized recursive games and n-player continuous Guts poker.

Reproduces and extends Buck, Lee, Platnick, Wheeler and Zumbrun, *Continuous Guts
Poker and Numerical Optimization of Generalized Recursive Games* (2022).

Layout: :mod:`guts.engine` (game-agnostic solvers), :mod:`guts.games` (one package per
game family, e.g. :mod:`guts.games.guts`), :mod:`guts.studies` (the artefacts written to
``results/``), :mod:`guts.cli` (the ``guts`` command), :mod:`guts.errors`.
"""
__version__ = "0.1.0"

from guts._lazy import lazy_exports
from guts.errors import ConvergenceWarning, GutsInputError, SolverError

# imported on first use (PEP 562): ``import guts`` and ``guts --help`` stay cheap
__getattr__, __dir__ = lazy_exports(__name__, {
    "certify": "guts.engine.recursive",
    "fixed_point": "guts.engine.recursive",
    "load_solution": "guts.engine.extensive.persist",
    "Solution": "guts.engine.result",
    "Certificate": "guts.engine.result",
    "CoalitionResult": "guts.games.guts.coalition",
    "solve_coalition": "guts.games.guts.coalition",
})

__all__ = [
    "Solution",
    "Certificate",
    "GutsInputError",
    "CoalitionResult",
    "solve_coalition",
    "ConvergenceWarning",
    "SolverError",
    "certify",
    "fixed_point",
    "load_solution",
    "__version__",
]
