"""The harness's fuzzed game files: every hostile file ends in a game or one clear refusal, in time.

:mod:`tests.cli.fuzz_files` mutates valid seed files (truncations, byte flips, bytes that are not
UTF-8, nesting 3000 deep, huge and tiny numbers, wrong types per field, and paths that are not
plain files).  Each file goes

* through its Python reader (:func:`guts.engine.extensive.read_efg`, :func:`guts.games.poker.load_poker`):
  a game, or :class:`guts.errors.GutsInputError` with a one-line message, never another exception;
* through ``guts solve-game FILE`` (in-process): exit 0 with a certified, finite answer and both
  output files complete, or exit 2 with exactly one line ``guts solve-game: error: ...``;

each within :data:`~tests.cli.fuzz_files.FILE_SECONDS`, measured, leaving no temporary file and no
child process.  The quick subset (:data:`QUICK`) runs by default; the full set (:data:`FULL`) is
marked slow.
"""
from __future__ import annotations

import json
import math
import os

import pytest

from guts.cli import main
from guts.errors import GutsInputError
from tests.cli.fuzz_files import (FILE_SECONDS, QUICK_SOLVE_SEEDS, FuzzCase, check_exit, game_cases, guarded,
                                  leftovers, live_children)

#: Random mutations per seed and class, and the generator's seed, of the quick and the full set.
QUICK_PER_CLASS, FULL_PER_CLASS = 1, 30
QUICK = game_cases(QUICK_PER_CLASS, random_state=20261127)
FULL = game_cases(FULL_PER_CLASS, random_state=1)
#: A memory budget for the requests (a mutation may ask for a large game: it is refused by its
#: estimated size before it is built, as on a small machine).
BUDGET = "1G"


def _params(cases, solve_only=False):
    out = []
    for c in cases:
        if solve_only and c.seed not in QUICK_SOLVE_SEEDS and c.klass not in ("deep-nesting", "special"):
            continue
        out.append(pytest.param(c, id=c.id[:120]))
    return out


def _read(path, suffix):
    if suffix == ".efg":
        from guts.engine.extensive import read_efg

        return read_efg(path)
    from guts.games.poker import load_poker

    return load_poker(path)


def check_reader(case: FuzzCase, tmp_path, monkeypatch):
    from guts.engine.extensive import ExplicitGame, PublicTreeGame

    if case.special == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", BUDGET)
    path = case.materialize(tmp_path)
    before = live_children()

    def read():
        try:
            return _read(path, case.suffix)
        except GutsInputError as exc:
            return exc

    got, seconds = guarded(read, FILE_SECONDS + 5)
    assert seconds <= FILE_SECONDS, (case.id, seconds)
    if isinstance(got, GutsInputError):
        msg = str(got)
        assert msg and "\n" not in msg and "Traceback" not in msg, (case.id, msg[:500])
        assert "accepted" in msg or "does not exist" in msg, (case.id, msg[:500])
    else:
        assert isinstance(got, (ExplicitGame, PublicTreeGame)), (case.id, type(got))
        assert got.num_players >= 1
    assert live_children() == before


def check_solve_game(case: FuzzCase, tmp_path, monkeypatch, capsys):
    if case.special == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", BUDGET)
    monkeypatch.chdir(tmp_path)
    path = case.materialize(tmp_path)
    out_dir = tmp_path / "out"
    before = live_children()
    code, seconds = guarded(lambda: main(["solve-game", str(path), "--out", str(out_dir), "--quiet"]),
                            FILE_SECONDS + 5)
    out, err = capsys.readouterr()
    assert seconds <= FILE_SECONDS, (case.id, seconds)
    check_exit(code, out, err, "guts solve-game", case.id)
    if code == 0:
        assert "; certified" in out, (case.id, out)
        values = [float(v) for v in out.split("values")[1].split("\n")[0].split()]
        assert values and all(math.isfinite(v) for v in values), (case.id, out)
        doc = json.loads((out_dir / "solution.json").read_text())  # complete: it parses
        assert (out_dir / "strategy.csv").read_text().count("\n") >= 2
        # certified: the exact best responses leave at most the target (the LP's: rounding) to gain, and
        # NashConv is the players' exploitability summed (exploitability = NashConv / players)
        target = doc["target"] if doc["target"] is not None else 1e-3
        assert doc["converged"] is True and -1e-12 <= doc["exploitability"] <= target + 1e-9, (case.id, doc)
        assert math.isclose(doc["nash_conv"], doc["players"] * doc["exploitability"], rel_tol=1e-6, abs_tol=1e-12)
        assert doc["values"] == pytest.approx(values, abs=1e-8)
    else:
        assert not out_dir.exists() or not any(out_dir.iterdir()), (case.id, list(out_dir.iterdir()))
    assert leftovers(tmp_path) == []
    assert live_children() == before


def test_fuzzer_is_seeded_and_covers_every_class(tmp_path):
    from tests.cli.fuzz_files import CLASSES, seeds

    again = game_cases(QUICK_PER_CLASS, random_state=20261127)
    assert [(c.id, c.data) for c in again] == [(c.id, c.data) for c in QUICK]
    assert {c.klass for c in QUICK} == set(CLASSES)
    assert {c.seed for c in QUICK if c.klass == "truncate"} == set(seeds())
    # every seed is a valid game (the mutations start from a file that reads)
    for k, (suffix, data) in enumerate(seeds().values()):
        path = tmp_path / f"seed{k}{suffix}"
        path.write_bytes(data)
        assert _read(path, suffix).num_players == 2
    assert len(FULL) > 1000 and len(QUICK) < 200


@pytest.mark.parametrize("case", _params(QUICK))
def test_reader_on_fuzzed_file(case, tmp_path, monkeypatch):
    check_reader(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", _params(QUICK, solve_only=True))
def test_solve_game_on_fuzzed_file(case, tmp_path, monkeypatch, capsys):
    check_solve_game(case, tmp_path, monkeypatch, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case", _params(FULL))
def test_reader_on_fuzzed_file_full(case, tmp_path, monkeypatch):
    check_reader(case, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("case", _params(FULL))
def test_solve_game_on_fuzzed_file_full(case, tmp_path, monkeypatch, capsys):
    check_solve_game(case, tmp_path, monkeypatch, capsys)
