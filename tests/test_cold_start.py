"""Cold start: a family import or ``guts --help`` loads only what it uses.

Structural, not timed: each check runs in a fresh interpreter and inspects ``sys.modules``.
"""
import json
import os
import subprocess
import sys

import pytest

HEAVY = ("numba", "scipy", "pandas", "sympy", "matplotlib")


def _modules_after(code: str) -> set:
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, env=env, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _heavy(mods):
    return sorted(m for m in mods if m.split(".")[0] in HEAVY)


def test_guts_help_imports_no_solver_stack():
    mods = _modules_after("from guts.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert not _heavy(mods)
    # no subcommand module is imported to list the commands
    assert not [m for m in mods if m.startswith("guts.cli.") and m not in ("guts.cli.options", "guts.cli.guard")]


@pytest.mark.parametrize("family", ["holdem", "poker.mercer", "toy", "guts", "continuous_poker", "dividing_point",
                                    "poker", "liars_dice"])
def test_family_import_loads_no_other_family(family):
    mods = _modules_after(f"import guts.games.{family}")
    # Mercer hold'em is a member of the poker family (guts.games.poker.mercer)
    other = sorted(m for m in mods if m.startswith("guts.games.") and m.split(".")[2] != family.split(".")[0])
    assert other == []
    assert not _heavy(mods)
    assert "guts.studies" not in mods and "guts.cli" not in mods


def test_lazy_names_resolve_and_help_matches_modules():
    import importlib

    import guts.cli as cli
    import guts.engine.extensive as E
    import guts.games.holdem as H

    for pkg in (E, H, importlib.import_module("guts.games.dividing_point"), importlib.import_module("guts")):
        for name in pkg.__all__:
            assert getattr(pkg, name) is not None, (pkg.__name__, name)
    # a lazily exported name is never also a submodule name (an imported submodule would shadow it)
    assert E.pool.__module__ == "guts.engine.extensive.pool" and callable(E.pool)
    for name, mod in cli.COMMANDS:
        assert cli.command_help(mod) == importlib.import_module(mod).HELP
