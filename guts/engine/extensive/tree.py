"""Poker-shaped extensive-form games: a public tree over private deals.

A game is played in two stages.  First chance deals a joint *deal* ``d`` (one of ``D``,
with probability ``Deals.prob[d]``); player ``p`` observes only his *information type*
``Deals.info[p, d]`` (his hand; card removal lives in the joint distribution).  Then a
tree of *public* actions and *public* chance events is played; everybody sees every
action and every chance outcome.  A public chance event may depend on the deal (a flop
cannot show a card in somebody's hand): its outcome probabilities are arrays over deals.
Terminal payoffs are arrays over deals.

A player's information set is therefore the pair (public decision node, his type), and
perfect recall holds by construction.  Solvers work on whole vectors of types at once:
one pass over the public tree per iteration (see :mod:`._compiled`).

Nodes are plain Python objects (:class:`Decision`, :class:`Chance`, :class:`Terminal`);
a node object may appear several times in the tree (it is expanded per path).  Nodes are
named by their *history*: the tuple of labels from the root, e.g. ``("r4", "c")``.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...errors import GutsInputError
from .nodes import (PROB_TOL, ZERO_SUM_TOL, Chance, Deals, Decision, Terminal, _items,  # noqa: F401 - re-exported
                    _label_str)

__all__ = [
    "Deals",
    "Decision",
    "Chance",
    "Terminal",
    "PublicTreeGame",
    "PROB_TOL",
    "ZERO_SUM_TOL",
]


class _GameBase:
    """What the solvers need from a game: ``compiled``, ``deals``, ``num_players``,
    ``zero_sum``, ``name`` (shared by :class:`PublicTreeGame` and the explicit form)."""

    @property
    def num_types(self) -> tuple:
        return self.deals.num_types

    @property
    def payoff_scale(self) -> float:
        """Largest absolute payoff over terminals and deals (>= tiny)."""
        return self.compiled.payoff_scale

    def decision_histories(self, player: int) -> tuple:
        """Keys of ``player``'s strategy dict (public histories / information sets)."""
        return tuple(self.compiled.players[player].histories)

    def action_labels(self, player: int) -> dict:
        """``{key: tuple of action labels}`` for ``player``'s decision points."""
        pt = self.compiled.players[player]
        return dict(zip(pt.histories, pt.action_labels))


class PublicTreeGame(_GameBase):
    """A poker-shaped game: ``deals`` then the public tree rooted at ``root``.

    Validated and compiled on construction (``GutsInputError`` naming the node by its
    history).  ``zero_sum`` is True when payoffs sum to zero (to ``ZERO_SUM_TOL`` of the
    payoff scale) at every terminal and every deal with positive probability.
    """

    def __init__(self, root, deals: Deals, num_players: int, name: str = ""):
        from ._compiled import compile_game  # deferred: scipy loads with the first game, not at import

        if not isinstance(deals, Deals):
            raise GutsInputError(f"deals must be a Deals instance; got {type(deals).__name__}")
        if isinstance(num_players, bool) or not isinstance(num_players, (numbers.Integral, np.integer)) or num_players < 1:
            raise GutsInputError(f"num_players must be an integer >= 1; got {num_players!r}")
        num_players = int(num_players)
        if deals.num_players != num_players:
            raise GutsInputError(
                f"deals.info has {deals.num_players} rows but num_players = {num_players}"
            )
        self.root = root
        self.deals = deals
        self.num_players = num_players
        self.name = str(name)
        self.compiled = compile_game(root, deals, num_players)
        self.zero_sum = self.compiled.zero_sum

    def __repr__(self) -> str:
        c = self.compiled
        return (
            f"PublicTreeGame({self.name!r}, players={self.num_players}, deals={c.num_deals}, "
            f"nodes={c.num_nodes}, terminals={c.num_terminals}, zero_sum={self.zero_sum})"
        )
