"""Leduc hold'em (Southey et al. 2005), two players, built from its rules.

Rules (identical to OpenSpiel's ``leduc_poker``, so information states map one to one):

* six cards J1 J2 Q1 Q2 K1 K2 (OpenSpiel's cards 0..5, rank = card // 2); each player
  antes 1 and receives one private card;
* two betting rounds; player 0 acts first in both; actions ``"f"`` fold (only when
  facing a bet), ``"c"`` call/check, ``"r"`` raise (a call plus 2 chips in round 1, 4 in
  round 2), at most two raises per round; a round ends after check-check or a call of
  a raise;
* between the rounds one public card is dealt from the four remaining cards (a public
  chance node with card-removal probabilities 1/4 or 0 per deal);
* showdown: a private card pairing the public card wins, otherwise the higher private
  rank; equal ranks split the pot.

The game has 30 deals (ordered pairs of distinct cards), 6 information types (cards)
per player and 93 public decision nodes per player: 558 (node, card) pairs per player,
of which 468 can occur (the public card is never one's own card) -- OpenSpiel's 936
information states over both players.  Payoffs in chips; the first player's value is
about -0.0856 (computed exactly by ``solve_lp``).
"""
from __future__ import annotations

import itertools

import numpy as np

from ...engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal

__all__ = ["leduc_poker", "LEDUC_CARDS"]

#: Card labels in OpenSpiel's order (card index = position; rank = index // 2).
LEDUC_CARDS = ("J1", "J2", "Q1", "Q2", "K1", "K2")
_RAISE = (2, 4)
_MAX_RAISES = 2


def leduc_poker() -> PublicTreeGame:
    """Two-player Leduc hold'em (see the module docstring)."""
    deals = list(itertools.permutations(range(6), 2))
    D = len(deals)
    info = np.array(deals, dtype=np.int64).T
    prob = np.full(D, 1.0 / D)
    rank = info // 2

    # public card c: probability 1/4 unless a player holds it (card removal)
    public_prob = [np.where((info[0] == c) | (info[1] == c), 0.0, 0.25) for c in range(6)]
    # showdown share per public card (one table per board, shared by all its terminals)
    share = []
    for c in range(6):
        strength = np.where(rank == c // 2, 10 + rank, rank)       # pair beats any high card
        s = np.zeros((2, D))
        s[0] = np.where(strength[0] > strength[1], 1.0, np.where(strength[0] == strength[1], 0.5, 0.0))
        s[1] = 1.0 - s[0]
        share.append(s)

    def betting(rnd, board, contrib, raises, calls, player):
        """Decision of ``player``; contrib = chips in, raises/calls of this round."""
        stakes = max(contrib)
        actions = {}
        if contrib[player] < stakes:
            pay = [0.0, 0.0]
            pay[player] = -contrib[player]
            pay[1 - player] = contrib[player]
            actions["f"] = Terminal(np.array(pay))
        # call / check
        c2 = list(contrib)
        c2[player] = stakes
        calls2 = calls + 1
        if (raises == 0 and calls2 == 2) or (raises > 0 and calls2 == 1):
            actions["c"] = next_round(rnd, board, tuple(c2))
        else:
            actions["c"] = betting(rnd, board, tuple(c2), raises, calls2, 1 - player)
        if raises < _MAX_RAISES:
            c3 = list(contrib)
            c3[player] = stakes + _RAISE[rnd]
            actions["r"] = betting(rnd, board, tuple(c3), raises + 1, 0, 1 - player)
        return Decision(player, actions)

    def next_round(rnd, board, contrib):
        if rnd == 1:
            return Terminal.showdown(contrib, share[board])
        return Chance({LEDUC_CARDS[c]: (public_prob[c], betting(1, c, contrib, 0, 0, 0))
                       for c in range(6)})

    root = betting(0, None, (1, 1), 0, 0, 0)
    labels = (LEDUC_CARDS, LEDUC_CARDS)
    return PublicTreeGame(root, Deals(prob, info, labels), 2, name="leduc_poker")
