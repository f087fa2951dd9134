"""``guts mercer`` through argparse (add_subparser), and bad input -> exit code 2."""
import argparse

import pytest

from guts.cli.mercer import add_subparser
from guts.cli.guard import guarded


def _parser():
    class P(argparse.ArgumentParser):
        def error(self, message):
            self.exit(2, f"{self.prog}: error: {message}\n")

    p = P(prog="guts")
    sub = p.add_subparsers(dest="command", parser_class=P)
    add_subparser(sub)
    return p


def _run(argv):
    p = _parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return exc.code
    code, result = guarded("guts mercer", args.func, args)
    return code if code else int(result or 0)


def test_solve_lp_prints_values_and_certificate(capsys):
    assert _run(["mercer", "solve", "smh", "--players", "2", "--method", "lp"]) == 0
    out = capsys.readouterr().out
    assert "-0.104194" in out and "+0.104194" in out and "exploitability" in out


def test_solve_three_players_cfr_prints_exploitability_with_nash_conv(capsys):
    """--target is exploitability (NashConv / 3 here); both numbers are printed, and they agree."""
    assert _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--target", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "target exploitability 0.05 (NashConv 0.15)" in out
    line = next(x for x in out.splitlines() if x.startswith("exploitability"))
    ex, nc = float(line.split()[1]), float(line.split("(NashConv ")[1].split(")")[0])
    assert ex <= 0.05 and nc == pytest.approx(3 * ex, rel=1e-3)       # printed to 4 digits


def test_default_iterative_method_is_pcfr_plus(capsys):
    assert _run(["mercer", "solve", "smh", "--players", "3", "--quiet"]) == 0
    assert "method pcfr+" in capsys.readouterr().out


def test_budget_ends_before_the_target_not_certified_as_solve_game(capsys):
    """Out of budget: "not certified: <what failed>" and solve-game's exit code for that case."""
    from guts.cli import EXIT_NOT_CERTIFIED
    from guts.cli.options import verdict

    code = _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--target", "1e-6",
                 "--max-iterations", "2", "--quiet"])
    assert code == EXIT_NOT_CERTIFIED == verdict(False)[1] != 0
    out = capsys.readouterr().out
    status = next(x for x in out.splitlines() if x.startswith("iterations"))
    assert "not certified: exploitability" in status and "above the target 1e-06" in status


@pytest.mark.parametrize("method,iterations", [("fp", 704), ("fp-realisation", 148)])
def test_solve_both_fictitious_plays(capsys, method, iterations):
    """--method fp is the thesis's program's rule (its smh2p run: 704 iterations to 0.001),
    --method fp-realisation classical fictitious play (148)."""
    argv = ["mercer", "solve", "smh", "--players", "2", "--method", method, "--target", "0.001"]
    assert _run(argv) == 0
    out = capsys.readouterr().out
    assert f"method {method}" in out and f"iterations        {iterations};" in out


def test_solve_strong_collusion_cfr_prints_the_team_bracket(capsys):
    """--collusion strong solves the team game with any method and prints the bracket of the
    team's max-min value, which holds the exact one (3P-SMH, seats 0 and 2: 0.135625...)."""
    from guts.games.poker.mercer import solve

    exact = solve("smh", 3, "lp", collusion="strong", team=(0, 2)).team_value
    assert _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--collusion", "strong",
                 "--team", "0,2"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("team value"))
    lo, hi = (float(x) for x in line.split("[")[1].rstrip("]").split(","))
    assert lo <= exact <= hi and "team vs victim" in out


def test_weak_collusion_prints_no_team_value(capsys):
    """Weak collusion is a three-player game: its equilibrium's pooled payoff is printed for
    what it is, never under the headline "team value" (the team's max-min value is only
    bracketed under strong collusion, where the team is one player)."""
    _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--target", "0.05",
          "--collusion", "weak", "--team", "0,1", "--quiet"])
    out = capsys.readouterr().out
    assert not any(x.startswith("team value") for x in out.splitlines())
    assert "not the team's max-min value" in out


def test_solve_help_documents_collusion_kinds_and_seats_from_0(capsys):
    with pytest.raises(SystemExit):
        _parser().parse_args(["mercer", "solve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "strong-separate" in out and "counted from 0" in out and "dcfr" in out


@pytest.mark.parametrize("argv,needle", [
    (["mercer", "solve", "texas"], "variant"),
    (["mercer", "solve", "smh", "--players", "3", "--collusion", "medium", "--team", "0,1"], "strong-separate"),
    (["mercer", "solve", "smh", "--players", "3", "--method", "lp", "--collusion", "strong-separate",
      "--team", "0,1"], "two-player zero-sum"),
    (["mercer", "solve", "mmh", "--players", "3", "--collusion", "weak", "--team", "1,1"], "team"),
    (["mercer", "solve", "mmh", "--players", "3", "--collusion", "weak", "--team", "a,b"], "team"),
    (["mercer", "solve", "mmh", "--method", "cfr+", "--target", "0"], "target"),
    (["mercer", "solve", "mmh", "--method", "cfr+", "--target", "-0.1"], "target"),
    (["mercer", "solve", "mmh", "--method", "cfr+", "--epsilon", "0"], "epsilon"),     # the old name
])
def test_bad_input_exits_2(capsys, argv, needle):
    assert _run(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
