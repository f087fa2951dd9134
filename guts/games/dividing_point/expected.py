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

import sympy as sp

from .layout import Layout
from .rules import GameStructure, Plan, TerminalNode

__all__ = ["Meeting", "meetings", "area_below_diagonal", "expected_return", "symbols_of"]


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
        comp = _component_reached(structure, plan_f, second)
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


def _component_reached(structure, plan, other):
    node = structure.root
    while not isinstance(node, TerminalNode):
        if node.player == other:
            return node.history
        node = node.actions[plan.action_at(node.history)]
    return None


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
