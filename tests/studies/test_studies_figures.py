"""Figures 1-2 (paper §5) and the fictitious-play figure."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from guts import GutsInputError, solve_coalition
from guts.games.guts.fictitious import fictitious_play
from guts.studies.figures import (
    best_responses,
    coalition_returns,
    plot_blend,
    plot_components,
    plot_fictitious_play,
    split_components,
)
from guts.games.guts.payoffs import alpha_enumeration, beta_enumeration

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def r101():
    """The paper's 1 v. 2 game at mesh 101 (pseudo-bloc = full for N = 2)."""
    return solve_coalition(2, 101, structure="pseudo-bloc", solver="oracle")


@pytest.fixture(scope="module")
def r21():
    return solve_coalition(2, 21, structure="full", solver="oracle")


def test_components_match_the_paper(r101):
    """§5: bloc 0.68 about 86% of the time, otherwise (0, 0.86); best response 0.64."""
    parts = split_components(r101)
    assert parts["weight_A"] + parts["weight_B"] == pytest.approx(1.0, abs=1e-12)
    assert parts["weight_A"] == pytest.approx(0.86, abs=0.03)
    for prof, _ in parts["A"]:
        assert all(abs(p - 0.68) <= 0.01 + 1e-9 for p in prof)
    (bprof, _), = parts["B"]
    assert bprof[0] == 0.0 and bprof[1] == pytest.approx(0.86, abs=0.01 + 1e-9)
    assert 0.64 in [round(float(b), 12) for b in best_responses(r101)]


@pytest.mark.parametrize("which", ["r21", "r101"])
def test_blend_touches_the_value_exactly_at_the_best_responses(which, request):
    """At the fixed point W the coalition forces W: R(q) >= W on the mesh with equality on
    player 1's support (complementary slackness of the stage game -A + B W)."""
    r = request.getfixturevalue(which)
    d = coalition_returns(r)
    W = r.coalition_value
    mesh_rows = d[d.on_mesh]
    assert len(mesh_rows) == r.mesh
    assert mesh_rows.blend.min() == pytest.approx(W, abs=1e-9)
    assert np.all(mesh_rows.blend >= W - 1e-9)
    support = np.array(sorted(r.player1_strategy))
    assert set(np.round(support, 9)) <= set(np.round(best_responses(r), 9))
    # the blend is the weighted sum of its components
    parts = split_components(r)
    np.testing.assert_allclose(d.blend, parts["weight_A"] * d.A + parts["weight_B"] * d.B, atol=1e-12)
    # "player 1's best response ... loses to both": against player 1's optimal mix each
    # component in the coalition's support returns exactly W (complementary slackness)
    dq = coalition_returns(r, support)
    x = np.array([r.player1_strategy[q] for q in support])
    assert len(parts["A"]) == 1 and len(parts["B"]) == 1
    assert x @ dq.A.to_numpy() == pytest.approx(W, abs=1e-9)
    assert x @ dq.B.to_numpy() == pytest.approx(W, abs=1e-9)
    assert W > 0


def test_curves_agree_with_the_enumeration(r21):
    """The curves from the closed form equal Σ_j y_j(-α_1 + β W) by the paper's enumeration."""
    q = np.array([0.0, 0.33, 0.6, 0.65, 0.9, 1.0])
    d = coalition_returns(r21, q)
    W = r21.coalition_value
    expect = [sum(w * (-alpha_enumeration([x, *prof])[0] + beta_enumeration([x, *prof]) * W)
                  for prof, w in r21.coalition_components()) for x in q]
    np.testing.assert_allclose(d.blend, expect, atol=1e-12)
    assert not d.on_mesh[1]


def test_plots(r21, tmp_path):
    d = coalition_returns(r21)
    f1 = plot_components(d, r21)
    f2 = plot_blend(d, r21)
    assert isinstance(f1, Figure) and isinstance(f2, Figure)
    labels = [line.get_label() for line in f1.axes[0].get_lines()]
    assert any(lab.startswith("A") for lab in labels) and any(lab.startswith("B") for lab in labels)
    assert any("best response" in lab for lab in labels)
    fp = fictitious_play(3, 11, iterations=50, random_state=0, warn=False)
    pooled = fictitious_play(3, 11, iterations=50, pools=[(0,), (1, 2)], random_state=0, warn=False)
    f3 = plot_fictitious_play({"independent": fp, "pooled": pooled})
    assert len(f3.axes) == 3
    for k, f in enumerate((f1, f2, f3)):
        f.savefig(tmp_path / f"f{k}.png")
        assert (tmp_path / f"f{k}.png").stat().st_size > 1000
    with pytest.raises(GutsInputError):
        plot_fictitious_play({})
    with pytest.raises(GutsInputError):
        split_components("not a result")


def test_figures_script(tmp_path):
    from guts.cli import main

    assert main(["figures", "--mesh", "21", "--out", str(tmp_path)]) == 0
    for name in ("fig1_components.png", "fig2_blend.png", "figures_1_2.csv", "figures_1_2.meta.json",
                 "fig1_components.meta.json"):
        assert (tmp_path / name).exists()
    d = pd.read_csv(tmp_path / "figures_1_2.csv")
    assert list(d.columns) == ["threshold", "A", "B", "blend", "on_mesh"]
    assert main(["figures", "--mesh", "1", "--out", str(tmp_path / "bad")]) == 2
    assert not (tmp_path / "bad").exists()
