"""The one iteration driver (:mod:`guts.engine.driver`): stopping rules on a toy state with a
closed form, checkpoints and signals, and the extensive-form solvers running through it."""
import math
import time

import pytest

from guts.engine import driver as D
from guts.engine.extensive import cfr as cfr_module
from guts.engine.extensive import cfr_plus, fictitious_play
from guts.engine.extensive import fictitious as fp_module
from guts.games.toy import kuhn_poker

#: Powers of two: every certificate of :class:`Halving` is exact, so the closed forms hold exactly.
START = 1.0
HALVINGS = 10
TARGET = START * 2.0 ** -HALVINGS
#: Relative tolerance of a certificate against its closed form (powers of two: exact in binary).
REL = 1e-15


class Halving:
    """A state whose certificate halves at every iteration: ``START * 2**-t`` after ``t``."""

    def __init__(self, chunk=None):
        self.iteration = 0
        self.counts = []
        self.chunk = chunk

    def step(self, count):
        self.counts.append(count)
        self.iteration += count

    def certificate(self):
        return START * 2.0 ** -self.iteration


class Chunked(Halving):
    def plan(self, limit):
        return min(self.chunk, limit)


def test_the_toy_state_follows_the_protocol():
    assert isinstance(Halving(), D.IterativeState)


@pytest.mark.parametrize("every", [1, 3, 4, 7])
def test_stops_at_the_first_scheduled_check_that_meets_the_target(every):
    # certificate 2**-t <= 2**-HALVINGS first at t = HALVINGS; checks at multiples of `every`
    want = every * math.ceil(HALVINGS / every)
    st = Halving()
    run = D.drive(st, max_iterations=1000, target=TARGET, check_schedule=every)
    assert run.stopped == "target" and run.iteration == st.iteration == want
    assert [h[0] for h in run.history] == list(range(every, want + 1, every))
    assert math.isclose(run.certificate, START * 2.0 ** -want, rel_tol=REL)
    # no plan: a step runs up to the next check
    assert st.counts == [every] * (want // every)


def test_a_strict_target_needs_one_more_halving():
    run = D.drive(Halving(), max_iterations=1000, target=TARGET, strict=True)
    assert run.stopped == "target" and run.iteration == HALVINGS + 1


def test_budget_ends_the_run_with_a_check_at_its_end():
    budget = HALVINGS - 3
    run = D.drive(Halving(), max_iterations=budget, target=TARGET, check_schedule=5)
    assert run.stopped == "budget" and run.iteration == budget
    assert [h[0] for h in run.history] == [5, budget]          # the last check at the budget's end
    assert math.isclose(run.certificate, START * 2.0 ** -budget, rel_tol=REL)


def test_time_limit_ends_the_run_after_one_step():
    # the limit already spent when the run starts: one step, then the time test stops it
    run = D.drive(Halving(), max_iterations=1000, target=TARGET, time_limit=1.0,
                  started=time.perf_counter() - 2.0)
    assert run.stopped == "time" and run.iteration == 1


def test_plan_bounds_every_step_and_the_checks_stay_on_schedule():
    st = Chunked(chunk=2)
    run = D.drive(st, max_iterations=1000, target=TARGET, check_schedule=5)
    assert run.stopped == "target" and run.iteration == 10
    assert st.counts == [2, 2, 1, 2, 2, 1]                     # never past a check
    assert [h[0] for h in run.history] == [5, 10]


def test_a_callable_schedule_and_on_check():
    seen = []
    # next check at twice the last one: 1, 2, 4, 8, 16 (first at or after HALVINGS: 16)
    run = D.drive(Halving(), max_iterations=1000, target=TARGET, check_schedule=lambda h: 2 * h[-1][0],
                  on_check=lambda t, c: seen.append((t, c)))
    assert run.iteration == 16 and [t for t, _ in seen] == [1, 2, 4, 8, 16]
    assert all(math.isclose(c, START * 2.0 ** -t, rel_tol=REL) for t, c in seen)


def test_final_check_certifies_the_last_iterate():
    run = D.drive(Chunked(chunk=1), max_iterations=1000, time_limit=1.0, check_schedule=50, final_check=True,
                  started=time.perf_counter() - 2.0)
    assert run.stopped == "time" and run.history[-1][0] == 1
    assert math.isclose(run.history[-1][1], START / 2, rel_tol=REL)


class Keeper:
    def __init__(self, every_step=False):
        self.writes = []
        self.every_step = every_step

    def due(self):
        return self.every_step

    def write(self, state, t, next_check, history, seconds):
        self.writes.append(t)


def test_keeper_writes_when_due_and_at_the_end():
    k = Keeper(every_step=True)
    D.drive(Halving(), max_iterations=4, check_schedule=1, keeper=k)
    assert k.writes == [1, 2, 3, 4, 4]


def test_a_signal_writes_the_completed_iteration_and_is_raised_again():
    class Stopped(Halving):
        def step(self, count):
            if self.iteration == 3:
                raise KeyboardInterrupt
            super().step(count)

        def complete(self):
            return self.iteration

    k = Keeper()
    with pytest.raises(KeyboardInterrupt):
        D.drive(Stopped(), max_iterations=100, check_schedule=1, keeper=k)
    assert k.writes == [3]


def test_target_progress_is_a_log_scale():
    assert D.target_progress(1.0, 1e-2, 1e-4) == D.TARGET_BAR_STEPS // 2
    assert D.target_progress(1.0, 1e-4, 1e-4) == D.TARGET_BAR_STEPS


def _spy(monkeypatch, module):
    """Replace ``module.drive`` by one that counts the iterations its state's steps ran."""
    real = D.drive
    seen = {}

    def spy(state, **kw):
        seen["state"] = state
        seen["counts"] = counts = []
        step = state.step

        def counted(count):
            counts.append(count)
            step(count)

        state.step = counted
        return real(state, **kw)

    monkeypatch.setattr(module, "drive", spy)
    return seen


@pytest.mark.parametrize("kw", [dict(max_iterations=250, report_every=10), dict(target=1e-3, report_every=5)])
def test_cfr_plus_runs_through_the_driver(monkeypatch, kw):
    seen = _spy(monkeypatch, cfr_module)
    r = cfr_plus(kuhn_poker(), **kw)
    assert isinstance(seen["state"], D.IterativeState)
    assert sum(seen["counts"]) == r.num_iter == seen["state"].iteration
    # every check of the history on the schedule (or at the end)
    assert all(t % kw["report_every"] == 0 or t == r.num_iter for t, _, _ in r.history)


@pytest.mark.parametrize("averaging", ["realisation", "behavioural"])
def test_fictitious_play_runs_through_the_driver(monkeypatch, averaging):
    seen = _spy(monkeypatch, fp_module)
    r = fictitious_play(kuhn_poker(), target=0.01, averaging=averaging)
    assert r.converged
    assert isinstance(seen["state"], D.IterativeState)
    assert seen["counts"] == [1] * r.num_iter                 # every iteration is tested
