"""Mercer hold'em strategy tables as heat maps (results/mercer/bet_frequencies.png).

Reads the study's ``tables.csv`` (Tables 1-6 and 8 of Ullman, *Simulating Fictitious Play
in Simplified Poker Variants*, 2015: the percentage of hands that bet, per situation and
holding) and draws one heat map per table: rows are the situations, columns the holdings
(the two private ranks), colour our equilibrium's percentage, each cell annotated with ours
and, below it, the printed figure.  No solve: the figure is regenerated from the data.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["plot_bet_frequencies", "TABLE_TITLES"]

#: What each table of the thesis shows (its caption, shortened).
TABLE_TITLES = {
    "table1": "Table 1: 2P-SMH, betting",
    "table2": "Table 2: 2P-MMH, first bet",
    "table3": "Table 3: 2P-MMH, first bet of the public round",
    "table4": "Table 4: 3P-MMH, second player's first bet",
    "table5": "Table 5: 3P-MMH, first bet, nobody folded",
    "table6": "Table 6: 3P-MMH, third player's first bet",
    "table8_col": "Table 8: 3P-MMH, third player, weak collusion",
    "table8_nocol": "Table 8: 3P-MMH, third player, no collusion",
}


def plot_bet_frequencies(tables: pd.DataFrame):
    """One heat map per strategy table: our bet percentage per (situation, holding), printed below.

    Parameters
    ----------
    tables : DataFrame
        ``results/mercer/tables.csv`` (columns ``table``, ``row``, ``column``, ``method``, ``ours``, ``paper``); each
        table is drawn for the first method listed for it (the exact LP, else CFR+).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    names = [t for t in TABLE_TITLES if t in set(tables["table"])]
    cols = 2
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(13, 2.6 * rows + 0.8), squeeze=False)
    image = None
    for ax, name in zip(axes.flat, names):
        t = tables[tables["table"] == name]
        method = t["method"].iloc[0]  # the study's primary method for the table (exact LP, else CFR+)
        t = t[t["method"] == method]
        situations = list(dict.fromkeys(t["row"]))
        holdings = sorted(t["column"].unique())
        ours = np.full((len(situations), len(holdings)), np.nan)
        paper = np.full_like(ours, np.nan)
        for _, r in t.iterrows():
            i, j = situations.index(r["row"]), holdings.index(r["column"])
            ours[i, j], paper[i, j] = r["ours"], r["paper"]
        image = ax.imshow(ours, vmin=0, vmax=100, cmap="viridis", aspect="auto")
        for i in range(len(situations)):
            for j in range(len(holdings)):
                if np.isfinite(ours[i, j]):
                    colour = "white" if ours[i, j] < 55 else "black"
                    printed = f"\n({paper[i, j]:.0f})" if np.isfinite(paper[i, j]) else ""
                    ax.text(j, i, f"{ours[i, j]:.0f}{printed}", ha="center", va="center", fontsize=7, color=colour)
        ax.set_xticks(range(len(holdings)))
        ax.set_xticklabels([str(h) for h in holdings], fontsize=8)
        ax.set_yticks(range(len(situations)))
        ax.set_yticklabels(situations, fontsize=8)
        ax.set_title(f"{TABLE_TITLES[name]} ({method})", fontsize=9)
        ax.set_xlabel("flop (holding 45)" if name == "table3" else "holding", fontsize=8)
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    fig.suptitle("Mercer hold'em: % of hands that bet, ours (printed in brackets), by holding (method)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.93, 0.97))
    if image is not None:
        cax = fig.add_axes((0.945, 0.15, 0.012, 0.7))
        fig.colorbar(image, cax=cax, label="% bet")
    return fig
