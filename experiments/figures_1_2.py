"""Figures 1 and 2 of the paper (§5) into results/fig1_components.png, results/fig2_blend.png.

Thin script over :mod:`guts.studies.figures_1_2` (see ``--help``).
"""
import sys

from guts.studies.figures_1_2 import main

if __name__ == "__main__":
    sys.exit(main())
