"""The guts command: outputs, exit code 2 on bad input with no traceback, no partial files."""
import os
import subprocess
import sys

import pandas as pd
import pytest

from guts.cli import main


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "guts", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_table1_small_run(tmp_path):
    p = run_cli("table1", "--sizes", "1-3", "--mesh", "21", "--solver", "oracle", "--out", str(tmp_path), "--quiet")
    assert p.returncode == 0, p.stderr
    assert "paper" in p.stdout and "wall time" in p.stdout
    df = pd.read_csv(tmp_path / "table1.csv")
    assert list(df.N) == [1, 2, 3]


@pytest.mark.parametrize("args,needle", [
    (["table1", "--mesh", "1"], "mesh"), (["table1", "--mesh", "abc"], "mesh"),
    (["table1", "--sizes", "0-3"], "sizes"), (["table1", "--sizes", "x"], "sizes"),
    (["table1", "--structure", "clique"], "structure"), (["table1", "--solver", "simplex"], "solver"),
    (["table1", "--jobs", "0"], "jobs"), (["solve", "0"], "size"), (["bogus"], "invalid choice"),
])
def test_bad_input_exits_2_without_traceback(tmp_path, args, needle):
    p = run_cli(*args, "--out", str(tmp_path / "o")) if args[0] == "table1" else run_cli(*args)
    assert p.returncode == 2
    assert needle in p.stderr
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "o" / "table1.csv").exists()


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = run_cli("table1", "--sizes", "1", "--mesh", "5", "--out", str(blocker / "sub"))
    assert p.returncode == 2 and "output folder" in p.stderr and "Traceback" not in p.stderr
    if os.geteuid() != 0:  # root ignores permission bits
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        p = run_cli("table1", "--sizes", "1", "--mesh", "5", "--out", str(ro))
        assert p.returncode == 2 and not list(ro.iterdir())


def test_interrupt_leaves_no_partial_file(tmp_path, monkeypatch, capsys):
    import guts.studies.table1 as t1

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(t1, "run_sweep", boom)
    assert main(["table1", "--sizes", "1", "--out", str(tmp_path), "--quiet"]) == 130
    assert not any(p.suffix == ".csv" for p in tmp_path.iterdir())
    assert "interrupted" in capsys.readouterr().err


def test_solve_prints_certificate():
    p = run_cli("solve", "2", "--mesh", "21", "--solver", "oracle")
    assert p.returncode == 0, p.stderr
    assert "certified" in p.stdout and "coalition value" in p.stdout
