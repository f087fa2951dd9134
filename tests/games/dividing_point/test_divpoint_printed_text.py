"""The patent's prose, tables and worked examples against its own orders and the rules
(Hundal and Reitzen, US patent 6,129,631 (2000)): the discrepancies listed in
docs/dividing_point.md, each checked here."""
from fractions import Fraction

import pytest

from guts.games.dividing_point import derive, patent_rules, pot_growth, solve_patent_game
from guts.games.dividing_point.printed_text import STATEMENTS, check_statements


def test_divpoint_prose_intervals_agree_with_the_orders_except_fig12_pass_fold():
    """36 prose statements of FIGS. 12 and 24; the only one that disagrees with the printed
    order is FIG. 12's "hands 1210 between b1 and C1" (pass-fold), which the order, the
    patent's own E1_1024 = -P/2 [(C1 - rr1) b2 + (C1 - rr1)(1 - B2)] and its later sentence
    ("P1 pass-folds with hands 1210 between rr1 and C1") all put between rr1 and C1."""
    bad = [(st.where, st.intervals, runs) for st, ok, runs in check_statements() if not ok]
    assert bad == [("FIG. 12, hands 1210", (("b1", "C1"),), (("rr1", "C1"),))]
    assert len(STATEMENTS) == 36
    # the certified solution: [b1, rr1] is P1's bluff bet-reraise, not part of pass-fold
    r = solve_patent_game("b", 3)
    assert r.converged and r.points["b1"] < r.points["rr1"] < r.points["C1"]
    p1 = {plan: (lo, hi) for comp, lo, hi, plan in r.intervals[0] if plan in ("pass-fold", "bet-reraise")
          and lo < 0.5}
    assert p1["pass-fold"][0] == pytest.approx(r.points["rr1"], abs=1e-15)
    assert p1["bet-reraise"] == pytest.approx((r.points["b1"], r.points["rr1"]), abs=1e-15)


def _payments(start, steps):
    """Each seat's payments over ``steps``, from the pot after each step (:func:`pot_growth`)."""
    pots = pot_growth(start, steps)
    paid = [Fraction(0)] * len(start)
    before = sum(Fraction(x) for x in start)
    for (seat, _), pot in zip(steps, pots):
        paid[seat] += pot - before
        before = pot
    return pots, paid


def test_divpoint_tables_5_to_7_worked_example():
    """Tables 3-7 (FIGS. 2-3, $1 limit, total ante $1): the pots, and each player's net
    return, derived from the betting (Table 5's -5.33, +6.67, -1.33 are -16/3, 20/3, -4/3;
    Table 6's -3.00 and +9.00; Table 7's 0, -1, -2, -3 for A's four sequences)."""
    A, B, C = 0, 1, 2
    ante = Fraction(1, 3)
    pots1, paid1 = _payments([ante] * 3, [(B, "bet"), (C, "call"), (A, "raise"), (B, "call"), (C, "fold")])
    assert pots1 == [2, 3, 5, 6, 6]
    a2, b2 = 0, 1  # second round, two players, first-round payments left out (Table 6)
    pots2, paid2 = _payments([3, 3], [(b2, "check"), (a2, "bet"), (b2, "raise"), (a2, "reraise"), (b2, "call")])
    assert pots2 == [6, 7, 9, 11, 12]
    total = [ante + paid1[A] + paid2[a2], ante + paid1[B] + paid2[b2], ante + paid1[C]]
    net = [-total[0], pots2[-1] - total[1], -total[2]]  # B wins the showdown
    assert net == [Fraction(-16, 3), Fraction(20, 3), Fraction(-4, 3)] and sum(net) == 0
    assert [round(float(v), 2) for v in net] == [-5.33, 6.67, -1.33]
    assert (-paid2[a2], pots2[-1] - paid2[b2]) == (-3, 9)  # the beginning pot counts as winnings
    # Table 7: A's second-round net for each sequence against B's check-raise (B wins showdowns)
    seq = {"check": [(b2, "check"), (a2, "check")],
           "bet-fold": [(b2, "check"), (a2, "bet"), (b2, "raise"), (a2, "fold")],
           "bet-call": [(b2, "check"), (a2, "bet"), (b2, "raise"), (a2, "call")],
           "bet-reraise": [(b2, "check"), (a2, "bet"), (b2, "raise"), (a2, "reraise"), (b2, "call")]}
    assert {k: -_payments([3, 3], v)[1][a2] for k, v in seq.items()} == \
        {"check": 0, "bet-fold": -1, "bet-call": -2, "bet-reraise": -3}


def test_divpoint_bet_fold_needs_a_raise_and_game_b_pass_call_answers_a_bet():
    """Two prose slips against the rules: A's "bet-fold" in the FIG. 3 example needs B to
    *raise* (the text says B "would have called, then A would have folded"); in game b a
    passing P1 calls a *bet* (the text defines C1 as "pass and then call if raised")."""
    s = derive(patent_rules("c"))  # the FIG. 3 round: B first (P1), A second (P2), check-raise allowed
    for t in s.terminals:
        if t.sequence(1) == ("bet", "fold"):  # A bets then folds ...
            assert t.sequence(0)[-1] == "raise"  # ... only to B's (check-)raise
    sb = derive(patent_rules("b"))
    after_pass = sb.decisions[((0, "pass"),)]
    assert set(after_pass.actions) == {"pass", "bet"}  # no raise for P2 after P1 passes
    call = [t for t in sb.terminals if t.sequence(0) == ("pass", "call")]
    assert call and all(t.sequence(1) == ("bet",) for t in call)
