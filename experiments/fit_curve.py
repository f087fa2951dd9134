"""Fit the value curve V(N) (paper §5, Figure 3) into results/fit.csv and results/fig3_fit.png.

Thin script over the library; same options as ``guts fit`` (see ``--help``).  Reads the
paper's Table 1 (shipped), results/table1.csv (``guts table1``) and results/large_n.csv
(``guts curve`` / experiments/large_n.py):

    python experiments/fit_curve.py
    python experiments/fit_curve.py --bootstrap 2000 --seed 1
"""
import sys

from guts.cli import main

if __name__ == "__main__":
    sys.exit(main(["fit", *sys.argv[1:]]))
