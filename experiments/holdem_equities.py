"""Hold'em: summaries of the exact preflop equity table into results/holdem/.

Thin script over ``guts holdem equity-summaries`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["holdem", "equity-summaries", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
