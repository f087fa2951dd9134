"""Leduc strategies of this package as OpenSpiel policies (OpenSpiel is the tests' and
benchmarks' oracle, never a dependency of the package: it is imported only when called).

OpenSpiel's ``leduc_poker`` deals one private card to each player, then (after the first
betting round) one public card; its actions are 0 fold, 1 call, 2 raise. Our
:func:`guts.games.toy.leduc_poker` histories use the labels ``f``, ``c``, ``r`` and the board
card's label, and a player's type is his card.
"""
from __future__ import annotations

import numpy as np

from guts.errors import GutsInputError

__all__ = ["leduc_info_map", "leduc_openspiel_policy", "ACTION_LABEL"]

#: OpenSpiel's leduc_poker action ids -> our action labels.
ACTION_LABEL = {0: "f", 1: "c", 2: "r"}


def leduc_info_map(game, os_game) -> dict:
    """OpenSpiel information-state string -> (player, our public history, our type).

    Raises ``ValueError`` if one OpenSpiel information state maps to two of ours (the two
    games would then not have the same information structure)."""
    n = os_game.num_players()
    card_labels = game.deals.type_labels[0]
    out = {}

    def walk(state, hist, cards):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                if len(cards) < n:
                    walk(state.child(a), hist, cards + (a,))
                else:
                    walk(state.child(a), hist + (card_labels[a],), cards)
            return
        p = state.current_player()
        key = state.information_state_string(p)
        if out.setdefault(key, (p, hist, cards[p])) != (p, hist, cards[p]):
            raise GutsInputError(f"OpenSpiel information state {key!r} is two of ours")
        for a in state.legal_actions():
            walk(state.child(a), hist + (ACTION_LABEL[a],), cards)

    walk(os_game.new_initial_state(), (), ())
    return out


def leduc_openspiel_policy(game, strategies, os_game, info_map: dict | None = None):
    """Our strategies (one dict per player: history -> (types, actions)) as an OpenSpiel
    ``TabularPolicy`` of ``os_game``."""
    from open_spiel.python import policy as os_policy

    info_map = leduc_info_map(game, os_game) if info_map is None else info_map
    labels = {p: game.action_labels(p) for p in range(game.num_players)}
    pol = os_policy.TabularPolicy(os_game)
    for key, idx in pol.state_lookup.items():
        p, hist, card = info_map[key]
        row = np.zeros(len(ACTION_LABEL))
        for j, lab in enumerate(labels[p][hist]):
            row["fcr".index(lab)] = strategies[p][hist][card, j]
        pol.action_probability_array[idx] = row
    return pol
