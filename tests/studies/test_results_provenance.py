"""Provenance of the committed ``results/``: one place for benchmark outputs, one format for commands.

Every ``.meta.json`` and ``.manifest.json`` records in ``"command"`` the shell command that
regenerates its files from the repository root: ``guts <subcommand> ...`` (a real subcommand of
the command line) or ``python <script> ...`` (an existing script), with no absolute path of the
machine that wrote it.  The writers (:func:`guts._atomic.command_line`, used by
:func:`guts.studies.output.write_meta` and by the manifests) produce that form; the committed
files are checked here.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import pytest

from guts._atomic import Publication, command_line

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
#: Strings that name a folder of the machine that wrote a file, not of the repository.
MACHINE_PATHS = ("/work/", "/tmp/")


def _records():
    """Every committed meta file and manifest under results/ (not run folders, caches or staging)."""
    out = []
    for p in sorted(RESULTS.rglob("*.json")):
        parts = p.relative_to(RESULTS).parts
        if parts[0] == "runs" or any(part.startswith(".") for part in parts):
            continue
        if p.name.endswith((".meta.json", ".manifest.json")):
            out.append(p)
    return out


RECORDS = _records()


def _commands(obj):
    """Every ``"command"`` value in a JSON object, nested ones (``"also"``) included."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "command":
                yield v
            else:
                yield from _commands(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _commands(v)


def _guts_leaf(words):
    """The subcommand path ``words`` walks in the command line's parser, and whether it ends at a leaf."""
    from guts.cli import build_parser

    p, path = build_parser(), []
    for w in words:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or w not in subs[0].choices:
            break
        p = subs[0].choices[w]
        path.append(w)
    leaf = not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)
    return path, leaf, {s for a in p._actions for s in a.option_strings}


def command_problem(cmd) -> str | None:
    """Why ``cmd`` is not a command that regenerates a file from the repository root, or None."""
    if not isinstance(cmd, str):
        return f"not a string: {cmd!r}"
    words = shlex.split(cmd)
    if not words or words[0] not in ("guts", "python"):
        return "does not begin with 'guts ' or 'python '"
    if words[0] == "python":
        if len(words) < 2 or not (ROOT / words[1]).is_file():
            return "names no script of the repository"
        return None
    path, leaf, options = _guts_leaf(words[1:])
    if not path or not leaf:
        return "names no subcommand of guts"
    unknown = [w.split("=")[0] for w in words[1 + len(path):] if w.startswith("--") and w.split("=")[0] not in options]
    return f"options guts {' '.join(path)} does not have: {unknown}" if unknown else None


def test_records_found():
    assert len(RECORDS) > 0


def test_no_benchmark_output_at_the_top_of_results():
    top = [p.name for p in RESULTS.iterdir() if p.is_file() and p.name.startswith("benchmark")]
    assert top == [], "benchmark outputs belong in results/benchmarks/"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.relative_to(RESULTS).as_posix())
def test_record_names_the_command_that_regenerates_it(path):
    data = json.loads(path.read_text())
    commands = list(_commands(data))
    assert "command" in data, "no command"
    bad = [(c, why) for c in commands if (why := command_problem(c)) is not None]
    assert bad == []


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.relative_to(RESULTS).as_posix())
def test_record_names_no_folder_of_the_machine(path):
    text = path.read_text()
    assert [s for s in MACHINE_PATHS if s in text] == []


def test_meta_files_name_their_own_file():
    """A meta file's ``file`` is the artefact beside it (moved files were renamed in their meta too)."""
    bad = []
    for p in RECORDS:
        if p.name.endswith(".meta.json"):
            name = json.loads(p.read_text()).get("file")
            if name is not None and not (p.parent / name).is_file():
                bad.append(p.relative_to(RESULTS).as_posix())
    assert bad == []


BENCHMARKS = RESULTS / "benchmarks"


def _benchmark_outputs():
    """Every committed output under results/benchmarks/ (not the meta and run records beside them)."""
    return sorted(p.name for p in BENCHMARKS.iterdir()
                  if p.is_file() and not p.name.startswith(".") and not p.name.endswith(".json"))


def _described(folder: Path) -> dict:
    """File name -> the meta record that describes it (its own, or an ``"also"`` entry of a shared one)."""
    out = {}
    for m in folder.glob("*.meta.json"):
        data = json.loads(m.read_text())
        for rec in [data, *(data.get("also") or [])]:
            if isinstance(rec, dict) and rec.get("file"):
                out[rec["file"]] = {"command": data.get("command"), **rec}
    return out


def _documented_benchmark_outputs():
    """The results/benchmarks/ files the README and docs/ name (globs such as ``lp_*`` left out)."""
    import re

    pattern = re.compile(r"results/benchmarks/([A-Za-z0-9_.-]+\.[A-Za-z0-9]+)")
    names = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        names.update(pattern.findall(doc.read_text()))
    return sorted(names)


@pytest.mark.parametrize("name", _benchmark_outputs())
def test_every_benchmark_output_has_a_meta_file_with_its_command(name):
    """Each output of results/benchmarks/ is described by a meta file (:func:`guts.studies.output.write_meta`)
    whose command runs a script of the repository, and whose hash, where recorded, is the file's."""
    from guts.studies.output import file_sha256

    rec = _described(BENCHMARKS).get(name)
    assert rec is not None, f"no {name.rsplit('.', 1)[0]}.meta.json"
    assert command_problem(rec.get("command")) is None
    if "sha256" in rec:
        assert rec["sha256"] == file_sha256(BENCHMARKS / name), "the meta file describes another version of it"


@pytest.mark.parametrize("name", _documented_benchmark_outputs())
def test_benchmark_outputs_the_docs_name_are_committed(name):
    assert (BENCHMARKS / name).is_file()


# ---------------------------------------------------------------------------------------
# The writer
# ---------------------------------------------------------------------------------------
def test_command_line_of_the_entry_point_and_of_a_script():
    main = str(ROOT / "guts" / "__main__.py")
    assert command_line([main, "table1", "--quiet"]) == "guts table1 --quiet"
    assert command_line([str(Path(sys.prefix) / "bin" / "guts"), "fit"]) == "guts fit"
    script = str(ROOT / "benchmarks" / "lp_big.py")
    assert command_line([script, "--xlarge"]) == "python benchmarks/lp_big.py --xlarge"


def test_command_line_writes_paths_inside_the_repository_relative_to_it():
    out = str(ROOT / "results" / "holdem" / "reraise_R40")
    cmd = command_line([str(ROOT / "experiments" / "holdem_reraise.py"), "--out", out])
    assert cmd == "python experiments/holdem_reraise.py --out results/holdem/reraise_R40"
    assert command_problem(cmd) is None
    # a relative folder is kept as given
    assert command_line([str(ROOT / "guts" / "__main__.py"), "table1", "--out", "x/y"]) == "guts table1 --out x/y"


def test_manifest_records_its_set_and_the_command(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(ROOT / "guts" / "__main__.py"), "table1", "--out", str(ROOT / "results")])
    pub = Publication(tmp_path, "table1").open()
    try:
        pub.stage(tmp_path / "table1.csv").write_text("N\n1\n")
        pub.commit()
    finally:
        pub.abort()
    m = json.loads((tmp_path / "table1.manifest.json").read_text())
    assert m["set"] == "table1"
    assert m["command"] == "guts table1 --out results"
    assert command_problem(m["command"]) is None
