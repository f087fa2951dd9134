"""Payoff evaluators: the strength of a player's best hand from his private and shared
cards (Ullman 2015, §3.2 "the payoff evaluator", §4.2 and footnote 4).

The Mercer ranking (four cards, no suits): four of a kind > three of a kind > two pair >
pair > high card; within a category the ranks are compared ordered by multiplicity, then
by rank (the original program's ``FourCardEvaluator``: trips then kicker, high pair then
low pair, pair then kickers high to low, high cards high to low). Equal strengths split
the pot.

The hold'em-style evaluator (five cards, optional straights and flushes) uses the usual
categories: high card < pair < two pair < trips < straight < flush < full house < quads <
straight flush (< five of a kind, possible only with five or more copies).

The ACPC ranking (:func:`hand_rank`, the Annual Computer Poker Competition server's, also
OpenSpiel's ``universal_poker``'s) ranks the best five cards when there are five or more and
also compares fewer (pairs, trips and quads, then high cards); :func:`three_card_rank` is
Rhode Island hold'em's three-card ranking.  :class:`CardRanking` wraps either as an
evaluator of the hold'em-like builder (:class:`~guts.games.poker.rules.Rules`).

Strengths are plain integers, larger is better, equal means a tie.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from guts._validate import check_int
from guts.errors import GutsInputError

__all__ = ["HandEvaluator", "mercer_evaluator", "holdem_evaluator", "three_card_rank", "THREE_CARD_CATEGORIES",
           "hand_rank", "CardRanking", "CARD_RANKINGS"]

# category order (index = strength of the category)
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SFLUSH, _FIVE = range(10)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush", "five of a kind")


def _pattern_category(counts: tuple) -> int:
    """Category of a multiplicity pattern (sorted decreasing), ignoring straights/flushes."""
    top = counts[0]
    if top >= 5:
        return _FIVE
    if top == 4:
        return _QUADS
    if top == 3:
        return _FULL if len(counts) > 1 and counts[1] >= 2 else _TRIPS
    if top == 2:
        return _TWO_PAIR if len(counts) > 1 and counts[1] == 2 else _PAIR
    return _HIGH


@dataclass(frozen=True)
class HandEvaluator:
    """Best ``hand_size``-card hand out of a player's private and shared cards.

    Parameters
    ----------
    hand_size : int
        Cards in a hand (4 for Mercer hold'em, 5 for hold'em).
    straights : bool
        Count ``hand_size`` consecutive ranks as a straight (ace also low when 14 and
        2.. are in play).
    flushes : bool
        Count ``hand_size`` cards of one suit as a flush (needs a deck with suits).

    Examples
    --------
    >>> ev = mercer_evaluator()
    >>> ev.strength((3, 3, 6, 2)) > ev.strength((2, 2, 6, 5))     # pair of 3s beats pair of 2s
    True
    >>> ev.strength((2, 2, 3, 3)) > ev.strength((6, 6, 5, 4))     # two pair beats a pair
    True
    >>> ev.strength((4, 4, 6, 2)) > ev.strength((4, 4, 5, 3))     # kickers: 6 beats 5
    True
    >>> ev.strength((4, 2, 5, 6)) == ev.strength((6, 5, 4, 2))    # order does not matter
    True
    """

    hand_size: int = 4
    straights: bool = False
    flushes: bool = False

    def __post_init__(self):
        check_int("hand_size", self.hand_size, 1, 7)

    def strength(self, ranks, suits=None) -> int:
        """Strength of exactly ``hand_size`` cards (ranks, and suits when flushes count)."""
        ranks = tuple(int(r) for r in ranks)
        if len(ranks) != self.hand_size:
            raise GutsInputError(f"a hand has {self.hand_size} cards; got {len(ranks)}")
        cnt = Counter(ranks)
        # ranks ordered by multiplicity, then by rank (the thesis's tie-break)
        order = sorted(cnt, key=lambda r: (cnt[r], r), reverse=True)
        pattern = tuple(cnt[r] for r in order)
        cat = _pattern_category(pattern)
        kickers = [r for r in order]
        if len(cnt) == self.hand_size and self.hand_size >= 2:
            straight_top = None
            if self.straights:
                s = sorted(cnt)
                if s[-1] - s[0] == self.hand_size - 1:
                    straight_top = s[-1]
                elif 14 in cnt and s[:-1] == list(range(2, 2 + self.hand_size - 1)):
                    straight_top = s[-2]           # the wheel: ace plays low
            flush = bool(self.flushes and suits is not None and len(set(suits)) == 1)
            if straight_top is not None and flush:
                cat, kickers = _SFLUSH, [straight_top]
            elif flush:
                cat = _FLUSH
            elif straight_top is not None:
                cat, kickers = _STRAIGHT, [straight_top]
        value = cat
        for i in range(self.hand_size):
            value = value * 16 + (kickers[i] if i < len(kickers) else 0)
        return value

    def best(self, ranks, suits=None) -> int:
        """Strength of the best ``hand_size``-card hand among the given cards."""
        ranks = tuple(ranks)
        if len(ranks) < self.hand_size:
            raise GutsInputError(
                f"a {self.hand_size}-card hand needs at least {self.hand_size} cards; got {len(ranks)}")
        if len(ranks) == self.hand_size:
            return self.strength(ranks, suits)
        idx = range(len(ranks))
        return max(self.strength([ranks[i] for i in c], None if suits is None else [suits[i] for i in c])
                   for c in itertools.combinations(idx, self.hand_size))

    def category(self, strength: int) -> str:
        """Name of the category of a strength returned by :meth:`strength`."""
        return CATEGORY_NAMES[strength // 16 ** self.hand_size]


def mercer_evaluator() -> HandEvaluator:
    """The thesis's four-card evaluator (no straights, no flushes)."""
    return HandEvaluator(4, straights=False, flushes=False)


def holdem_evaluator() -> HandEvaluator:
    """Five-card hold'em-style evaluator: best five cards, straights and flushes count."""
    return HandEvaluator(5, straights=True, flushes=True)


#: Categories of three-card poker, weakest first (Shi and Littman, "Abstraction methods for
#: game theoretic poker", 2001; the ranking of Rhode Island hold'em as played by Gilpin and
#: Sandholm, "Lossless abstraction of imperfect information games", 2007): with three cards
#: a straight is rarer than a flush and three of a kind rarer than a straight.
THREE_CARD_CATEGORIES = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")


def three_card_rank(cards, suits_in_deck: int, ranks_in_deck: int) -> tuple:
    """Comparable strength of the best three-card hand among ``cards`` (ACPC card numbers,
    ``card = rank * suits_in_deck + suit``, rank 0 the lowest): Rhode Island hold'em's ranking.

    Returns ``(category, tie-breaks...)`` with ``category`` an index into
    :data:`THREE_CARD_CATEGORIES` (straight flush > three of a kind > straight > flush > pair >
    high card).  Tie-breaks: the top card of a straight (flush); the rank of trips; the pair's
    rank then the kicker; for a flush and high card the ranks from the highest down.  Three
    consecutive ranks make a straight; with all 13 ranks the ace also plays low in A-2-3 (three
    high), the 48 straight flushes of the 52-card deck (Gilpin and Sandholm's probability
    0.00217 = 48 / C(52, 3)).  Equal tuples tie.

    Examples
    --------
    >>> card = lambda rank, suit: rank * 4 + suit              # rank 0 = deuce, 12 = ace
    >>> three_card_rank([card(0, 0), card(1, 1), card(2, 2)], 4, 13)[0]   # 2-3-4: a straight
    3
    >>> three_card_rank([card(0, 0), card(5, 0), card(9, 0)], 4, 13)[0]   # a flush
    2
    >>> three_card_rank([card(12, 0), card(0, 1), card(1, 1)], 4, 13)     # A-2-3: three high
    (3, 1)
    """
    cards = [int(c) for c in cards]
    if len(cards) < 3:
        raise GutsInputError(f"a three-card hand needs at least 3 cards; got {len(cards)}")
    if len(cards) > 3:
        return max(three_card_rank(c, suits_in_deck, ranks_in_deck) for c in itertools.combinations(cards, 3))
    ranks = sorted((c // suits_in_deck for c in cards), reverse=True)
    flush = len({c % suits_in_deck for c in cards}) == 1
    straight_top = None
    if len(set(ranks)) == 3:
        if ranks[0] - ranks[2] == 2:
            straight_top = ranks[0]
        elif ranks_in_deck == 13 and ranks == [12, 1, 0]:
            straight_top = 1                       # A-2-3: the ace plays low
    if straight_top is not None:
        return (5 if flush else 3, straight_top)
    if ranks[0] == ranks[2]:
        return (4, ranks[0])
    if flush:
        return (2, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair, kicker = (ranks[1], ranks[2]) if ranks[0] == ranks[1] else (ranks[1], ranks[0])
        return (1, pair, kicker)
    return (0, *ranks)


def _rank5(ranks, suits, all_ranks):
    """(category, tie-breaks) of exactly five cards (standard poker order)."""
    cnt = Counter(ranks)
    groups = sorted(cnt.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len(set(suits)) == 1
    u = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(u) == 5:
        if u[0] - u[4] == 4:
            straight_top = u[0]
        elif all_ranks and u == [12, 3, 2, 1, 0]:
            straight_top = 3                       # A-2-3-4-5: the five is high
    if straight_top is not None and flush:
        return (8, straight_top)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *sorted(ranks, reverse=True))
    if straight_top is not None:
        return (4, straight_top)
    return _rank_groups(groups)


def _rank_groups(groups):
    """Pairs / trips / quads, then kickers (fewer than five cards, or no made hand)."""
    top = groups[0][1]
    kick = [r for r, _ in groups]
    if top == 4:
        return (7, *kick)
    if top == 3:
        if len(groups) > 1 and groups[1][1] >= 2:
            return (6, *kick)
        return (3, *kick)
    if top == 2:
        if len(groups) > 1 and groups[1][1] == 2:
            return (2, *kick)
        return (1, *kick)
    return (0, *kick)


def hand_rank(cards, suits_in_deck: int, ranks_in_deck: int):
    """Comparable strength of ``cards`` (ACPC card indices, ``card = rank * suits + suit``):
    best five cards when there are five or more, else pairs/trips/quads then high cards
    (the ACPC ranking, module docstring); the ace plays low in A-2-3-4-5 when the deck has
    all 13 ranks."""
    ranks = [c // suits_in_deck for c in cards]
    suits = [c % suits_in_deck for c in cards]
    all_ranks = ranks_in_deck == 13
    if len(cards) >= 5:
        return max(_rank5([ranks[i] for i in idx], [suits[i] for i in idx], all_ranks)
                   for idx in itertools.combinations(range(len(cards)), 5))
    cnt = Counter(ranks)
    return _rank_groups(sorted(cnt.items(), key=lambda kv: (kv[1], kv[0]), reverse=True))


#: rankings of :class:`CardRanking` by name
CARD_RANKINGS = ("acpc", "rhode_island")
#: tie-break digits of the tuples of :func:`hand_rank` / :func:`three_card_rank` (at most 6)
_RANK_DIGITS = 7


@dataclass(frozen=True)
class CardRanking:
    """:func:`hand_rank` (``"acpc"``) or :func:`three_card_rank` (``"rhode_island"``) as an
    evaluator of the hold'em-like builder: :meth:`best` ranks ALL of a player's cards (the
    ACPC ranking compares any number of cards, so ``hand_size`` is the fewest it takes).

    Ranks are deck ranks (2 = deuce); ``ranks_in_deck`` = 13 lets the ace play low in
    A-2-3-4-5 (A-2-3).  The strength is the ranking's tuple as one integer: the category, then
    every tie-break plus one, in base 16, padded with zeros, so that integers compare as the
    tuples do (a shorter tuple is smaller than its extensions).
    """

    kind: str = "acpc"
    ranks_in_deck: int = 13

    def __post_init__(self):
        if self.kind not in CARD_RANKINGS:
            raise GutsInputError(f"card ranking {self.kind!r}; accepted: {', '.join(CARD_RANKINGS)}")
        check_int("ranks in the deck", self.ranks_in_deck, 1, 13)

    @property
    def hand_size(self) -> int:
        return 3 if self.kind == "rhode_island" else 1

    straights = True
    flushes = True

    def best(self, ranks, suits=None) -> int:
        """Strength of all the given cards (deck ranks 2..14 and suit indices 0..3)."""
        cards = [(int(r) - 2) * 4 + int(s) for r, s in zip(ranks, suits)]
        rank = three_card_rank if self.kind == "rhode_island" else hand_rank
        t = rank(cards, 4, self.ranks_in_deck)
        value = 0
        for i in range(_RANK_DIGITS):
            value = value * 16 + (0 if i >= len(t) else t[i] + (i > 0))
        return value
