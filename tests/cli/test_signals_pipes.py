"""Signals and pipes: one line and the documented code, never a traceback.

Subprocesses of ``python -m guts`` (the real entry point), a handful only: each costs a
start-up of the interpreter and NumPy/SciPy.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
SOLVE = [sys.executable, "-m", "guts", "solve", "2", "--mesh", "11"]


def test_closed_pipe_is_silent_141():
    # `guts solve 2 | head -1`: the reader goes away after one line
    p = subprocess.Popen(SOLVE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) in (0, 141)  # 0: the whole output fitted the pipe before it closed
    assert err == ""
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_disk_is_one_line_74():
    with open("/dev/full", "w") as full:
        r = subprocess.run(SOLVE, stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=120)
    err = r.stderr.decode().strip().splitlines()
    assert r.returncode == 74
    assert err == ["guts solve: error: cannot write: No space left on device"]


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_at_a_random_moment(tmp_path, sig, code):
    """SIGTERM/SIGINT at a random moment (start-up included): one line, 130/143, no files left."""
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "guts", "table1", "--sizes", "1-15", "--out", str(out), "--quiet"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    time.sleep(random.Random(sig).uniform(0.2, 2.5))
    p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    err = err.decode()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    if p.returncode == 0:  # finished before the signal: nothing to check
        pytest.skip("the run finished before the signal")
    assert p.returncode == code, err
    assert "Traceback" not in err and len(lines) == 1 and "interrupted" in lines[0], err
    left = sorted(x.name for x in out.rglob("*")) if out.exists() else []
    if "published the complete set" in lines[0]:  # the signal came during the renames: held until done
        assert left == ["table1.csv", "table1.manifest.json", "table1.meta.json"], left
    else:
        assert "published nothing" in lines[0], err
        assert left == [], left  # no partial output, no staging folder, no temporary file


def test_two_runs_on_one_out_never_mix(tmp_path, capsys):
    """A second run on the same --out is refused before any work while the first holds it."""
    from guts.cli import main

    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from guts.studies.output import lock_output_dir; "
        f"lock_output_dir({str(out)!r}); print('locked', flush=True); time.sleep(60)")],
        stdout=subprocess.PIPE, env=ENV)
    try:
        assert holder.stdout.readline().strip() == b"locked"
        (out / ".table1.csv.0123abcd.tmp").write_text("stale")
        assert main(["table1", "--sizes", "1", "--mesh", "11", "--out", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is in use by another guts run" in err[0]
        assert not (out / "table1.csv").exists()
    finally:
        holder.kill()
        holder.wait()
    # the holder is gone: the lock is free, and its stale temporary is removed
    assert main(["table1", "--sizes", "1", "--mesh", "11", "--out", str(out), "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["table1.csv", "table1.manifest.json", "table1.meta.json",
                                                     "table1.run.json"]


def test_meta_file_checked_against_its_artefact(tmp_path):
    """A CSV replaced after its meta file was written (an interrupted run) is not trusted."""
    from guts.studies.output import artefact_status, write_meta

    f = tmp_path / "t.csv"
    f.write_text("N\n1\n")
    write_meta(f, {"sizes": [1]})
    assert artefact_status(f) == "full"
    f.write_text("N\n1\n2\n3\n")
    assert artefact_status(f) == "unknown"


def test_interrupt_inside_compiled_code_is_an_interrupt(capsys):
    """numba turns a Ctrl-C inside a compiled loop into SystemError (context KeyboardInterrupt)."""
    from guts.cli import run_command

    def work(_):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemError("<built-in function x> returned a result with an exception set")

    assert run_command("guts mercer solve", work, None) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "interrupted" in err[0]
