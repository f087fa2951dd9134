"""Reading a user's game file safely: a bounded read of a regular file, strict UTF-8, numbers
refused by their text before they are converted.

A game file (Gambit's ``.efg``, an ACPC game definition, a TOML poker description) comes
from anywhere.  What would otherwise hang, exhaust memory or end in a traceback is refused
here with one :class:`~guts.errors.GutsInputError` naming what is wrong, where, and what is
accepted:

* a path that is not a regular file (a FIFO would block ``open`` until a writer came; a
  directory; ``/dev/zero`` never ends): :func:`os.stat` is checked *before* the file is
  opened, and the file is opened non-blocking;
* a file over a size bound: at most ``max_bytes + 1`` bytes are ever read;
* bytes that are not UTF-8 (the byte offset is named);
* a number whose text is too long or whose exponent is out of range: ``Fraction("1e999999999")``
  builds a billion-digit integer, which never ends in practice, so the text is checked first
  (:func:`parse_number`).
"""
from __future__ import annotations

import os
import re
import stat
from fractions import Fraction

from guts.errors import GutsInputError

__all__ = ["read_text_file", "check_regular_file", "file_kind", "decode_utf8", "parse_number", "line_col", "MAX_NUMBER_CHARS", "MAX_NUMBER_EXPONENT"]

#: Longest number text accepted (characters, sign and exponent included).
MAX_NUMBER_CHARS = 100
#: Largest decimal exponent accepted in a number's text (``1e324`` and beyond are not doubles
#: anyway: the largest double is 1.8e308, the smallest positive 4.9e-324).
MAX_NUMBER_EXPONENT = 324

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?\Z")


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is ("a directory", "a FIFO (named pipe)", ...)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n} bytes ({n / 2**20:g} MiB)" if n >= 2**20 else f"{n} bytes"


def check_regular_file(path, what: str, max_bytes: int, *, source: str | None = None) -> os.stat_result:
    """``os.stat`` of ``path`` (symlinks followed) when it is a regular file of at most ``max_bytes``.

    Checked before the file is opened: a FIFO would block ``open`` until a writer came, and
    ``/dev/zero`` never ends.  The messages name the file as ``source`` (default: the path's
    ``repr``) and accept "a ``what`` file".

    Raises
    ------
    GutsInputError
        The path cannot be read, is not a regular file (a directory, a FIFO, a device), or is
        larger than ``max_bytes``.
    """
    name = os.fspath(path)
    source = repr(name) if source is None else source
    try:
        st = os.stat(name)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise GutsInputError(f"cannot read {source} ({reason}); accepted: a {what} file") from None
    if not stat.S_ISREG(st.st_mode):
        raise GutsInputError(f"{source} is {file_kind(st.st_mode)}; accepted: a regular {what} file")
    if st.st_size > max_bytes:
        raise GutsInputError(f"{source} has {_size(st.st_size)}; accepted: a {what} file of at most "
                             f"{_size(max_bytes)}")
    return st


def read_text_file(path, what: str, max_bytes: int) -> str:
    """The text of the regular file ``path`` (UTF-8, at most ``max_bytes`` bytes).

    Raises
    ------
    GutsInputError
        The path cannot be read or is not a regular file (checked before opening:
        :func:`check_regular_file`), the file is larger than ``max_bytes``, or it is not UTF-8.
    """
    name = os.fspath(path)
    check_regular_file(name, what, max_bytes)
    try:
        # non-blocking: should the path have become a FIFO since the check, open does not wait
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise GutsInputError(f"cannot read {name!r} ({exc.strerror}); accepted: a {what} file") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GutsInputError(f"{name!r} is {file_kind(os.fstat(fd).st_mode)}; accepted: a regular {what} file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise GutsInputError(f"cannot read {name!r} ({exc.strerror}); accepted: a {what} file") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:       # grew since the stat
        raise GutsInputError(f"{name!r} has more than {_size(max_bytes)}; accepted: a {what} file of at most "
                             f"{_size(max_bytes)}")
    return decode_utf8(data, repr(name), what)


def decode_utf8(data: bytes, source: str, what: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped), or one line naming the
    first bad byte and its offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise GutsInputError(f"{source}: not UTF-8 text: byte 0x{data[exc.start]:02x} at byte offset {exc.start} "
                             f"(line {line}); accepted: a {what} file in UTF-8 (ASCII is UTF-8)") from None
    return text[1:] if text.startswith("\ufeff") else text


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of character ``offset`` of ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def parse_number(token: str, what: str, *, max_abs: float | None = None, rational: bool = True) -> Fraction:
    """The exact value of a decimal (``-1.5``, ``2e3``) or, with ``rational``, ``p/q`` number text.

    The text is checked before :class:`~fractions.Fraction` sees it: at most
    :data:`MAX_NUMBER_CHARS` characters, an exponent of at most :data:`MAX_NUMBER_EXPONENT`
    in magnitude (``1e999999999`` would build a billion-digit integer), no ``nan``/``inf``;
    then ``|value| <= max_abs`` where given.  The message names ``what``, the text and the
    accepted form or range.
    """
    s = str(token)
    form = "a decimal number" + (" or a rational p/q" if rational else "") + (
        f" with |value| <= {max_abs:g}" if max_abs is not None else "")
    if len(s) > MAX_NUMBER_CHARS:
        raise GutsInputError(f"{what}: number text of {len(s)} characters ({s[:20]}...); accepted: {form} "
                             f"of at most {MAX_NUMBER_CHARS} characters")
    parts = s.split("/", 1) if rational else [s]
    for part in parts:
        m = _NUMBER.match(part)
        if not m:
            raise GutsInputError(f"{what} must be a number; got {s!r}; accepted: {form}")
        if m.group(1) is not None and abs(int(m.group(1))) > MAX_NUMBER_EXPONENT:
            raise GutsInputError(f"{what}: exponent of {s!r} is out of range; accepted: {form}, exponents within "
                                 f"+-{MAX_NUMBER_EXPONENT}")
    try:
        value = Fraction(parts[0]) / Fraction(parts[1]) if len(parts) == 2 else Fraction(parts[0])
    except ZeroDivisionError:
        raise GutsInputError(f"{what}: {s!r} divides by zero; accepted: {form}") from None
    if max_abs is not None and abs(value) > max_abs:
        raise GutsInputError(f"{what} = {s} is out of range; accepted: {form}")
    return value
