"""The printed equations of seed 003 against the package's derivation."""
import pytest
import sympy as sp

from guts.games.dividing_point.printed import PRINTED, compare, parse_printed

V = {n: sp.Symbol(n, real=True) for n in ["b1", "B1", "C2", "r2", "R2", "RR1", "C1R", "KR1", "rr2", "C1RR", "RR2",
                                          "C1", "C2RR"]}
P = sp.Symbol("P", positive=True)
V["P"] = P


@pytest.mark.parametrize("label", ["(3)", "(6)", "(7)"] + [f"({k})" for k in range(8, 20)] +
                         ["(21)", "(22)", "(26)", "(29)", "(30)", "(32)", "(37)", "(38)", "(41)", "(42)", "(43)"])
def test_divpoint_printed_equation_agrees(label):
    assert compare(label).verdict == "agrees"


@pytest.mark.parametrize("label, slips", [("(1)", 4), ("(2)", 2), ("(4)", 2), ("(5)", 1), ("(39)", 2), ("(40)", 1)])
def test_divpoint_printed_equation_agrees_up_to_ocr_case(label, slips):
    c = compare(label)
    assert c.verdict == "agrees up to b1/B1 case" and c.case_slips == slips


def test_divpoint_region_1054_has_the_wrong_stake():
    # printed (P/2 + 3) where the showdown after bet-call v. raise is worth P/2 + 2
    c = compare("E1 1054")
    assert c.verdict == "differs"
    expected = (V["RR1"] - V["R2"]) ** 2 / 2 + (V["RR1"] - V["C1R"]) * V["r2"]
    assert sp.expand(sp.sympify(c.difference, locals=V) - expected) == 0  # exactly that one bracket


def test_divpoint_game_b_E1_display_has_the_sign_of_C1R_wrong():
    c = compare("E1 (game b)")
    diff = sp.sympify(c.difference, locals=V)
    # -2 C1R (printed -C1R, derived +C1R; (13) = dE1/dC1R = 1 - ... confirms +C1R) and one b1/B1 case slip
    assert sp.expand(diff - (-2 * V["C1R"] + P * V["C2RR"] * (V["b1"] - V["B1"]))) == 0


def test_divpoint_31_prints_3_KR1_P_for_KR1_times_3_plus_P():
    c = compare("(31)")
    assert c.verdict == "differs"
    K = sp.Symbol("KR1", real=True)
    assert sp.expand(sp.sympify(c.difference, locals=V | {"KR1": K}) - (-3 * K * P + K * (3 + P))) == 0


def test_divpoint_36_is_missing():
    assert compare("(36)").verdict == "missing"


def test_divpoint_run_together_products_take_a_derived_reading():
    expr, _ = parse_printed("C1RR2", "b", sp.Symbol("C1R", real=True) * sp.Symbol("R2", real=True))
    assert expr == sp.Symbol("C1R", real=True) * sp.Symbol("R2", real=True)


@pytest.mark.slow
def test_divpoint_equation_0_needs_its_bracket_moved():
    assert compare("(0)").verdict == "differs"
    assert compare("(0) rebracketed").verdict == "agrees up to b1/B1 case"


def test_divpoint_every_transcription_parses():
    for eq in PRINTED:
        parse_printed(eq.text, eq.game)


@pytest.mark.parametrize("seed", ["abc", 1e300, -1, float("nan"), True])
def test_a_bad_random_state_is_refused_before_any_comparison(seed):
    from guts.errors import GutsInputError
    from guts.games.dividing_point.printed import compare_all

    with pytest.raises(GutsInputError, match="random_state"):
        compare_all(seed)
    with pytest.raises(GutsInputError, match="random_state"):
        compare(PRINTED[0].label, seed)
