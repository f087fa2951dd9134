"""``python -m guts`` and the ``guts`` script: Ctrl-C or SIGTERM while the package loads ends in one line too."""
import signal
import sys


class _TerminatedAtStart(KeyboardInterrupt):
    pass


def _on_sigterm(signum, frame):
    raise _TerminatedAtStart()


def entry() -> int:
    try:  # until the command installs its own handler (guts.cli.run_command)
        signal.signal(signal.SIGTERM, _on_sigterm)
    except (ValueError, OSError):  # pragma: no cover - not the main thread
        pass
    try:
        from guts.cli import main

        return main()  # a command's own interrupts are handled inside (guts.cli.run_command)
    except KeyboardInterrupt as exc:  # during start-up (imports of NumPy, SciPy, numba ...) or parsing
        print("\nguts: interrupted while starting; nothing was run or written", file=sys.stderr)
        return 143 if isinstance(exc, _TerminatedAtStart) else 130


if __name__ == "__main__":
    sys.exit(entry())
