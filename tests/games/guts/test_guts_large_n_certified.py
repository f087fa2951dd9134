"""The certified bracket of the large-N pseudo-bloc value (guts.games.guts.large_n.bracket_value on
guts.games.guts.continuum's certificates) and the rounding bounds of the closed forms.

Oracles: exact rational arithmetic (rounding bounds), the explicit O(N) closed form of
guts.games.guts.payoffs (best responses, the grid-search miss), and the values of
results/large_n.csv at main (commit cea65c6: the previous grid-search brackets, which
agree with guts.games.guts.continuum to 5e-10 for N <= 15).
"""
import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from guts.games.guts.continuum import (certify_coalition_pseudo_bloc, certify_player1, coalition_best_response,
                                       player1_best_response,
                                       player1_best_response_pseudo_bloc, pseudo_bloc)
from guts.games.guts.continuum.rounding import alpha_beta_error
from guts.games.guts.large_n import bracket_value, pseudo_bloc_alpha, pseudo_bloc_beta
from guts.games.guts.payoffs import alpha, alpha_matrix, beta, beta_matrix

SEED = 20261123


def exact_alpha_beta(q, a, b, N):
    """α and β of q against (a, b, ..., b) in exact rationals from the general §3 closed form.

    α = q (E[K] - 2 + 2Π) + (1 - q)(E[K] - 1 - n) + 2n ∫_q^1 Π_j max(p_j, x) dx (integrand
    x^j Π_{i>=j} s_i between consecutive sorted thresholds s), β = Σ (1 - p) - 1 + 2 q Π.
    """
    q, a, b = Fraction(q), Fraction(a), Fraction(b)
    s = sorted([a] + [b] * (N - 1))
    n = N + 1
    EK = sum(1 - p for p in s)
    Pi = a * b ** (N - 1)
    edges = [Fraction(0), *s, Fraction(1)]
    G = Fraction(0)
    for j in range(N + 1):
        lo, hi = max(edges[j], q), max(edges[j + 1], q)
        if hi > lo:
            G += math.prod(s[j:], start=Fraction(1)) * (hi ** (j + 1) - lo ** (j + 1)) / (j + 1)
    al = q * (EK - 2 + 2 * Pi) + (1 - q) * (EK - 1 - n) + 2 * n * G
    be = (1 - q) + EK - 1 + 2 * q * Pi
    return al, be


def _cases(N):
    """Thresholds within O(1/N) of 1 (where the strategies live), and far from it."""
    near = [(1 - 1.1 / N, 0.0, 1 - 0.9 / N), (1 - 1.1 / N, 1 - 0.9 / N, 1 - 0.9 / N),
            (1 - 0.7 / N, 1 - 0.5 / N, 1 - 0.92 / N), (1 - 2.0 / N, 1 - 0.3 / N, 1 - 0.47 / N)]
    far = [(0.5, 1 - 3.0 / N, 1 - 0.2 / N), (0.3, 0.7, 0.2), (0.05, 0.0, 0.99)]
    return near, far


@pytest.mark.parametrize("N", [2, 200, 1000])
def test_rounding_bound_covers_the_error_against_exact_arithmetic(N):
    near, far = _cases(N)
    for q, a, b in near + far:
        eA, eB = alpha_beta_error(q, a, b, N)
        al, be = exact_alpha_beta(q, a, b, N)
        assert abs(Fraction(float(pseudo_bloc_alpha(q, a, b, N))) - al) <= Fraction(float(eA))
        assert abs(Fraction(float(pseudo_bloc_beta(q, a, b, N))) - be) <= Fraction(float(eB))
    # where the strategies live the bound does not grow with N (a flat CERT_ROUNDING * (N + 1)
    # allowance would be 2e-7 at N = 1e5)
    for M in (N, 100_000):
        for q, a, b in _cases(M)[0]:
            eA, eB = alpha_beta_error(q, a, b, M)
            assert eA < 1e-13 and eB < 1e-13


def test_pseudo_bloc_best_response_equals_the_explicit_one_and_bounds_a_grid():
    rng = np.random.default_rng(SEED)
    grid = np.linspace(0.0, 1.0, 20001)
    for N in (1, 2, 5, 12):
        for _ in range(3):
            a, b = rng.uniform(size=3), rng.uniform(0.5, 1.0, size=3)
            y = rng.dirichlet(np.ones(3))
            V = rng.uniform(-1.0, 0.5)
            P = pseudo_bloc(N, a, b if N > 1 else a)
            q, val, upper = player1_best_response_pseudo_bloc(N, a, b if N > 1 else a, y, V)
            q_ex, val_ex = player1_best_response(P, y, V)
            assert q == pytest.approx(q_ex, abs=1e-9) and val == pytest.approx(val_ex, abs=1e-12)
            scan = (alpha_matrix(grid, P) + V * beta_matrix(grid, P)) @ y
            assert upper >= scan.max() and upper >= val_ex    # rigorous: nothing beats it
            assert upper - val <= 1e-12                        # and it is tight


# Strategies and values of results/large_n.csv at main (cea65c6): supports printed to 10
# digits and weights to 6, so they are near-equilibrium strategies, not the exact ones.
MAIN = {
    2: (0.0132859054345689, "0.6444996451:0.207793 0.6445559761:0.792207",
        "0.6758691376/0.6758691376:0.883806 0/0.8627524649:0.116194"),
    15: (0.119174782442721, "0.9289998929:0.434623 0.9290120581:0.565377",
         "0.9416920522/0.9416920511:0.621245 0/0.9713049652:0.378755"),
    200: (0.153466257523006, "0.9943351453:0.013224 0.9943371639:0.986776",
          "0.9954098985/0.9954098985:0.560360 0/0.9976835609:0.439640"),
    10_000: (0.156470969060482, "0.9998860853:0.180895 0.9998862122:0.819105",
             "0.9999078398/0.9999078398:0.555213 0/0.9999533971:0.444787"),
}
#: N = 1e5 at main: the grid search's bracket was [0.156526429411075, 0.156526430122037].
MAIN_100000_UPPER = 0.156526430122037
MAIN_100000_P1 = "0.9999885989:0.752012 0.9999886755:0.247988"


def _parse(p1, co):
    x = {float(t): float(w) for t, w in (s.split(":") for s in p1.split())}
    y = {}
    for s in co.split():
        ab, w = s.split(":")
        a, b = ab.split("/")
        y[(float(a), float(b))] = float(w)
    return x, y


@pytest.mark.parametrize("N", sorted(MAIN))
def test_certified_bracket_contains_the_previous_values(N):
    value, p1, co = MAIN[N]
    x, y = _parse(p1, co)
    res = SimpleNamespace(size=N, player1_strategy=x, coalition_strategy=y, coalition_value=value,
                          player1_value=-value)
    br = bracket_value(res)
    assert br.rigorous
    assert br.lower <= value <= br.upper
    # rounded strategies (10 digits: a relative 1e-6 of 1 - p at N = 1e4), still tight
    assert br.width <= (5e-9 if N <= 200 else 1e-7)
    assert 0.0 < br.rounding <= 1e-12                      # rounding is inside the interval, and small
    # the certificates' best responses: player 1 just below the bloc, the pseudo-bloc free member at 0
    assert 0.0 < br.player1_response < 1.0 and len(br.coalition_response) == 2


def test_a_strategy_the_grid_search_certified_is_not_certified():
    """At N = 1e5 the 2-D grid search missed the coalition's pseudo-bloc response (0, b): player 1's
    strategy of main was 'certified' to hold the coalition to 0.15652643012.  The branch and bound
    finds the response, and the general O(N) closed form confirms the coalition gets more."""
    N = 100_000
    x, _ = _parse(MAIN_100000_P1, "0/0:1")
    qs, w = np.array(list(x)), np.array(list(x.values()))
    w = w / w.sum()
    cert = certify_player1(N, qs, w, v_target=-MAIN_100000_UPPER, margin=2e-11)
    assert cert.valid and cert.rigorous
    upper = -cert.v_certified
    a, b = cert.response
    others = np.array([a] + [b] * (N - 1))
    A = np.array([float(alpha(q, others)) for q in qs]) @ w
    B = np.array([float(beta(np.r_[q, others])) for q in qs]) @ w
    forced = -A / (1.0 - B)                              # Theorem 1.2 against this one profile
    assert forced > MAIN_100000_UPPER + 1e-7             # the old bracket was wrong by ~2e-7
    assert upper >= forced - 1e-11                       # the certificate accounts for it


def test_bad_strategies_are_not_certified():
    N = 200
    value = MAIN[200][0]
    # player 1 always holds (q = 0) against 200 players: cannot force more than forfeiting
    cert = certify_player1(N, [0.0], [1.0])
    assert not cert.valid and math.isnan(cert.v_certified)
    # a coalition that always holds: neither can it
    assert not certify_coalition_pseudo_bloc(N, [0.0], [0.0], [1.0]).valid
    # a mistuned pure player 1 (N(1 - q) = 2.2, twice the equilibrium's): not certified either, and
    # rightly: some profile gives f(v_* = -1) = α + (β - 1)(-1) <= 0 (general O(N) closed form)
    q = 1.0 - 2.2 / N
    p_star = 2.0 ** (-1.0 / N)
    res = SimpleNamespace(size=N, player1_strategy={q: 1.0}, coalition_strategy={(p_star, p_star): 1.0},
                          coalition_value=value, player1_value=-value)
    br = bracket_value(res)
    assert not br.rigorous and math.isnan(br.upper)
    bm = coalition_best_response(N, [q], [1.0], -1.0, tol=1e-9)
    others = np.array([bm.point[0]] + [bm.point[1]] * (N - 1))
    assert float(alpha(q, others)) - float(beta(np.r_[q, others])) + 1.0 <= 1e-12
    # the pure bloc at the symmetric equilibrium (Prop. 3.3) forces 0 (the fair game), far below V
    assert -1e-12 <= br.lower < value - 0.1
