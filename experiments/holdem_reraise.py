"""Hold'em raise game where Bob re-raises into results/holdem/.

Thin script over ``guts holdem reraise`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["holdem", "reraise", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
