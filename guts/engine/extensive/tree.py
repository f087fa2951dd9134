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
]

# PROB_TOL and ZERO_SUM_TOL live in guts.engine.tolerances (re-exported here).


def _floats(value, what: str) -> np.ndarray:
    """``np.asarray(value, dtype=float)``, with GutsInputError (not numpy's ValueError or
    TypeError) when ``value`` holds something that is not a number."""
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise GutsInputError(f"{what} must be numbers; got {value!r}") from None


def _label_str(history) -> str:
    return "(" + ", ".join(repr(h) for h in history) + ")" if history else "() (the root)"


class Deals:
    """The joint distribution of private information types.

    Parameters
    ----------
    prob : array (D,)
        Probability of each joint deal; ``>= 0``, sums to one.
    info : int array (n_players, D)
        ``info[p, d]`` is what player ``p`` observes at deal ``d`` (his type), in
        ``0 .. num_types[p] - 1``.
    type_labels : sequence of sequences, optional
        Labels of each player's types (for reports); ``len(type_labels[p]) == num_types[p]``.
    """

    __slots__ = ("prob", "info", "type_labels", "num_types")

    def __init__(self, prob, info, type_labels=None):
        prob = _floats(prob, "Deals.prob")
        if prob.ndim != 1 or prob.size == 0:
            raise GutsInputError(f"Deals.prob must be a non-empty 1-D array; got shape {prob.shape}")
        if not np.all(np.isfinite(prob)) or np.any(prob < 0):
            bad = prob[~np.isfinite(prob) | (prob < 0)][0]
            raise GutsInputError(f"Deals.prob must be finite and >= 0; got {bad!r}")
        total = float(prob.sum())
        if abs(total - 1.0) > PROB_TOL:
            raise GutsInputError(f"Deals.prob must sum to 1 (within {PROB_TOL:g}); sums to {total!r}")
        info_arr = np.asarray(info)
        if info_arr.ndim == 1:
            info_arr = info_arr[None, :]
        if info_arr.ndim != 2 or info_arr.shape[1] != prob.size:
            raise GutsInputError(
                f"Deals.info must have shape (n_players, D={prob.size}); got {info_arr.shape}"
            )
        if not np.issubdtype(info_arr.dtype, np.integer):
            f = np.asarray(info_arr, dtype=float)
            if not np.all(np.isfinite(f)) or np.any(f != np.round(f)):
                raise GutsInputError("Deals.info must hold integer type indices")
            info_arr = f.astype(np.int64)
        info_arr = np.ascontiguousarray(info_arr, dtype=np.int64)
        if np.any(info_arr < 0):
            raise GutsInputError(f"Deals.info must be >= 0; got {int(info_arr.min())}")
        n = info_arr.shape[0]
        num_types = [int(info_arr[p].max()) + 1 for p in range(n)]
        if type_labels is not None:
            type_labels = tuple(tuple(lab) for lab in type_labels)
            if len(type_labels) != n:
                raise GutsInputError(
                    f"Deals.type_labels must have one entry per player ({n}); got {len(type_labels)}"
                )
            for p in range(n):
                if len(type_labels[p]) < num_types[p]:
                    raise GutsInputError(
                        f"Deals.type_labels[{p}] has {len(type_labels[p])} labels but info[{p}] "
                        f"uses types up to {num_types[p] - 1}"
                    )
                if len(set(type_labels[p])) != len(type_labels[p]):
                    raise GutsInputError(f"Deals.type_labels[{p}] has duplicate labels")
                num_types[p] = len(type_labels[p])
        else:
            type_labels = tuple(tuple(str(t) for t in range(num_types[p])) for p in range(n))
        self.prob = prob
        self.info = info_arr
        self.type_labels = type_labels
        self.num_types = tuple(num_types)

    @property
    def num_deals(self) -> int:
        return int(self.prob.size)

    @property
    def num_players(self) -> int:
        return int(self.info.shape[0])

    def __repr__(self) -> str:
        return f"Deals(D={self.num_deals}, num_types={self.num_types})"


def _items(mapping, what: str):
    """Ordered (label, value) pairs from a dict or an iterable of pairs; no duplicates."""
    items = list(mapping.items()) if isinstance(mapping, dict) else list(mapping)
    labels = [lab for lab, _ in items]
    if len(set(labels)) != len(labels):
        dup = next(lab for lab in labels if labels.count(lab) > 1)
        raise GutsInputError(f"{what}: duplicate label {dup!r}")
    return tuple(items)


class Decision:
    """A public decision node of ``player`` with ordered ``actions`` (label -> child)."""

    __slots__ = ("player", "actions")

    def __init__(self, player: int, actions):
        if isinstance(player, bool) or not isinstance(player, (numbers.Integral, np.integer)):
            raise GutsInputError(f"Decision.player must be an int; got {player!r}")
        self.player = int(player)
        items = _items(actions, "Decision.actions")
        if not items:
            raise GutsInputError("Decision.actions must not be empty")
        self.actions = dict(items)

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, actions={list(self.actions)})"


class Chance:
    """A public chance node: ``outcomes[label] = (prob, child)``.

    ``prob`` is a scalar (deal-independent) or an array (D,) = P(outcome | deal d) (card
    removal).  Over the outcomes, the probabilities sum to one for every deal with
    positive probability.  Arrays passed to several chance nodes are shared, not copied.
    """

    __slots__ = ("outcomes",)

    def __init__(self, outcomes):
        items = _items(outcomes, "Chance.outcomes")
        if not items:
            raise GutsInputError("Chance.outcomes must not be empty")
        out = {}
        for lab, pair in items:
            try:
                prob, child = pair
            except (TypeError, ValueError):
                raise GutsInputError(
                    f"Chance.outcomes[{lab!r}] must be a pair (probability, child); got {pair!r}"
                ) from None
            if isinstance(prob, (numbers.Real, np.floating, np.integer)) and not isinstance(prob, bool):
                prob = float(prob)
            else:
                prob = _floats(prob, f"Chance.outcomes[{lab!r}] probability")
                if prob.ndim == 0:
                    prob = float(prob)
            out[lab] = (prob, child)
        self.outcomes = out

    def __repr__(self) -> str:
        return f"Chance(outcomes={list(self.outcomes)})"


class Terminal:
    """A leaf.  ``Terminal(payoff)``: payoff array (n_players, D) or (n_players,).

    Internally every terminal is affine in one (possibly shared) table::

        payoff[p, d] = offset[p] + scale * table[p, d]       (table is None: offset only)

    so that many terminals can share one table (:meth:`showdown`, :meth:`affine`) and
    the solvers batch all terminals of a table.  Payoffs are NOT multiplied by deal or
    chance probabilities.
    """

    __slots__ = ("table", "offset", "scale")

    def __init__(self, payoff):
        arr = _floats(payoff, "Terminal payoff")
        if arr.ndim == 1:
            self.table, self.offset, self.scale = None, arr, 0.0
        elif arr.ndim == 2:
            self.table, self.offset, self.scale = arr, np.zeros(arr.shape[0]), 1.0
        else:
            raise GutsInputError(
                f"Terminal payoff must have shape (n_players,) or (n_players, D); got {arr.shape}"
            )

    @classmethod
    def affine(cls, table, offset, scale: float) -> "Terminal":
        """``payoff[p, d] = offset[p] + scale * table[p, d]``; ``table`` is shared, not copied."""
        t = cls.__new__(cls)
        tab = _floats(table, "Terminal table")
        if tab.ndim != 2:
            raise GutsInputError(f"Terminal table must have shape (n_players, D); got {tab.shape}")
        t.table = tab
        t.offset = _floats(offset, "Terminal offset").reshape(-1)
        try:
            t.scale = float(scale)
        except (TypeError, ValueError):
            raise GutsInputError(f"Terminal scale must be a number; got {scale!r}") from None
        return t

    @classmethod
    def showdown(cls, contrib, share) -> "Terminal":
        """Showdown: ``payoff[p, d] = sum(contrib) * share[p, d] - contrib[p]``.

        ``contrib`` (n_players,) chips put in the pot; ``share`` (n_players, D) fraction of
        the pot won at deal d (ties split).  Pass the SAME ``share`` ndarray to every
        terminal with the same showdown ranking: it is referenced, not copied.
        """
        c = _floats(contrib, "Terminal.showdown contrib").reshape(-1)
        return cls.affine(share, -c, float(c.sum()))

    def payoff(self, num_deals: int | None = None) -> np.ndarray:
        """The payoff as an array (n_players, D) (or (n_players,) if deal-independent)."""
        if self.table is None:
            return self.offset.copy() if num_deals is None else np.repeat(self.offset[:, None], num_deals, 1)
        return self.offset[:, None] + self.scale * self.table

    def __repr__(self) -> str:
        kind = "constant" if self.table is None else f"table{self.table.shape}"
        return f"Terminal({kind})"


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


#: Bytes per (sequence, type) pair in the estimate: strategy, reach, regret, average,
#: values and their scratch copies (about ten float64 arrays of that shape).
_BYTES_PER_SEQUENCE = 80
#: Bytes per expanded node / terminal in the compiled form (indices, histories, labels).
_BYTES_PER_NODE = 400


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
    nbytes = _BYTES_PER_NODE * nodes + _BYTES_PER_SEQUENCE * seqs + 8 * n * D * 4
    return GameSize(public_nodes=int(nodes), terminals=int(terms), deals=int(D),
                    node_deal_pairs=int(nodes) * int(D), infosets=int(decs), sequences=int(seqs),
                    bytes=int(nbytes))


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
        from ._compiled import compile_game  # local: _compiled imports this module

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
