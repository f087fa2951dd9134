"""Full (independent-member) coalitions against the pseudo-bloc restriction into results/full_vs_pseudo_bloc.csv.

Thin script over ``guts full-vs-pseudo-bloc`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["full-vs-pseudo-bloc", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
