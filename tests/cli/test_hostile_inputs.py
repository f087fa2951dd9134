"""``guts solve-game`` on hostile files and absurd arguments: exit 2 with one line, never a
traceback, a hang or a false "certified"."""
import json
import os
import time

import pytest

from guts.cli import main
from guts.engine.extensive import write_efg
from guts.games.toy import kuhn_poker
from tests.cli.test_cli_conventions import ERROR_LINE

LEDUC_ACPC = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\nfirstPlayer = 1 1\n"
              "maxRaises = 2 2\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n")
EFG = 'EFG 2 R "g" { "a" "b" }\n""\np "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { PAY -2 }\n'


def one_error_line(argv, capsys) -> str:
    t0 = time.monotonic()
    assert main(argv) == 2
    assert time.monotonic() - t0 < 30
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and ERROR_LINE.match(err.strip()), err
    assert "Traceback" not in err
    return err


def _files(tmp_path):
    """name -> (path maker, words the error must contain)."""
    def write(name, data):
        p = tmp_path / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
        return p

    def fifo(name):
        os.mkfifo(tmp_path / name)
        return tmp_path / name

    def folder(name):
        (tmp_path / name).mkdir()
        return tmp_path / name

    return {
        "latin-1 .efg": (lambda: write("l.efg", EFG.replace("PAY", "2").encode().replace(b'"y"', b'"\xff"')),
                         "byte 0xff at byte offset"),
        "FIFO .efg": (lambda: fifo("p.efg"), "FIFO"),
        "directory .efg": (lambda: folder("d.efg"), "is a directory"),
        "payoff 1e999999999": (lambda: write("e.efg", EFG.replace("PAY", "1e999999999")), "exponent"),
        "payoff 1e300": (lambda: write("h.efg", EFG.replace("PAY", "1e300")), "out of range"),
        "chain of 3000 decisions": (lambda: write("c.efg", 'EFG 2 R "c" { "a" "b" }\n""\n' + "".join(
            f'p "" 1 {k + 1} "" {{ "s" "g" }} 0\nt "" {k + 1} "" {{ 1 -1 }}\n' for k in range(3000))
            + 't "" 9999 "" { 0 0 }\n'), "nodes deep"),
        "TOML nested 3000 deep": (lambda: write("n.toml", "x = " + "[" * 3000 + "]" * 3000 + "\n"), "nesting at most"),
        "ACPC numRanks = 1e400": (lambda: write("r.game", LEDUC_ACPC.replace("numRanks = 3", "numRanks = 1e400")),
                                  "exponent"),
        "ACPC numRanks = 1e300": (lambda: write("s.game", LEDUC_ACPC.replace("numRanks = 3", "numRanks = 1e300")),
                                  "out of range"),
        "FIFO .game": (lambda: fifo("p.game"), "FIFO"),
        "latin-1 .toml": (lambda: write("l.toml", b'name = "\xe9"\n'), "byte 0xe9 at byte offset 8"),
    }


@pytest.mark.parametrize("case", [
    "latin-1 .efg", "FIFO .efg", "directory .efg", "payoff 1e999999999", "payoff 1e300", "chain of 3000 decisions",
    "TOML nested 3000 deep", "ACPC numRanks = 1e400", "ACPC numRanks = 1e300", "FIFO .game", "latin-1 .toml"])
def test_hostile_game_files_exit_2_with_one_line(case, tmp_path, capsys, monkeypatch):
    if "FIFO" in case and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    make, words = _files(tmp_path)[case]
    path = make()
    monkeypatch.chdir(tmp_path)
    err = one_error_line(["solve-game", str(path), "--out", str(tmp_path / "out"), "--quiet"], capsys)
    assert words in err, err
    assert not (tmp_path / "out").exists()


@pytest.fixture
def kuhn_file(tmp_path):
    return str(write_efg(kuhn_poker(2), tmp_path / "kuhn.efg"))


@pytest.mark.parametrize("method", ["fp", "cfr+", "dcfr"])
def test_a_target_beyond_the_payoff_range_is_refused(method, kuhn_file, tmp_path, capsys):
    # Kuhn poker's payoffs are within +-2: any strategies have exploitability <= 4
    err = one_error_line(["solve-game", kuhn_file, "--method", method, "--target", "1e300",
                          "--out", str(tmp_path / "o"), "--quiet"], capsys)
    assert "payoff range 4" in err and "accepted: a target in (0, 4]" in err


def test_an_absurd_iteration_budget_is_refused(kuhn_file, tmp_path, capsys):
    from guts.engine.extensive.cfr import MAX_ITERATIONS

    for value in ("1e300", str(MAX_ITERATIONS + 1)):
        err = one_error_line(["solve-game", kuhn_file, "--method", "cfr+", "--iterations", value,
                              "--out", str(tmp_path / "o"), "--quiet"], capsys)
        assert "iterations" in err


def test_an_iteration_budget_alone_is_not_certified(kuhn_file, tmp_path, capsys):
    out = tmp_path / "o"
    main(["solve-game", kuhn_file, "--method", "cfr+", "--iterations", "1", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert "budget done" in text and "certified" not in text
    doc = json.loads((out / "solution.json").read_text())
    # one CFR+ iteration from the uniform profile is far from Kuhn's equilibrium: never "converged"
    assert doc["exploitability"] > 0.1 and doc["converged"] is False


# --- sweep options, the recursive game's mesh, the curve's target ------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["teams", "--cases", "1v1:2:full"], "mesh >= 3"),
    (["solve", "1", "--mesh", "2"], "--mesh 2"),
    (["table1", "--mesh", "2"], "--mesh 2"),
    (["continuum", "--meshes", "2"], "mesh 2 is too small"),
    (["full-vs-pseudo-bloc", "--cases", "2:2"], "mesh must be >= 3"),
    (["fp-three-player", "--scheduler", ""], "--scheduler ''"),
    (["teams", "--scheduler", " "], "--scheduler ' '"),
    (["curve", "--scheduler", "tcp://a b"], "--scheduler"),
    # a bracket as wide as one ante (the unit of every value) certifies nothing
    (["curve", "--target-width", "1e300"], "--target-width 1e300"),
    (["curve", "--target-width", "2"], "--target-width 2"),
    (["curve", "--max-iterations", "1e300"], "--max-iterations"),
])
def test_meaningless_sweep_and_mesh_options_exit_2_with_one_line(argv, words, tmp_path, capsys):
    err = one_error_line(argv + ["--out", str(tmp_path / "o")] if argv[0] != "solve" else argv, capsys)
    assert words in err, err
    assert not (tmp_path / "o").exists()


# --- NUMBA_NUM_THREADS ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "", str((os.cpu_count() or 1) + 1)])
def test_an_invalid_numba_num_threads_is_refused(value, kuhn_file, tmp_path, capsys, monkeypatch):
    from guts.engine.extensive._threads import check_threads
    from guts.errors import GutsInputError

    monkeypatch.setenv("NUMBA_NUM_THREADS", value)
    with pytest.raises(GutsInputError, match="NUMBA_NUM_THREADS"):
        check_threads(None)
    # numba is already imported here: the refusal comes where the solver resolves its threads
    err = one_error_line(["solve-game", kuhn_file, "--method", "cfr+", "--iterations", "1", "--out",
                          str(tmp_path / "o"), "--quiet"], capsys)
    assert f"NUMBA_NUM_THREADS={value!r}" in err


def test_numba_num_threads_0_is_refused_before_numba_reads_it(kuhn_file, tmp_path):
    # numba itself raises a ValueError traceback on import at 0: the refusal must come first
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_NUM_THREADS="0")
    code = ("import sys\nfrom guts.errors import GutsInputError\ntry:\n    from guts.engine.extensive import cfr_plus\n"
            "except GutsInputError as exc:\n    print(exc)\nfrom guts.cli import main\n"
            f"sys.exit(main(['solve-game', {kuhn_file!r}, '--out', {str(tmp_path / 'o')!r}, '--quiet']))\n")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert p.stdout.startswith("NUMBA_NUM_THREADS='0'; accepted: "), p.stdout      # Python: GutsInputError
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr         # the command: one line
    assert ERROR_LINE.match(p.stderr.strip()) and "Traceback" not in p.stderr


def test_a_study_run_with_an_uncertified_row_exits_1(tmp_path, capsys, monkeypatch):
    # exit code 1 = "ran, but some result is not certified" (guts.cli); the studies' work is stubbed here
    import pandas as pd

    import guts.studies.fictitious as fp_study
    import guts.studies.teams as teams_study

    monkeypatch.setattr(fp_study, "run", lambda *a, **k: pd.DataFrame({"variant": ["independent", "pooled"],
                                                                       "converged": [True, False]}))
    assert main(["fp-three-player", "--out", str(tmp_path / "a"), "--quiet"]) == 1
    assert "not certified: variant = pooled" in capsys.readouterr().err
    row = dict(m=1, n=1, mesh=3, structure="full", team1_value=0.0, team2_value=0.0, certified_lower=0.0,
               certified_upper=0.0, team1_strategy="", team2_vs_nash_bloc=0.0)
    for ok, code in ((True, 0), (False, 1)):
        monkeypatch.setattr(teams_study, "run", lambda *a, ok=ok, **k: pd.DataFrame([{**row, "converged": ok}]))
        assert main(["teams", "--cases", "1v1:3:full", "--out", str(tmp_path / "b"), "--quiet"]) == code
