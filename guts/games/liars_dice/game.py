"""Liar's Dice with OpenSpiel's rules, built as a public tree over private dice.

Rules (OpenSpiel's ``liars_dice``, Lanctot et al., *OpenSpiel: A Framework for
Reinforcement Learning in Games*, 2019; checked against ``pyspiel`` terminal by terminal
in the tests rather than assumed):

* two players; player ``p`` rolls ``dice[p]`` fair dice with faces ``1 .. faces`` and sees
  only his own;
* a *bid* ``(q, f)`` says that at least ``q`` of all ``T = dice[0] + dice[1]`` dice show
  face ``f``; bids are numbered ``(q - 1) * faces + (f - 1)`` (OpenSpiel's action ids,
  labels ``"q-f"``) and every bid must have a larger number than the previous one (the
  ``reset-face`` bidding rule: a higher quantity with any face, or the same quantity with a
  higher face);
* player 0 bids first; the players alternate, each either bidding higher or calling
  ``"Liar"`` on the previous bid (not possible before the first bid; after the highest bid
  ``(T, faces)`` only ``"Liar"`` remains);
* at the call the dice are shown: the face ``faces`` is *wild*, counting for every bid on a
  lower face, so the bid ``(q, f)`` is true when the number of dice showing ``f`` or (for
  ``f < faces``) ``faces`` is at least ``q``; a true bid makes the caller lose, a false one
  the bidder; the loser gets -1, the winner +1.

A player's type is the *multiset* of his dice (OpenSpiel sorts the dice in its information
states too), with probability ``n! / (m_1! ... m_faces!) / faces^n`` for face counts
``m``: one die gives ``faces`` types, two dice ``faces (faces + 1) / 2``.  The public tree
is a sequence of strictly increasing bids; the subtree after a bid depends only on that
bid (and on who moves next), so one node object per (last bid, mover) is shared by every
history that reaches it (the engine expands it per history, so information sets are
OpenSpiel's: the whole bid history and one's dice).  The showdown depends only on the last
bid and on the count of its face among all dice: one shared payoff table per bid.

1 die each and 6 faces: 4 096 bid histories, 24 576 information sets (OpenSpiel's count,
checked in the tests); the value for player 0 is -7/258 (computed exactly and certified by
:func:`guts.games.liars_dice.solve`).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ...engine.extensive import Deals, Decision, PublicTreeGame, Terminal
from ...engine.extensive.tree import GAME_BYTES_PER_DEAL_PLAYER, GAME_BYTES_PER_NODE, GAME_BYTES_PER_SEQUENCE
from ...engine.tolerances import (LP_BYTES_BASE, LP_BYTES_PER_NONZERO, LP_BYTES_PER_ROW, LP_HIPO_BYTES_PER_NONZERO,
                                  LP_HIPO_BYTES_PER_ROW, LP_HIPO_NNZ, LP_IPM_BYTES_PER_NONZERO, LP_IPM_BYTES_PER_ROW,
                                  LP_IPM_ANY_NNZ, LP_IPM_NNZ, LP_IPM_NNZ_PER_ROW)
from ..._validate import check_int, check_memory
from ...errors import GutsInputError

__all__ = ["liars_dice", "size", "LiarsDiceSize", "LIAR", "MAX_DICE", "MAX_FACES", "bid_label", "dice_types", "deal_table",
           "check_dice"]

#: Label of the call.
LIAR = "Liar"
#: Largest number of dice per player and of faces accepted (the public tree has 2^(T faces) bid histories;
#: the engine's memory check refuses what does not fit long before these bounds).
MAX_DICE = 5
MAX_FACES = 12


def check_dice(dice, faces):
    """``(dice, faces)`` validated: a pair of integers in ``[1, MAX_DICE]`` and an integer in ``[2, MAX_FACES]``."""
    if isinstance(dice, (int, np.integer)) and not isinstance(dice, bool):
        dice = (dice, dice)
    try:
        pair = tuple(dice)
    except TypeError:
        raise GutsInputError(f"dice must be a pair (dice of player 0, dice of player 1) of integers in "
                             f"[1, {MAX_DICE}]; got {dice!r}") from None
    if len(pair) != 2:
        raise GutsInputError(f"dice must be a pair (dice of player 0, dice of player 1) of integers in "
                             f"[1, {MAX_DICE}]; got {dice!r}")
    pair = (check_int("dice[0]", pair[0], 1, MAX_DICE), check_int("dice[1]", pair[1], 1, MAX_DICE))
    return pair, check_int("faces", faces, 2, MAX_FACES)


def bid_label(bid: int, faces: int) -> str:
    """OpenSpiel's label ``"q-f"`` of bid number ``bid`` (0-based, quantity-major)."""
    return f"{bid // faces + 1}-{bid % faces + 1}"


def dice_types(n: int, faces: int):
    """The multisets of ``n`` dice: ``(multisets, exact probabilities, labels)``.

    ``multisets[t]`` is a sorted tuple of faces (1-based); its probability is the multinomial
    ``n! / prod(m_f!) / faces^n`` as a :class:`fractions.Fraction`; the label joins the faces
    (``"12"``, OpenSpiel's information-state prefix; with a ``"-"`` between faces above 9).
    """
    sets = list(itertools.combinations_with_replacement(range(1, faces + 1), n))
    probs = []
    for s in sets:
        ways = math.factorial(n)
        for f in set(s):
            ways //= math.factorial(s.count(f))
        probs.append(Fraction(ways, faces ** n))
    sep = "" if faces <= 9 else "-"
    labels = [sep.join(str(v) for v in s) for s in sets]
    return sets, probs, labels


def deal_table(dice, faces):
    """Joint deals of both players' multisets.

    Returns
    -------
    info : int array (2, D)
        Each player's type (index into :func:`dice_types`) at every deal.
    prob : tuple of Fraction (D,)
        Exact deal probabilities (products of the two multinomials).
    counts : int array (faces, D)
        ``counts[f - 1, d]``: dice showing ``f`` or the wild face (for ``f < faces``) at deal ``d``,
        the number a bid on ``f`` is checked against.
    labels : tuple of two tuples of str
    """
    (n0, n1), faces = check_dice(dice, faces)
    s0, p0, l0 = dice_types(n0, faces)
    s1, p1, l1 = dice_types(n1, faces)
    info = np.array([(a, b) for a in range(len(s0)) for b in range(len(s1))], dtype=np.int64).T
    prob = tuple(p0[a] * p1[b] for a, b in info.T)
    counts = np.zeros((faces, info.shape[1]), dtype=np.int64)
    for d, (a, b) in enumerate(info.T):
        both = s0[a] + s1[b]
        for f in range(1, faces + 1):
            counts[f - 1, d] = sum(1 for v in both if v == f or (v == faces and f < faces))
    return info, prob, counts, (tuple(l0), tuple(l1))


@dataclass(frozen=True)
class LiarsDiceSize:
    """Counts of ``liars_dice(dice, faces)`` before it is built (:func:`size`).

    ``bids``: ``T x faces``; ``histories``: bid histories (decision nodes, ``2^bids``);
    ``terminals``: calls (``2^bids - 1``); ``deals``: pairs of multisets; ``types``: each
    player's multisets; ``infosets``: each player's (history, multiset) pairs; ``sequences``:
    each player's (information set, action) pairs; ``lp_nonzeros``: the sequence-form payoff
    matrix's non-zeros (terminals x deals); ``lp_bytes``: the LP's memory by the engine's
    calibrated constants (as ``guts.engine.extensive.lp.lp_memory_estimate``), for the HiGHS method
    ``lp_method`` that ``method="auto"`` picks; ``game_bytes``: the built game's memory by the
    engine's estimate (``guts.engine.extensive.estimate_size``), checked before anything is built.
    """

    dice: tuple
    faces: int
    bids: int
    histories: int
    terminals: int
    deals: int
    types: tuple
    infosets: tuple
    sequences: tuple
    lp_nonzeros: int
    lp_bytes: int
    lp_method: str
    game_bytes: int


def size(dice=(1, 1), faces: int = 6) -> LiarsDiceSize:
    """The size of ``liars_dice(dice, faces)`` and of its LP, counted without building anything.

    A history is a set of bids (they are made in increasing order); the player to move is the
    parity of its size and his actions are the higher bids plus the call (none at the root).
    """
    (n0, n1), faces = check_dice(dice, faces)
    B = (n0 + n1) * faces
    K = (math.comb(n0 + faces - 1, n0), math.comb(n1 + faces - 1, n1))
    hist = [0, 0]            # histories per mover
    seqs = [0, 0]            # (history, action) pairs per mover
    hist[0], seqs[0] = 1, B  # the root: player 0, every bid
    for b in range(B):       # histories whose last bid is b: C(b, k - 1) with k bids
        higher = B - 1 - b
        for k in range(1, b + 2):
            c = math.comb(b, k - 1)
            m = k % 2
            hist[m] += c
            seqs[m] += c * (higher + 1)
    terminals = 2 ** B - 1
    deals = K[0] * K[1]
    nnz = terminals * deals
    rows = sum((s + 1) * k for s, k in zip(seqs, K))
    if nnz <= LP_IPM_NNZ or (nnz <= LP_IPM_ANY_NNZ and nnz < LP_IPM_NNZ_PER_ROW * rows):
        method, per_nnz, per_row = "highs-ds", LP_BYTES_PER_NONZERO, LP_BYTES_PER_ROW
    elif nnz <= LP_HIPO_NNZ:
        method, per_nnz, per_row = "highs-ipm", LP_IPM_BYTES_PER_NONZERO, LP_IPM_BYTES_PER_ROW
    else:
        method, per_nnz, per_row = "highs-hipo or highs-ipm", LP_HIPO_BYTES_PER_NONZERO, LP_HIPO_BYTES_PER_ROW
    game_bytes = (GAME_BYTES_PER_NODE * (2 ** B + terminals) + GAME_BYTES_PER_SEQUENCE * (seqs[0] * K[0] + seqs[1] * K[1])
                  + GAME_BYTES_PER_DEAL_PLAYER * 2 * deals)
    return LiarsDiceSize(dice=(n0, n1), faces=faces, bids=B, histories=sum(hist), terminals=terminals,
                         deals=deals, types=K, infosets=(hist[0] * K[0], hist[1] * K[1]),
                         sequences=(seqs[0] * K[0], seqs[1] * K[1]), lp_nonzeros=nnz,
                         lp_bytes=int(LP_BYTES_BASE + nnz * per_nnz + rows * per_row), lp_method=method,
                         game_bytes=int(game_bytes))


def liars_dice(dice=(1, 1), faces: int = 6) -> PublicTreeGame:
    """Two-player Liar's Dice (OpenSpiel's rules; see the module docstring) as an engine game.

    Parameters
    ----------
    dice : pair of int (or one int for both players)
        Dice of player 0 and of player 1, each in ``[1, MAX_DICE]``.
    faces : int
        Faces per die, in ``[2, MAX_FACES]``; the highest face is wild.

    Returns
    -------
    PublicTreeGame
        Types are multisets of dice (labels like ``"16"``); actions ``"q-f"`` and ``"Liar"``;
        ``strategies[p][history]`` with ``history`` the tuple of bid labels.  The game also
        carries ``exact_deal_prob`` (a tuple of :class:`fractions.Fraction`, the deal
        probabilities exactly), ``dice`` and ``faces``.

    Raises
    ------
    GutsInputError
        Bad ``dice`` or ``faces``, or a tree over the memory budget (the engine's estimate,
        computed on the shared nodes before anything is expanded).
    """
    (n0, n1), faces = check_dice(dice, faces)
    need = size((n0, n1), faces)
    check_memory(f"Liar's Dice {n0}v{n1} with {faces} faces ({need.histories} bid histories x {need.deals} deals, "
                 f"{sum(need.infosets)} information sets)", need.game_bytes)
    total = n0 + n1
    bids = total * faces
    info, exact, counts, labels = deal_table((n0, n1), faces)
    prob = np.array([float(p) for p in exact])
    prob /= prob.sum()
    # one payoff table per bid: player 0's payoff when player 0 made the bid and player 1 called
    # (+1 if the bid is true, -1 if not); the bidder's side is the sign (the Terminal's scale)
    tables = []
    for b in range(bids):
        q, f = b // faces + 1, b % faces + 1
        s = np.where(counts[f - 1] >= q, 1.0, -1.0)
        tables.append(np.vstack([s, -s]))
    zero = np.zeros(2)
    calls = [[Terminal.affine(tables[b], zero, 1.0 if bidder == 0 else -1.0) for b in range(bids)]
             for bidder in (0, 1)]
    labels_bid = [bid_label(b, faces) for b in range(bids)]
    nodes = {}
    # after bid b made by player 1 - m, player m moves: higher bids or the call; built from the
    # highest bid down so every child exists
    for b in range(bids - 1, -1, -1):
        for m in (0, 1):
            acts = [(labels_bid[c], nodes[(c, 1 - m)]) for c in range(b + 1, bids)]
            acts.append((LIAR, calls[1 - m][b]))
            nodes[(b, m)] = Decision(m, acts)
    root = Decision(0, [(labels_bid[c], nodes[(c, 1)]) for c in range(bids)])
    game = PublicTreeGame(root, Deals(prob, info, labels), 2, name=f"liars_dice(dice={n0},{n1}, faces={faces})")
    game.exact_deal_prob = exact
    game.dice = (n0, n1)
    game.faces = faces
    return game
