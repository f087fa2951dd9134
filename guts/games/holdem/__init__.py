"""Heads-up hold'em raise game (seed 001, issue 12): exact preflop equities of the 169
classes and the one-LP solution of Alice's raise / Bob's call game, plus Bob's re-raise."""
from .cards import CLASS_LABELS, class_index
from .equity import EquityTable, equity, equity_table, load_equity_table

__all__ = ["CLASS_LABELS", "class_index", "EquityTable", "equity", "equity_table", "load_equity_table"]
