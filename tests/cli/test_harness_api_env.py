"""The harness's huge imports, API cases and environment variables.

* **Huge imports**: ``guts solve-game openspiel:NAME`` for games far beyond the node budget
  (chess, go), run as a subprocess with a timeout: exit 2 with one line naming the game, from the
  size pre-flight, within :data:`~tests.cli.fuzz_files.IMPORT_SECONDS`; the process is gone after it.
* **API cases** (:data:`API_CASES`): public functions called with values of the wrong type or out of
  range: :class:`guts.errors.GutsInputError` with a one-line message, never another exception,
  within :data:`~tests.cli.fuzz_files.FILE_SECONDS`.
* **Environment variables** (:data:`ENV_CASES`): ``NUMBA_NUM_THREADS`` and the package's own
  ``GUTS_*`` variables set to hostile values, ``guts solve-game`` run as a subprocess on Kuhn poker:
  exit 0 with Kuhn's value -1/18 (Kuhn, "A simplified two-person poker", 1950), or exit 2 with one line.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from guts.errors import GutsInputError
from tests.cli.fuzz_files import FILE_SECONDS, IMPORT_SECONDS, error_lines, guarded

REPO = Path(__file__).resolve().parents[2]

# ---- huge imports ------------------------------------------------------------------------------

#: (spec, extra arguments, slow?): refused by the size pre-flight (chess and go take about 10 s on
#: the 2-core machine: slow); tic-tac-toe (549 946 nodes) with a node budget below its size.
IMPORTS = (
    ("openspiel:chess", (), True),
    ("openspiel:go", (), True),
    ("openspiel:tic_tac_toe", ("--max-nodes", "10000"), True),
    ("openspiel:kuhn_poker", ("--max-nodes", "1"), False),
    ("openspiel:leduc_poker", ("--max-nodes", "100"), False),
)


def _cli(argv, env=None, timeout=IMPORT_SECONDS):
    """``(exit code, stdout, stderr, seconds)`` of ``python -m guts ARGV`` in a subprocess (killed
    at ``timeout``: ``subprocess.run`` waits for it, so nothing is left running)."""
    full = dict(os.environ, **(env or {}))
    t0 = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-m", "guts", *argv], capture_output=True, text=True, env=full,
                           timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv}: still running after {timeout} s (killed)")
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


@pytest.mark.parametrize("spec, extra, slow", [pytest.param(s, e, slow, id=s + " " + " ".join(e),
                                                            marks=[pytest.mark.slow] if slow else [])
                                               for s, e, slow in IMPORTS])
def test_huge_import_is_refused_in_one_line(spec, extra, slow, tmp_path, capsys):
    pytest.importorskip("pyspiel")
    argv = ["solve-game", spec, *extra, "--out", str(tmp_path / "out"), "--quiet"]
    if slow:    # a subprocess, killed at the import's time
        code, out, err, seconds = _cli(argv)
    else:       # in-process (the budget is tiny: nothing can hang), under the same time guard
        from guts.cli import main

        code, seconds = guarded(lambda: main(argv), IMPORT_SECONDS + 5)
        out, err = capsys.readouterr()
    assert seconds <= IMPORT_SECONDS
    lines = error_lines(err)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("guts solve-game: error: "), (spec, err)
    name = spec.split(":")[1]
    assert name in lines[0] and "max_nodes=" in lines[0] and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_tic_tac_toe_at_the_default_budget_ends_within_the_import_time(tmp_path):
    pytest.importorskip("pyspiel")
    code, out, err, seconds = _cli(["solve-game", "openspiel:tic_tac_toe", "--out", str(tmp_path / "out"),
                                    "--quiet"])
    # 549 946 nodes, over the default budget (MAX_IMPORT_NODES): refused by the walk, in one line
    assert code == 2 and seconds <= IMPORT_SECONDS, (code, seconds)
    lines = error_lines(err)
    assert len(lines) == 1 and "tic_tac_toe" in lines[0] and "max_nodes=" in lines[0], err


# ---- API cases -------------------------------------------------------------------------------

def _kuhn():
    from guts.games.toy import kuhn_poker

    return kuhn_poker(2)


def _call(module: str, name: str):
    def call(**kwargs):
        import importlib

        fn = getattr(importlib.import_module(module), name)
        kw = dict(kwargs)
        if isinstance(kw.get("game"), str) and kw["game"] == K:
            kw["game"] = _kuhn()
        args = kw.pop("_args", ())
        return fn(*args, **kw)
    call.__name__ = name
    return call


CFR = _call("guts.engine.extensive", "cfr_plus")
LP = _call("guts.engine.extensive", "solve_lp")
TEAM = _call("guts.engine.extensive", "solve_team")
LIARS = _call("guts.games.liars_dice", "liars_dice")
POKER = _call("guts.games.poker", "load_poker")
EFG = _call("guts.engine.extensive", "read_efg")
LOAD = _call("guts", "load_solution")
COALITION = _call("guts", "solve_coalition")
FIXED = _call("guts", "fixed_point")
CERTIFY = _call("guts", "certify")
OPENSPIEL = _call("guts.engine.extensive", "from_openspiel")

K = "<kuhn>"
#: (function, keyword arguments): every call must raise GutsInputError.
API_CASES = (
    [(CFR, dict(game=g)) for g in (None, 42, "kuhn", [1, 2], np.zeros(3))]
    + [(CFR, dict(game=K, max_iterations=v)) for v in (0, -1, 1.5, "10", float("nan"), float("inf"), 10**30, True)]
    + [(CFR, dict(game=K, target=v)) for v in (0, -1e-3, float("nan"), float("inf"), "small", 1e300)]
    + [(CFR, dict(game=K, variant=v)) for v in ("nope", None, 3)]
    + [(CFR, dict(game=K, threads=v)) for v in (0, -1, 1.5, "2", 10**9)]
    + [(CFR, dict(game=K, time_limit=v)) for v in (-1, float("nan"), "soon")]
    + [(CFR, dict(game=K, alpha=v, variant="dcfr")) for v in (float("nan"), float("inf"), "1.5")]
    + [(CFR, dict(game=K, report_every=v)) for v in (0, -5, 2.5)]
    + [(LP, dict(game=g)) for g in (None, 42, "kuhn")]
    + [(LP, dict(game=K, tol=v)) for v in (-1.0, 0.0, float("nan"), "tiny", 1.0)]
    + [(LP, dict(game=K, method=v)) for v in ("nope", 7)]
    + [(LP, dict(game=K, time_limit=v)) for v in (-1, float("nan"), 0)]
    + [(LP, dict(game=K, memory_limit=v)) for v in (-1, float("nan"), "4G")]
    + [(TEAM, dict(_args=(None, (0,), "correlated")))]
    + [(TEAM, dict(game=K, team=t, regime="correlated")) for t in ((), (0, 1), (5,), "0", None, (0.5,), (-1,))]
    + [(TEAM, dict(game=K, team=(0,), regime=r)) for r in ("nope", None, 1)]
    + [(TEAM, dict(game=K, team=(0,), regime="correlated", random_state=v)) for v in ("x", -1, 1.5)]
    + [(LIARS, dict(dice=d)) for d in ((0, 1), (1,), "11", (1.5, 1), (-1, 1), (1, 1, 1), None, (10**9, 1))]
    + [(LIARS, dict(faces=f)) for f in (0, 1, 1.5, "6", -6, 10**9, float("nan"))]
    + [(POKER, dict(path_or_text=v)) for v in (None, 42, b"GAMEDEF\n", "", "no-such-description", "/dev/zero")]
    + [(POKER, dict(path_or_text="mercer_mmh", players=v)) for v in (0, 1, 11, 2.5, "2", True, -2, 10**9)]
    + [(POKER, dict(path_or_text="mercer_mmh", max_deals=v)) for v in (0, -1, "x", 1.5, float("nan"))]
    + [(EFG, dict(path_or_text=v)) for v in (None, 42, b"EFG 2 R", "", "EFG", "/dev/zero", "/")]
    + [(LOAD, dict(path=v)) for v in (None, 42, "/dev/zero", "/", "/no/such/file.npz")]
    + [(COALITION, dict(size=v)) for v in (0, -1, 1.5, "2", float("nan"), 10**9, None)]
    + [(COALITION, dict(size=2, mesh=v)) for v in (0, 1, -3, 2.5, "101", 10**9)]
    + [(COALITION, dict(size=2, mesh=5, structure=v)) for v in ("nope", None)]
    + [(FIXED, dict(A=a, B=b)) for a, b in (([[1.0]], None), ([[float("nan")]], [[0.5]]), ("x", [[0.5]]),
                                             ([[1.0]], [[-1.0]]), ([[1.0, 2.0]], [[0.5]]), ([], []))]
    + [(CERTIFY, dict(A=[[1.0]], B=[[0.5]], strategy=s)) for s in ([0.5], [2.0], [float("nan")], "x")]
    + [(OPENSPIEL, dict(os_game=v)) for v in ("no_such_game", "kuhn_poker(players=-1)", 42, "")]
    + [(OPENSPIEL, dict(os_game="kuhn_poker", max_nodes=v)) for v in (0, -1, 1.5, "10")]
    + [(OPENSPIEL, dict(os_game="kuhn_poker", form=v)) for v in ("nope", None)]
)


def _api_id(case):
    fn, kw = case
    text = ", ".join(f"{k}={'<kuhn>' if isinstance(v, str) and v == K else (repr(v)[:30] if not isinstance(v, np.ndarray) else 'array')}"
                     for k, v in kw.items())
    return f"{fn.__name__}({text})"


@pytest.mark.parametrize("fn, kwargs", [pytest.param(*c, id=_api_id(c)) for c in API_CASES])
def test_api_case_raises_one_clear_guts_input_error(fn, kwargs):
    if fn is OPENSPIEL:
        pytest.importorskip("pyspiel")

    def call():
        try:
            fn(**kwargs)
        except GutsInputError as exc:
            return exc
        return None

    got, seconds = guarded(call, FILE_SECONDS + 5)
    assert seconds <= FILE_SECONDS
    assert isinstance(got, GutsInputError), f"{_api_id((fn, kwargs))} was accepted"
    msg = str(got)
    assert msg and "\n" not in msg.strip(), msg


# ---- environment variables -------------------------------------------------------------------

#: (variable, value).  ``NUMBA_NUM_THREADS`` sizes numba's thread pool (read when numba starts);
#: ``GUTS_MEMORY_BUDGET`` is the package's one variable (guts._validate.memory_budget).
ENV_CASES = tuple(
    [("NUMBA_NUM_THREADS", v) for v in ("0", "-1", "abc", "", "1.5", "99999")]
    + [("GUTS_MEMORY_BUDGET", v) for v in ("0", "-1", "abc", "", "1e400", "nan", "1", "99999999999999999999T")]
)


#: The environment cases of the quick run, run in-process (the package reads both variables when a
#: command starts); the rest are slow, each in a fresh Python process (about 3 s).
QUICK_ENV = (("NUMBA_NUM_THREADS", "0"), ("NUMBA_NUM_THREADS", "abc"), ("GUTS_MEMORY_BUDGET", "1e400"))


def _env_case(name, value):
    marks = [] if (name, value) in QUICK_ENV else [pytest.mark.slow]
    return pytest.param(name, value, id=f"{name}={value}", marks=marks)


@pytest.mark.parametrize("name, value", [_env_case(*c) for c in ENV_CASES])
def test_environment_variable_gives_the_answer_or_one_line(name, value, tmp_path, monkeypatch, capsys):
    from tests.cli.fuzz_files import KUHN_ACPC

    kuhn = tmp_path / "kuhn.game"
    kuhn.write_text(KUHN_ACPC)
    argv = ["solve-game", str(kuhn), "--out", str(tmp_path / "out"), "--quiet"]
    if (name, value) in QUICK_ENV:
        from guts.cli import main

        monkeypatch.setenv(name, value)
        code, seconds = guarded(lambda: main(argv), FILE_SECONDS + 5)
        out, err = capsys.readouterr()
    else:
        code, out, err, seconds = _cli(argv, env={name: value}, timeout=FILE_SECONDS + 40)
    assert "Traceback" not in err, err[-2000:]
    assert code in (0, 2), (code, err[-2000:])
    if code == 2:
        lines = error_lines(err)
        assert len(lines) == 1 and lines[0].startswith("guts solve-game: error: ") and name in lines[0], err
    else:
        values = [float(v) for v in out.split("values")[1].split("\n")[0].split()]
        assert math.isclose(values[0], -1 / 18, abs_tol=1e-9) and "; certified" in out


def test_environment_cases_cover_every_guts_variable():
    """Every ``GUTS_*`` variable the package reads has cases here."""
    import re

    names = set()
    for path in (REPO / "guts").rglob("*.py"):
        names |= set(re.findall(r"\b(GUTS_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
    names = {n for n in names if not n.endswith("_")}
    assert names <= {n for n, _ in ENV_CASES}, names
