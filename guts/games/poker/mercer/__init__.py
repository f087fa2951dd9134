"""Mercer hold'em and other hold'em-like games built from a deck, rounds and an evaluator
(Ullman 2015: Standard and Multiround Mercer Hold'em, 2 and 3 players, collusion)."""
from ..cards import Deck
from ..evaluators import HandEvaluator, holdem_evaluator, mercer_evaluator
from ..rules import Round, Rules, mmh_rules, smh_rules, variant_rules
from ..builder import BuiltGame, Collusion, TreeStats, build_game
from .solve import MercerResult, solve, solve_regimes

__all__ = [
    "Deck", "HandEvaluator", "mercer_evaluator", "holdem_evaluator",
    "Round", "Rules", "smh_rules", "mmh_rules", "variant_rules",
    "build_game", "BuiltGame", "Collusion", "TreeStats", "solve", "solve_regimes", "MercerResult",
]
