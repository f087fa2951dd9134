"""Equilibrium ranges of a first-decision probability (used to read the thesis's (Ullman 2015)
Tables 1 and 2). The generic sequence-form code lives in the engine
(:mod:`guts.engine.extensive.eqrange`); this module re-exports it."""
from __future__ import annotations

from guts.engine.extensive.eqrange import VALUE_SLACK, first_decision_range

__all__ = ["first_decision_range", "VALUE_SLACK"]
