"""The engine's scale in the Mercer family: shared terminal nodes leave the game unchanged, and the
study's solver options (predictive CFR+, adaptive checks, threads) give certified results."""
import numpy as np

from guts.engine.extensive import nash_conv
from guts.engine.extensive._threads import max_threads
from guts.games.poker.mercer import build_game, solve, variant_rules


def test_shared_terminals_keep_sizes_and_payoffs():
    # sizes of 3P-SMH with call/raise and a check as committed before terminals were shared
    # (results/mercer/beyond.csv: 1 069 public states, 945 information sets)
    b = build_game(variant_rules("smh", 3, betting="limit", check=True))
    assert (b.stats.public_states, b.stats.info_sets) == (1069, 945)
    cg = b.game.compiled
    assert cg.num_terminals == b.stats.terminals
    # zero-sum at every terminal and deal (every chip won is lost by someone)
    for z in range(cg.num_terminals):
        tid = cg.term_tid[z]
        pay = cg.term_offset[:, z][:, None] + (cg.term_scale[z] * cg.tables[tid] if tid >= 0 else 0.0)
        assert np.abs(np.sum(pay, axis=0)).max() <= 1e-12


def test_pcfr_adaptive_options_certified_and_thread_independent():
    opts = dict(variant="pcfr+", check="adaptive")
    r1 = solve("smh", 3, "cfr+", target=0.01 / 3, cfr_options=opts, threads=1)        # NashConv 0.01
    r2 = solve("smh", 3, "cfr+", target=0.01 / 3, cfr_options=opts, threads=min(2, max_threads()))
    assert r1.converged and r1.nash_conv <= 0.01
    assert abs(nash_conv(r1.built.game, r1.strategies) - r1.nash_conv) <= 1e-12
    assert r1.nash_conv == r2.nash_conv and np.array_equal(r1.values, r2.values)


def test_every_kernel_parallel_bit_identical_on_a_mercer_game(monkeypatch):
    # 3P-SMH with a check: the three-player type-tensor pass, the fused CFR update and the
    # level passes all in parallel (thresholds at zero); 1 and 2 threads give the same bits
    import pytest

    from guts.engine.extensive import _kernels as K
    from guts.engine.extensive import best_response, cfr_plus

    if max_threads() < 2:
        pytest.skip("needs 2 numba threads")
    for name in ("PARALLEL_MIN_WORK", "DENSE_MIN_WORK", "LEVEL_MIN_WORK", "UPDATE_MIN_WORK"):
        monkeypatch.setattr(K, name, 0)
    monkeypatch.setattr(K, "DENSE_DYNAMIC_CHUNKS", 2)
    game = build_game(variant_rules("smh", 3, check=True)).game
    assert K._dense_data(game.compiled) is not None
    r1 = cfr_plus(game, max_iterations=15, variant="pcfr+", report_every=5, threads=1)
    r2 = cfr_plus(game, max_iterations=15, variant="pcfr+", report_every=5, threads=2)
    for s1, s2 in zip(r1.strategies, r2.strategies):
        assert all(np.array_equal(s1[h], s2[h]) for h in s1)
    assert r1.nash_conv == r2.nash_conv and np.array_equal(r1.br_values, r2.br_values)
    assert nash_conv(game, r1.strategies, threads=1) == nash_conv(game, r1.strategies, threads=2)
    b1, b2 = (best_response(game, r1.strategies, 2, threads=k) for k in (1, 2))
    assert b1.value == b2.value and np.array_equal(b1.type_values, b2.type_values)
