"""Extensive-form games: poker-shaped public trees over private types, sequence-form LP,
CFR+ / DCFR, fictitious play, best response, exploitability and NashConv.

See ``docs/engine.md`` (the contract every game family codes against) and :mod:`.tree` for the representation.
"""
from .tree import PROB_TOL, ZERO_SUM_TOL, Chance, Deals, Decision, PublicTreeGame, Terminal
from .result import BestResponse, ExtensiveResult
from .strategies import strategy_table, uniform_strategy
from .evaluate import best_response, exploitability, expected_values, nash_conv
from .lp import LP_CERT_TOL, LP_TOL, sequence_form, solve_lp, solve_sequence_form_lp

__all__ = [
    "Deals", "Decision", "Chance", "Terminal", "PublicTreeGame",
    "ExtensiveResult", "BestResponse",
    "uniform_strategy", "strategy_table",
    "best_response", "expected_values", "nash_conv", "exploitability",
    "solve_lp", "solve_sequence_form_lp", "sequence_form",
    "PROB_TOL", "ZERO_SUM_TOL", "LP_TOL", "LP_CERT_TOL",
]
from .cfr import cfr_plus  # noqa: E402

__all__ += ["cfr_plus"]
from .fictitious import fictitious_play  # noqa: E402
from .pool import pool  # noqa: E402

__all__ += ["fictitious_play", "pool"]
from .explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal  # noqa: E402

__all__ += ["ExplicitDecision", "ExplicitChance", "ExplicitTerminal", "ExplicitGame"]
