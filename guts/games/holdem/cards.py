"""Cards, two-card combos and the 169 starting-hand classes of hold'em.

Card ``c`` in 0..51 is ``4 * rank + suit`` with ranks ``2 3 4 5 6 7 8 9 T J Q K A`` =
0..12 and suits ``c d h s`` = 0..3 (the encoding of phevaluator, so tests can hand the
same integers to that independent evaluator).

The 169 classes are laid out as the usual 13 x 13 chart, aces first: class
``13 * row + col``; ``row == col`` is a pocket pair, ``row < col`` (upper right) the
suited hand of the two ranks, ``row > col`` the offsuit hand.  A class's label is
``"AA"``, ``"AKs"``, ``"AKo"`` (higher rank first).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from guts.errors import GutsInputError

__all__ = [
    "RANKS", "SUITS", "NUM_CLASSES", "CLASS_LABELS", "card_label", "parse_card",
    "class_index", "class_of_combo", "combos", "combo_classes", "class_combos",
    "class_sizes", "pair_counts", "class_kind",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CLASSES = 169
NUM_COMBOS = 1326


def card_label(card: int) -> str:
    """``"As"`` for card 51 and so on."""
    return RANKS[card // 4] + SUITS[card % 4]


def parse_card(text: str) -> int:
    """Card index of a label like ``"Ah"`` (case-insensitive rank, lower-case suit)."""
    if not isinstance(text, str) or len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise GutsInputError(f"unknown card {text!r}; accepted: a rank of {RANKS} then a suit of {SUITS}, e.g. 'Ah'")
    return 4 * RANKS.index(text[0].upper()) + SUITS.index(text[1].lower())


def _label(row: int, col: int) -> str:
    hi, lo = 12 - min(row, col), 12 - max(row, col)
    if row == col:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if row < col else "o")


CLASS_LABELS: tuple[str, ...] = tuple(_label(k // 13, k % 13) for k in range(NUM_CLASSES))
_INDEX = {lab: k for k, lab in enumerate(CLASS_LABELS)}


def class_kind(k: int) -> str:
    """``"pair"``, ``"suited"`` or ``"offsuit"``."""
    row, col = divmod(int(k), 13)
    return "pair" if row == col else ("suited" if row < col else "offsuit")


def class_index(label) -> int:
    """Index 0..168 of a class label (``"AA"``, ``"AKs"``, ``"KAo"``, ``"t9s"`` ...).

    Raises
    ------
    GutsInputError
        For anything that is not a pocket pair (two equal ranks) or two different ranks
        followed by ``s`` or ``o``.
    """
    if isinstance(label, (int, np.integer)) and not isinstance(label, bool):
        if 0 <= int(label) < NUM_CLASSES:
            return int(label)
    elif isinstance(label, str):
        t = label.strip()
        if len(t) in (2, 3) and t[0].upper() in RANKS and t[1].upper() in RANKS:
            a, b = RANKS.index(t[0].upper()), RANKS.index(t[1].upper())
            suffix = t[2:].lower()
            hi, lo = max(a, b), min(a, b)
            if a == b and suffix == "":
                return _INDEX[RANKS[hi] * 2]
            if a != b and suffix in ("s", "o"):
                return _INDEX[RANKS[hi] + RANKS[lo] + suffix]
    raise GutsInputError(
        f"unknown hand class {label!r}; accepted: a pocket pair like 'AA' or two different ranks "
        f"of {RANKS} followed by 's' (suited) or 'o' (offsuit), like 'AKs', '72o' (or an index 0..168)"
    )


def class_of_combo(c1: int, c2: int) -> int:
    """Class index of the two distinct cards ``c1``, ``c2``."""
    r1, s1, r2, s2 = c1 // 4, c1 % 4, c2 // 4, c2 % 4
    if r1 == r2:
        return 14 * (12 - r1)
    hi, lo = max(r1, r2), min(r1, r2)
    if s1 == s2:
        return 13 * (12 - hi) + (12 - lo)
    return 13 * (12 - lo) + (12 - hi)


@lru_cache(maxsize=None)
def _combo_tables():
    cmb = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    cls = np.array([class_of_combo(int(a), int(b)) for a, b in cmb], dtype=np.int64)
    cmb.setflags(write=False)
    cls.setflags(write=False)
    return cmb, cls


def combos() -> np.ndarray:
    """The 1326 two-card combos as an array (1326, 2) of cards, first card lower."""
    return _combo_tables()[0]


def combo_classes() -> np.ndarray:
    """Class index of every combo of :func:`combos`."""
    return _combo_tables()[1]


def class_combos(label) -> np.ndarray:
    """The concrete combos (k, 2) of one class."""
    k = class_index(label)
    cmb, cls = _combo_tables()
    return cmb[cls == k]


def class_sizes() -> np.ndarray:
    """Number of combos per class: 6 for pairs, 4 suited, 12 offsuit (sum 1326)."""
    return np.bincount(combo_classes(), minlength=NUM_CLASSES)


@lru_cache(maxsize=None)
def _pair_counts() -> np.ndarray:
    cmb, cls = _combo_tables()
    masks = (np.uint64(1) << cmb[:, 0].astype(np.uint64)) | (np.uint64(1) << cmb[:, 1].astype(np.uint64))
    out = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    for a in range(NUM_COMBOS):  # 1326 vectorised rows: the disjoint partners of combo a
        ok = (masks & masks[a]) == 0
        out[cls[a]] += np.bincount(cls[ok], minlength=NUM_CLASSES)
    out.setflags(write=False)
    return out


def pair_counts() -> np.ndarray:
    """``n[i, j]`` = number of ordered pairs of disjoint concrete combos (a in class i, b in j).

    ``n.sum() = 1326 * 1225``; the joint deal probability of classes (i, j) is
    ``n[i, j] / (1326 * 1225)`` exactly (card removal included).
    """
    return _pair_counts()
