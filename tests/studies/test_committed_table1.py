"""The committed results/table1.csv is what the default command writes."""
from pathlib import Path

import pytest

from guts.studies.output import parameter_differences
from guts.studies.table1 import FULL_RUN, full_run_parameters, run_table1

RESULTS = Path(__file__).resolve().parents[2] / "results"


def test_only_the_default_solver_is_the_full_run():
    sizes = range(1, 16)
    assert not parameter_differences(full_run_parameters(sizes, 101, "pseudo-bloc", "oracle", "newton"), FULL_RUN)
    for solver in ("lp", "fp"):  # exact or not, another solver's file is a run of its own
        assert "solver" in parameter_differences(full_run_parameters(sizes, 101, "pseudo-bloc", solver, "newton"),
                                                 FULL_RUN)


#: Columns that follow the floating-point path of the solve (the last bits of a sum, hence the
#: count of Newton steps or oracle rounds before a tolerance is met) and may differ between
#: CPUs (SIMD widths of BLAS and HiGHS) with the same library versions.
PATH_COLUMNS = ("iterations", "coalition_iterations", "num_solves")
#: The committed values must agree to well inside their certificates (widths about 1e-11).
VALUE_ATOL = 1e-13


@pytest.mark.slow
def test_default_run_rewrites_the_committed_table(tmp_path):
    """The default command reproduces the committed table: the same rows, strategies and
    statuses, every number to VALUE_ATOL (the committed file was written on another CPU; the
    last bits of a float and the iteration counts are not portable across machines)."""
    import numpy as np
    import pandas as pd

    run_table1(range(1, 16), out=tmp_path, progress=False)
    new = pd.read_csv(tmp_path / "table1.csv", keep_default_na=False)
    old = pd.read_csv(RESULTS / "table1.csv", keep_default_na=False)
    assert list(new.columns) == list(old.columns) and len(new) == len(old)
    for col in old.columns:
        if col in PATH_COLUMNS:
            continue
        if pd.api.types.is_float_dtype(old[col]):
            np.testing.assert_allclose(new[col], old[col], rtol=0, atol=VALUE_ATOL, err_msg=col)
        else:
            assert new[col].astype(str).tolist() == old[col].astype(str).tolist(), col
    # the certified interval of each row contains the other run's value
    assert np.all(new.certified_lower <= old.value_lower + VALUE_ATOL)
    assert np.all(old.value_upper - VALUE_ATOL <= new.certified_upper)


def test_a_rerun_leaves_the_set_byte_identical(tmp_path):
    """Re-running a command on the same inputs rewrites its set byte for byte (so the README's
    first command leaves ``git status`` clean on the machine that committed the set): the CSV,
    the meta file and the manifest hold no time of day or wall time (their command is the one that
    regenerates the set, the same on every run of it); those go to the run record
    ``table1.run.json``, which is not part of the set."""
    import json

    run_table1([1, 2], mesh=21, out=tmp_path, progress=False)
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.endswith(".run.json")}
    record = json.loads((tmp_path / "table1.run.json").read_text())
    run_table1([1, 2], mesh=21, out=tmp_path, progress=False)
    again = {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.endswith(".run.json")}
    assert set(first) == {"table1.csv", "table1.meta.json", "table1.manifest.json"}
    assert again == first
    manifest = json.loads(first["table1.manifest.json"])
    assert "table1.run.json" not in manifest["files"]
    assert {"created_utc", "wall_seconds", "row_seconds", "command"} <= set(record)
    assert not {"created_utc", "wall_seconds", "row_seconds"} & set(json.loads(first["table1.meta.json"]))


def test_committed_set_has_no_run_specific_fields():
    import json

    meta = json.loads((RESULTS / "table1.meta.json").read_text())
    manifest = json.loads((RESULTS / "table1.manifest.json").read_text())
    assert not {"created_utc", "wall_seconds", "row_seconds", "python"} & set(meta)
    assert not {"published_utc", "started_utc", "command_line"} & set(manifest)
    assert manifest["complete"] is True and not manifest.get("retroactive")
