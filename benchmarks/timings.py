"""Wall time of README commands with the CPU time and machine load beside it.

The machine the README's figures come from is shared (2 cores, other jobs running), so a
wall time alone says little: each command is run as a subprocess and recorded with its
CPU time (user + system, children included) and ``os.getloadavg()`` before and after.
The README states the resulting ranges.

    python benchmarks/timings.py                        # the fast commands (default set)
    python benchmarks/timings.py -- guts fit --quiet    # any one command (after --)
    python benchmarks/timings.py --repeat 2 --csv /tmp/timings.csv
    python benchmarks/timings.py --documented           # every time the docs state -> results/benchmarks/timings.csv
                                                        #   and the table in docs/performance.md

Rows are printed and appended to ``--csv`` (default: none).  Commands that write results
should be the full default runs (they regenerate the committed files) or carry ``--out``.
``--documented`` writes ``results/benchmarks/timings.meta.json`` beside its CSV
(:func:`guts.studies.output.write_meta`: the command, the CSV's hash, the commit measured and the
commands timed).
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


#: Every command example of the documentation that is not quick enough to run in the tests
#: (``tests/test_docs.py`` checks that each documented command is here or run there), written
#: exactly as documented.  ``--documented`` runs them all in a scratch copy of the repository
#: (a detached git worktree of HEAD, so the committed ``results/`` are not touched), in a fresh
#: process each -- imports and numba JIT compilation included: cold figures; the worktree starts with
#: numba's compile cache empty, so the first command to use a kernel compiles it, later ones load it -- writes
#: ``results/benchmarks/timings.csv`` and rewrites the table between the markers in
#: ``docs/performance.md``.  The stated times come from this one script.
DOCUMENTED_COMMANDS = [
    ("guts table1", "Table 1, default (double oracle + Newton), 1 process"),
    ("guts poker continuous --no-limit --certify", "Newman's no-limit poker, certified"),
    ("guts poker dividing-point b --pot 3 --lp-mesh 200", "the patent's game b, with the 200-hand mesh LP"),
    ("guts poker dividing-point b --pot 3 --infer", "game b, order read from the mesh LP"),
    ("guts poker dividing-point c --pot 0.3", "game c outside the printed order's interval of P"),
    ("guts holdem solve --max-raise 40", "hold'em raise game, R = 40"),
    ("guts holdem solve --max-raise 6 --reraise 5,10,20,40,80,160", "raise game with Bob's re-raises"),
    ("guts mercer solve mmh --players 3 --method cfr+ --target 0.0033", "3P multiround Mercer hold'em, CFR+"),
    ("guts mercer solve smh --players 3 --collusion strong --team 1,2", "3P standard Mercer, strong collusion"),
    ("guts continuum --no-refinement", "the continuum table"),
    ("guts continuum --sizes 2-5 --meshes 21,51,101", "continuum and mesh refinement, small"),
    ("guts fit", "the value-curve fit (Buck et al. 2022, section 5)"),
    ("python experiments/teams.py", "m v. n teams"),
    ("python experiments/figures_1_2.py", "Figures 1-2 of Buck et al. (2022)"),
    ("python experiments/fp_three_player.py", "three-player fictitious play, 50 000 steps"),
    ("python experiments/holdem_raise_game.py", "the R = 40 raise-game artefacts"),
    ("guts continuum", "continuum table, mesh refinement and figure (1 process)"),
    ("guts curve --jobs 2", "54 coalition sizes up to N = 100 000, 2 processes"),
    ("python experiments/full_vs_pseudo_bloc.py", "full against pseudo-bloc coalitions (peak ~2 GB)"),
    ("python experiments/dividing_point.py", "the dividing-point artefacts"),
    ("python experiments/holdem_equities.py", "exact preflop equities (tables)"),
    ("python experiments/holdem_reraise.py", "the re-raise game artefacts"),
    ("python benchmarks/holdem_scaling.py", "hold'em LP scaling benchmark"),
    ("python benchmarks/team_games.py --time-limit 120", "team games: 3P Kuhn, 3-8 ranks, 3P Leduc, 3 and 4 ranks, three regimes"),
    ("python experiments/liars_dice_table.py", "Liar's Dice: exact LP values, CFR+ brackets for 2 v 1 and 1 v 2 dice"),
    ("python experiments/rhode_island.py", "Rhode Island hold'em: DCFR on the public suit quotient, 5100 s of solving"),
]
TABLE_START, TABLE_END = "<!-- timings:start -->", "<!-- timings:end -->"


def _argv(command: str) -> list[str]:
    argv = shlex.split(command)
    if argv[0] == "guts":  # the command as installed, or from the source tree
        argv = [sys.executable, "-m", "guts", *argv[1:]]
    elif argv[0] == "python":
        argv[0] = sys.executable
    return argv


def time_command(command: str, cwd=None, env=None) -> dict:
    """Run ``command``; return wall and CPU seconds and the load averages around it."""
    load0 = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(_argv(command), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
    lines = ["| command | what | wall (s) | CPU (s) | load before -> after | cores | measured (UTC), commit |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| `{r['command']}` | {r['what']} | {r['wall_seconds']:.1f} | "
                     f"{r['cpu_seconds']:.1f} | {r['load1_before']:.1f} -> {r['load1_after']:.1f} | {r['cores']} | "
                     f"{r['when_utc']}, {r.get('commit', '')} |")
    return "\n".join(lines)


def run_documented(root: Path) -> list[dict]:
    """Run every documented command in a scratch worktree; write results/benchmarks/timings.csv and the docs table."""
    import tempfile

    rows = []
    with tempfile.TemporaryDirectory(prefix="guts-timings-") as tmp:
        scratch = Path(tmp) / "repo"
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                                text=True).stdout.strip()
        subprocess.run(["git", "worktree", "add", "--detach", str(scratch), "HEAD"], cwd=root, check=True,
                       capture_output=True)
        try:
            env = dict(os.environ, PYTHONPATH=str(scratch))
            for command, what in DOCUMENTED_COMMANDS:
                r = time_command(command, cwd=scratch, env=env)
                r["command"], r["what"] = command, what
                r["commit"] = commit
                rows.append(r)
                print(f"{r['wall_seconds']:8.1f} s wall {r['cpu_seconds']:8.1f} s CPU  load {r['load1_before']:.1f}"
                      f" -> {r['load1_after']:.1f}  exit {r['exit_code']}  {command}", flush=True)
                _publish(root, rows)  # after every command: an interrupted run keeps what it measured
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(scratch)], cwd=root, capture_output=True)
    return rows


def write_timings_meta(target: Path, rows) -> Path:
    """Write ``<target>.meta.json`` for the rows of a ``--documented`` run (:func:`guts.studies.output.write_meta`).

    The parameters are read from the rows themselves -- the commit of the scratch worktree and the
    commands timed, in order (an interrupted run names only those it measured) -- so the meta file of
    a committed CSV can be rewritten from that CSV alone.
    """
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from guts.studies.output import write_meta

    return write_meta(target, {"documented": True, "commit": rows[0].get("commit", ""),
                               "commands": [r["command"] for r in rows]})


def _publish(root: Path, rows) -> None:
    """Write results/benchmarks/timings.csv, its meta file and the table in docs/performance.md (each atomically)."""
    target = root / "results" / "benchmarks" / "timings.csv"
    tmp = target.with_suffix(".csv.tmp")
    with tmp.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, target)
    write_timings_meta(target, rows)
    page = root / "docs" / "performance.md"
    text = page.read_text(encoding="utf-8")
    if TABLE_START in text and TABLE_END in text:
        head, rest = text.split(TABLE_START, 1)
        _, tail = rest.split(TABLE_END, 1)
        new = head + TABLE_START + "\n" + documented_table(rows) + "\n" + TABLE_END + tail
        tmp_page = page.with_suffix(".md.tmp")
        tmp_page.write_text(new, encoding="utf-8")
        os.replace(tmp_page, page)


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
                    help="run every command whose time the docs state; write results/benchmarks/timings.csv and the "
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
