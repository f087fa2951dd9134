"""Exact (rational) best responses and the exact certificate of an LP equilibrium.

Oracles: Kuhn poker's value -1/18 (Kuhn 1950), the engine's float best response on random
profiles, and hand-made strategies whose exact values follow from the rules.
"""
from fractions import Fraction

import numpy as np
import pytest

from guts.engine.extensive import best_response, expected_values, solve_lp
from guts.engine.extensive.rational import (certify_exact, exact_best_response, exact_expected_values,
                                            rationalise_strategies, to_fraction)
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

FLOAT_TOL = 1e-12


def random_rational_profile(game, rng, denominator=12):
    """Random behaviour with probabilities k / denominator (rows sum to 1 exactly)."""
    out = []
    for p in range(game.num_players):
        sp = {}
        for h, labs in game.action_labels(p).items():
            rows = []
            for _ in range(game.num_types[p]):
                cuts = np.sort(rng.integers(0, denominator + 1, size=len(labs) - 1))
                parts = np.diff(np.concatenate([[0], cuts, [denominator]]))
                rows.append([Fraction(int(k), denominator) for k in parts])
            sp[h] = rows
        out.append(sp)
    return tuple(out)


def as_float(profile):
    return tuple({h: np.array([[float(x) for x in r] for r in rows]) for h, rows in sp.items()} for sp in profile)


def test_to_fraction_reads_simple_fractions_and_keeps_binary_values():
    assert to_fraction(1 / 6) == Fraction(1, 6)
    assert to_fraction(-0.25) == Fraction(-1, 4)
    assert to_fraction(3) == Fraction(3)
    x = 0.1 + 1e-13            # no simple fraction within a few ulps: the float's exact value
    assert to_fraction(x) == Fraction(x)
    with pytest.raises(GutsInputError):
        to_fraction(float("nan"))


def test_kuhn_lp_certified_exactly_minus_one_eighteenth():
    g = kuhn_poker()
    c = certify_exact(g, solve_lp(g).strategies)
    assert c.exact and c.value == Fraction(-1, 18)
    assert c.lower == c.upper == Fraction(-1, 18)
    # the rational pair is an equilibrium: its exact expected value is the value, zero-sum exactly
    ev = exact_expected_values(g, c.strategies)
    assert ev[0] == Fraction(-1, 18) and ev[0] + ev[1] == 0


@pytest.mark.parametrize("make", [kuhn_poker, leduc_poker], ids=["kuhn", "leduc"])
def test_exact_best_response_equals_float_best_response_on_random_profiles(make):
    g = make()
    rng = np.random.default_rng(7)
    for _ in range(2):
        prof = random_rational_profile(g, rng)
        flt = as_float(prof)
        ev = exact_expected_values(g, prof)
        assert sum(ev) == 0
        np.testing.assert_allclose([float(v) for v in ev], expected_values(g, flt), atol=FLOAT_TOL)
        for p in range(2):
            assert float(exact_best_response(g, prof, p)) == pytest.approx(best_response(g, flt, p).value,
                                                                           abs=FLOAT_TOL)
            assert exact_best_response(g, prof, p) >= ev[p]


def test_kuhn_always_bet_and_call_by_hand():
    # both players always bet / call: every deal is a 2-chip showdown, player 0 wins w.p. 1/2 -> 0;
    # player 1's best response to it: with the king call (wins 2), with the jack fold to the bet
    # (-1), with the queen call (wins 2 against the jack, loses 2 against the king: 0)
    g = kuhn_poker()
    bet = {h: [[Fraction(0), Fraction(1)]] * 3 for h in g.decision_histories(0)}
    call = {h: [[Fraction(0), Fraction(1)]] * 3 for h in g.decision_histories(1)}
    assert exact_expected_values(g, (bet, call)) == (0, 0)
    # jack: -1, queen: max(-1, 0) = 0, king: +2; each w.p. 1/3
    assert exact_best_response(g, (bet, call), 1) == Fraction(-1 + 0 + 2, 3)


def test_rationalised_rows_sum_to_one_exactly_and_bad_input():
    g = kuhn_poker()
    r = solve_lp(g)
    for basis in ("behaviour", "realisation"):
        rs = rationalise_strategies(g, r.strategies, 1000, basis=basis)
        for p in range(2):
            for h in g.decision_histories(p):
                for row in rs[p][h]:
                    assert sum(row) == 1 and min(row) >= 0
    with pytest.raises(GutsInputError):
        rationalise_strategies(g, r.strategies, 0)
    with pytest.raises(GutsInputError):
        rationalise_strategies(g, r.strategies, 10, basis="other")
    with pytest.raises(GutsInputError):
        exact_best_response(g, r.strategies, 2)
    bad = ({h: [[Fraction(1, 3), Fraction(1, 3)]] * 3 for h in g.decision_histories(0)}, {})
    with pytest.raises(GutsInputError):
        exact_best_response(g, bad, 1)
    with pytest.raises(GutsInputError):
        exact_best_response(g, r.strategies, 0, deal_prob=[Fraction(1, 7)] * 6)
