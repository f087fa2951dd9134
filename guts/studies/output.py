"""Atomic, self-describing outputs under ``results/`` that a partial run never clobbers.

Every file is written to a temporary name in the target folder and renamed into
place, so an interrupted run (Ctrl-C, crash) never leaves a half-written file; the
temporary file is created with mode ``0666 & ~umask`` (0644 under the usual umask 022),
the permissions a plain ``open(path, "w")`` gives, not ``mkstemp``'s 0600.  The
parameters that produced a file are written beside it as ``<name>.meta.json``, with
``"partial": true`` when they differ from the full default run's.

Where a run writes is decided once, by :func:`plan_output`:

* ``out=AUTO`` (the default of every study and ``guts`` command): the full default run
  writes the committed artefact in ``results/`` (and says so); any other run (fewer
  sizes, other meshes ...) writes to a fresh ``results/runs/<command>-<time>/``;
* ``out=<folder>``: that folder, but a partial run refuses (before computing anything)
  to replace a file whose meta file does not say ``"partial": true`` (a full artefact,
  or one of unknown provenance);
* ``out=None``: nothing is written.

Readers of ``results/`` (``guts fit``, notebooks) call :func:`artefact_status` /
:func:`check_full` to refuse or warn on partial inputs.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from guts._atomic import _create_temp, atomic_path  # noqa: F401 - one atomic writer, re-exported
from guts._validate import GutsInputError

__all__ = ["lock_output_dir", "remove_stale_temporaries", "file_sha256", "AUTO", "RESULTS", "RUNS", "peak_rss_mb", "ensure_output_dir", "atomic_path", "write_csv", "meta_path", "write_meta",
           "read_meta", "save_figure", "OutputPlan", "plan_output", "parameter_differences", "artefact_status",
           "check_full", "run_folder"]


class _Auto:
    """Sentinel of ``out``: ``results/`` for the full default run, else a fresh ``results/runs/...``."""

    def __repr__(self):
        return "AUTO"

    def __str__(self):
        return "results/ (full default run) or results/runs/<command>-<time>/"


AUTO = _Auto()
RESULTS = Path("results")
RUNS = "runs"


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux ``ru_maxrss`` is in kB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def ensure_output_dir(path) -> Path:
    """Create ``path`` if needed and check it is a writable folder, else ``GutsInputError``."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise GutsInputError(f"output folder {str(p)!r} exists and is not a folder; accepted: a writable folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=p, prefix=".write-test-", delete=True):
            pass
    except OSError as exc:
        raise GutsInputError(f"output folder {str(p)!r} is not writable ({exc.strerror or exc}); "
                             "accepted: a writable folder") from None
    return p


_LOCKS: dict = {}


def lock_output_dir(folder) -> None:
    """Take the output folder's lock, or raise :class:`GutsInputError` if another run holds it.

    Two runs writing to one ``--out`` would mix their files (issue 20); the second is refused
    before any work.  The lock (``fcntl.flock`` on the folder) is released when the
    process exits, however it exits; a process keeps the locks it took (one run at a time).
    The lock is an ``flock`` on the folder itself: no lock file is left among the artefacts.
    """
    key = str(Path(folder).resolve())
    if key in _LOCKS:
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return
    fd = os.open(Path(folder), os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise GutsInputError(f"output folder {str(folder)!r} is in use by another guts run; accepted: another "
                             "--out folder, or wait for that run to finish") from None
    _LOCKS[key] = fd


def remove_stale_temporaries(folder) -> list:
    """Delete temporaries left by an interrupted writer (``.<name>.<hex>.tmp``); we hold the lock."""
    import re

    removed = []
    for p in Path(folder).glob(".*.tmp"):
        if re.fullmatch(r"\..+\.[0-9a-f]{8}\.tmp", p.name):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
    return removed


def write_csv(df, target, **to_csv_kwargs) -> Path:
    """Write a pandas DataFrame to ``target`` atomically."""
    target = Path(target)
    with atomic_path(target) as tmp:
        df.to_csv(tmp, index=False, **to_csv_kwargs)
    return target


def meta_path(target) -> Path:
    """``<target>.meta.json`` beside ``target`` (``table1.csv`` -> ``table1.meta.json``)."""
    target = Path(target)
    return target.with_name(target.stem + ".meta.json")


def write_meta(target, parameters: dict, plan: "OutputPlan | None" = None, **extra) -> Path:
    """Write ``<target>.meta.json``: parameters, command line, versions, time and, with a
    ``plan``, whether the run was partial (``"partial"``, ``"differs_from_full_run"``)."""
    from guts import __version__

    import numpy
    import scipy

    target = Path(target)
    path = meta_path(target)
    meta = {
        "file": target.name,
        # the meta file is written last: its hash of the artefact ties the pair together, so a
        # reader sees an artefact whose meta file describes another version (a run interrupted
        # between the two renames) as inconsistent, not as this meta file's result
        **({"sha256": file_sha256(target)} if target.is_file() else {}),
        "parameters": parameters,
        "command": " ".join(sys.argv),
        "guts_version": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        **(plan.meta() if plan is not None else {}),
        **extra,
    }
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(meta, indent=2, default=str) + "\n")
    return path


def file_sha256(path) -> str:
    """Hex SHA-256 of a file's bytes."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_meta(target) -> dict | None:
    """The meta file of ``target`` as a dict, or ``None`` if there is none (or it is unreadable)."""
    p = meta_path(target)
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return None


def save_figure(fig, target, **kwargs) -> Path:
    """Save a matplotlib figure atomically (format from ``target``'s suffix), after a legibility check.

    Overlapping tick labels, text outside the canvas or too many series warn with
    :class:`guts.studies.legibility.FigureLegibilityWarning` (an error in the tests).
    """
    from guts.studies.legibility import warn_if_illegible

    target = Path(target)
    fmt = target.suffix.lstrip(".") or "png"
    warn_if_illegible(fig, target.name, tight=kwargs.get("bbox_inches") == "tight")
    with atomic_path(target) as tmp:
        fig.savefig(tmp, format=fmt, **kwargs)
    return target


# ---------------------------------------------------------------------------
# Full runs, partial runs and where they write
# ---------------------------------------------------------------------------
def _norm(v):
    if isinstance(v, (range, tuple, set, frozenset)):
        v = sorted(v) if isinstance(v, (set, frozenset)) else list(v)
    if isinstance(v, list):
        return [_norm(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def parameter_differences(parameters: dict, full: dict) -> dict:
    """``{name: {"run": value, "full": value}}`` for every parameter of ``full`` that differs."""
    diffs = {}
    for k, want in full.items():
        got = parameters.get(k)
        if _norm(got) != _norm(want):
            diffs[k] = {"run": got, "full": want}
    return diffs


def _short(v, limit=40) -> str:
    s = ",".join(map(str, v)) if isinstance(v, (list, tuple, range)) else str(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def describe_differences(diffs: dict) -> str:
    return "; ".join(f"{k} {_short(d['run'])} (full run: {_short(d['full'])})" for k, d in diffs.items())


def run_folder(command: str, base=RESULTS) -> Path:
    """A fresh ``<base>/runs/<command>-<YYYYmmdd-HHMMSS>[-k]/`` (not created)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = Path(base) / RUNS
    p = root / f"{command}-{stamp}"
    k = 2
    while p.exists():
        p = root / f"{command}-{stamp}-{k}"
        k += 1
    return p


@dataclass(frozen=True)
class OutputPlan:
    """Where a run writes and whether it is the full default run.

    ``folder`` is ``None`` when nothing is written; ``differences`` lists the parameters
    that differ from the full run's (empty: full).
    """

    folder: Path | None
    command: str
    differences: dict = field(default_factory=dict)
    auto: bool = False

    @property
    def full(self) -> bool:
        return not self.differences

    def path(self, name: str) -> Path:
        return self.folder / name

    def meta(self) -> dict:
        return {"partial": not self.full, "differs_from_full_run": self.differences}


def artefact_status(path) -> str:
    """``"missing"``, ``"full"``, ``"partial"`` or ``"unknown"`` (a file without a readable meta file).

    Meta files written before the ``partial`` flag existed describe the committed
    (full) artefacts and count as ``"full"``.
    """
    p = Path(path)
    if not p.exists():
        return "missing"
    meta = read_meta(p)
    if meta is None:
        return "unknown"
    if "sha256" in meta and meta["sha256"] != file_sha256(p):
        return "unknown"  # the meta file describes another version of the file (an interrupted run)
    return "partial" if meta.get("partial", False) else "full"


def check_full(path, what: str | None = None, strict: bool = True, warn=None) -> str:
    """Check that ``path`` is a full run's artefact; return its :func:`artefact_status`.

    A missing file is always an error; a partial one is an error when ``strict``, else
    ``warn`` (e.g. ``warnings.warn``) is called with the explanation.
    """
    p = Path(path)
    what = what or str(p)
    status = artefact_status(p)
    if status == "missing":
        raise GutsInputError(f"{what} {str(p)!r} does not exist; accepted: an existing, readable file")
    if not os.access(p, os.R_OK):
        raise GutsInputError(f"{what} {str(p)!r} is not readable; accepted: an existing, readable file")
    if status == "partial":
        meta = read_meta(p) or {}
        msg = (f"{what} {str(p)!r} is a partial run ({describe_differences(meta.get('differs_from_full_run', {}))}); "
               f"accepted: a full default run's file")
        if strict:
            raise GutsInputError(msg)
        if warn is not None:
            warn(msg)
    return status


def plan_output(command: str, out, parameters: dict, full: dict, targets=(), echo=None) -> OutputPlan:
    """Decide where a run writes (see the module docstring); check it before any work starts.

    Parameters
    ----------
    command : str
        Name of the run (``"table1"``), used for ``results/runs/<command>-<time>/``.
    out : AUTO, path or None
        Output folder: ``AUTO`` chooses, a path is used as given, ``None`` writes nothing.
    parameters, full : dict
        The run's result-defining parameters and the full default run's.
    targets : iterable of str
        File names the run will write (a partial run never replaces a full one of them).
    echo : callable, optional
        Told where the run writes and why.
    """
    diffs = parameter_differences(parameters, full)
    if out is None:
        return OutputPlan(None, command, diffs)
    auto = out is AUTO or isinstance(out, _Auto)
    if auto:
        folder = RESULTS if not diffs else run_folder(command)
    else:
        folder = Path(out)
    if diffs and not auto:
        for name in targets:
            if artefact_status(folder / name) in ("full", "unknown"):
                raise GutsInputError(
                    f"output {str(folder / name)!r} holds a full run's result and this run is partial "
                    f"({describe_differences(diffs)}); accepted: another --out folder (or none: the run then "
                    f"goes to {RESULTS / RUNS}/<command>-<time>/), or the full default parameters")
    ensure_output_dir(folder)
    lock_output_dir(folder)
    remove_stale_temporaries(folder)
    if echo is not None:
        if diffs and auto:
            echo(f"partial run ({describe_differences(diffs)}): writing to {folder}/, "
                 f"the committed {RESULTS}/ files are left alone")
        elif not diffs and auto:
            echo(f"full default run: regenerating {', '.join(str(folder / t) for t in targets) or folder}")
    return OutputPlan(folder, command, diffs, auto)
