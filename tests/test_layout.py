"""The package's layering, checked on the source with ``ast`` (no import is executed).

Rules (README, "Module map"):

* ``guts.engine`` (game-agnostic solvers) never imports ``guts.games``, ``guts.studies``,
  ``guts.cli`` or the ``guts`` root (which re-exports a game);
* a game family ``guts.games.<family>`` never imports another family, ``guts.studies``,
  ``guts.cli`` or the ``guts`` root;
* ``guts.studies`` never imports ``guts.cli``.

``guts.errors`` and ``guts._validate`` are shared by every layer.
"""
from __future__ import annotations

import ast
from pathlib import Path

import guts

PACKAGE_DIR = Path(guts.__file__).resolve().parent


def module_name(path: Path, root: Path) -> str:
    """Dotted name of the module at ``path`` in the package whose folder is ``root``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_edges(root: Path) -> list[tuple[str, str]]:
    """``(importer, imported)`` for every import statement of every module below ``root``.

    Imports inside functions count too (a deferred import is still a dependency);
    relative imports are resolved; ``from a import b`` gives ``a`` and ``a.b`` (``b`` may
    be a module).
    """
    edges = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                edges += [(name, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module
                edges.append((name, target))
                edges += [(name, f"{target}.{a.name}") for a in node.names if a.name != "*"]
    return edges


def layer(module: str):
    """``("engine",)``, ``("games", family)``, ``("studies",)``, ``("cli",)``, ``("root",)`` or None."""
    parts = module.split(".")
    if parts[0] != "guts":
        return None  # third party or standard library
    if len(parts) == 1:
        return ("root",)
    if parts[1] == "games":
        return ("games", parts[2]) if len(parts) > 2 else ("games",)
    if parts[1] in ("engine", "studies", "cli"):
        return (parts[1],)
    return None  # guts.errors, guts._validate, guts.__main__: shared


def violations(edges) -> list[str]:
    """The edges that break a layering rule, as readable lines."""
    bad = []
    for src, dst in edges:
        a, b = layer(src), layer(dst)
        if a is None or b is None or a == b:
            continue
        if a[0] == "engine" and b[0] in ("games", "studies", "cli", "root"):
            bad.append(f"{src} -> {dst}: the engine never imports games, studies, the cli or the guts root")
        elif a[0] == "games" and len(a) == 2 and (b[0] in ("studies", "cli", "root") or b[0] == "games"):
            if b == ("games",):
                continue  # the games namespace package itself
            if a == ("games", "mercer") and b == ("games", "poker"):
                # the one allowed exception: guts.games.mercer is a thin alias of
                # guts.games.poker.mercer (Mercer hold'em moved into the poker family, issue 24)
                continue
            bad.append(f"{src} -> {dst}: a game family imports only the engine, guts.errors and guts._validate")
        elif a[0] == "studies" and b[0] == "cli":
            bad.append(f"{src} -> {dst}: studies never import the cli")
    return bad


def test_package_obeys_the_import_rules():
    edges = import_edges(PACKAGE_DIR)
    # the collector sees real dependencies, including relative and deferred imports
    assert ("guts.games.guts.coalition", "guts.engine.recursive") in edges
    assert ("guts.studies.table1", "guts.studies.sweep") in edges
    assert violations(edges) == []


def test_every_game_family_and_layer_is_a_package():
    for sub in ("engine", "games", "studies", "cli", "games/guts"):
        assert (PACKAGE_DIR / sub / "__init__.py").is_file(), sub


def test_checker_flags_each_broken_rule():
    bad = [
        ("guts.engine.recursive", "guts.games.guts.payoffs"),
        ("guts.engine.stage", "guts.studies.output"),
        ("guts.engine.matrix_game", "guts"),
        ("guts.games.guts.bot", "guts.games.holdem.equity"),
        ("guts.games.holdem.lp", "guts.studies.table1"),
        ("guts.games.guts.coalition", "guts.cli.table1"),
        ("guts.studies.fit", "guts.cli.options"),
        ("guts.games.poker.builder", "guts.games.mercer"),   # the alias goes one way only
        ("guts.games.mercer", "guts.games.holdem"),
    ]
    found = violations(bad)
    assert len(found) == len(bad)
    allowed = [
        ("guts.games.guts.coalition", "guts.engine.recursive"),
        ("guts.games.guts.coalition", "guts.games.guts.payoffs"),
        ("guts.games.guts.coalition", "guts.errors"),
        ("guts.studies.table1", "guts.games.guts.coalition"),
        ("guts.studies.table1", "guts"),
        ("guts.cli.table1", "guts.studies.table1"),
        ("guts.engine.recursive", "guts._validate"),
        ("guts.engine.recursive", "numpy"),
        ("guts.games.mercer", "guts.games.poker.mercer"),
    ]
    assert violations(allowed) == []


def test_checker_catches_a_bad_module_graph_on_disk(tmp_path):
    """A miniature package whose engine imports a game (relatively, inside a function)."""
    root = tmp_path / "guts"
    for folder in ("engine", "games", "games/a", "games/b", "studies", "cli"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "engine" / "solver.py").write_text("def f():\n    from ..games.a import rules\n")
    (root / "games" / "a" / "rules.py").write_text("from guts.engine import solver\nfrom ..b import other\n")
    (root / "games" / "b" / "other.py").write_text("from . import rules_b\n")
    (root / "studies" / "run.py").write_text("import guts.cli\n")
    edges = import_edges(root)
    assert ("guts.engine.solver", "guts.games.a") in edges
    found = violations(edges)
    assert any(v.startswith("guts.engine.solver -> guts.games.a") for v in found)
    assert any(v.startswith("guts.games.a.rules -> guts.games.b") for v in found)
    assert any(v.startswith("guts.studies.run -> guts.cli") for v in found)
    assert not any(v.startswith("guts.games.b.other") for v in found)  # its own family


def presentation_calls(root: Path) -> list[str]:
    """``print``, ``input``, ``sys.exit``/``exit``/``quit`` calls and ``argparse`` imports in the library layers.

    The library raises and returns; only ``guts.cli`` talks to a terminal and picks exit codes
    (issue 19).  ``print`` passed as a value (``echo=print``) counts too.
    """
    found = []
    for layer_dir in ("engine", "games", "studies"):
        for path in sorted((root / layer_dir).rglob("*.py")):
            name = module_name(path, root)
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Name) and node.id in ("print", "input", "exit", "quit"):
                    found.append(f"{name}:{node.lineno} {node.id}")
                elif isinstance(node, ast.Attribute) and node.attr == "exit" and \
                        isinstance(node.value, ast.Name) and node.value.id in ("sys", "os"):
                    found.append(f"{name}:{node.lineno} {node.value.id}.exit")
                elif isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names):
                    found.append(f"{name}:{node.lineno} import argparse")
                elif isinstance(node, ast.ImportFrom) and node.module == "argparse":
                    found.append(f"{name}:{node.lineno} from argparse")
    return found


def test_library_layers_are_free_of_presentation():
    assert presentation_calls(PACKAGE_DIR) == []


def test_presentation_checker_catches_each_kind(tmp_path):
    root = tmp_path / "guts"
    for folder in ("engine", "games/a", "studies"):
        (root / folder).mkdir(parents=True)
    (root / "engine" / "x.py").write_text("import sys\ndef f():\n    print('hi')\n    sys.exit(2)\n")
    (root / "games" / "a" / "y.py").write_text("from argparse import ArgumentParser\n")
    (root / "studies" / "z.py").write_text("def g(echo=print):\n    import argparse\n    exit(1)\n")
    (root / "studies" / "ok.py").write_text("def h(echo=None):\n    if echo:\n        echo('x')\n")
    found = presentation_calls(root)
    assert sorted(found) == sorted(["guts.engine.x:3 print", "guts.engine.x:4 sys.exit",
                                    "guts.games.a.y:1 from argparse", "guts.studies.z:1 print",
                                    "guts.studies.z:2 import argparse", "guts.studies.z:3 exit"])


def test_mercer_alias_package_is_the_poker_family_module():
    """``guts.games.mercer`` (and each of its submodules) is the moved module itself, so old
    imports and monkeypatches keep working after the move into ``guts.games.poker``."""
    import importlib

    import guts.games.mercer as old
    import guts.games.poker.mercer as new

    assert old.solve is new.solve and old.__all__ == new.__all__
    for sub, home in (("builder", "guts.games.poker.builder"), ("rules", "guts.games.poker.rules"),
                      ("cards", "guts.games.poker.cards"), ("evaluators", "guts.games.poker.evaluators"),
                      ("solve", "guts.games.poker.mercer.solve"), ("tables", "guts.games.poker.mercer.tables"),
                      ("paper", "guts.games.poker.mercer.paper"), ("eqrange", "guts.games.poker.mercer.eqrange")):
        assert importlib.import_module(f"guts.games.mercer.{sub}") is importlib.import_module(home)
