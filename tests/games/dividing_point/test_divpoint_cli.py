"""``guts poker dividing-point``: wired through argparse as the coordinator will."""
import argparse

import pytest

from guts.cli import dividing_point
from guts.cli.guard import guarded


def _run(argv, capsys):
    root = argparse.ArgumentParser(prog="guts")
    sub = root.add_subparsers(dest="command", required=True)
    poker = sub.add_parser("poker")
    dividing_point.add_subparser(poker.add_subparsers(dest="game_command", required=True))
    args = root.parse_args(["poker", "dividing-point", *argv])
    code, result = guarded("guts poker dividing-point", args.func, args)
    out = capsys.readouterr()
    return (code or result), out.out, out.err


def test_divpoint_cli_game_a(capsys):
    code, out, _ = _run(["a", "--pot", "1"], capsys)
    assert code == 0
    assert "b1  0.111111  = 1/9" in out and "B1  0.777778  = 7/9" in out and "C2  0.555556  = 5/9" in out
    assert "= 1/18" in out and "equilibrium: True" in out


def test_divpoint_cli_with_lp(capsys):
    code, out, _ = _run(["d", "--pot", "2", "--lp-mesh", "30"], capsys)
    assert code == 0 and "LP value of the 30x30-deal mesh game" in out


@pytest.mark.parametrize("pot", ["0", "-3", "abc"])
def test_divpoint_cli_bad_pot_is_one_line_exit_2(pot, capsys):
    code, out, err = _run(["b", "--pot", pot], capsys)
    assert code == 2 and err.count("\n") == 1 and "pot" in err


def test_divpoint_cli_unknown_game():
    root = argparse.ArgumentParser(prog="guts")
    sub = root.add_subparsers(dest="command")
    dividing_point.add_subparser(sub)
    with pytest.raises(SystemExit):
        root.parse_args(["dividing-point", "e"])
