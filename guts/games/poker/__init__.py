"""Poker games from a description: poker as data (:class:`PokerSpec`), read from a TOML
poker description or an ACPC game definition (OpenSpiel's ``universal_poker`` format),
built as the engine's public tree.

    from guts.games.poker import load_poker
    g = load_poker("leduc.game")          # or a .toml description, or the text itself
    g = load_poker("mercer_smh", players=3)   # a shipped description (descriptions/)

The family: :mod:`.spec` (the data and its file forms), :mod:`.build` (a description as
the builder's rules), the one tree builder, of games given as a deck, rounds and an
evaluator (:mod:`.builder`, :mod:`.rules`, :mod:`.cards`, :mod:`.evaluators`; fixed, limit
and ACPC betting), and Mercer hold'em's study on it (:mod:`guts.games.poker.mercer`).
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from guts._validate import check_int
from guts.engine._textfile import read_text_file
from guts.errors import GutsInputError

from .build import MAX_DEALS, build_poker, hand_rank, poker_rules
from .indexer import HandIndexer
from .spec import MAX_DESCRIPTION_BYTES, PokerRound, PokerSpec, acpc_text, read_acpc, read_poker_toml

__all__ = ["load_poker", "read_poker", "build_poker", "poker_rules", "descriptions", "PokerSpec", "PokerRound",
           "read_acpc", "read_poker_toml", "acpc_text", "hand_rank", "MAX_DEALS", "HandIndexer"]


#: folder of the poker descriptions shipped with the package (package data)
DESCRIPTIONS = Path(__file__).resolve().parent / "descriptions"


def descriptions() -> tuple:
    """Names of the shipped poker descriptions (``load_poker(name)``), e.g. ``"mercer_smh"``."""
    return tuple(sorted([p.stem for p in DESCRIPTIONS.glob("*.toml")] + [p.name for p in DESCRIPTIONS.glob("*.game")]))


def read_poker(path_or_text, *, players: int | None = None) -> PokerSpec:
    """A :class:`PokerSpec` from an ACPC definition (starts with ``GAMEDEF``; ``.game``,
    ``.acpc``), a TOML poker description (``.toml``), given as a path or as text, or the
    name of a shipped description (:func:`descriptions`: ``"mercer_smh"``, ``"mercer_mmh"``).

    ``players`` overrides the file's number of players (e.g. 3 for three-player Mercer
    hold'em); the description is validated again with it.
    """
    spec = _read(path_or_text)
    if players is not None:
        spec = replace(spec, num_players=players)
    return spec


def _read(path_or_text) -> PokerSpec:
    text = str(path_or_text)
    if "\n" not in text:
        ext = os.path.splitext(text)[1].lower()
        if not os.path.isfile(text) and os.path.basename(text) == text and (DESCRIPTIONS / text).is_file():
            text = path_or_text = str(DESCRIPTIONS / text)   # a shipped file by its name (leduc.game)
        if ext == ".toml":
            return read_poker_toml(path_or_text)
        if ext in (".game", ".acpc", ".gamedef"):
            return read_acpc(path_or_text)
        if not os.path.exists(text):
            if not ext and (DESCRIPTIONS / f"{text}.toml").is_file():
                return read_poker_toml(str(DESCRIPTIONS / f"{text}.toml"))
            raise GutsInputError(f"poker file {text!r} does not exist; accepted: a .toml description, "
                                 "an ACPC .game definition, their text, or a shipped description: "
                                 + ", ".join(descriptions()))
        # a regular UTF-8 file of bounded size (a FIFO or a device is refused before it is opened)
        head = read_text_file(text, "poker description or ACPC definition", MAX_DESCRIPTION_BYTES)[:4096]
        return read_acpc(path_or_text) if head.lstrip().upper().startswith("GAMEDEF") else read_poker_toml(path_or_text)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    return read_acpc(text) if first.upper() == "GAMEDEF" else read_poker_toml(text)


def load_poker(path_or_text, *, players: int | None = None, max_deals: int = MAX_DEALS,
               isomorphism: bool | str = False):
    """Read a poker description or ACPC game definition and build its public tree.

    Returns a :class:`~guts.engine.extensive.PublicTreeGame` (``.poker_spec`` holds the
    description; ``.built`` the builder's rules, sizes and hand labels).
    ``players`` overrides the file's number of players.  Raises ``GutsInputError`` with
    one clear message for a malformed file, an unknown key, no-limit betting, or a deck
    too small for the deal.  ``isomorphism=True``: the quotient by the suit permutations
    that are symmetries of the game (:mod:`guts.games.poker.isomorphism`; same value,
    ``.isomorphism.stats`` the counts before and after, ``.isomorphism.expand`` the
    strategies of the full game).

        g = load_poker("mercer_smh", players=3)     # three-player Standard Mercer hold'em
        q = load_poker("leduc.game", isomorphism=True)
    """
    max_deals = check_int("max_deals", max_deals, 1)
    return build_poker(read_poker(path_or_text, players=players), max_deals=max_deals, isomorphism=isomorphism)
