"""Extensive-form games: poker-shaped public trees over private types, sequence-form LP,
CFR+ / DCFR, fictitious play, best response, exploitability and NashConv, team games
(:func:`solve_team`: a team against one adversary with communication, correlation or
neither).

See ``docs/engine.md`` (the contract every game family codes against) and :mod:`.tree` for the representation.

The game representation (:mod:`.tree`, :mod:`.result`, :func:`pool`) is imported at once;
the solvers (numba, scipy, pandas) on first use (PEP 562), so that building a game or
``import guts.games.<family>`` stays cheap.
"""
from guts._lazy import lazy_exports

from .tree import PROB_TOL, ZERO_SUM_TOL, Chance, Deals, Decision, GameSize, PublicTreeGame, Terminal, estimate_size
from .result import BestResponse, ExtensiveResult
from .pool import pool  # eager: the name ``pool`` is also a submodule (a lazy name would be shadowed by it)

__getattr__, __dir__ = lazy_exports(__name__, {
    **dict.fromkeys(("strategy_table", "uniform_strategy"), ".strategies"),
    **dict.fromkeys(("best_response", "exploitability", "expected_values", "nash_conv"), ".evaluate"),
    **dict.fromkeys(("LP_CERT_TOL", "LP_TOL", "sequence_form", "solve_lp", "solve_sequence_form_lp"), ".lp"),
    "cfr_plus": ".cfr",
    **dict.fromkeys(("solve_team", "merged_game", "correlated_upper_bound", "TeamResult", "TEAM_REGIMES"),
                  ".team"),
    "fictitious_play": ".fictitious",
    **dict.fromkeys(("ExplicitChance", "ExplicitDecision", "ExplicitGame", "ExplicitTerminal"), ".explicit"),
    **dict.fromkeys(("OpenSpielLink", "from_openspiel", "openspiel_link", "to_openspiel_policy"), ".openspiel"),
    "to_openspiel_game": ".openspiel_export",
    **dict.fromkeys(("efg_text", "read_efg", "write_efg"), ".efg"),
    "load_solution": ".persist",
    "game_fingerprint": ".fingerprint",
})

__all__ = [
    "Deals", "Decision", "Chance", "Terminal", "PublicTreeGame",
    "ExtensiveResult", "BestResponse",
    "uniform_strategy", "strategy_table",
    "best_response", "expected_values", "nash_conv", "exploitability",
    "solve_lp", "solve_sequence_form_lp", "sequence_form",
    "PROB_TOL", "ZERO_SUM_TOL", "LP_TOL", "LP_CERT_TOL",
    "cfr_plus", "fictitious_play", "pool",
    "solve_team", "merged_game", "correlated_upper_bound", "TeamResult", "TEAM_REGIMES",
    "ExplicitDecision", "ExplicitChance", "ExplicitTerminal", "ExplicitGame",
    "GameSize", "estimate_size",
    "from_openspiel", "to_openspiel_policy", "openspiel_link", "OpenSpielLink", "to_openspiel_game",
    "read_efg", "write_efg", "efg_text",
    "load_solution", "game_fingerprint",
]
