"""Mercer hold'em: the study's program's fictitious play against its published runs, with
classical fictitious play beside it (see guts.studies.mercer_fp).

    python experiments/mercer_program_fp.py [--quick] [--out DIR]
"""
import sys

from guts.studies.mercer_fp import main

if __name__ == "__main__":
    sys.exit(main())
