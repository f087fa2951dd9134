"""The harness's tampered result sets: a results table is used only when it can be trusted.

:func:`tests.cli.fuzz_files.set_cases` tampers with a copy of the committed ``results/table1.csv``
set (the CSV, its meta file and its manifest): truncations, byte flips, bytes that are not UTF-8,
huge and tiny numbers, wrong types, a changed value, manifest edits (``"complete": false``, wrong
types, a wrong hash), and paths that are not plain files (``/dev/zero``, a FIFO, a directory, a
dangling symlink).  ``guts fit --table1``, ``guts simulate --table`` and ``guts play --table`` (run
in-process) must each end in exit 0 with finite output, or exit 2 with exactly one line
``guts <command>: error: ...``, within :data:`~tests.cli.fuzz_files.FILE_SECONDS`; a refused run
writes nothing.  An accepted run of a changed value is one whose rows still certify (the readers
re-certify the rows of a file of no verified set; ``tests/studies/test_tampered_sets.py`` checks
that rule on its own).
"""
from __future__ import annotations

import os

import pytest

from guts.cli import main
from tests.cli.fuzz_files import (FILE_SECONDS, REPO, SET_FILES, check_exit, guarded, leftovers, live_children,
                                  set_cases)
from tests._helpers import TABLE_READERS, copy_table1_set, table_reader_argv

#: Random mutations per file and class, and the generator's seed, of the quick and the full set.
QUICK_PER_CLASS, FULL_PER_CLASS = 1, 12
QUICK = set_cases(QUICK_PER_CLASS, random_state=20261127)
FULL = set_cases(FULL_PER_CLASS, random_state=1)
COMMANDS = TABLE_READERS
#: Time allowed to ``guts fit`` on a set it cannot verify: it re-certifies the fourteen rows N = 2..15
#: from their own strategies first (about 20 s of CPU on the 2-core machine, 38 s wall under load).
FIT_SECONDS = 90


def check_set(case, command, tmp_path, monkeypatch, capsys):
    if case.special == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    table = case.apply(copy_table1_set(tmp_path / "set"))
    monkeypatch.chdir(tmp_path)
    before = live_children()
    limit = FIT_SECONDS if command == "fit" else FILE_SECONDS
    code, seconds = guarded(lambda: main(table_reader_argv(command, table, tmp_path)), limit + 5)
    out, err = capsys.readouterr()
    assert seconds <= limit, (case.id, command, seconds)
    check_exit(code, out, err, f"guts {command}", (case.id, command))
    if code == 2 and command == "fit":
        assert not (tmp_path / "fit").exists(), (case.id, list((tmp_path / "fit").iterdir()))
    assert leftovers(tmp_path) == []
    assert live_children() == before


def _params(cases, commands):
    return [pytest.param(c, cmd, id=f"{cmd}:{c.id}"[:120]) for c in cases for cmd in commands]


def test_set_fuzzer_is_seeded_and_leaves_the_committed_set_alone():
    again = set_cases(QUICK_PER_CLASS, random_state=20261127)
    assert [(c.id, c.data) for c in again] == [(c.id, c.data) for c in QUICK]
    assert {c.target for c in QUICK} == set(SET_FILES)
    # every random mutation changes the bytes of its file (a tampered copy is never the original)
    originals = {name: (REPO / "results" / name).read_bytes() for name in SET_FILES}
    assert all(c.data != originals[c.target] for c in FULL if c.data is not None and "byte-flip" in c.how)


#: The quick run: every case through ``guts simulate --table`` and a share through ``guts play --table``
#: (the two readers that read one row); ``guts fit`` (which re-certifies every row of an unverified set)
#: and the full set are slow.
QUICK_RUNS = _params(QUICK, ("simulate",)) + _params(QUICK[::4], ("play",))
FULL_RUNS = _params(FULL, ("simulate", "play")) + _params(QUICK[::3], ("fit",))


@pytest.mark.parametrize("case, command", QUICK_RUNS)
def test_tampered_set(case, command, tmp_path, monkeypatch, capsys):
    check_set(case, command, tmp_path, monkeypatch, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case, command", FULL_RUNS)
def test_tampered_set_full(case, command, tmp_path, monkeypatch, capsys):
    check_set(case, command, tmp_path, monkeypatch, capsys)
