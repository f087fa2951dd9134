"""Hold'em (seed 001, issue 12): thin script over :mod:`guts.studies.holdem` (see ``--help``)."""
import sys

from guts.studies.holdem import main_equities

if __name__ == "__main__":
    sys.exit(main_equities())
