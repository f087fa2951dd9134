"""The four games of Hundal and Reitzen, US patent 6,129,631 with the patent's names and assumed orders.

=====  ==========================================  ==================  ===============
game   rules                                        figures             order
=====  ==========================================  ==================  ===============
"a"    one round, no raising, limit (bet 1)         FIG. 6-8            ``b1 < C2 < B1``
"b"    raising, no check-raise, cap 2 raises         FIGS. 10A-B, 12     FIG. 12 text
"c"    check-raise allowed, cap 2 raises             FIGS. 23A-C, 24     FIG. 24 text
"d"    game "a" with pot-limit betting (bet = P)     FIG. 27             ``b1 < C2 < B1``
=====  ==========================================  ==================  ===============

The orders are the patent's, transcribed from the text (FIG. 12: "0<r2<b1<rr1<b2<C2<=C1
<B2<B1<C1R<R2<C2RR<RR1"; FIG. 24: "0<r2<b1<rr1<kr1<b2<rr2<C1<=C2<B2<C2R<B1<C1R<R2<C2RR
<KR1<C1RR<RR2<RR1<1") together with the plan of every interval the text describes.
Whether they are right is checked, not assumed (:func:`solve_patent_game` certifies).
"""
from __future__ import annotations

import math
from functools import lru_cache

from guts.engine.result import Solution
from guts._validate import check_bool, check_choice, check_int, check_memory
from guts.errors import GutsInputError

from .discrete import MAX_MESH, mesh_memory_estimate
from .infer import MIN_MESH as INFER_MIN_MESH, READ_FORMULATION
from .layout import Layout, make_layout
from .method import solve_layout
from .rules import BettingRules, derive

__all__ = ["PATENT_GAMES", "patent_rules", "patent_layout", "solve_patent_game", "GAME_NAMES",
           "patent_order_interval", "patent_names", "PATENT_FIGURES", "ORDER_SEARCH", "SAME_POINT_TOL"]

GAME_NAMES = ("a", "b", "c", "d")

PATENT_GAMES = {
    "a": dict(
        rules=BettingRules(name="a: one round, no raising, limit (FIG. 6)", bet_after_check=False, raise_cap=0),
        segs={("P1", "root"): "bet | b1 | pass | B1 | bet", ("P2", "bet"): "fold | C2 | call"},
        order="0 < b1 < C2 < B1 < 1",
    ),
    "b": dict(
        rules=BettingRules(name="b: raising, no check-raise (FIGS. 10A-B)", raise_cap=2, check_raise=False),
        segs={
            ("P1", "root"): "bet-fold | b1 | bet-reraise | rr1 | pass-fold | C1 | pass-call | B1 | "
                            "bet-fold | C1R | bet-call | RR1 | bet-reraise",
            ("P2", "bet"): "raise-fold | r2 | fold | C2 | call | R2 | raise-fold | C2RR | raise-call",
            ("P2", "pass"): "bet | b2 | pass | B2 | bet",
        },
        order="0 < r2 < b1 < rr1 < b2 < C2 <= C1 < B2 < B1 < C1R < R2 < C2RR < RR1 < 1",
    ),
    "c": dict(
        rules=BettingRules(name="c: check-raise (FIGS. 23A-C)", raise_cap=2, check_raise=True),
        segs={
            ("P1", "root"): "bet-fold | b1 | bet-reraise | rr1 | pass-raise-fold | kr1 | pass-fold | C1 | "
                            "pass-call | B1 | bet-fold | C1R | bet-call | KR1 | pass-raise-fold | C1RR | "
                            "pass-raise-call | RR1 | bet-reraise",
            ("P2", "bet"): "raise-fold | r2 | fold | C2 | call | R2 | raise-fold | C2RR | raise-call",
            ("P2", "pass"): "bet-fold | b2 | bet-reraise | rr2 | pass | B2 | bet-fold | C2R | bet-call | "
                            "RR2 | bet-reraise",
        },
        order="0 < r2 < b1 < rr1 < kr1 < b2 < rr2 < C1 <= C2 < B2 < C2R < B1 < C1R < R2 < C2RR < KR1 "
              "< C1RR < RR2 < RR1 < 1",
    ),
    "d": dict(
        rules=BettingRules(name="d: pot limit, no raising (FIG. 27)", bet_after_check=False, raise_cap=0,
                           betting="pot"),
        segs={("P1", "root"): "bet | b1 | pass | B1 | bet", ("P2", "bet"): "fold | C2 | call"},
        order="0 < b1 < C2 < B1 < 1",
    ),
}


def patent_rules(game: str) -> BettingRules:
    """The rules of patent game ``"a"``-``"d"``."""
    check_choice("game", game, GAME_NAMES)
    return PATENT_GAMES[game]["rules"]


@lru_cache(maxsize=None)
def patent_layout(game: str):
    """The patent's assumed order for game ``"a"``-``"d"`` as a checked Layout."""
    check_choice("game", game, GAME_NAMES)
    g = PATENT_GAMES[game]
    return make_layout(derive(g["rules"]), g["segs"], g["order"])


#: Where each game's assumed order is printed.
PATENT_FIGURES = {"a": "FIG. 6", "b": "FIG. 12", "c": "FIG. 24", "d": "FIG. 27"}
#: :func:`patent_order_interval` searches ``[lo, hi]`` and stops at this relative width.
ORDER_SEARCH = (1e-3, 1e3, 1e-4)
#: Two solutions' dividing points closer than this are the same point (both are exact
#: rationals rounded to float).
SAME_POINT_TOL = 1e-12


def patent_names(game: str, layout: Layout) -> dict:
    """``{name in layout: the patent's name}`` when ``layout`` has the patent's plans, in the
    patent's sequence, on every player's hand axis (the same dividing points, perhaps
    interleaved differently between the players); ``{}`` otherwise."""
    check_choice("game", game, GAME_NAMES)
    pat = {(s.player, s.component): s for s in patent_layout(game).segmentations}
    own = {(s.player, s.component): s for s in layout.segmentations}
    if set(pat) != set(own) or any(pat[k].plans != own[k].plans for k in pat):
        return {}
    return {a: b for k in pat for a, b in zip(own[k].points, pat[k].points)}


def _patent_certified(game, pot) -> bool:
    return solve_layout(patent_rules(game), patent_layout(game), pot, game=game, warn=False).converged


def _pot(x: float):
    return float(f"{x:.6g}")  # a short decimal: an exact rational with a small denominator


@lru_cache(maxsize=None)
def patent_order_interval(game: str):
    """``(lo, hi)``: the pots around ``P = 1`` at which the patent's order gives a certified equilibrium.

    The stationary point of a fixed order is a rational function of ``P``; the order stops
    certifying where two of its points cross (the printed order is no longer the order of
    the points) or a plan the order leaves out starts to pay.
    Both ends are found by bisection on ``log P`` (to ``ORDER_SEARCH[2]`` relative), each
    step an exact solve and a continuum certificate; an end beyond the search range
    ``ORDER_SEARCH[:2]`` is reported as ``0.0`` or ``inf``.  It is the connected interval
    holding ``P = 1`` (every game's order certifies there).
    """
    check_choice("game", game, GAME_NAMES)
    lo_lim, hi_lim, rel = ORDER_SEARCH

    def edge(inside, outside):
        if _patent_certified(game, _pot(outside)):
            return None
        while abs(math.log(outside / inside)) > rel:
            mid = _pot(math.sqrt(inside * outside))
            if mid in (inside, outside):
                break
            if _patent_certified(game, mid):
                inside = mid
            else:
                outside = mid
        return inside

    lo = edge(1.0, lo_lim)
    hi = edge(1.0, hi_lim)
    return (0.0 if lo is None else lo, math.inf if hi is None else hi)


def solve_patent_game(game: str, pot=1, *, layout=None, warn: bool = True, order: str = "auto",
                      mesh: int = 120) -> Solution:
    """Solve one of the patent's four games at pot ``P`` by the dividing-point method.

    Parameters
    ----------
    game : {"a", "b", "c", "d"}
    pot : number > 0
        The total ante P (each player antes P/2).
    layout : Layout, optional
        An order other than the patent's (e.g. the one inferred from the LP); solved as given.
    order : {"auto", "patent"}
        ``"patent"``: the patent's printed order only.  Its stationary point may break that
        order or not be an equilibrium at this pot: then ``converged`` is False, ``reason``
        says which, and ``max_gain`` is the best-response gain of the strategy profile its
        points describe (``nan`` when a player's own points cross: no strategy).
        ``"auto"`` (default): the printed order when it certifies; otherwise the order is
        read from the mesh LP and certified (:func:`.infer.infer_and_solve`, starting at
        ``mesh`` hands), and ``extra`` records ``order="inferred"``, the interval of pots on
        which the printed order certifies (:func:`patent_order_interval`), what failed
        (``patent_failure``: the patent-order solution's ``reason``), ``patent_names`` (the
        inferred points' patent names, :func:`patent_names`), ``same_points_as_patent``
        (the certified points equal the patent-order stationary point's, to
        :data:`SAME_POINT_TOL`) and the inference steps.
    mesh : int
        Hands per player of the first mesh LP the order is read at (``order="auto"``):
        an integer from :data:`.infer.MIN_MESH` to :data:`.discrete.MAX_MESH` whose LP fits the
        memory budget; checked whether or not the printed order certifies.

    Returns
    -------
    Solution
        Its details a :class:`~.method.DividingPointResult`: ``points`` by the patent's names (by position, ``P1_1``..., when inferred),
        ``value`` = P1's expected net per game (ante included), ``converged`` and the
        continuum ``certificate``.
    """
    check_choice("game", game, GAME_NAMES)
    check_choice("order", order, ("auto", "patent"))
    warn = check_bool("warn", warn)
    mesh = check_int("mesh", mesh, INFER_MIN_MESH, MAX_MESH)
    # the order is read from the sequence form's vertex: refuse a mesh that cannot fit
    check_memory(f"the {mesh}-hand mesh game", mesh_memory_estimate(patent_rules(game), mesh, READ_FORMULATION),
                 "use a smaller mesh")
    if layout is not None and not isinstance(layout, Layout):
        raise GutsInputError(f"layout must be a guts.games.dividing_point.layout.Layout or None; got {layout!r}")
    if layout is not None:
        return solve_layout(patent_rules(game), layout, pot, game=game, warn=warn)
    r = solve_layout(patent_rules(game), patent_layout(game), pot, game=game, warn=warn and order == "patent")
    if r.converged or order == "patent":
        return r
    from .infer import infer_and_solve  # (infer builds on this module's solver)

    io = infer_and_solve(patent_rules(game), pot, mesh, game=game)
    names = patent_names(game, io.layout)
    same = bool(names) and all(abs(io.result.points[k] - r.points[v]) <= SAME_POINT_TOL for k, v in names.items())
    extra = dict(io.result.extra, order="inferred", patent_order_interval=patent_order_interval(game),
                 patent_failure=r.reason, patent_names=names, same_points_as_patent=same,
                 mesh=io.mesh, lp_value=io.lp_value, steps=io.steps, layout_object=io.layout)
    return io.result.replace(extra=extra)
