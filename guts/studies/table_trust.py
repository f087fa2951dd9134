"""Reading a results CSV only when it can be trusted: a bounded read of a regular file of a finished set.

A CSV of ``results/`` is published as part of a set whose manifest lists every file's
SHA-256 (:mod:`guts._atomic`, :func:`guts.studies.output.publish`).  The readers of a
Table 1 CSV (``guts fit``, ``guts simulate --table``, ``guts play --table``) use this module:

* the path must be a regular file (a symlink to ``/dev/zero`` never ends, a FIFO blocks
  until a writer comes, a directory is no table): checked with :func:`os.stat` before any
  byte is hashed or parsed;
* at most :data:`MAX_RESULTS_CSV_BYTES` bytes are ever read, before pandas sees the text;
* a set whose manifest says the publication did not finish (``"complete": false``) or
  which a later run withdrew is refused: its files may be half of one run and half of another;
* a file of no verified set (no manifest, an unreadable manifest, a hash mismatch) is used
  only after every row it supplies is re-certified from its own strategies
  (:func:`guts.studies.bot.strategy_from_row`, Theorem 1.2 of Buck et al., "Guts poker and
  increasing-stakes games", 2022), so a number its strategies do not give is refused.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

from guts.engine._textfile import check_regular_file as _check_regular_file
from guts.engine._textfile import read_text_file
from guts.errors import GutsInputError

__all__ = ["MAX_RESULTS_CSV_BYTES", "check_regular_file", "read_results_csv", "table_set_status",
           "UNTRUSTED_STATES", "REFUSED_STATES"]

#: Largest results CSV read (bytes).  The committed ``results/table1.csv`` has under 5 KB and
#: the largest committed results CSV under 300 KB; a file over this bound is no artefact of the package.
MAX_RESULTS_CSV_BYTES = 16 * 2**20

#: :func:`guts._atomic.set_status` states refused outright: the set's own manifest says the
#: publication did not finish, or a later run of its command withdrew the file.
REFUSED_STATES = ("incomplete", "withdrawn")

#: States whose rows are used only after re-certification: no manifest lists the file (or the
#: one that would is unreadable), or a file of its set changed since the manifest was written.
UNTRUSTED_STATES = ("legacy", "modified")




def check_regular_file(path, what: str, max_bytes: int = MAX_RESULTS_CSV_BYTES) -> os.stat_result:
    """``os.stat`` of ``path`` (symlinks followed) when it is a regular CSV file of at most ``max_bytes``
    (:func:`guts.engine._textfile.check_regular_file`, the file named as ``what`` and its path).

    Raises
    ------
    GutsInputError
        ``path`` cannot be read, is not a regular file (a device such as ``/dev/zero``, a
        FIFO, a directory), or is larger than ``max_bytes``.
    """
    return _check_regular_file(path, "CSV", max_bytes, source=f"{what} {os.fspath(path)!r}")


def read_results_csv(path, what: str, max_bytes: int = MAX_RESULTS_CSV_BYTES):
    """The CSV ``path`` as a DataFrame, read from a regular file of at most ``max_bytes`` bytes.

    The bytes are read (non-blocking, ``max_bytes + 1`` at most) and checked before pandas
    parses them; every failure is one :class:`GutsInputError` naming ``what`` and the path.
    """
    import pandas as pd


    check_regular_file(path, what, max_bytes)
    text = read_text_file(path, f"{what} CSV", max_bytes)
    try:
        return pd.read_csv(io.StringIO(text))
    except (ValueError, pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GutsInputError(f"cannot read {what} {os.fspath(path)!r} ({first}); accepted: a CSV file") from None


def table_set_status(path, what: str):
    """The :class:`guts._atomic.SetStatus` of a table about to be read; refuse a set that did not finish.

    The file is checked to be a regular file first (hashing ``/dev/zero`` never ends).  A
    state of :data:`REFUSED_STATES` raises :class:`GutsInputError`; the caller re-certifies
    the rows of a file in :data:`UNTRUSTED_STATES` and trusts a ``"published"`` one.
    """
    from guts.studies.output import set_status

    check_regular_file(path, what)
    st = set_status(Path(path))
    if st.state in REFUSED_STATES:
        raise GutsInputError(f"{what} {os.fspath(path)!r} is not part of a complete published set ({st.detail}); "
                             "accepted: a file of a complete set (rerun the command that writes it)")
    return st
