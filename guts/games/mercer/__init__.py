"""Alias of :mod:`guts.games.poker.mercer`: Mercer hold'em moved into the poker family, whose
generic builder it shares (issue 24); ``guts.games.mercer`` and its submodules still import.
Each submodule here IS the module of its new home (``sys.modules`` alias)."""
# the alias submodules are loaded first, so that the public names below (e.g. the function
# ``solve``) are not replaced by the submodule of the same name on a later import
from . import builder, cards, eqrange, evaluators, paper, rules, solve, tables  # noqa: F401
from guts.games.poker.mercer import *  # noqa: F401,F403,E402
from guts.games.poker.mercer import __all__  # noqa: F401,E402
