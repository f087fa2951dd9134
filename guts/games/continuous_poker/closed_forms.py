"""Closed-form equilibria of continuous poker: von Neumann, Newman (no limit) and limit poker.

Spears, *Limit Continuous Poker* (2025).  Two players ante 0.5 each (pot 1) and get
hands x (bettor) and y (caller) i.i.d. uniform on [0, 1].  The bettor checks (showdown
for the pot) or bets s; the caller calls (showdown for 1 + 2s) or folds (the bettor
takes the pot).  Bet sizes are fractions of the pot:

* von Neumann (Spears §2.1.1): s = B fixed;
* Newman, no limit (Spears §2.1.2): any s > 0;
* limit (Spears §3-4): any s in [L, U], 0 <= L <= U.

Every ``value`` here is the bettor's expected **net** payoff in these units (antes 0.5,
pot 1).  The paper prints its values V_B = B/((1+2B)(2+B)) and V = 1/7 in the other usual
convention (ante 1 each, pot 2): they are twice ours (see ``docs/continuous_poker.md``).

The limit equilibrium (Spears §4.2.5) partitions the bettor's hands by
0 <= x0 <= x1 <= x2 <= x3 <= x4 <= x5 <= 1: bet U on (0, x0), bluff s = b^{-1}(x) on
(x0, x1), bet L on (x1, x2), check on (x2, x3), bet L on (x3, x4), value-bet
s = v^{-1}(x) on (x4, x5), bet U on (x5, 1).  The caller calls s iff y >= c(s) with

    c(s) = (x2 + s) / (1 + s),
    v(s) = 1 - (1 - x2) / (2 (1 + s)^2)        (= (1 + 4s + 2s^2 + x2) / (2 (1 + s)^2)),
    b(s) = b0 + (1 - x2)(1 + 3s) / (6 (1 + s)^3).

Derived facts used below (each re-derived with sympy in :mod:`.symbolic` and tested):

* the value of limit poker is x2 / 2 = A5 / (2 A4) (pot 1): a bluff earns x2 of the pot
  whatever its size, and the game is worth exactly half of that;
* 0 <= x0 <= ... <= x5 <= 1 for all 0 <= L <= U (every gap factors into terms with
  non-negative coefficients in L and U - L).

Examples
--------
>>> from guts.games.continuous_poker import von_neumann, newman, limit_poker
>>> round(von_neumann(bet=1.0).value * 18, 12)        # pot-sized bet: 1/18 of the pot
1.0
>>> round(newman().value * 14, 12)                     # no limit: 1/14 of the pot
1.0
>>> g = limit_poker(min_bet=0.5, max_bet=1.0)
>>> g.bet_size(0.99), g.bet_size(0.5), round(g.call_threshold(1.0), 6)
(1.0, 0.0, 0.561273)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from guts._validate import check_positive_float
from guts.errors import GutsInputError

#: Largest bet size (fraction of the pot) the closed forms accept.  Beyond it the thresholds
#: lose all precision in double arithmetic (von Neumann's bluff region B/((1+2B)(2+B)) rounds
#: to nothing near 1e8; the limit formulas overflow near 1e102) and the continuum best-response
#: check of a limit game with U = 1e4 already finds caller gains of 3e-5 (1e6: 28.6), so the
#: accepted range stops where that check still certifies the equilibrium to 1e-7.
MAX_BET = 1e3

__all__ = ["MAX_BET",
    "ANTE",
    "POT",
    "Region",
    "VonNeumannPoker",
    "NewmanPoker",
    "LimitPoker",
    "von_neumann",
    "newman",
    "limit_poker",
    "limit_value",
]

#: each player's ante; the pot before any bet is ``2 * ANTE = POT``
ANTE = 0.5
POT = 1.0
#: a bet size within this (relative) distance of an allowed size counts as allowed
SIZE_TOL = 1e-12


@dataclass(frozen=True)
class Region:
    """An interval of the bettor's hands and what they do there.

    ``role`` is ``"bluff"``, ``"check"`` or ``"value"``; ``bet`` is the size bet on the
    whole interval (0 for a check), or ``None`` when the size varies with the hand
    (x = b(s) for bluffs, x = v(s) for value bets).
    """

    lo: float
    hi: float
    role: str
    bet: float | None

    def describe(self) -> str:
        if self.role == "check":
            what = "check"
        elif self.bet is None:
            what = f"{self.role}: size s with x = {'b' if self.role == 'bluff' else 'v'}(s)"
        else:
            what = f"{self.role}: bet {self.bet:g}"
        return f"({self.lo:.6f}, {self.hi:.6f})  {what}"


def _arr(x):
    a = np.asarray(x, dtype=float)
    return a, a.ndim == 0


def _ret(a, scalar):
    return float(a) if scalar else a


def _check_hands(name, x):
    a, scalar = _arr(x)
    bad = ~np.isfinite(a) | (a < 0.0) | (a > 1.0)
    if np.any(bad):
        raise GutsInputError(f"{name} must be hand strengths in [0, 1]; got {float(a[bad].ravel()[0])!r}")
    return a, scalar


class _Profile:
    """Shared machinery: everything follows from the partition x0..x5, c(s), b(s), v(s).

    Subclasses are frozen dataclasses with ``min_bet``, ``max_bet``, ``x`` (x0..x5),
    ``b0`` and ``value``; ``x2 = x[2]`` is the bettor's payoff share from any bluff.
    """

    # -- the caller ---------------------------------------------------------------
    def _check_sizes(self, s):
        a, scalar = _arr(s)
        lo, hi = self.min_bet, self.max_bet
        tol = SIZE_TOL * max(1.0, hi if math.isfinite(hi) else 1.0)
        bad = np.isnan(a) | (a < lo - tol) | (a > hi + tol)
        if np.any(bad):
            raise GutsInputError(
                f"bet size must be in [{lo:g}, {hi:g}] for {self.name}; got {float(a[bad].ravel()[0])!r}")
        return np.clip(a, lo, hi), scalar

    def c(self, s):
        """Calling threshold c(s) = (x2 + s)/(1 + s) (Spears eq. 7): call iff y >= c(s)."""
        a, scalar = self._check_sizes(s)
        x2 = self.x[2]
        with np.errstate(invalid="ignore"):
            out = np.where(np.isinf(a), 1.0, (x2 + a) / (1.0 + a))
        return _ret(out, scalar)

    def call_threshold(self, s):
        """The caller calls a bet of size ``s`` iff his hand y >= ``call_threshold(s)``."""
        return self.c(s)

    # -- the bettor: size -> hand -------------------------------------------------
    def v(self, s):
        """Value-betting hand for size s: v(s) = 1 - (1 - x2)/(2 (1 + s)^2) (Spears eq. 5)."""
        a, scalar = self._check_sizes(s)
        return _ret(1.0 - (1.0 - self.x[2]) / (2.0 * (1.0 + a) ** 2), scalar)

    def b(self, s):
        """Bluffing hand for size s: b(s) = b0 + (1 - x2)(1 + 3s)/(6 (1 + s)^3) (Spears eq. 4)."""
        a, scalar = self._check_sizes(s)
        with np.errstate(invalid="ignore"):
            out = np.where(np.isinf(a), self.b0,
                           self.b0 + (1.0 - self.x[2]) * (1.0 + 3.0 * a) / (6.0 * (1.0 + a) ** 3))
        return _ret(out, scalar)

    def db(self, s):
        """b'(s) = -(1 - x2) s / (1 + s)^4 (< 0): minus the density of bluffs betting s."""
        a, scalar = self._check_sizes(s)
        with np.errstate(invalid="ignore"):
            out = np.where(np.isinf(a), 0.0, -(1.0 - self.x[2]) * a / (1.0 + a) ** 4)
        return _ret(out, scalar)

    def dv(self, s):
        """v'(s) = (1 - x2) / (1 + s)^3 (> 0): the density of value bets of size s."""
        a, scalar = self._check_sizes(s)
        return _ret((1.0 - self.x[2]) / (1.0 + a) ** 3, scalar)

    def _v_inverse(self, x):
        # (1 + s)^2 = (1 - x2) / (2 (1 - x))
        with np.errstate(divide="ignore"):
            s = np.sqrt((1.0 - self.x[2]) / (2.0 * (1.0 - x))) - 1.0
        return np.clip(s, self.min_bet, self.max_bet)

    def _b_inverse(self, x):
        # with t = 1 + s:  (3t - 2)/t^3 = r := 6 (x - b0)/(1 - x2) in (0, 1]; the root t >= 1
        # of r t^3 - 3t + 2 = 0 is (2/sqrt r) cos(arccos(-sqrt r)/3) (trigonometric form).
        r = np.clip(6.0 * (x - self.b0) / (1.0 - self.x[2]), 0.0, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            sr = np.sqrt(r)
            t = np.where(r > 0, 2.0 / np.where(r > 0, sr, 1.0) * np.cos(np.arccos(-sr) / 3.0), np.inf)
        return np.clip(t - 1.0, self.min_bet, self.max_bet)

    def bet_size(self, x):
        """The bettor's equilibrium action for hand ``x``: the bet size, 0 for a check."""
        a, scalar = _check_hands("x", x)
        x0, x1, x2, x3, x4, x5 = self.x
        L, U = self.min_bet, self.max_bet
        out = np.zeros_like(a)
        out = np.where(a < x0, U, out)
        mid_b = (a >= x0) & (a < x1)
        if np.any(mid_b):
            out = np.where(mid_b, self._b_inverse(a), out)
        out = np.where((a >= x1) & (a < x2), L, out)
        out = np.where((a > x3) & (a <= x4), L, out)
        mid_v = (a > x4) & (a < x5)
        if np.any(mid_v):
            out = np.where(mid_v, self._v_inverse(a), out)
        out = np.where((a >= x5) & (a > x3), U, out)
        return _ret(out, scalar)

    @property
    def regions(self) -> tuple[Region, ...]:
        """The partition of the bettor's hands (Spears §4.1), empty intervals left out."""
        x0, x1, x2, x3, x4, x5 = self.x
        L, U = self.min_bet, self.max_bet
        cand = [Region(0.0, x0, "bluff", U), Region(x0, x1, "bluff", None), Region(x1, x2, "bluff", L),
                Region(x2, x3, "check", 0.0), Region(x3, x4, "value", L), Region(x4, x5, "value", None),
                Region(x5, 1.0, "value", U)]
        # a "bet" of L = 0 is a check: at L = 0 its intervals are empty (x2 - x1 ~ L^2, x4 - x3 ~ L)
        return tuple(r for r in cand if r.hi - r.lo > 0 and (r.role == "check" or r.bet != 0.0))

    @property
    def check_interval(self) -> tuple[float, float]:
        """The hands that check: (x2, x3)."""
        return (self.x[2], self.x[3])

    # -- payoffs ------------------------------------------------------------------
    def bet_payoff(self, x, s):
        """Bettor's expected net payoff of action ``s`` (0 = check) with hand ``x`` against c(.).

        Spears §4.2.2: a bet s wins the pot when y < c(s), 1 + s when c(s) <= y < x and loses
        s when y > max(x, c(s)); a check wins the pot when y < x.  Antes (0.5) subtracted.
        """
        xa, _ = _check_hands("x", x)
        sa, _ = _arr(s)
        xa, sa = np.broadcast_arrays(xa, sa)
        scalar = xa.ndim == 0
        is_bet = sa > 0
        c = np.zeros_like(sa)
        if np.any(is_bet):  # non-bets get any allowed size here; their c is not used
            c = np.where(is_bet, self.c(np.where(is_bet, sa, self.max_bet)), 0.0)
        with np.errstate(invalid="ignore"):
            bet = c + (1.0 + sa) * np.maximum(xa - c, 0.0) - sa * (1.0 - np.maximum(xa, c))
            # s -> inf (Newman only, hands 0 and 1): a bluff keeps earning x2, the top hand 2 - x2
            bet = np.where(np.isinf(sa), np.where(xa < 1.0, self.x[2], 2.0 - self.x[2]), bet)
        out = np.where(is_bet, bet, xa) - ANTE
        return _ret(out, scalar)

    def payoff(self, x, y):
        """Bettor's net payoff at equilibrium for hands (x, y) (the paper's Figures 2-3; ties: split)."""
        xa, _ = _check_hands("x", x)
        ya, _ = _check_hands("y", y)
        xa, ya = np.broadcast_arrays(xa, ya)
        scalar = xa.ndim == 0
        s = np.asarray(self.bet_size(xa), dtype=float)
        showdown = np.sign(xa - ya)
        out = ANTE * showdown  # check
        bet = s > 0
        if np.any(bet):
            c = np.asarray(self.c(np.where(bet, s, self.max_bet)), dtype=float)
            with np.errstate(invalid="ignore"):
                called = np.where(np.isinf(s), ANTE, (ANTE + s) * showdown)
            out = np.where(bet, np.where(ya < c, ANTE, called), out)
        return _ret(out, scalar)

    def summary(self, sizes=None) -> str:
        """Regions, c/b/v at a few sizes and the value, as printed by ``guts poker continuous``."""
        lines = [f"{self.name}", "bettor's regions (hand interval, action):"]
        lines += ["  " + r.describe() for r in self.regions]
        if sizes is None:
            sizes = self.default_sizes()
        lines.append(f"  {'s':>8} {'c(s) call if y >=':>18} {'b(s) bluff hand':>16} {'v(s) value hand':>16}")
        for s in sizes:
            lines.append(f"  {s:>8.4g} {self.c(s):>18.6f} {self.b(s):>16.6f} {self.v(s):>16.6f}")
        lines.append(f"value (bettor, antes 0.5 each, pot 1): {self.value:.12f}")
        return "\n".join(lines)

    def default_sizes(self):
        L, U = self.min_bet, self.max_bet
        if U == L:
            return [L]
        if not math.isfinite(U):
            return [0.25, 0.5, 1.0, 2.0, 4.0]
        return list(np.linspace(L, U, 5))


# ---------------------------------------------------------------------------------
# von Neumann: fixed bet B
# ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class VonNeumannPoker(_Profile):
    """Equilibrium of von Neumann's continuous poker with a fixed bet ``bet`` (Spears §2.1.1).

    Bluff with x < ``bluff_threshold`` = B/((1+2B)(2+B)), value-bet x > ``value_threshold``
    = (1+4B+2B^2)/((1+2B)(2+B)), call with y >= ``calling_threshold`` = B(3+2B)/((1+2B)(2+B)).
    ``value`` = B/(2(1+2B)(2+B)) (pot 1).  The caller's threshold is the admissible one
    (the bettor's bluff/check indifference); any threshold in [a, b] is a best response.
    """

    bet: float
    bluff_threshold: float
    value_threshold: float
    calling_threshold: float
    value: float

    name = "von Neumann poker"

    @property
    def min_bet(self):
        return self.bet

    @property
    def max_bet(self):
        return self.bet

    @property
    def x(self):
        a, b = self.bluff_threshold, self.value_threshold
        return (a, a, a, b, b, b)

    @property
    def b0(self):
        return self.bluff_threshold  # unused: no interior sizes

    def c(self, s):
        a, scalar = self._check_sizes(s)
        return _ret(np.full_like(a, self.calling_threshold), scalar)

    def b(self, s):
        raise GutsInputError("von Neumann poker has one bet size: no size-dependent bluffing hand b(s)")

    def v(self, s):
        raise GutsInputError("von Neumann poker has one bet size: no size-dependent value hand v(s)")

    db = b
    dv = v

    def summary(self, sizes=None) -> str:
        lines = [f"{self.name} (bet {self.bet:g})", "bettor's regions (hand interval, action):"]
        lines += ["  " + r.describe() for r in self.regions]
        lines.append(f"caller: call a bet of {self.bet:g} iff y >= {self.calling_threshold:.6f}")
        lines.append(f"value (bettor, antes 0.5 each, pot 1): {self.value:.12f}")
        return "\n".join(lines)


def von_neumann(bet: float = 1.0) -> VonNeumannPoker:
    """Von Neumann's continuous poker with fixed bet ``bet`` (a fraction of the pot 1).

    Derivation (checked symbolically in the tests): the caller's hand c is indifferent
    between call and fold, a(1 + B) = (1 - b) B; the bettor's hand a between bluff and
    check, a = c - (1 - c) B; his hand b between value bet and check,
    b = c + (b - c)(1 + B) - (1 - b) B.  Hence with D = (1 + 2B)(2 + B):
    a = B/D, b = (1 + 4B + 2B^2)/D, c = B(3 + 2B)/D and the value (pot 1) a/2 = B/(2D).

    >>> g = von_neumann(1.0)
    >>> round(g.bluff_threshold * 9, 12), round(g.value_threshold * 9, 12), round(g.calling_threshold * 9, 12)
    (1.0, 7.0, 5.0)
    """
    B = check_positive_float("bet", bet, maximum=MAX_BET)
    D = (1.0 + 2.0 * B) * (2.0 + B)
    return VonNeumannPoker(bet=B, bluff_threshold=B / D, value_threshold=(1.0 + 4.0 * B + 2.0 * B * B) / D,
                           calling_threshold=B * (3.0 + 2.0 * B) / D, value=B / (2.0 * D))


# ---------------------------------------------------------------------------------
# Newman: no limit
# ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class NewmanPoker(_Profile):
    """Equilibrium of Newman's no-limit continuous poker (Spears §2.1.2).

    Bluff s with x = b(s) = (3s+1)/(7(s+1)^3) (hands below 1/7), check on (1/7, 4/7),
    value-bet s with x = v(s) = 1 - 3/(7(s+1)^2) (hands above 4/7); call s iff
    y >= c(s) = 1 - 6/(7(s+1)).  ``value`` = 1/14 (pot 1; 1/7 with antes 1).
    """

    value: float = 1.0 / 14.0
    x: tuple = (0.0, 1.0 / 7.0, 1.0 / 7.0, 4.0 / 7.0, 4.0 / 7.0, 1.0)
    b0: float = 0.0

    name = "Newman (no-limit) continuous poker"
    min_bet = 0.0
    max_bet = math.inf

    def c(self, s):
        a, scalar = self._check_sizes(s)
        with np.errstate(divide="ignore"):
            return _ret(1.0 - 6.0 / (7.0 * (a + 1.0)), scalar)

    def v(self, s):
        a, scalar = self._check_sizes(s)
        with np.errstate(divide="ignore"):
            return _ret(1.0 - 3.0 / (7.0 * (a + 1.0) ** 2), scalar)

    def b(self, s):
        a, scalar = self._check_sizes(s)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(np.isinf(a), 0.0, (3.0 * a + 1.0) / (7.0 * (a + 1.0) ** 3))
        return _ret(out, scalar)


def newman() -> NewmanPoker:
    """Newman's no-limit continuous poker (Spears §2.1.2; the L -> 0, U -> inf limit, Thms 5.3-5.4)."""
    return NewmanPoker()


# ---------------------------------------------------------------------------------
# limit poker: s in [L, U]
# ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LimitPoker(_Profile):
    """Equilibrium of limit continuous poker, bets in [``min_bet``, ``max_bet``] (Spears §4.2.5).

    Attributes
    ----------
    min_bet, max_bet : float
        L and U (fractions of the pot 1).
    x : tuple of 6 floats
        The bettor's thresholds x0..x5 (see the module docstring).
    b0 : float
        The constant of integration in b(s).
    A : tuple of 6 floats
        The paper's common subexpressions A0..A5.
    value : float
        The bettor's value A5 / (2 A4) = x2 / 2 (derived here; the paper does not give it).
    """

    min_bet: float
    max_bet: float
    x: tuple
    b0: float
    A: tuple
    value: float

    name = "limit continuous poker"


def paper_subexpressions(L, U) -> tuple:
    """The paper's common subexpressions A0..A5 of the limit equilibrium (§4.2.5), for numbers
    or sympy symbols ``L`` (min bet) and ``U`` (max bet)."""
    A0 = U**2 + 3 * U + 3
    A1 = 7 * U**3 + 21 * U**2 + 21 * U + 6
    A2 = 6 * U**3 + 18 * U**2 + 18 * U + 5
    A3 = 7 * U**3 + 21 * U**2 + 18 * U + 3
    A4 = 3 * A1 * L**2 + 3 * A1 * L + A1 + A2 * L**3
    A5 = 3 * A0 * L**2 * U + 3 * A0 * L * U + A0 * U - L**3
    return A0, A1, A2, A3, A4, A5


def _limit_formulas(L, U):
    """The paper's §4.2.5 solution (its A0..A5 form), verified against a fresh sympy solve.

    Returns ``(x, b0, A)`` with ``x`` = (x0..x5) *as printed*; :func:`_limit_gaps` gives the
    same numbers without cancellation (used for the result objects).
    """
    A0, A1, A2, A3, A4, A5 = paper_subexpressions(L, U)
    x0 = 3 * (L + 1) ** 3 * U / A4
    x1 = (3 * A0 * L * U + A0 * U - L**3 - 3 * L**2) / A4
    x2 = A5 / A4
    x3 = (A2 * L**3 + 3 * A2 * L**2 + 3 * L * (5 * U**3 + 15 * U**2 + 15 * U + 4) + 4 * U**3 + 12 * U**2
          + 12 * U + 3) / A4
    x4 = (3 * A1 * L**2 + A2 * L**3 + 3 * A2 * L + 4 * U**3 + 12 * U**2 + 12 * U + 3) / A4
    x5 = (3 * A3 * L**2 + 3 * A3 * L + A3 + L**3 * (6 * U**3 + 18 * U**2 + 15 * U + 2)) / A4
    b0 = -((L + 1) ** 3) / A4
    return (x0, x1, x2, x3, x4, x5), b0, (A0, A1, A2, A3, A4, A5)


def _limit_gaps(L, U, A4):
    """The seven gaps x0 - 0, x1 - x0, ..., 1 - x5, factored (sympy; tested).

    Every factor is a polynomial with non-negative coefficients in L and U - L, so for
    0 <= L <= U the gaps are >= 0 (the ordering the paper assumes in §4.1 holds) and
    computing them this way loses no accuracy (1 - x5 is tiny for large U).
    """
    return (3 * U * (L + 1) ** 3 / A4,
            (U - L) * (3 * L**2 * U + L**2 + 3 * L * U**2 + 10 * L * U + 3 * L + U**2 + 3 * U) / A4,
            3 * L**2 * (U + 1) ** 3 / A4,
            3 * (L + 1) ** 2 * (2 * L + 1) * (U + 1) ** 3 / A4,
            3 * L * (L + 1) * (U + 1) ** 3 / A4,
            3 * (L + 1) * (U - L) * (U + 1) * (L + U + 2) / A4,
            3 * (L + 1) ** 3 * (U + 1) / A4)


def _check_limits(min_bet, max_bet):
    L = check_positive_float("min_bet", min_bet, allow_zero=True)
    try:
        u = float(max_bet)
    except (TypeError, ValueError):
        raise GutsInputError(f"max_bet must be a number; got {max_bet!r}") from None
    if math.isinf(u) and u > 0:
        raise GutsInputError("max_bet must be finite; use newman() for the no-limit game (L -> 0, U -> inf)")
    U = check_positive_float("max_bet", max_bet, maximum=MAX_BET)
    L = check_positive_float("min_bet", min_bet, allow_zero=True, maximum=MAX_BET)
    if L > U:
        raise GutsInputError(f"min_bet must be <= max_bet; got min_bet={L:g} > max_bet={U:g}")
    return L, U


def limit_poker(min_bet: float = 0.5, max_bet: float = 1.0) -> LimitPoker:
    """Limit continuous poker with bet sizes in [``min_bet``, ``max_bet``] (0 <= L <= U, U > 0).

    ``limit_poker(B, B)`` is von Neumann's game (Theorems 5.1-5.2); ``limit_poker(L, U)`` tends
    to Newman's as L -> 0, U -> inf (Theorems 5.3-5.4).

    >>> g = limit_poker(0.5, 1.0)
    >>> abs(g.value - g.x[2] / 2) < 1e-15
    True
    """
    L, U = _check_limits(min_bet, max_bet)
    _, b0, A = _limit_formulas(L, U)
    g = _limit_gaps(L, U, A[4])
    # x0..x2 summed from 0 and x3..x5 from 1: both tails keep full relative accuracy
    x = (g[0], g[0] + g[1], g[0] + g[1] + g[2], 1.0 - g[6] - g[5] - g[4], 1.0 - g[6] - g[5], 1.0 - g[6])
    return LimitPoker(min_bet=L, max_bet=U, x=tuple(float(t) for t in x), b0=float(b0),
                      A=tuple(float(a) for a in A), value=float(A[5] / (2.0 * A[4])))


def limit_value(min_bet, max_bet):
    """The value of limit continuous poker, vectorised over arrays of (L, U) (pot 1).

    V(L, U) = A5 / (2 A4) with the paper's A4, A5 (derived in :mod:`.symbolic`).
    """
    L = np.asarray(min_bet, dtype=float)
    U = np.asarray(max_bet, dtype=float)
    if np.any(~np.isfinite(L) | ~np.isfinite(U) | (L < 0) | (U <= 0) | (L > U)):
        raise GutsInputError("limit_value needs finite 0 <= min_bet <= max_bet with max_bet > 0")
    _, _, A = _limit_formulas(L, U)
    return A[5] / (2.0 * A[4])
