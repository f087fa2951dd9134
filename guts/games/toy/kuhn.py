"""Kuhn poker (Kuhn 1950) for 2 or 3 players, with OpenSpiel's rules and labels.

Deck of ``players + 1`` cards (0 = lowest) by default, or of ``ranks`` cards (one card of
each rank, ``ranks >= players``: the same rules with a longer deck, as in the
three-player Kuhn variants of Farina, Celli, Gatti and Sandholm, *Ex ante coordination and
collusion in zero-sum multi-player extensive-form games*, 2018), one card each, ante 1.  Players act in seat
order with actions ``"p"`` (pass/check/fold) and ``"b"`` (bet/call, one chip).  If
nobody bets in the first round, the highest card wins the pot.  After the first bet,
every other player acts once more (in seat order, wrapping around): ``"b"`` calls,
``"p"`` folds; the highest card among the bettor and the callers wins.  This is
OpenSpiel's ``kuhn_poker`` (``players`` parameter) exactly, so that information states
map one to one: OpenSpiel's string ``"<card><actions>"`` is (history, type) here.
"""
from __future__ import annotations

import itertools

import numpy as np

from ...engine.extensive import Deals, Decision, PublicTreeGame, Terminal
from ..._validate import check_int

__all__ = ["kuhn_poker"]


def kuhn_poker(players: int = 2, *, ranks: int | None = None) -> PublicTreeGame:
    """Kuhn poker for ``players`` = 2 or 3 (OpenSpiel's rules; see the module docstring).

    ``ranks``: cards in the deck (one per rank, the highest wins), ``players`` to 13;
    default ``players + 1`` (OpenSpiel's game).  Every ordered deal of distinct cards is
    equally likely.  The two-player game value for the first player is -1/18.
    """
    n = check_int("players", players, 2, 3)
    cards = check_int("ranks", n + 1 if ranks is None else ranks, n, 13)
    deals = list(itertools.permutations(range(cards), n))
    D = len(deals)
    info = np.array(deals, dtype=np.int64).T             # (n, D): player p holds card info[p, d]
    prob = np.full(D, 1.0 / D)
    labels = tuple(tuple(str(c) for c in range(cards)) for _ in range(n))
    share_cache = {}

    def share(inside):
        """(n, D) table: 1 for the highest card among the players in ``inside``."""
        key = tuple(inside)
        if key not in share_cache:
            s = np.zeros((n, D))
            sub = info[list(key)]
            winner = np.asarray(key)[np.argmax(sub, axis=0)]
            s[winner, np.arange(D)] = 1.0
            share_cache[key] = s
        return share_cache[key]

    def build(history, bettor, contrib):
        k = len(history)
        if bettor is None and k == n:
            return Terminal.showdown(contrib, share(range(n)))
        if bettor is not None and k == n + bettor:
            inside = [p for p in range(n) if contrib[p] == 2]
            if len(inside) == 1:
                pot = sum(contrib)
                pay = [-c for c in contrib]
                pay[inside[0]] += pot
                return Terminal(np.array(pay, dtype=float))
            return Terminal.showdown(contrib, share(inside))
        player = k % n
        children = {}
        for a in ("p", "b"):
            c2 = list(contrib)
            b2 = bettor
            if a == "b":
                c2[player] += 1
                if b2 is None:
                    b2 = player
            children[a] = build(history + (a,), b2, tuple(c2))
        return Decision(player, children)

    root = build((), None, (1,) * n)
    name = f"kuhn_poker({n})" if cards == n + 1 else f"kuhn_poker({n}, ranks={cards})"
    return PublicTreeGame(root, Deals(prob, info, labels), n, name=name)
