"""Closed forms: entry points, the reductions to von Neumann and Newman (Theorems 5.1-5.4,
numerically), inverse functions, regions, payoffs and bad input."""
import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from guts.errors import GutsInputError
from guts.games.continuous_poker import limit_poker, limit_value, newman, von_neumann

FLOAT_TOL = 1e-12


def test_entry_point_values():
    # von Neumann at B = 1 with pot 1: a = 1/9 of hands bluff, value B/(2D) = 1/18
    assert von_neumann(bet=1.0).value == pytest.approx(1 / 18, abs=FLOAT_TOL)
    assert newman().value == pytest.approx(1 / 14, abs=FLOAT_TOL)
    g = limit_poker(min_bet=0.5, max_bet=1.0)
    assert g.value == pytest.approx(g.x[2] / 2, abs=FLOAT_TOL)
    # von Neumann(1) < limit(0.5, 1) < Newman: more freedom for the bettor, more value
    assert von_neumann(1.0).value < g.value < newman().value


def test_von_neumann_thresholds_by_indifference():
    for B in (0.2, 1.0, 3.0):
        g = von_neumann(B)
        a, b, c = g.bluff_threshold, g.value_threshold, g.calling_threshold
        assert a * (1 + B) == pytest.approx((1 - b) * B, abs=FLOAT_TOL)        # caller at c
        assert c - (1 - c) * B == pytest.approx(a, abs=FLOAT_TOL)              # bettor at a
        assert c + (b - c) * (1 + B) - (1 - b) * B == pytest.approx(b, abs=FLOAT_TOL)  # bettor at b
        assert g.value == pytest.approx(a / 2, abs=FLOAT_TOL)


@pytest.mark.parametrize("B", [0.1, 0.5, 1.0, 2.0, 10.0])
def test_theorems_5_1_5_2_numerically(B):
    """limit_poker(B, B) is von Neumann's equilibrium: same bet function, call threshold, value."""
    lp, vn = limit_poker(B, B), von_neumann(B)
    assert lp.value == pytest.approx(vn.value, rel=1e-13)
    assert lp.c(B) == pytest.approx(vn.c(B), rel=1e-13)
    assert lp.x[2] == pytest.approx(vn.bluff_threshold, rel=1e-13)
    assert lp.x[3] == pytest.approx(vn.value_threshold, rel=1e-13)
    x = np.linspace(0, 1, 1001)
    x = x[(np.abs(x - vn.bluff_threshold) > 1e-9) & (np.abs(x - vn.value_threshold) > 1e-9)]
    np.testing.assert_array_equal(lp.bet_size(x), vn.bet_size(x))
    # and as a limit from both sides: L -> B-, U -> B+
    for eps in (1e-3, 1e-5):
        near = limit_poker(B * (1 - eps), B * (1 + eps))
        assert abs(near.value - vn.value) < 10 * eps * vn.value
        assert abs(near.c(B) - vn.c(B)) < 10 * eps


def test_theorems_5_3_5_4_numerically():
    """L -> 0, U -> inf: thresholds, bet function, call function and value tend to Newman's."""
    nm = newman()
    x = np.linspace(0.01, 0.99, 99)
    x = x[(np.abs(x - 1 / 7) > 0.02) & (np.abs(x - 4 / 7) > 0.02)]
    s = np.array([0.1, 0.5, 1.0, 3.0])
    errs = []
    for eps in (1e-1, 1e-2, 1e-3):
        g = limit_poker(eps, 1 / eps)
        errs.append(max(np.max(np.abs(np.array(g.x) - np.array(nm.x))), np.max(np.abs(g.c(s) - nm.c(s))),
                        np.max(np.abs(g.b(s) - nm.b(s))), np.max(np.abs(g.v(s) - nm.v(s))),
                        abs(g.value - nm.value)))
        sb = g.bet_size(x)
        inside = (sb > 3 * eps) & (sb < 0.1 / eps)  # where the limit game's bet is not clipped at L or U
        np.testing.assert_allclose(sb[inside], nm.bet_size(x[inside]), rtol=50 * eps)
    assert errs[0] > errs[1] > errs[2] and errs[2] < 1e-2


def test_newman_formulas_are_the_limit_family():
    nm = newman()
    s = np.array([0.0, 0.3, 1.0, 7.0])
    x2 = 1 / 7
    np.testing.assert_allclose(nm.c(s), (x2 + s) / (1 + s), rtol=1e-15)
    np.testing.assert_allclose(nm.v(s), (1 + 4 * s + 2 * s**2 + x2) / (2 * (1 + s) ** 2), rtol=1e-15)
    np.testing.assert_allclose(nm.b(s), -(1 + 3 * s) * (x2 - 1) / (6 * (1 + s) ** 3), rtol=1e-15)
    assert nm.check_interval == pytest.approx((1 / 7, 4 / 7), abs=FLOAT_TOL)


@pytest.mark.parametrize("game", [limit_poker(0.5, 1.0), limit_poker(0.0, 10.0), limit_poker(0.1, 0.2), newman()],
                         ids=["0.5-1", "0-10", "0.1-0.2", "newman"])
def test_bet_size_inverts_b_and_v(game):
    for r in game.regions:
        if r.bet is not None:
            continue
        x = np.linspace(r.lo, r.hi, 52)[1:-1]
        s = game.bet_size(x)
        back = game.b(s) if r.role == "bluff" else game.v(s)
        np.testing.assert_allclose(back, x, atol=1e-9)
        assert np.all(np.diff(s) < 0) if r.role == "bluff" else np.all(np.diff(s) > 0)


def test_regions_partition_and_roles():
    g = limit_poker(0.5, 1.0)
    regs = g.regions
    assert regs[0].lo == 0.0 and regs[-1].hi == 1.0
    assert all(a.hi == pytest.approx(b.lo, abs=1e-15) for a, b in zip(regs[:-1], regs[1:]))
    assert [r.role for r in regs] == ["bluff"] * 3 + ["check"] + ["value"] * 3
    assert [r.bet for r in regs] == [1.0, None, 0.5, 0.0, 0.5, None, 1.0]
    # at L = 0 the "bet L" intervals vanish (x2 - x1 ~ L^2, x4 - x3 ~ L)
    assert [r.role for r in limit_poker(0.0, 2.0).regions] == ["bluff", "bluff", "check", "value", "value"]


def test_call_threshold_is_between_bluffs_and_value_bets():
    g = limit_poker(0.25, 3.0)
    s = np.linspace(0.25, 3.0, 50)
    assert np.all(np.diff(g.c(s)) > 0)                  # non-decreasing (seed §4.1): here increasing
    assert np.all(g.b(s) <= g.x[2]) and np.all(g.x[2] <= g.c(s)) and np.all(g.c(s) < g.v(s))
    # continuity at the ends (seed §4.1): the atoms' thresholds are the limits of c(s)
    assert g.c(0.25) == pytest.approx((g.x[2] + 0.25) / 1.25, rel=1e-15)


def test_payoff_grid_mean_is_the_value():
    """Seed footnote 3 (Figure 2): the payoff integrates to the value.  On a midpoint grid
    aligned with 1/9, 5/9, 7/9 (B = 1) the mean is exact; otherwise O(1/n)."""
    for game, n, tol in ((von_neumann(1.0), 900, 1e-13), (limit_poker(0.5, 1.0), 1000, 5e-3),
                         (newman(), 1000, 5e-3)):
        t = (np.arange(n) + 0.5) / n
        X, Y = np.meshgrid(t, t)
        assert abs(np.mean(game.payoff(X, Y)) - game.value) < tol


def test_bet_payoff_of_a_bluff_is_x2_for_every_size():
    g = limit_poker(0.3, 4.0)
    s = np.linspace(0.3, 4.0, 20)
    np.testing.assert_allclose(g.bet_payoff(0.0, s) + 0.5, g.x[2], atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 5), st.floats(0, 5), st.floats(0, 1), st.floats(0, 1))
def test_value_monotone_and_bounded(L, W, dl, du):
    """V decreases in L and increases in U (derivatives proved in test_cpoker_symbolic), so
    0 < V < 1/14 and widening the limits never hurts the bettor."""
    U = L + W + 1e-3
    v = limit_value(L, U)
    assert 0 < v < 1 / 14
    assert limit_value(L * (1 - dl), U * (1 + du)) >= v - 1e-15


def test_limit_value_vectorised_matches_objects():
    L = np.array([0.0, 0.5, 2.0])
    U = np.array([1.0, 1.0, 9.0])
    np.testing.assert_allclose(limit_value(L, U), [limit_poker(a, b).value for a, b in zip(L, U)], rtol=1e-15)


def test_results_are_frozen():
    g = limit_poker(0.5, 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.value = 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        von_neumann(1.0).bet = 2.0


@pytest.mark.parametrize("args, needle", [
    ((2.0, 1.0), "min_bet must be <= max_bet"),
    ((-0.1, 1.0), "min_bet"),
    ((0.5, -1.0), "max_bet"),
    ((math.nan, 1.0), "min_bet"),
    ((0.5, math.nan), "max_bet"),
    ((0.5, math.inf), "newman()"),
    ((0.0, 0.0), "max_bet"),
    (("a", 1.0), "min_bet"),
])
def test_bad_limits(args, needle):
    with pytest.raises(GutsInputError, match=None) as exc:
        limit_poker(*args)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_bad_inputs_elsewhere():
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(GutsInputError):
            von_neumann(bad)
    g = limit_poker(0.5, 1.0)
    with pytest.raises(GutsInputError, match="bet size must be in"):
        g.call_threshold(2.0)
    with pytest.raises(GutsInputError, match="hand strengths"):
        g.bet_size(1.5)
    with pytest.raises(GutsInputError):
        g.bet_size(math.nan)
    with pytest.raises(GutsInputError):
        limit_value([1.0], [0.5])
    with pytest.raises(GutsInputError):
        von_neumann(1.0).b(1.0)
