"""Extensive-form games: poker-shaped public trees over private types, sequence-form LP,
CFR+ / DCFR, fictitious play, best response, exploitability and NashConv.

See ``docs/engine.md`` (the contract every game family codes against) and :mod:`.tree` for the representation.
"""
from .tree import PROB_TOL, ZERO_SUM_TOL, Chance, Deals, Decision, GameSize, PublicTreeGame, Terminal, estimate_size
from .result import BestResponse, ExtensiveResult
from .strategies import strategy_table, uniform_strategy
from .evaluate import best_response, exploitability, expected_values, nash_conv
from .lp import LP_CERT_TOL, LP_TOL, sequence_form, solve_lp

__all__ = [
    "Deals", "Decision", "Chance", "Terminal", "PublicTreeGame", "GameSize", "estimate_size",
    "ExtensiveResult", "BestResponse",
    "uniform_strategy", "strategy_table",
    "best_response", "expected_values", "nash_conv", "exploitability",
    "solve_lp", "sequence_form",
    "PROB_TOL", "ZERO_SUM_TOL", "LP_TOL", "LP_CERT_TOL",
]
from .cfr import cfr_plus  # noqa: E402

__all__ += ["cfr_plus"]
from .fictitious import fictitious_play  # noqa: E402
from .pool import pool  # noqa: E402

__all__ += ["fictitious_play", "pool"]
from .explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal  # noqa: E402

__all__ += ["ExplicitDecision", "ExplicitChance", "ExplicitTerminal", "ExplicitGame"]
from .openspiel import OpenSpielLink, from_openspiel, openspiel_link, to_openspiel_policy  # noqa: E402

__all__ += ["from_openspiel", "to_openspiel_policy", "openspiel_link", "OpenSpielLink"]
from .efg import efg_text, read_efg, write_efg  # noqa: E402

__all__ += ["read_efg", "write_efg", "efg_text"]
