"""The rows ``guts fp-three-player`` records: never an iteration the run did not reach."""
import numpy as np
import pytest

from guts.studies.fictitious import _recorded


@pytest.mark.parametrize("num_iter", [1, 2, 99, 100, 101, 150, 5_000, 50_000])
def test_recorded_iterations_are_those_of_the_run(num_iter):
    k = _recorded(num_iter)
    # the history holds iterations 0..num_iter: every recorded one indexes it, the first 100 and
    # the last are all there, strictly increasing
    assert k[0] == 0 and k[-1] == num_iter and np.all(np.diff(k) > 0)
    assert set(range(min(100, num_iter) + 1)) <= set(k.tolist())
    assert len(k) <= 100 + 1 + 400 + 1


def test_a_one_iteration_run_records_iterations_0_and_1():
    # a run shorter than 100 iterations has no log-spaced tail: its gaps hold iterations 0 and 1 only
    from guts.errors import ConvergenceWarning
    from guts.games.guts.fictitious import fictitious_play

    with pytest.warns(ConvergenceWarning):   # one step does not reach the tolerance
        r = fictitious_play(3, 2, iterations=1, random_state=0)
    assert not r.converged
    assert _recorded(r.num_iter).tolist() == [0, 1] and len(r.gap) == 2
