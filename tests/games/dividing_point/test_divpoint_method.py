"""The dividing-point method: exact E1, the stationary points, their certificates, and the
patent's printed numbers (seed 003, FIGS. 6-8, 27, 28; Tables 8-9; equations (1), (5)-(7))."""
import numpy as np
import pytest
import sympy as sp

from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.dividing_point import (P, best_response_gains, derive, equations, make_layout, patent_layout,
                                       patent_rules, solve_layout, solve_patent_game, solve_symbolic,
                                       strategy_from_points)
from guts.games.dividing_point.method import CERTIFICATE_TOL

b1, B1, C2 = sp.symbols("b1 B1 C2", real=True)
half = P / 2
# Table 9 (FIG. 8): return to P1 and area of each subregion, with the OCR's lost case of b1
# restored; the regions as their areas imply (e.g. 830 = {b1<x<B1, C2<y<x}).
TABLE_9 = {
    815: (half, b1**2 / 2),
    820: (half, B1 * C2 - b1**2 / 2 - C2**2 / 2),
    825: (half, C2 - B1 * C2),
    830: (half, B1**2 / 2 - B1 * C2 + C2**2 / 2),
    835: (half + 1, sp.Rational(1, 2) - C2 + B1 * C2 - B1**2 / 2),
    840: (half, b1 * C2 - b1**2 / 2),
    845: (-half, C2**2 / 2 - b1 * C2 + b1**2 / 2),
    850: (-(half + 1), b1 - b1 * C2),
    855: (-half, -B1**2 / 2 + B1 - b1 + b1 * C2 - C2**2 / 2),
    860: (-(half + 1), sp.Rational(1, 2) - B1 + B1**2 / 2),
}


def test_divpoint_table_9_regions_sum_to_the_derived_E1():
    _, E, _ = equations(patent_rules("a"), patent_layout("a"))
    assert sp.expand(sum(a for _, a in TABLE_9.values()) - 1) == 0  # the regions tile the square
    assert sp.expand(sum(r * a for r, a in TABLE_9.values()) - E) == 0


def test_divpoint_game_a_closed_forms_satisfy_the_indifference_conditions():
    sol = solve_symbolic(patent_rules("a"), patent_layout("a"))
    # equations (5)-(7) as printed
    assert sp.simplify(sol["b1"] - P / ((2 * P + 1) * (P + 2))) == 0
    assert sp.simplify(sol["B1"] - (P**2 + 4 * P + 2) / ((2 * P + 1) * (P + 2))) == 0
    assert sp.simplify(sol["C2"] - (3 * P + 2) / ((2 * P + 1) * (P + 2))) == 0
    b, B, C = sol["b1"], sol["B1"], sol["C2"]
    # independent derivation (FIG. 6): P2 at C2 indifferent between fold (-P/2) and call;
    # P1 at b1 between bluffing and passing; P1 at B1 between passing and betting.
    assert sp.simplify((half + 1) * (b - (1 - B)) + half * (b + 1 - B)) == 0
    assert sp.simplify(half * (2 * b - 1) - (half * C - (half + 1) * (1 - C))) == 0
    assert sp.simplify(half * (2 * B - 1) - (half * C + (half + 1) * (B - C) - (half + 1) * (1 - B))) == 0


def test_divpoint_game_a_at_pot_1_is_the_patents_example():
    r = solve_patent_game("a", 1)
    assert r.exact_points == {"b1": "1/9", "C2": "5/9", "B1": "7/9"}
    assert r.value_exact == "1/18"  # P1's net per game, ante included
    assert r.value == pytest.approx(0.056, abs=5e-4)  # "approximately 0.056 units/game"
    assert r.converged and r.max_gain <= CERTIFICATE_TOL


@pytest.mark.parametrize("pot", [1, 2, 5, 10])
def test_divpoint_game_d_points_do_not_depend_on_the_pot(pot):
    r = solve_patent_game("d", pot)
    assert r.exact_points == {"b1": "1/9", "C2": "5/9", "B1": "7/9"}
    # every amount is a multiple of P, so the value is P times the P = 1 value of game a
    assert r.value == pytest.approx(pot / 18, rel=1e-12)


def test_divpoint_game_b_at_pot_3_against_fig_28():
    r = solve_patent_game("b", 3)
    assert r.converged
    assert r.points["C1"] == pytest.approx(0.2686, abs=5e-5)
    assert r.points["RR1"] == pytest.approx(0.9511, abs=5e-5)
    # FIG. 28 prints C1R = 0.7297; the patent's own (16) at P = 3 gives
    # 6 C1R = 2 + 4 B1 - 6 b1 + 2 rr1, i.e. 0.7398 with the other printed-consistent points.
    p = r.points
    assert 6 * p["C1R"] == pytest.approx(2 + 4 * p["B1"] - 6 * p["b1"] + 2 * p["rr1"], abs=1e-12)
    assert p["C1R"] == pytest.approx(0.7398, abs=5e-5)
    assert abs(p["C1R"] - 0.7297) > 0.005


@pytest.mark.parametrize("game", ["a", "b", "c", "d"])
def test_divpoint_patent_orders_are_certified_equilibria(game):
    for pot in (1, 4, 10):
        r = solve_patent_game(game, pot)
        assert r.order_ok and r.converged, (game, pot, r.max_gain)
        assert r.max_gain <= CERTIFICATE_TOL
        # the linear system is solved in rationals: the value is an exact fraction
        assert float(sp.Rational(r.value_exact)) == pytest.approx(r.value, abs=1e-14)


@pytest.mark.parametrize("game", ["a", "b", "c"])
def test_divpoint_E1_polynomial_equals_direct_integration(game):
    # two code paths: the region polynomial and the per-hand plan returns integrated exactly
    rules, layout = patent_rules(game), patent_layout(game)
    structure, E, _ = equations(rules, layout)
    rng = np.random.default_rng(7)
    for _ in range(3):
        vals = dict(zip(layout.order, np.sort(rng.uniform(0, 1, len(layout.order)))))
        pot = float(rng.uniform(0.5, 6))
        e1 = float(E.subs(P, pot).subs({sp.Symbol(k, real=True): v for k, v in vals.items()}))
        chk = best_response_gains(structure, strategy_from_points(structure, layout, vals), pot)
        assert chk.values[0] == pytest.approx(e1, abs=1e-12)
        assert chk.values[0] + chk.values[1] == pytest.approx(0.0, abs=1e-12)  # zero-sum
        assert min(chk.gains) >= 0.0


def test_divpoint_certificate_detects_a_non_equilibrium():
    rules, layout = patent_rules("a"), patent_layout("a")
    structure = derive(rules)
    pts = {"b1": 1 / 9 + 0.02, "C2": 5 / 9, "B1": 7 / 9}
    chk = best_response_gains(structure, strategy_from_points(structure, layout, pts), 1.0)
    assert chk.gains[0] > 1e-4 or chk.gains[1] > 1e-4
    # P2's gain by hand (P = 1): calling instead of folding with y in (b1, B1) gains the
    # constant (P+1) b1 - (1 - B1) = 0.04; below b1 it gains 3y - b1 - (1 - B1) where
    # positive, i.e. above y0 = (b1 + 1 - B1) / 3.  So the best response gains
    # 0.04 (C2 - b1) + 1.5 (b1 - y0)^2.
    b, C, B = pts["b1"], pts["C2"], pts["B1"]
    y0 = (b + 1 - B) / 3
    assert chk.gains[1] == pytest.approx(0.04 * (C - b) + 1.5 * (b - y0) ** 2, rel=1e-9)


def test_divpoint_a_wrong_order_is_reported():
    rules = patent_rules("a")
    structure = derive(rules)
    # the bluff above the call threshold: contradicts nothing in the rules, but is not optimal
    layout = make_layout(structure, {("P1", "root"): "bet | b1 | pass | B1 | bet", ("P2", "bet"): "fold | C2 | call"},
                         "0 < C2 < b1 < B1 < 1")
    with pytest.warns(ConvergenceWarning):
        r = solve_layout(rules, layout, 1)
    assert not r.converged


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "x"])
def test_divpoint_bad_pot(bad):
    with pytest.raises(GutsInputError):
        solve_patent_game("a", bad)


def test_divpoint_unknown_game():
    with pytest.raises(GutsInputError, match="unknown game"):
        solve_patent_game("e", 1)


def test_divpoint_order_contradicting_the_rules():
    structure = derive(patent_rules("b"))
    segs = {("P1", "root"): "pass-raise | C1 | bet-fold", ("P2", "bet"): "fold | C2 | call",
            ("P2", "pass"): "pass | B2 | bet"}
    with pytest.raises(GutsInputError, match="no plan 'pass-raise'"):  # no check-raise in game b
        make_layout(structure, segs, "0 < C1 < C2 < B2 < 1")
    segs[("P1", "root")] = "pass-fold | C1 | pass-call | B1 | bet-fold"
    with pytest.raises(GutsInputError, match="contradicts P1's own sequence"):
        make_layout(structure, segs, "0 < B1 < C1 < C2 < B2 < 1")
    with pytest.raises(GutsInputError, match="no segmentation for P2"):
        make_layout(structure, {("P1", "root"): "pass-fold | C1 | pass-call"}, "0 < C1 < 1")
