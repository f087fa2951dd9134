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


def _resolve(name: str, is_pkg: bool, level: int, module: str | None) -> str:
    base = name.split(".")
    base = base[: len(base) - level + (1 if is_pkg else 0)]
    return ".".join(base + ([module] if module else []))


def _const_str(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dynamic_edges(name: str, is_pkg: bool, node: ast.Call):
    """Edges of one call that imports by string, or ``None`` when the target cannot be read.

    ``importlib.import_module("guts.x")`` / ``import_module(".x", __name__)``,
    ``__import__("guts.x")`` and the package's lazy exports
    ``lazy_exports(__name__, {"name": ".submodule", ...})`` (:mod:`guts._lazy`).
    """
    func = node.func
    fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if fname in ("import_module", "__import__"):
        if not node.args:
            return None
        target = _const_str(node.args[0])
        if target is None:
            return None
        if target.startswith("."):
            level = len(target) - len(target.lstrip("."))
            return [_resolve(name, is_pkg, level, target.lstrip(".") or None)]
        return [target]
    if fname == "lazy_exports" and len(node.args) == 2 and isinstance(node.args[1], ast.Dict):
        out = []
        for v in node.args[1].values:
            if isinstance(v, ast.Call) and getattr(v.func, "attr", None) == "fromkeys" and len(v.args) == 2:
                v = v.args[1]  # **dict.fromkeys(names, ".submodule")
            target = _const_str(v)
            if target is None:
                return None
            level = len(target) - len(target.lstrip("."))
            out.append(_resolve(name, is_pkg, level, target.lstrip(".") or None) if level else target)
        return out
    return []


def import_edges(root: Path, unverifiable: list | None = None) -> list[tuple[str, str]]:
    """``(importer, imported)`` for every import statement of every module below ``root``.

    Imports inside functions count too (a deferred import is still a dependency);
    relative imports are resolved; ``from a import b`` gives ``a`` and ``a.b`` (``b`` may
    be a module).  Imports by string (``importlib.import_module``, ``__import__``, the
    lazy exports of :mod:`guts._lazy`) are edges too; one whose target is not a string
    constant is appended to ``unverifiable`` (``"module:line"``) in the library layers
    (the cli, at the top, may import its subcommands by name; :mod:`guts._lazy` is the one
    library helper allowed to import a computed name, checked through its callers' tables).
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
                    target = _resolve(name, is_pkg, node.level, node.module)
                else:
                    target = node.module
                edges.append((name, target))
                edges += [(name, f"{target}.{a.name}") for a in node.names if a.name != "*"]
            elif isinstance(node, ast.Call):
                found = _dynamic_edges(name, is_pkg, node)
                if found is None:
                    if unverifiable is not None and name != "guts._lazy" and layer(name)[0] not in ("cli", "root"):
                        unverifiable.append(f"{name}:{node.lineno}")
                else:
                    edges += [(name, t) for t in found]
    return edges


#: Modules outside the four layers that every layer may import (they import only each other).
SHARED = {"guts.errors", "guts._validate", "guts._names", "guts._lazy", "guts._atomic"}
#: The package root (the public API, lazily re-exporting the families) and ``python -m guts``.
TOP = {"guts", "guts.__main__"}


def layer(module: str):
    """``("engine",)``, ``("games", family)``, ``("studies",)``, ``("cli",)``, ``("root",)``,
    ``("shared",)``, ``("unknown",)`` (a guts module in no layer and not allow-listed) or None."""
    parts = module.split(".")
    if parts[0] != "guts":
        return None  # third party or standard library
    if module in TOP:
        return ("root",)
    if parts[1] == "games":
        return ("games", parts[2]) if len(parts) > 2 else ("games",)
    if parts[1] in ("engine", "studies", "cli"):
        return (parts[1],)
    if module in SHARED or any(module.startswith(s + ".") for s in SHARED):
        return ("shared",)
    return ("unknown",)


def violations(edges) -> list[str]:
    """The edges that break a layering rule, as readable lines."""
    bad = []
    for src, dst in edges:
        a, b = layer(src), layer(dst)
        if a is None or b is None or a == b:
            continue
        if a == ("unknown",) or b == ("unknown",):
            who = src if a == ("unknown",) else dst
            bad.append(f"{src} -> {dst}: {who} is in no layer and not in the shared allow-list")
        elif a == ("shared",) and b != ("shared",):
            bad.append(f"{src} -> {dst}: a shared module imports only shared modules")
        elif a[0] == "engine" and b[0] in ("games", "studies", "cli", "root"):
            bad.append(f"{src} -> {dst}: the engine never imports games, studies, the cli or the guts root")
        elif a[0] == "games" and len(a) == 2 and (b[0] in ("studies", "cli", "root") or b[0] == "games"):
            if b == ("games",):
                continue  # the games namespace package itself
            bad.append(f"{src} -> {dst}: a game family imports only the engine, guts.errors and guts._validate")
        elif a[0] == "studies" and b[0] == "cli":
            bad.append(f"{src} -> {dst}: studies never import the cli")
    return bad


def module_graph(edges, modules) -> dict:
    """``{module: set of modules it imports}`` over ``modules`` (``a.b`` read as ``a`` when
    ``a.b`` is a name, not a module)."""
    graph = {m: set() for m in modules}
    for src, dst in edges:
        while dst and dst not in modules:
            dst = dst.rpartition(".")[0]
        if dst and src in graph and dst != src:
            graph[src].add(dst)
    return graph


def reach_violations(graph) -> list[str]:
    """Layer rules applied to everything a module reaches (through any chain of imports)."""
    bad = []
    for start in sorted(graph):
        seen, stack = set(), [start]
        while stack:
            for nxt in graph.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        for found in violations([(start, m) for m in sorted(seen)]):
            if "shared allow-list" not in found:  # reported once, by the direct check
                bad.append("reaches " + found)
    return bad


def cycles(graph) -> list[list[str]]:
    """Import cycles: strongly connected components of more than one module (Tarjan)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _modules(root: Path) -> set:
    return {module_name(p, root) for p in root.rglob("*.py")}


def _parent_edges_removed(graph) -> dict:
    """Without the edges from a package's ``__init__`` to its own submodules (lazy exports):
    a submodule importing its package's re-exports is the one accepted loop of that kind."""
    return {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in graph.items()}


def test_package_obeys_the_import_rules():
    unverifiable = []
    edges = import_edges(PACKAGE_DIR, unverifiable)
    # the collector sees real dependencies, including relative, deferred and lazy imports
    assert ("guts.games.guts.coalition", "guts.engine.recursive") in edges
    assert ("guts.studies.table1", "guts.studies.sweep") in edges
    assert ("guts", "guts.games.guts.coalition") in edges  # the root's lazy exports
    graph = module_graph(edges, _modules(PACKAGE_DIR))
    assert violations([(a, b) for a in graph for b in graph[a]]) == []
    assert unverifiable == []
    assert reach_violations(graph) == []
    assert cycles(_parent_edges_removed(graph)) == []


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
        ("guts.games.poker.builder", "guts.games.holdem"),
        ("guts.games.liars_dice", "guts.games.poker.mercer"),
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
        ("guts.games.poker.mercer", "guts.games.poker.builder"),
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
   .  ``print`` passed as a value (``echo=print``) counts too.
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


def test_mercer_has_one_home():
    """Mercer hold'em lives in the poker family only, as ``guts.games.poker.mercer``; no other
    package (``guts.games.mercer``) names it."""
    import importlib
    import importlib.util

    assert importlib.util.find_spec("guts.games.mercer") is None
    assert callable(importlib.import_module("guts.games.poker.mercer").solve)


def _bad_package(tmp_path, files: dict) -> Path:
    """A miniature ``guts`` with the four layers and ``files`` (path -> source)."""
    root = tmp_path / "guts"
    for folder in ("engine", "games", "games/a", "games/b", "studies", "cli"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    for rel, text in files.items():
        (root / rel).write_text(text)
    return root


def _check(root):
    unverifiable = []
    edges = import_edges(root, unverifiable)
    graph = module_graph(edges, _modules(root))
    return (violations([(a, b) for a in graph for b in graph[a]]), reach_violations(graph),
            cycles(_parent_edges_removed(graph)), unverifiable)


def test_back_door_a_module_outside_the_layers(tmp_path):
    """Once, any module outside the layers (here guts/helpers.py) was free: the
    engine could reach a game through it.  Now it must be allow-listed, and is not."""
    root = _bad_package(tmp_path, {"helpers.py": "from guts.games.a import rules\n",
                                   "games/a/rules.py": "X = 1\n",
                                   "engine/solver.py": "from guts import helpers\n"})
    direct, reach, _, _ = _check(root)
    assert any("guts.helpers is in no layer" in v for v in direct)
    assert any(v.startswith("reaches guts.engine.solver -> guts.games.a.rules") for v in reach)


def test_back_door_an_allow_listed_module_importing_a_game(tmp_path):
    root = _bad_package(tmp_path, {"_validate.py": "def f():\n    from guts.games.a import rules\n",
                                   "games/a/rules.py": "X = 1\n",
                                   "engine/solver.py": "from guts._validate import f\n"})
    direct, reach, _, _ = _check(root)
    assert any(v.startswith("guts._validate -> guts.games.a.rules: a shared module") for v in direct)
    assert any(v.startswith("reaches guts.engine.solver -> guts.games.a.rules") for v in reach)


def test_back_door_imports_by_string(tmp_path):
    root = _bad_package(tmp_path, {
        "engine/solver.py": "import importlib\ndef f():\n    return importlib.import_module('guts.games.a.rules')\n",
        "engine/other.py": "def g():\n    return __import__('guts.studies.run')\n",
        "engine/computed.py": "import importlib\ndef h(name):\n    return importlib.import_module(name)\n",
        "engine/__init__.py": "from guts._lazy import lazy_exports\n"
                              "__getattr__, __dir__ = lazy_exports(__name__, {'rules': 'guts.games.b.rules', "
                              "**dict.fromkeys(('x',), '.solver')})\n",
        "games/a/rules.py": "X = 1\n", "games/b/rules.py": "X = 1\n", "studies/run.py": "X = 1\n",
        "_lazy.py": "import importlib\ndef lazy_exports(p, e):\n    return importlib.import_module(p), None\n"})
    direct, _, _, unverifiable = _check(root)
    assert any(v.startswith("guts.engine.solver -> guts.games.a.rules") for v in direct)
    assert any(v.startswith("guts.engine.other -> guts.studies.run") for v in direct)
    assert any(v.startswith("guts.engine -> guts.games.b.rules") for v in direct)   # lazy export
    assert unverifiable == ["guts.engine.computed:3"]                               # not guts._lazy's own


def test_back_door_import_cycles(tmp_path):
    """The engine had one: extensive/tree.py <-> _compiled.py (one side deferred)."""
    root = _bad_package(tmp_path, {"engine/tree.py": "def game():\n    from ._compiled import compile_game\n",
                                   "engine/_compiled.py": "from .tree import game\ndef compile_game():\n    pass\n"})
    assert _check(root)[2] == [["guts.engine._compiled", "guts.engine.tree"]]
    fixed = _bad_package(tmp_path / "fixed", {"engine/nodes.py": "X = 1\n",
                                              "engine/tree.py": "from .nodes import X\ndef game():\n"
                                                                "    from ._compiled import compile_game\n",
                                              "engine/_compiled.py": "from .nodes import X\n"})
    assert _check(fixed)[2] == []
