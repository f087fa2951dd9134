"""The nodes of a public tree over private deals: :class:`Deals`, :class:`Decision`,
:class:`Chance`, :class:`Terminal` (see :mod:`.tree` for the game built from them).

A module of its own so that the compiler (:mod:`._compiled`) and the game
(:mod:`.tree`) both import the nodes and neither imports the other's importer: no
import cycle.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...errors import GutsInputError
from ..tolerances import PROB_TOL, ZERO_SUM_TOL  # noqa: F401 - re-exported

__all__ = ["Deals", "Decision", "Chance", "Terminal", "PROB_TOL", "ZERO_SUM_TOL"]

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
    """A public decision node of ``player`` with ordered ``actions`` (label -> child).

    ``orbits`` (optional, for a quotient by a symmetry group, such as the poker builder's
    suit quotient of the public tree): an int array over the mover's types giving each type's
    orbit label under the stabiliser of this public state. The solvers then average the
    counterfactual values of the node's action sequences over each orbit (their values in
    the full game are those averages), so the strategies stay invariant. ``None``: every
    type is its own orbit.
    """

    __slots__ = ("player", "actions", "orbits")

    def __init__(self, player: int, actions, orbits=None):
        if isinstance(player, bool) or not isinstance(player, (numbers.Integral, np.integer)):
            raise GutsInputError(f"Decision.player must be an int; got {player!r}")
        self.player = int(player)
        items = _items(actions, "Decision.actions")
        if not items:
            raise GutsInputError("Decision.actions must not be empty")
        self.actions = dict(items)
        self.orbits = orbits            # validated (length, integers) by the compiler

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, actions={list(self.actions)})"


class Chance:
    """A public chance node: ``outcomes[label] = (prob, child)``.

    ``prob`` is a scalar (deal-independent) or an array (D,) = P(outcome | deal d) (card
    removal).  Over the outcomes, the probabilities sum to one for every deal with
    positive probability.  Arrays passed to several chance nodes are shared, not copied.

    ``multiplicity`` (optional, for a quotient by a symmetry group): ``{label: k}``, the
    outcome stands for ``k`` outcomes of the full game (its orbit under the stabiliser of
    the public state); its probability is then that of the representative alone, and the
    probabilities of the representatives sum to at most one.
    """

    __slots__ = ("outcomes", "multiplicity")

    def __init__(self, outcomes, multiplicity=None):
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
        if multiplicity is not None:
            mult = {}
            for lab, k in dict(multiplicity).items():
                if lab not in out:
                    raise GutsInputError(f"Chance.multiplicity names {lab!r}, which is not an outcome")
                if isinstance(k, bool) or not isinstance(k, (numbers.Integral, np.integer)) or k < 1:
                    raise GutsInputError(f"Chance.multiplicity[{lab!r}] = {k!r}; accepted: an integer >= 1")
                mult[lab] = int(k)
            multiplicity = mult or None
        self.multiplicity = multiplicity

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
