"""The assumed order of dividing points (FIG. 9 steps 925-935, FIG. 31 step 3100).

A *layout* says, for each player and each of his components (his first decision
nodes), which plan (action sequence) he follows on each interval of his hand axis,
from the bottom up, and names the dividing points between consecutive intervals; then
it gives one total order of all the dividing points of both players (the patent's
``0 < r2 < b1 < rr1 < ... < RR1 < 1``).  The expected return is a polynomial only once
this order is fixed: it decides which side of the diagonal each rectangle lies on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from guts.errors import GutsInputError

from .rules import PLAYER_NAMES, GameStructure, label

__all__ = ["Segmentation", "Layout", "make_layout", "parse_order"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Segmentation:
    """One player's plans on one component, bottom to top, and the points between them."""

    player: int
    component: tuple
    plans: tuple
    points: tuple

    def describe(self) -> str:
        parts = [self.plans[0]]
        for pt, pl in zip(self.points, self.plans[1:]):
            parts += [pt, pl]
        return f"{PLAYER_NAMES[self.player]} at {label(self.component)}: " + " | ".join(parts)


@dataclass(frozen=True)
class Layout:
    """Every player's segmentations and the total order of all dividing points."""

    segmentations: tuple
    order: tuple

    @property
    def points(self) -> tuple:
        return self.order

    def owner(self, point: str) -> int:
        for s in self.segmentations:
            if point in s.points:
                return s.player
        raise KeyError(point)

    def rank(self, endpoint) -> int:
        """Position on the common axis: 0 -> -1, 1 -> len(order), a point -> its index."""
        if endpoint == 0:
            return -1
        if endpoint == 1:
            return len(self.order)
        return self.order.index(endpoint)

    def describe(self) -> str:
        lines = [s.describe() for s in self.segmentations]
        lines.append("order: 0 < " + " < ".join(self.order) + " < 1")
        return "\n".join(lines)


def parse_order(text: str) -> tuple:
    """``"0 < r2 < b1 <= C1 < 1"`` -> ``("r2", "b1", "C1")``.

    ``<=`` (the patent's ``C2 <= C1``) is read as ``<``: the expected return is
    continuous, so the two readings give the same polynomial at a tie.
    """
    if not isinstance(text, str):
        return tuple(text)
    toks = [t.strip() for t in re.split(r"<=|<", text) if t.strip()]
    return tuple(t for t in toks if t not in ("0", "1"))


def _parse_segmentation(text) -> tuple:
    if isinstance(text, str):
        toks = [t.strip() for t in text.split("|")]
    else:
        toks = [str(t).strip() for t in text]
    if len(toks) % 2 == 0 or any(not t for t in toks):
        raise GutsInputError(
            f"a segmentation alternates plans and point names, 'plan | point | plan | ...'; got {text!r}"
        )
    return tuple(toks[0::2]), tuple(toks[1::2])


def make_layout(structure: GameStructure, segmentations: dict, order) -> Layout:
    """Build and check a :class:`Layout`.

    Parameters
    ----------
    structure : GameStructure
        From :func:`guts.games.dividing_point.rules.derive`.
    segmentations : dict
        ``{(player, component): "plan | point | plan | ..."}`` with player 0 or 1 (or
        ``"P1"``/``"P2"``) and component a history or its label (``"root"``, ``"bet"``).
    order : str or sequence of str
        All dividing points, increasing (``"0 < b1 < C2 < B1 < 1"`` or a list).

    Raises
    ------
    GutsInputError
        If a plan is not allowed by the rules, a component is missing or repeated, a point
        is repeated or unknown, or the order contradicts a player's own sequence.
    """
    segs = []
    seen = set()
    for key, text in segmentations.items():
        if not (isinstance(key, tuple) and len(key) == 2):
            raise GutsInputError(f"segmentation keys are (player, component); got {key!r}")
        player, comp = key
        if player in PLAYER_NAMES:
            player = PLAYER_NAMES.index(player)
        if player not in (0, 1):
            raise GutsInputError(f"player must be 0, 1, 'P1' or 'P2'; got {key[0]!r}")
        comp = structure.component(player, comp)
        if (player, comp) in seen:
            raise GutsInputError(f"{PLAYER_NAMES[player]} at {label(comp)} is segmented twice")
        seen.add((player, comp))
        plans, points = _parse_segmentation(text)
        for pl in plans:
            structure.plan(player, comp, pl)  # raises on a plan the rules do not allow
        for a, b in zip(plans, plans[1:]):
            if a == b:
                raise GutsInputError(
                    f"{PLAYER_NAMES[player]} at {label(comp)}: plan {a!r} on both sides of a point; merge them"
                )
        for pt in points:
            if not _NAME.match(pt):
                raise GutsInputError(f"point names are identifiers (letters, digits, _); got {pt!r}")
        segs.append(Segmentation(player=player, component=comp, plans=plans, points=points))
    for p in (0, 1):
        for comp in structure.components[p]:
            if (p, comp) not in seen:
                raise GutsInputError(
                    f"no segmentation for {PLAYER_NAMES[p]} at {label(comp)}; every first decision needs one"
                )
    all_points = [pt for s in segs for pt in s.points]
    dup = {pt for pt in all_points if all_points.count(pt) > 1}
    if dup:
        raise GutsInputError(f"dividing point names must be unique; repeated: {', '.join(sorted(dup))}")
    order = parse_order(order)
    if sorted(order) != sorted(all_points):
        missing = sorted(set(all_points) - set(order))
        extra = sorted(set(order) - set(all_points))
        raise GutsInputError(
            f"the order must list every dividing point once; missing {missing}, unknown {extra}"
        )
    for s in segs:
        idx = [order.index(pt) for pt in s.points]
        if idx != sorted(idx):
            raise GutsInputError(
                f"the order contradicts {PLAYER_NAMES[s.player]}'s own sequence at {label(s.component)}: "
                f"{' < '.join(s.points)} must increase"
            )
    segs.sort(key=lambda s: (s.player, len(s.component), s.component))
    return Layout(segmentations=tuple(segs), order=tuple(order))
