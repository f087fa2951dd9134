"""``guts solve-game``: values and certificate printed, strategy files written, one-line errors."""
import json

import pandas as pd
import pytest

from guts.cli import main
from tests.cli.test_cli_conventions import ERROR_LINE

pytest.importorskip("pyspiel")


def test_kuhn_from_openspiel_solved_and_written(tmp_path, capsys):
    out = tmp_path / "kuhn"
    assert main(["solve-game", "openspiel:kuhn_poker", "--out", str(out), "--efg", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "-0.055555556  +0.055555556" in text          # Kuhn (1950): -1/18
    # the LP's value proved exactly: rational strategies whose exact best responses agree
    assert "exact value       -1/18 (first player" in text
    assert "certified" in text
    doc = json.loads((out / "solution.json").read_text())
    assert doc["values"][0] == pytest.approx(-1 / 18, abs=1e-12) and doc["exploitability"] <= 1e-9
    df = pd.read_csv(out / "strategy.csv")
    sums = df.groupby(["player", "infoset", "type"]).probability.sum()
    assert len(sums) == 12 and (sums - 1).abs().max() < 1e-9      # 12 information sets, rows sum to 1
    # the written .efg is the same game: solved again through Gambit's format, same value
    assert main(["solve-game", str(out / "game.efg"), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    assert "-0.055555556  +0.055555556" in capsys.readouterr().out


def test_three_player_game_by_dcfr_to_a_target(tmp_path, capsys):
    code = main(["solve-game", "openspiel:kuhn_poker(players=3)", "--method", "dcfr", "--target", "0.01",
                 "--out", str(tmp_path), "--quiet"])
    assert code == 0
    doc = json.loads((tmp_path / "solution.json").read_text())
    assert doc["exploitability"] <= 0.01 and sum(doc["values"]) == pytest.approx(0, abs=1e-12)


LEDUC_ACPC = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\nfirstPlayer = 1 1\n"
              "maxRaises = 2 2\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n")


def test_acpc_definition_solved_with_openspiels_leduc_value(tmp_path, capsys):
    import pyspiel

    from guts.engine.extensive import from_openspiel, solve_lp

    (tmp_path / "leduc.game").write_text(LEDUC_ACPC)
    assert main(["solve-game", str(tmp_path / "leduc.game"), "--out", str(tmp_path / "o"), "--quiet"]) == 0
    doc = json.loads((tmp_path / "o" / "solution.json").read_text())
    v = solve_lp(from_openspiel(pyspiel.load_game("leduc_poker"))).value
    assert doc["values"][0] == pytest.approx(v, abs=1e-9) and doc["exploitability"] <= 1e-9


@pytest.mark.parametrize("argv, names", [
    (["solve-game", "nofile.efg"], "'nofile.efg' does not exist"),
    (["solve-game", "game.xyz"], "unknown kind"),
    (["solve-game", "openspiel:no_such_game"], "OpenSpiel has no game 'no_such_game'"),
    (["solve-game", "openspiel:kuhn_pokr"], "did you mean kuhn_poker"),
    (["solve-game", "openspiel:kuhn_poker(players=3)", "--method", "lp"], "two-player zero-sum"),
    (["solve-game", "openspiel:kuhn_poker", "--method", "simplex"], "--method 'simplex'"),
    (["solve-game", "openspiel:kuhn_poker", "--target", "0"], "--target 0"),
    (["solve-game", "openspiel:kuhn_poker", "--iterations", "0"], "--iterations 0"),
    (["solve-game", "bad.efg"], ".efg: expected a node type"),
    (["solve-game", "small.game"], "cannot deal"),
    (["solve-game", "nolimit.game"], "accepted: limit"),
])
def test_bad_input_one_line_exit_2(argv, names, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.efg").write_text('EFG 2 R "x" { "a" "b" }\nq "" 1 "" { 1 -1 }\n')
    (tmp_path / "small.game").write_text(LEDUC_ACPC.replace("numRanks = 3", "numRanks = 1"))
    (tmp_path / "nolimit.game").write_text(LEDUC_ACPC.replace("limit", "nolimit"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and ERROR_LINE.match(err.strip()), err
    assert names in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.efg", "nolimit.game", "small.game"]


def test_exact_value_is_an_lp_option(tmp_path, capsys):
    """--exact needs the LP and a public tree; --no-exact skips it."""
    assert main(["solve-game", "openspiel:kuhn_poker", "--no-exact", "--out", str(tmp_path / "a"), "--quiet"]) == 0
    assert "exact value" not in capsys.readouterr().out
    assert main(["solve-game", "openspiel:kuhn_poker", "--exact", "--method", "cfr+", "--out",
                 str(tmp_path / "b"), "--quiet"]) == 2
    assert "an exact value comes from the LP" in capsys.readouterr().err


def test_unknown_openspiel_game_is_one_line_on_the_process_stderr(capfd):
    """Not OpenSpiel's list of every registered game: one error line, with the closest names."""
    pytest.importorskip("pyspiel")
    assert main(["solve-game", "openspiel:no_such_game"]) == 2
    out, err = capfd.readouterr()
    assert len(err.strip().splitlines()) == 1 and ERROR_LINE.match(err.strip()), err
    assert "'no_such_game'" in err and "pyspiel.registered_names()" in err


def test_information_sets_are_printed_per_seat_and_in_total(tmp_path, capsys):
    """A multi-seat game's count says what it counts: the total and each seat's, the seats'
    against OpenSpiel's distinct information-state strings per player (an independent count)."""
    import re

    import pyspiel

    game = pyspiel.load_game("kuhn_poker(players=3)")
    seen = [set() for _ in range(3)]

    def walk(s):
        if s.is_terminal():
            return
        if s.is_chance_node():
            for a, _ in s.chance_outcomes():
                walk(s.child(a))
            return
        p = s.current_player()
        seen[p].add(s.information_state_string(p))
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    assert main(["solve-game", "openspiel:kuhn_poker(players=3)", "--out", str(tmp_path / "o"), "--quiet"]) in (0, 1)
    first = capsys.readouterr().out.splitlines()[0]
    m = re.search(r"(\d+) information sets \(([\d/]+) per seat\)", first)
    assert m, first
    seats = [int(x) for x in m.group(2).split("/")]
    assert seats == [len(x) for x in seen] and int(m.group(1)) == sum(seats)
