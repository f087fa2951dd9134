"""The fixed point V = Value(A + B V): hand-solvable games, §2.2 overshoot, certificates."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from guts import ConvergenceWarning, GutsInputError, certify, fixed_point
from guts.games.guts.coalition import coalition_stage
from guts.engine.matrix_game import solve_lp


def test_one_by_one_closed_form():
    # T(V) = a + b V, b < 1: fixed point a / (1 - b), reached from below
    for method in ("iterate", "newton"):
        r = fixed_point([[0.3]], [[0.4]], v0=-1.0, method=method)
        assert r.status == "converged"
        assert r.value == pytest.approx(0.3 / 0.6, abs=1e-10)
        assert all(np.diff(r.history) > 0)
    assert fixed_point([[0.3]], [[0.4]], v0=-1.0, method="newton").num_solves <= 4


def test_no_entry_when_first_round_does_not_improve():
    # T(-1) = -0.5 - 0.5 = -1 <= V0: the player should not enter
    r = fixed_point([[-0.5]], [[0.5]], v0=-1.0)
    assert r.status == "no-entry" and r.value == -1.0 and r.converged


def test_divergence_is_reported():
    with pytest.warns(ConvergenceWarning, match="diverged"):
        r = fixed_point([[2.0]], [[2.0]], v0=-1.0)
    assert r.status == "diverged" and not r.converged
    capped = fixed_point([[2.0]], [[2.0]], v0=-1.0, cap=5.0)
    assert capped.status == "capped" and capped.value == 5.0


def test_max_iter_is_reported():
    with pytest.warns(ConvergenceWarning, match="max-iter"):
        r = fixed_point([[0.0]], [[0.999]], v0=-1.0, max_iterations=5, method="iterate")
    assert r.status == "max-iter" and not r.converged


def test_overshoot_example_section_2_2():
    """α = (0, 0), β = (1/2, 2): T(V) > V on both sides of 0; 0 repels from above."""
    A, B = np.zeros((2, 1)), np.array([[0.5], [2.0]])
    with pytest.warns(ConvergenceWarning, match="not attracting from above"):
        r = fixed_point(A, B, v0=-1.0, method="iterate")
    assert abs(r.value) < 1e-10 and r.attracting_from_above is False
    # exact iterates from -1: V_k = -2^-k
    np.testing.assert_allclose(r.history[:6], [-(0.5**k) for k in range(6)])
    # from above the iteration runs away (2V > V for V > 0)
    with pytest.warns(ConvergenceWarning):
        up = fixed_point(A, B, v0=1e-3)
    assert up.status == "diverged"


def test_attracting_fixed_point_is_reported_as_such():
    r = fixed_point([[0.3]], [[0.4]], v0=-1.0)
    assert r.attracting_from_above is True


small_games = st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(lambda s: st.tuples(
    arrays(float, s, elements=st.floats(-1, 1, width=32)),
    arrays(float, s, elements=st.floats(0, 0.875, width=32))))


@settings(max_examples=60, deadline=None)
@given(small_games)
def test_fixed_point_identity_and_methods_agree(game):
    """At the result V = Value(A + B V), and Newton and plain iteration agree (β < 1 contracts)."""
    A, B = game
    it = fixed_point(A, B, v0=-1.0, method="iterate", check_above=False)
    nt = fixed_point(A, B, v0=-1.0, method="newton", check_above=False)
    assert it.value == pytest.approx(nt.value, abs=1e-8)
    if it.status == "converged":
        assert solve_lp(A + B * it.value).value == pytest.approx(it.value, abs=1e-8)
    else:
        assert it.status == "no-entry" and solve_lp(A - B).value <= -1 + 1e-12


def test_certificate_for_guts_fixed_point_strategy():
    stage = coalition_stage(2, 21)
    r = fixed_point(stage, v0=-1.0, method="newton")
    c = certify(stage, strategy=r.row_strategy, v_start=-1.0)
    assert c.valid and c.epsilon > 0
    assert r.value - 1e-9 <= c.v_certified <= r.value + 1e-12


def test_certificate_fails_for_always_drop():
    """Threshold 1 (always drop) keeps exactly the termination value: f(-1) = 0, not > 0."""
    stage = coalition_stage(2, 11)
    x = np.zeros(11)
    x[-1] = 1.0
    c = certify(stage, strategy=x, v_start=-1.0)
    assert not c.valid and math.isnan(c.v_certified)
    assert abs(c.epsilon) < 1e-12


def test_certificate_is_never_above_what_the_strategy_forces():
    """A poor strategy certifies only a low value: certified v^* <= its own fixed point."""
    stage = coalition_stage(2, 21)
    x = np.zeros(21)
    x[10] = 1.0  # threshold 0.5 against a 2-coalition
    c = certify(stage, strategy=x, v_start=-1.0)
    A, B = stage.dense()
    forced = fixed_point(A[10:11], B[10:11], v0=-1.0).value  # player 1 restricted to 0.5
    assert c.valid and c.v_certified <= forced + 1e-12
    assert c.v_certified < fixed_point(stage, v0=-1.0).value


def test_bad_arguments():
    with pytest.raises(GutsInputError, match="method"):
        fixed_point([[0.0]], [[0.5]], method="bisect")
    with pytest.raises(GutsInputError, match="solver"):
        fixed_point([[0.0]], [[0.5]], solver="cplex")
    with pytest.raises(GutsInputError, match="B must be >= 0"):
        fixed_point([[0.0]], [[-0.5]])
    with pytest.raises(GutsInputError, match="v0"):
        fixed_point([[0.0]], [[0.5]], v0=float("nan"))
    with pytest.raises(GutsInputError, match="probability vector"):
        certify([[0.0]], [[0.5]], strategy=[0.5])
