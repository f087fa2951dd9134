"""Generate the API reference pages at build time (mkdocs-gen-files).

One page per package of the public layers -- ``guts.engine`` (and its sub-packages),
every family under ``guts.games`` and ``guts.studies`` -- with one mkdocstrings block per
public module (a module whose name does not start with ``_``).  Generated, not written by
hand, so a new module or family appears in the reference without editing the docs.
"""
from __future__ import annotations

import ast
from pathlib import Path

import mkdocs_gen_files

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "guts"
LAYERS = ("engine", "games", "studies")


def _docstring_line(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _packages():
    """Yield (dotted name, directory) for every package of the public layers, sorted."""
    for layer in LAYERS:
        for init in sorted((PACKAGE / layer).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT)
            if any(part.startswith("_") for part in rel.parts):
                continue
            if layer == "games" and rel == Path("guts/games"):
                continue
            yield ".".join(rel.parts), init.parent


def _modules(directory: Path):
    return [p for p in sorted(directory.glob("*.py")) if not p.name.startswith("_")]


index = ["# API reference", "",
         "Generated from the docstrings (NumPy style) of every public module of the engine, each game",
         "family and the studies. Names starting with an underscore are private.", ""]
for dotted, directory in _packages():
    page = "api/" + dotted.removeprefix("guts.").replace(".", "/") + ".md"
    lines = [f"# `{dotted}`", "", f"::: {dotted}", "    options:", "      members: false",
             "      show_root_heading: false", ""]
    for module in _modules(directory):
        lines += [f"::: {dotted}.{module.stem}", ""]
    with mkdocs_gen_files.open(page, "w") as fh:
        fh.write("\n".join(lines))
    mkdocs_gen_files.set_edit_path(page, Path("..") / directory.relative_to(ROOT) / "__init__.py")
    first = _docstring_line(directory / "__init__.py")
    index.append(f"- [`{dotted}`]({page.removeprefix('api/')}): {first}")

with mkdocs_gen_files.open("api/index.md", "w") as fh:
    fh.write("\n".join(index) + "\n")

# The figures of results/ (the pages link them as ../results/..., which works on GitHub; the
# hook in docs/hooks.py points those links at this copy inside the site).
for png in sorted((ROOT / "results").rglob("*.png")):
    rel = png.relative_to(ROOT)
    if "runs" in rel.parts:
        continue
    with mkdocs_gen_files.open(str(rel), "wb") as fh:
        fh.write(png.read_bytes())
