"""Mercer hold'em (program rjullman/poker-nasheq): the 'sizes' artefact into results/mercer/.

Thin script over ``guts mercer study sizes`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["mercer", "study", "sizes", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
