"""``guts solve-game --team SEATS --regime R``: a team game from an OpenSpiel file, bracket printed
and written; the two options refused where they do not belong."""
import json

import pytest

from guts.cli import main
from guts.engine.extensive import solve_team
from guts.games.toy import kuhn_poker
from tests.cli.test_cli_conventions import ERROR_LINE

pytest.importorskip("pyspiel")


def test_team_of_openspiel_kuhn_equals_the_built_game(tmp_path, capsys):
    # OpenSpiel's three-player Kuhn, imported, against the family's own build of it
    code = main(["solve-game", "openspiel:kuhn_poker(players=3)", "--team", "1,2", "--regime", "correlated",
                 "--out", str(tmp_path), "--quiet"])
    assert code == 0
    assert "certified" in capsys.readouterr().out
    doc = json.loads((tmp_path / "team.json").read_text())
    ours = solve_team(kuhn_poker(3), (1, 2), "correlated")
    assert doc["team"] == [1, 2] and doc["adversary"] == 0 and doc["converged"]
    assert doc["upper"] - doc["lower"] <= 1e-9
    assert abs(doc["lower"] - ours.lower) <= 1e-9
    assert abs(sum(doc["support_weights"]) - 1) <= 1e-9
    assert abs(sum(doc["values"])) <= 1e-9


def test_team_method_and_time_limit(tmp_path, capsys):
    # the local-search column generation with the pair relaxation: a bracket around the exact value
    code = main(["solve-game", "openspiel:kuhn_poker(players=3)", "--team", "0,2", "--team-method",
                 "column-generation-local", "--time-limit", "60", "--out", str(tmp_path), "--quiet"])
    doc = json.loads((tmp_path / "team.json").read_text())
    exact = solve_team(kuhn_poker(3), (0, 2), "correlated")
    assert doc["method"] == "column-generation-local"
    assert doc["lower"] - 1e-9 <= exact.lower and exact.upper <= doc["upper"] + 1e-9
    assert code == (0 if doc["converged"] else 1)


@pytest.mark.parametrize("args", [["--regime", "correlated"], ["--team", "1,2", "--method", "lp"],
                                  ["--team", "1,x"], ["--team", "0", "--regime", "independent"],
                                  ["--team-method", "column-generation"], ["--time-limit", "5"],
                                  ["--team", "1,2", "--team-method", "nope"]])
def test_team_options_refused(args, tmp_path, capsys):
    code = main(["solve-game", "openspiel:kuhn_poker(players=3)", *args, "--out", str(tmp_path), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ERROR_LINE.match(err[0]), err
