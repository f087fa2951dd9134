"""Checkpoints of fictitious play (``fictitious_play(checkpoint=..., resume=...)``): a solve
stopped after k iterations and resumed to n is the uninterrupted n-iteration solve, bit for
bit, for both averagings; a checkpoint that is not this solve's is refused in one line."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from guts.engine import persist
from guts.engine.extensive import _interrupt, cfr_plus, fictitious_play
from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

#: A regret bound no short run meets: every run below spends its whole budget.
UNMET_TARGET = 1e-9
#: Iterations before the stop, and the budget of the resumed and the uninterrupted solves.
FIRST, TOTAL = 7, 20
GAMES = {"kuhn": kuhn_poker, "leduc": leduc_poker}


def _fp(game, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)     # a budget, not a target, ends these runs
        return fictitious_play(game, **{"target": UNMET_TARGET, **kw})


def _same(a, b) -> bool:
    """Bit-identical strategies, regrets and iteration counts."""
    return (a.num_iter == b.num_iter and np.array_equal(a.regrets, b.regrets)
            and len(a.strategies) == len(b.strategies)
            and all(list(x) == list(y) and all(np.array_equal(x[h], y[h]) for h in x)
                    for x, y in zip(a.strategies, b.strategies)))


def _one_line(exc_info) -> str:
    msg = str(exc_info.value)
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize("averaging", ["realisation", "behavioural"])
@pytest.mark.parametrize("which", list(GAMES))
def test_resumed_solve_is_the_uninterrupted_one(which, averaging, tmp_path):
    game, path = GAMES[which](), tmp_path / "fp.ckpt.npz"
    first = _fp(game, averaging=averaging, max_iterations=FIRST, checkpoint=path)
    resumed = _fp(game, averaging=averaging, max_iterations=TOTAL, resume=path, checkpoint=path)
    straight = _fp(game, averaging=averaging, max_iterations=TOTAL)
    assert first.num_iter == FIRST and resumed.num_iter == straight.num_iter == TOTAL
    assert _same(resumed, straight)
    assert resumed.nash_conv == straight.nash_conv
    assert [h[:2] for h in resumed.history] == [h[:2] for h in straight.history]
    assert not _same(first, straight)                     # the resumed solve did iterate
    meta, _ = persist.read_container(path, "guts-fp-checkpoint", "fictitious-play checkpoint")
    assert meta["iteration"] == TOTAL and meta["averaging"] == averaging     # kept at the end


@pytest.mark.parametrize("averaging", ["realisation", "behavioural"])
def test_interrupt_writes_a_final_checkpoint_that_resumes_exactly(averaging, tmp_path, monkeypatch):
    game, path = leduc_poker(), tmp_path / "stopped.npz"
    real, calls = _interrupt.checkpoint, {"n": 0}

    def ctrl_c_at_the_fifth(*a):       # signals are looked for between kernel calls
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(_interrupt, "checkpoint", ctrl_c_at_the_fifth)
    with pytest.raises(KeyboardInterrupt):
        _fp(game, averaging=averaging, max_iterations=10_000, checkpoint=path)
    monkeypatch.setattr(_interrupt, "checkpoint", real)
    meta, _ = persist.read_container(path, "guts-fp-checkpoint", "fictitious-play checkpoint")
    stopped = meta["iteration"]
    assert 1 <= stopped <= 5                # the last whole iteration before the signal
    resumed = _fp(game, averaging=averaging, max_iterations=stopped + 10, resume=path)
    assert _same(resumed, _fp(game, averaging=averaging, max_iterations=stopped + 10))


@pytest.mark.parametrize("averaging", ["realisation", "behavioural"])
def test_resuming_a_converged_solve_stops_where_it_stopped(averaging, tmp_path):
    """A checkpoint written when the stopping test held: the resumed solve ends there, as
    the uninterrupted one did, however large its budget."""
    game, path, target = kuhn_poker(), tmp_path / "done.npz", 0.05
    done = _fp(game, averaging=averaging, target=target, checkpoint=path)
    assert done.num_iter < 1000           # the stopping test held, far from the budget
    resumed = _fp(game, averaging=averaging, target=target, max_iterations=10 * done.num_iter, resume=path)
    assert resumed.converged == done.converged and _same(resumed, done)


def test_periodic_checkpoints_are_whole_files(tmp_path):
    path = tmp_path / "p.npz"
    r = _fp(kuhn_poker(), max_iterations=30, checkpoint=path, checkpoint_every=1e-6)
    meta, arrays = persist.read_container(path, "guts-fp-checkpoint", "fictitious-play checkpoint")
    assert meta["iteration"] == r.num_iter == 30
    assert arrays["regrets"].shape == (31, 2) and arrays["history"].shape == (31, 3)   # rows 0..t
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_checkpoint_not_of_this_solve_is_refused(tmp_path, monkeypatch):
    kuhn, path = kuhn_poker(), tmp_path / "fp.npz"
    _fp(kuhn, max_iterations=3, checkpoint=path)
    cfr_path = tmp_path / "cfr.npz"
    cfr_plus(kuhn, max_iterations=3, checkpoint=cfr_path)
    cases = [
        (dict(game=leduc_poker(), resume=path), "not of this game"),
        (dict(game=kuhn, resume=path, averaging="behavioural"), "averaging 'realisation'"),
        (dict(game=kuhn, resume=path, action_priority=str), "another order"),     # "b" before "p"
        (dict(game=kuhn, resume=cfr_path), "not a guts fictitious-play checkpoint"),
        (dict(game=kuhn, checkpoint_every=1.0), "checkpoint_every=1.0 without a file"),
    ]
    for kw, what in cases:
        with pytest.raises(GutsInputError, match=what) as e:
            _fp(kw.pop("game"), max_iterations=10, **kw)
        _one_line(e)
    with pytest.raises(GutsInputError, match="not a guts CFR checkpoint") as e:
        cfr_plus(kuhn, max_iterations=10, resume=path)
    _one_line(e)


def test_a_checkpoint_of_another_package_version_is_refused(tmp_path, monkeypatch):
    """Both methods' checkpoints: another version's iterates may differ."""
    kuhn, fp_path, cfr_path = kuhn_poker(), tmp_path / "fp.npz", tmp_path / "cfr.npz"
    monkeypatch.setattr(persist, "package_version", lambda: "0.0.0-other")      # the writer's version
    _fp(kuhn, max_iterations=3, checkpoint=fp_path)
    cfr_plus(kuhn, max_iterations=3, checkpoint=cfr_path)
    monkeypatch.undo()
    for solve, path in ((_fp, fp_path), (cfr_plus, cfr_path)):
        with pytest.raises(GutsInputError, match="written by guts '0.0.0-other'") as e:
            solve(kuhn, max_iterations=10, resume=path)
        _one_line(e)


def test_command_line_resumes_fictitious_play(tmp_path, monkeypatch, capsys):
    """The commands of docs/keep_and_resume.md: the resumed solve certifies the target at the
    iteration of the uninterrupted one, with its strategies."""
    pytest.importorskip("pyspiel")
    import guts
    from guts.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "results" / "runs").mkdir(parents=True)
    ck = "results/runs/kuhn.fp.npz"
    base = ["solve-game", "openspiel:kuhn_poker", "--method", "fp", "--target", "0.01", "--quiet"]
    assert main(base + ["--iterations", "200", "--checkpoint", ck, "--out", "o1"]) == 1     # not yet certified
    assert main(base + ["--resume", ck, "--checkpoint", ck, "--out", "o2", "--save", "a.npz"]) == 0
    assert main(base + ["--out", "o3", "--save", "b.npz"]) == 0
    a, b = guts.load_solution(tmp_path / "a.npz"), guts.load_solution(tmp_path / "b.npz")
    assert a.num_iter == b.num_iter > 200
    assert all(np.array_equal(x[h], y[h]) for x, y in zip(a.strategies, b.strategies) for h in x)
