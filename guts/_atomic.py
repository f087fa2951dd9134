"""The one atomic writer of the package and publication of files as sets.

Every file is written to a temporary file beside its target and renamed onto it, so a
reader never sees half a file (:func:`atomic_path`).  Shared by the studies
(:mod:`guts.studies.output`: CSV, meta, figures) and the hold'em family's equity table
(:mod:`guts.games.holdem.equities`); the permission policy is one: a normal write's
``0666 & ~umask``.

A command's artefacts are moreover published *as a set* (:class:`Publication`): they are
staged in a private hidden folder inside the target folder (same file system), and on
success renamed into place one by one, between two writes of the manifest
``<command>.manifest.json``: first ``"complete": false`` (the old set is withdrawn, the new
one is not yet valid), last ``"complete": true`` with every file's SHA-256.  A reader
accepts a file only if a complete manifest lists it and every file of that set still has
its hash (:func:`set_status`), so no interruption, at any step, makes a mixed set look valid.
Ctrl-C and SIGTERM are held back during the renames (milliseconds) and delivered after;
what was published is recorded in :data:`JOURNAL`, from which the command line reports it.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import secrets
import shutil
import signal
import threading
from pathlib import Path

__all__ = ["atomic_path", "write_bytes_atomic", "Publication", "JOURNAL", "active_publication", "set_status",
           "SetStatus", "LOOSE", "MANIFEST_SUFFIX", "STAGING_PREFIX", "file_sha256", "describe_publications",
           "manifests_in", "command_line", "repo_root"]

MANIFEST_SUFFIX = ".manifest.json"
STAGING_PREFIX = ".guts-staging-"
MANIFEST_VERSION = 1


def _create_temp(target: Path) -> Path:
    """A new empty file beside ``target``, created like ``open(..., "w")`` would (mode 0666 & ~umask)."""
    for _ in range(100):
        tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the kernel applies the umask
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise OSError(f"cannot create a temporary file beside {target}")  # pragma: no cover


@contextlib.contextmanager
def atomic_path(target):
    """Yield a temporary path beside ``target``; rename it onto ``target`` on success.

    The temporary file has the permissions of a normal write (``0666 & ~umask``), so
    every writer that goes through here (CSV, meta, figures) gives e.g. 0644.
    """
    target = Path(target)
    with _signals_held():  # a signal between creating the file and the try below would leave it behind
        tmp = _create_temp(target)
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_bytes_atomic(target, data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically (temporary file beside it, then rename)."""
    target = Path(target)
    with atomic_path(target) as tmp:
        Path(tmp).write_bytes(data)
    return target


def file_sha256(path) -> str:
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def repo_root() -> Path:
    """The checkout that holds this package (the folder of ``pyproject.toml``), else the working directory."""
    here = Path(__file__).resolve().parents[1]
    return here if (here / "pyproject.toml").is_file() else Path.cwd().resolve()


def _relative(arg: str, root: Path) -> str:
    """``arg`` relative to ``root`` if it is an absolute path inside it, else ``arg`` as given."""
    if not os.path.isabs(arg):
        return arg
    try:
        return Path(arg).resolve().relative_to(root).as_posix() or "."
    except (ValueError, OSError):
        return arg


def command_line(argv=None) -> str:
    """The shell command, run from the repository root, that made a file: ``guts table1 --quiet``,
    ``python benchmarks/lp_big.py``.

    The ``guts`` entry point (``.venv/bin/guts``, ``guts/__main__.py``) is named ``guts``; a script
    by its path relative to the repository root (:func:`repo_root`), else by its name; an
    absolute path among the arguments inside the repository is written relative to it, so no
    record names the machine's folders.
    """
    import sys

    argv = list(sys.argv if argv is None else argv)
    if not argv:
        return ""
    root = repo_root()
    prog = Path(argv[0])
    if prog.name == "guts" or (prog.name == "__main__.py" and prog.parent.name == "guts"):
        head = "guts"
    elif argv[0] in ("-c", "-m"):
        head = f"python {argv[0]}"
    else:
        try:
            head = "python " + prog.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            head = "python " + prog.name
    return " ".join([head, *(_relative(a, root) for a in argv[1:])])


# ---------------------------------------------------------------------------
# Publication of a command's files as one set
# ---------------------------------------------------------------------------
#: Every :class:`Publication` opened in this process, oldest first (the command line reports
#: from it what an interrupted command published).
JOURNAL: list = []
_ACTIVE: list = []  # open publications, innermost last
#: Study files written outside any publication (each atomically), oldest first.
LOOSE: list = []


def _before_step(pub: "Publication", step: str) -> None:
    """Called before every step of a publication (a test raises here to simulate a crash)."""


@contextlib.contextmanager
def _signals_held():
    """Hold Ctrl-C and SIGTERM back while the block runs; deliver them after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending, old = [], {}

    def hold(signum, frame):
        pending.append((signum, frame))

    for s in (signal.SIGINT, signal.SIGTERM):
        try:
            old[s] = signal.signal(s, hold)
        except (ValueError, OSError):  # pragma: no cover - no signals here
            pass
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if pending:
            signum, frame = pending[0]
            h = old.get(signum)
            if callable(h):
                h(signum, frame)  # e.g. KeyboardInterrupt, or the command line's SIGTERM handler
            elif h != signal.SIG_IGN:
                signal.raise_signal(signum)  # pragma: no cover - the default action


class Publication:
    """The files of one run of ``command`` in ``folder``, staged privately and published together.

    ``state`` is ``"open"`` (files being staged), ``"publishing"``, ``"published"`` (the
    complete manifest is written), ``"aborted"`` (nothing published) or ``"broken"``
    (stopped while publishing: ``published`` lists the files renamed into place, and the
    manifest says the set is incomplete).
    """

    def __init__(self, folder, command: str, info: dict | None = None):
        if not command or "/" in command or command.startswith("."):
            raise ValueError(f"publication name {command!r}: a plain file-name stem")
        self.folder = Path(folder)
        self.command = command
        self.info = dict(info or {})
        self.manifest = self.folder / f"{command}{MANIFEST_SUFFIX}"
        self.staging: Path | None = None
        self.staged: dict = {}  # file name -> staged path, in the order written
        self.published: list = []
        self.withdrawn: list = []
        #: files outside the set written once it is published (``name -> bytes``): a run's own
        #: record (its time and versions), which must not describe a run that published nothing
        self.after: dict = {}
        self.state = "new"

    # -- staging -------------------------------------------------------
    def open(self) -> "Publication":
        self.staging = Path(_mkdtemp(self.folder, f"{STAGING_PREFIX}{self.command}-{os.getpid()}-"))
        self.state = "open"
        JOURNAL.append(self)
        _ACTIVE.append(self)
        return self

    def stage(self, target) -> Path | None:
        """The staged path of ``target`` if it belongs to this set (a file directly in ``folder``), else None."""
        target = Path(target)
        if self.state != "open" or target.name.endswith(MANIFEST_SUFFIX):
            return None
        if _same_dir(target.parent, self.folder):
            self.staged[target.name] = self.staging / target.name
            return self.staged[target.name]
        return None

    def staged_file(self, target) -> Path:
        """Where ``target``'s current bytes are: its staged copy if staged, else ``target`` itself."""
        target = Path(target)
        p = self.staged.get(target.name) if _same_dir(target.parent, self.folder) else None
        return p if p is not None and p.exists() else target

    # -- publishing ----------------------------------------------------
    def commit(self) -> None:
        """Publish the staged files: manifest "incomplete", renames, manifest "complete" (signals held)."""
        with _signals_held():
            _ACTIVE.remove(self)
            self.state = "publishing"
            old_raw, body = None, {}
            try:
                names = [n for n, p in self.staged.items() if p.exists()]
                files = {n: {"sha256": file_sha256(self.staged[n]), "bytes": self.staged[n].stat().st_size}
                         for n in names}
                old_raw = self.manifest.read_bytes() if self.manifest.is_file() else None
                old = _read_json(self.manifest) or {}
                withdrawn = (set(old.get("files", {})) | set(old.get("withdrawn", []))) - set(names)
                self.withdrawn = sorted(n for n in withdrawn if (self.folder / n).exists())
                body = {"manifest_version": MANIFEST_VERSION, "set": self.command,
                        "command": command_line(), "complete": False,
                        "files": files, "withdrawn": self.withdrawn, **self.info, "started_utc": _now()}
                _before_step(self, "manifest: incomplete")
                _write_json(self.manifest, body)
                for n in names:
                    _before_step(self, f"rename {n}")
                    os.replace(self.staged[n], self.folder / n)
                    self.published.append(n)
                _before_step(self, "manifest: complete")
                # the complete manifest holds no time of day: a run that reproduces a committed set
                # leaves its manifest byte-identical (the run's time is in its run records)
                final = {k: v for k, v in body.items() if k != "started_utc"}
                final["complete"] = True
                _write_json(self.manifest, final)
                self.state = "published"
                for n, data in self.after.items():
                    write_bytes_atomic(self.folder / n, data)
            except BaseException:
                self.state = "broken" if self.published or not self._restore(old_raw, body) else "aborted"
                self._cleanup()
                raise
            try:
                _before_step(self, "clean-up")
            finally:
                self._cleanup()

    def _restore(self, old_raw, body) -> bool:
        """No file renamed yet: put the previous manifest back (the old set stays valid); True if done."""
        try:
            if not _is_ours(self.manifest, body):
                return True  # the incomplete manifest was never written
            if old_raw is None:
                self.manifest.unlink()
            else:
                with atomic_path(self.manifest) as tmp:
                    Path(tmp).write_bytes(old_raw)
            return True
        except OSError:
            return False

    def abort(self) -> None:
        """Publish nothing: remove the staged files (signals held)."""
        with _signals_held():
            if self in _ACTIVE:
                _ACTIVE.remove(self)
            if self.state in ("open", "new"):
                self.state = "aborted"
            self._cleanup()

    def _cleanup(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)

    # -- reporting -----------------------------------------------------
    @property
    def unpublished(self) -> list:
        return [n for n in self.staged if n not in self.published]

    def describe(self) -> str:
        """What this publication made visible, in one clause."""
        where = str(self.folder)
        if self.state == "published":
            return f"published the complete set {self.manifest.name} in {where}/: {', '.join(self.published)}"
        if self.state == "broken":
            got = ", ".join(self.published) if self.published else "no file"
            return (f"published {got} in {where}/ but not {', '.join(self.unpublished) or 'the final manifest'}: "
                    f"the set is incomplete ({self.manifest.name} says so and readers refuse it; rerun the command)")
        return f"published nothing in {where}/"


def describe_publications(pubs, loose=()) -> str:
    """One clause for the publications of one command: ``"published nothing"`` or what each published
    (``loose``: files written outside any publication, each atomically)."""
    pubs = [p for p in pubs if p.state in ("published", "broken")]
    parts = [p.describe() for p in pubs]
    if loose:
        parts.append(f"wrote outside any set: {', '.join(dict.fromkeys(map(str, loose)))}")
    if not parts:
        return "published nothing (no file was changed)"
    return "; ".join(parts) + "; nothing else"


def active_publication(target=None) -> Publication | None:
    """The innermost open publication (that ``target``, if given, belongs to), or None."""
    for pub in reversed(_ACTIVE):
        if target is None or _same_dir(Path(target).parent, pub.folder):
            return pub
    return None


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _mkdtemp(folder: Path, prefix: str) -> str:
    import tempfile

    return tempfile.mkdtemp(prefix=prefix, dir=folder)


#: Largest manifest or lock file read (bytes); a larger one is unreadable, as a corrupt one.
MAX_JSON_BYTES = 4 * 2**20


def _read_json(path) -> dict | None:
    """The JSON object in the regular file ``path``, or None (missing, not a regular file: a
    FIFO would block and ``/dev/zero`` never end; over :data:`MAX_JSON_BYTES`; not a JSON object)."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(fd, "rb", closefd=False) as fh:
                raw = fh.read(MAX_JSON_BYTES + 1)
        finally:
            os.close(fd)
        if len(raw) > MAX_JSON_BYTES:
            return None
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, body: dict) -> None:
    with atomic_path(path) as tmp:
        Path(tmp).write_text(json.dumps(body, indent=2, default=str) + "\n")


def _is_ours(path: Path, body: dict) -> bool:
    m = _read_json(path) or {}
    return bool(body) and m.get("complete") is False and m.get("started_utc") == body.get("started_utc") and m.get("files") == body.get("files")


# ---------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------
class SetStatus:
    """Whether a file is part of a complete published set.

    ``state``: ``"published"`` (a complete manifest lists it and every file of that set has
    its hash), ``"incomplete"`` (its manifest says the publication did not finish),
    ``"modified"`` (a file of its set was changed, replaced or removed since), ``"withdrawn"``
    (the last run of its command did not publish it again), ``"legacy"`` (no manifest lists
    it: written before manifests existed, or by hand) or ``"missing"``.
    """

    __slots__ = ("state", "manifest", "detail")

    def __init__(self, state: str, manifest: Path | None = None, detail: str = ""):
        self.state, self.manifest, self.detail = state, manifest, detail

    @property
    def ok(self) -> bool:
        return self.state == "published"

    def __repr__(self):
        return f"SetStatus({self.state!r}, {str(self.manifest) if self.manifest else None!r}, {self.detail!r})"


def manifests_in(folder) -> list:
    """The manifest files of ``folder``, by name."""
    try:
        return sorted(Path(folder).glob(f"*{MANIFEST_SUFFIX}"))
    except OSError:  # pragma: no cover
        return []


def set_status(path) -> SetStatus:
    """:class:`SetStatus` of ``path``: is it part of a complete published set (every hash checked)?"""
    p = Path(path)
    if not p.exists():
        return SetStatus("missing")
    if p.name.endswith(MANIFEST_SUFFIX):
        m = _read_json(p)
        return _check_set(p, m) if m is not None else SetStatus("modified", p, "unreadable manifest")
    problems = []
    for mp in manifests_in(p.parent):
        m = _read_json(mp)
        if m is None:
            continue
        if not isinstance(m.get("files", {}), dict) or not isinstance(m.get("withdrawn", []), list):
            problems.append(SetStatus("modified", mp, f"{mp.name} is no manifest (files or withdrawn of the wrong "
                                                      "type)"))
            continue
        if p.name in m.get("files", {}):
            st = _check_set(mp, m)
            if st.ok:
                return st
            problems.append(st)
        elif p.name in m.get("withdrawn", []):
            problems.append(SetStatus("withdrawn", mp, f"withdrawn: the last run recorded in {mp.name} did not "
                                                        "publish it again, it belongs to an older set"))
    if problems:
        return problems[0]
    return SetStatus("legacy", None, "no manifest lists it")


def _check_set(mp: Path, m: dict) -> SetStatus:
    if not isinstance(m.get("files", {}), dict):
        return SetStatus("modified", mp, f"{mp.name} is no manifest (its files are not a table)")
    if not m.get("complete", False):
        return SetStatus("incomplete", mp, f"{mp.name} says the publication started {m.get('started_utc', '?')} "
                                           "did not finish")
    for name, rec in m.get("files", {}).items():
        f = mp.parent / name
        if not f.is_file():
            return SetStatus("modified", mp, f"{name} of the set is missing")
        want = rec.get("sha256") if isinstance(rec, dict) else rec
        if file_sha256(f) != want:
            return SetStatus("modified", mp, f"{name} was changed after {mp.name} was written (hash mismatch)")
    return SetStatus("published", mp, "")
