"""Wall time of README commands with the CPU time and machine load beside it (issue 15).

The machine the README's figures come from is shared (2 cores, other jobs running), so a
wall time alone says little: each command is run as a subprocess and recorded with its
CPU time (user + system, children included) and ``os.getloadavg()`` before and after.
The README states the resulting ranges.

    python benchmarks/timings.py                        # the fast commands (default set)
    python benchmarks/timings.py -- guts fit --quiet    # any one command (after --)
    python benchmarks/timings.py --repeat 2 --csv /tmp/timings.csv
    python benchmarks/timings.py --documented           # every time the docs state -> results/timings.csv
                                                        #   and the table in docs/performance.md

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


#: Every command whose run time the documentation states, with the scratch output it writes to
#: (``{out}``: a fresh temporary folder, so the committed ``results/`` are not touched).
#: ``--documented`` runs them all, writes ``results/timings.csv`` and rewrites the table between
#: the markers in ``docs/performance.md``: the stated times come from this one script.
DOCUMENTED_COMMANDS = [
    ("guts --help", "cold start of the command line"),
    ("guts table1 --quiet --out {out}", "Table 1, default (double oracle + Newton), 1 process"),
    ("guts table1 --jobs 2 --quiet --out {out}", "Table 1, 2 processes"),
    ("guts solve 2", "one game, 1 v. 2"),
    ("guts poker continuous --min-bet 0.5 --max-bet 1", "limit continuous poker, closed form"),
    ("guts poker dividing-point b --pot 3", "the patent's game b at P = 3, exact and certified"),
    ("guts holdem solve --max-raise 40", "hold'em raise game, R = 40"),
    ("guts mercer solve smh --players 2", "2P standard Mercer hold'em, exact LP (includes JIT compilation)"),
    ("guts mercer solve mmh --players 3 --method cfr+ --epsilon 0.01",
     "3P multiround Mercer hold'em, CFR+ (includes JIT compilation)"),
    ("guts fit --table1 results/table1.csv --large-n results/large_n.csv --quiet --out {out}", "the value-curve fit of Buck et al. section 5"),
    ("guts continuum --no-refinement --jobs 2 --quiet --out {out}", "the continuum table, 2 processes"),
    ("python experiments/continuous_poker.py --out {out}", "continuous-poker artefacts"),
]
TABLE_START, TABLE_END = "<!-- timings:start -->", "<!-- timings:end -->"


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


def documented_table(rows) -> str:
    """The markdown table of ``rows`` (from :func:`time_command`) for ``docs/performance.md``."""
    lines = ["| command | what | wall (s) | CPU (s) | load before -> after | cores | measured (UTC) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| `{r['command'].replace(' --out {out}', '')}` | {r['what']} | {r['wall_seconds']:.1f} | "
                     f"{r['cpu_seconds']:.1f} | {r['load1_before']:.1f} -> {r['load1_after']:.1f} | {r['cores']} | "
                     f"{r['when_utc']} |")
    return "\n".join(lines)


def run_documented(root: Path) -> list[dict]:
    """Run every documented command into a scratch folder; write results/timings.csv and the docs table."""
    import tempfile

    rows = []
    for command, what in DOCUMENTED_COMMANDS:
        with tempfile.TemporaryDirectory(prefix="guts-timings-") as tmp:
            r = time_command(command.replace("{out}", str(Path(tmp) / "out")), cwd=root)
        r["command"], r["what"] = command, what
        rows.append(r)
        print(f"{r['wall_seconds']:8.1f} s wall {r['cpu_seconds']:8.1f} s CPU  load {r['load1_before']:.1f}"
              f" -> {r['load1_after']:.1f}  exit {r['exit_code']}  {command}", flush=True)
    target = root / "results" / "timings.csv"
    tmp = target.with_suffix(".csv.tmp")
    with tmp.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, target)
    page = root / "docs" / "performance.md"
    text = page.read_text(encoding="utf-8")
    if TABLE_START in text and TABLE_END in text:
        head, rest = text.split(TABLE_START, 1)
        _, tail = rest.split(TABLE_END, 1)
        new = head + TABLE_START + "\n" + documented_table(rows) + "\n" + TABLE_END + tail
        tmp_page = page.with_suffix(".md.tmp")
        tmp_page.write_text(new, encoding="utf-8")
        os.replace(tmp_page, page)
    return rows


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
    ap.add_argument("--documented", action="store_true",
                    help="run every command whose time the docs state; write results/timings.csv and the "
                         "table in docs/performance.md")
    args = ap.parse_args(argv)
    if args.documented:
        rows = run_documented(Path(__file__).resolve().parent.parent)
        return 0 if all(r["exit_code"] == 0 for r in rows) else 1
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
