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
from dataclasses import dataclass

import numpy as np

from ..._validate import check_memory
from ...errors import GutsInputError
from ..tolerances import PROB_TOL, ZERO_SUM_TOL
from .nodes import Chance, Deals, Decision, Terminal, _floats, _items, _label_str  # noqa: F401 - re-exported

__all__ = [
    "Deals",
    "Decision",
    "Chance",
    "Terminal",
    "PublicTreeGame",
    "PROB_TOL",
    "ZERO_SUM_TOL",
    "GameSize",
    "estimate_size",
    "GAME_BYTES_PER_NODE",
    "GAME_BYTES_PER_SEQUENCE",
    "GAME_BYTES_PER_DEAL_PLAYER",
]

@dataclass(frozen=True)
class GameSize:
    """Size of a game before it is built (:func:`estimate_size`).

    ``public_nodes``: nodes of the tree expanded per path (a node object used on several
    paths counts once per path); ``deals``: D; ``node_deal_pairs`` = public_nodes x D (the
    work of one pass); ``infosets``: information sets (decision nodes x the mover's
    types, an upper bound for the explicit form where nodes share information sets);
    ``sequences``: sum over information sets of their actions; ``bytes``: estimated memory
    of the compiled form and one solver's working arrays.
    """

    public_nodes: int
    terminals: int
    deals: int
    node_deal_pairs: int
    infosets: int
    sequences: int
    bytes: int


#: Bytes per (sequence, type) pair in the estimate (storage): behaviour and reach
#: (float64, 16), cumulative regret and average (float32, 8), the checked average and the
#: value pass (float64, 16), the returned strategy tables (8) and their Python headers.
GAME_BYTES_PER_SEQUENCE = 56
#: Bytes per expanded public node: the Python node objects of the builder and the decision
#: keys, the compiled terminal arrays and the three-player type-tensor kernel's per-terminal
#: arrays and output (15 types), at the largest game measured (3P-MMH with a check).
GAME_BYTES_PER_NODE = 1000
#: Bytes per (deal, player): the deal table, contexts and payoff tables.
GAME_BYTES_PER_DEAL_PLAYER = 32
#: Former names.
_BYTES_PER_SEQUENCE = GAME_BYTES_PER_SEQUENCE
_BYTES_PER_NODE = GAME_BYTES_PER_NODE


def _children(node):
    """(label, child) pairs of any node type, by duck typing (public tree and explicit)."""
    if isinstance(node, (Decision,)) or (hasattr(node, "actions") and hasattr(node, "player")):
        return list(node.actions.items())
    outs = getattr(node, "outcomes", None)
    if isinstance(outs, dict):
        kids = []
        for lab, pair in outs.items():
            try:
                kids.append((lab, pair[1]))
            except (TypeError, IndexError, KeyError):
                kids.append((lab, None))
        return kids
    return []


def estimate_size(root, deals=None, num_players=None) -> GameSize:
    """Size of the game rooted at ``root`` without building it; rejects cycles.

    A pass over the *distinct* node objects (a node shared by many paths is visited
    once), so it is cheap even when the expanded tree is huge.

    Raises
    ------
    GutsInputError
        The tree has a cycle (a node that is its own descendant): the message names the
        history where the cycle closes and the ancestor's history.
    """
    num_types = deals.num_types if deals is not None else None
    D = deals.num_deals if deals is not None else 1
    memo = {}
    grey = {}            # id -> depth of the node on the current path
    path = []
    stack = [(root, iter(_children(root)))]
    grey[id(root)] = 0
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            del grey[id(node)]
            kids = [memo[id(c)] for _, c in _children(node) if c is not None]
            nodes = 1 + sum(k[0] for k in kids)
            terms = sum(k[1] for k in kids) if kids else (1 if not _children(node) else 0)
            decs = sum(k[2] for k in kids)
            seqs = sum(k[3] for k in kids)
            if _children(node) and hasattr(node, "player") and hasattr(node, "actions"):
                p = node.player
                t = num_types[p] if num_types is not None and isinstance(p, int) and 0 <= p < len(num_types) else 1
                decs += t
                seqs += t * len(node.actions)
            memo[id(node)] = (nodes, terms, decs, seqs)
            if path:
                path.pop()
            continue
        lab, child = nxt
        if child is None:
            continue
        cid = id(child)
        if cid in grey:
            here = tuple(path) + (lab,)
            raise GutsInputError(
                f"the game tree has a cycle: the child {lab!r} at history {_label_str(tuple(path))} is "
                f"the node at history {_label_str(tuple(path[:grey[cid]]))}, its own ancestor "
                f"(the path {_label_str(here)} would repeat forever); accepted: a finite tree "
                "(a node may be shared by several paths but never be its own descendant)")
        if cid in memo:
            continue
        grey[cid] = len(path) + 1
        path.append(lab)
        stack.append((child, iter(_children(child))))
    nodes, terms, decs, seqs = memo[id(root)]
    n = num_players or 1
    nbytes = GAME_BYTES_PER_NODE * nodes + GAME_BYTES_PER_SEQUENCE * seqs + GAME_BYTES_PER_DEAL_PLAYER * n * D
    return GameSize(public_nodes=int(nodes), terminals=int(terms), deals=int(D),
                    node_deal_pairs=int(nodes) * int(D), infosets=int(decs), sequences=int(seqs),
                    bytes=int(nbytes))


def require_full_game(game, what: str) -> None:
    """Refuse a quotient by a symmetry group (``compiled.quotient``) in a method that reads
    the game's information sets one by one (LP, fictitious play, exact arithmetic, team
    solvers, exports): only the public-tree passes average the values over the merged
    orbits that make the quotient exact."""
    if getattr(getattr(game, "compiled", None), "quotient", False):
        raise GutsInputError(
            f"{what} does not accept a suit quotient of a public tree (isomorphism='public': its "
            "information sets stand for whole suit orbits); accepted: cfr_plus and its variants and "
            "exploitability on it, or the full game / isomorphism=True for this method")


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
        # cycles and size are checked on the distinct node objects before the tree is
        # expanded per path (a cycle would otherwise expand until memory runs out)
        self.size = estimate_size(root, deals, num_players)
        check_memory(f"the game {self.name or 'tree'} ({self.size.public_nodes} public nodes x "
                     f"{self.size.deals} deals, {self.size.infosets} information sets)",
                     self.size.bytes)
        self.compiled = compile_game(root, deals, num_players)
        self.zero_sum = self.compiled.zero_sum

    def __repr__(self) -> str:
        c = self.compiled
        return (
            f"PublicTreeGame({self.name!r}, players={self.num_players}, deals={c.num_deals}, "
            f"nodes={c.num_nodes}, terminals={c.num_terminals}, zero_sum={self.zero_sum})"
        )
