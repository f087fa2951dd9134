"""Heads-up hold'em raise game (seed 001, issue 12).

* :mod:`.equities` - exact preflop equities of the 169 classes with card removal (compiled
  evaluator, every board), cached with a checksum: ``equity("AA", "KK")``;
* :mod:`.raise_game` - the one-LP solution of Alice's raise / Bob's call game and of the
  game where Bob may re-raise: ``solve_raise_game(max_raise=40)``;
* :mod:`.tree` - the same games as engine ``PublicTreeGame`` (certificate, reference LP).
"""
from .cards import CLASS_LABELS, class_index
from .equities import EquityTable, equity, equity_table, load_equity_table
from .raise_game import EXPLOITABILITY_TOL, RaiseGameResult, best_response_values, solve_raise_game
from .tree import raise_game_tree

__all__ = ["CLASS_LABELS", "class_index", "EquityTable", "equity", "equity_table", "load_equity_table",
           "RaiseGameResult", "solve_raise_game", "best_response_values", "raise_game_tree", "EXPLOITABILITY_TOL"]
