"""The suit quotient of a poker game's public tree, built directly from the rules.

A poker game whose rules see suits only through equalities (a flush, a suited hand) is
unchanged when the suits are renamed (Gilpin and Sandholm, *Lossless abstraction of
imperfect information games*, J. ACM 2007).  :mod:`.isomorphism` builds the quotient from
the full game as an explicit tree (any solver).  This module builds it *instead of* the full
tree, as a public tree, so that a game whose full tree does not fit (Rhode Island hold'em:
2.7 million public states x 2652 deals) is built and solved at the quotient's size.

The mathematics.  Let ``G`` be the suit permutations, acting on cards, hands (types) and
boards.  At a public state with board ``b`` let ``H = Stab(b)``.

* **Chance.**  Of the next board cards, one representative ``c`` per ``H``-orbit is kept,
  with its own probability ``P(c | d)`` and the multiplicity ``k = |H c|``
  (:class:`~guts.engine.extensive.Chance` ``multiplicity``).  Player types are *not*
  relabelled: below ``c`` a type means the hand as seen against the representative board.
* **Values.**  For ``G``-invariant strategies, the full game's counterfactual value of type
  ``t`` summed over the orbit's outcomes is ``sum_{g in H/H_c} v_c(g^-1 t) = k * mean over
  the H-orbit of t of v_c`` (``v_c`` is ``H_c``-invariant).  So the engine averages each
  sequence's values over the type orbits of the stabiliser of its public state
  (:class:`~guts.engine.extensive.Decision` ``orbits``), after the subtree below it is backed
  up: the solvers' passes are those of the full game restricted to invariant strategies, at
  the quotient's size.  Averaging at every state with a non-trivial stabiliser (not only
  above chance) keeps the strategies exactly invariant in floating point, not just to
  rounding.
* **Why the value is the game's.**  In a zero-sum game the max-min strategies form a convex
  ``G``-invariant set, which holds an invariant strategy; against an invariant strategy a
  best response can be taken invariant.  The quotient's exploitability of an (invariant)
  strategy is therefore the full game's exploitability of its expansion: the certificate is
  the full game's.

What accepts it: the CFR family (``cfr_plus`` and its variants) and the exact best response
(``exploitability``), which run on the public-tree passes.  The sequence-form LP, fictitious
play, the team solvers and the exports refuse it (its information sets are merged across
the orbit, which only the passes' averaging makes exact).
"""
from __future__ import annotations

import itertools

import numpy as np

from guts.errors import GutsInputError

__all__ = ["SuitSymmetry", "expand_strategies"]


class SuitSymmetry:
    """The suit permutations of a deck acting on cards, hands and boards.

    Parameters
    ----------
    deck : Deck
        The game's deck (with suits; one copy of each card).
    hands : list of tuple
        The private hands (sorted tuples of card kinds); a hand's index is its type.
    """

    def __init__(self, deck, hands):
        if deck.suits < 2 or deck.copies != 1:
            raise GutsInputError(
                f"a suit quotient needs a deck with 2 or more suits and one copy of each card; got "
                f"{deck.suits} suits x {deck.copies} copies")
        self.deck = deck
        K = deck.num_kinds
        ranks = deck.kind_ranks
        suits = deck.kind_suits
        where = {(int(r), int(s)): k for k, (r, s) in enumerate(zip(ranks, suits))}
        self.perms = list(itertools.permutations(range(deck.suits)))
        #: (|G|, K): the card each permutation sends each card to
        self.kmap = np.array([[where[(int(ranks[k]), pi[int(suits[k])])] for k in range(K)]
                              for pi in self.perms], dtype=np.int64)
        index = {tuple(h): t for t, h in enumerate(hands)}
        #: (|G|, T): the type each permutation sends each type to
        self.tmap = np.array([[index[tuple(sorted(int(x) for x in self.kmap[g][list(h)]))] for h in hands]
                              for g in range(len(self.perms))], dtype=np.int64)
        self._stab = {}
        self._orbits = {}

    @property
    def order(self) -> int:
        return len(self.perms)

    def image(self, g: int, cards) -> tuple:
        return tuple(sorted(int(x) for x in self.kmap[g][list(cards)]))

    def stabiliser(self, groups: tuple) -> tuple:
        """Indices of the permutations that fix the public cards ``groups``: a tuple of the
        cards of each chance event in the order dealt (each a sorted tuple of kinds). A public
        state is its sequence of chance events, so a permutation must fix every event's cards
        (the flop 2c then the turn 2d is not the flop 2d then the turn 2c)."""
        got = self._stab.get(groups)
        if got is None:
            got = self._stab[groups] = tuple(g for g in range(self.order)
                                             if all(self.image(g, grp) == grp for grp in groups))
        return got

    def orbits(self, groups: tuple):
        """Orbit labels of the types under ``stabiliser(groups)`` (the least type of each
        orbit), one shared array per stabiliser; ``None`` when the stabiliser is trivial."""
        stab = self.stabiliser(groups)
        if len(stab) == 1:
            return None
        got = self._orbits.get(stab)
        if got is None:
            lab = self.tmap[list(stab)].min(axis=0)
            lab.setflags(write=False)
            got = self._orbits[stab] = lab
        return got

    def representatives(self, groups: tuple, outcomes):
        """``[(item, k)]``: of ``outcomes`` (items whose second entry is the dealt cards), one
        per orbit of ``stabiliser(groups)``, the least image, with ``k`` the number of the
        orbit's outcomes."""
        stab = self.stabiliser(groups)
        cards_of = {tuple(o[1]) if not np.isscalar(o[1]) else (int(o[1]),): o for o in outcomes}
        groups = {}
        for cards in cards_of:
            canon = min(self.image(g, cards) for g in stab)
            groups.setdefault(canon, []).append(cards)
        out = []
        for canon, members in groups.items():
            if canon not in cards_of:
                raise GutsInputError(f"the outcome {canon} of a suit orbit is missing after {groups}: "
                                     "the rules are not suit-symmetric")
            out.append((cards_of[canon], len(members)))
        order = {c: i for i, c in enumerate(cards_of)}
        out.sort(key=lambda item: order[tuple(item[0][1]) if not np.isscalar(item[0][1]) else (int(item[0][1]),)])
        return out


def expand_strategies(full, quotient, strategies) -> tuple:
    """The full game's strategies of a strategy profile of the suit quotient.

    Parameters
    ----------
    full : PublicTreeGame
        The full game (``build_poker(spec)``; it must fit in memory).
    quotient : PublicTreeGame
        Its quotient (``build_poker(spec, isomorphism="public")``).
    strategies : tuple of dict
        The quotient's strategies (``Solution.strategies``).

    Returns
    -------
    tuple of dict
        Per player ``{history: (T, A) array}`` of the full game: at a history whose boards a
        suit permutation ``g`` sends to the quotient's representatives, type ``t`` plays as
        type ``g t`` at the representative history.
    """
    from guts.engine.extensive import Chance, Decision

    spec_full = getattr(getattr(full, "built", None), "rules", None)
    spec_q = getattr(getattr(quotient, "built", None), "rules", None)
    if spec_full is None or spec_q is None or getattr(quotient, "isomorphism", None) != "public":
        raise GutsInputError("expand_strategies needs build_poker(spec) and build_poker(spec, isomorphism='public')")
    deck = spec_q.deck
    sym = SuitSymmetry(deck, deck.hands(spec_q.hole_cards))
    index = {p: i for i, p in enumerate(sym.perms)}
    by_label = {}
    for size in (1, 2, 3, 4, 5):
        for h in deck.hands(size):
            by_label[deck.hand_label(h)] = tuple(h)

    def compose(g, tau):            # (g o tau)(s) = g(tau(s))
        return index[tuple(sym.perms[g][sym.perms[tau][s]] for s in range(deck.suits))]

    ident = index[tuple(range(deck.suits))]
    qkeys = [set(pt.histories) for pt in quotient.compiled.players]
    out = [dict() for _ in range(full.num_players)]
    stack = [(full.root, (), (), ident, ())]
    while stack:
        node, hist, qhist, tau, groups = stack.pop()
        if isinstance(node, Decision):
            p = node.player
            if qhist not in qkeys[p]:
                raise GutsInputError(f"the quotient has no decision at {qhist} (the games differ)")
            out[p][hist] = np.asarray(strategies[p][qhist])[sym.tmap[tau]]
            for lab, child in node.actions.items():
                stack.append((child, hist + (lab,), qhist + (lab,), tau, groups))
        elif isinstance(node, Chance):
            stab = sym.stabiliser(groups)
            for lab, (_, child) in node.outcomes.items():
                prefix, _, card_label = lab.rpartition(":")
                cards = sym.image(tau, by_label[card_label])
                g = min(stab, key=lambda x: sym.image(x, cards))
                rep = sym.image(g, cards)
                qlab = (prefix + ":" if prefix else "") + deck.hand_label(rep)
                stack.append((child, hist + (lab,), qhist + (qlab,), compose(g, tau), groups + (rep,)))
    return tuple(out)
