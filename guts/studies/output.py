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

A run's files are one *set*: a study writes them inside :func:`publish`, which
stages them privately and publishes them together under a manifest
``<command>.manifest.json`` written last; :func:`set_status` (used by
:func:`artefact_status` and :func:`check_full`) accepts a file only as part of a complete
set whose every file still has its recorded hash.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from guts._atomic import (_create_temp, command_line, atomic_path as _atomic_path, file_sha256,  # noqa: F401 - re-exported
                          MANIFEST_SUFFIX, STAGING_PREFIX, Publication, SetStatus, active_publication, set_status,
                          _ACTIVE)
from guts._validate import GutsInputError

__all__ = ["publish", "adopt_files", "set_status", "SetStatus", "Publication", "MANIFEST_SUFFIX", "manifest_path",
           "lock_output_dir", "remove_stale_temporaries", "file_sha256", "AUTO", "RESULTS", "RUNS", "peak_rss_mb", "ensure_output_dir", "atomic_path", "write_csv", "meta_path", "write_meta",
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
    """Peak resident memory of this process so far, in MiB (:func:`guts._validate.peak_rss_bytes`)."""
    from guts._validate import peak_rss_bytes

    return peak_rss_bytes() / 2**20


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

    Two runs writing to one ``--out`` would mix their files; the second is refused
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
    """Delete what killed runs left in ``folder``: temporaries of the atomic writer
    (``.<name>.<hex>.tmp``) and staging folders of publications (``.guts-staging-*``).

    Called with the folder's lock held (:func:`lock_output_dir`): no other run can be
    writing there, so every such leftover not belonging to an open publication of this
    process is a dead run's (SIGKILL, power cut; Ctrl-C and SIGTERM clean up themselves).
    """
    import re
    import shutil

    removed = []
    mine = {pub.staging.name for pub in _ACTIVE if pub.staging is not None}
    for p in Path(folder).glob(".*"):
        if p.is_file() and re.fullmatch(r"\..+\.[0-9a-f]{8}\.tmp", p.name):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
        elif p.is_dir() and p.name.startswith(STAGING_PREFIX) and p.name not in mine:
            shutil.rmtree(p, ignore_errors=True)
            if not p.exists():
                removed.append(p)
    return removed


def manifest_path(folder, command: str) -> Path:
    """``<folder>/<command>.manifest.json``: the list of files the last run of ``command`` published."""
    return Path(folder) / f"{command}{MANIFEST_SUFFIX}"


@contextlib.contextmanager
def publish(where, command: str | None = None, parameters: dict | None = None, echo=None, **info):
    """Write a run's files as one set: ``with publish(plan) as pub: write_csv(...) ...``.

    ``where`` is an :class:`OutputPlan` (its folder, command name and full/partial status) or a
    folder (then ``command`` names the set).  Inside the block, :func:`write_csv`,
    :func:`write_meta`, :func:`save_figure` and :func:`atomic_path` stage every file written
    directly in that folder into a private ``.guts-staging-<command>-*`` folder beside them.
    When the block ends normally, the files are published: the manifest
    ``<command>.manifest.json`` is written saying ``"complete": false``, the staged files are
    renamed into place, and the manifest is written again, last, with ``"complete": true``
    and every file's SHA-256 (Ctrl-C and SIGTERM are held back for those milliseconds).
    When the block raises (Ctrl-C, bad input, a crash), nothing is published and the old
    set is left as it was.  Files of the previous set that this run did not write again are
    listed as ``"withdrawn"`` (readers refuse them).  The folder is locked for the rest of
    the process (:func:`lock_output_dir`) and leftovers of killed runs are removed first.
    With a plan whose folder is ``None`` (nothing written) the block runs with ``None``;
    inside an open publication of the same folder, the files join that (outer) set.
    """
    from guts import __version__

    if isinstance(where, OutputPlan):
        folder, command = where.folder, command or where.command
        info = {**where.meta(), **info}
    else:
        folder = where
    if folder is None:
        yield None
        return
    if command is None:
        raise TypeError("publish(folder, command): the set needs a name")
    outer = active_publication(Path(folder) / "_")
    if outer is not None:  # inside a publication of that folder: its files join that set
        yield outer
        return
    folder = ensure_output_dir(folder)
    lock_output_dir(folder)
    remove_stale_temporaries(folder)
    # the command line that ran is the run's own (its record, :func:`write_meta`); the set holds
    # what determines its files: the set's name and parameters
    pub = Publication(folder, command, info={"parameters": parameters, "guts_version": __version__, **info})
    pub.open()
    try:
        yield pub
    except BaseException:
        pub.abort()
        raise
    pub.commit()
    if echo is not None:
        echo(f"published {', '.join(str(folder / n) for n in pub.published)} (set {pub.manifest.name})")


@contextlib.contextmanager
def atomic_path(target):
    """Yield a temporary path for ``target``; on success rename it onto ``target`` or, inside
    :func:`publish` for that folder, into the publication's staging folder."""
    target = Path(target)
    pub = active_publication(target)
    staged = pub.stage(target) if pub is not None else None
    with _atomic_path(staged if staged is not None else target) as tmp:
        yield tmp


def write_csv(df, target, **to_csv_kwargs) -> Path:
    """Write a pandas DataFrame to ``target`` atomically (staged inside :func:`publish`)."""
    target = Path(target)
    with atomic_path(target) as tmp:
        df.to_csv(tmp, index=False, **to_csv_kwargs)
    _note_loose(target)
    return target


def _note_loose(target: Path) -> None:
    """Record a study file written outside any publication (the interrupt message names it)."""
    from guts import _atomic

    if active_publication(target) is None:
        _atomic.LOOSE.append(target)


def meta_path(target) -> Path:
    """``<target>.meta.json`` beside ``target`` (``table1.csv`` -> ``table1.meta.json``)."""
    target = Path(target)
    return target.with_name(target.stem + ".meta.json")


#: Meta fields that change from one run of the same command to the next (time, machine): they go to
#: the run record ``<target>.run.json`` (not tracked, not part of the set), so that re-running a
#: committed artefact's command on the same inputs leaves its tracked files byte-identical.
VOLATILE_META_KEYS = ("created_utc", "python", "numpy", "scipy")


def run_record_path(target) -> Path:
    """``<target>.run.json`` beside ``target``: the last run's time, wall seconds and versions."""
    target = Path(target)
    return target.with_name(target.stem + ".run.json")


def _is_volatile(key: str) -> bool:
    return key in VOLATILE_META_KEYS or key.endswith("seconds")


def write_meta(target, parameters: dict, plan: "OutputPlan | None" = None, **extra) -> Path:
    """Write ``<target>.meta.json`` (parameters, package version, the artefact's hash, the shell
    command that regenerates it from the repository root (:func:`command_line`; an ``extra``
    ``command`` is ignored) and, with a ``plan``, whether the run was partial) and
    ``<target>.run.json`` (the command line, when,
    how long, on which Python, NumPy and SciPy: :data:`VOLATILE_META_KEYS` and every ``*seconds``
    entry of ``extra``).

    The meta file depends only on the inputs and the results, so a run that reproduces a committed
    artefact leaves it unchanged; the run record is the run's own and is not part of the set.
    """
    from guts import __version__

    import numpy
    import scipy

    target = Path(target)
    path = meta_path(target)
    pub = active_publication(target)
    current = pub.staged_file(target) if pub is not None else target  # inside publish(): the staged copy
    meta = {
        "file": target.name,
        # the meta file is written after its artefact: its hash of the artefact ties the pair
        # together (outside publish(), the only check a reader has that the two belong together)
        **({"sha256": file_sha256(current)} if current.is_file() else {}),
        "parameters": parameters,
        "guts_version": __version__,
        # the shell command, from the repository root, that regenerates the file (one format for
        # every writer: :func:`guts._atomic.command_line`)
        "command": command_line(),
        **(plan.meta() if plan is not None else {}),
        **{k: v for k, v in extra.items() if not _is_volatile(k) and k != "command"},
    }
    run = {
        "file": target.name,
        "command": command_line(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        **{k: v for k, v in extra.items() if _is_volatile(k)},
    }
    shared = pub.staged_file(path) if pub is not None else None
    if shared is not None and shared != path and shared.is_file():
        # two files of one set share a meta file (``x.csv`` and ``x.png`` -> ``x.meta.json``): the
        # second is described inside the first's, under "also", instead of replacing it
        first = json.loads(shared.read_text())
        if first.get("file") != target.name:
            first.setdefault("also", {})[target.name] = {k: v for k, v in meta.items() if k != "file"}
            meta = first
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(meta, indent=2, default=str) + "\n")
    _note_loose(path)
    # the run record is outside the set (never staged, never hashed); inside publish() it is
    # written once the set is published, so that it never describes a run that published nothing
    rec = run_record_path(target)
    data = (json.dumps(run, indent=2, default=str) + "\n").encode()
    if pub is not None:
        pub.after[rec.name] = data
    else:
        rec.parent.mkdir(parents=True, exist_ok=True)
        with _atomic_path(rec) as tmp:
            Path(tmp).write_bytes(data)
    return path


def read_run_record(target) -> dict | None:
    """The run record of ``target`` (:func:`run_record_path`) as a dict, or ``None``."""
    try:
        return json.loads(run_record_path(target).read_text())
    except (OSError, ValueError):
        return None


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
    _note_loose(target)
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
    """``"missing"``, ``"full"``, ``"partial"``, ``"incomplete"`` or ``"unknown"``.

    ``"incomplete"``: the file is listed by a manifest but is not part of a complete
    published set (:func:`set_status`: an interrupted publication, a file of the set changed
    since, or withdrawn by a later run).  A file of a complete set is ``"full"`` or
    ``"partial"`` as its set's manifest (else its meta file) says.  A file no manifest
    lists (*legacy*: written before manifests existed) is judged by its meta file as
    before: ``"unknown"`` without a readable one or when the meta file's hash of the file
    does not match; meta files written before the ``partial`` flag existed count as ``"full"``.
    """
    p = Path(path)
    if not p.exists():
        return "missing"
    st = set_status(p)
    if st.state in ("incomplete", "modified", "withdrawn"):
        return "incomplete"
    meta = read_meta(p)
    if st.ok:
        manifest = json.loads(st.manifest.read_text())
        partial = manifest.get("partial", (meta or {}).get("partial", False))
        return "partial" if partial else "full"
    if meta is None:
        return "unknown"
    if "sha256" in meta and meta["sha256"] != file_sha256(p):
        return "unknown"  # the meta file describes another version of the file (an interrupted run)
    return "partial" if meta.get("partial", False) else "full"


def check_full(path, what: str | None = None, strict: bool = True, warn=None) -> str:
    """Check that ``path`` is a full run's artefact; return its :func:`artefact_status`.

    A missing file, or one that is not part of a complete published set
    (``"incomplete"``), is always an error; a partial one is an error when ``strict``, else
    ``warn`` (e.g. ``warnings.warn``) is called with the explanation.  A legacy file (no
    manifest lists it) is accepted with a ``warn``.
    """
    p = Path(path)
    what = what or str(p)
    status = artefact_status(p)
    if status == "missing":
        raise GutsInputError(f"{what} {str(p)!r} does not exist; accepted: an existing, readable file")
    if not os.access(p, os.R_OK):
        raise GutsInputError(f"{what} {str(p)!r} is not readable; accepted: an existing, readable file")
    if status == "incomplete":
        raise GutsInputError(f"{what} {str(p)!r} is not part of a complete published set "
                             f"({set_status(p).detail}); accepted: a file of a complete set (rerun the command "
                             f"that writes it)")
    if warn is not None and set_status(p).state == "legacy":
        warn(f"{what} {str(p)!r} is legacy (no manifest lists it): cannot check that it and the files "
             f"beside it come from one run")
    if status == "partial":
        meta = read_meta(p) or {}
        msg = (f"{what} {str(p)!r} is a partial run ({describe_differences(meta.get('differs_from_full_run', {}))}); "
               f"accepted: a full default run's file")
        if strict:
            raise GutsInputError(msg)
        if warn is not None:
            warn(msg)
    return status


def plan_output(command: str, out, parameters: dict, full: dict, targets=(), echo=None,
                results=RESULTS) -> OutputPlan:
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
    results : path
        The full run's folder when ``out`` is ``AUTO`` (default ``results/``; benchmarks:
        ``results/benchmarks/``).
    """
    diffs = parameter_differences(parameters, full)
    if out is None:
        return OutputPlan(None, command, diffs)
    auto = out is AUTO or isinstance(out, _Auto)
    if auto:
        folder = Path(results) if not diffs else run_folder(command)
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


# ---------------------------------------------------------------------------
# Manifests for files written before manifests existed
# ---------------------------------------------------------------------------
def adopt_files(folder, command: str, names, note: str) -> Path:
    """Write a complete manifest, marked ``"retroactive": true``, for existing files of one run.

    For artefacts committed before manifests existed: nothing is recomputed, the
    manifest records the files' current hashes.  Refused (:class:`GutsInputError`) when a
    file is missing, when a file's meta file records a SHA-256 that the file does not have
    (the pair is not from one run), or when a manifest written by a real run is there.
    """
    from guts import _atomic

    folder = Path(folder)
    target = manifest_path(folder, command)
    old = _atomic._read_json(target)
    if old is not None and not old.get("retroactive", False):
        raise GutsInputError(f"{target} was written by a run of {command}; accepted: files without a manifest")
    files, shell = {}, None
    for name in names:
        p = folder / name
        if not p.is_file():
            raise GutsInputError(f"{p} does not exist; accepted: the existing files of one run")
        meta = read_meta(p) if not name.endswith(".meta.json") else None
        if meta is not None and meta.get("file") == name and "sha256" in meta and meta["sha256"] != file_sha256(p):
            raise GutsInputError(f"{p} is not the file its meta file describes (hash mismatch); accepted: "
                                 "the files of one run (rerun the command)")
        files[name] = {"sha256": file_sha256(p), "bytes": p.stat().st_size}
        if meta is not None and str(meta.get("command", "")).startswith(("guts ", "python ")):
            shell = shell or meta["command"]  # the command that regenerates the set, as its meta files record it
    body = {"manifest_version": _atomic.MANIFEST_VERSION, "set": command, "command": shell or command_line(),
            "complete": True, "files": files,
            "withdrawn": [], "retroactive": True, "note": note, "published_utc": _atomic._now()}
    lock_output_dir(folder)
    _atomic._write_json(target, body)
    return target
