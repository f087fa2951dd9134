"""Fan-out of independent computations (coalition sizes, meshes) through joblib.

Results come back in input order whatever the completion order; a tqdm bar shows
progress; ``jobs`` is joblib's ``n_jobs`` (1 runs in-process, -1 uses every core).

Two extensions for sweeps at scale:

* ``backend="dask", scheduler="tcp://host:8786"`` runs the same sweep on a Dask
  distributed cluster through joblib's Dask backend (``parallel_config("dask")``
  with a ``distributed.Client`` connected to the scheduler);
* ``cache="results/.cache"`` (a folder or a :class:`JsonCache`) stores every
  finished point as soon as it completes, so an interrupted sweep resumes where it
  stopped: cached points are loaded locally and only the missing ones are sent out.
  The cache is keyed by the function's module, qualified name and byte code, the
  package version and the item (the task's parameters), never by memory addresses, so
  a sweep resumes in a later process; it does not see changes to the library functions
  it calls within one version, so clear it (delete the folder) after changing them.

Outputs of a sweep are written by the callers with :mod:`guts.studies.output` (atomic);
cache entries are JSON (data, never pickles: a crafted file cannot run code) and written
atomically too (temporary file, then rename).
"""
from __future__ import annotations

import hashlib
import json
import numbers
import os
from pathlib import Path
from typing import Callable, Sequence

from guts._validate import GutsInputError, check_choice, check_jobs

__all__ = ["run_sweep", "parse_sizes", "BACKENDS", "sweep_cache", "default_cache", "check_backend", "JsonCache", "MAX_SIZES_COUNT"]

BACKENDS = ("loky", "threading", "multiprocessing", "dask")


#: At most this many sizes in one list (``1-1000000000`` would build a billion-entry set
#: before anything else could refuse it).
MAX_SIZES_COUNT = 10_000


def _sizes_error(name, text, reason, minimum, maximum=None) -> GutsInputError:
    head = f"{name} {text!r}" if name else repr(str(text))
    rng = f">= {minimum}" if maximum is None else f"in {minimum}..{maximum}"
    return GutsInputError(f"{head} ({reason}); accepted: integers {rng}, comma-separated, "
                          f"ranges a-b with a <= b (e.g. {minimum}-15 or {minimum},3,5), at most "
                          f"{MAX_SIZES_COUNT} of them")


def parse_sizes(text: str, minimum: int = 1, name: str | None = "sizes", maximum: int | None = None) -> list[int]:
    """Parse ``"1-15"``, ``"2,3,5"`` or ``"1-5,8,10-12"`` into a sorted list of ints.

    Bad input raises :class:`GutsInputError` ``"<name> '<text>' (<reason>); accepted: ..."``
    (``name=None``: the message starts with the value, for the CLI to prefix the option).

    >>> parse_sizes("1-3,7")
    [1, 2, 3, 7]
    """
    out: set[int] = set()
    s = str(text).strip()
    if not s:
        raise _sizes_error(name, text, "empty", minimum, maximum)
    if len(s) > 10 * MAX_SIZES_COUNT:
        raise _sizes_error(name, s[:30] + "...", "too long", minimum, maximum)
    for part in s.split(","):
        part = part.strip()
        if "-" in part[1:] and not part.startswith("-"):
            a, b = part.split("-", 1)
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                raise _sizes_error(name, text, f"{part!r} is not a range a-b of integers", minimum, maximum) from None
            if hi < lo:
                raise _sizes_error(name, text, f"range {part} is descending", minimum, maximum)
            if maximum is not None and hi > maximum:
                raise _sizes_error(name, text, f"{hi} is above {maximum}", minimum, maximum)
            if hi - lo + 1 + len(out) > MAX_SIZES_COUNT:  # checked before the range is built
                raise _sizes_error(name, text, f"more than {MAX_SIZES_COUNT} sizes", minimum, maximum)
            out.update(range(lo, hi + 1))
        else:
            try:
                out.add(int(part))
            except ValueError:
                raise _sizes_error(name, text, f"{part!r} is not an integer", minimum, maximum) from None
    bad = [v for v in out if v < minimum]
    if bad:
        raise _sizes_error(name, text, f"{min(bad)} is below {minimum}", minimum, maximum)
    big = [v for v in out if maximum is not None and v > maximum]
    if big:
        raise _sizes_error(name, text, f"{max(big)} is above {maximum}", minimum, maximum)
    if len(out) > MAX_SIZES_COUNT:
        raise _sizes_error(name, text, f"more than {MAX_SIZES_COUNT} sizes", minimum, maximum)
    return sorted(out)


def check_scheduler(scheduler):
    """``scheduler`` as given if it is None or a Dask scheduler address: a non-empty string
    without spaces (``tcp://127.0.0.1:8786``, ``127.0.0.1:8786``); else ``GutsInputError``."""
    if scheduler is None:
        return None
    if not isinstance(scheduler, str) or not scheduler.strip() or any(c.isspace() for c in scheduler):
        raise GutsInputError(f"scheduler {scheduler!r}; accepted: a Dask scheduler address such as "
                             f"'tcp://127.0.0.1:8786' (with backend 'dask'), or None")
    return scheduler


def check_backend(backend, scheduler) -> None:
    """Validate a ``backend`` / ``scheduler`` pair (before any work or output starts)."""
    check_scheduler(scheduler)
    if backend is not None:
        check_choice("backend", backend, BACKENDS)
    if backend == "dask" and not scheduler:
        raise GutsInputError("backend 'dask' needs the scheduler address, e.g. scheduler='tcp://127.0.0.1:8786'")
    if scheduler and backend != "dask":
        raise GutsInputError(f"a scheduler address is only used with backend 'dask'; got backend {backend!r}")


class JsonCache:
    """Finished points of a sweep as JSON files, one per point: data, never code.

    The sweep cache used to be a :class:`joblib.Memory`, whose entries are pickles: a file
    dropped into the cache folder ran its code on the next ``guts curve``.  Here
    an entry is ``<function>-<key>.json`` holding ``{"key": ..., "result": ...}`` where the key
    hashes the function's module, qualified name and byte code, the package version and the
    item (as JSON), all the same in every process (:meth:`_func_id`); it is read with
    :func:`json.loads`, which builds only dicts, lists, strings, numbers, booleans and None.
    A result that JSON cannot hold exactly is simply not cached.
    """

    def __init__(self, folder):
        self.folder = Path(folder)

    @staticmethod
    def _func_id(func) -> str:
        """What identifies ``func`` across processes: its module and qualified name, the package
        version and a digest of its byte code (constants included, nested code objects by their
        own digest).  Never a memory address: ``repr`` of a code object or of a function holds
        one, which differs from process to process, and an interrupted sweep would never resume."""
        import functools

        import guts

        bound = ""
        while isinstance(func, functools.partial):    # a partial: the function plus its bound arguments
            bound += json.dumps([func.args, func.keywords], sort_keys=True, default=_stable_repr)
            func = func.func
        name = getattr(func, "__qualname__", None) or type(func).__qualname__
        code = getattr(func, "__code__", None)
        body = _code_digest(code) if code is not None else ""
        return f"{getattr(func, '__module__', '')}.{name}@{guts.__version__}:{body}{bound}"

    def path(self, func, item) -> Path:
        text = json.dumps(item, sort_keys=True, default=_stable_repr)
        key = hashlib.sha256((self._func_id(func) + "\0" + text).encode()).hexdigest()[:32]
        name = getattr(func, "__name__", "func").replace("/", "_")
        return self.folder / f"{name}-{key}.json"

    def get(self, func, item):
        """``(True, result)`` for a cached point, else ``(False, None)`` (unreadable entries ignored)."""
        p = self.path(func, item)
        try:
            data = json.loads(p.read_text())
        except (OSError, ValueError):
            return False, None
        if not isinstance(data, dict) or "result" not in data:
            return False, None
        return True, data["result"]

    def put(self, func, item, result) -> None:
        """Store ``result`` if JSON holds it exactly (a round trip gives it back); else skip."""
        try:
            text = json.dumps({"item": json.loads(json.dumps(item, default=repr)), "result": result},
                              default=_plain)
        except (TypeError, ValueError):
            return
        if not _same(json.loads(text)["result"], _plain_deep(result)):
            return
        from guts.studies.output import atomic_path

        try:
            with atomic_path(self.path(func, item)) as tmp:
                tmp.write_text(text)
        except OSError:  # a cache that cannot be written only costs the resume
            pass


def _code_digest(code) -> str:
    """SHA-256 of a code object's byte code, names and constants, the same in every process
    (a nested code object, e.g. a lambda's, by its own digest, not by its repr)."""
    h = hashlib.sha256(code.co_code)
    h.update(repr(code.co_names).encode())
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            h.update(_code_digest(c).encode())
        elif isinstance(c, frozenset):     # its order follows string hashing, salted per process
            h.update(repr(sorted(map(repr, c))).encode())
        else:
            h.update(repr(c).encode())
    return h.hexdigest()[:16]


def _stable_repr(v) -> str:
    """A JSON stand-in for a parameter JSON cannot hold: its repr, unless that names a memory
    address (``<... at 0x7f...>``), then its type and public attributes."""
    text = repr(v)
    if " at 0x" in text:
        attrs = {k: x for k, x in sorted(getattr(v, "__dict__", {}).items()) if not k.startswith("_")}
        text = f"{type(v).__module__}.{type(v).__qualname__}" + json.dumps(attrs, sort_keys=True, default=_stable_repr)
    return text


def _plain(v):
    """numpy scalars as Python numbers (anything else: not JSON)."""
    import numpy as np

    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not JSON")


def _same(a, b) -> bool:
    """Equal after a JSON round trip, NaN equal to NaN (rows with a missing paper figure are
    NaN there; ``nan != nan`` would keep every such row out of the cache)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return a == b


def _plain_deep(v):
    if isinstance(v, dict):
        return {k: _plain_deep(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain_deep(x) for x in v]
    try:
        return _plain(v)
    except TypeError:
        return v


def sweep_cache(cache):
    """A :class:`JsonCache` for ``cache`` (a folder or a JsonCache), or None for no cache.

    The folder must be writable (checked before any work starts).
    """
    if cache is None or isinstance(cache, JsonCache):
        return cache
    path = Path(cache)
    if path.exists() and not path.is_dir():
        raise GutsInputError(f"cache folder {str(path)!r} exists and is not a folder; accepted: a writable folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".write-test-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise GutsInputError(f"cache folder {str(path)!r} is not writable ({exc.strerror or exc}); accepted: a "
                             "writable folder, or --no-cache") from None
    return JsonCache(path)


def default_cache(cache, default):
    """A study's ``cache`` argument as :func:`run_sweep` takes it: ``"default"`` is the study's
    ``default`` folder (as a string); a path, a :class:`JsonCache` or None as given."""
    return str(default) if isinstance(cache, str) and cache == "default" else cache


def run_sweep(func: Callable, items: Sequence, jobs: int = 1, progress: bool = True, desc: str = "",
              backend: str | None = None, scheduler: str | None = None, cache=None) -> list:
    """Apply ``func`` to every item, in parallel with joblib, returning results in order.

    Parameters
    ----------
    func : callable
        Must be picklable (a module-level function) when ``jobs != 1``, with
        ``backend="dask"`` or with a cache.
    items : sequence
    jobs : int
        joblib ``n_jobs`` (local processes; -1: all cores).  With ``backend="dask"``
        it bounds the tasks in flight (1 or -1: as many as the cluster's workers).
    progress : bool
        Show a tqdm progress bar (on stderr).
    desc : str
        Label of the progress bar.
    backend : {None, "loky", "threading", "multiprocessing", "dask"}
        joblib backend (default: loky processes when ``jobs != 1``).
    scheduler : str, optional
        Address of the Dask scheduler (``tcp://host:8786``); required by, and only
        accepted with, ``backend="dask"``.
    cache : path, JsonCache or None
        Cache of finished points (see the module docstring).

    Returns
    -------
    list
        ``[func(item) for item in items]``.

    Examples
    --------
    >>> run_sweep(abs, [-2, 3, -1], progress=False)
    [2, 3, 1]
    """
    from joblib import Parallel, delayed, parallel_config
    from guts.engine.progress import progress_bar

    items = list(items)
    check_backend(backend, scheduler)
    if backend == "dask":  # tasks in flight on a cluster, not local processes
        if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or jobs == 0 or jobs < -1:
            raise GutsInputError(f"jobs must be a positive number of tasks or -1; got {jobs!r}")
        jobs = int(jobs)
    else:
        jobs = check_jobs(jobs)  # local processes: at most the cores available
    # connect first: a failed connection must not leave an empty cache folder behind
    client = _dask_client(scheduler) if backend == "dask" else None
    try:
        memory = sweep_cache(cache)
    except BaseException:
        if client is not None:
            client.close()
        raise
    call = func
    results = [None] * len(items)
    pending = list(range(len(items)))
    if memory is not None:  # finished points: load them here, send out only the rest
        pending = []
        for k, it in enumerate(items):
            hit, value = memory.get(func, it)
            if hit:
                results[k] = value
            else:
                pending.append(k)

    def store(k, res):  # in this process, as each point arrives: an interrupted sweep resumes
        results[k] = res
        if memory is not None:
            memory.put(func, items[k], res)

    done = len(items) - len(pending)
    bar = progress_bar(total=len(items), initial=done, desc=desc + (f" ({done} cached)" if done else ""),
                       enabled=progress)
    try:
        if not pending:
            pass
        elif backend is None and jobs == 1:
            for k in pending:
                store(k, call(items[k]))
                bar.update()
        elif backend == "dask":
            with parallel_config(backend="dask", client=client):
                par = Parallel(n_jobs=-1 if jobs == 1 else jobs, return_as="generator_unordered")
                for k, res in par(delayed(_indexed)(call, k, items[k]) for k in pending):
                    store(k, res)
                    bar.update()
        else:
            # joblib's multiprocessing backend returns lists only (no generator): the bar jumps at the end
            how = "list" if backend == "multiprocessing" else "generator_unordered"
            par = Parallel(n_jobs=jobs, backend=backend, return_as=how)
            for k, res in par(delayed(_indexed)(call, k, items[k]) for k in pending):
                store(k, res)
                bar.update()
    except BaseException:
        _stop_local_workers()  # Ctrl-C/SIGTERM: no worker keeps computing (or holding memory) after us
        raise
    finally:
        bar.close()
        if client is not None:
            client.close()
    return results


def _stop_local_workers() -> None:
    """Kill joblib's reusable loky workers (they would otherwise idle for minutes holding memory)."""
    try:
        from joblib.externals.loky import reusable_executor

        executor = getattr(reusable_executor, "_executor", None)  # None: no worker was ever started
        if executor is not None:
            executor.shutdown(wait=False, kill_workers=True)
    except Exception:  # pragma: no cover - best effort on the way out
        pass


def _dask_client(address: str):
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise GutsInputError("backend 'dask' needs dask[distributed]: pip install 'guts[dask]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise GutsInputError(f"cannot connect to the Dask scheduler at {address!r} ({exc})") from None


def _indexed(func, k, item):
    return k, func(item)
