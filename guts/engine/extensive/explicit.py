"""A small explicit extensive form (nodes + information-set labels) for toy games and tests.

Nodes: :class:`ExplicitDecision` (player, information-set label, ordered actions),
:class:`ExplicitChance` (outcome -> (probability, child)), :class:`ExplicitTerminal`
(payoff per player).  :class:`ExplicitGame` checks on construction that

* all nodes of an information set belong to one player and offer the same actions;
* perfect recall: all nodes of an information set are reached by the same sequence of
  the owner's own (information set, action) pairs (which also excludes absent-minded
  information sets, visited twice on a path);

and compiles the game into the same flat form as a public tree with one deal and one
type per player (a decision "node" of the flat form is an information set, a sequence is
(information set, action)), so every solver of the package (``solve_lp``, ``cfr_plus``,
``fictitious_play``, ``best_response``, ``nash_conv``, ...) and the sequence-form
converter :func:`~.lp.sequence_form` run on it unchanged.

Strategies are ``strategies[p] = {infoset label: array (1, num_actions)}``.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...errors import GutsInputError
from ._compiled import CHANCE, DECISION, TERMINAL, Terminals, assemble
from ..._validate import check_memory
from .tree import PROB_TOL, ZERO_SUM_TOL, Deals, _GameBase, _floats, _items, _label_str, estimate_size

__all__ = ["ExplicitDecision", "ExplicitChance", "ExplicitTerminal", "ExplicitGame"]


class ExplicitDecision:
    """Decision node of ``player`` in information set ``infoset`` (any hashable label)."""

    __slots__ = ("player", "infoset", "actions")

    def __init__(self, player: int, infoset, actions):
        if isinstance(player, bool) or not isinstance(player, (numbers.Integral, np.integer)):
            raise GutsInputError(f"ExplicitDecision.player must be an int; got {player!r}")
        self.player = int(player)
        self.infoset = infoset
        items = _items(actions, "ExplicitDecision.actions")
        if not items:
            raise GutsInputError(f"information set {infoset!r}: actions must not be empty")
        self.actions = dict(items)


class ExplicitChance:
    """Chance node: ``outcomes[label] = (probability, child)``, probabilities sum to one."""

    __slots__ = ("outcomes",)

    def __init__(self, outcomes):
        items = _items(outcomes, "ExplicitChance.outcomes")
        if not items:
            raise GutsInputError("ExplicitChance.outcomes must not be empty")
        self.outcomes = dict(items)


class ExplicitTerminal:
    """Leaf with ``payoffs`` (n_players,)."""

    __slots__ = ("payoffs",)

    def __init__(self, payoffs):
        self.payoffs = _floats(payoffs, "ExplicitTerminal payoffs").reshape(-1)


class ExplicitGame(_GameBase):
    """An explicit extensive-form game, checked (perfect recall) and compiled."""

    def __init__(self, root, num_players: int, name: str = ""):
        if isinstance(num_players, bool) or not isinstance(num_players, (numbers.Integral, np.integer)) or num_players < 1:
            raise GutsInputError(f"num_players must be an integer >= 1; got {num_players!r}")
        n = int(num_players)
        self.root = root
        self.num_players = n
        self.name = str(name)
        self.deals = Deals([1.0], np.zeros((n, 1), dtype=np.int64), tuple(("-",) for _ in range(n)))
        # a cycle is named as a cycle (not as a perfect-recall violation or an endless
        # expansion) and the size is checked before the tree is expanded per path
        self.size = estimate_size(root, self.deals, n)
        check_memory(f"the game {self.name or 'tree'} ({self.size.public_nodes} nodes)", self.size.bytes)
        self.compiled = _compile_explicit(root, n, self.deals)
        self.zero_sum = self.compiled.zero_sum


def _compile_explicit(root, n, deals):
    kinds, parents, histories = [], [], []
    drec = [[] for _ in range(n)]
    temp_next = [1] * n
    temp_dec = [dict() for _ in range(n)]
    infosets = [dict() for _ in range(n)]   # label -> (record, first history)
    t_node, t_seq, t_vid, t_scal, t_tid, t_off, t_scale = [], [], [], [], [], [], []
    zero_sum, payoff_scale = True, 0.0
    stack = [(root, (), -1, (0,) * n, 1.0)]
    while stack:
        node, hist, par, seqs, scal = stack.pop()
        idx = len(kinds)
        parents.append(par)
        histories.append(hist)
        if isinstance(node, ExplicitDecision):
            kinds.append(DECISION)
            p = node.player
            if not 0 <= p < n:
                raise GutsInputError(
                    f"decision node at history {_label_str(hist)}: player {p} out of range 0..{n - 1}")
            labels = tuple(node.actions)
            key = node.infoset
            for q in range(n):
                if q != p and key in infosets[q]:
                    raise GutsInputError(
                        f"information set {key!r} holds nodes of players {q} and {p} "
                        f"(at {_label_str(infosets[q][key][1])} and {_label_str(hist)})")
            if key in infosets[p]:
                rec, first_hist = infosets[p][key]
                _, ptemp, tfirst, na, _, labs = drec[p][rec]
                if labs != labels:
                    raise GutsInputError(
                        f"information set {key!r}: actions {labels!r} at {_label_str(hist)} differ "
                        f"from {labs!r} at {_label_str(first_hist)}")
                if ptemp != seqs[p]:
                    raise GutsInputError(
                        f"information set {key!r} of player {p} violates perfect recall: the "
                        f"nodes at {_label_str(first_hist)} and {_label_str(hist)} follow different "
                        f"own (information set, action) sequences")
            else:
                tfirst = temp_next[p]
                temp_next[p] += len(labels)
                rec = len(drec[p])
                drec[p].append((idx, seqs[p], tfirst, len(labels), key, labels))
                for a in range(len(labels)):
                    temp_dec[p][tfirst + a] = rec
                infosets[p][key] = (rec, hist)
            children = []
            for a, lab in enumerate(labels):
                s2 = seqs[:p] + (tfirst + a,) + seqs[p + 1:]
                children.append((node.actions[lab], hist + (lab,), idx, s2, scal))
            stack.extend(reversed(children))
        elif isinstance(node, ExplicitChance):
            kinds.append(CHANCE)
            total = 0.0
            children = []
            for lab, pair in node.outcomes.items():
                try:
                    pr, child = pair
                    pr = float(pr)
                except (TypeError, ValueError):
                    raise GutsInputError(
                        f"chance node at history {_label_str(hist)}: outcome {lab!r} must be "
                        f"(probability, child); got {pair!r}") from None
                if not np.isfinite(pr) or pr < 0:
                    raise GutsInputError(
                        f"chance node at history {_label_str(hist)}: outcome {lab!r} has "
                        f"probability {pr!r} (must be finite and >= 0)")
                total += pr
                children.append((child, hist + (lab,), idx, seqs, scal * pr))
            if abs(total - 1.0) > PROB_TOL:
                raise GutsInputError(
                    f"chance node at history {_label_str(hist)}: outcome probabilities sum to "
                    f"{total!r} (must sum to 1)")
            stack.extend(reversed(children))
        elif isinstance(node, ExplicitTerminal):
            kinds.append(TERMINAL)
            off = node.payoffs
            if off.shape != (n,):
                raise GutsInputError(
                    f"terminal at history {_label_str(hist)}: payoffs must have shape ({n},); "
                    f"got {off.shape}")
            if not np.all(np.isfinite(off)):
                raise GutsInputError(f"terminal at history {_label_str(hist)}: payoff contains NaN or inf")
            mag = float(np.abs(off).max())
            payoff_scale = max(payoff_scale, mag)
            if abs(float(off.sum())) > ZERO_SUM_TOL * max(mag, 1.0):
                zero_sum = False
            t_node.append(idx)
            t_seq.append(seqs)
            t_vid.append(0)
            t_scal.append(scal)
            t_tid.append(-1)
            t_off.append(off)
            t_scale.append(0.0)
        else:
            raise GutsInputError(
                f"node at history {_label_str(hist)} is a {type(node).__name__}; expected "
                "ExplicitDecision, ExplicitChance or ExplicitTerminal")
    if not t_node:
        raise GutsInputError("the game tree has no terminal node")
    return assemble(n, deals, kinds=kinds, parents=parents, histories=histories, drec=drec, temp_next=temp_next,
                    temp_dec=temp_dec, ctx_rows=[deals.prob], tables=[],
                    terminals=Terminals(t_node, t_seq, t_vid, t_scal, t_tid, t_off, t_scale),
                    zero_sum=zero_sum, payoff_scale=payoff_scale)
