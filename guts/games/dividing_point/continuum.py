"""Exact best responses on the continuum: is a dividing-point solution an equilibrium?

The method of Hundal and Reitzen, US patent 6,129,631 (FIG. 9, step 965) finds a *stationary point* of ``E1`` for an
assumed order; nothing in it says that point is an equilibrium.  Here each player's
return from every plan is computed as a function of his hand against the other's
interval strategy -- piecewise linear, with knots at the other player's dividing
points -- and the best response integrates the upper envelope exactly (breaking each
piece at the crossings of the lines).  The largest gain of a best response over the
strategy played is the certificate: ``0`` (to rounding) at an equilibrium.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guts.engine.result import Certificate, max_regret_certificate
from guts.errors import GutsInputError

from .layout import Layout
from .rules import P, GameStructure, TerminalNode, component_reached, label

__all__ = ["IntervalStrategy", "strategy_from_points", "plan_returns", "best_response_gains", "ContinuumCheck"]

#: Points closer than this are treated as equal when checking monotonicity.
ORDER_TOL = 1e-12


@dataclass(frozen=True)
class IntervalStrategy:
    """A pure interval strategy: ``parts[(player, component)] = (breaks, plans)``.

    ``breaks`` is increasing from 0 to 1 (length ``len(plans) + 1``); the player follows
    ``plans[i]`` (a :class:`~guts.games.dividing_point.rules.Plan`) on ``[breaks[i], breaks[i+1])``.
    """

    parts: dict

    def plan_at(self, player, component, z):
        breaks, plans = self.parts[(player, component)]
        i = int(np.searchsorted(breaks, z, side="right") - 1)
        return plans[min(max(i, 0), len(plans) - 1)]

    def intervals(self, player):
        """``[(component label, lo, hi, plan name), ...]`` bottom to top per component."""
        out = []
        for (p, comp), (breaks, plans) in sorted(self.parts.items(), key=lambda kv: (kv[0][0], len(kv[0][1]), kv[0][1])):
            if p != player:
                continue
            for i, pl in enumerate(plans):
                out.append((label(comp), float(breaks[i]), float(breaks[i + 1]), pl.name))
        return out


def strategy_from_points(structure: GameStructure, layout: Layout, points: dict) -> IntervalStrategy:
    """The interval strategy a layout describes at numeric ``points``.

    Raises
    ------
    GutsInputError
        If a point is outside [0, 1] or a player's own points are not increasing
        (such numbers do not describe a strategy of the assumed shape).
    """
    parts = {}
    for seg in layout.segmentations:
        vals = []
        for name in seg.points:
            v = float(points[name])
            if not (-ORDER_TOL <= v <= 1 + ORDER_TOL) or not np.isfinite(v):
                raise GutsInputError(f"dividing point {name} = {v!r} is outside [0, 1]")
            vals.append(min(max(v, 0.0), 1.0))
        breaks = np.array([0.0] + vals + [1.0])
        if np.any(np.diff(breaks) < -ORDER_TOL):
            raise GutsInputError(
                f"{seg.describe()}: the points {dict(zip(seg.points, vals))} are not increasing"
            )
        breaks = np.maximum.accumulate(breaks)
        plans = tuple(structure.plan(seg.player, seg.component, n) for n in seg.plans)
        parts[(seg.player, seg.component)] = (breaks, plans)
    return IntervalStrategy(parts=parts)


def _measure_below(lo, hi, z):
    """Length of ``[lo, hi] ∩ [0, z]`` for an array ``z``."""
    return np.clip(z, lo, hi) - lo


def _terminal_return(t: TerminalNode, player: int, pot: float) -> tuple:
    """(return if ``player`` has the higher hand, return if lower), numeric."""
    sub = {P: pot}
    if t.folder is not None:
        r = float(t.return_to(player, 1 - t.folder).subs(sub))
        return r, r
    amt = float(t.amount().subs(sub))
    return amt, -amt


def plan_returns(structure: GameStructure, strategy: IntervalStrategy, player: int, component, pot: float):
    """Knots ``z`` and ``{plan name: U(z)}``: ``player``'s return from each plan at ``component``
    as a function of his hand (piecewise linear between the knots; exact at them)."""
    first = structure.rules.first
    other = 1 - player
    knots = {0.0, 1.0}
    for (p, _), (breaks, _) in strategy.parts.items():
        if p == other:
            knots.update(float(b) for b in breaks)
    z = np.array(sorted(knots))
    out = {}
    cache = {}
    for plan in structure.plans[(player, component)]:
        u = np.zeros_like(z)
        if player == first:
            comp = component_reached(structure, plan, other)
            if comp is None:
                t = structure.play(plan, plan)
                hi, lo = _ret(cache, t, player, pot)
                u += hi * z + lo * (1 - z)
            else:
                breaks, plans = strategy.parts[(other, comp)]
                for i, opl in enumerate(plans):
                    a, b = breaks[i], breaks[i + 1]
                    t = structure.play(plan, opl)
                    hi, lo = _ret(cache, t, player, pot)
                    below = _measure_below(a, b, z)
                    u += hi * below + lo * ((b - a) - below)
        else:
            breaks, plans = strategy.parts[(other, structure.root.history)]
            for i, opl in enumerate(plans):
                if component_reached(structure, opl, player) != component:
                    continue
                a, b = breaks[i], breaks[i + 1]
                t = structure.play(opl, plan)
                hi, lo = _ret(cache, t, player, pot)
                below = _measure_below(a, b, z)
                u += hi * below + lo * ((b - a) - below)
        out[plan.name] = u
    return z, out


def _ret(cache, t, player, pot):
    key = (t.history, player)
    if key not in cache:
        cache[key] = _terminal_return(t, player, pot)
    return cache[key]


def _integrate_max(z, lines):
    """Exact integral over [z0, z_end] of the upper envelope of piecewise-linear functions."""
    total = 0.0
    U = np.array(lines)  # (n_plans, n_knots)
    for k in range(len(z) - 1):
        z0, z1 = z[k], z[k + 1]
        if z1 <= z0:
            continue
        f0, f1 = U[:, k], U[:, k + 1]
        cuts = [0.0, 1.0]
        n = len(f0)
        for i in range(n):
            for j in range(i + 1, n):
                d0 = f0[i] - f0[j]
                d1 = f1[i] - f1[j]
                if d0 * d1 < 0:
                    cuts.append(d0 / (d0 - d1))
        cuts = np.unique(np.array(cuts))
        vals = np.max(f0[:, None] * (1 - cuts) + f1[:, None] * cuts, axis=0)
        total += float(np.sum((vals[1:] + vals[:-1]) / 2 * np.diff(cuts))) * (z1 - z0)
    return total


def _integrate_played(z, lines, breaks, plan_names):
    """Exact integral of the return of the plans actually played on each own interval."""
    total = 0.0
    for i, name in enumerate(plan_names):
        a, b = breaks[i], breaks[i + 1]
        if b <= a:
            continue
        pts = np.unique(np.concatenate([[a, b], z[(z > a) & (z < b)]]))
        vals = np.interp(pts, z, lines[name])
        total += float(np.sum((vals[1:] + vals[:-1]) / 2 * np.diff(pts)))
    return total


def _unattended(structure, strategy, player, pot):
    """Second player's return from the first player's plans that end the round before he acts."""
    first = structure.rules.first
    breaks, plans = strategy.parts[(first, structure.root.history)]
    total = 0.0
    for i, plan in enumerate(plans):
        if component_reached(structure, plan, player) is not None:
            continue
        a, b = breaks[i], breaks[i + 1]
        hi, lo = _terminal_return(structure.play(plan, plan), player, pot)
        # the second player's hand y is above x with probability 1 - x
        total += hi * ((b - a) - (b * b - a * a) / 2) + lo * (b * b - a * a) / 2
    return total


@dataclass(frozen=True)
class ContinuumCheck:
    """Result of :func:`best_response_gains`.

    ``values[p]`` is player p's expected return under the strategy, ``best[p]`` his best
    response value, ``gains[p] = best[p] - values[p]`` (>= 0), ``max_gain = max(gains)``;
    ``certificate`` names it (kind ``"max_regret"``, with the exploitability and NashConv).
    """

    values: tuple
    best: tuple
    gains: tuple

    @property
    def max_gain(self) -> float:
        """The largest best-response gain of either player."""
        return max(self.gains)

    @property
    def certificate(self) -> Certificate:
        return max_regret_certificate(self.gains)

    @property
    def exploitability(self) -> float:
        return sum(self.gains) / 2


def best_response_gains(structure: GameStructure, strategy: IntervalStrategy, pot: float) -> ContinuumCheck:
    """Both players' exact best-response gains against an interval strategy (any pot ``P > 0``)."""
    values, best = [], []
    for p in (0, 1):
        v = b = 0.0
        for comp in structure.components[p]:
            z, lines = plan_returns(structure, strategy, p, comp, pot)
            breaks, plans = strategy.parts[(p, comp)]
            b += _integrate_max(z, [lines[pl.name] for pl in structure.plans[(p, comp)]])
            v += _integrate_played(z, lines, breaks, [pl.name for pl in plans])
        if p != structure.rules.first:  # resolutions the second player never acts in: a constant
            c = _unattended(structure, strategy, p, pot)
            v += c
            b += c
        values.append(v)
        best.append(b)
    gains = tuple(max(b - v, 0.0) for b, v in zip(best, values))
    return ContinuumCheck(values=tuple(values), best=tuple(best), gains=gains)
