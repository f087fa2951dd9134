"""Continuous Guts (paper §3-§5): payoffs, strategy spaces, stage games, the 1 v. N coalition
game, m v. n teams, the continuum limit, large N, n-player fictitious play and the guts-bot.

:mod:`.regimes` solves the coalition with communication, ex-ante correlation (the paper's game,
:func:`.coalition.solve_coalition`) or neither: ``solve_coalition_regime(2, "communication")``."""
from guts._lazy import lazy_exports

# imported on first use (PEP 562): importing the family stays cheap
__getattr__, __dir__ = lazy_exports(__name__, {
    **dict.fromkeys(("REGIMES", "RegimeResult", "solve_coalition_regime"), ".regimes"),
})

__all__ = ["REGIMES", "RegimeResult", "solve_coalition_regime"]
