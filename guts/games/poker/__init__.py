"""Poker games from a description: limit poker as data (:class:`PokerSpec`), read from a
TOML poker description or an ACPC game definition (OpenSpiel's ``universal_poker``
format), built as the engine's public tree.

    from guts.games.poker import load_poker
    g = load_poker("leduc.game")          # or a .toml description, or the text itself
"""
from __future__ import annotations

import os

from guts.errors import GutsInputError

from .build import MAX_DEALS, build_poker, hand_rank
from .spec import PokerRound, PokerSpec, acpc_text, read_acpc, read_poker_toml

__all__ = ["load_poker", "read_poker", "build_poker", "PokerSpec", "PokerRound", "read_acpc",
           "read_poker_toml", "acpc_text", "hand_rank", "MAX_DEALS"]


def read_poker(path_or_text) -> PokerSpec:
    """A :class:`PokerSpec` from an ACPC definition (starts with ``GAMEDEF``; ``.game``,
    ``.acpc``) or a TOML poker description (``.toml``), given as a path or as text."""
    text = str(path_or_text)
    if "\n" not in text:
        ext = os.path.splitext(text)[1].lower()
        if ext == ".toml":
            return read_poker_toml(path_or_text)
        if ext in (".game", ".acpc", ".gamedef"):
            return read_acpc(path_or_text)
        if not os.path.isfile(text):
            raise GutsInputError(f"poker file {text!r} does not exist; accepted: a .toml description, "
                                 "an ACPC .game definition, or their text")
        with open(text, encoding="utf-8") as fh:
            head = fh.read(4096)
        return read_acpc(path_or_text) if head.lstrip().upper().startswith("GAMEDEF") else read_poker_toml(path_or_text)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    return read_acpc(text) if first.upper() == "GAMEDEF" else read_poker_toml(text)


def load_poker(path_or_text, *, max_deals: int = MAX_DEALS):
    """Read a poker description or ACPC game definition and build its public tree.

    Returns a :class:`~guts.engine.extensive.PublicTreeGame` (``.poker_spec`` holds the
    description).  Raises ``GutsInputError`` with one clear message for a malformed file,
    an unknown key, no-limit betting, or a deck too small for the deal.
    """
    return build_poker(read_poker(path_or_text), max_deals=max_deals)
