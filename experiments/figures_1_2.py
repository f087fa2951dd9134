"""Figures 1 and 2 of the paper (§5) into results/fig1_components.png, results/fig2_blend.png.

Thin script over ``guts figures`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["figures", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
