"""Independent oracle for the extensive-form tests: plain recursion over the Python node
objects, one deal at a time (no compiled form, no vectorisation)."""
from __future__ import annotations

import itertools

import numpy as np

from guts.engine.extensive import Chance, Decision, Terminal


def brute_values(game, strategies, deal_mask=None):
    """Expected payoff of every player: sum over deals of a recursive tree walk
    (restricted to the deals in ``deal_mask`` if given)."""
    n = game.num_players
    deals = game.deals
    total = np.zeros(n)

    def walk(node, hist, d):
        if isinstance(node, Terminal):
            t = node.table
            pay = node.offset.copy()
            if t is not None:
                pay = pay + node.scale * t[:, d]
            return pay
        if isinstance(node, Chance):
            v = np.zeros(n)
            for lab, (pr, child) in node.outcomes.items():
                p = pr if np.isscalar(pr) else pr[d]
                if p > 0:
                    v += p * walk(child, hist + (lab,), d)
            return v
        p = node.player
        row = np.asarray(strategies[p][hist])[deals.info[p, d]]
        v = np.zeros(n)
        for a, (lab, child) in enumerate(node.actions.items()):
            if row[a] > 0:
                v += row[a] * walk(child, hist + (lab,), d)
        return v

    for d in range(deals.num_deals):
        if deals.prob[d] > 0 and (deal_mask is None or deal_mask[d]):
            total += deals.prob[d] * walk(game.root, (), d)
    return total


def brute_best_response_value(game, strategies, player):
    """Best-response value by enumeration: his information sets are (node, type), so the
    best pure strategy is found type by type over the deals where he holds that type."""
    labels = game.action_labels(player)
    T = game.num_types[player]
    hs = list(labels)
    total = 0.0
    for t in range(T):
        mask = game.deals.info[player] == t
        best = -np.inf
        for choice in itertools.product(*[range(len(labels[h])) for h in hs]):
            s = {h: np.full((T, len(labels[h])), 1.0 / len(labels[h])) for h in hs}
            for h, a in zip(hs, choice):
                s[h][t] = 0.0
                s[h][t, a] = 1.0
            prof = list(strategies)
            prof[player] = s
            best = max(best, brute_values(game, prof, mask)[player])
        total += best
    return total


def random_strategy(game, rng, pure_fraction=0.0):
    out = []
    for p in range(game.num_players):
        d = {}
        for h, labs in game.action_labels(p).items():
            x = rng.random((game.num_types[p], len(labs))) ** 3
            d[h] = x / x.sum(axis=1, keepdims=True)
        out.append(d)
    return tuple(out)
