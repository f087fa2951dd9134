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


def test_solve_three_players_cfr(capsys):
    assert _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--epsilon", "0.05"]) == 0
    assert "NashConv" in capsys.readouterr().out


@pytest.mark.parametrize("argv,needle", [
    (["mercer", "solve", "texas"], "variant"),
    (["mercer", "solve", "mmh", "--players", "3", "--collusion", "weak", "--team", "1,1"], "team"),
    (["mercer", "solve", "mmh", "--players", "3", "--collusion", "weak", "--team", "a,b"], "team"),
    (["mercer", "solve", "mmh", "--method", "cfr+", "--epsilon", "0"], "epsilon"),
    (["mercer", "solve", "mmh", "--method", "cfr+", "--epsilon", "-0.1"], "epsilon"),
])
def test_bad_input_exits_2(capsys, argv, needle):
    assert _run(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
