"""Liar's Dice (OpenSpiel's ``liars_dice`` rules): the game and its exact, certified values.

``liars_dice(dice=(1, 1), faces=6)`` builds the engine game (types are multisets of dice);
``solve(dice, faces, method="lp")`` solves it and certifies an exact rational value
(:class:`LiarsDiceResult`, ``exact_value``). See ``docs/liars_dice.md``.
"""
from .game import LIAR, LiarsDiceSize, bid_label, deal_table, dice_types, liars_dice, size
from .solve import LiarsDiceResult, solve

__all__ = ["liars_dice", "solve", "LiarsDiceResult", "LiarsDiceSize", "size", "LIAR", "bid_label", "dice_types", "deal_table"]
