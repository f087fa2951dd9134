"""``guts poker continuous`` through argparse (the coordinator wires the ``poker`` group)."""
import argparse

import pytest

from guts.cli.continuous_poker import add_subparser
from guts.cli.guard import guarded


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # as guts.cli: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def run(argv):
    parser = _Parser(prog="guts")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    poker = sub.add_parser("poker")
    add_subparser(poker.add_subparsers(dest="game", parser_class=_Parser))
    try:
        args = parser.parse_args(["poker", "continuous", *argv])
    except SystemExit as exc:
        return exc.code
    code, result = guarded("guts poker continuous", args.func, args)
    return code if code else int(result or 0)


def test_limit_prints_regions_functions_value(capsys):
    assert run(["--min-bet", "0.5", "--max-bet", "1"]) == 0
    out = capsys.readouterr().out
    assert "check" in out and "c(s)" in out
    assert "value (bettor, antes 0.5 each, pot 1): 0.061272850372" in out  # = 181/2954


def test_von_neumann_with_lp_check(capsys):
    assert run(["--bet", "1", "--check", "18", "1"]) == 0
    out = capsys.readouterr().out
    assert "0.055555555556" in out and "prefix-sum LP" in out
    line = [ln for ln in out.splitlines() if ln.startswith("discretised game")][0]
    assert abs(float(line.split("difference ")[1].split(",")[0])) < 1e-12  # aligned mesh: exact


def test_newman_certify(capsys):
    assert run(["--no-limit", "--certify"]) == 0
    out = capsys.readouterr().out
    assert "0.071428571429" in out and "continuum best responses" in out


@pytest.mark.parametrize("argv", [["--min-bet", "2", "--max-bet", "1"], ["--min-bet", "nan"],
                                  ["--max-bet", "-1"], ["--bet", "1", "--no-limit"],
                                  ["--no-limit", "--check", "10", "3"], ["--bet", "0"],
                                  ["--min-bet", "0.5", "--max-bet", "1", "--sizes", "3"],
                                  ["--min-bet", "0.5", "--max-bet", "1", "--check", "10", "1"]])
def test_bad_input_exit_2_one_line(argv, capsys):
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err
