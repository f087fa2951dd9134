"""Continuous poker (Spears, *Limit Continuous Poker*, 2025): von Neumann's fixed-bet game,
Newman's no-limit game and limit continuous poker (bets in [L, U]) in closed form, with the
value of the limit game, continuum best-response checks and discretised games for the
engine's sequence-form LP.

>>> from guts.games.continuous_poker import von_neumann, newman, limit_poker
>>> round(limit_poker(min_bet=0.5, max_bet=1.0).value, 9)
0.06127285
"""
from .closed_forms import (
    ANTE,
    POT,
    LimitPoker,
    NewmanPoker,
    Region,
    VonNeumannPoker,
    limit_poker,
    limit_value,
    newman,
    von_neumann,
)

__all__ = [
    "ANTE",
    "POT",
    "LimitPoker",
    "NewmanPoker",
    "Region",
    "VonNeumannPoker",
    "limit_poker",
    "limit_value",
    "newman",
    "von_neumann",
]
