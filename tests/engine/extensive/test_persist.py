"""Solutions kept on disk (``result.save`` / ``guts.load_solution``) and CFR checkpoints
(``cfr_plus(checkpoint=..., resume=...)``).

Oracles: Kuhn poker's value -1/18 (Kuhn 1950), the package's best-response pass on the
strategies read back, OpenSpiel's own exploitability of the exported policy, the
numbering of information sets in the ``.efg`` file the package writes, and an
uninterrupted CFR run of the same length (bit for bit).
"""
from __future__ import annotations

import json
import re
import zipfile

import numpy as np
import pytest

import guts
from guts.engine import persist
from guts.engine.extensive import _whole, cfr, cfr_plus, efg_text, exploitability, nash_conv, solve_lp
from guts.engine.extensive.result import ExtensiveResult
from guts.engine.result import Solution, interval
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

KUHN_VALUE = -1.0 / 18.0        # Kuhn (1950): the first player's value


@pytest.fixture(scope="module")
def leduc():
    return leduc_poker()


@pytest.fixture(scope="module")
def leduc_lp(leduc):
    return solve_lp(leduc)


def same_strategies(a, b) -> bool:
    return len(a) == len(b) and all(
        list(x) == list(y) and all(np.array_equal(x[h], y[h]) for h in x) for x, y in zip(a, b))


# ------------------------------------------------------------------------- save and load
def test_lp_round_trip_keeps_every_field_and_the_certificate(leduc, leduc_lp, tmp_path):
    path = leduc_lp.save(tmp_path / "leduc.npz")
    back = guts.load_solution(path, game=leduc)           # fingerprint checked, certificate recomputed
    assert isinstance(back.details, ExtensiveResult)
    assert same_strategies(back.strategies, leduc_lp.strategies)
    assert np.array_equal(back.values, leduc_lp.values) and np.array_equal(back.br_values, leduc_lp.br_values)
    assert back.nash_conv == leduc_lp.nash_conv and back.num_iter == leduc_lp.num_iter
    assert back.method == "lp" and back.converged and back.certificate == leduc_lp.certificate
    # the strategies read back are an equilibrium of the game: the best-response pass says so
    assert exploitability(leduc, back.strategies) == pytest.approx(back.exploitability, abs=1e-12)
    assert back.exploitability <= 1e-9
    with np.load(path, allow_pickle=False) as npz:          # a plain NumPy archive, no pickle
        meta = json.loads(npz["meta"].tobytes())
    assert meta["format"] == "guts-solution" and meta["guts_version"] == guts.__version__
    assert meta["game"]["sizes"]["deals"] == 30 and meta["game"]["sizes"]["decisions"] == [93, 93]


def test_kuhn_value_survives_the_file(tmp_path):
    g = kuhn_poker()
    back = guts.load_solution(solve_lp(g).save(tmp_path / "k.npz"), game=g)
    assert back.value == pytest.approx(KUHN_VALUE, abs=1e-9)
    assert back.values[0] + back.values[1] == pytest.approx(0.0, abs=1e-12)    # zero-sum


def test_cfr_round_trip_records_budget_and_history(leduc, tmp_path):
    r = cfr_plus(leduc, max_iterations=60, report_every=20, variant="dcfr")
    back = guts.load_solution(r.save(tmp_path / "c.npz"), game=leduc)
    assert same_strategies(back.strategies, r.strategies)
    assert back.history == r.history and [h[0] for h in back.history] == [20, 40, 60]
    assert back.budget["max_iterations"] == 60 and back.budget["variant"] == "dcfr"
    assert back.budget["target"] is None
    assert nash_conv(leduc, back.strategies) == pytest.approx(r.nash_conv, abs=1e-12)


def test_a_result_without_extensive_strategies_keeps_its_protocol(tmp_path):
    s = Solution(value=0.25, values=(0.25, -0.25), strategies=(np.array([0.5, 0.5]), np.array([1.0, 0.0])),
                 certificate=interval(0.2, 0.3), converged=True, num_iter=7, seconds=1.5, method="lp")
    back = guts.load_solution(s.save(tmp_path / "m.npz"))
    assert back.value == 0.25 and back.values == (0.25, -0.25) and back.num_iter == 7
    c, d = back.certificate, s.certificate
    assert (c.kind, c.lower, c.upper, c.gap) == (d.kind, d.lower, d.upper, d.gap) and np.isnan(c.nash_conv)
    assert c.measure == pytest.approx(0.1, abs=1e-15)
    assert all(np.array_equal(a, b) for a, b in zip(back.strategies, s.strategies))


# ------------------------------------------------------------------------- refusals
def _one_line(exc_info):
    msg = str(exc_info.value)
    assert "\n" not in msg
    return msg


def test_another_game_is_refused_naming_both(leduc, leduc_lp, tmp_path):
    path = leduc_lp.save(tmp_path / "leduc.npz")
    for other in (kuhn_poker(), leduc_poker(raises=(2, 6))):     # other sizes; same sizes, other payoffs
        with pytest.raises(GutsInputError) as e:
            guts.load_solution(path, game=other)
        msg = _one_line(e)
        mine = persist_fp(leduc)[:16]
        theirs = persist_fp(other)[:16]
        assert mine in msg and theirs in msg and mine != theirs


def persist_fp(game):
    from guts.engine.extensive.fingerprint import game_fingerprint
    return game_fingerprint(game)["sha256"]


def test_the_fingerprint_is_the_games_not_the_objects(leduc, leduc_lp, tmp_path):
    assert persist_fp(leduc_poker()) == persist_fp(leduc_poker())
    assert persist_fp(kuhn_poker(3)) != persist_fp(kuhn_poker(2))
    with pytest.raises(GutsInputError, match="passed as game="):      # a result saved as another game's
        leduc_lp.save(tmp_path / "x.npz", game=kuhn_poker())
    back = guts.load_solution(leduc_lp.save(tmp_path / "y.npz"))
    assert back.game_fingerprint["sha256"] == persist_fp(leduc)          # recorded from the solved game


def test_damaged_files_are_refused_in_one_line(leduc, leduc_lp, tmp_path):
    good = leduc_lp.save(tmp_path / "good.npz")
    raw = good.read_bytes()
    cases = {}
    cases["truncated"] = raw[: len(raw) // 2]
    cases["text"] = b"value,0.5\n"
    p = tmp_path / "plain.npz"
    np.savez(p, x=np.zeros(3))
    cases["foreign"] = p.read_bytes()
    # tampered: one strategy entry changed, the archive otherwise intact
    with np.load(good, allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    key = next(k for k in arrays if k.startswith("s0_"))
    arrays[key] = arrays[key].copy()
    arrays[key].flat[0] = 1.0 - arrays[key].flat[0]
    p = tmp_path / "tampered.npz"
    np.savez(p, **arrays)
    cases["tampered"] = p.read_bytes()
    for name, data in cases.items():
        f = tmp_path / f"{name}.npz"
        f.write_bytes(data)
        with pytest.raises(GutsInputError) as e:
            guts.load_solution(f)
        assert str(f) in _one_line(e), name
    with pytest.raises(GutsInputError, match="does not exist"):
        guts.load_solution(tmp_path / "missing.npz")


def test_unknown_format_version_is_refused(leduc_lp, tmp_path, monkeypatch):
    monkeypatch.setattr(persist, "FORMAT_VERSION", 2)
    path = leduc_lp.save(tmp_path / "future.npz")
    monkeypatch.undo()
    with pytest.raises(GutsInputError, match="format version 2") as e:
        guts.load_solution(path)
    _one_line(e)


def test_a_false_certificate_is_refused_with_the_game(leduc, leduc_lp, tmp_path):
    """A file whose hash is consistent but whose NashConv is not the strategies' (written
    through the container, as a tamperer who knows the format would)."""
    path = leduc_lp.save(tmp_path / "s.npz")
    meta, arrays = persist.read_container(path, persist.SOLUTION_FORMAT)
    meta["result"]["fields"]["nash_conv"]["json"] = 1e-3
    for k in ("format", "format_version", "guts_version", "sha256"):
        meta.pop(k)
    persist.write_container(path, persist.SOLUTION_FORMAT, meta, arrays)
    assert guts.load_solution(path).nash_conv == 1e-3                  # without the game: read as written
    assert guts.load_solution(path, game=leduc, verify=False).nash_conv == 1e-3
    with pytest.raises(GutsInputError, match="certificate does not hold") as e:
        guts.load_solution(path, game=leduc)
    assert "RELOAD_CERT_TOL" in _one_line(e)


# ------------------------------------------------------------------------- exports
def test_exported_openspiel_policy_has_the_packages_exploitability(leduc, leduc_lp, tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl

    from guts.engine.extensive import openspiel_link

    osg = pyspiel.load_game("leduc_poker")
    cards = leduc.deals.type_labels[0]
    link = openspiel_link(leduc, osg, deal_types=lambda dealt: dealt,
                          label=lambda state, a: cards[a] if state.is_chance_node() else "fcr"[a])
    for r in (leduc_lp, cfr_plus(leduc, max_iterations=30)):
        back = guts.load_solution(r.save(tmp_path / "x.npz"), game=leduc)
        theirs = os_expl.exploitability(osg, back.to_openspiel_policy(leduc, osg, link=link))
        assert theirs == pytest.approx(back.exploitability, abs=1e-9)


def test_an_efg_game_saves_reloads_and_exports_to_openspiel(tmp_path):
    """A Gambit ``.efg`` file read by OpenSpiel (``efg_game``) and imported: its saved and
    reloaded solution, exported as an OpenSpiel policy, has OpenSpiel's exploitability /
    NashConv equal to the package's, and the value of the package's own ``read_efg``."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_expl

    from guts.engine.extensive import from_openspiel, read_efg

    for name, game in (("leduc", leduc_poker()), ("kuhn3", kuhn_poker(3))):
        path = tmp_path / f"{name}.efg"
        path.write_text(efg_text(game))
        osg = pyspiel.load_game("efg_game", {"filename": str(path)})
        g = from_openspiel(osg)
        solved = [cfr_plus(g, max_iterations=40)] + ([solve_lp(g)] if name == "leduc" else [])
        for r in solved:
            back = guts.load_solution(r.save(tmp_path / f"{name}.npz"), game=g)
            pol = back.to_openspiel_policy(g, osg)
            if name == "leduc":
                assert os_expl.exploitability(osg, pol) == pytest.approx(back.exploitability, abs=1e-9)
            else:
                assert os_expl.nash_conv(osg, pol) == pytest.approx(nash_conv(g, back.strategies), abs=1e-9)
        if name == "leduc":
            assert solved[1].value == pytest.approx(solve_lp(read_efg(path)).value, abs=1e-9)


def test_gambit_profile_follows_the_efg_numbering():
    g = kuhn_poker()
    r = cfr_plus(g, max_iterations=25)
    probs = [float(x) for x in r.to_gambit(g).removeprefix("NE,").split(",")]
    # the oracle: information sets as write_efg numbers them ("history|type"), player by player
    found = {}
    for m in re.finditer(r'p "" (\d+) (\d+) "([^"]*)" \{ ([^}]*)\}', efg_text(g)):
        pl, num, name, acts = int(m[1]) - 1, int(m[2]), m[3], m[4].split('" "')
        found.setdefault((pl, num), (name, len(acts)))
    expect = []
    labels = g.deals.type_labels
    for (pl, num) in sorted(found):
        name, na = found[pl, num]
        hist, lab = name.rsplit("|", 1)
        h = next(k for k in r.strategies[pl] if "/".join(map(str, k)) == hist)
        row = r.strategies[pl][h][list(map(str, labels[pl])).index(lab)]
        assert row.size == na
        expect.extend(row.tolist())
    assert probs == expect


# ------------------------------------------------------------------------- checkpoints
def _run_twice(game, variant, n, tmp_path, **kw):
    path = tmp_path / f"{variant}.ckpt.npz"
    first = cfr_plus(game, max_iterations=n, variant=variant, checkpoint=path, report_every=10, **kw)
    resumed = cfr_plus(game, max_iterations=2 * n, variant=variant, resume=path, checkpoint=path,
                       report_every=10, **kw)
    straight = cfr_plus(game, max_iterations=2 * n, variant=variant, report_every=10, **kw)
    return first, resumed, straight


@pytest.mark.parametrize("variant", ["cfr+", "dcfr"])
@pytest.mark.parametrize("which", ["leduc", "kuhn3"])
def test_resumed_run_is_bit_identical(which, variant, tmp_path):
    game = leduc_poker() if which == "leduc" else kuhn_poker(3)
    first, resumed, straight = _run_twice(game, variant, 40, tmp_path)
    assert first.num_iter == 40 and resumed.num_iter == straight.num_iter == 80
    assert same_strategies(resumed.strategies, straight.strategies)
    assert resumed.nash_conv == straight.nash_conv
    assert [h[:2] for h in resumed.history] == [h[:2] for h in straight.history]
    assert not same_strategies(first.strategies, straight.strategies)       # 40 more iterations happened


def test_resume_on_the_level_by_level_state(tmp_path, monkeypatch):
    """The same on the other state class (its arrays are not transposed)."""
    monkeypatch.setattr(_whole, "applicable", lambda cg: False)
    _, resumed, straight = _run_twice(leduc_poker(), "pcfr+", 15, tmp_path)
    assert same_strategies(resumed.strategies, straight.strategies)


@pytest.mark.parametrize("whole", [True, False])
def test_resume_with_float32_accumulators(tmp_path, monkeypatch, whole):
    """Big games keep regrets and averages in float32: kept and restored as such."""
    monkeypatch.setattr(cfr, "ACCUMULATOR_MIN_ENTRIES", 0)
    if not whole:
        monkeypatch.setattr(_whole, "applicable", lambda cg: False)
    _, resumed, straight = _run_twice(kuhn_poker(3), "dcfr", 20, tmp_path)
    meta, arrays = persist.read_container(tmp_path / "dcfr.ckpt.npz", "guts-cfr-checkpoint", "CFR checkpoint")
    assert arrays["regret0"].dtype == np.float32 and arrays["B0"].dtype == np.float64
    assert same_strategies(resumed.strategies, straight.strategies)


@pytest.mark.parametrize("whole", [True, False])
def test_interrupt_writes_a_final_checkpoint_that_resumes_exactly(tmp_path, monkeypatch, whole):
    game = leduc_poker()
    if not whole:
        monkeypatch.setattr(_whole, "applicable", lambda cg: False)
    calls = {"n": 0}
    real = cfr.checkpoint

    def signal_at_the_seventh(*a):
        calls["n"] += 1
        if calls["n"] == 7:                 # level by level: after player 0 of iteration 4
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(cfr, "checkpoint", signal_at_the_seventh)
    path = tmp_path / "stopped.npz"
    with pytest.raises(KeyboardInterrupt):
        cfr_plus(game, max_iterations=10_000, checkpoint=path, report_every=1000)
    monkeypatch.setattr(cfr, "checkpoint", real)
    meta, _ = persist.read_container(path, "guts-cfr-checkpoint", "CFR checkpoint")
    stopped = meta["iteration"]
    assert stopped >= 1
    if not whole:
        assert stopped == 4                 # the interrupted iteration was finished
    resumed = cfr_plus(game, max_iterations=stopped + 20, resume=path)
    straight = cfr_plus(game, max_iterations=stopped + 20)
    assert same_strategies(resumed.strategies, straight.strategies)


def test_a_checkpoint_of_another_game_or_variant_is_refused(tmp_path):
    path = tmp_path / "c.npz"
    cfr_plus(kuhn_poker(), max_iterations=5, variant="dcfr", checkpoint=path)
    cases = [(kuhn_poker(3), {}, "not of this game"), (kuhn_poker(), {"variant": "cfr+"}, "variant 'dcfr'"),
             (kuhn_poker(), {"variant": "dcfr", "alpha": 2.0}, "parameters")]
    for game, kw, what in cases:
        with pytest.raises(GutsInputError, match=what) as e:
            cfr_plus(game, max_iterations=10, resume=path, **kw)
        _one_line(e)
    with pytest.raises(GutsInputError, match="not a guts CFR checkpoint"):
        cfr_plus(kuhn_poker(), resume=solve_lp(kuhn_poker()).save(tmp_path / "sol.npz"))
    with pytest.raises(GutsInputError, match="checkpoint_every=1.0 without a file"):
        cfr_plus(kuhn_poker(), max_iterations=3, checkpoint_every=1.0)


def test_periodic_checkpoints_are_whole_files(tmp_path):
    path = tmp_path / "p.npz"
    r = cfr_plus(kuhn_poker(), max_iterations=50, checkpoint=path, checkpoint_every=1e-6)
    meta, arrays = persist.read_container(path, "guts-cfr-checkpoint", "CFR checkpoint")
    assert meta["iteration"] == r.num_iter == 50
    assert zipfile.is_zipfile(path) and not list(tmp_path.glob(".*.tmp"))     # no temporary file left
    assert set(arrays) == {f"{k}{p}" for k in ("B", "R", "regret", "avg") for p in (0, 1)}
