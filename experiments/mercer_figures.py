"""Mercer hold'em figures from the study's data (no solve; ~2 s).

    python experiments/mercer_figures.py
        -> results/mercer/bet_frequencies.png (+ .meta.json), from tables.csv
        -> results/mercer/collusion_epsilon.png, from collusion_epsilon.csv
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from guts.studies.mercer import plot_collusion_epsilon  # noqa: E402
from guts.studies.mercer_figures import plot_bet_frequencies  # noqa: E402
from guts.studies.output import save_figure, write_meta  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    source = ROOT / "results" / "mercer" / "tables.csv"
    target = ROOT / "results" / "mercer" / "bet_frequencies.png"
    fig = plot_bet_frequencies(pd.read_csv(source))
    save_figure(fig, target, dpi=110)
    plt.close(fig)
    write_meta(target, {"source": "results/mercer/tables.csv"})
    fig = plot_collusion_epsilon(pd.read_csv(ROOT / "results" / "mercer" / "collusion_epsilon.csv"))
    save_figure(fig, ROOT / "results" / "mercer" / "collusion_epsilon.png")
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
