"""The fingerprint of an extensive-form game: which game a solution file or a checkpoint is of.

:func:`game_fingerprint` is the SHA-256 of the compiled game (:mod:`._compiled`: deal
probabilities and types, the public tree, every player's decisions, sequences, histories
and action labels, the chance contexts, the payoff tables and every terminal's affine
payoff), with the game's sizes for a reader.  Two games with the same fingerprint are the
same game, built the same way; a game built in another way (other labels, another order)
has another fingerprint, even when it is equivalent.
"""
from __future__ import annotations

import hashlib
import weakref

import numpy as np

__all__ = ["game_fingerprint", "describe_fingerprint", "remember_game", "solved_game", "FINGERPRINT_VERSION"]

#: Version of what :func:`game_fingerprint` hashes (bumped if that changes).
FINGERPRINT_VERSION = 1


def _arr(h, a):
    """Hash an array in a portable form (little-endian int64 / float64, shape first)."""
    a = np.asarray(a)
    a = np.ascontiguousarray(a, dtype="<f8" if a.dtype.kind == "f" else "<i8")
    h.update(f"{a.shape}".encode())
    h.update(memoryview(a).cast("B"))


def _sizes(game, cg) -> dict:
    return {"players": int(cg.num_players), "deals": int(cg.num_deals),
            "types": [int(t) for t in cg.num_types], "public_nodes": int(cg.num_nodes),
            "terminals": int(cg.num_terminals),
            "decisions": [int(pt.num_decisions) for pt in cg.players],
            "sequences": [int(pt.num_seqs - 1) for pt in cg.players]}


def game_fingerprint(game) -> dict:
    """``{"sha256": hex, "version": FINGERPRINT_VERSION, "sizes": {...}}`` of an extensive-form game
    (cached on the compiled game)."""
    from .strategies import _check_game

    cg = _check_game(game)
    fp = getattr(cg, "_fingerprint", None)
    if fp is not None:
        return fp
    h = hashlib.sha256(f"guts game fingerprint {FINGERPRINT_VERSION}\0".encode())
    h.update(f"{cg.num_players} {cg.num_deals} {tuple(cg.num_types)} {bool(cg.zero_sum)}"
             f" {float(cg.payoff_scale)!r}\0".encode())
    for a in (cg.prob, cg.info, cg.kind, cg.parent, cg.ctx, cg.term_node, cg.term_seq, cg.term_vid, cg.term_scal,
              cg.term_tid, cg.term_offset, cg.term_scale):
        _arr(h, a)
    h.update(f"tables {len(cg.tables)}\0".encode())
    for t in cg.tables:
        _arr(h, t)
    for pt in cg.players:
        h.update(f"player {pt.num_types} {pt.num_seqs}\0".encode())
        for a in (pt.dec_node, pt.dec_first, pt.dec_num_actions, pt.dec_parent, pt.seq_dec):
            _arr(h, a)
        h.update(repr(list(pt.histories)).encode())
        h.update(repr(list(pt.action_labels)).encode())
    fp = {"sha256": h.hexdigest(), "version": FINGERPRINT_VERSION, "sizes": _sizes(game, cg)}
    cg._fingerprint = fp
    return fp


def describe_fingerprint(fp) -> str:
    """A fingerprint in a few words (hash prefix and sizes), for messages."""
    if not fp:
        return "an unrecorded game"
    s = fp.get("sizes", {})
    return (f"game {str(fp.get('sha256'))[:16]} ({s.get('players')} players, {s.get('deals')} deals, "
            f"{s.get('public_nodes')} public nodes, {sum(s.get('decisions') or [])} decisions)")


def remember_game(result, game):
    """``result``, remembering (weakly) the game it solves: ``result.save(path)`` records that
    game's fingerprint then, without hashing the game at every solve (3P Mercer hold'em with a
    check: 2.6 s). Returns ``result``."""
    try:
        object.__setattr__(result, "_game_ref", weakref.ref(game))
    except TypeError:           # pragma: no cover - a game without weak references
        pass
    return result


def solved_game(result):
    """The game :func:`remember_game` remembered for ``result`` (None if gone or never known)."""
    ref = getattr(result, "_game_ref", None)
    return ref() if ref is not None else None
