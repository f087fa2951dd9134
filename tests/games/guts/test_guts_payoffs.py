"""Payoffs: Propositions 3.1-3.3, zero-sum, and the closed form against the paper's enumeration."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts import GutsInputError
from guts.games.guts.payoffs import (alpha, alpha_all, alpha_enumeration, alpha_matrix, beta, beta_enumeration,
                          beta_matrix)

# thresholds drawn from a small set so that ties and the endpoints 0 and 1 are frequent
_special = st.sampled_from([0.0, 1.0, 0.5, 0.25, 0.75])
_threshold = st.one_of(_special, st.floats(0.0, 1.0, allow_nan=False))


def prop31_alpha(p1, p2):
    return (1 - 2 * p1) * (p1 - p2) if p2 <= p1 else (1 - 2 * p2) * (p1 - p2)


def prop32_alpha(p1, p2, p3):
    if p1 < p2 < p3:
        return 2 * p1 - p2 - p3 + p3**3 + 3 * p2**2 * p3 - 4 * p1 * p2 * p3
    if p1 < p3 < p2:
        return 2 * p1 - p3 - p2 + p2**3 + 3 * p3**2 * p2 - 4 * p1 * p2 * p3
    if p2 < p1 < p3:
        return 2 * p1 - p2 - p3 + p3**3 - 3 * p1**2 * p3 + 2 * p1 * p2 * p3
    if p3 < p1 < p2:
        return 2 * p1 - p2 - p3 + p2**3 - 3 * p1**2 * p2 + 2 * p1 * p2 * p3
    return 2 * p1 - p2 - p3 - 2 * p1**3 + 2 * p1 * p2 * p3


@given(_threshold, _threshold)
def test_proposition_3_1(p1, p2):
    expected = prop31_alpha(p1, p2)
    assert alpha(p1, [p2]) == pytest.approx(expected, abs=1e-13)
    assert alpha_enumeration([p1, p2])[0] == pytest.approx(expected, abs=1e-13)
    b = p1 * p2 + (1 - p1) * (1 - p2)
    assert beta([p1, p2]) == pytest.approx(b, abs=1e-13)
    assert beta_enumeration([p1, p2]) == pytest.approx(b, abs=1e-13)


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_proposition_3_2(p1, p2, p3):
    if len({p1, p2, p3}) < 3:  # the printed cases are for distinct thresholds
        p3 = p3 if p3 not in (p1, p2) else (p3 + 0.123) % 1
    if len({p1, p2, p3}) < 3:
        return
    expected = prop32_alpha(p1, p2, p3)
    assert alpha(p1, [p2, p3]) == pytest.approx(expected, abs=1e-12)
    assert alpha_enumeration([p1, p2, p3])[0] == pytest.approx(expected, abs=1e-12)
    assert beta([p1, p2, p3]) == pytest.approx(2 - p1 - p2 - p3 + 2 * p1 * p2 * p3, abs=1e-13)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.lists(_threshold, min_size=n, max_size=n)))
def test_closed_form_matches_enumeration(p):
    """The vectorised closed form equals the paper's Θ(n 3^n) enumeration to 1e-12."""
    oracle = alpha_enumeration(p)
    np.testing.assert_allclose(alpha_all(p), oracle, rtol=0, atol=1e-12)
    np.testing.assert_allclose(alpha_matrix(p[:1], [p[1:]])[0, 0], oracle[0], rtol=0, atol=1e-12)
    assert beta(p) == pytest.approx(beta_enumeration(p), abs=1e-12)
    assert beta_matrix(p[:1], [p[1:]])[0, 0] == pytest.approx(beta_enumeration(p), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.lists(_threshold, min_size=n, max_size=n)))
def test_zero_sum_every_profile(p):
    assert abs(alpha_enumeration(p).sum()) < 1e-12
    assert abs(alpha_all(p).sum()) < 1e-12


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.lists(_threshold, min_size=n, max_size=n)), st.randoms())
def test_symmetric_in_the_others(p, rnd):
    """α_1 depends on the other thresholds only as a multiset (basis of the reduction)."""
    others = list(p[1:])
    rnd.shuffle(others)
    assert alpha(p[0], others) == pytest.approx(alpha(p[0], p[1:]), abs=1e-13)


def test_alpha_matrix_equals_broadcast_alpha():
    rng = np.random.default_rng(0)
    rows = np.r_[0.0, rng.random(7), 1.0]
    cols = rng.random((40, 4))
    cols[::5] = 1.0
    cols[1::7, 2] = 0.0
    cols[3] = rows[3]  # ties between player 1 and the others
    np.testing.assert_allclose(alpha_matrix(rows, cols, chunk=7), alpha(rows[:, None], cols[None]), atol=1e-13)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 16])
def test_symmetric_equilibrium_proposition_3_3(n):
    """p* = 2^(-1/(n-1)) is the symmetric equilibrium and gives the bloc game value 0."""
    ps = 2.0 ** (-1.0 / (n - 1))
    grid = np.unique(np.r_[np.linspace(0, 1, 401), ps])
    m = n - 1
    # p* forces >= 0 against every bloc (one-shot at V = 0, hence in the recursive game)
    a = alpha_matrix([ps], np.repeat(grid[:, None], m, axis=1))[0]
    assert a.min() >= -1e-12
    # ... and the bloc playing p* holds player 1 to <= 0 whatever the threshold
    a1 = alpha_matrix(grid, np.full((1, m), ps))[:, 0]
    assert a1.max() <= 1e-12
    # and p* is the unique such threshold: neighbours lose against some bloc
    for q in (ps - 0.01, ps + 0.01):
        assert alpha_matrix([q], np.repeat(grid[:, None], m, axis=1))[0].min() < -1e-6


def test_bad_thresholds_rejected():
    with pytest.raises(GutsInputError, match=r"\[0, 1\]"):
        alpha(0.5, [np.nan])
    with pytest.raises(GutsInputError, match="1.5"):
        alpha_enumeration([0.2, 1.5])
    with pytest.raises(GutsInputError, match="n >= 2"):
        beta_enumeration([0.5])
    with pytest.raises(GutsInputError):
        beta([0.3])


@settings(max_examples=60, deadline=None)
@given(_threshold, _threshold, _threshold, st.integers(1, 9))
def test_pseudo_bloc_enumeration_matches_closed_form(q, a, b, N):
    """The paper's O(n^2) pseudo-bloc enumeration (§4.1.4) equals the closed form."""
    from guts.games.guts.payoffs import alpha_pseudo_bloc_enumeration

    assert alpha_pseudo_bloc_enumeration(q, a, b, N) == pytest.approx(float(alpha(q, [a] + [b] * (N - 1))), abs=1e-12)
