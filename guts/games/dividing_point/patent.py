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

from functools import lru_cache

from guts._validate import check_choice

from .layout import make_layout
from .method import solve_layout
from .rules import BettingRules, derive

__all__ = ["PATENT_GAMES", "patent_rules", "patent_layout", "solve_patent_game", "GAME_NAMES"]

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


def solve_patent_game(game: str, pot=1, *, layout=None, warn: bool = True):
    """Solve one of the patent's four games at pot ``P`` by the dividing-point method.

    Parameters
    ----------
    game : {"a", "b", "c", "d"}
    pot : number > 0
        The total ante P (each player antes P/2).
    layout : Layout, optional
        An order other than the patent's (e.g. the one inferred from the LP).

    Returns
    -------
    DividingPointResult
        ``points`` by the patent's names, ``value`` = P1's expected net per game
        (ante included), ``converged`` and the continuum ``certificate``.
    """
    check_choice("game", game, GAME_NAMES)
    lay = patent_layout(game) if layout is None else layout
    return solve_layout(patent_rules(game), lay, pot, game=game, warn=warn)
