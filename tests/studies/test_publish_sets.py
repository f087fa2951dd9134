"""A command's files are published as one set: staged privately, renamed into place,
manifest written last; readers accept a file only as part of a complete set.

The interruption is simulated at every step of a publication (a raise where
``guts._atomic._before_step`` is called), and the readers and the interrupt message are
checked against what is actually on disk.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import guts._atomic as atomic
from guts.cli import main
from guts.errors import GutsInputError
from guts.studies.output import (artefact_status, check_full, publish, remove_stale_temporaries, set_status,
                                 write_csv, write_meta)

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
TABLE1 = ["table1", "--mesh", "11", "--quiet"]
NAMES = ["table1.csv", "table1.meta.json"]


def _version(folder: Path, name: str) -> str | None:
    """Which run a file is from: the old one (sizes 1-3) or the new one (sizes 1-2); None: missing."""
    p = folder / name
    if not p.exists():
        return None
    n = len(pd.read_csv(p)) if name.endswith(".csv") else len(json.loads(p.read_text())["parameters"]["sizes"])
    return {3: "old", 2: "new"}[n]


def _leftovers(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _published_names(message: str) -> list:
    """The files the interrupt message says were published (parsed back from its one line)."""
    if "published nothing" in message:
        return []
    m = re.search(r"published the complete set \S+ in \S+/: (.*?); nothing else", message) or \
        re.search(r"published (.*?) in \S+/ but not ", message)
    assert m, message
    return [] if m.group(1) == "no file" else m.group(1).split(", ")


def _steps(tmp_path, monkeypatch) -> list:
    """The steps of publishing table1 (recorded on one uninterrupted run)."""
    seen = []
    monkeypatch.setattr(atomic, "_before_step", lambda pub, step: seen.append(step))
    assert main([*TABLE1, "--sizes", "1-2", "--out", str(tmp_path / "count")]) == 0
    monkeypatch.undo()
    return seen


def test_interrupt_at_every_step_never_shows_a_mixed_set(tmp_path, monkeypatch, capsys):
    steps = _steps(tmp_path, monkeypatch)
    assert steps == ["manifest: incomplete", "rename table1.csv", "rename table1.meta.json",
                     "manifest: complete", "clean-up"]
    capsys.readouterr()
    for k, step in enumerate(steps):
        folder = tmp_path / f"k{k}"
        assert main([*TABLE1, "--sizes", "1-3", "--out", str(folder)]) == 0  # the old set
        assert [_version(folder, n) for n in NAMES] == ["old", "old"]

        def crash(pub, label, k=k):
            if label == steps[k]:
                raise KeyboardInterrupt

        monkeypatch.setattr(atomic, "_before_step", crash)
        assert main([*TABLE1, "--sizes", "1-2", "--out", str(folder)]) == 130
        monkeypatch.undo()
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("guts table1: interrupted; "), err
        now = {n: _version(folder, n) for n in NAMES}  # a half-written file would not parse
        replaced = sorted(n for n in NAMES if now[n] == "new")
        # the message names exactly the files whose new version is visible
        assert sorted(_published_names(err[0])) == replaced, (step, err[0])
        # readers: a file is accepted only when every file of its set is from one run
        accepted = [n for n in NAMES if set_status(folder / n).ok]
        if accepted:
            assert len(set(now.values())) == 1, (step, now)
        if 0 < len(replaced) < len(NAMES) or step == "manifest: complete":
            assert accepted == [], step
            assert artefact_status(folder / "table1.csv") == "incomplete"
            with pytest.raises(GutsInputError, match="not part of a complete published set"):
                check_full(folder / "table1.csv")
            assert "the set is incomplete" in err[0]
        else:  # before the first rename: the old set stands; after the manifest: the new one
            assert accepted == NAMES, step
        assert _leftovers(folder) == [], step  # no staging folder, no temporary file


def test_ctrl_c_during_the_renames_is_delivered_after_the_set_is_published(tmp_path, monkeypatch, capsys):
    def ctrl_c(pub, label):
        if label == "rename table1.csv":
            os.kill(os.getpid(), signal.SIGINT)  # held back until the publication is complete

    monkeypatch.setattr(atomic, "_before_step", ctrl_c)
    assert main([*TABLE1, "--sizes", "1", "--out", str(tmp_path)]) == 130
    err = capsys.readouterr().err
    assert "published the complete set table1.manifest.json" in err and "table1.csv, table1.meta.json" in err
    assert all(set_status(tmp_path / n).ok for n in NAMES)


def test_error_in_a_later_stage_publishes_nothing(tmp_path, monkeypatch, capsys):
    """continuum: bad input found in the refinement stage -> exit 2, continuum.csv not published."""
    import guts.studies.continuum as study

    def refuse(*a, **k):
        raise GutsInputError("the 1 v. 2 game (mesh 5000) needs about 25 GB")

    monkeypatch.setattr(study, "_refinement_item", refuse)
    assert main(["continuum", "--sizes", "1", "--meshes", "21", "--out", str(tmp_path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["guts continuum: error: the 1 v. 2 game (mesh 5000) needs about 25 GB"]
    assert list(tmp_path.iterdir()) == []


def _set(folder, name, files: dict):
    with publish(folder, name) as pub:
        for f, v in files.items():
            write_csv(pd.DataFrame({"x": [v]}), Path(folder) / f)
            write_meta(Path(folder) / f, {"x": v})
    return pub


def test_tampered_file_is_refused_with_its_whole_set(tmp_path, capsys):
    _set(tmp_path, "demo", {"a.csv": 1, "b.csv": 2})
    assert {set_status(tmp_path / n).state for n in ("a.csv", "a.meta.json", "b.csv")} == {"published"}
    manifest = json.loads((tmp_path / "demo.manifest.json").read_text())
    assert manifest["complete"] is True
    assert sorted(manifest["files"]) == ["a.csv", "a.meta.json", "b.csv", "b.meta.json"]
    (tmp_path / "b.csv").write_text("x\n3\n")
    for n in ("a.csv", "b.csv"):  # a.csv is intact but its set is mixed now
        st = set_status(tmp_path / n)
        assert st.state == "modified" and "b.csv was changed" in st.detail
        assert artefact_status(tmp_path / n) == "incomplete"
    with pytest.raises(GutsInputError, match="b.csv was changed after demo.manifest.json was written"):
        check_full(tmp_path / "a.csv")
    # a reader of the command line: guts fit refuses it even with --allow-partial
    t1 = tmp_path / "table1.csv"
    assert main([*TABLE1, "--sizes", "1-3", "--out", str(tmp_path / "t")]) == 0
    t1 = tmp_path / "t" / "table1.csv"
    t1.write_bytes(t1.read_bytes().replace(b"0.5", b"0.6", 1))
    capsys.readouterr()
    assert main(["fit", "--table1", str(t1), "--large-n", str(tmp_path / "none.csv"), "--out", str(tmp_path / "f"),
                 "--bootstrap", "0", "--quiet", "--allow-partial"]) == 2
    assert "is not part of a complete published set (table1.csv was changed" in capsys.readouterr().err


def test_files_a_rerun_does_not_write_again_are_withdrawn(tmp_path):
    _set(tmp_path, "demo", {"a.csv": 1, "b.csv": 2})
    _set(tmp_path, "demo", {"a.csv": 5})
    assert set_status(tmp_path / "a.csv").ok
    st = set_status(tmp_path / "b.csv")
    assert st.state == "withdrawn" and artefact_status(tmp_path / "b.csv") == "incomplete"
    assert json.loads((tmp_path / "demo.manifest.json").read_text())["withdrawn"] == ["b.csv", "b.meta.json"]


def test_legacy_file_is_read_with_a_warning(tmp_path):
    write_csv(pd.DataFrame({"x": [1]}), tmp_path / "old.csv")  # outside any publication
    write_meta(tmp_path / "old.csv", {"x": 1})
    notes = []
    assert check_full(tmp_path / "old.csv", warn=notes.append) == "full"
    assert set_status(tmp_path / "old.csv").state == "legacy"
    assert len(notes) == 1 and "legacy (no manifest lists it)" in notes[0]


def test_nested_publication_joins_the_outer_set(tmp_path):
    with publish(tmp_path, "outer") as outer:
        write_csv(pd.DataFrame({"x": [1]}), tmp_path / "a.csv")
        with publish(tmp_path, "inner") as inner:
            write_csv(pd.DataFrame({"x": [2]}), tmp_path / "b.csv")
        assert inner is outer and not (tmp_path / "b.csv").exists()  # staged, not yet visible
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv", "outer.manifest.json"]


def test_stale_staging_of_a_killed_run_is_removed_and_a_live_one_kept(tmp_path):
    (tmp_path / ".guts-staging-table1-12345-abcd").mkdir()
    (tmp_path / ".guts-staging-table1-12345-abcd" / "table1.csv").write_text("N\n1\n")
    (tmp_path / ".table1.csv.0123abcd.tmp").write_text("stale")
    with publish(tmp_path, "demo") as pub:
        assert _leftovers(tmp_path) == [pub.staging.name]
        assert remove_stale_temporaries(tmp_path) == []  # the open publication's own folder stays
    assert _leftovers(tmp_path) == []


def test_a_killed_run_leaves_no_visible_file_and_the_next_run_cleans_up(tmp_path, capsys):
    """SIGKILL while files are staged (the lock held): a second run is refused; once the holder is
    dead, the next run removes its staging folder and publishes."""
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import time, pandas as pd; from guts.studies.output import publish, write_csv; "
        f"p = publish({str(out)!r}, 'table1'); p.__enter__(); "
        f"write_csv(pd.DataFrame({{'N': [9]}}), {str(out)!r} + '/table1.csv'); "
        "print('staged', flush=True); time.sleep(60)")], stdout=subprocess.PIPE, env=ENV)
    try:
        assert holder.stdout.readline().strip() == b"staged"
        assert [p.name.startswith(".guts-staging-table1-") for p in out.iterdir()] == [True]
        assert main([*TABLE1, "--sizes", "1", "--out", str(out)]) == 2
        assert "is in use by another guts run" in capsys.readouterr().err
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert [p.name for p in out.iterdir() if not p.name.startswith(".")] == []  # nothing was published
    assert main([*TABLE1, "--sizes", "1", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["table1.csv", "table1.manifest.json", "table1.meta.json",
                                                     "table1.run.json"]


def test_every_committed_result_is_part_of_a_complete_set_or_declared_legacy():
    """results/: each file is in a complete set whose every hash matches (the readers' check), or
    written outside sets by a script listed in LEGACY.  A file regenerated without its command
    (edited, or written by old code) fails here: rerun its command, or
    ``python experiments/write_manifests.py`` for files committed before manifests."""
    from fnmatch import fnmatch

    from guts.studies.committed_sets import COMMITTED_SETS, LEGACY

    root = REPO / "results"
    files = [p for p in root.rglob("*") if p.is_file() and not any(
        part.startswith(".") or part == "runs" for part in p.relative_to(root).parts)]
    assert files
    bad = []
    for p in files:
        rel = p.relative_to(root).as_posix()
        # run records (``*.run.json``: a run's time and versions, not tracked) belong to no set
        if p.name.endswith((".manifest.json", ".run.json")) or any(fnmatch(rel, pat) for pat in LEGACY):
            continue
        st = set_status(p)
        if not st.ok:
            bad.append(f"{rel}: {st.state} {st.detail}")
    assert bad == []
    for sub, sets in COMMITTED_SETS.items():
        for command, names in sets.items():
            m = json.loads((root / sub / f"{command}.manifest.json").read_text())
            assert sorted(m["files"]) == sorted(names), (sub, command)


def test_error_after_a_published_set_and_loose_files_are_named(tmp_path, capsys):
    """The guard reports from the record of what was written, never assumes 'nothing'."""
    from guts.cli.guard import guarded

    def publish_then_fail():
        _set(tmp_path / "a", "first", {"x.csv": 1})
        raise GutsInputError("bad size 0; accepted: >= 1")

    assert guarded("guts demo", publish_then_fail) == (2, None)
    err = capsys.readouterr().err.strip()
    assert err.startswith("guts demo: error: bad size 0; accepted: >= 1 (published the complete set "
                          "first.manifest.json in ") and err.endswith(": x.csv, x.meta.json; nothing else before "
                                                                      "the error)")

    def loose_then_interrupted():
        (tmp_path / "b").mkdir()
        write_csv(pd.DataFrame({"x": [1]}), tmp_path / "b" / "y.csv")  # outside any publication
        raise KeyboardInterrupt

    assert guarded("guts demo", loose_then_interrupted) == (130, None)
    err = capsys.readouterr().err.strip()
    assert err == f"guts demo: interrupted; wrote outside any set: {tmp_path / 'b' / 'y.csv'}; nothing else"


def test_bot_table_from_a_changed_set_warns(tmp_path):
    from guts.studies.bot import load_bot_strategy

    assert main([*TABLE1, "--sizes", "1-2", "--out", str(tmp_path)]) == 0
    table = tmp_path / "table1.csv"
    load_bot_strategy(table, 2)  # published and intact: no warning (warnings are errors in the tests)
    with open(table, "a") as fh:
        fh.write("\n")  # same rows for pandas, another file for the manifest
    with pytest.warns(UserWarning, match="is not part of a complete published set .table1.csv was changed"):
        bot = load_bot_strategy(table, 2)
    assert bot.certified_lower <= bot.value + 1e-5


def test_figure_sharing_its_csv_meta_file_is_described_inside_it(tmp_path):
    """``x.csv`` and ``x.png`` both map to ``x.meta.json``: within a set the figure's description
    goes under "also" instead of replacing the table's (which lost its parameters before)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from guts.studies.output import file_sha256, save_figure

    with publish(tmp_path, "demo"):
        write_csv(pd.DataFrame({"x": [1]}), tmp_path / "x.csv")
        write_meta(tmp_path / "x.csv", {"rows": 1})
        fig = plt.figure()
        save_figure(fig, tmp_path / "x.png")
        plt.close(fig)
        write_meta(tmp_path / "x.png", {"source": "x.csv"})
    meta = json.loads((tmp_path / "x.meta.json").read_text())
    assert meta["file"] == "x.csv" and meta["parameters"] == {"rows": 1}
    assert meta["sha256"] == file_sha256(tmp_path / "x.csv")
    assert meta["also"]["x.png"]["parameters"] == {"source": "x.csv"}
    assert meta["also"]["x.png"]["sha256"] == file_sha256(tmp_path / "x.png")
