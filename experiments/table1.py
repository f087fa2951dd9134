"""Reproduce Table 1 of Buck et al. (2022), §5, into results/table1.csv.

Thin script over the library; same options as ``guts table1`` (see ``--help``):

    python experiments/table1.py --mesh 101 --sizes 1-15 --solver lp --jobs 2
"""
import sys

from guts.cli import main

if __name__ == "__main__":
    sys.exit(main(["table1", *sys.argv[1:]]))
