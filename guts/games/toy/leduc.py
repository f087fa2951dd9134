"""Leduc hold'em (Southey et al. 2005) built from its rules, for 2 or more players.

Rules (identical to OpenSpiel's ``leduc_poker`` with its default deck, so information
states map one to one):

* a deck of ``ranks x suits`` cards, OpenSpiel's order: card ``c`` has rank ``c // suits``
  (default ``ranks = players + 1``, ``suits = 2``: for two players J1 J2 Q1 Q2 K1 K2);
  each player antes 1 and receives one private card;
* two betting rounds; the first non-folded player from seat 0 acts first in both;
  actions ``"f"`` fold (only when facing a bet), ``"c"`` call/check, ``"r"`` raise (a
  call plus ``raises[0]`` chips in round 1, ``raises[1]`` in round 2), at most
  ``max_raises`` raises per round; a round ends when, with no raise, every remaining
  player has checked, or, after a raise, every other remaining player has called;
* between the rounds one public card is dealt from the rest of the deck (a public chance
  node with card-removal probabilities ``1/(cards - players)`` or 0 per deal);
* when one player is left he takes the pot; otherwise showdown among the remaining
  players: a private card pairing the public card wins, otherwise the higher private
  rank; ties split the pot.

Two players, default deck: 30 deals, 6 types (cards) per player, 93 public decision
nodes per player, 558 (node, card) pairs per player of which 468 can occur (the public
card is never one's own card): OpenSpiel's 936 information states.  The first player's
value is about -0.0856 chips (computed exactly by ``solve_lp``).  Larger decks and more
players give poker-shaped games of any size (used by the benchmarks).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ...engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal
from ..._validate import check_int
from ...errors import GutsInputError, SolverError

__all__ = ["leduc_poker", "LEDUC_CARDS"]

#: Card labels of the two-player game in OpenSpiel's order (rank = index // 2).
LEDUC_CARDS = ("J1", "J2", "Q1", "Q2", "K1", "K2")
_RANK_NAMES = "23456789TJQKA"


def _card_labels(ranks, suits):
    if ranks == 3 and suits == 2:
        return LEDUC_CARDS
    names = _RANK_NAMES[-ranks:] if ranks <= len(_RANK_NAMES) else None
    return tuple((names[r] if names else f"R{r}_") + str(s + 1) for r in range(ranks) for s in range(suits))


def leduc_poker(players: int = 2, *, ranks: int | None = None, suits: int = 2,
                raises=(2, 4), max_raises: int = 2) -> PublicTreeGame:
    """Leduc hold'em (see the module docstring); defaults = OpenSpiel's ``leduc_poker``."""
    n = check_int("players", players, 2, 10)
    R = check_int("ranks", n + 1 if ranks is None else ranks, 2, 13)
    S = check_int("suits", suits, 1, 8)
    max_raises = check_int("max_raises", max_raises, 0, 10)
    # bet sizes are honoured as given (chips need not be integers); they used to be
    # truncated by int(), so raises=(2.7, 4) silently played (2, 4)
    try:
        raises = tuple(float(x) for x in raises)
    except (TypeError, ValueError):
        raise GutsInputError(f"raises must be two positive numbers; got {raises!r}") from None
    if len(raises) != 2 or not all(math.isfinite(x) and x > 0 for x in raises):
        raise GutsInputError(f"raises must be two positive finite numbers (round 1, round 2); got {raises!r}")
    raises = tuple(int(x) if x == int(x) else x for x in raises)
    C = R * S
    if C < n + 1:
        raise GutsInputError(f"a deck of {C} cards cannot deal {n} hands and a public card")
    labels = _card_labels(R, S)
    deals = list(itertools.permutations(range(C), n))
    D = len(deals)
    info = np.array(deals, dtype=np.int64).T            # (n, D)
    prob = np.full(D, 1.0 / D)
    rank = info // S
    held = np.zeros((C, D), dtype=bool)
    for p in range(n):
        held[info[p], np.arange(D)] = True
    # public card c: uniform over the cards nobody holds (card removal)
    public_prob = [np.where(held[c], 0.0, 1.0 / (C - n)) for c in range(C)]
    # hand strength with board c: pairing the board beats every high card
    strength = [np.where(rank == c // S, R + rank, rank) for c in range(C)]
    share_cache = {}

    def share(board, inside):
        key = (board, inside)
        if key not in share_cache:
            st = strength[board][list(inside)]                  # (k, D)
            best = st.max(axis=0)
            win = st == best
            s = np.zeros((n, D))
            s[list(inside)] = win / win.sum(axis=0)
            share_cache[key] = s
        return share_cache[key]

    def fold_terminal(contrib, folded):
        winner = folded.index(False)
        pay = -np.asarray(contrib, dtype=float)
        pay[winner] += sum(contrib)
        return Terminal(pay)

    def next_player(player, folded):
        for i in range(1, n + 1):
            q = (player + i) % n
            if not folded[q]:
                return q
        raise SolverError("no player left")  # unreachable: a fold ends the hand before

    def betting(rnd, board, contrib, folded, nraises, calls, player):
        stakes = max(contrib)
        remaining = n - sum(folded)
        actions = {}
        if contrib[player] < stakes:
            f2 = folded[:player] + (True,) + folded[player + 1:]
            if remaining - 1 == 1:
                actions["f"] = fold_terminal(contrib, f2)
            else:
                actions["f"] = after_action(rnd, board, contrib, f2, nraises, calls, player)
        c2 = contrib[:player] + (stakes,) + contrib[player + 1:]
        actions["c"] = after_action(rnd, board, c2, folded, nraises, calls + 1, player)
        if nraises < max_raises:
            c3 = contrib[:player] + (stakes + raises[rnd],) + contrib[player + 1:]
            actions["r"] = betting(rnd, board, c3, folded, nraises + 1, 0, next_player(player, folded))
        return Decision(player, actions)

    def after_action(rnd, board, contrib, folded, nraises, calls, player):
        remaining = n - sum(folded)
        if (nraises == 0 and calls == remaining) or (nraises > 0 and calls == remaining - 1):
            if rnd == 1:
                inside = tuple(q for q in range(n) if not folded[q])
                return Terminal.showdown(contrib, share(board, inside))
            first = next_player(n - 1, folded)
            return Chance({labels[c]: (public_prob[c], betting(1, c, contrib, folded, 0, 0, first))
                           for c in range(C)})
        return betting(rnd, board, contrib, folded, nraises, calls, next_player(player, folded))

    root = betting(0, None, (1,) * n, (False,) * n, 0, 0, 0)
    name = "leduc_poker" if (n, R, S, raises, max_raises) == (2, 3, 2, (2, 4), 2) else \
        f"leduc_poker(players={n}, ranks={R}, suits={S}, raises={raises}, max_raises={max_raises})"
    return PublicTreeGame(root, Deals(prob, info, tuple(labels for _ in range(n))), n, name=name)
