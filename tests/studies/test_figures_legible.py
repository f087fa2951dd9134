"""Figures are legible: the checker finds the defects it is for, and the studies' figures have none.

The figures are rebuilt from the committed data in ``results/`` (no solve), so the test
checks exactly what the committed PNGs show.
"""
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from guts.studies.legibility import legibility_problems  # noqa: E402

RESULTS = Path(__file__).resolve().parents[2] / "results"


def test_checker_finds_overlapping_ticks_cut_labels_and_too_many_series():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_xticks(range(40))
    ax.set_xticklabels([f"label {k}" for k in range(40)])
    assert any("overlap" in p for p in legibility_problems(fig))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(3, 3))
    ax.set_ylabel("y")
    fig.subplots_adjust(left=0.0)  # the y label and tick labels fall off the canvas
    assert any("cut off" in p for p in legibility_problems(fig))
    assert not any("cut off" in p for p in legibility_problems(fig, tight=True))
    plt.close(fig)

    fig, ax = plt.subplots()
    for k in range(14):
        ax.plot([0, 1], [k, k + 1], label=f"N={k}")
    assert any("14 labelled series" in p for p in legibility_problems(fig))
    plt.close(fig)


def test_a_plain_figure_is_legible():
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot([1, 2, 3], [1, 4, 9], label="squares")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title("a title")
    ax.legend()
    fig.tight_layout()
    assert legibility_problems(fig) == []
    plt.close(fig)


def test_continuum_mesh_refinement_figure_is_legible():
    from guts.studies.continuum import plot_mesh_refinement

    ref = pd.read_csv(RESULTS / "mesh_refinement.csv")
    meta = json.loads((RESULTS / "mesh_refinement.meta.json").read_text())
    rates = pd.DataFrame(meta["rates"])
    fig = plot_mesh_refinement(ref, rates)
    fig.tight_layout()
    assert legibility_problems(fig) == []
    plt.close(fig)


@pytest.mark.parametrize("limits", [None])
def test_continuous_poker_figure1_is_legible(limits):
    from guts.studies.continuous_poker import figure1

    fig, _ = figure1()
    assert legibility_problems(fig) == []
    plt.close(fig)


def test_mercer_bet_frequency_heat_maps_are_legible_and_show_every_table():
    from guts.studies.mercer_figures import TABLE_TITLES, plot_bet_frequencies

    tables = pd.read_csv(RESULTS / "mercer" / "tables.csv")
    fig = plot_bet_frequencies(tables)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.get_title()]
    assert len(titles) == len(set(tables["table"]) & set(TABLE_TITLES))
    assert legibility_problems(fig) == []
    plt.close(fig)


def test_checker_accepts_a_figure_made_without_pyplot():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1])
    fig.tight_layout()
    assert legibility_problems(fig) == []


def test_an_axis_turned_off_has_no_tick_labels_to_check():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_yticks(range(30))
    ax.axis("off")
    assert legibility_problems(fig) == []
    plt.close(fig)


def test_mercer_collusion_epsilon_figure_is_legible():
    from guts.studies.mercer import plot_collusion_epsilon

    fig = plot_collusion_epsilon(pd.read_csv(RESULTS / "mercer" / "collusion_epsilon.csv"))
    assert legibility_problems(fig) == []
    plt.close(fig)


def test_the_unfixed_collusion_figure_is_caught():
    """The committed figure of an earlier version (no tight layout) cut off its x label: the check sees it."""
    from guts.studies.mercer import plot_collusion_epsilon

    fig = plot_collusion_epsilon(pd.read_csv(RESULTS / "mercer" / "collusion_epsilon.csv"))
    fig.subplots_adjust(bottom=0.0)
    assert any("cut off" in p for p in legibility_problems(fig))
    plt.close(fig)
