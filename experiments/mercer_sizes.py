"""Mercer hold'em (seed 004): the 'sizes' artefact into results/mercer/ (see guts.studies.mercer).

    python experiments/mercer_sizes.py [--out results/mercer]
"""
import sys

from guts.studies.mercer import main

if __name__ == "__main__":
    sys.exit(main(artefact="sizes"))
