"""m v. n team games (paper §1.2 and §5: "2 v. 2 ... value 0") into results/teams.csv.

Thin script over ``guts teams`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["teams", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
