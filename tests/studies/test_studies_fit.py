"""Curve fits of V(N): the paper's rational fit (§5), alternatives, intervals, Figure 3."""
import json

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError
from guts.cli import main
from guts.studies.fit import MODELS, compare_models, fit_model, fit_rational, run_fit
from guts.studies.table1 import paper_table1


@pytest.fixture(scope="module")
def paper():
    t = paper_table1().query("N >= 2 and N <= 15")
    return t.N.to_numpy(), t.opponent_value.to_numpy()


@pytest.fixture(scope="module")
def paper_fit(paper):
    return fit_rational(*paper, bootstrap=300, random_state=0)


def test_recovers_the_papers_fit(paper_fit):
    """§5: V(n) = 0.163 - 0.84/(n -/+ 3.6), r² ≈ 0.9991, to the paper's printed precision."""
    f = paper_fit
    assert abs(f.a - 0.163) < 5e-4
    assert abs(f.b - 0.84) < 5e-3
    assert abs(abs(f.c) - 3.6) < 0.05
    assert abs(f.r2 - 0.9991) < 5e-5
    # the sign: the data need the pole at N = -3.6, i.e. V = a - b/(N + 3.6)
    assert f.c < 0


def test_printed_sign_does_not_fit_the_table(paper):
    N, V = paper
    printed = 0.163 - 0.84 / (N - 3.6)  # as printed: a pole at 3.6, V(2) = 0.688
    corrected = 0.163 - 0.84 / (N + 3.6)
    r2 = lambda pred: 1 - np.sum((V - pred) ** 2) / np.sum((V - V.mean()) ** 2)
    assert printed[0] == pytest.approx(0.688) and r2(printed) < 0
    assert r2(corrected) > 0.999


def test_intervals_and_residuals(paper_fit, paper):
    f = paper_fit
    N, V = paper
    np.testing.assert_allclose(f.residuals, V - f.predict(N), atol=1e-15)
    assert f.r2 == pytest.approx(1 - np.sum(f.residuals**2) / np.sum((V - V.mean()) ** 2))
    lo, hi = f.asymptote_interval
    blo, bhi = f.bootstrap_interval
    assert lo < f.a < hi and blo < f.a < bhi
    # for a nearly linear problem the profile interval is close to the Wald interval a ± t se
    from scipy.stats import t as t_dist

    half = t_dist.ppf(0.975, N.size - 3) * f.stderr["a"]
    assert (hi - lo) / 2 == pytest.approx(half, rel=0.35)
    assert all(np.isfinite(list(f.stderr.values())))


def test_bootstrap_is_reproducible(paper):
    a = fit_rational(*paper, bootstrap=50, random_state=7)
    b = fit_rational(*paper, bootstrap=50, random_state=7)
    c = fit_rational(*paper, bootstrap=50, random_state=8)
    assert a.bootstrap_interval == b.bootstrap_interval != c.bootstrap_interval


@pytest.mark.parametrize("model, params", [("rational", (0.16, 0.8, -3.0)),
                                           ("inverse-quadratic", (0.15, 0.5, -0.4)),
                                           ("power", (0.2, 0.3, 0.7))])
def test_exact_data_are_recovered(model, params):
    N = np.arange(2, 16, dtype=float)
    V = MODELS[model][0](N, *params)
    f = fit_model(N, V, model, bootstrap=0)
    np.testing.assert_allclose(f.params, params, rtol=1e-6, atol=1e-8)
    assert f.r2 == pytest.approx(1.0, abs=1e-12)


def test_criterion_picks_the_generating_model():
    rng = np.random.default_rng(3)
    N = np.arange(2, 30, dtype=float)
    V = 0.16 - 0.84 / (N + 3.6) + rng.normal(0, 1e-5, N.size)
    fits = compare_models(N, V, bootstrap=0)
    assert fits[0].model == "rational"
    assert fits[0].aicc < fits[1].aicc - 10
    lo, hi = fits[0].asymptote_interval
    assert lo < 0.16 < hi


@pytest.mark.parametrize("kwargs, match", [
    (dict(sizes=[2, 3, 4], values=[0.0, 0.1, 0.2]), "at least 5"),
    (dict(sizes=[2, 3, 4, 5, 6], values=[0.0, 0.1]), "same length"),
    (dict(sizes=[2, 3, 4, 5, 6], values=[0.0, 0.1, np.nan, 0.2, 0.3]), "finite"),
    (dict(sizes=[0, 3, 4, 5, 6], values=[0.0, 0.1, 0.1, 0.2, 0.3]), ">= 1"),
    (dict(sizes=[2, 3, 4, 5, 6], values=[0.0, 0.1, 0.1, 0.2, 0.3], model="cubic"), "model"),
    (dict(sizes=[2, 3, 4, 5, 6], values=[0.0, 0.1, 0.1, 0.2, 0.3], level=1.5), "level"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(GutsInputError, match=match):
        fit_model(**kwargs)


def _fake_large_n():
    N = np.array([*range(1, 16), 20, 50, 200, 1000, 100_000])
    return pd.DataFrame({"N": N, "value": np.where(N > 1, 0.157 - 0.62 / (N + 2.5), 0.0)})


def test_run_fit_writes_table_and_figure(tmp_path):
    large = _fake_large_n()
    table, fits = run_fit(out=tmp_path, large_n=large, bootstrap=20)
    assert set(table.dataset) == {"paper", "continuous", "continuous-all"}  # no table1.csv in tmp_path
    assert set(table.model) == set(MODELS)
    assert (tmp_path / "fit.csv").exists() and (tmp_path / "fig3_fit.png").stat().st_size > 10_000
    meta = json.loads((tmp_path / "fit.meta.json").read_text())
    assert meta["parameters"]["bootstrap"] == 20
    best = table[table.dataset == "continuous-all"].sort_values("aicc").iloc[0]
    assert best.model == "rational" and best.a == pytest.approx(0.157, abs=1e-8)
    paper_rat = table[(table.dataset == "paper") & (table.model == "rational")].iloc[0]
    assert paper_rat.error_N200 == pytest.approx(paper_rat.pred_N200 - (0.157 - 0.62 / 202.5))


def test_cli_fit(tmp_path, capsys):
    _fake_large_n().to_csv(tmp_path / "large_n.csv", index=False)
    assert main(["fit", "--out", str(tmp_path), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "rational" in out and "fit.csv" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y\n1,2\n")
    assert main(["fit", "--out", str(tmp_path / "o"), "--large-n", str(bad), "--bootstrap", "0"]) == 2
    assert "no N and value columns" in capsys.readouterr().err
    assert not (tmp_path / "o" / "fit.csv").exists()
