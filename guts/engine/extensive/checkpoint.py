"""Checkpoints of a CFR solve (:func:`.cfr.cfr_plus` with ``checkpoint=`` / ``resume=``).

A checkpoint is a file of :mod:`guts.engine.persist`'s format (``format``
``"guts-cfr-checkpoint"``: NumPy ``.npz``, no pickle, a JSON header, a SHA-256 of the
content, written atomically) holding everything an iteration reads: every player's
behaviour ``B``, reach ``R``, cumulative regrets and average-strategy weights, in the
layout ``(S_p + 1, T_p)`` whichever state class ran them and in their own dtype (float32
accumulators for big games), with the last complete iteration ``t``, the iteration of the
next exploitability check, the convergence history so far, the seconds spent, the variant
and its schedule (``alpha``, ``beta``, ``gamma``; the ``horizon`` of a hyperparameter
schedule, :mod:`._schedules`), the game's fingerprint
(:func:`.fingerprint.game_fingerprint`) and the package version.

Iteration ``t + 1`` of a resumed solve reads exactly the arrays iteration ``t`` left, and
the iterates do not depend on the number of threads nor on how iterations are grouped
into calls, so a solve resumed at ``t`` continues bit for bit as the uninterrupted solve
would have.  A checkpoint is refused (one line) for another game, another variant or
other schedule parameters.
"""
from __future__ import annotations

import os
import time

import numpy as np

from ...errors import GutsInputError
from ..persist import read_container, write_container
from .fingerprint import describe_fingerprint, game_fingerprint

__all__ = ["CHECKPOINT_FORMAT", "Checkpointer", "read_checkpoint", "restore_state"]

#: ``format`` of a checkpoint file.
CHECKPOINT_FORMAT = "guts-cfr-checkpoint"
#: The schedule parameters each variant's iterates depend on.
SCHEDULE = {"cfr+": (), "pcfr+": ("gamma",), "dcfr": ("alpha", "beta", "gamma"), "hs-dcfr": ("horizon",),
            "hs-pcfr+": ("horizon",)}
_NAMES = ("B", "R", "regret", "avg")


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


class Checkpointer:
    """Writes the checkpoints of one solve to ``path`` (every ``every`` seconds, or only when
    asked, ``every=None``)."""

    def __init__(self, path, every, game, variant, alpha, beta, gamma, horizon=None):
        self.path = os.fspath(path)
        self.every = every
        self.fingerprint = game_fingerprint(game)
        self.variant = variant
        self.schedule = _schedule(variant, alpha, beta, gamma, horizon)
        self.last = time.monotonic()
        self.written = 0

    def due(self) -> bool:
        return self.every is not None and time.monotonic() - self.last >= self.every

    def write(self, state, t: int, next_check: int, history, seconds: float) -> None:
        """The state after iteration ``t`` (complete: every player updated)."""
        arrays = _snapshot(state)
        meta = {"iteration": int(t), "next_check": int(next_check),
                "history": [[int(i), float(e), float(s)] for i, e, s in history],
                "seconds": float(seconds), "variant": self.variant, "schedule": self.schedule,
                "game": self.fingerprint,
                "players": len(state.cg.players)}
        write_container(self.path, CHECKPOINT_FORMAT, meta, arrays, compress=False)
        self.last = time.monotonic()
        self.written += 1


def read_checkpoint(path, game, variant, alpha, beta, gamma, dtype, horizon=None) -> dict:
    """The content of a checkpoint for this game and variant (``GutsInputError`` otherwise):
    ``{"iteration", "next_check", "history", "seconds", "arrays", "horizon"}``. A scheduled
    variant's ``horizon=None`` takes the checkpoint's."""
    name = os.fspath(path)
    meta, arrays = read_container(name, CHECKPOINT_FORMAT, what="CFR checkpoint")
    mine = game_fingerprint(game)
    theirs = meta.get("game") or {}
    if theirs.get("sha256") != mine["sha256"]:
        raise GutsInputError(f"checkpoint {name!r} is of {describe_fingerprint(theirs)}, not of this "
                             f"{describe_fingerprint(mine)}; accepted: a checkpoint of this game")
    if meta.get("variant") != variant:
        raise GutsInputError(f"checkpoint {name!r} is of variant {meta.get('variant')!r}, this solve of "
                             f"variant={variant!r}; accepted: variant={meta.get('variant')!r} (the checkpoint's)")
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
    cg = game.compiled
    for p, pt in enumerate(cg.players):
        for k in _NAMES:
            a = arrays.get(f"{k}{p}")
            shape = (pt.num_seqs, pt.num_types)
            want_dt = np.dtype(dtype) if k in ("regret", "avg") else np.dtype(np.float64)
            if a is None or a.shape != shape or a.dtype != want_dt:
                got = "missing" if a is None else f"{a.dtype} {a.shape}"
                raise GutsInputError(f"checkpoint {name!r}: array {k}{p} is {got}; accepted: {want_dt} {shape}")
    t = meta.get("iteration")
    if not isinstance(t, int) or t < 0:
        raise GutsInputError(f"checkpoint {name!r}: iteration {t!r}; accepted: a count >= 0")
    return {"iteration": t, "next_check": int(meta.get("next_check", t + 1)),
            "history": [tuple(h) for h in meta.get("history", [])], "seconds": float(meta.get("seconds", 0.0)),
            "arrays": arrays, "horizon": horizon if "horizon" in SCHEDULE[variant] else None}
