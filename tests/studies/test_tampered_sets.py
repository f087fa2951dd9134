"""A Table 1 CSV is trusted only as a file of a complete, verified set, or after its rows re-certify.

The committed ``results/table1.csv`` set (CSV, meta file, manifest with every SHA-256) is
copied into a temporary folder and tampered with; ``guts fit``, ``guts simulate --table``
and ``guts play --table`` (run in-process) must refuse it in one line with exit 2, or use
it only when every value of the rows they read lies in the interval that the rows' own
strategies certify (Theorem 1.2 of Buck et al., "Guts poker and increasing-stakes games", 2022).
"""
from __future__ import annotations

import json
import os
import time

import pandas as pd
import pytest

from guts.cli import EXIT_BAD_INPUT, main
from guts.errors import GutsInputError
from guts.studies.bot import TABLE_CERT_TOL, load_bot_strategy
from guts.studies.fit import _recertify_table1
from guts.studies.output import set_status
from guts.studies.table_trust import MAX_RESULTS_CSV_BYTES, check_regular_file, read_results_csv
from tests._helpers import TABLE_READERS, copy_table1_set, one_error_line, table_reader_argv

#: A change far outside the re-certification slack (TABLE_CERT_TOL relative to 1 + |v|), far
#: inside the range of the values themselves.
SHIFT = 1e-3


@pytest.fixture
def copy(tmp_path):
    """The committed Table 1 set, copied byte for byte into ``tmp_path/set``."""
    return copy_table1_set(tmp_path / "set")


def _change(path, column, shift, n=2):
    df = pd.read_csv(path)
    df.loc[df.N == n, column] = df.loc[df.N == n, column] + shift
    df.to_csv(path, index=False)


def test_committed_copy_is_a_verified_set(copy):
    assert set_status(copy / "table1.csv").ok
    assert json.loads((copy / "table1.manifest.json").read_text())["complete"] is True


@pytest.mark.parametrize("command", TABLE_READERS)
def test_untouched_copy_is_accepted(copy, tmp_path, command, capsys):
    assert main(table_reader_argv(command, copy / "table1.csv", tmp_path)) == 0
    assert "error" not in capsys.readouterr().err


@pytest.mark.parametrize("manifest", ["deleted", "corrupted"])
@pytest.mark.parametrize("column", ["opponent_value", "value_lower", "value_upper"])
@pytest.mark.parametrize("command", TABLE_READERS)
def test_changed_value_without_verified_manifest_is_refused(copy, tmp_path, command, column, manifest, capsys):
    m = copy / "table1.manifest.json"
    if manifest == "deleted":
        m.unlink()
    else:
        m.write_text('{"manifest_version": 1, "complete": tr')
    _change(copy / "table1.csv", column, SHIFT)
    assert set_status(copy / "table1.csv").state == "legacy"
    assert main(table_reader_argv(command, copy / "table1.csv", tmp_path)) == EXIT_BAD_INPUT
    line = one_error_line(capsys, f"guts {command}")
    assert f"row N = 2: {column}" in line and "not certified by the row's own strategies" in line
    assert not (tmp_path / "fit").exists()  # refused before anything is written


def test_recertification_interval_decides(copy):
    """Re-certification is the check, not the file's history: a value moved inside the slack of
    the certified interval still reads, one moved past it does not."""
    (copy / "table1.manifest.json").unlink()
    genuine = load_bot_strategy(copy / "table1.csv", 2)  # no manifest: read after re-certification
    _recertify_table1(copy / "table1.csv", "--table1")  # every row N = 2..15 that guts fit reads
    assert genuine.certified_lower <= genuine.value <= genuine.certified_upper + TABLE_CERT_TOL
    room = genuine.certified_upper - genuine.value  # value_lower may still rise this much
    _change(copy / "table1.csv", "value_lower", room + 0.5 * TABLE_CERT_TOL)
    assert load_bot_strategy(copy / "table1.csv", 2).value == pytest.approx(genuine.value + room + 0.5 * TABLE_CERT_TOL)
    _change(copy / "table1.csv", "value_lower", 2 * TABLE_CERT_TOL * (1 + abs(genuine.value)))
    with pytest.raises(GutsInputError, match="value_lower .* is not certified"):
        load_bot_strategy(copy / "table1.csv", 2)


@pytest.mark.parametrize("command", TABLE_READERS)
def test_incomplete_manifest_is_refused(copy, tmp_path, command, capsys):
    m = copy / "table1.manifest.json"
    body = json.loads(m.read_text())
    body["complete"] = False
    m.write_text(json.dumps(body))
    assert set_status(copy / "table1.csv").state == "incomplete"
    assert main(table_reader_argv(command, copy / "table1.csv", tmp_path)) == EXIT_BAD_INPUT
    assert "is not part of a complete published set" in one_error_line(capsys, f"guts {command}")


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory"])
@pytest.mark.parametrize("command", TABLE_READERS)
def test_not_a_regular_file_is_refused_at_once(copy, tmp_path, command, kind, capsys):
    table = copy / "table1.csv"
    table.unlink()  # the manifest still lists it: the set's check must not read the replacement
    if kind == "dev-zero":
        os.symlink("/dev/zero", table)
    elif kind == "fifo":
        os.mkfifo(table)
    else:
        table.mkdir()
    t0 = time.perf_counter()
    assert main(table_reader_argv(command, table, tmp_path)) == EXIT_BAD_INPUT
    assert time.perf_counter() - t0 < 5
    line = one_error_line(capsys, f"guts {command}")
    assert "accepted: a regular CSV file" in line


def test_size_is_capped_before_reading(tmp_path):
    big = tmp_path / "big.csv"
    with open(big, "wb") as fh:  # sparse: nothing of it is ever read
        fh.truncate(MAX_RESULTS_CSV_BYTES + 1)
    t0 = time.perf_counter()
    with pytest.raises(GutsInputError, match=f"accepted: a CSV file of at most {MAX_RESULTS_CSV_BYTES} bytes"):
        read_results_csv(big, "table")
    assert time.perf_counter() - t0 < 5
    small = tmp_path / "small.csv"
    small.write_text("N,x\n1,2\n")  # 8 bytes: at the bound it is read, one byte under it is refused
    assert read_results_csv(small, "table", max_bytes=8)["x"].tolist() == [2]
    with pytest.raises(GutsInputError, match="has 8 bytes"):
        check_regular_file(small, "table", max_bytes=7)
