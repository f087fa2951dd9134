"""Matrix-game solvers: known values, LP bounds by pure guarantees, FP gap, double oracle = LP."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from guts import GutsInputError, SolverError
from guts.errors import ConvergenceWarning
from guts.engine.matrix_game import double_oracle, duality_gap, solve_fp, solve_lp, solve_matrix_game

games = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda s: arrays(float, s, elements=st.floats(-10, 10, allow_nan=False, width=32)))


def test_rock_paper_scissors():
    M = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    s = solve_lp(M)
    assert abs(s.value) < 1e-12
    np.testing.assert_allclose(s.row_strategy, 1 / 3, atol=1e-12)
    np.testing.assert_allclose(s.col_strategy, 1 / 3, atol=1e-12)


def test_two_by_two_closed_form():
    # no saddle point: value = (ad - bc) / (a + d - b - c)
    a, b, c, d = 3.0, -1.0, -2.0, 1.0
    s = solve_lp([[a, b], [c, d]])
    assert s.value == pytest.approx((a * d - b * c) / (a + d - b - c), abs=1e-12)
    assert s.row_strategy[0] == pytest.approx((d - c) / (a + d - b - c), abs=1e-12)


def test_degenerate_game_found_by_hypothesis():
    """An entry at HiGHS' tolerance scale: the gap stays within the scaled tolerance."""
    M = np.array([[-1.0, 1.0, 0.0], [-1.0, -1.0, -1.0], [2.0, -1.0, 9.99999972e-10]])
    s = solve_lp(M)
    assert s.gap <= 2e-9 and M.min(axis=1).max() - 1e-9 <= s.value <= M.max(axis=0).min() + 1e-9


@settings(max_examples=200, deadline=None)
@given(games)
def test_lp_value_between_pure_guarantees(M):
    s = solve_lp(M)
    assert M.min(axis=1).max() - 1e-9 <= s.value <= M.max(axis=0).min() + 1e-9
    assert s.gap <= 1e-9 * max(1.0, np.abs(M).max())
    assert s.lower - 1e-12 <= s.value <= s.upper + 1e-12  # equal up to rounding
    assert s.row_strategy.sum() == pytest.approx(1) and s.row_strategy.min() >= 0
    # zero-sum duality: the transposed, negated game has the negated value
    assert solve_lp(-M.T).value == pytest.approx(-s.value, abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(games)
def test_double_oracle_equals_lp(M):
    s, _, _ = double_oracle(lambda I: M[I], lambda J: M[:, J], M.shape, tol=1e-12)
    assert s.value == pytest.approx(solve_lp(M).value, abs=1e-9)
    lo, up, gap = duality_gap(M, s.row_strategy, s.col_strategy)
    assert gap <= 1e-9


def test_fictitious_play_reports_its_gap_and_converges():
    M = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    with pytest.warns(ConvergenceWarning):
        short = solve_fp(M, iterations=20, random_state=1, tol=1e-6)
    long = solve_fp(M, iterations=5000, random_state=1, tol=0.05)
    assert long.gap < short.gap
    assert long.lower - 1e-12 <= 0.0 <= long.upper + 1e-12  # the value lies within the reported gap
    assert long.converged


def test_fictitious_play_is_reproducible_and_leaves_global_rng_alone():
    M = np.random.default_rng(3).normal(size=(5, 7))
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    a = solve_fp(M, iterations=300, random_state=7, tol=np.inf)
    b = solve_fp(M, iterations=300, random_state=7, tol=np.inf)
    np.testing.assert_array_equal(a.row_strategy, b.row_strategy)
    np.testing.assert_array_equal(np.random.get_state()[1], before)


def test_bad_input():
    with pytest.raises(GutsInputError, match="NaN"):
        solve_lp([[1.0, np.nan]])
    with pytest.raises(GutsInputError, match="2-D"):
        solve_lp(np.zeros((0, 3)))
    with pytest.raises(GutsInputError, match="solver"):
        solve_matrix_game([[1.0]], solver="simplex")
    with pytest.raises(GutsInputError, match="iterations"):
        solve_fp([[1.0]], iterations=0)


def test_lp_failure_is_loud(monkeypatch):
    import guts.engine.highs as highs
    import guts.engine.matrix_game as mg

    class Bad:
        status, x, message = 4, None, "numerical difficulties"

    monkeypatch.setattr(highs, "_call_linprog", lambda *a, **k: Bad())
    with pytest.raises(SolverError, match="status 4"):
        mg.solve_lp([[1.0, 2.0]])


def test_degenerate_lp_is_polished_onto_the_best_responses():
    """A 1 x 2 game whose columns differ by ~1e-9 (found by hypothesis, scipy 1.17 / HiGHS).

    HiGHS may keep weight on the worse column within its 1e-10 tolerances (gap ~1e-9,
    non-square supports); the value is the smaller column and the column player's only
    optimal strategy is that column.
    """
    A = np.array([[9.999999717180685e-10, 9.999999717180685e-10]])
    B = np.array([[0.0, 0.75]])
    for V in (-2e-9, -1.3e-9, -7.5e-10):
        M = A + V * B
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            s = solve_lp(M)
        assert s.value == pytest.approx(M.min(), abs=1e-18)
        assert s.col_strategy.tolist() == [0.0, 1.0] and s.gap <= 1e-18
