"""Alias of :mod:`guts.games.poker.mercer`: Mercer hold'em moved into the poker family, whose
generic builder it shares; ``guts.games.mercer`` and its old submodules still
import, each as the very module of its new home (registered in ``sys.modules``; no files
here, so that git follows the moved files).  ``tables`` and ``eqrange`` (pandas, the LP
range) are not aliased, to keep this import light: import them from
``guts.games.poker.mercer``."""
import sys as _sys

import guts.games.poker.builder
import guts.games.poker.cards
import guts.games.poker.evaluators
import guts.games.poker.mercer.paper
import guts.games.poker.mercer.solve
import guts.games.poker.rules  # noqa: F401

# by sys.modules, not by attribute: the package attribute ``solve`` is the function
for _sub, _home in (("builder", "guts.games.poker.builder"), ("rules", "guts.games.poker.rules"),
                    ("cards", "guts.games.poker.cards"), ("evaluators", "guts.games.poker.evaluators"),
                    ("solve", "guts.games.poker.mercer.solve"), ("paper", "guts.games.poker.mercer.paper")):
    _sys.modules[f"{__name__}.{_sub}"] = _sys.modules[_home]
del guts        # the name bound by the imports above, not part of the alias

from guts.games.poker.mercer import *  # noqa: F401,F403,E402
from guts.games.poker.mercer import __all__  # noqa: F401,E402
