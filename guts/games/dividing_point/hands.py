"""Dividing points on a discrete, ranked hand list (Hundal and Reitzen, US patent 6,129,631, FIG. 29; claims 31-33).

Real hands have discrete ranks: a player's *rank* of a hand is its value of the
cumulative hand-rank distribution, in [0, 1].  A dividing point ``v`` usually falls
between two ranks ``r_lo < v < r_hi``; with ``a = v - r_lo`` and ``b = r_hi - v`` the
patent makes a "virtual hand" at ``v`` by mixing:

* ``kind="lowest"`` (``v`` is the lowest rank of the action above it, like C1): the hand
  below follows the action *above* ``b / (a + b)`` of the time, the hand above always
  does (FIG. 29: C1 = 0.2686 between 0.2676 and 0.2706 gives 2/3);
* ``kind="highest"`` (``v`` is the highest rank of the action below it, like b2): the hand
  above follows the action *below* ``a / (a + b)`` of the time, the hand below always does;
* ``kind="both"`` (the patent's other embodiment, claims 32-33): both of the above.

A hand whose rank equals ``v`` follows the side the definition puts it on (the action
above for ``"lowest"``, below for ``"highest"``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guts._validate import check_choice
from guts.errors import GutsInputError

__all__ = ["HandSplit", "split_at", "PATENT_POINT_KIND", "point_kind", "hand_strategy"]

KINDS = ("lowest", "highest", "both")

#: Which end of an interval each of the patent's points is defined as ("lowest hand with
#: which ..." or "highest hand with which ..."): from the text where it says so (FIGS. 8,
#: 12), by the same reading for FIG. 24 (bluff tops "highest", everything else "lowest").
PATENT_POINT_KIND = {
    "a": {"b1": "highest", "B1": "lowest", "C2": "lowest"},
    "b": {"b1": "lowest", "rr1": "highest", "C1": "lowest", "B1": "lowest", "C1R": "lowest", "RR1": "lowest",
          "r2": "highest", "C2": "lowest", "R2": "lowest", "C2RR": "lowest", "b2": "highest", "B2": "lowest"},
    "c": {"b1": "lowest", "rr1": "highest", "kr1": "highest", "C1": "lowest", "B1": "lowest", "C1R": "lowest",
          "KR1": "lowest", "C1RR": "lowest", "RR1": "lowest", "r2": "highest", "C2": "lowest", "R2": "lowest",
          "C2RR": "lowest", "b2": "lowest", "rr2": "highest", "B2": "lowest", "C2R": "lowest", "RR2": "lowest"},
}
PATENT_POINT_KIND["d"] = dict(PATENT_POINT_KIND["a"])


def point_kind(game: str, name: str) -> str:
    """``"lowest"`` or ``"highest"`` for one of the patent's points."""
    check_choice("game", game, tuple(PATENT_POINT_KIND))
    if name not in PATENT_POINT_KIND[game]:
        raise GutsInputError(f"game {game!r} has no point {name!r}; accepted: {', '.join(PATENT_POINT_KIND[game])}")
    return PATENT_POINT_KIND[game][name]


@dataclass(frozen=True)
class HandSplit:
    """How the hands next to a dividing point play (FIG. 29).

    ``lower``/``upper``: indices into the rank list of the hands just below and just
    above ``value`` (``None`` past either end); ``a = value - rank[lower]``,
    ``b = rank[upper] - value``; ``p_lower_above`` / ``p_upper_above``: the probability
    that each follows the action *above* the point.  ``exact`` is the index of a hand
    whose rank equals ``value`` (then no mixing).
    """

    value: float
    kind: str
    lower: int | None
    upper: int | None
    a: float
    b: float
    p_lower_above: float
    p_upper_above: float
    exact: int | None = None


def _ranks(ranks) -> np.ndarray:
    r = np.asarray(ranks, dtype=float)
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)):
        raise GutsInputError("ranks must be a non-empty 1-D list of finite numbers")
    if np.any(np.diff(r) <= 0) or r[0] < 0 or r[-1] > 1:
        raise GutsInputError("ranks must increase strictly and lie in [0, 1] (a cumulative hand-rank list)")
    return r


def split_at(ranks, value: float, kind: str = "lowest", *, atol: float = 1e-12) -> HandSplit:
    """The patent's interpolation for one dividing point on a ranked hand list.

    Examples
    --------
    FIG. 29: C1 = 0.2686 between hands ranked 0.2676 and 0.2706 (``a = 0.001``,
    ``b = 0.002``); C1 is the lowest pass-call rank, so the lower hand pass-calls 2/3
    of the time.

    >>> s = split_at([0.2646, 0.2676, 0.2706, 0.2736], 0.2686, "lowest")
    >>> (s.lower, s.upper, round(s.p_lower_above, 6), s.p_upper_above)
    (1, 2, 0.666667, 1.0)
    """
    check_choice("kind", kind, KINDS)
    r = _ranks(ranks)
    v = float(value)
    if not (0.0 <= v <= 1.0):
        raise GutsInputError(f"a dividing point is in [0, 1]; got {value!r}")
    hit = np.flatnonzero(np.abs(r - v) <= atol)
    if hit.size:
        i = int(hit[0])
        lower = i - 1 if i > 0 else None
        upper = i + 1 if i + 1 < r.size else None
        return HandSplit(v, kind, lower, upper, 0.0, 0.0, 0.0, 1.0, exact=i)
    up = int(np.searchsorted(r, v))
    lower = up - 1 if up > 0 else None
    upper = up if up < r.size else None
    if lower is None or upper is None:  # the point lies beyond every hand: nobody mixes
        return HandSplit(v, kind, lower, upper, float("nan"), float("nan"), 0.0, 1.0)
    a, b = v - r[lower], r[upper] - v
    p_lower_above = b / (a + b) if kind in ("lowest", "both") else 0.0
    p_upper_above = 1.0 - a / (a + b) if kind in ("highest", "both") else 1.0
    return HandSplit(v, kind, lower, upper, float(a), float(b), float(p_lower_above), float(p_upper_above))


def hand_strategy(ranks, intervals, kinds: dict | None = None) -> list:
    """Each ranked hand's distribution over plans for one component's interval strategy.

    Parameters
    ----------
    ranks : increasing ranks in [0, 1]
    intervals : sequence of ``(lo, hi, plan)`` covering [0, 1] bottom to top, with the
        dividing point names optional as a 4th item ``(lo, hi, plan, upper_point_name)``.
    kinds : dict, optional
        ``{point name: "lowest" | "highest" | "both"}`` (default ``"lowest"``).

    Returns
    -------
    list of dict
        ``{plan: probability}`` per hand.
    """
    r = _ranks(ranks)
    kinds = kinds or {}
    out = []
    for x in r:  # the plan of the interval holding the hand (ties: the upper interval)
        plan = intervals[-1][2]
        for iv in intervals:
            if iv[0] <= x < iv[1]:
                plan = iv[2]
                break
        out.append({plan: 1.0})
    for k in range(len(intervals) - 1):
        below, above = intervals[k][2], intervals[k + 1][2]
        v = intervals[k][1]
        name = intervals[k][3] if len(intervals[k]) > 3 else None
        s = split_at(r, v, kinds.get(name, "lowest"))
        if s.exact is not None:
            out[s.exact] = {above: 1.0} if s.kind != "highest" else {below: 1.0}
            continue
        for idx, p_above in ((s.lower, s.p_lower_above), (s.upper, s.p_upper_above)):
            if idx is None:
                continue
            if p_above >= 1.0:
                out[idx] = {above: 1.0}
            elif p_above <= 0.0:
                out[idx] = {below: 1.0}
            else:
                out[idx] = {above: p_above, below: 1.0 - p_above}
    return out
