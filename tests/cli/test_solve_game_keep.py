"""``guts solve-game --save / --checkpoint / --resume``: the kept solution reads back as the
game's, and a resumed solve ends where an uninterrupted one does (bit for bit)."""
import numpy as np
import pytest

import guts
from guts.cli import main
from tests.cli.test_cli_conventions import ERROR_LINE

pyspiel = pytest.importorskip("pyspiel")

KUHN3 = "openspiel:kuhn_poker(players=3)"


def test_saved_solution_reads_back_with_kuhns_value(tmp_path, capsys):
    from guts.engine.extensive import from_openspiel

    f = tmp_path / "kuhn.npz"
    assert main(["solve-game", "openspiel:kuhn_poker", "--out", str(tmp_path / "o"), "--save", str(f),
                 "--quiet"]) == 0
    assert str(f) in capsys.readouterr().out
    back = guts.load_solution(f, game=from_openspiel("kuhn_poker"))
    assert back.value == pytest.approx(-1 / 18, abs=1e-9)            # Kuhn (1950)


def test_resumed_solve_equals_the_straight_one(tmp_path, capsys):
    ck, a, b = tmp_path / "k3.ckpt.npz", tmp_path / "a.npz", tmp_path / "b.npz"
    # the commands of docs/keep_and_resume.md
    base = ["solve-game", KUHN3, "--method", "dcfr", "--out", str(tmp_path / "o"), "--quiet"]
    assert main(base + ["--iterations", "5000", "--checkpoint", str(ck), "--checkpoint-every", "60"]) == 0
    assert main(base + ["--iterations", "10000", "--resume", str(ck), "--checkpoint", str(ck), "--save", str(a)]) == 0
    assert main(base + ["--iterations", "10000", "--save", str(b)]) == 0
    ra, rb = guts.load_solution(a), guts.load_solution(b)
    assert ra.num_iter == rb.num_iter == 10000
    assert all(np.array_equal(x[h], y[h]) for x, y in zip(ra.strategies, rb.strategies) for h in x)


def test_checkpoint_of_a_method_that_keeps_none_is_one_line(tmp_path, capsys):
    code = main(["solve-game", "openspiel:kuhn_poker", "--method", "lp", "--checkpoint", str(tmp_path / "c.npz"),
                 "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and ERROR_LINE.match(err[0]), err


@pytest.mark.slow
def test_ctrl_c_keeps_a_checkpoint_that_resumes(tmp_path):
    """A real SIGINT to ``guts solve-game --checkpoint``: one line, code 130, and the file it
    leaves continues the solve."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from guts.engine import persist

    root = Path(__file__).resolve().parents[2]
    ck = tmp_path / "k.npz"
    cmd = [sys.executable, "-m", "guts", "solve-game", "openspiel:kuhn_poker", "--method", "cfr+",
           "--iterations", "100000000", "--checkpoint", str(ck), "--out", str(tmp_path / "o"), "--quiet"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "PYTHONPATH": str(root)})
    time.sleep(8.0)                 # imports, the OpenSpiel walk, then iterations
    assert p.poll() is None, p.communicate()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    lines = [ln for ln in err.decode().splitlines() if ln.strip()]
    assert p.returncode == 130 and len(lines) == 1 and "interrupted" in lines[0], err.decode()
    meta, _ = persist.read_container(ck, "guts-cfr-checkpoint", "CFR checkpoint")
    stopped = meta["iteration"]
    assert stopped > 0
    from guts.cli import main

    assert main(["solve-game", "openspiel:kuhn_poker", "--method", "cfr+", "--iterations", str(stopped + 10),
                 "--resume", str(ck), "--save", str(tmp_path / "r.npz"), "--out", str(tmp_path / "o2"),
                 "--quiet"]) == 0
    assert guts.load_solution(tmp_path / "r.npz").num_iter == stopped + 10
