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
    (["table1", "--jobs", "0"], "jobs"), (["solve", "0"], "size"), (["bogus"], "COMMAND 'bogus'; accepted:"),
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


@pytest.mark.parametrize("args,needle", [
    (["solve", "100000"], "memory budget"),                     # ~26 GB of coalition profiles
    (["solve", "1", "--mesh", "3000000000"], "memory budget"),  # the mesh alone is 24 GB
    (["curve", "--points", "1000000000", "--sizes", "1"], "memory budget"),
    (["table1", "--jobs", "1000"], "cores available"),
])
def test_requests_that_cannot_fit_are_refused_before_allocating(tmp_path, capsys, args, needle):
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert main([*args, "--out", str(tmp_path)] if args[0] != "solve" else args) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KB: nothing big was built
    assert not any(tmp_path.iterdir())


def test_memory_budget_is_documented_and_overridable(monkeypatch, capsys):
    from guts._validate import MEMORY_BUDGET_ENV, memory_budget

    monkeypatch.setenv(MEMORY_BUDGET_ENV, "1M")
    assert memory_budget() == 2**20
    assert main(["solve", "2", "--mesh", "201", "--solver", "lp"]) == 2  # dense LP of 201 x 40401: ~300 MB
    assert "GUTS_MEMORY_BUDGET" in capsys.readouterr().err
    monkeypatch.setenv(MEMORY_BUDGET_ENV, "lots")
    assert main(["solve", "2", "--mesh", "5"]) == 2
    assert "GUTS_MEMORY_BUDGET" in capsys.readouterr().err


def test_interrupted_multi_stage_command_publishes_nothing(tmp_path, monkeypatch, capsys):
    """Ctrl-C in continuum's second stage: its two stages are one set, so nothing is published
    (the first stage's table is not left beside another run's refinement)."""
    import guts.studies.continuum as study

    calls = []
    real = study.run_sweep

    def second_stage_interrupted(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(study, "run_sweep", second_stage_interrupted)
    assert main(["continuum", "--sizes", "1", "--meshes", "21", "--out", str(tmp_path), "--quiet"]) == 130
    err = capsys.readouterr().err
    assert "interrupted; published nothing" in err and "continuum.csv" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
