"""Mercer hold'em (program rjullman/poker-nasheq): its fictitious play against its published runs
and the printed strategy tables, classical fictitious play beside it; the 'program_fp' artefact
into results/mercer/ (program_fp.csv, program_fp_tables.csv).

Thin script over ``guts mercer study program_fp`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["mercer", "study", "program_fp", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
