"""Three-player fictitious play (paper §5.2, Appendix B.1) into results/fp_three_player.*.

Thin script over ``guts fp-three-player`` (see ``--help``).
"""
import sys

from guts.cli import main as guts_main


def main(argv=None) -> int:
    return guts_main(["fp-three-player", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
