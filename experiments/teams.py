"""m v. n team games (paper §1.2 and §5: "2 v. 2 ... value 0") into results/teams.csv.

Thin script over :mod:`guts.studies.teams` (see ``--help``).
"""
import sys

from guts.studies.teams import main

if __name__ == "__main__":
    sys.exit(main())
