"""Fan-out of independent computations (coalition sizes, meshes) through joblib.

Results come back in input order whatever the completion order; a tqdm bar shows
progress; ``jobs`` is joblib's ``n_jobs`` (1 runs in-process, -1 uses every core).

Two extensions for sweeps at scale:

* ``backend="dask", scheduler="tcp://host:8786"`` runs the same sweep on a Dask
  distributed cluster through joblib's Dask backend (``parallel_config("dask")``
  with a ``distributed.Client`` connected to the scheduler);
* ``cache="results/.cache"`` (a folder or a :class:`joblib.Memory`) stores every
  finished point as soon as it completes, so an interrupted sweep resumes where it
  stopped: cached points are loaded locally and only the missing ones are sent out.
  The cache is keyed by the function's code and its argument; it does not see
  changes to the library functions it calls, so clear it (delete the folder) after
  changing them.

Outputs of a sweep are written by the callers with :mod:`guts.studies.output` (atomic);
joblib writes cache entries atomically too (temporary file, then rename).
"""
from __future__ import annotations

import numbers
from pathlib import Path
from typing import Callable, Sequence

from guts._validate import GutsInputError, check_choice, check_jobs

__all__ = ["run_sweep", "parse_sizes", "BACKENDS", "sweep_cache", "check_backend"]

BACKENDS = ("loky", "threading", "multiprocessing", "dask")


def _sizes_error(name, text, reason, minimum) -> GutsInputError:
    head = f"{name} {text!r}" if name else repr(str(text))
    return GutsInputError(f"{head} ({reason}); accepted: integers >= {minimum}, comma-separated, "
                          f"ranges a-b with a <= b (e.g. {minimum}-15 or {minimum},3,5)")


def parse_sizes(text: str, minimum: int = 1, name: str | None = "sizes") -> list[int]:
    """Parse ``"1-15"``, ``"2,3,5"`` or ``"1-5,8,10-12"`` into a sorted list of ints.

    Bad input raises :class:`GutsInputError` ``"<name> '<text>' (<reason>); accepted: ..."``
    (``name=None``: the message starts with the value, for the CLI to prefix the option).

    >>> parse_sizes("1-3,7")
    [1, 2, 3, 7]
    """
    out: set[int] = set()
    s = str(text).strip()
    if not s:
        raise _sizes_error(name, text, "empty", minimum)
    for part in s.split(","):
        part = part.strip()
        if "-" in part[1:] and not part.startswith("-"):
            a, b = part.split("-", 1)
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                raise _sizes_error(name, text, f"{part!r} is not a range a-b of integers", minimum) from None
            if hi < lo:
                raise _sizes_error(name, text, f"range {part} is descending", minimum)
            out.update(range(lo, hi + 1))
        else:
            try:
                out.add(int(part))
            except ValueError:
                raise _sizes_error(name, text, f"{part!r} is not an integer", minimum) from None
    bad = [v for v in out if v < minimum]
    if bad:
        raise _sizes_error(name, text, f"{min(bad)} is below {minimum}", minimum)
    return sorted(out)


def check_backend(backend, scheduler) -> None:
    """Validate a ``backend`` / ``scheduler`` pair (before any work or output starts)."""
    if backend is not None:
        check_choice("backend", backend, BACKENDS)
    if backend == "dask" and not scheduler:
        raise GutsInputError("backend 'dask' needs the scheduler address, e.g. scheduler='tcp://127.0.0.1:8786'")
    if scheduler and backend != "dask":
        raise GutsInputError(f"a scheduler address is only used with backend 'dask'; got backend {backend!r}")


def sweep_cache(cache):
    """A :class:`joblib.Memory` for ``cache`` (a folder, a Memory, or None for no cache)."""
    from joblib import Memory

    if cache is None or isinstance(cache, Memory):
        return cache
    path = Path(cache)
    if path.exists() and not path.is_dir():
        raise GutsInputError(f"cache folder {str(path)!r} exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise GutsInputError(f"cache folder {str(path)!r} cannot be created ({exc.strerror or exc})") from None
    return Memory(str(path), verbose=0)


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
    cache : path, joblib.Memory or None
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
    call = memory.cache(func) if memory is not None else func

    results = [None] * len(items)
    pending = list(range(len(items)))
    if memory is not None:  # finished points: load them here, send out only the rest
        pending = []
        for k, it in enumerate(items):
            if call.check_call_in_cache(it):
                results[k] = call(it)
            else:
                pending.append(k)
    done = len(items) - len(pending)
    bar = progress_bar(total=len(items), initial=done, desc=desc + (f" ({done} cached)" if done else ""),
                       enabled=progress)
    try:
        if not pending:
            pass
        elif backend is None and jobs == 1:
            for k in pending:
                results[k] = call(items[k])
                bar.update()
        elif backend == "dask":
            with parallel_config(backend="dask", client=client):
                par = Parallel(n_jobs=-1 if jobs == 1 else jobs, return_as="generator_unordered")
                for k, res in par(delayed(_indexed)(call, k, items[k]) for k in pending):
                    results[k] = res
                    bar.update()
        else:
            par = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered")
            for k, res in par(delayed(_indexed)(call, k, items[k]) for k in pending):
                results[k] = res
                bar.update()
    finally:
        bar.close()
        if client is not None:
            client.close()
    return results


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
