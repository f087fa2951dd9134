"""The committed results/table1.csv is exactly what the default command writes (issue 23)."""
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


@pytest.mark.slow
def test_default_run_rewrites_the_committed_table_byte_for_byte(tmp_path):
    run_table1(range(1, 16), out=tmp_path, progress=False)
    assert (tmp_path / "table1.csv").read_bytes() == (RESULTS / "table1.csv").read_bytes()
