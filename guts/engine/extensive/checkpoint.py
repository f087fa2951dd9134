"""Checkpoints of a long solve: CFR (:func:`.cfr.cfr_plus`) and fictitious play
(:func:`.fictitious.fictitious_play`), with ``checkpoint=`` / ``resume=``.

A checkpoint is a file of :mod:`guts.engine.persist`'s format (NumPy ``.npz``, no pickle,
a JSON header, a SHA-256 of the content, written atomically) holding everything an
iteration reads, the last complete iteration ``t``, the iteration of the next check, the
seconds spent, what names the solve (the method and its parameters), the game's
fingerprint (:func:`.fingerprint.game_fingerprint`) and the package version.  One writer
(:class:`Keeper`, the ``keeper`` of :func:`guts.engine.driver.drive`) and one reader
(:func:`open_checkpoint`) serve every method; a method adds only what its state holds:

``format`` ``"guts-cfr-checkpoint"`` (:class:`Checkpointer`, :func:`read_checkpoint`)
    every player's behaviour ``B``, reach ``R``, cumulative regrets and average-strategy
    weights, in the layout ``(S_p + 1, T_p)`` whichever state class ran them and in their
    own dtype (float32 accumulators for big games), the convergence history, the variant
    and its schedule (``alpha``, ``beta``, ``gamma``; the ``horizon`` of a hyperparameter
    schedule, :mod:`._schedules`).

``format`` ``"guts-fp-checkpoint"`` (:data:`FP_CHECKPOINT_FORMAT`)
    the averaging rule and the state of :mod:`.fictitious` (its ``kept()`` arrays: the
    average strategies, every player's regret history, the history, the tie-breaking
    ranks of ``action_priority``).

Iteration ``t + 1`` of a resumed solve reads exactly the arrays iteration ``t`` left, and
the iterates do not depend on the number of threads nor on how iterations are grouped
into calls, so a solve resumed at ``t`` continues bit for bit as the uninterrupted solve
would have.  A checkpoint is refused (one line) when written by another package version
(whose iterates may differ), for another game, another method (variant, averaging) or
other parameters.
"""
from __future__ import annotations

import os
import time

import numpy as np

from ...errors import GutsInputError
from ..._validate import check_positive_float
from ..persist import package_version, read_container, write_container
from .fingerprint import describe_fingerprint, game_fingerprint

__all__ = ["CHECKPOINT_FORMAT", "check_checkpoint_every", "FP_CHECKPOINT_FORMAT", "Keeper", "open_checkpoint", "check_arrays",
           "Checkpointer", "read_checkpoint", "restore_state"]

#: ``format`` of a CFR checkpoint file.
CHECKPOINT_FORMAT = "guts-cfr-checkpoint"
#: ``format`` of a fictitious-play checkpoint file.
FP_CHECKPOINT_FORMAT = "guts-fp-checkpoint"
#: The schedule parameters each variant's iterates depend on.
SCHEDULE = {"cfr+": (), "pcfr+": ("gamma",), "dcfr": ("alpha", "beta", "gamma"), "hs-dcfr": ("horizon",),
            "hs-pcfr+": ("horizon",)}
_NAMES = ("B", "R", "regret", "avg")


# ---------------------------------------------------------------------- every method
class Keeper:
    """Writes the checkpoints of one solve to ``path`` (every ``every`` seconds, or only when
    asked, ``every=None``): the ``keeper`` of :func:`guts.engine.driver.drive`.

    ``fmt``: the file's format; ``names``: the header entries that name the solve (the
    method, its parameters; compared on resume by :func:`open_checkpoint`);
    ``snapshot(state, history) -> (arrays, meta)``: the method's arrays and header entries.
    """

    def __init__(self, path, every, game, fmt: str, names: dict, snapshot):
        self.path = os.fspath(path)
        self.every = every
        self.fmt = fmt
        self.names = dict(names)
        self.snapshot = snapshot
        self.fingerprint = game_fingerprint(game)
        self.last = time.monotonic()
        self.written = 0

    def due(self) -> bool:
        return self.every is not None and time.monotonic() - self.last >= self.every

    def write(self, state, t: int, next_check: int, history, seconds: float) -> None:
        """The state after iteration ``t`` (complete: every player updated)."""
        arrays, extra = self.snapshot(state, history)
        meta = {"iteration": int(t), "next_check": int(next_check), "seconds": float(seconds),
                **self.names, "game": self.fingerprint, **extra}
        write_container(self.path, self.fmt, meta, arrays, compress=False)
        self.last = time.monotonic()
        self.written += 1


def open_checkpoint(path, fmt: str, what: str, game, names: dict) -> tuple:
    """``(name, meta, arrays)`` of a checkpoint of format ``fmt`` written by this package
    version for ``game``, whose header entries ``names`` (e.g. ``{"variant": "dcfr"}``)
    are this solve's; else one ``GutsInputError`` line naming what differs."""
    name = os.fspath(path)
    meta, arrays = read_container(name, fmt, what=what)
    mine_v, theirs_v = package_version(), meta.get("guts_version")
    if theirs_v != mine_v:
        raise GutsInputError(f"checkpoint {name!r} was written by guts {theirs_v!r}, this is guts {mine_v!r} "
                             "(its iterates may differ); accepted: a checkpoint written by this version "
                             f"(resume with guts {theirs_v!r})")
    mine = game_fingerprint(game)
    theirs = meta.get("game") or {}
    if theirs.get("sha256") != mine["sha256"]:
        raise GutsInputError(f"checkpoint {name!r} is of {describe_fingerprint(theirs)}, not of this "
                             f"{describe_fingerprint(mine)}; accepted: a checkpoint of this game")
    for key, value in names.items():
        if meta.get(key) != value:
            raise GutsInputError(f"checkpoint {name!r} is of {key} {meta.get(key)!r}, this solve of "
                                 f"{key}={value!r}; accepted: {key}={meta.get(key)!r} (the checkpoint's)")
    t = meta.get("iteration")
    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
        raise GutsInputError(f"checkpoint {name!r}: iteration {t!r}; accepted: a count >= 0")
    return name, meta, arrays


def check_arrays(name, arrays, expected: dict) -> None:
    """Every array ``k`` of ``expected`` (``k -> (shape, dtype)``) is in ``arrays`` with that
    shape and dtype (one ``GutsInputError`` line otherwise)."""
    for k, (shape, dt) in expected.items():
        a = arrays.get(k)
        dt = np.dtype(dt)
        if a is None or a.shape != tuple(shape) or a.dtype != dt:
            got = "missing" if a is None else f"{a.dtype} {a.shape}"
            raise GutsInputError(f"checkpoint {name!r}: array {k} is {got}; accepted: {dt} {tuple(shape)}")


# ---------------------------------------------------------------------- CFR
def _schedule(variant, alpha, beta, gamma, horizon=None) -> dict:
    """The variant's schedule parameters, as exact float hex strings."""
    vals = {"alpha": alpha, "beta": beta, "gamma": gamma, "horizon": horizon}
    return {k: float(vals[k]).hex() for k in SCHEDULE[variant]}


def _snapshot(state) -> dict:
    """Arrays of ``state`` (a ``_CFRState`` or a ``_WholeState``), layout (S + 1, T)."""
    if hasattr(state, "Bt"):       # the whole-game state keeps its arrays transposed
        src = {"B": state.Bt, "R": state.Rt, "regret": state.REG, "avg": state.AVG}
        return {f"{k}{p}": a.T for k, xs in src.items() for p, a in enumerate(xs)}
    src = {"B": state.B, "R": state.R, "regret": state.regret, "avg": state.avg}
    return {f"{k}{p}": a for k, xs in src.items() for p, a in enumerate(xs)}


def _cfr_snapshot(state, history) -> tuple:
    return _snapshot(state), {"history": [[int(i), float(e), float(s)] for i, e, s in history],
                              "players": len(state.cg.players)}


def restore_state(state, arrays) -> None:
    """Copy a checkpoint's arrays into a freshly built ``state`` (in place, same dtypes)."""
    if hasattr(state, "Bt"):
        dst = {"B": state.Bt, "R": state.Rt, "regret": state.REG, "avg": state.AVG}
        for k, xs in dst.items():
            for p, a in enumerate(xs):
                a[...] = arrays[f"{k}{p}"].T
    else:
        dst = {"B": state.B, "R": state.R, "regret": state.regret, "avg": state.avg}
        for k, xs in dst.items():
            for p, a in enumerate(xs):
                a[...] = arrays[f"{k}{p}"]


class Checkpointer(Keeper):
    """The :class:`Keeper` of a CFR solve: variant and schedule name it."""

    def __init__(self, path, every, game, variant, alpha, beta, gamma, horizon=None):
        self.variant = variant
        self.schedule = _schedule(variant, alpha, beta, gamma, horizon)
        super().__init__(path, every, game, CHECKPOINT_FORMAT,
                         {"variant": variant, "schedule": self.schedule}, _cfr_snapshot)


def read_checkpoint(path, game, variant, alpha, beta, gamma, dtype, horizon=None) -> dict:
    """The content of a CFR checkpoint for this game and variant (``GutsInputError`` otherwise):
    ``{"iteration", "next_check", "history", "seconds", "arrays", "horizon"}``. A scheduled
    variant's ``horizon=None`` takes the checkpoint's."""
    name, meta, arrays = open_checkpoint(path, CHECKPOINT_FORMAT, "CFR checkpoint", game, {"variant": variant})
    if "horizon" in SCHEDULE[variant] and horizon is None:
        try:
            horizon = int(float.fromhex((meta.get("schedule") or {})["horizon"]))
        except (KeyError, TypeError, ValueError):
            raise GutsInputError(f"checkpoint {name!r} of variant {variant!r} keeps no horizon; accepted: "
                                 "a checkpoint written by this version") from None
    want = _schedule(variant, alpha, beta, gamma, horizon)
    if meta.get("schedule") != want:
        got = {k: float.fromhex(v) for k, v in (meta.get("schedule") or {}).items()}
        asked = {k: float.fromhex(v) for k, v in want.items()}
        raise GutsInputError(f"checkpoint {name!r} ran {variant} with {got}, this solve asks {asked}; "
                             "accepted: the checkpoint's parameters")
    check_arrays(name, arrays, {
        f"{k}{p}": ((pt.num_seqs, pt.num_types), dtype if k in ("regret", "avg") else np.float64)
        for p, pt in enumerate(game.compiled.players) for k in _NAMES})
    t = meta["iteration"]
    return {"iteration": t, "next_check": int(meta.get("next_check", t + 1)),
            "history": [tuple(h) for h in meta.get("history", [])], "seconds": float(meta.get("seconds", 0.0)),
            "arrays": arrays, "horizon": horizon if "horizon" in SCHEDULE[variant] else None}


def check_checkpoint_every(checkpoint, checkpoint_every) -> float:
    """``checkpoint_every`` (seconds between writes) checked, and refused without a ``checkpoint`` file
    (the one check of every solver that keeps checkpoints)."""
    checkpoint_every = check_positive_float("checkpoint_every", checkpoint_every)
    if checkpoint is None:
        raise GutsInputError(f"checkpoint_every={checkpoint_every!r} without a file; accepted: "
                             "checkpoint=FILE with it (where to write the checkpoints)")
    return checkpoint_every
