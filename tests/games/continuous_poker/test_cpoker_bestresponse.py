"""Equilibrium check 1: exact best responses on the continuum (no hand, no size gains)."""
import dataclasses

import numpy as np
import pytest

from guts.games.continuous_poker import limit_poker, newman, von_neumann
from guts.games.continuous_poker.bestresponse import BR_TOL, bettor_best_payoff, check_equilibrium

VALUE_TOL = 1e-12

PROFILES = {
    "vN B=1": von_neumann(1.0),
    "vN B=0.3": von_neumann(0.3),
    "newman": newman(),
    "limit 0.5-1": limit_poker(0.5, 1.0),
    "limit 0-10": limit_poker(0.0, 10.0),
    "limit 0-0.3": limit_poker(0.0, 0.3),
    "limit 2-2": limit_poker(2.0, 2.0),
    "limit 1-5": limit_poker(1.0, 5.0),
}


@pytest.mark.parametrize("name", list(PROFILES))
def test_no_hand_and_no_size_gains(name):
    g = PROFILES[name]
    r = check_equilibrium(g)
    assert r.max_bettor_gain <= BR_TOL
    assert r.max_caller_gain <= BR_TOL
    assert abs(r.bettor_gain) <= BR_TOL and abs(r.caller_gain) <= BR_TOL
    assert r.converged
    # the value by quadrature of the equilibrium payoff equals the closed form
    assert abs(r.value - g.value) <= VALUE_TOL
    assert r.certified_lower - VALUE_TOL <= g.value <= r.certified_upper + VALUE_TOL


def test_oracle_finds_a_bad_caller():
    """Shift the caller's thresholds (via x2): bluffs of some size now gain; the check must see it."""
    g = limit_poker(0.5, 1.0)
    x = list(g.x)
    x[2] += 0.03  # c(s) = (x2 + s)/(1 + s) moves up: the caller folds too much
    bad = dataclasses.replace(g, x=tuple(x))
    r = check_equilibrium(bad)
    assert r.max_bettor_gain > 1e-3 and r.bettor_gain > 1e-5 and not r.converged


def test_oracle_finds_a_bad_bettor():
    """Check too much (x3 up): those hands gain by betting L; the caller also profits somewhere."""
    g = limit_poker(0.5, 1.0)
    x = list(g.x)
    x[3] += 0.05
    bad = dataclasses.replace(g, x=tuple(x))
    r = check_equilibrium(bad)
    assert r.max_bettor_gain > 1e-3 and r.nash_conv > 1e-5


def test_best_response_matches_brute_force_maximisation():
    """The exact candidate enumeration equals a brute-force scan over 20001 sizes (to its grid error)."""
    g = limit_poker(0.25, 3.0)
    sizes = np.linspace(0.25, 3.0, 20001)
    for x in (0.01, 0.1, 0.3, 0.55, 0.7, 0.8, 0.9, 0.97, 0.999):
        exact, s = bettor_best_payoff(g, x)
        brute = max(float(np.max(g.bet_payoff(x, sizes))), float(g.bet_payoff(x, 0.0)))
        assert exact >= brute - 1e-15
        assert exact - brute < 1e-7  # a grid of step 1.4e-4 around a smooth maximum
