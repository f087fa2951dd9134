"""Three-player fictitious play (paper §5.2, Appendix B.1) into results/fp_three_player.*.

Thin script over :mod:`guts.studies.fictitious` (see ``--help``).
"""
import sys

from guts.studies.fictitious import main

if __name__ == "__main__":
    sys.exit(main())
