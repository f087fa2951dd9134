"""The patent's prose about FIGS. 12 and 24, transcribed, and checked against its own orders.

Hundal and Reitzen, US patent 6,129,631 (2000), describe the strategies of FIG. 12 (game
"b") and FIG. 24 (game "c") twice: as a total order of the dividing points ("0 < r2 < b1 <
rr1 < ...") and in prose, sequence by sequence ("the hands with which P1 pass-folds are hands
2412 (between kr1 and C1)").  Each prose statement is transcribed below as ``(player,
component, sequence, intervals)``: ``sequence`` is an action sequence or its beginning (P1's
"passes" covers pass-fold, pass-call, pass-raise-...), ``intervals`` the ``(lo, hi)`` pairs
the sentence gives.  :func:`check_statements` compares each interval with the maximal runs of
the layout (:func:`.patent.patent_layout`) on which the player follows a plan beginning with
``sequence``: a printed interval must be exactly one such run, and a statement marked
``complete`` must list all of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from .patent import patent_layout
from .rules import label

__all__ = ["IntervalStatement", "STATEMENTS", "check_statements", "plan_runs"]


@dataclass(frozen=True)
class IntervalStatement:
    """One prose statement: in ``game``, ``player`` (0 or 1) at ``component`` (a label)
    follows sequences beginning with ``sequence`` on ``intervals``."""

    game: str
    where: str          # the figure and the hands' reference numerals, to find the sentence
    player: int
    component: str
    sequence: str
    intervals: tuple
    complete: bool = False
    quote: str = ""


S = IntervalStatement
STATEMENTS = (
    # ---- game b, FIG. 12 (the text after Table 10) -------------------------------------
    S("b", "FIG. 12, hands 1202/1204/1206", 0, "root", "bet", (("0", "rr1"), ("B1", "1")), True,
      "the hands 1202 between zero and rr1 ... bluff-bets ... The hands 1206 between B1 and 1 ... bets"),
    S("b", "FIG. 12, hands 1204", 0, "root", "pass", (("rr1", "B1"),), True,
      "The hands 1204 between rr1 and B1 represent hands with which P1 passes"),
    S("b", "FIG. 12, hands 1210", 0, "root", "pass-fold", (("b1", "C1"),), True,
      "the hands 1210 between b1 and C1 represent the portion of P1's passing hands 1204 with which "
      "P1 will fold ... The interval between b1 and C1 thus represents hands that trigger a "
      "'pass-fold' action sequence"),
    S("b", "FIG. 12, hands 1208", 0, "root", "pass-call", (("C1", "B1"),), True,
      "the hands 1208 between C1 and B1 represent the portion of P1's passing hands 1204 with which P1 will call"),
    S("b", "FIG. 12, hands 1212/1214/1216", 0, "root", "bet-fold", (("B1", "C1R"),), False,
      "hands 1212 between B1 and C1R represent hands that trigger a 'bet-fold' sequence"),
    S("b", "FIG. 12, hands 1214", 0, "root", "bet-call", (("C1R", "RR1"),), True,
      "Hands 1214 between C1R and RR1 represent hands that trigger a 'bet-call' sequence"),
    S("b", "FIG. 12, hands 1216/1220", 0, "root", "bet-reraise", (("b1", "rr1"), ("RR1", "1")), True,
      "hands 1220 between b1 and rr1 ... '(bluff) bet-reraise' ... Hands 1216 between RR1 and 1 ... 'bet-reraise'"),
    S("b", "FIG. 12, hands 1218", 0, "root", "bet-fold", (("0", "b1"), ("B1", "C1R")), True,
      "hands 1218 between 0 and b1 ... '(bluff) bet-fold' (and 1212 between B1 and C1R)"),
    S("b", "FIG. 12, hands 1232-1238", 1, "bet", "raise", (("0", "r2"), ("R2", "1")), True,
      "hands 1232 between 0 and r2 ... bluff raises ... Hands 1238 between R2 and 1 ... raises"),
    S("b", "FIG. 12, hands 1234", 1, "bet", "fold", (("r2", "C2"),), True,
      "Hands 1234 between r2 and C2 represent hands with which P2 folds if P1 bets"),
    S("b", "FIG. 12, hands 1236", 1, "bet", "call", (("C2", "R2"),), True,
      "Hands 1236 between C2 and R2 represent hands with which P2 calls if P1 bets"),
    S("b", "FIG. 12, hands 1240/1244", 1, "bet", "raise-fold", (("0", "r2"), ("R2", "C2RR")), True,
      "hands 1240 and 1244 between 0 and r2, and R2 and C2RR ... a 'raise-fold' action sequence"),
    S("b", "FIG. 12, hands 1246", 1, "bet", "raise-call", (("C2RR", "1"),), True,
      "Hands 1246 between C2RR and 1 ... a 'raise-call' action sequence"),
    S("b", "FIG. 12, hands 1248/1252", 1, "pass", "bet", (("0", "b2"), ("B2", "1")), True,
      "Hands 1248 between 0 and b2 ... bluff bet ... legitimate betting hands 1252 between B2 and 1"),
    S("b", "FIG. 12, hands 1250", 1, "pass", "pass", (("b2", "B2"),), True,
      "Hands 1250 between b2 and B2 represent hands with which P2 will pass if P1 passes"),
    S("b", "FIG. 14 (step 1024)", 0, "root", "pass-fold", (("rr1", "C1"),), True,
      "P1 pass-folds with hands 1210 between rr1 and C1"),
    # ---- game c, FIG. 24 -----------------------------------------------------------------
    S("c", "FIG. 24, hands 2426/2430", 0, "root", "pass", (("rr1", "B1"), ("KR1", "RR1")), True,
      "the hands with which P1 passes are hands 2426 (between rr1 and B1) and 2430 (between KR1 and RR1)"),
    S("c", "FIG. 24, hands 2412", 0, "root", "pass-fold", (("kr1", "C1"),), True,
      "The hands with which P1 pass-folds are hands 2412 (between kr1 and C1)"),
    S("c", "FIG. 24, hands 2414", 0, "root", "pass-call", (("C1", "B1"),), True,
      "The hands with which P1 pass-calls are hands 2414 (between C1 and B1)"),
    S("c", "FIG. 24, hands 2410/2420", 0, "root", "pass-raise", (("rr1", "kr1"), ("KR1", "RR1")), True,
      "P1 pass-raises (check raises) are hands 2410 (bluff-raise, between rr1 and kr1) and 2420 (between KR1 and RR1)"),
    S("c", "FIG. 24, hands 2400/2402", 0, "root", "pass-raise-fold", (("rr1", "kr1"), ("KR1", "C1RR")), True,
      "P1 pass-raise-folds are hands 2400 (between rr1 and kr1) and 2402 (between KR1 and C1RR)"),
    S("c", "FIG. 24, hands 2404", 0, "root", "pass-raise-call", (("C1RR", "RR1"),), True,
      "P1 pass-raise-calls are hands 2404 (between C1RR and RR1)"),
    S("c", "FIG. 24, hands 2424/2428/2432", 0, "root", "bet", (("0", "rr1"), ("B1", "KR1"), ("RR1", "1")), True,
      "P1 bets are hands 2424 (bluff bet, between 0 and rr1), 2428 (between B1 and KR1), and 2432 (between RR1 and 1)"),
    S("c", "FIG. 24, hands 2406/2416", 0, "root", "bet-fold", (("0", "b1"), ("B1", "C1R")), True,
      "P1 bet-folds are hands 2406 (between 0 and b1) and 2416 (between B1 and C1R)"),
    S("c", "FIG. 24, hands 2418", 0, "root", "bet-call", (("C1R", "KR1"),), True,
      "P1 bet-calls are hands 2418 (between C1R and KR1)"),
    S("c", "FIG. 24, hands 2408/2422", 0, "root", "bet-reraise", (("b1", "rr1"), ("RR1", "1")), True,
      "P1 bet-reraises are hands 2408 (bluff reraise, between b1 and rr1) and 2422 (between RR1 and 1)"),
    S("c", "FIG. 24, hands 2442", 1, "bet", "fold", (("r2", "C2"),), True,
      "the hands with which P2 folds are hands 2442 (between r2 and C2)"),
    S("c", "FIG. 24, hands 2456", 1, "pass", "pass", (("rr2", "B2"),), True,
      "The hands with which P2 passes are hands 2456 (between rr2 and B2)"),
    S("c", "FIG. 24, hands 2444", 1, "bet", "call", (("C2", "R2"),), True,
      "The hands with which P2 calls are hands 2444 (between C2 and R2)"),
    S("c", "FIG. 24, hands 2454/2458", 1, "pass", "bet", (("0", "rr2"), ("B2", "1")), True,
      "P2 bets are hands 2454 (bluff-bet, between 0 and rr2) and 2458 (between B2 and 1)"),
    S("c", "FIG. 24, hands 2440/2446", 1, "bet", "raise", (("0", "r2"), ("R2", "1")), True,
      "P2 raises are hands 2440 (bluff-raise, between 0 and r2) and 2446 (between R2 and 1)"),
    S("c", "FIG. 24, hands 2460/2464", 1, "pass", "bet-fold", (("0", "b2"), ("B2", "C2R")), True,
      "P2 bet-folds are hands 2460 (between 0 and b2) and 2464 (between B2 and C2R)"),
    S("c", "FIG. 24, hands 2466", 1, "pass", "bet-call", (("C2R", "RR2"),), True,
      "P2 bet-calls are hands 2466 (between C2R and RR2)"),
    S("c", "FIG. 24, hands 2462/2468", 1, "pass", "bet-reraise", (("b2", "rr2"), ("RR2", "1")), True,
      "P2 bet-reraises are hands 2462 (bluff-reraise, between b2 and rr2) and 2468 (between RR2 and 1)"),
    S("c", "FIG. 24, hands 2448/2450", 1, "bet", "raise-fold", (("0", "r2"), ("R2", "C2RR")), True,
      "P2 raise-folds are hands 2448 (between 0 and r2) and 2450 (between R2 and C2RR)"),
    S("c", "FIG. 24, hands 2452", 1, "bet", "raise-call", (("C2RR", "1"),), True,
      "P2 raise-calls are hands 2452 between C2RR and 1"),
)


def plan_runs(game: str, player: int, component: str, sequence: str) -> tuple:
    """The maximal runs ``(lo, hi)`` (point names, ``"0"``/``"1"``) of the patent's layout on
    which ``player`` at ``component`` follows a plan equal to or beginning with ``sequence``."""
    lay = patent_layout(game)
    seg = next(s for s in lay.segmentations if s.player == player and label(s.component) == component)
    ends = ("0",) + tuple(seg.points) + ("1",)
    runs, start = [], None
    for i, plan in enumerate(seg.plans):
        hit = plan == sequence or plan.startswith(sequence + "-")
        if hit and start is None:
            start = ends[i]
        if not hit and start is not None:
            runs.append((start, ends[i]))
            start = None
    if start is not None:
        runs.append((start, "1"))
    return tuple(runs)


def check_statements(statements=STATEMENTS) -> list:
    """``[(statement, agrees, runs)]``: does each prose statement match the patent's own order?"""
    out = []
    for st in statements:
        runs = plan_runs(st.game, st.player, st.component, st.sequence)
        ok = all(iv in runs for iv in st.intervals) and (not st.complete or set(runs) == set(st.intervals))
        out.append((st, ok, runs))
    return out
