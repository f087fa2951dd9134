"""Mercer hold'em (program rjullman/poker-nasheq): the 'beyond' artefact into results/mercer/.

Thin script over ``guts mercer study beyond`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["mercer", "study", "beyond", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
