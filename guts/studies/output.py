"""Atomic, self-describing outputs under ``results/``.

Every file is written to a temporary name in the target folder and renamed into
place, so an interrupted run (Ctrl-C, crash) never leaves a half-written file; the
parameters that produced a file are written beside it as ``<name>.meta.json``.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

from guts._validate import GutsInputError

__all__ = ["ensure_output_dir", "atomic_path", "write_csv", "write_meta", "save_figure"]


def ensure_output_dir(path) -> Path:
    """Create ``path`` if needed and check it is a writable folder, else ``GutsInputError``."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise GutsInputError(f"output folder {str(p)!r} exists and is not a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=p, prefix=".write-test-", delete=True):
            pass
    except OSError as exc:
        raise GutsInputError(f"output folder {str(p)!r} is not writable ({exc.strerror or exc})") from None
    return p


@contextlib.contextmanager
def atomic_path(target):
    """Yield a temporary path beside ``target``; rename it onto ``target`` on success."""
    target = Path(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_csv(df, target, **to_csv_kwargs) -> Path:
    """Write a pandas DataFrame to ``target`` atomically."""
    target = Path(target)
    with atomic_path(target) as tmp:
        df.to_csv(tmp, index=False, **to_csv_kwargs)
    return target


def write_meta(target, parameters: dict, **extra) -> Path:
    """Write ``<target>.meta.json``: parameters, command line, versions and time."""
    from guts import __version__

    target = Path(target)
    meta_path = target.with_name(target.stem + ".meta.json")
    import numpy
    import scipy

    meta = {
        "file": target.name,
        "parameters": parameters,
        "command": " ".join(sys.argv),
        "guts_version": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        **extra,
    }
    with atomic_path(meta_path) as tmp:
        tmp.write_text(json.dumps(meta, indent=2, default=str) + "\n")
    return meta_path


def save_figure(fig, target, **kwargs) -> Path:
    """Save a matplotlib figure atomically (format from ``target``'s suffix)."""
    target = Path(target)
    fmt = target.suffix.lstrip(".") or "png"
    with atomic_path(target) as tmp:
        fig.savefig(tmp, format=fmt, **kwargs)
    return target
