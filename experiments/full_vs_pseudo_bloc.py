"""Full (independent-member) coalitions against the pseudo-bloc restriction into results/full_vs_pseudo_bloc.csv.

Thin script over :mod:`guts.studies.full_vs_pseudo_bloc` (see ``--help``).
"""
import sys

from guts.studies.full_vs_pseudo_bloc import main

if __name__ == "__main__":
    sys.exit(main())
