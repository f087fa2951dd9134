"""The one atomic writer of the package (issue 19): every file is written to a temporary
file beside its target and renamed onto it, so a reader never sees half a file.

Shared by the studies (:mod:`guts.studies.output`: CSV, meta, figures) and the hold'em
family's equity table (:mod:`guts.games.holdem.equities`); the permission policy is one:
a normal write's ``0666 & ~umask``.
"""
from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = ["atomic_path", "write_bytes_atomic"]


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
