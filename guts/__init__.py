"""guts: generalized recursive games and n-player continuous Guts poker.

Reproduces and extends Buck, Lee, Platnick, Wheeler and Zumbrun, *Continuous Guts
Poker and Numerical Optimization of Generalized Recursive Games* (2022).

Layout: :mod:`guts.engine` (game-agnostic solvers), :mod:`guts.games` (one package per
game family, e.g. :mod:`guts.games.guts`), :mod:`guts.studies` (the artefacts written to
``results/``), :mod:`guts.cli` (the ``guts`` command), :mod:`guts.errors`.
"""
__version__ = "0.1.0"

from guts.engine.recursive import certify, fixed_point
from guts.errors import ConvergenceWarning, GutsInputError, SolverError
from guts.games.guts.coalition import CoalitionResult, solve_coalition

__all__ = [
    "GutsInputError",
    "CoalitionResult",
    "solve_coalition",
    "ConvergenceWarning",
    "SolverError",
    "certify",
    "fixed_point",
    "__version__",
]
