"""The user documentation is true: it builds, it cites, and every example in it runs.

Pages: ``README.md`` and every hand-written page under ``docs/``.  ``pycon`` blocks are
doctests (their printed values are compared), ``python`` blocks are executed, and
``bash`` lines that call ``guts`` are checked against the parser; a block preceded by
``<!-- not-run: why, measured time -->`` is skipped (and must say both).
"""
from __future__ import annotations

import argparse
import ast
import doctest
import os
import re
import shlex
import subprocess
import sys
import warnings
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The user documentation: the README and every hand-written page of the site.
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))

FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*not-run:\s*(?P<why>.+?)\s*-->\s*$")


SHELL = ("bash", "sh", "console", "shell", "")


class Block:
    def __init__(self, page, line, lang, body, not_run):
        self.page, self.line, self.lang, self.body, self.not_run = page, line, lang, body, not_run


def blocks(page):
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        prev = before[-1].strip() if before else ""
        nr = NOT_RUN.search(prev)
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").splitlines())
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group("lang"), body,
                         nr.group("why") if nr else None))
    return out


def inline_code(page):
    return re.findall(r"`([^`\n]+)`", FENCE.sub("", page.read_text(encoding="utf-8")))


def cli_invocations(page):
    """Every ``guts ...`` command: lines of shell blocks and inline code spans that start with it."""
    candidates = []
    for b in blocks(page):
        if b.lang in SHELL:
            for line in b.body.splitlines():
                line = line.strip().removeprefix("$ ").split(" #")[0]
                candidates += [part.strip() for part in re.split(r"&&|\|", line)]
    candidates += inline_code(page)
    out = []
    for c in candidates:
        c = c.strip().removeprefix("python -m ")
        if not c.startswith("guts "):
            continue
        try:
            out.append(shlex.split(c)[1:])
        except ValueError:
            continue
    return out


# ---------------------------------------------------------------------------------------
# Citations, not labels
# ---------------------------------------------------------------------------------------
#: "seed" as the repository's label for a source ("seed 004", "the seed's program") --
#: readers outside the repository cannot resolve it.  The random seed (``--seed``,
#: ``seed=``, "Seed 2022" printed by ``guts play``) is a different word.
SOURCE_LABEL = re.compile(r"\bseeds?\b(?!\s*[=(:])(?!\s+\d{4}\b)(?!\s+(?:S|K|0)\b)", re.I)


def _label_hits(text):
    hits = []
    for i, line in enumerate(text.splitlines(), 1):
        # the random seed: --seed S, seed=..., "seed 0", "Seed 2022" (labels are zero-padded: 000-004)
        cleaned = re.sub(r"--seed\b|random[ _]seed|\bseed\s*=|`seed`|\bseed\s+(?!00\d\b)\d+", "", line, flags=re.I)
        if re.search(r"\bseed", cleaned, re.I):
            hits.append((i, line.strip()))
    return hits


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_sources_are_cited_not_labelled(page):
    hits = _label_hits(page.read_text(encoding="utf-8"))
    assert not hits, f"{page.name}: source labels ('seed ...') instead of citations: {hits[:5]}"


def test_label_check_catches_labels():
    assert _label_hits("as the seed's program does") and _label_hits("(seed 004, §2)")
    assert not _label_hits("guts play --seed 2022; fit(random_state=0, seed=1); 50 000 steps, seed 0.")


# ---------------------------------------------------------------------------------------
# Paths and options named in the docs exist
# ---------------------------------------------------------------------------------------
PATH = re.compile(r"^(?:guts|tests|experiments|benchmarks|results|docs|notebooks)/[\w./{},*-]*$")


#: Paths that commands create at run time (git ignores them).
RUNTIME_PATHS = {"results/.cache", "results/runs", "results/runs/", "site", "site/"}


def _expand(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [e for alt in m.group(1).split(",") for e in _expand(path[:m.start()] + alt + path[m.end():])]


def _documented_paths(page):
    out = set()
    for code in inline_code(page):
        for word in code.split():
            word = word.strip("`'\",;:()")
            if PATH.match(word) and "<" not in word:
                out.add(word)
    for b in blocks(page):
        if b.lang in ("bash", "sh", ""):
            for word in re.findall(r"(?:experiments|benchmarks)/[\w.-]+\.py", b.body):
                out.add(word)
    return sorted(out)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_paths_exist(page):
    missing = []
    for path in _documented_paths(page):
        if path in RUNTIME_PATHS or path.startswith("results/runs/"):
            continue
        for p in _expand(path):
            if "*" in p:
                if not list(ROOT.glob(p)):
                    missing.append(p)
            elif not (ROOT / p.rstrip("/")).exists() and not (ROOT / p.split("#")[0]).exists():
                missing.append(p)
    assert not missing, f"{page.name} names paths that do not exist: {missing}"


def _parser_for(words):
    from guts.cli import build_parser

    parser = build_parser()
    path = []
    p = parser
    for w in words:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and w in subs[0].choices:
            p = subs[0].choices[w]
            path.append(w)
        else:
            break
    return path, p


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_options_exist(page):
    bad = []
    for words in cli_invocations(page):
        if not words or not re.fullmatch(r"[a-z][a-z0-9-]*", words[0]):
            continue  # a placeholder (guts COMMAND --help) or a quoted message (guts continuum: error: ...)
        path, p = _parser_for(words)
        if not path:
            bad.append(("unknown command", " ".join(words[:2])))
            continue
        known = {s for a in p._actions for s in a.option_strings}
        for w in words[len(path):]:
            if w.startswith("--"):
                opt = w.split("=")[0]
                if opt not in known:
                    bad.append((" ".join(path), opt))
    assert not bad, f"{page.name} shows options the parser does not have: {bad}"


# ---------------------------------------------------------------------------------------
# Every example executed
# ---------------------------------------------------------------------------------------
def _run_page_examples(page):
    """Run the page's ``pycon`` blocks as doctests and its ``python`` blocks as code, in order, in one namespace."""
    namespace = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    ran = 0
    for b in blocks(page):
        if b.not_run is not None:
            continue
        if b.lang == "pycon":
            test = parser.get_doctest(b.body, namespace, f"{page.name}:{b.line}", str(page), b.line)
            result = runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest copies its globals: carry them to the next block
            assert result.failed == 0, f"{page.name}:{b.line}: {result.failed} example(s) failed (see output)"
            ran += 1
        elif b.lang == "python":
            code = compile(b.body, f"{page.name}:{b.line}", "exec")
            exec(code, namespace)  # noqa: S102 - the documentation's own examples
            ran += 1
    return ran


EXAMPLE_PAGES = [p for p in PAGES if any(b.lang in ("python", "pycon") for b in blocks(p))]


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: p.name)
def test_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes files writes them here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _run_page_examples(page)


def test_not_run_blocks_say_why_and_how_long():
    for page in PAGES:
        for b in blocks(page):
            if b.not_run is not None:
                assert re.search(r"\d", b.not_run), f"{page.name}:{b.line}: not-run without a measured time"


# ---------------------------------------------------------------------------------------
# The site builds, with the API reference of every public function
# ---------------------------------------------------------------------------------------
def _public_functions():
    """(module, name) of every public function and class of the engine, each family and the studies."""
    out = []
    for layer in ("engine", "games", "studies"):
        for path in sorted((ROOT / "guts" / layer).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if any(part.startswith("_") for part in rel.parts):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = None
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                    try:
                        names = set(ast.literal_eval(node.value))
                    except ValueError:
                        names = None
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                    if names is None or node.name in names:
                        out.append((".".join(rel.parts), node.name))
    return out


@pytest.mark.slow
def test_site_builds_strict_with_full_api_reference(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    inventory = (site / "objects.inv").read_bytes()
    header, _, body = inventory.partition(b"zlib.\n")
    text = zlib.decompress(body).decode()
    documented = {line.split()[0] for line in text.splitlines() if line.strip()}
    missing = [f"{m}.{n}" for m, n in _public_functions() if f"{m}.{n}" not in documented]
    assert not missing, f"{len(missing)} public names missing from the API reference: {missing[:20]}"


# ---------------------------------------------------------------------------------------
# Every command example is run: quickly here, or timed by benchmarks/timings.py
# ---------------------------------------------------------------------------------------
#: Examples quick enough to run in the tests (each a few seconds, JIT and imports included).
QUICK = {
    "guts play -N 5 --auto 0.8 --hands 20 --seed 1",
    "guts simulate -N 2",
    "guts simulate -N 15 --player1 0.9",
    "guts mercer sizes",
    "guts poker dividing-point a --pot 1",
    "guts poker continuous --bet 1 --check 90 1",
}
NOT_TIMED = re.compile(r"#.*\b(interactive|needs a (?:Dask )?cluster|placeholder|run by tests/[\w/]+\.py)\b")


def _documented_command_lines():
    """(page, command, comment) of every guts / experiments / benchmarks line in a shell block."""
    out = []
    for page in PAGES:
        for b in blocks(page):
            if b.lang not in SHELL:
                continue
            for raw in b.body.splitlines():
                line = raw.strip().removeprefix("$ ")
                command, _, comment = line.partition(" #")
                command = command.strip()
                if "&&" in command:  # the install line: its guts command is the last part
                    command = command.split("&&")[-1].strip()
                if re.match(r"(guts |python (?:-m guts |experiments/|benchmarks/))", command) and "[" not in command:
                    out.append((page.name, command, comment))
    return out


def _timed_commands():
    import importlib.util

    spec = importlib.util.spec_from_file_location("timings", ROOT / "benchmarks" / "timings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {c for c, _ in module.DOCUMENTED_COMMANDS}


def test_every_command_example_is_run_or_timed():
    timed = _timed_commands()
    missing = [(page, cmd) for page, cmd, comment in _documented_command_lines()
               if cmd not in QUICK and cmd not in timed and not NOT_TIMED.search("#" + comment)]
    assert not missing, ("command examples neither run by the tests (QUICK) nor timed by "
                         f"benchmarks/timings.py (DOCUMENTED_COMMANDS): {missing}")


@pytest.mark.parametrize("command", sorted(QUICK))
def test_quick_command_examples_run(command, tmp_path):
    documented = {cmd for _, cmd, _ in _documented_command_lines()}
    assert command in documented, f"{command!r} is no longer in the docs: remove it from QUICK"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "guts", *shlex.split(command)[1:]], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "nan" not in proc.stdout.lower().split()
