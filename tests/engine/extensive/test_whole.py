"""Small games' CFR iterations compiled whole (:mod:`guts.engine.extensive._whole`:
both cores on Leduc-size games): the same iterates, bit for bit, as the level-by-level
kernels, with one thread or several, for every variant, two and three players."""
import numpy as np
import pytest

from guts.engine.extensive import _kernels as K
from guts.engine.extensive import _whole, cfr_plus
from guts.engine.extensive._threads import max_threads, using_threads
from guts.engine.extensive.cfr import _CFRState, _WholeState
from guts.games.toy import kuhn_poker, leduc_poker

GAMES = {"kuhn": kuhn_poker, "leduc2": lambda: leduc_poker(2), "leduc3": lambda: leduc_poker(3)}


def _states(monkeypatch, game, variant, threads, iterations=25):
    if game == "leduc3":
        # three-player Leduc normally takes the type-tensor kernel: without it, the per-deal
        # terminal pass with two other players' reaches
        monkeypatch.setattr(K, "USE_DENSE", False)
        monkeypatch.setattr(_whole, "MAX_ENTRIES", 10**7)
    cg = GAMES[game]().compiled
    assert _whole.applicable(cg)
    old = _CFRState(cg, variant, 1.5, 0.5, 2.0)
    new = _WholeState(cg, variant, 1.5, 0.5, 2.0)
    monkeypatch.setattr(_whole, "MIN_PARALLEL_WORK", 0)       # parallel even on Kuhn
    with using_threads(threads):
        for t in range(1, iterations + 1):
            old.iterate(t)
        # in uneven calls: a call's length changes nothing
        t = 1
        for count in (1, 2, 7, iterations):
            count = min(count, iterations + 1 - t)
            if count > 0:
                new.run(t, count)
                t += count
    return old, new


@pytest.mark.parametrize("game", ["kuhn", "leduc2", "leduc3"])
@pytest.mark.parametrize("variant", ["cfr+", "dcfr", "pcfr+"])
def test_whole_iterations_equal_level_kernels_bit_for_bit(monkeypatch, game, variant):
    old, new = _states(monkeypatch, game, variant, threads=1)
    for name in ("B", "regret", "avg"):
        for a, b in zip(getattr(old, name), getattr(new, name)):
            assert np.array_equal(a, b), name
    for a, b in zip(old.R, new.Rt):
        assert np.array_equal(a, b.T)
    # a strategy that moved: the test is not passed by two uniform strategies
    assert any(np.ptp(b[1:]) > 0.1 for b in new.B)


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
@pytest.mark.parametrize("game", ["kuhn", "leduc2", "leduc3"])
def test_whole_iterations_with_two_threads_bit_identical(monkeypatch, game):
    old, new = _states(monkeypatch, game, "pcfr+", threads=2)
    assert new.barrier_ok          # one region per call, its two threads at a barrier
    for a, b in zip(old.B + old.avg, new.B + new.avg):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_type_blocks_partition_every_players_types(k):
    cg = leduc_poker(2).compiled
    for p, bounds in enumerate(_whole.type_blocks(cg, k)):
        assert bounds.size == k + 1 and bounds[0] == 0 and bounds[-1] == cg.num_types[p]
        assert np.all(np.diff(bounds) >= 0)
    # Leduc's six cards, in two blocks of three (five deals each)
    assert _whole.type_blocks(cg, 2)[0].tolist() == [0, 3, 6]


def test_cfr_plus_takes_the_whole_path_on_leduc_and_matches_the_level_kernels(monkeypatch):
    game = leduc_poker(2)
    assert _whole.applicable(game.compiled)
    new = cfr_plus(game, max_iterations=300, variant="cfr+", report_every=50, threads=1)
    monkeypatch.setattr(_whole, "applicable", lambda cg: False)
    old = cfr_plus(game, max_iterations=300, variant="cfr+", report_every=50, threads=1)
    assert [h[:2] for h in new.history] == [h[:2] for h in old.history]
    assert new.nash_conv == old.nash_conv
    # CFR+ on Leduc after 300 iterations (OpenSpiel's CFRPlusSolver, the same iterate:
    # tests/engine/extensive/test_openspiel_oracle.py): exploitability well below 1e-2
    assert 0 < new.exploitability < 1e-2


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_a_refused_barrier_runs_the_call_on_one_thread_and_is_tried_again(monkeypatch):
    monkeypatch.setattr(_WholeState, "BARRIER_BACKOFF", 0.0)     # try again at once
    cg = leduc_poker(2).compiled
    old = _CFRState(cg, "cfr+", 1.5, 0.0, 2.0)
    new = _WholeState(cg, "cfr+", 1.5, 0.0, 2.0)
    real = _whole.iterations_barrier
    refusals = iter([True, True, False])   # refused twice (nothing done), then run

    def flaky(ctl, *args):
        return False if next(refusals) else real(ctl, *args)

    monkeypatch.setattr(_whole, "iterations_barrier", flaky)
    with using_threads(2):
        for t in range(1, 31):
            old.iterate(t)
        new.run(1, 10)
        assert not new.barrier_ok              # refused: the call ran on one thread
        new.run(11, 10)
        assert not new.barrier_ok
        new.run(21, 10)
        assert new.barrier_ok                  # tried again, and ran with the barrier
    for a, b in zip(old.B + old.avg, new.B + new.avg):
        assert np.array_equal(a, b)


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_a_refused_barrier_waits_before_it_is_tried_again(monkeypatch):
    calls = []

    def refused(ctl, *args):
        calls.append(1)
        return False

    monkeypatch.setattr(_whole, "iterations_barrier", refused)
    new = _WholeState(leduc_poker(2).compiled, "cfr+", 1.5, 0.0, 2.0)
    with using_threads(2):
        for t in range(1, 6):
            new.run(t, 1)
    # refused once, then a second's wait (BARRIER_BACKOFF) before the next try
    assert len(calls) == 1 and new._barrier_backoff == 2 * _WholeState.BARRIER_BACKOFF
