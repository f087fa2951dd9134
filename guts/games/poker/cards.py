"""Decks without (or with) suits, private hands as multisets of card kinds, and the
exact deal probabilities with card removal (Ullman 2015, §3.2 "the deck abstraction", §4.2).

A *card kind* is what a player can tell apart: a rank when the deck has no suits (Mercer
hold'em: ranks 2-6, four indistinguishable copies each), a (rank, suit) pair otherwise.
Every kind has the same number of physical copies. A private hand is a multiset of kinds,
stored as a sorted tuple of kind indices; the players' joint deal is a tuple of hands.

Probabilities are those of dealing distinct physical cards uniformly at random:

    P(hands h_1..h_n) = prod_k  c! / (prod_p m_pk! (c - sum_p m_pk)!)  /  (N! / (h!^n (N - n h)!))

where m_pk is the number of copies of kind k in hand p, c the copies per kind, N the deck
size and h the hand size (the multinomial number of ways to hand out the physical copies
of every kind, over the number of ordered deals of unordered hands). A public deal of s
cards with kind counts f_k from the r_k copies left has probability
prod_k C(r_k, f_k) / C(R, s) with R the number of cards left.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from guts._validate import check_int
from guts.errors import GutsInputError

__all__ = ["Deck", "RANK_CHARS", "SUIT_CHARS"]

RANK_CHARS = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_CHARS = "shdc"


@dataclass(frozen=True)
class Deck:
    """A deck of ``len(ranks) * max(suits, 1) * copies`` cards.

    Parameters
    ----------
    ranks : tuple of int
        Rank values, increasing (2..14; 10..14 print as T J Q K A).
    copies : int
        Indistinguishable physical copies of every card kind.
    suits : int
        0 for a suitless deck (kinds are ranks, as in Mercer hold'em), else the number of
        suits (kinds are (rank, suit) pairs).
    suit_chars : str
        Letters of the suits in labels, suit 0 first (``"cdhs"``: the ACPC server's order).

    Examples
    --------
    >>> d = Deck.mercer()
    >>> d.size, d.num_kinds, len(d.hands(2))
    (20, 5, 15)
    >>> [d.hand_label(h) for h in d.hands(2)[:3]]
    ['22', '23', '24']
    """

    ranks: tuple = (2, 3, 4, 5, 6)
    copies: int = 4
    suits: int = 0
    suit_chars: str = SUIT_CHARS

    def __post_init__(self):
        ranks = tuple(int(r) for r in self.ranks)
        if not ranks or any(b <= a for a, b in zip(ranks, ranks[1:])) or ranks[0] < 2 or ranks[-1] > 14:
            raise GutsInputError(f"deck ranks must be increasing integers in 2..14; got {self.ranks!r}")
        object.__setattr__(self, "ranks", ranks)
        check_int("deck copies", self.copies, 1, 64)
        check_int("deck suits", self.suits, 0, 4)
        if (not isinstance(self.suit_chars, str) or len(set(self.suit_chars)) != len(self.suit_chars)
                or len(self.suit_chars) < self.suits):
            raise GutsInputError(f"suit letters {self.suit_chars!r}; accepted: {self.suits} distinct letters")

    @classmethod
    def mercer(cls) -> "Deck":
        """The thesis's deck: ranks 2-6, four copies each, no suits (§4.2)."""
        return cls((2, 3, 4, 5, 6), 4, 0)

    # -- kinds -----------------------------------------------------------------------
    @property
    def num_kinds(self) -> int:
        return len(self.ranks) * max(self.suits, 1)

    @property
    def size(self) -> int:
        return self.num_kinds * self.copies

    def kind_rank(self, k: int) -> int:
        return self.ranks[k // max(self.suits, 1)]

    def kind_suit(self, k: int) -> int:
        """Suit index of kind ``k`` (-1 in a suitless deck)."""
        return k % self.suits if self.suits else -1

    def kind_label(self, k: int) -> str:
        r = self.kind_rank(k)
        s = RANK_CHARS.get(r, str(r))
        return s + self.suit_chars[self.kind_suit(k)] if self.suits else s

    def hand_label(self, hand) -> str:
        return "".join(self.kind_label(k) for k in hand)

    @cached_property
    def kind_ranks(self) -> np.ndarray:
        return np.array([self.kind_rank(k) for k in range(self.num_kinds)], dtype=np.int64)

    @cached_property
    def kind_suits(self) -> np.ndarray:
        return np.array([self.kind_suit(k) for k in range(self.num_kinds)], dtype=np.int64)

    # -- hands and probabilities ----------------------------------------------------------
    def hands(self, size: int) -> list:
        """All multisets of ``size`` kinds that the deck can hold, as sorted tuples."""
        out = []
        for h in itertools.combinations_with_replacement(range(self.num_kinds), size):
            if max((h.count(k) for k in set(h)), default=0) <= self.copies:
                out.append(h)
        return out

    def counts(self, hand) -> np.ndarray:
        c = np.zeros(self.num_kinds, dtype=np.int64)
        for k in hand:
            c[k] += 1
        return c

    def joint_deals(self, num_players: int, hand_size: int):
        """Every joint private deal with positive probability.

        Returns
        -------
        hands : list of tuple
            The possible hands of one player (their index is the player's type).
        types : ndarray (D, num_players) of int
            Hand index of every player at every deal.
        prob : ndarray (D,)
            Deal probabilities (sum to one).
        left : ndarray (D, num_kinds) of int
            Copies of every kind left in the deck after the deal.
        """
        hands = self.hands(hand_size)
        if num_players * hand_size > self.size:
            raise GutsInputError(
                f"a deck of {self.size} cards cannot deal {hand_size} cards to {num_players} players")
        hc = np.array([self.counts(h) for h in hands])                 # (H, K)
        # log of c! / (prod_p m_pk! (c - sum_p m_pk)!), built player by player
        lf = np.array([math.lgamma(i + 1) for i in range(self.copies + 1)])
        denom = (math.lgamma(self.size + 1) - num_players * math.lgamma(hand_size + 1)
                 - math.lgamma(self.size - num_players * hand_size + 1))
        types = np.zeros((1, 0), dtype=np.int64)
        used = np.zeros((1, self.num_kinds), dtype=np.int64)
        logw = np.zeros(1)                                              # -sum log m_pk!
        for _ in range(num_players):
            t_new = np.repeat(types, len(hands), axis=0)
            t_new = np.concatenate([t_new, np.tile(np.arange(len(hands)), len(types))[:, None]], axis=1)
            u_new = np.repeat(used, len(hands), axis=0) + np.tile(hc, (len(types), 1))
            w_new = np.repeat(logw, len(hands)) - np.tile(lf[np.minimum(hc, self.copies)].sum(axis=1), len(types))
            ok = (u_new <= self.copies).all(axis=1)
            types, used, logw = t_new[ok], u_new[ok], w_new[ok]
        left = self.copies - used
        logp = logw + self.num_kinds * lf[self.copies] - lf[left].sum(axis=1) - denom
        # distinct cards (one copy of every kind): every ordered deal is equally likely, exactly
        prob = np.full(len(logp), 1.0 / len(logp)) if self.copies == 1 else np.exp(logp)
        return hands, types, prob, left

    def public_deal(self, left: np.ndarray, size: int):
        """Distribution of a public deal of ``size`` cards from the remaining copies.

        Parameters
        ----------
        left : ndarray (D, num_kinds)
            Copies left per deal.  A row with a negative entry is a deal that cannot have
            happened (the board already dealt holds a card in some player's hand: after a
            second board round, ``left`` = the deal's copies minus the board's); such a
            deal is never reached (its probability of the earlier board was zero), and it
            gets the distribution of the first possible deal so that every row still sums
            to one, as the engine's chance nodes require.

        Returns
        -------
        list of (hand, ndarray (D,))
            Every multiset that some possible deal can produce, with P(hand | deal) (card
            removal); for every deal the probabilities sum to one.
        """
        left = np.asarray(left)
        possible = (left >= 0).all(axis=1)
        if not possible.any():
            raise GutsInputError("no deal is compatible with the board already dealt")
        remaining = np.where(possible, left.sum(axis=1), size)
        if (remaining < size).any():
            raise GutsInputError(f"the deck runs out of cards for a public deal of {size}")
        stand_in = int(np.flatnonzero(possible)[0])
        rows = np.where(possible[:, None], left, left[stand_in][None, :])
        total = np.array([math.comb(int(r), size) for r in rows.sum(axis=1)], dtype=float)
        out = []
        for h in self.hands(size):
            c = self.counts(h)
            ways = np.ones(len(rows))
            for k in np.flatnonzero(c):
                ways *= np.array([math.comb(int(x), int(c[k])) for x in rows[:, k]], dtype=float)
            if ways.any():
                out.append((h, ways / total))
        return out
