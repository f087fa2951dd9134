"""Fan-out of independent computations (coalition sizes, meshes) through joblib.

Results come back in input order whatever the completion order; a tqdm bar shows
progress; ``jobs`` is joblib's ``n_jobs`` (1 runs in-process, -1 uses every core).
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ._validate import GutsInputError

__all__ = ["run_sweep", "parse_sizes"]


def parse_sizes(text: str, minimum: int = 1) -> list[int]:
    """Parse ``"1-15"``, ``"2,3,5"`` or ``"1-5,8,10-12"`` into a sorted list of ints.

    >>> parse_sizes("1-3,7")
    [1, 2, 3, 7]
    """
    out: set[int] = set()
    s = str(text).strip()
    if not s:
        raise GutsInputError("sizes must not be empty; use e.g. '1-15' or '2,3,5'")
    for part in s.split(","):
        part = part.strip()
        try:
            if "-" in part[1:]:
                a, b = part.split("-", 1) if not part.startswith("-") else (part, "")
                lo, hi = int(a), int(b)
                if hi < lo:
                    raise ValueError
                out.update(range(lo, hi + 1))
            else:
                out.add(int(part))
        except ValueError:
            raise GutsInputError(f"cannot read sizes {text!r}: {part!r} is not an integer or a range a-b") from None
    bad = [v for v in out if v < minimum]
    if bad:
        raise GutsInputError(f"sizes must be >= {minimum}; got {min(bad)} in {text!r}")
    return sorted(out)


def run_sweep(func: Callable, items: Sequence, jobs: int = 1, progress: bool = True, desc: str = "",
              backend: str | None = None) -> list:
    """Apply ``func`` to every item, in parallel with joblib, returning results in order.

    Parameters
    ----------
    func : callable
        Must be picklable (a module-level function) when ``jobs != 1``.
    items : sequence
    jobs : int
        joblib ``n_jobs``.
    progress : bool
        Show a tqdm progress bar (on stderr).
    backend : str, optional
        joblib backend name (default: loky processes).
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    items = list(items)
    if jobs == 0:
        raise GutsInputError("jobs must be a positive number of processes or -1 for all cores; got 0")
    bar = tqdm(total=len(items), desc=desc, disable=not progress, leave=False)
    results = [None] * len(items)
    try:
        if jobs == 1:
            for k, it in enumerate(items):
                results[k] = func(it)
                bar.update()
        else:
            par = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered")
            for k, res in par(delayed(_indexed)(func, k, it) for k, it in enumerate(items)):
                results[k] = res
                bar.update()
    finally:
        bar.close()
    return results


def _indexed(func, k, item):
    return k, func(item)
