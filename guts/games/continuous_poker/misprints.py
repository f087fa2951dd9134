"""The paper's formulas *as printed* (Spears, *Limit Continuous Poker*, 2025), and
the list of places where the printed text disagrees with the mathematics.

Nothing in the package computes with these expressions: they exist so that the tests can
compare each printed formula with the derivation in :mod:`.symbolic` and pin every
disagreement (:data:`MISPRINTS`).  Transcribed symbol for symbol, misprints included.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .closed_forms import paper_subexpressions
from .symbolic import B, B0, L, U, X2, XS, s

__all__ = ["printed", "Misprint", "MISPRINTS"]

_x0, _x1, _x2, _x3, _x4, _x5 = XS
_sp_s = sp.Symbol("s_misprint")  # the stray "s" in the §2.1.1 value-betting threshold


def printed():
    """Dict of the printed formulas (sympy), keyed by where they are in the paper."""
    D = (1 + 2 * B) * (2 + B)
    A0, A1, A2, A3, A4, A5 = paper_subexpressions(L, U)
    return {
        # §2.1.1 von Neumann
        "vn_value_bet_threshold": (1 + 4 * _sp_s + 2 * B**2) / D,
        "vn_bluff_threshold": B / D,
        "vn_call_threshold": B * (3 + 2 * B) / D,
        "vn_value": B / D,  # also §5.2.3
        # §2.1.2 Newman
        "newman_bluff": (3 * s + 1) / (7 * (s + 1) ** 3),
        "newman_value_hand": 1 - sp.Rational(3, 7) / (s + 1) ** 2,
        "newman_call": 1 - sp.Rational(6, 7) / (s + 1),
        "newman_value": sp.Rational(1, 7),  # §5.3.3
        # §4.2.4: functions of s with x2, b0 free
        "c": (X2 + s) / (1 + s),
        "v": (1 + 4 * s + 2 * s**2 + X2) / (2 * (1 + s) ** 2),
        "b": B0 - (1 + 3 * s) * (X2 - 1) / (6 * (1 + s) ** 3),
        # §4.2.5 solution
        "A": (A0, A1, A2, A3, A4, A5),
        "x0": 3 * (L + 1) ** 3 * U / A4,
        "x1": (3 * A0 * L * U + A0 * U - L**3 - 3 * L**2) / A4,
        "x2": A5 / A4,
        "x3": (A2 * L**3 + 3 * A2 * L**2 + 3 * L * (5 * U**3 + 15 * U**2 + 15 * U + 4) + 4 * U**3 + 12 * U**2
               + 12 * U + 3) / A4,
        "x4": (3 * A1 * L**2 + A2 * L**3 + 3 * A2 * L + 4 * U**3 + 12 * U**2 + 12 * U + 3) / A4,
        "x5": (3 * A3 * L**2 + 3 * A3 * L + A3 + L**3 * (6 * U**3 + 18 * U**2 + 15 * U + 2)) / A4,
        "b0": -((L + 1) ** 3) / A4,
        # Theorem 5.1 proof: the x_i at L = U = B
        "thm51_x0_x1": B / (2 * B**3 + 7 * B**2 + 7 * B + 2),
        "thm51_x2": B / D,
        "thm51_x3": (2 * B**2 + 4 * B + 1) / D,
        "thm51_x4_x5": (2 * B**2 + 5 * B + 1) / D,
        # Theorem 5.3 proof: the x_i at L = 0, U = inf
        "thm53": {"x0": 0, "x1": sp.Rational(1, 7), "x2": sp.Rational(1, 7), "x3": sp.Rational(4, 7),
                  "x4": sp.Rational(4, 7), "x5": 1},
        # eq. (9): the check region of S_B, as printed: B/D > x > (1 + 4B + 2B^2)/D
        "eq9_check_lower": (1 + 4 * B + 2 * B**2) / D,  # the printed "x >" bound
        "eq9_check_upper": B / D,  # the printed "x <" bound
    }


@dataclass(frozen=True)
class Misprint:
    """One disagreement between the paper's text and the mathematics."""

    where: str
    printed: str
    corrected: str
    evidence: str
    test: str  # the test that pins the corrected formula


MISPRINTS = (
    Misprint(
        "§2.1.1, von Neumann value-betting threshold",
        "x > (1 + 4s + 2B^2)/((1 + 2B)(2 + B))",
        "x > (1 + 4B + 2B^2)/((1 + 2B)(2 + B))",
        "the three indifference equations give (1 + 4B + 2B^2)/D (sympy); the paper's own eq. (9) "
        "and Theorem 5.1 (x3|_B = (2B^2 + 4B + 1)/D) use 4B",
        "test_cpoker_misprints.py::test_von_neumann_thresholds_misprint_s_for_B"),
    Misprint(
        "§2.1.1 and §5.2.3, value of von Neumann poker; §5.3.3, value of Newman poker",
        "V_B = B/((1 + 2B)(2 + B)); V = 1/7",
        "with the paper's antes of 0.5 (pot 1): V_B = B/(2(1 + 2B)(2 + B)), V = 1/14 "
        "(the printed values are in the ante-1, pot-2 convention)",
        "exact integration of the equilibrium payoff over the hands (sympy) and the discretised LP "
        "(value -> 1/18 at B = 1 with pot 1); footnote 3 ('integrating Figure 2 gives V_B') fails by a factor 2",
        "test_cpoker_misprints.py::test_printed_values_are_in_the_ante_one_convention"),
    Misprint(
        "§4.2.1 eq. (2), caller indifference at s = L",
        "(x4 - x3)(1 + L) - (x2 - x1) L = 0",
        "(x2 - x1)(1 + L) - (x4 - x3) L = 0",
        "the paper's own indifference P[bluff|s](1 + s) - P[value|s] s = 0 with bluffs (x1, x2) and "
        "value bets (x3, x4); the printed §4.2.5 solution satisfies the corrected equation and not the "
        "printed one (sympy residuals)",
        "test_cpoker_misprints.py::test_atom_indifference_misprints"),
    Misprint(
        "§4.2.1 eq. (3), caller indifference at s = U",
        "(1 - x5)(1 + U) - x0 U = 0",
        "x0 (1 + U) - (1 - x5) U = 0",
        "as for eq. (2): bluffs (0, x0) pay 1 + U, value bets (x5, 1) cost U; the printed solution "
        "satisfies the corrected equation only",
        "test_cpoker_misprints.py::test_atom_indifference_misprints"),
    Misprint(
        "§4.2.1 Case 3, density ratio",
        "P[value bet|s] / P[bluff|s] = |b'(s)| / |v'(s)|",
        "P[value bet|s] / P[bluff|s] = |v'(s)| / |b'(s)|",
        "the hands in v^{-1}([s, s + ds]) have measure |v'(s)| ds; only the corrected ratio turns the "
        "indifference into eq. (4) as used to derive b(s)",
        "test_cpoker_misprints.py::test_interior_caller_indifference"),
    Misprint(
        "§4.2.1 eq. (4) and §4.2.4, interior caller indifference",
        "|b'(s)| (1 + s) + |v'(s)| s = 0",
        "b'(s)(1 + s) + v'(s) s = 0, i.e. |b'(s)| (1 + s) - |v'(s)| s = 0 (b' < 0 < v')",
        "a sum of non-negative terms vanishes only if both do; the printed b(s) and v(s) satisfy "
        "the signed equation identically (sympy) with b' < 0 < v'",
        "test_cpoker_misprints.py::test_interior_caller_indifference"),
    Misprint(
        "§4.2.4 summary, second bettor equation",
        "c(L) - (1 - c(L)) L = x3",
        "(x3 - c(L))(1 + L) - (1 - x3) L + c(L) = x3 (eq. 6), i.e. x3 = (1 + c(L))/2",
        "the printed line is eq. (7) at s = L with x3 for x2: with eq. (7) it forces x3 = x2 (no "
        "check region); the printed §4.2.5 solution satisfies eq. (6), not the summary line",
        "test_cpoker_misprints.py::test_summary_misprint_eq6"),
    Misprint(
        "§5.1 eq. (9) and the proof of Theorem 5.1, check region of S_B",
        "0 for B/D > x > (1 + 4B + 2B^2)/D",
        "0 for B/D < x < (1 + 4B + 2B^2)/D",
        "the printed condition is empty (B/D < (1 + 4B + 2B^2)/D for B > 0); the check region lies "
        "between the bluffing and the value-betting ranges",
        "test_cpoker_misprints.py::test_eq9_check_region_reversed"),
)
