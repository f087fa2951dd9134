"""The expected return as an exact polynomial in the dividing points (FIG. 9 steps 940-955).

The unit square of deals (P1's hand ``x`` across, P2's hand ``y`` up) is cut by a
vertical line at every P1 point, a horizontal line at every P2 point and the diagonal
``x = y`` (FIG. 8, FIG. 13).  On each rectangle both players' plans are fixed, hence the
resolution (Table 10); a fold pays the same everywhere in it, a showdown pays ``+amount``
below the diagonal (P1 higher) and ``-amount`` above.  The area of the part below the
diagonal is a quadratic in the endpoints once their order is known (FIG. 31, step 3138),
so ``E1`` is a polynomial of degree 2 in the points, with coefficients polynomial in P.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from .layout import Layout
from .rules import P, GameStructure, Plan, TerminalNode, component_reached

__all__ = ["Meeting", "meetings", "area_below_diagonal", "expected_return", "symbols_of", "Quadratic",
           "expected_return_at"]


@dataclass(frozen=True)
class Meeting:
    """An interval of P1's axis against an interval of P2's, and where the pair ends.

    ``x_interval``/``y_interval`` are endpoint pairs (0, 1 or point names); ``plan2`` is
    ``None`` when the round ends before P2 acts (P2's whole axis then meets ``x``).
    """

    x_interval: tuple
    plan1: Plan
    y_interval: tuple
    plan2: Plan | None
    terminal: TerminalNode


def _intervals(seg):
    ends = (0,) + tuple(seg.points) + (1,)
    return [((ends[i], ends[i + 1]), seg.plans[i]) for i in range(len(seg.plans))]


def meetings(structure: GameStructure, layout: Layout):
    """Yield every :class:`Meeting` of the layout (FIG. 31 loop 3115-3155)."""
    first = structure.rules.first
    second = 1 - first
    root_seg = next(s for s in layout.segmentations if s.player == first)
    others = {s.component: s for s in layout.segmentations if s.player == second}
    for iv_f, name_f in _intervals(root_seg):
        plan_f = structure.plan(first, root_seg.component, name_f)
        comp = component_reached(structure, plan_f, second)
        if comp is None:
            t = structure.play(plan_f, plan_f)
            pairs = [(((0, 1)), None, t)]
        else:
            pairs = []
            for iv_s, name_s in _intervals(others[comp]):
                plan_s = structure.plan(second, comp, name_s)
                pairs.append((iv_s, plan_s, structure.play(plan_f, plan_s)))
        for iv_s, plan_s, t in pairs:
            if first == 0:
                yield Meeting(iv_f, plan_f, iv_s, plan_s, t)
            else:
                yield Meeting(iv_s, plan_s, iv_f, plan_f, t)


def area_below_diagonal(layout: Layout, xi, yi, value):
    """Area of ``{x in xi, y in yi, y < x}`` given the layout's order.

    ``value`` maps an endpoint (0, 1 or a point name) to a symbol or number.  With
    ``xi = (a, b)`` and ``yi = (c, d)``: zero if ``b <= c``; the whole rectangle if
    ``a >= d``; else ``int_{max(a,c)}^{min(b,d)} (x - c) dx`` plus ``(b - d)(d - c)``
    when ``b > d``.
    """
    a, b = xi
    c, d = yi
    r = layout.rank
    if r(b) <= r(c):
        return 0
    A, B, C, D = value(a), value(b), value(c), value(d)
    if r(a) >= r(d):
        return (B - A) * (D - C)
    lo = A if r(a) >= r(c) else C
    hi = B if r(b) <= r(d) else D
    area = ((hi - C) ** 2 - (lo - C) ** 2) / 2
    if r(b) > r(d):
        area += (B - D) * (D - C)
    return area


def symbols_of(layout: Layout) -> dict:
    """``{name: sympy.Symbol}`` for every dividing point of the layout."""
    return {name: sp.Symbol(name, real=True) for name in layout.order}


def meeting_return(m: Meeting, layout: Layout, value):
    """P1's expected return from one meeting (return times area, both sides of the diagonal)."""
    (a, b), (c, d) = m.x_interval, m.y_interval
    rect = (value(b) - value(a)) * (value(d) - value(c))
    t = m.terminal
    if t.folder is not None:
        return t.return_to(0, 1 - t.folder) * rect
    below = area_below_diagonal(layout, m.x_interval, m.y_interval, value)
    return t.amount() * (2 * below - rect)


def expected_return(structure: GameStructure, layout: Layout) -> sp.Expr:
    """``E1``, P1's expected return per game (ante included), as an expanded polynomial.

    Hundal and Reitzen, US patent 6,129,631, FIG. 9 step 955 / FIG. 31 step 3145: the sum over regions of return x area.
    """
    syms = symbols_of(layout)

    def value(e):
        return sp.Integer(e) if e in (0, 1) else syms[e]

    total = sp.Integer(0)
    for m in meetings(structure, layout):
        total += meeting_return(m, layout, value)
    return sp.expand(total)


class Quadratic:
    """A polynomial of degree <= 2 in the dividing points with exact rational coefficients.

    ``terms`` maps a sorted tuple of point indices (``()``, ``(i,)`` or ``(i, j)``) to a
    :class:`fractions.Fraction`.  It is ``E1`` at one numeric pot: building it is about
    100 times faster than the symbolic :func:`expected_return` (sympy), and the
    stationarity equations it gives are the same exact rational system.
    """

    __slots__ = ("terms",)

    def __init__(self, terms=None):
        self.terms = dict(terms or {})

    @classmethod
    def const(cls, c):
        return cls({(): Fraction(c)} if c else {})

    @classmethod
    def var(cls, i):
        return cls({(i,): Fraction(1)})

    def _coerce(self, other):
        return other if isinstance(other, Quadratic) else Quadratic.const(other)

    def __add__(self, other):
        out = dict(self.terms)
        for k, v in self._coerce(other).terms.items():
            out[k] = out.get(k, 0) + v
        return Quadratic({k: v for k, v in out.items() if v})

    __radd__ = __add__

    def __neg__(self):
        return Quadratic({k: -v for k, v in self.terms.items()})

    def __sub__(self, other):
        return self + (-self._coerce(other))

    def __rsub__(self, other):
        return self._coerce(other) - self

    def __mul__(self, other):
        if not isinstance(other, Quadratic):
            c = Fraction(other)
            return Quadratic({k: v * c for k, v in self.terms.items()} if c else {})
        out = {}
        for k1, v1 in self.terms.items():
            for k2, v2 in other.terms.items():
                k = tuple(sorted(k1 + k2))
                if len(k) > 2:
                    raise ValueError("degree > 2: not an expected return of a one-round game")
                out[k] = out.get(k, 0) + v1 * v2
        return Quadratic({k: v for k, v in out.items() if v})

    __rmul__ = __mul__

    def __truediv__(self, c):
        return self * (1 / Fraction(c))

    def __pow__(self, n):
        if n != 2:
            raise ValueError("only squares are needed")
        return self * self

    def gradient_system(self, n: int):
        """``(A, b)``, lists of Fractions: ``grad E = A x - b`` (``A`` symmetric, ``n x n``)."""
        A = [[Fraction(0)] * n for _ in range(n)]
        b = [Fraction(0)] * n
        for k, v in self.terms.items():
            if len(k) == 1:
                b[k[0]] -= v
            elif len(k) == 2:
                i, j = k
                if i == j:
                    A[i][i] += 2 * v
                else:
                    A[i][j] += v
                    A[j][i] += v
        return A, b

    def evaluate(self, x):
        """The value at ``x`` (a sequence of Fractions or floats, by index)."""
        total = 0
        for k, v in self.terms.items():
            term = v
            for i in k:
                term = term * x[i]
            total = total + term
        return total


def expected_return_at(structure: GameStructure, layout: Layout, pot) -> Quadratic:
    """``E1`` at the numeric pot ``pot`` (a Fraction), exact, as a :class:`Quadratic`
    in the points indexed by their position in ``layout.order``."""
    pot = Fraction(pot)
    index = {name: i for i, name in enumerate(layout.order)}
    cache = {}

    def value(e):
        return Quadratic.const(e) if e in (0, 1) else Quadratic.var(index[e])

    def coeff(expr):
        key = sp.srepr(expr)
        if key not in cache:
            r = sp.Rational(sp.sympify(expr).subs(P, sp.Rational(pot.numerator, pot.denominator)))
            cache[key] = Fraction(int(r.p), int(r.q))
        return cache[key]

    total = Quadratic()
    for m in meetings(structure, layout):
        (a, b), (c, d) = m.x_interval, m.y_interval
        rect = (value(b) - value(a)) * (value(d) - value(c))
        t = m.terminal
        if t.folder is not None:
            total = total + rect * coeff(t.return_to(0, 1 - t.folder))
        else:
            below = area_below_diagonal(layout, m.x_interval, m.y_interval, value)
            total = total + (2 * below - rect) * coeff(t.amount())
    return total
