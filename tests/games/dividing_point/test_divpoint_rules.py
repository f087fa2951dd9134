"""The game as data: action sequences and outcomes derived from the rules, checked against
the patent's Tables 3, 4, 10 and 11 (seed 003) -- the tables are data here, never input."""
import pytest

from guts.errors import GutsInputError
from guts.games.dividing_point import BettingRules, derive, patent_rules, pot_growth

# Table 10 (FIGS. 10A-B), as printed: (P1 sequence, P2 sequence, outcome); "pass" = check.
TABLE_10 = {
    ("pass-fold", "bet", "P2 wins P/2"),
    ("bet", "fold", "P1 wins P/2"),
    ("bet-fold", "raise", "P2 wins P/2 + 1"),
    ("bet-reraise", "raise-fold", "P1 wins P/2 + 2"),
    ("pass", "pass", "High hand wins P/2"),
    ("pass-call", "bet", "High hand wins P/2 + 1"),
    ("bet", "call", "High hand wins P/2 + 1"),
    ("bet-call", "raise", "High hand wins P/2 + 2"),
    ("bet-reraise", "raise-call", "High hand wins P/2 + 3"),
}
# Table 11 (FIGS. 23A-C) adds the four check-raise resolutions.
TABLE_11 = TABLE_10 | {
    ("pass-raise", "bet-fold", "P1 wins P/2 + 1"),
    ("pass-raise-fold", "bet-reraise", "P2 wins P/2 + 2"),
    ("pass-raise", "bet-call", "High hand wins P/2 + 2"),
    ("pass-raise-call", "bet-reraise", "High hand wins P/2 + 3"),
}
# FIG. 6 (game a): steps 630/635, 650, 665/670.
FIG_6 = {("pass", "", "High hand wins P/2"), ("bet", "fold", "P1 wins P/2"), ("bet", "call", "High hand wins P/2 + 1")}
# FIG. 27 (game d): the called pot-limit bet makes the pot 3P, the winner nets 3P/2.
FIG_27 = {("pass", "", "High hand wins P/2"), ("bet", "fold", "P1 wins P/2"), ("bet", "call", "High hand wins 3P/2")}


def _table(game):
    return {row[:3] for row in derive(patent_rules(game)).outcome_table}


@pytest.mark.parametrize("game, printed", [("a", FIG_6), ("b", TABLE_10), ("c", TABLE_11), ("d", FIG_27)])
def test_divpoint_outcome_tables_match_the_patent(game, printed):
    assert _table(game) == printed


def test_divpoint_plans_are_the_patents_action_sequences():
    # FIG. 12 text: P1 pass-fold, pass-call, bet-fold, bet-call, bet-reraise; P2 after a bet
    # fold, call, raise-fold, raise-call, after a pass: pass or bet.
    s = derive(patent_rules("b"))
    names = {(p, c): {pl.name for pl in v} for (p, c), v in s.plans.items()}
    assert names[(0, ())] == {"pass-fold", "pass-call", "bet-fold", "bet-call", "bet-reraise"}
    assert names[(1, ((0, "bet"),))] == {"fold", "call", "raise-fold", "raise-call"}
    assert names[(1, ((0, "pass"),))] == {"pass", "bet"}
    # FIG. 24 text adds P1's pass-raise-fold / pass-raise-call and P2's bet-fold/-call/-reraise.
    s = derive(patent_rules("c"))
    assert {pl.name for pl in s.plans[(0, ())]} == {
        "pass-fold", "pass-call", "pass-raise-fold", "pass-raise-call", "bet-fold", "bet-call", "bet-reraise"}
    assert {pl.name for pl in s.plans[(1, ((0, "pass"),))]} == {"pass", "bet-fold", "bet-call", "bet-reraise"}


def test_divpoint_every_resolution_is_zero_sum():
    for game in "abcd":
        for t in derive(patent_rules(game)).terminals:
            for winner in (0, 1):
                assert (t.return_to(0, winner) + t.return_to(1, winner)).expand() == 0


def test_divpoint_pot_growth_tables_3_and_4():
    # Table 3: three players ante $1 in total; B bets, C calls, A raises, B calls, C folds.
    steps = [(1, "bet"), (2, "call"), (0, "raise"), (1, "call"), (2, "fold")]
    third = ["1/3"] * 3
    assert pot_growth(third, steps, "limit") == [2, 3, 5, 6, 6]
    assert pot_growth(third, steps, "pot") == [2, 3, 8, 12, 12]
    # Table 4: second round, A and B from a $6 (limit) / $12 (pot limit) pot.
    steps = [(1, "check"), (0, "bet"), (1, "raise"), (0, "reraise"), (1, "call")]
    assert pot_growth([3, 3], steps, "limit") == [6, 7, 9, 11, 12]
    assert pot_growth([6, 6], steps, "pot") == [12, 24, 72, 216, 324]


@pytest.mark.parametrize("kwargs", [dict(betting="no-limit"), dict(raise_cap=-1), dict(first=2),
                                    dict(bet_unit=0), dict(check_raise="yes")])
def test_divpoint_bad_rules_raise_one_clear_error(kwargs):
    with pytest.raises(GutsInputError):
        BettingRules(**kwargs)
