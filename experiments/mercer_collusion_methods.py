"""Mercer hold'em (seed 004): the 'collusion_methods' artefact into results/mercer/ (see guts.studies.mercer).

    python experiments/mercer_collusion_methods.py [--out results/mercer]
"""
import sys

from guts.studies.mercer import main

if __name__ == "__main__":
    sys.exit(main(artefact="collusion_methods"))
