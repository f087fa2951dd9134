"""The conventions every ``guts`` subcommand shares, checked on the parser itself.

Subcommands, including nested groups (``guts poker continuous``), are discovered from
``build_parser()``: a new game family's command is covered without editing this file.
"""
import argparse
import re

import pytest

from guts.cli import build_parser, iter_commands, main

PARSER = build_parser()
COMMANDS = [(path, p) for path, p in iter_commands(PARSER) if path]
LEAVES = [(path, p) for path, p in COMMANDS
          if not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)]
ERROR_LINE = re.compile(r"^(guts(?: [a-z0-9-]+)*): error: (\S.*); accepted: (\S.*)$")


def _options(p):
    return [a for a in p._actions if a.option_strings and a.help is not argparse.SUPPRESS and not a.required
            and not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]


def _help_entry(lines, option):
    """The help entry of ``option``: its line and continuation lines (until the next option)."""
    for i, ln in enumerate(lines):
        if ln.strip().startswith(option + " ") or ln.strip() == option or ln.strip().startswith(option + ","):
            block = [ln]
            for nxt in lines[i + 1:]:
                if not nxt.strip() or nxt.lstrip().startswith("-"):
                    break
                block.append(nxt)
            return " ".join(b.strip() for b in block)
    return None


def _required_positionals(p):
    """Values for a leaf's required arguments (first choice, else 2): positionals and required options."""
    out = []
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            continue
        if not a.option_strings or a.required:
            value = str(sorted(a.choices)[0]) if a.choices else "2"
            out += [a.option_strings[0], value] if a.option_strings else [value]
    return out


def test_discovery_sees_every_registered_command():
    names = {" ".join(path) for path, _ in LEAVES}
    assert {"table1", "solve", "play", "simulate", "curve", "fit", "continuum", "poker continuous"} <= names
    assert all(p.prog == "guts " + " ".join(path) for path, p in COMMANDS)


@pytest.mark.parametrize("path,parser", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_option_shows_its_default(path, parser, monkeypatch):
    monkeypatch.setenv("COLUMNS", "2000")  # one line per option in the help text
    text = parser.format_help()
    lines = text.splitlines()
    for action in _options(parser):
        line = _help_entry(lines, action.option_strings[0])
        assert line is not None, f"{parser.prog}: {action.option_strings[0]} not in the help"
        assert "default" in line, f"{parser.prog} {action.option_strings[0]}: help shows no default: {line.strip()}"


@pytest.mark.parametrize("path,parser", LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_shown_defaults_are_the_real_defaults(path, parser, monkeypatch):
    """Typing the value the help shows as ``(default: X)`` gives what omitting the option gives."""
    monkeypatch.setenv("COLUMNS", "2000")
    lines = parser.format_help().splitlines()
    base = [*path, *_required_positionals(parser)]
    plain = vars(PARSER.parse_args(base))
    for action in _options(parser):
        if action.nargs == 0 or action.default is None:
            continue  # flags (shown as off/on) and options whose help describes the absent case
        line = _help_entry(lines, action.option_strings[0])
        m = re.search(r"\(default: ([^()]*)\)\s*$", line)
        if m is None:
            continue  # the help states the default in words
        typed = vars(PARSER.parse_args([*base, action.option_strings[0], m.group(1)]))
        assert typed[action.dest] == plain[action.dest], (parser.prog, action.option_strings[0], m.group(1))


# (argv, the option or value the message must name); every message must be one line
# "guts <command>: error: <what> <value>; accepted: <range>", exit code 2, no usage block.
BAD_INPUTS = [
    (["table1", "--mesh", "1"], "--mesh 1"),
    (["table1", "--mesh", "abc"], "--mesh 'abc'"),
    (["table1", "--sizes", "0-3"], "--sizes '0-3'"),
    (["table1", "--sizes", "x"], "--sizes 'x'"),
    (["table1", "--structure", "clique"], "--structure 'clique'"),
    (["table1", "--solver", "simplex"], "--solver 'simplex'"),
    (["table1", "--method", "bisect"], "--method 'bisect'"),
    (["table1", "--jobs", "0"], "--jobs 0"),
    (["table1", "--fp-iterations", "0"], "--fp-iterations 0"),
    (["table1", "--seed", "-1"], "--seed '-1'"),
    (["table1", "--bogus-option"], "--bogus-option"),
    (["solve", "0"], "size 0"),
    (["solve", "2", "--mesh", "1"], "--mesh 1"),
    (["play", "--size", "0"], "--size/-N/--opponents 0"),
    (["play", "-N", "x"], "'x'"),
    (["play", "--seed", "1.5"], "--seed '1.5'"),
    (["play", "--hands", "0"], "--hands 0"),
    (["play", "--auto", "1.5"], "--auto 1.5"),
    (["simulate", "--games", "1"], "--games 1"),
    (["simulate", "--player1", "abc"], "--player1 'abc'"),
    (["simulate", "--mesh", "5000"], "--mesh 5000"),
    (["curve", "--sizes", "5-2"], "descending"),
    (["curve", "--points", "3"], "--points 3"),
    (["curve", "--target-width", "0"], "--target-width 0"),
    (["curve", "--backend", "mpi"], "--backend 'mpi'"),
    (["fit", "--bootstrap", "-1"], "--bootstrap -1"),
    (["fit", "--level", "1"], "--level 1"),
    (["fit", "--table1", "/nonexistent/table1.csv"], "--table1 '/nonexistent/table1.csv'"),
    (["fit", "--large-n", "/nonexistent/large_n.csv"], "--large-n '/nonexistent/large_n.csv'"),
    (["continuum", "--meshes", "21,1"], "--meshes '21,1' (1 is below 2)"),
    (["continuum", "--sizes", "2-1"], "--sizes '2-1' (range 2-1 is descending)"),
    (["continuum", "--tol", "-1"], "--tol -1"),
    (["continuum", "--jobs", "x"], "--jobs 'x'"),
    (["poker", "nosuchgame"], "GAME 'nosuchgame'"),
    (["poker", "continuous", "--bet", "-1"], "--bet -1"),
    (["poker", "continuous", "--check", "0", "1"], "--check 0"),
    (["poker", "continuous", "--bet", "1", "--no-limit"], "--bet and --no-limit"),
    (["poker", "continuous", "--bet-sizes", "x"], "--bet-sizes 'x'"),
    (["poker", "dividing-point", "a", "--pot", "x"], "--pot 'x'"),
    (["poker", "dividing-point", "a", "--lp-mesh", "-3"], "--lp-mesh -3"),
    (["poker", "dividing-point", "e"], "game 'e'"),
    (["holdem", "solve", "--max-raise", "1"], "--max-raise 1"),
    (["holdem", "solve", "--max-raise", "40", "--method", "magic"], "--method 'magic'"),
    (["mercer", "solve", "xyz"], "variant 'xyz'"),
    (["mercer", "solve", "smh", "--players", "3", "--collusion", "strong", "--team", "1,1"], "--team '1,1'"),
    (["mercer", "solve", "smh", "--epsilon", "0"], "--epsilon 0"),
    (["mercer", "solve", "smh", "--players", "4"], "--players 4"),
    (["mercer", "solve", "smh", "--bets", "4,-8"], "--bets '4,-8'"),
    (["mercer", "study", "tables7"], "artefact 'tables7'"),
    (["holdem", "raise-game", "--max-raise", "1"], "--max-raise 1"),
    (["holdem", "reraise", "--reraise", "1,x"], "--reraise '1,x'"),
    (["holdem", "solve", "--max-raise", "4", "--reraise", "1"], "--reraise '1'"),
    (["teams", "--cases", "2x2:11:full"], "--cases '2x2:11:full'"),
    (["full-vs-pseudo-bloc", "--cases", "21:1-3"], "--cases '21:1-3'"),
    (["figures", "--mesh", "1"], "--mesh 1"),
    (["fp-three-player", "--iterations", "0"], "--iterations 0"),
    (["fp-three-player", "--seed", "-1"], "--seed '-1'"),
    (["nosuchcommand"], "COMMAND 'nosuchcommand'"),
]


@pytest.mark.parametrize("argv,names", BAD_INPUTS, ids=[" ".join(a) for a, _ in BAD_INPUTS])
def test_bad_input_one_line_exit_2(argv, names, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written, wherever the command would write
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    m = ERROR_LINE.match(lines[0])
    assert m, lines[0]
    words = [w for w in argv if not w.startswith("-")]
    known = {" ".join(p) for p, _ in COMMANDS}
    expected = "guts"
    for w in words:  # the full (nested) command name, as far as it was recognised
        if " ".join([*expected.split()[1:], w]) in known:
            expected += " " + w
    assert m.group(1) == expected
    assert names in m.group(2)
    assert "usage:" not in captured.err and "Traceback" not in captured.err
    assert not list(tmp_path.iterdir())


def test_every_leaf_rejects_an_unknown_option_in_the_same_format(capsys):
    for path, _ in LEAVES:
        p = PARSER.parse_args  # noqa: F841 - the parser is built once
        argv = [*path, *_required_positionals(dict(LEAVES)[path]), "--no-such-option"]
        assert main(argv) == 2, path
        err = capsys.readouterr().err
        assert ERROR_LINE.match(err.strip()) and err.startswith("guts " + " ".join(path) + ": error:"), err
