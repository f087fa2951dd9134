"""Heads-up hold'em raise game (the hold'em note).

* :mod:`.equities` - exact preflop equities of the 169 classes with card removal (compiled
  evaluator, every board), cached with a checksum: ``equity("AA", "KK")``;
* :mod:`.raise_game` - the one-LP solution of Alice's raise / Bob's call game and of the
  game where Bob may re-raise: ``solve_raise_game(max_raise=40)``;
* :mod:`.tree` - the same games as engine ``PublicTreeGame`` (certificate, reference LP).
"""
from guts._lazy import lazy_exports

# imported on first use (PEP 562): the raise game needs scipy, the evaluator numba
__getattr__, __dir__ = lazy_exports(__name__, {
    **dict.fromkeys(("CLASS_LABELS", "class_index"), ".cards"),
    **dict.fromkeys(("EquityTable", "equity", "equity_table", "load_equity_table"), ".equities"),
    **dict.fromkeys(("EXPLOITABILITY_TOL", "RaiseGameResult", "best_response_values", "solve_raise_game"),
                    ".raise_game"),
    "raise_game_tree": ".tree",
})

__all__ = ["CLASS_LABELS", "class_index", "EquityTable", "equity", "equity_table", "load_equity_table",
           "RaiseGameResult", "solve_raise_game", "best_response_values", "raise_game_tree", "EXPLOITABILITY_TOL"]
