"""Hyperparameter schedules of CFR (``variant="hs-dcfr"`` / ``"hs-pcfr+"``; Zhang, McAleer and
Sandholm, *Faster Game Solving via Hyperparameter Schedules*, 2024).

Oracles: the schedules' closed forms written here from the paper's description (alpha_t =
1 + 3t/T, beta_t = -1 - 2t/T, gamma_t = 30 - 5t/T; the average sums discounted by
(t/(t+1))^gamma_t after iteration t, so iteration t weighs prod_{s<t} ((s+1)/s)^gamma_s),
the identity w_t = t^gamma for a constant gamma, Kuhn poker's value -1/18 (Kuhn 1950),
Leduc hold'em's value from the exact sequence-form LP (the certificate |u_1 - v*| <= NashConv
in a two-player zero-sum game), and uninterrupted runs of the same length (bit for bit).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from guts.engine import persist
from guts.engine.extensive import _schedules, _whole, cfr, cfr_plus, solve_lp
from guts.engine.extensive._schedules import BLOCK, HyperSchedule, exponents
from guts.engine.extensive.cfr import _CFRState, _WholeState
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

KUHN_VALUE = -1.0 / 18.0        # Kuhn (1950): the first player's value
HS = ("hs-dcfr", "hs-pcfr+")


def paper_exponents(t, T):
    """The paper's linear schedules, clipped at the horizon."""
    p = min(t / T, 1.0)
    return 1.0 + 3.0 * p, -1.0 - 2.0 * p, 30.0 - 5.0 * p


def paper_weight(t, T):
    """Weight of iteration t in the unnormalised average, relative to iteration 1's: the inverse
    of the discounts (s/(s+1))^gamma_s applied after the iterations s < t."""
    w = 1.0
    for s in range(1, t):
        w *= ((s + 1) / s) ** paper_exponents(s, T)[2]
    return w


# ------------------------------------------------------------------------- the formulas
@pytest.mark.parametrize("T", [10, 1000])
def test_exponents_follow_the_linear_schedules(T):
    for t in (1, T // 2, T, 3 * T):
        a, b, g = exponents(t, T)
        assert (a, b, g) == pytest.approx(paper_exponents(t, T), abs=1e-15)
    # the ends: alpha 1 -> 4, beta -1 -> -3, gamma 30 -> 25
    assert exponents(T, T) == pytest.approx((4.0, -3.0, 25.0))
    assert exponents(10 * T, T) == pytest.approx((4.0, -3.0, 25.0))


@pytest.mark.parametrize("variant", HS)
def test_per_iteration_scalars_match_the_closed_forms(variant):
    T = 50
    s = HyperSchedule(variant, T)
    for t in (1, 2, 7, 25, 50, 80):
        mode, w, fp, fn = s.at(t)
        assert w == pytest.approx(paper_weight(t, T), rel=1e-12)
        a, b, _ = paper_exponents(t, T)
        if variant == "hs-dcfr":
            assert mode == 1
            assert fp == pytest.approx(t ** a / (t ** a + 1), rel=1e-14)
            assert fn == pytest.approx(1 / (1 + t ** -b), rel=1e-14)
        else:
            assert mode == 2 and fp == fn == 1.0          # PCFR+ discounts no regret
    # t = 1: weight 1, both regret discounts 1/2 (1^a / (1^a + 1))
    assert HyperSchedule("hs-dcfr", T).at(1)[1:] == (1.0, 0.5, 0.5)


def test_a_constant_gamma_gives_the_power_weights_of_dcfr(monkeypatch):
    monkeypatch.setattr(_schedules, "GAMMA_DROP", 0.0)
    s = HyperSchedule("hs-pcfr+", 100)
    for t in (1, 2, 3, 10, 4095, 4096, 4097, 9000):
        assert s.at(t)[1] == pytest.approx(float(t) ** 30, rel=1e-11)


def test_weights_are_the_same_bits_however_the_iterations_are_grouped():
    T = 2 * BLOCK
    whole = HyperSchedule("hs-dcfr", T).table(1, 2 * BLOCK + 4)
    pieces = HyperSchedule("hs-dcfr", T)
    got = np.vstack([pieces.table(1, 100), pieces.table(101, BLOCK - 103), pieces.table(BLOCK - 2, 9),
                     pieces.table(BLOCK + 7, BLOCK - 2)])
    assert np.array_equal(got, whole)
    # a fresh schedule asked for a late iteration first (a resumed solve)
    late = HyperSchedule("hs-dcfr", T)
    assert np.array_equal(late.table(BLOCK + 3, 10), whole[BLOCK + 2:BLOCK + 12])
    assert np.all(np.isfinite(whole)) and np.all(np.diff(whole[:, 0]) > 0)


def test_weights_stay_finite_up_to_the_iteration_cap():
    s = HyperSchedule("hs-pcfr+", 10**9)
    # log w_t <= 30 log t: no overflow of float64 even summed over 1e9 iterations
    w = s.table(1, 3)[:, 0]
    assert list(w) == pytest.approx([1.0, 2.0 ** 30, 2.0 ** 30 * 1.5 ** 30], rel=1e-6)
    assert 30 * math.log(1e9) + math.log(1e9) < math.log(np.finfo(float).max)


# ------------------------------------------------------------------------- convergence
def _tabular_kuhn(variant, T):
    """Exploitability of the average after T iterations of an independent, plain tabular
    implementation on Kuhn poker (cards 0 < 1 < 2, histories '', 'p', 'b', 'pb'; alternating
    updates; the best responses by enumerating the 2^6 pure strategies of each player)."""
    deals = list(itertools.permutations(range(3), 2))
    infos = [(c, h) for c in range(3) for h in ("", "p", "b", "pb")]

    def pay(h, c):                          # to player 0
        if h == "bp":
            return 1.0
        if h == "pbp":
            return -1.0
        return (1.0 if c[0] > c[1] else -1.0) * (2.0 if h in ("bb", "pbb") else 1.0)

    def value(h, c, s, upd=None, reach=None, out=None):
        if h in ("pp", "bp", "bb", "pbp", "pbb"):
            return pay(h, c)
        p = len(h) % 2
        x = s[(c[p], h)]
        v = np.zeros(2)
        for a, ch in enumerate("pb"):
            r = None if reach is None else [reach[0] * (x[a] if p == 0 else 1), reach[1] * (x[a] if p == 1 else 1)]
            v[a] = value(h + ch, c, s, upd, r, out)
        ev = float(x @ v)
        if p == upd:
            out[(c[p], h)] = out.get((c[p], h), 0.0) + reach[1 - p] * (1 if p == 0 else -1) * (v - ev) / 6
        return ev

    def best(s, p):
        keys = [(c, h) for c in range(3) for h in (("", "pb") if p == 0 else ("p", "b"))]
        top = -np.inf
        for bits in itertools.product(range(2), repeat=len(keys)):
            s2 = dict(s)
            for k, b in zip(keys, bits):
                s2[k] = np.eye(2)[b]
            v = sum(value("", c, s2) for c in deals) / 6
            top = max(top, v if p == 0 else -v)
        return top

    R = {i: np.zeros(2) for i in infos}
    S = {i: np.zeros(2) for i in infos}
    x = {i: np.full(2, 0.5) for i in infos}
    w = 1.0                                 # weight of iteration t: prod_{s<t} ((s+1)/s)^gamma_s
    for t in range(1, T + 1):
        a, b, g = paper_exponents(t, T)
        for upd in (0, 1):
            inst = {}
            for c in deals:
                value("", c, x, upd, [1.0, 1.0], inst)
            for (c, h), r in inst.items():
                own = x[(c, "")][0] if h == "pb" else 1.0          # own reach of the information set
                S[(c, h)] += w * own * x[(c, h)]
                if variant == "hs-pcfr+":
                    R[(c, h)] = np.maximum(R[(c, h)] + r, 0.0)
                    m = np.maximum(R[(c, h)] + r, 0.0)
                else:
                    R[(c, h)] = R[(c, h)] + r
                    R[(c, h)] = np.where(R[(c, h)] > 0, R[(c, h)] * t ** a / (t ** a + 1),
                                         R[(c, h)] * t ** b / (t ** b + 1))
                    m = np.maximum(R[(c, h)], 0.0)
                x[(c, h)] = m / m.sum() if m.sum() > 0 else np.full(2, 0.5)
        w *= ((t + 1) / t) ** g
    avg = {i: S[i] / S[i].sum() if S[i].sum() > 0 else np.full(2, 0.5) for i in infos}
    return (best(avg, 0) + best(avg, 1)) / 2


@pytest.mark.parametrize("variant", HS)
def test_kuhn_iterates_equal_a_plain_tabular_implementation(variant):
    T = 40
    r = cfr_plus(kuhn_poker(), max_iterations=T, variant=variant, report_every=T)
    assert r.exploitability == pytest.approx(_tabular_kuhn(variant, T), abs=1e-12)


@pytest.mark.parametrize("variant,target", [("hs-dcfr", 1e-3), ("hs-pcfr+", 1e-6)])
def test_kuhn_converges_to_its_value(variant, target):
    r = cfr_plus(kuhn_poker(), max_iterations=2000, target=target, variant=variant, report_every=5)
    assert r.converged and r.exploitability <= target
    assert abs(r.value - KUHN_VALUE) <= 2 * r.exploitability + 1e-12
    assert r.history[-1][1] < r.history[0][1]
    assert r.method == variant and r.budget["horizon"] == 2000


@pytest.fixture(scope="module")
def leduc():
    return leduc_poker()


@pytest.mark.parametrize("variant", HS)
def test_leduc_reaches_the_lp_value_to_its_certificate(leduc, variant):
    v = solve_lp(leduc).value                  # -0.0856...
    assert v == pytest.approx(-0.0856, abs=1e-4)
    r = cfr_plus(leduc, max_iterations=3000, target=1e-3, variant=variant, report_every=50)
    assert r.converged and r.num_iter <= 3000
    assert abs(r.value - v) <= r.nash_conv
    es = [e for _, e, _ in r.history]
    assert es[-1] <= 1e-3 < es[0]


def test_three_players_run(monkeypatch):
    """n players (not zero-sum with two): NashConv falls; float64 accumulators even where a big
    game would take float32 (the weights reach t^30)."""
    monkeypatch.setattr(cfr, "ACCUMULATOR_MIN_ENTRIES", 0)
    assert cfr.accumulator_dtype(kuhn_poker(3).compiled, "hs-pcfr+") == np.float64
    assert cfr.accumulator_dtype(kuhn_poker(3).compiled, "pcfr+") == np.float32
    r = cfr_plus(kuhn_poker(3), max_iterations=300, variant="hs-pcfr+", report_every=100)
    assert np.isfinite(r.nash_conv) and r.history[-1][1] < r.history[0][1]


# ------------------------------------------------------------------------- the kernels
@pytest.mark.parametrize("variant", HS)
def test_whole_iterations_equal_level_kernels_bit_for_bit(monkeypatch, variant):
    """Leduc across blocks of precomputed scalars (short ones here), in uneven calls."""
    monkeypatch.setattr(_schedules, "BLOCK", 16)
    cg = leduc_poker().compiled
    n = 60
    old = _CFRState(cg, variant, 1.5, 0.0, 2.0, horizon=n)
    new = _WholeState(cg, variant, 1.5, 0.0, 2.0, horizon=n)
    monkeypatch.setattr(_whole, "MIN_PARALLEL_WORK", 0)
    for t in range(1, n + 1):
        old.iterate(t)
    t = 1
    for count in (1, 2, 7, 13, 25, n):
        count = min(count, n + 1 - t)
        if count > 0:
            new.run(t, count)
            t += count
    for name in ("B", "regret", "avg"):
        for a, b in zip(getattr(old, name), getattr(new, name)):
            assert np.array_equal(a, b), name
    assert any(np.ptp(b[1:]) > 0.1 for b in new.B)          # the strategies moved


# ------------------------------------------------------------------------- checkpoints
def _same(a, b) -> bool:
    return all(list(x) == list(y) and all(np.array_equal(x[h], y[h]) for h in x) for x, y in zip(a, b))


@pytest.mark.parametrize("variant,which", [("hs-dcfr", "leduc"), ("hs-pcfr+", "kuhn3")])
def test_resumed_run_is_bit_identical(variant, which, tmp_path):
    game = leduc_poker() if which == "leduc" else kuhn_poker(3)
    n = 40
    path = tmp_path / "hs.npz"
    first = cfr_plus(game, max_iterations=n, horizon=2 * n, variant=variant, checkpoint=path, report_every=10)
    meta, _ = persist.read_container(path, "guts-cfr-checkpoint", "CFR checkpoint")
    assert float.fromhex(meta["schedule"]["horizon"]) == 2 * n
    # no horizon given: the checkpoint's
    resumed = cfr_plus(game, max_iterations=2 * n, variant=variant, resume=path, checkpoint=path, report_every=10)
    straight = cfr_plus(game, max_iterations=2 * n, variant=variant, report_every=10)
    assert first.num_iter == n and resumed.num_iter == straight.num_iter == 2 * n
    assert _same(resumed.strategies, straight.strategies)
    assert resumed.nash_conv == straight.nash_conv
    assert [h[:2] for h in resumed.history] == [h[:2] for h in straight.history]
    assert not _same(first.strategies, straight.strategies)


def test_resume_on_the_level_by_level_state(tmp_path, monkeypatch):
    monkeypatch.setattr(_whole, "applicable", lambda cg: False)
    path = tmp_path / "l.npz"
    cfr_plus(leduc_poker(), max_iterations=15, horizon=30, variant="hs-dcfr", checkpoint=path)
    resumed = cfr_plus(leduc_poker(), max_iterations=30, variant="hs-dcfr", resume=path)
    straight = cfr_plus(leduc_poker(), max_iterations=30, variant="hs-dcfr")
    assert _same(resumed.strategies, straight.strategies)


def test_another_horizon_or_variant_is_refused(tmp_path):
    path = tmp_path / "c.npz"
    cfr_plus(kuhn_poker(), max_iterations=5, horizon=50, variant="hs-pcfr+", checkpoint=path)
    with pytest.raises(GutsInputError, match="parameters"):
        cfr_plus(kuhn_poker(), max_iterations=10, horizon=60, variant="hs-pcfr+", resume=path)
    with pytest.raises(GutsInputError, match="variant 'hs-pcfr\\+'"):
        cfr_plus(kuhn_poker(), max_iterations=10, variant="hs-dcfr", resume=path)


def test_bad_input_names_the_choices():
    with pytest.raises(GutsInputError, match="'hs-dcfr', 'hs-pcfr\\+'"):
        cfr_plus(kuhn_poker(), variant="hs")
    with pytest.raises(GutsInputError, match="horizon 0"):
        cfr_plus(kuhn_poker(), variant="hs-dcfr", horizon=0)
