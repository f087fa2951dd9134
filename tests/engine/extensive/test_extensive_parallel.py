"""Both cores: the parallel and type-tensor kernels equal the reference numpy
pass, results are bit-identical whatever the thread count, and the new CFR options
(predictive CFR+, adaptive checks) reach certified targets."""
import numpy as np
import pytest

from guts.engine.extensive import _kernels as K
from guts.engine.extensive import _threads, _whole
from guts.engine.extensive import best_response, cfr_plus, nash_conv
from guts.engine.extensive._threads import max_threads
from guts.engine.extensive.cfr import _CFRState
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker


def _reaches_after(game, k=3):
    st = _CFRState(game.compiled, "cfr+", 1.5, 0.0, 2.0)
    for t in range(1, k + 1):
        st.iterate(t)
    return st.R


@pytest.mark.parametrize("players", [2, 3])
def test_parallel_and_dense_kernels_equal_numpy_reference(monkeypatch, players):
    force_parallel(monkeypatch)      # Leduc is below the parallel thresholds
    game = leduc_poker(players)
    cg = game.compiled
    R = _reaches_after(game)
    if players == 3:
        assert K._dense_data(cg) is not None       # 3-player Leduc: the type tensor applies
    for p in range(players):
        ref = K.terminal_values(cg, p, R, fused=False)
        for dense, par in ((True, True), (False, True), (False, False)):
            monkeypatch.setattr(K, "USE_DENSE", dense)
            monkeypatch.setattr(K, "PARALLEL", par)
            got = K.terminal_values(cg, p, R)
            np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14 * max(1.0, np.abs(ref).max()))


def force_parallel(monkeypatch):
    """Every kernel in parallel whatever its size, the type tensor in many dynamic chunks."""
    for name in ("PARALLEL_MIN_WORK", "DENSE_MIN_WORK", "LEVEL_MIN_WORK", "UPDATE_MIN_WORK"):
        monkeypatch.setattr(K, name, 0)
    monkeypatch.setattr(_whole, "MIN_PARALLEL_WORK", 0)
    monkeypatch.setattr(K, "DENSE_DYNAMIC_CHUNKS", 2)


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
@pytest.mark.parametrize("game,variant", [("kuhn", "cfr+"), ("leduc2", "cfr+"), ("leduc2", "dcfr"),
                                          ("leduc3", "pcfr+"), ("leduc3", "cfr+")])
def test_one_and_two_threads_bit_identical(monkeypatch, game, variant):
    force_parallel(monkeypatch)
    game = {"kuhn": kuhn_poker, "leduc2": lambda: leduc_poker(2), "leduc3": lambda: leduc_poker(3)}[game]()
    r1 = cfr_plus(game, max_iterations=12, variant=variant, report_every=4, threads=1)
    r2 = cfr_plus(game, max_iterations=12, variant=variant, report_every=4, threads=2)
    # the default measures both counts as it runs (ThreadTuner) and switches between them
    r0 = cfr_plus(game, max_iterations=12, variant=variant, report_every=4)
    for r in (r2, r0):
        for s1, s2 in zip(r1.strategies, r.strategies):
            for h in s1:
                assert np.array_equal(s1[h], s2[h])
        assert r1.nash_conv == r.nash_conv and np.array_equal(r1.values, r.values)
        assert [h[:2] for h in r1.history] == [h[:2] for h in r.history]
    assert nash_conv(game, r1.strategies, threads=1) == nash_conv(game, r1.strategies, threads=2)
    b1 = best_response(game, r1.strategies, 0, threads=1)
    b2 = best_response(game, r1.strategies, 0, threads=2)
    assert b1.value == b2.value and all(np.array_equal(b1.strategy[h], b2.strategy[h]) for h in b1.strategy)


def test_thread_tuner_runs_the_faster_count():
    from guts.engine.extensive._threads import ThreadTuner

    def run(tuner, seconds, iterations=400):
        """Feed the tuner iteration times ``seconds(k)``; the thread count of every iteration."""
        used = []
        for t in range(1, iterations + 1):
            k = tuner.threads(t)
            used.append(k)
            tuner.record(t, k, seconds(k))
        return used

    n = max(2, max_threads())

    def tuner(choice):
        tu = ThreadTuner()
        tu.fixed, tu.choice, tu.candidates = False, choice, (1, n)
        tu._next_probe = 2
        return tu

    # two threads 1.8x faster (3P-MMH with a check, quiet machine): switched to after one probe
    tu = tuner(1)
    used = run(tu, lambda k: 1.0 if k == 1 else 1 / 1.8)
    assert tu.choice == n and used[10:].count(n) >= 0.97 * len(used[10:])
    # two threads 100x slower (a loaded machine): kept at one, probes cost <= 2 % of the time
    tu = tuner(n)
    cost = {1: 1.0, n: 100.0}
    used = run(tu, lambda k: cost[k], 5000)
    assert tu.choice == 1
    assert sum(cost[k] for k in used[50:]) <= 1.03 * len(used[50:])
    # an explicit count is never changed
    tu = ThreadTuner(1)
    assert set(run(tu, lambda k: 1.0 / k)) == {1}


def _chunked_tuner_run(steps, timing):
    """A chunked solver's tuner (``cfr._WholeState.TUNING``) starting on two threads, fed
    ``timing(t, k) = (seconds per iteration, iterations)`` for ``steps`` steps; the thread
    count of every step and the tuner."""
    from guts.engine.extensive._threads import ThreadTuner
    from guts.engine.extensive.cfr import _WholeState

    n = max(2, max_threads())
    tu = ThreadTuner(**_WholeState.TUNING)
    tu.fixed, tu.choice, tu.candidates = False, n, (1, n)
    used = []
    for t in range(1, steps + 1):
        k = tu.threads(t)
        used.append(k)
        tu.record(t, k, *timing(t, k))
    return used, tu, n


def test_thread_tuner_on_chunks_is_not_kept_on_a_lucky_call():
    """A chunked solver's steps (~20 ms of iterations each) beside a busy process: two
    threads 3x slower than one, but the short second call was lucky, as in a measured
    trace (54 us per iteration, then 90-900). The mean over the iterations switches to
    one thread at the first probe."""
    used, tu, n = _chunked_tuner_run(
        400, lambda t, k: (1.0, 300) if k == 1 else ((0.5, 4) if t == 2 else (3.0, 300)))
    assert tu.choice == 1 and used[4:6] == [1, 1] and used[5:].count(n) <= 0.03 * len(used[5:])


def test_thread_tuner_probes_again_when_the_load_changes():
    """Two threads 1.5x faster, then (another job starts) 3x slower than one: the tuner
    switches within a few steps, not after its period (which had grown to ~75 steps)."""
    used, tu, n = _chunked_tuner_run(300, lambda t, k: (1.0 if k == 1 else (1 / 1.5 if t <= 100 else 3.0), 300))
    assert used[10:100].count(n) >= 0.95 * 90       # two threads while they are faster
    assert used[100:110].count(1) >= 6              # then one thread within a few steps
    assert used[110:].count(1) >= 0.95 * 190


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_cfr_plus_tunes_threads_per_call_on_a_game_compiled_whole(monkeypatch):
    """Leduc runs ~20 ms chunks of iterations per call: the tuner's steps are the calls (a
    probe is one call), not the iterations (which made every other call a probe)."""
    from guts.engine.extensive import cfr as C

    seen = []

    class Recording(C.ThreadTuner):
        def record(self, t, k, seconds, iterations=1):
            seen.append((t, iterations))
            super().record(t, k, seconds, iterations)

    monkeypatch.setattr(C, "ThreadTuner", Recording)
    cfr_plus(leduc_poker(2), max_iterations=3000, report_every=3000)
    steps = [t for t, _ in seen]
    assert steps == list(range(1, len(seen) + 1))            # one step per call
    # calls of many iterations: a chunk is ~20 ms of work (~400 Leduc iterations on a quiet core);
    # on average ten or more per call holds even on a machine many times slower (a busy host)
    assert sum(i for _, i in seen) == 3000 and len(seen) <= 3000 // 10


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_cfr_plus_probe_of_a_slower_count_is_a_short_call(monkeypatch):
    """Two threads timed 6x slower than they run (as beside a busy process): after the
    switch to one thread, a probe of two is a call shorter than the one before it by the
    probe share and by the slowdown (a chunk sized from one thread's speed took Leduc
    130-150 ms on two instead of 20)."""
    from guts.engine.extensive import cfr as C

    n = max_threads()
    seen = []

    class Slow(C.ThreadTuner):
        def record(self, t, k, seconds, iterations=1):
            seen.append((k, iterations, self.probing, self.slowdown))
            super().record(t, k, seconds * (6.0 if k == n else 1.0), iterations)

    monkeypatch.setattr(_threads, "auto_threads", lambda: n)       # start on two threads
    monkeypatch.setattr(C, "ThreadTuner", Slow)
    cfr_plus(leduc_poker(2), max_iterations=8000, report_every=8000)
    # probes of two threads once they were timed slower, each the first of its probe
    probes = [i for i, (k, _, probing, slow) in enumerate(seen)
              if probing and k == n and slow > 2 and not seen[i - 1][2]]
    assert probes, seen
    for i in probes:
        # the call's length, from the chunk the call before it was timed at (noise: 2x)
        assert seen[i][1] <= 2 * seen[i - 1][1] * C._WholeState.PROBE_SHARE / seen[i][3] + 1, seen


def test_threads_validated():
    with pytest.raises(GutsInputError, match="threads"):
        cfr_plus(kuhn_poker(), max_iterations=2, threads=0)
    with pytest.raises(GutsInputError, match="threads"):
        nash_conv(kuhn_poker(), cfr_plus(kuhn_poker(), max_iterations=2).strategies, threads=max_threads() + 1)


def test_pcfr_plus_adaptive_reaches_certified_target_on_kuhn():
    # Kuhn poker's value is -1/18 (Kuhn 1950); the certificate is the NashConv of the average
    game = kuhn_poker()
    r = cfr_plus(game, variant="pcfr+", target=1e-4, check="adaptive", report_every=5)
    assert r.converged and r.exploitability <= 1e-4
    assert abs(nash_conv(game, r.strategies) - r.nash_conv) <= 1e-12
    assert abs(r.value + 1.0 / 18.0) <= r.nash_conv + 1e-12
    fixed = cfr_plus(game, target=1e-4, report_every=5)
    # fewer best-response passes than the fixed schedule needs
    assert len(r.history) < len(fixed.history)


@pytest.mark.parametrize("variant", ["cfr+", "dcfr", "pcfr+"])
def test_fused_regret_update_equals_numpy_reference(monkeypatch, variant):
    monkeypatch.setattr(K, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(K, "DENSE_MIN_WORK", 0)
    game = leduc_poker(2)
    runs = []
    for fused in (True, False):
        monkeypatch.setattr(K, "USE_FUSED", fused)
        st = _CFRState(game.compiled, variant, 1.5, 0.0, 2.0)
        for t in range(1, 8):
            st.iterate(t)
        runs.append(st)
    for p in range(2):
        for name in ("regret", "avg", "B", "R"):
            a, b = getattr(runs[0], name)[p], getattr(runs[1], name)[p]
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(b).max()))


def test_small_games_run_serial_kernels():
    # below PARALLEL_MIN_WORK no parallel region is entered (start-up and barriers cost more)
    cg = leduc_poker(2).compiled
    assert cg.num_terminals * cg.num_deals < K.PARALLEL_MIN_WORK
    assert not K.parallel_for(cg.num_terminals * cg.num_deals)


def test_default_threads_follow_load(monkeypatch):
    import os

    from guts.engine.extensive import _threads

    n = max_threads()
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert _threads.auto_threads() == n
    # a pool whose workers are not run at once (a busy machine): the default falls back to
    # one thread before its first parallel kernel; an explicit count is kept
    monkeypatch.setattr(_threads, "regions_prompt", lambda k: False)
    with _threads.using_threads(None):
        assert _threads.threads_now() == n
        assert _threads.current_threads() == 1 and _threads.threads_now() == 1
    with _threads.using_threads(n):
        assert _threads.current_threads() == n
    assert _threads.threads_now() is None
    monkeypatch.setattr(os, "getloadavg", lambda: (float(n) + 3.0, 0.0, 0.0))
    assert _threads.auto_threads() == 1


def test_from_flat_blocks_round_trip():
    # from_flat gathers decisions by number of actions (Leduc 3: two and three actions):
    # every table is its decision's rows, contiguous, in the game's decision order
    from guts.engine.extensive.strategies import from_flat, normalise_blocks, to_flat

    game = leduc_poker(3)
    cg = game.compiled
    rng = np.random.default_rng(0)
    flat = [normalise_blocks(pt, rng.random((pt.num_seqs, pt.num_types))) for pt in cg.players]
    strat = from_flat(game, flat)
    for p, pt in enumerate(cg.players):
        assert list(strat[p]) == list(pt.histories)
        assert len(set(pt.dec_num_actions.tolist())) > 1
        for i, h in enumerate(pt.histories):
            f, na = int(pt.dec_first[i]), int(pt.dec_num_actions[i])
            assert strat[p][h].flags.c_contiguous and np.array_equal(strat[p][h], flat[p][f:f + na].T)
    back = to_flat(game, strat)
    assert all(np.array_equal(a[1:], b[1:]) for a, b in zip(back, flat))
