"""The dividing-point method of Hundal and Reitzen, US patent 6,129,631: threshold strategies of one-round
two-player betting games on uniform [0, 1] hands, from the rules.

Pipeline (the patent's FIG. 9 / FIG. 31, every step derived or checked):

* :mod:`.rules` -- the game as data (:class:`BettingRules`); the action sequences, plans and
  the outcome table (Tables 8, 10, 11) are derived from it;
* :mod:`.layout` -- the assumed order of the dividing points;
* :mod:`.expected` -- ``E1`` as an exact polynomial from the region geometry;
* :mod:`.method` -- partial derivatives, solved exactly (linear for a numeric pot), and the
  result certified by :mod:`.continuum` (exact best responses on the continuum);
* :mod:`.discrete` / :mod:`.infer` -- the mesh game solved by the engine's LP, and the order
  read from it;
* :mod:`.patent` -- the four games "a"-"d"; :mod:`.printed` -- the printed equations checked;
* :mod:`.hands` -- dividing points on a discrete ranked hand list (FIG. 29).

``value`` everywhere is P1's expected net gain per game, his ante included (the patent's
``E1``; 1/18 ≈ 0.056 for game "a" at P = 1).
"""
from guts._lazy import lazy_exports

# imported on first use (PEP 562): the method needs sympy, the mesh game the LP
__getattr__, __dir__ = lazy_exports(__name__, {
    "best_response_gains": ".continuum",
    "strategy_from_points": ".continuum",
    "expected_return": ".expected",
    "hand_strategy": ".hands",
    "split_at": ".hands",
    "Layout": ".layout",
    "make_layout": ".layout",
    "parse_order": ".layout",
    "CERTIFICATE_TOL": ".method",
    "DividingPointResult": ".method",
    "equations": ".method",
    "solve_layout": ".method",
    "solve_symbolic": ".method",
    "GAME_NAMES": ".patent",
    "patent_layout": ".patent",
    "patent_rules": ".patent",
    "solve_patent_game": ".patent",
    "patent_order_interval": ".patent",
    "P": ".rules",
    "BettingRules": ".rules",
    "derive": ".rules",
    "pot_growth": ".rules",
})

__all__ = [
    "P",
    "BettingRules",
    "derive",
    "pot_growth",
    "Layout",
    "make_layout",
    "parse_order",
    "expected_return",
    "equations",
    "solve_layout",
    "solve_symbolic",
    "DividingPointResult",
    "CERTIFICATE_TOL",
    "best_response_gains",
    "strategy_from_points",
    "GAME_NAMES",
    "patent_rules",
    "patent_layout",
    "solve_patent_game",
    "patent_order_interval",
    "split_at",
    "hand_strategy",
]
