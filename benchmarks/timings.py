"""Wall time of README commands with the CPU time and machine load beside it (issue 15).

The machine the README's figures come from is shared (2 cores, other jobs running), so a
wall time alone says little: each command is run as a subprocess and recorded with its
CPU time (user + system, children included) and ``os.getloadavg()`` before and after.
The README states the resulting ranges.

    python benchmarks/timings.py                        # the fast commands (default set)
    python benchmarks/timings.py -- guts fit --quiet    # any one command (after --)
    python benchmarks/timings.py --repeat 2 --csv /tmp/timings.csv

Rows are printed and appended to ``--csv`` (default: none).  Commands that write results
should be the full default runs (they regenerate the committed files) or carry ``--out``.
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_COMMANDS = [
    "guts table1 --quiet",
    "guts table1 --jobs 2 --quiet",
    "python -m pytest -q -p no:cacheprovider -m 'not slow' tests/cli tests/studies/test_studies_output.py",
]


def _argv(command: str) -> list[str]:
    argv = shlex.split(command)
    if argv[0] == "guts":  # the command as installed, or from the source tree
        argv = [sys.executable, "-m", "guts", *argv[1:]]
    elif argv[0] == "python":
        argv[0] = sys.executable
    return argv


def time_command(command: str, cwd=None) -> dict:
    """Run ``command``; return wall and CPU seconds and the load averages around it."""
    load0 = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(_argv(command), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    load1 = os.getloadavg()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"command": command, "exit_code": p.returncode, "wall_seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2), "load1_before": round(load0[0], 2), "load1_after": round(load1[0], 2),
            "load5_after": round(load1[1], 2), "cores": os.cpu_count(),
            "when_utc": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = None
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], " ".join(shlex.quote(a) for a in argv[k + 1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--repeat", type=int, default=1, help="runs per command")
    ap.add_argument("--csv", default=None, help="append the rows to this CSV (default: print only)")
    args = ap.parse_args(argv)
    commands = [extra] if extra else DEFAULT_COMMANDS
    rows = []
    for cmd in commands:
        for _ in range(args.repeat):
            r = time_command(cmd)
            rows.append(r)
            print(f"{r['wall_seconds']:8.1f} s wall {r['cpu_seconds']:8.1f} s CPU  load {r['load1_before']:.1f}"
                  f" -> {r['load1_after']:.1f} ({r['cores']} cores)  exit {r['exit_code']}  {cmd}", flush=True)
    if args.csv:
        path = Path(args.csv)
        new = not path.exists()
        with path.open("a", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            if new:
                w.writeheader()
            w.writerows(rows)
    return 0 if all(r["exit_code"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
