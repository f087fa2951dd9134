"""Solutions kept on disk and read back: one portable, versioned file per solution.

The file is a NumPy ``.npz`` archive, read with ``allow_pickle=False`` (no pickle: loading a
file executes nothing).  It holds numeric arrays only, and one entry ``meta``: the UTF-8
bytes of a JSON document with

* ``format`` (``"guts-solution"``, or ``"guts-cfr-checkpoint"`` / ``"guts-fp-checkpoint"`` for
  the solver states of :mod:`guts.engine.extensive.checkpoint`), ``format_version`` and the writing package's
  ``guts_version``;
* the result's protocol (:data:`guts.engine.result.PROTOCOL`: value, values, method,
  ``num_iter``, ``seconds``, ``converged``, and the certificate's fields), its class and
  every field that is a number, a string, a flag or a JSON document (arrays go into the
  archive, named in ``fields``);
* ``game``: a fingerprint of the game solved (:func:`guts.engine.extensive.fingerprint.
  game_fingerprint`, extensive-form solutions), and ``budget`` (what the solver was asked
  for: iterations, target, time limit);
* ``strategies``: how the arrays ``s<p>_<g>`` hold every player's strategy: a dict of
  arrays (one per information set, e.g. ``strategies[p][history]`` of shape
  ``(num_types, num_actions)``) is stored as one stacked array per distinct shape, with
  the keys (JSON: tuples as lists) in order;
* ``sha256``: the hash of the JSON (less this entry) and of every array's name, dtype,
  shape and bytes, so that a truncated, damaged or edited file is refused, not read (a
  hash is no signature: a file forged with a consistent hash is caught when its
  certificate is recomputed against its game).

Reading back: :func:`guts.engine.extensive.persist.load_solution` (``guts.load_solution``).
Every write goes through :func:`guts._atomic.atomic_path` (a temporary file beside the
target, renamed onto it): a reader never sees half a file.  Every refusal is one
:class:`~guts.errors.GutsInputError` line naming the file and what was expected.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import numbers
import os
import sys
import zipfile
from pathlib import Path

import numpy as np

from ..errors import GutsInputError

__all__ = ["FORMAT_VERSION", "SOLUTION_FORMAT", "save_result", "write_container", "read_container",
           "encode_strategies", "decode_strategies", "from_json", "package_version"]

#: Version of the file layout written (and the only one read).
FORMAT_VERSION = 1
#: ``format`` of a solution file.
SOLUTION_FORMAT = "guts-solution"
#: Name of the JSON entry of the archive.
META = "meta"
_ARRAY_KINDS = "biuf"    # bool, signed and unsigned integers, floats: nothing else is read


# ---------------------------------------------------------------------------- JSON values
def _jfloat(x):
    x = float(x)
    return x if math.isfinite(x) else {"float": repr(x)}


def _to_json(x, what):
    """``x`` as a JSON value (tuples as lists, non-finite floats as ``{"float": "nan"}``)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        return _jfloat(x)
    if isinstance(x, (tuple, list)):
        return [_to_json(v, what) for v in x]
    if isinstance(x, dict) and all(isinstance(k, str) for k in x):
        return {k: _to_json(v, what) for k, v in x.items()}
    raise TypeError(f"{what}: a {type(x).__name__} is not a number, string, flag, tuple or dict of them")


def from_json(x):
    """Inverse of :func:`_to_json` (lists back to tuples)."""
    if isinstance(x, list):
        return tuple(from_json(v) for v in x)
    if isinstance(x, dict):
        if set(x) == {"float"} and isinstance(x["float"], str):
            return float(x["float"])
        return {k: from_json(v) for k, v in x.items()}
    return x


# ---------------------------------------------------------------------------- the container
def package_version() -> str:
    """``guts.__version__`` (the package root is loaded whenever this module is; read from
    ``sys.modules``: the engine does not import the root)."""
    return str(getattr(sys.modules.get("guts"), "__version__", "unknown"))


def _digest(meta: dict, arrays: dict) -> str:
    h = hashlib.sha256()
    body = {k: v for k, v in meta.items() if k != "sha256"}
    h.update(json.dumps(body, sort_keys=True, allow_nan=False).encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\0{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        if a.size:          # an empty array has no bytes (and memoryview cannot cast a zero shape)
            h.update(memoryview(a).cast("B"))
    return h.hexdigest()


def write_container(path, fmt: str, meta: dict, arrays: dict, *, compress: bool = True) -> Path:
    """Write ``arrays`` and ``meta`` (JSON-able) as a ``fmt`` file at ``path``, atomically.

    ``meta`` gets ``format``, ``format_version``, ``guts_version`` and ``sha256``.
    """
    from .._atomic import atomic_path

    path = Path(os.fspath(path))
    if META in arrays:
        raise ValueError(f"array name {META!r} is reserved")
    meta = {"format": fmt, "format_version": FORMAT_VERSION, "guts_version": package_version(), **meta}
    meta["sha256"] = _digest(meta, arrays)
    blob = np.frombuffer(json.dumps(meta, allow_nan=False).encode(), dtype=np.uint8)
    save = np.savez_compressed if compress else np.savez
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:      # a file object: numpy adds no ".npz" to the name
            save(fh, **{META: blob}, **arrays)
    return path


def read_container(path, fmt: str, what: str = "solution") -> tuple:
    """``(meta, arrays)`` of a ``fmt`` file written by :func:`write_container`.

    Raises
    ------
    GutsInputError
        One line: the file is missing, not such a file, of another format version,
        truncated or changed since it was written.
    """
    accepted = f"accepted: a {what} file written by guts ({fmt}, format version {FORMAT_VERSION})"
    if not isinstance(path, (str, os.PathLike)):
        raise GutsInputError(f"{what} file: got {type(path).__name__} {path!r:.40}; {accepted}, named by a str or "
                             "path")
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise GutsInputError(f"{what} file {name!r} does not exist; {accepted}")
    try:
        with np.load(name, allow_pickle=False) as npz:
            if META not in npz.files:
                raise GutsInputError(f"{name!r} is not a guts {what} file (no {META!r} entry); {accepted}")
            meta = json.loads(npz[META].tobytes().decode())
            if not isinstance(meta, dict) or meta.get("format") != fmt:
                got = meta.get("format") if isinstance(meta, dict) else None
                raise GutsInputError(f"{name!r} is not a guts {what} file (format {got!r}); {accepted}")
            version = meta.get("format_version")
            if version != FORMAT_VERSION:
                raise GutsInputError(
                    f"{name!r} has format version {version!r} (written by guts {meta.get('guts_version')!r}); "
                    f"accepted: format version {FORMAT_VERSION} (what this guts reads)")
            arrays = {k: npz[k] for k in npz.files if k != META}
    except GutsInputError:
        raise
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise GutsInputError(f"{name!r} cannot be read as a guts {what} file ({first}); {accepted}") from None
    for k, a in arrays.items():
        if a.dtype.kind not in _ARRAY_KINDS:
            raise GutsInputError(f"{name!r}: entry {k!r} has dtype {a.dtype}; {accepted}")
    if meta.get("sha256") != _digest(meta, arrays):
        raise GutsInputError(f"{name!r} was changed or damaged after it was written (its sha256 does not match "
                             f"its content); {accepted}")
    return meta, arrays


# ---------------------------------------------------------------------------- strategies
def encode_strategies(strategies) -> tuple:
    """``(meta, arrays)`` for a tuple of per-player strategies (dicts of arrays, or arrays);
    ``meta = None`` when they are neither (they are then not stored)."""
    if strategies is None:
        return None, {}
    try:
        players = list(strategies)
    except TypeError:
        return None, {}
    out, arrays = [], {}
    for p, sp in enumerate(players):
        if isinstance(sp, dict):
            keys, groups, shapes, stacks = [], [], {}, {}
            for k, v in sp.items():
                a = np.asarray(v)
                if a.dtype.kind not in _ARRAY_KINDS:
                    return None, {}
                g = shapes.setdefault((a.shape, a.dtype.str), len(shapes))
                stacks.setdefault(g, []).append(a)
                keys.append(_to_json(k, f"strategies[{p}] key {k!r}"))
                groups.append(g)
            for (shape, _), g in shapes.items():
                arrays[f"s{p}_{g}"] = np.stack(stacks[g]) if stacks[g] else np.zeros((0,) + shape)
            out.append({"form": "dict", "keys": keys, "groups": groups, "num_groups": len(shapes)})
        else:
            a = np.asarray(sp)
            if a.dtype.kind not in _ARRAY_KINDS:
                return None, {}
            arrays[f"s{p}_0"] = a
            out.append({"form": "array"})
    return out, arrays


def decode_strategies(meta, arrays) -> tuple:
    """Inverse of :func:`encode_strategies` (``()`` when none were stored)."""
    if meta is None:
        return ()
    out = []
    for p, m in enumerate(meta):
        if m["form"] == "array":
            out.append(arrays[f"s{p}_0"])
            continue
        stacks = [arrays[f"s{p}_{g}"] for g in range(int(m["num_groups"]))]
        nxt = [0] * len(stacks)
        d = {}
        for k, g in zip(m["keys"], m["groups"]):
            d[from_json(k)] = stacks[g][nxt[g]]
            nxt[g] += 1
        if len(m["keys"]) != len(m["groups"]) or any(n != len(s) for n, s in zip(nxt, stacks)):
            raise ValueError(f"strategies of player {p}: keys and arrays do not match")
        out.append(d)
    return tuple(out)


# ---------------------------------------------------------------------------- results
def _class_name(obj) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def save_result(result, path, *, game=None, budget=None) -> Path:
    """Write ``result`` (any :class:`~guts.engine.result.Solution`) to ``path``, atomically.

    Parameters
    ----------
    result : Solution
    path : str or Path
        The file (conventionally ``*.npz``); replaced if it exists.
    game : optional
        The extensive-form game solved, for its fingerprint (default: the game the solver
        remembered, :func:`guts.engine.extensive.fingerprint.remember_game`, while it is
        alive; else ``result.game_fingerprint``, if any).
    budget : dict, optional
        What the solver was asked for (default: ``result.budget``, if any).

    Returns
    -------
    Path
    """
    missing = [n for n in ("value", "values", "strategies", "certificate", "converged", "num_iter", "seconds",
                           "method") if not hasattr(result, n)]
    if missing:
        raise GutsInputError(f"only a guts result can be saved; a {type(result).__name__} has no {missing[0]}")
    c = result.certificate
    protocol = {
        "value": _jfloat(result.value),
        "values": [_jfloat(v) for v in np.atleast_1d(np.asarray(result.values, dtype=float))],
        "converged": bool(result.converged), "num_iter": int(result.num_iter),
        "seconds": _jfloat(result.seconds), "method": str(result.method),
        "certificate": {f.name: (_jfloat(getattr(c, f.name)) if f.name != "kind" else c.kind)
                        for f in dataclasses.fields(c)},
    }
    try:
        s_meta, arrays = encode_strategies(result.strategies)
    except TypeError as exc:
        raise GutsInputError(f"the strategies cannot be saved: {exc}") from None
    fields, omitted = {}, []
    # the family's record is what a reader rebuilds: its class and fields (a bare
    # solution's own fields otherwise)
    record = result.details if getattr(result, "details", None) is not None else result
    if dataclasses.is_dataclass(record):
        for f in dataclasses.fields(record):
            if f.name in ("strategies", "details"):
                continue
            v = getattr(record, f.name)
            if isinstance(v, np.ndarray) and v.dtype.kind in _ARRAY_KINDS:
                arrays[f"f_{f.name}"] = v
                fields[f.name] = {"array": f"f_{f.name}"}
                continue
            try:
                fields[f.name] = {"json": _to_json(v, f.name)}
            except TypeError:
                omitted.append(f.name)
    from .extensive.fingerprint import describe_fingerprint, game_fingerprint, solved_game

    fingerprint = getattr(result, "game_fingerprint", None)
    known = solved_game(result)
    if fingerprint is None and known is not None:
        fingerprint = game_fingerprint(known)
    if game is not None:
        mine = game_fingerprint(game)
        if fingerprint and fingerprint.get("sha256") != mine["sha256"]:
            raise GutsInputError(f"this result is of {describe_fingerprint(fingerprint)}, not of the "
                                 f"{describe_fingerprint(mine)} passed as game=")
        fingerprint = mine
    if budget is None:
        budget = getattr(result, "budget", None)
    try:
        budget = _to_json(budget, "budget")
    except TypeError as exc:
        raise GutsInputError(f"budget must be a dict of numbers and strings; {exc}") from None
    meta = {"result": {"class": _class_name(record), "fields": fields, "omitted": omitted},
            "protocol": protocol, "strategies": s_meta, "game": fingerprint, "budget": budget}
    return write_container(path, SOLUTION_FORMAT, meta, arrays)
