"""Both cores (issue 21): the parallel and type-tensor kernels equal the reference numpy
pass, results are bit-identical whatever the thread count, and the new CFR options
(predictive CFR+, adaptive checks) reach certified targets."""
import numpy as np
import pytest

from guts.engine.extensive import _kernels as K
from guts.engine.extensive import cfr_plus, nash_conv
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
    monkeypatch.setattr(K, "PARALLEL_MIN_WORK", 0)      # Leduc is below the parallel threshold
    monkeypatch.setattr(K, "DENSE_MIN_WORK", 0)
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


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
@pytest.mark.parametrize("players,variant", [(2, "cfr+"), (3, "pcfr+")])
def test_one_and_two_threads_bit_identical(monkeypatch, players, variant):
    monkeypatch.setattr(K, "PARALLEL_MIN_WORK", 0)      # exercise the parallel kernels on Leduc
    monkeypatch.setattr(K, "DENSE_MIN_WORK", 0)
    monkeypatch.setattr(K, "LEVEL_MIN_WORK", 0)
    game = leduc_poker(players)
    r1 = cfr_plus(game, max_iterations=12, variant=variant, report_every=4, threads=1)
    r2 = cfr_plus(game, max_iterations=12, variant=variant, report_every=4, threads=2)
    for s1, s2 in zip(r1.strategies, r2.strategies):
        for h in s1:
            assert np.array_equal(s1[h], s2[h])
    assert r1.nash_conv == r2.nash_conv and np.array_equal(r1.values, r2.values)
    assert nash_conv(game, r1.strategies, threads=1) == nash_conv(game, r1.strategies, threads=2)


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
    monkeypatch.setattr(os, "getloadavg", lambda: (float(n) + 3.0, 0.0, 0.0))
    assert _threads.auto_threads() == 1
