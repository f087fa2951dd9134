"""guts: generalized recursive games and n-player continuous Guts poker.

Reproduces and extends Buck, Lee, Platnick, Wheeler and Zumbrun, *Continuous Guts
Poker and Numerical Optimization of Generalized Recursive Games* (2022).
"""
from ._validate import GutsInputError
from .game import CoalitionResult, solve_coalition
from .matgame import ConvergenceWarning, SolverError
from .recursive import certify, fixed_point

__version__ = "0.1.0"

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
