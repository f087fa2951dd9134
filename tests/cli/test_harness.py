"""A harness, not examples: every subcommand and option, read from the parser,
fed a table of adversarial values.

Every case must end in exit 0 with finite output, or exit 2 with exactly one line
``guts <command>: error: ...`` on stderr: never a traceback, never ``nan`` printed.

* The fast subset (default, in CI): every option of every (nested) subcommand with every
  adversarial value, run in-process through :func:`guts.cli.main`; the command's work is
  stubbed (``guts.cli.run_command`` replaced), so a value the parser accepts does not start
  a long solve — this checks every converter and the one-line error format.
* The full set (``GUTS_FULL_HARNESS=1``, marked slow): the same cases run for real, each under
  a SIGALRM time guard (:data:`FULL_CASE_SECONDS`); a case still working when the guard fires
  is counted as "started work" (a valid request), not as a failure.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import signal

import pytest

import guts.cli as cli
from guts.cli import COMMANDS, build_parser, iter_commands

#: The adversarial values fed to every option that takes a value.
VALUES = ("", "0", "-1", "-0", "1.5", "nan", "-nan", "inf", "-inf", "1e308", "-1e308", "1e-308", "1e400",
          "99999999999999999999999999", "-99999999999999999999999999", "abc", "0x10", "1,2", "1-", "--",
          "not-a-choice")
FULL_CASE_SECONDS = 10


def _base_argv(path, parser):
    """The command path plus a valid value for every positional (first choice, else 1)."""
    argv = list(path)
    for a in parser._actions:
        if a.option_strings or isinstance(a, argparse._SubParsersAction):
            continue
        argv.append(str(a.choices[0]) if a.choices else "1")
    return argv


def _cases():
    cases = []
    for name, _ in COMMANDS:
        root = build_parser(name)
        for path, p in iter_commands(root):
            if not path or path[0] != name:
                continue
            if any(isinstance(a, argparse._SubParsersAction) for a in p._actions):
                continue  # a group (guts poker): its subcommands are walked
            base = _base_argv(path, p)
            for a in p._actions:
                if not a.option_strings or a.nargs == 0 or isinstance(a, argparse._HelpAction):
                    continue
                opt = max(a.option_strings, key=len)
                n = a.nargs if isinstance(a.nargs, int) else 1
                for v in VALUES:
                    argv = base + ([f"{opt}={v}"] if n == 1 else [opt, *([v] * n)])
                    cases.append(pytest.param(argv, id=" ".join(argv)))
            # conflicting / unknown options and a bad positional
            cases.append(pytest.param(base + ["--no-such-option"], id=" ".join(base + ["--no-such-option"])))
            for a in p._actions:
                if not a.option_strings and not isinstance(a, argparse._SubParsersAction):
                    cases.append(pytest.param(list(path) + ["nan"], id=" ".join(path) + " <positional nan>"))
                    break
    return cases


CASES = _cases()


def _check(code, out, err, argv):
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code == 2:
        lines = [ln for ln in re.split(r"[\r\n]", err) if ln.strip() and ": warning: " not in ln and "%|" not in ln]
        assert len(lines) == 1 and re.match(r"guts( [\w-]+)+: error: ", lines[0]), (argv, err)
    assert not re.search(r"(?<![a-z])nan(?![a-z])", out.lower()), (argv, out)


def test_harness_covers_every_command():
    ids = {p.id.split(" ")[0] for p in CASES}
    assert ids >= {name for name, _ in COMMANDS} - {"poker"}
    assert len(CASES) > 1000


def test_readme_and_docs_quote_the_harness_count():
    """The README (and docs/cli.md) state how many adversarial cases the harness runs."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    count = f"{len(CASES):,}".replace(",", " ")   # the docs' thousands separator: 2 442
    for doc in ("README.md", "docs/cli.md"):
        text = (root / doc).read_text(encoding="utf-8")
        assert f"{count} cases" in text, (doc, count)


_PARSERS = {}


def _cached_parser(command="*"):
    # parsing does not change a parser: build each command's once (the harness's time is parsing)
    if command not in _PARSERS:
        _PARSERS[command] = build_parser(command)
    return _PARSERS[command]


@pytest.mark.parametrize("argv", CASES)
def test_adversarial_value_parse(argv, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(cli, "run_command", lambda prog, func, *a: ran.append(prog) or 0)
    monkeypatch.setattr(cli, "build_parser", _cached_parser)
    code = cli.main(argv)
    out, err = capsys.readouterr()
    _check(code, out, err, argv)


class _Guard(Exception):
    pass


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("GUTS_FULL_HARNESS") != "1", reason="full harness: set GUTS_FULL_HARNESS=1")
@pytest.mark.parametrize("argv", CASES)
def test_adversarial_value_run(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # results/runs/... of accepted runs go here

    def alarm(signum, frame):
        raise _Guard()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(FULL_CASE_SECONDS)
    try:
        code = cli.main(argv)
    except _Guard:
        pytest.skip("valid request: started work")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    _check(code, out, err, argv)
    assert math.isfinite(code)


def test_readme_and_docs_quote_the_fuzz_class_counts():
    """The README and docs/cli.md state the fuzz classes' counts; they equal the generated ones."""
    from pathlib import Path

    from tests.cli import test_harness_api_env as api
    from tests.cli import test_harness_files as files
    from tests.cli import test_harness_sets as sets

    def n(k):
        return f"{k:,}".replace(",", " ")

    root = Path(__file__).resolve().parents[2]
    stated = (f"{n(len(files.FULL))} fuzzed game files ({n(len(files.QUICK))} in CI)",
              f"{n(len(sets.FULL))} tampered result sets", f"({n(len(sets.QUICK))} in CI)",
              f"{n(len(api.IMPORTS))} huge imports", f"{n(len(api.API_CASES))} API cases",
              f"{n(len(api.ENV_CASES))} environment cases")
    for doc in ("README.md", "docs/cli.md"):
        text = " ".join((root / doc).read_text(encoding="utf-8").split())
        for phrase in stated:
            assert phrase in text, (doc, phrase)
