"""Mercer hold'em (program rjullman/poker-nasheq): the 'collusion_methods' artefact into results/mercer/.

Thin script over ``guts mercer study collusion_methods`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["mercer", "study", "collusion_methods", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
