"""Committed artefacts reproduce from their commands (the fast ones, recomputed here).

Each case recomputes part of a file in ``results/`` with the library call its command
makes and compares: values to their certificates or stated tolerances, verdict columns
exactly, timing columns ignored.  A file that was not regenerated after a change to the
code or to its inputs fails here (results/dividing_point/ordering.csv and results/fit.csv
were such files: their verdicts and ΔAICc did not follow from the committed code and inputs).
"""
import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _committed(name):
    path = RESULTS / name
    if not path.is_file():
        pytest.skip(f"{name} is not in this checkout")
    return pd.read_csv(path)


def test_reproduce_dividing_point_sweep():
    """results/dividing_point/sweep.csv: every game at P = 1..10 by the patent's order
    (exact rationals: the points and values as text, the verdicts exactly)."""
    from guts.games.dividing_point.method import CERTIFICATE_TOL
    from guts.studies.dividing_point import sweep

    old = _committed("dividing_point/sweep.csv")
    new, _ = sweep(lp_mesh=0)
    old, new = old.set_index(["game", "pot"]), new.set_index(["game", "pot"])
    assert list(old.index) == list(new.index)
    assert (old["converged"] == new["converged"]).all() and (old["order_ok"] == new["order_ok"]).all()
    assert (old["value_exact"].astype(str) == new["value_exact"].astype(str)).all()
    assert [json.loads(t) for t in old["exact_points"]] == [json.loads(t) for t in new["exact_points"]]
    np.testing.assert_allclose(new["value"], old["value"], rtol=0, atol=1e-12)
    assert (new["certificate"] <= CERTIFICATE_TOL).all() and (old["certificate"] <= CERTIFICATE_TOL).all()


def _sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_reproduce_fit_inputs_and_point_estimates():
    """results/fit.csv was fitted to the committed table1.csv and large_n.csv (their SHA-256
    are in its meta file), and its point estimates, AICc and model ranking follow from them."""
    from guts.studies.fit import compare_models, value_curve_datasets

    old = _committed("fit.csv")
    meta = json.loads((RESULTS / "fit.meta.json").read_text())
    shas = meta["parameters"].get("input_sha256") or meta.get("input_sha256")
    assert shas, "fit.meta.json does not record its inputs"
    assert shas["large_n"] == _sha(RESULTS / "large_n.csv")
    assert shas["table1"] == _sha(RESULTS / "table1.csv")
    data = value_curve_datasets(RESULTS / "table1.csv", RESULTS / "large_n.csv")
    for name in ("continuous-tail",):  # the fits that moved (the others: the SHA-256 check above)
        N, V, _ = data[name]
        fits = compare_models(N, V, bootstrap=0)
        rows = old[old.dataset == name].reset_index(drop=True)
        assert list(rows["model"]) == [f.model for f in fits]  # the ranking by AICc, exactly
        for f, (_, r) in zip(fits, rows.iterrows()):
            assert f.a == pytest.approx(r["a"], rel=1e-6)
            assert f.r2 == pytest.approx(r["r2"], abs=1e-9)
            assert f.aicc == pytest.approx(r["aicc"], abs=0.05)
        best = fits[0].aicc
        np.testing.assert_allclose([f.aicc - best for f in fits], rows["delta_aicc"], atol=0.1)


def test_reproduce_teams_small_meshes():
    """results/teams.csv, the 2 v. 2 rows on 21 thresholds (value 0, paper §1.2)."""
    from guts.studies.teams import solve_case

    old = _committed("teams.csv")
    rows = old[(old.m == 2) & (old.n == 2) & (old.mesh == 21)]
    assert len(rows)
    for _, r in rows.iterrows():
        new = solve_case(2, 2, 21, r["structure"])
        assert bool(new["converged"]) == bool(r["converged"]) and bool(new["has_value"]) == bool(r["has_value"])
        tol = max(abs(r["certified_upper"] - r["certified_lower"]), 1e-12)
        assert new["team1_value"] == pytest.approx(r["team1_value"], abs=tol)
        assert new["team2_value"] == pytest.approx(r["team2_value"], abs=tol)


def test_reproduce_dividing_point_ordering_verdict():
    """results/dividing_point/ordering.csv, game c at P = 1 read at 150 hands: the verdicts
    (certified, the patent's order recovered) exactly, the value to the certificate."""
    from guts.studies.dividing_point import ordering

    old = _committed("dividing_point/ordering.csv")
    row = old[(old.game == "c") & (old.pot == 1) & (old.mesh == 150)].iloc[0]
    new = ordering(games=("c",), pots=(1,), meshes=(150,)).iloc[0]
    assert bool(new["certified"]) == bool(row["certified"]) and bool(new["same_E1"]) == bool(row["same_E1"])
    assert new["steps"] == row["steps"] and new["order"] == row["order"]
    if new["certified"]:
        assert new["value"] == pytest.approx(row["value"], abs=1e-12)
