"""Outputs: a partial run never replaces a full artefact, readers refuse partial inputs,
files get the permissions of a normal write."""
import json
import os
import stat

import pandas as pd
import pytest

import guts.studies.table1 as t1
from guts.cli import main
from guts.errors import GutsInputError
from guts.studies.output import (AUTO, artefact_status, check_full, plan_output, save_figure, write_csv,
                                 write_meta)

SMALL = ["--sizes", "1-2", "--mesh", "11", "--quiet"]


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A fresh 'clone': results/table1.csv written by a full run (FULL_RUN shrunk to keep it fast)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(t1, "FULL_RUN", dict(t1.FULL_RUN, sizes=[1, 2, 3], mesh=11))
    assert main(["table1", "--sizes", "1-3", "--mesh", "11", "--quiet"]) == 0
    return tmp_path


def test_full_default_run_regenerates_results_and_says_so(repo, capsys):
    assert main(["table1", "--sizes", "1-3", "--mesh", "11", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "full default run: regenerating results/table1.csv" in out
    assert len(pd.read_csv(repo / "results" / "table1.csv")) == 3
    assert artefact_status(repo / "results" / "table1.csv") == "full"
    assert not (repo / "results" / "runs").exists()


def test_partial_run_goes_to_a_fresh_folder(repo, capsys):
    before = (repo / "results" / "table1.csv").read_bytes()
    assert main(["table1", *SMALL]) == 0
    assert (repo / "results" / "table1.csv").read_bytes() == before
    runs = list((repo / "results" / "runs").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("table1-")
    assert len(pd.read_csv(runs[0] / "table1.csv")) == 2
    meta = json.loads((runs[0] / "table1.meta.json").read_text())
    assert meta["partial"] is True and meta["differs_from_full_run"]["sizes"]["run"] == [1, 2]
    assert "partial run" in capsys.readouterr().out
    assert main(["table1", *SMALL]) == 0  # a second one: another folder, the first kept
    assert len(list((repo / "results" / "runs").iterdir())) == 2


def test_partial_run_cannot_overwrite_a_full_artefact(repo, capsys):
    target = repo / "results" / "table1.csv"
    before = target.read_bytes(), (repo / "results" / "table1.meta.json").read_bytes()
    for variant in (SMALL, ["--mesh", "5", "--sizes", "1-3", "--quiet"], ["--solver", "fp", "--fp-iterations", "5",
                                                                            "--sizes", "1-3", "--mesh", "11"]):
        assert main(["table1", *variant, "--out", "results"]) == 2
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == (2 if "fp" in variant else 1)  # fp: a warning first (the paper's slow method)
        assert lines[-1].startswith("guts table1: error: output 'results/table1.csv' holds a full run's result")
        assert "; accepted: " in lines[-1]
    assert (target.read_bytes(), (repo / "results" / "table1.meta.json").read_bytes()) == before
    # a file of unknown provenance (no meta) is protected too; a partial one may be replaced
    other = repo / "mine"
    other.mkdir()
    (other / "table1.csv").write_text("N\n1\n")
    assert main(["table1", *SMALL, "--out", str(other)]) == 2
    (other / "table1.csv").unlink()
    assert main(["table1", *SMALL, "--out", str(other)]) == 0
    assert main(["table1", *SMALL, "--out", str(other)]) == 0


def test_fit_refuses_partial_inputs(repo, capsys):
    # large_n.csv from a partial curve run (2 sizes): fit refuses it, or with --allow-partial
    # warns and writes its partial fit beside, never over, the committed fit
    df = pd.DataFrame({"N": [2, 3, 4, 5, 6], "value": [0.0133, 0.0338, 0.0515, 0.0656, 0.0766]})
    plan = plan_output("curve", "results", {"sizes": [2, 3, 4, 5, 6]}, {"sizes": list(range(1, 16))})
    write_csv(df, repo / "results" / "large_n.csv")
    write_meta(repo / "results" / "large_n.csv", {"sizes": [2, 3, 4, 5, 6]}, plan=plan)
    (repo / "results" / "fit.csv").write_text("committed\n")
    write_meta(repo / "results" / "fit.csv", {})
    assert main(["fit", "--bootstrap", "0", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("guts fit: error: --large-n 'results/large_n.csv' is a partial run (sizes 2,3,4,5,6")
    assert main(["fit", "--bootstrap", "0", "--quiet", "--allow-partial"]) == 0
    out = capsys.readouterr().out
    assert "warning: --large-n 'results/large_n.csv' is a partial run" in out and "results/runs/fit-" in out
    assert "(no bootstrap)" in out and "nan, nan" not in out
    assert (repo / "results" / "fit.csv").read_text() == "committed\n"
    assert main(["fit", "--table1", str(repo / "nope.csv"), "--allow-partial", "--quiet"]) == 2


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_have_normal_permissions(tmp_path, umask, mode):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    old = os.umask(umask)
    try:
        csv = write_csv(pd.DataFrame({"a": [1]}), tmp_path / "x.csv")
        meta = write_meta(csv, {"a": 1})
        fig = plt.figure()
        png = save_figure(fig, tmp_path / "x.png")
        plt.close(fig)
    finally:
        os.umask(old)
    for p in (csv, meta, png):
        assert stat.S_IMODE(p.stat().st_mode) == mode, p
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_plan_output_in_python(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    full = {"sizes": [1, 2, 3]}
    assert plan_output("x", AUTO, {"sizes": range(1, 4)}, full).folder.as_posix() == "results"
    part = plan_output("x", AUTO, {"sizes": [1]}, full)
    assert part.folder.parent.as_posix() == "results/runs" and not part.full
    assert plan_output("x", None, {"sizes": [1]}, full).folder is None
    with pytest.raises(GutsInputError, match="does not exist; accepted"):
        check_full(tmp_path / "missing.csv")


@pytest.mark.slow
def test_failed_dask_connection_leaves_no_cache_folder(tmp_path):
    from guts.studies.sweep import run_sweep

    with pytest.raises(GutsInputError, match="cannot connect"):
        run_sweep(abs, [1], backend="dask", scheduler="tcp://127.0.0.1:9", cache=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600)])
def test_published_files_have_normal_permissions_and_meta_hashes_the_published_file(tmp_path, umask, mode):
    """Through the staging folder (0700) too, files get a normal write's mode, and each meta file's
    SHA-256 is that of the file published beside it (computed on the staged copy)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from guts.studies.output import file_sha256, publish

    old = os.umask(umask)
    try:
        with publish(tmp_path, "demo"):
            csv = write_csv(pd.DataFrame({"a": [1]}), tmp_path / "x.csv")
            meta = write_meta(csv, {"a": 1})
            fig = plt.figure()
            png = save_figure(fig, tmp_path / "y.png")
            plt.close(fig)
            assert not csv.exists() and not png.exists()  # staged, not yet published
    finally:
        os.umask(old)
    for p in (csv, meta, png, tmp_path / "demo.manifest.json"):
        assert stat.S_IMODE(p.stat().st_mode) == mode, p
    assert json.loads(meta.read_text())["sha256"] == file_sha256(csv)
    assert artefact_status(csv) == "full"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left
