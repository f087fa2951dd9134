"""``python -m guts`` and the ``guts`` script: Ctrl-C while the package loads ends in one line too."""
import sys


def entry() -> int:
    try:
        from guts.cli import main
    except KeyboardInterrupt:  # Ctrl-C during start-up (imports of NumPy, SciPy, numba ...)
        print("\nguts: interrupted while starting; nothing was run or written", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(entry())
