"""Representation: validation, zero-sum flag, shared tables, compiled layout."""
import numpy as np
import pytest

from guts.engine.extensive import (
    Chance, Deals, Decision, PublicTreeGame, Terminal, best_response, expected_values,
    nash_conv, strategy_table, uniform_strategy,
)
from guts.errors import GutsInputError


def _deals():
    # player 0 holds H (1) or L (0), player 1 nothing: the half-street toy
    return Deals([0.5, 0.5], [[1, 0], [0, 0]], type_labels=(("L", "H"), ("-",)))


def _share():
    return np.array([[1.0, 0.0], [0.0, 1.0]])  # player 0 wins with H (deal 0)


def half_street(share=None):
    """P0 checks (showdown for the antes) or bets 1; P1 calls or folds."""
    share = _share() if share is None else share
    return PublicTreeGame(
        Decision(0, {
            "k": Terminal.showdown([1, 1], share),
            "b": Decision(1, {"f": Terminal([1.0, -1.0]), "c": Terminal.showdown([2, 2], share)}),
        }),
        _deals(), 2, name="half-street")


def test_showdown_payoff_formula_and_zero_sum():
    share = _share()
    t = Terminal.showdown([2, 2], share)
    np.testing.assert_allclose(t.payoff(), [[2, -2], [-2, 2]])
    assert t.table is share                      # referenced, not copied
    g = half_street(share)
    assert g.zero_sum
    assert all(tab is share for tab in g.compiled.tables)
    assert len(g.compiled.tables) == 1


def test_not_zero_sum_detected():
    g = PublicTreeGame(Decision(0, {"a": Terminal([1.0, 0.0]), "b": Terminal([0.0, 0.0])}),
                       _deals(), 2)
    assert not g.zero_sum


@pytest.mark.parametrize("make, match", [
    (lambda: Deals([0.5, 0.6], [[0, 1], [0, 0]]), "sum to 1"),
    (lambda: Deals([1.5, -0.5], [[0, 1], [0, 0]]), ">= 0"),
    (lambda: PublicTreeGame(Chance({"x": (0.5, Terminal([0.0, 0.0])), "y": (0.4, Terminal([0.0, 0.0]))}),
                            _deals(), 2), r"sum to 0\.9"),
    (lambda: PublicTreeGame(Decision(0, {"a": Terminal([np.nan, 0.0])}), _deals(), 2), "NaN"),
    (lambda: PublicTreeGame(Decision(0, {"a": Terminal(np.array([[0.0, np.inf], [0.0, 0.0]]))}),
                            _deals(), 2), "NaN or inf"),
    (lambda: PublicTreeGame(Decision(0, {"a": Decision(2, {"x": Terminal([0.0, 0.0])})}), _deals(), 2),
     r"\('a'\): player 2 out of range"),
    (lambda: PublicTreeGame(Decision(0, {"a": Terminal([0.0, 0.0, 0.0])}), _deals(), 2), "shape"),
    (lambda: Decision(0, {}), "empty"),
    (lambda: Decision(0, [("a", Terminal([0.0, 0.0])), ("a", Terminal([0.0, 0.0]))]), "duplicate"),
    (lambda: PublicTreeGame(Chance({"x": (np.array([1.0, 0.5]), Terminal([0.0, 0.0])),
                                    "y": (np.array([0.0, 0.2]), Terminal([0.0, 0.0]))}), _deals(), 2),
     "deal 1"),
])
def test_bad_input_raises_one_clear_error(make, match):
    with pytest.raises(GutsInputError, match=match):
        make()


def test_chance_with_card_removal_and_zero_probability_deal():
    # deal 1 has probability 0: its chance row need not sum to one
    deals = Deals([1.0, 0.0], [[0, 1], [0, 0]])
    g = PublicTreeGame(Chance({"x": (np.array([1.0, 0.0]), Terminal([1.0, -1.0])),
                               "y": (np.array([0.0, 0.0]), Terminal([-1.0, 1.0]))}), deals, 2)
    np.testing.assert_allclose(expected_values(g, uniform_strategy(g)), [1.0, -1.0])


def test_strategy_validation_and_table():
    g = half_street()
    s = uniform_strategy(g)
    bad = [dict(s[0]), dict(s[1])]
    bad[0][()] = np.array([[0.7, 0.7], [0.5, 0.5]])
    with pytest.raises(GutsInputError, match="sums to"):
        nash_conv(g, bad)
    with pytest.raises(GutsInputError, match="player"):
        best_response(g, s, 2)
    df = strategy_table(g, s, 0)
    assert set(df.columns) == {"history", "type", "action", "probability"}
    assert len(df) == 2 * 2
    np.testing.assert_allclose(df.groupby(["history", "type"]).probability.sum(), 1.0)
