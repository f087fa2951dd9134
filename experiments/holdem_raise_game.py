"""Hold'em raise game (the online note on a simplified heads-up hold'em): the R = 40 artefacts into results/holdem/.

Thin script over ``guts holdem raise-game`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["holdem", "raise-game", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
