"""Build the engine's public tree of a limit poker game (:class:`~.spec.PokerSpec`).

The private deal is one chance event over the players' hole cards (every ordered
assignment of distinct cards, equally likely: card removal exact); board cards are then
public chance nodes, one card at a time (as the ACPC server and OpenSpiel's
``universal_poker`` deal them), whose outcome probabilities are arrays over deals (a
card in somebody's hand cannot come).  Showdowns share one ``(n, D)`` share table per
(board, set of players still in).  Labels: ``f`` fold, ``c`` check/call, ``r``
bet/raise (the ACPC letters); board cards by their ACPC names (``"Kh"``).

Fixed betting (Mercer hold'em's model) is translated by :func:`poker_rules` into the
hold'em-like builder's :class:`~guts.games.poker.rules.Rules` and built there.  Limit
betting keeps this builder: the hold'em-like builder has no ACPC betting (its ``"limit"``
model bounds raises by orbits, not by a per-round cap, and always starts at seat 0),
no per-player blinds, deals a round's board cards as one chance node instead of one card
at a time, and ranks exactly ``hand_size`` cards, whereas the ACPC ranking also compares
fewer than five; the OpenSpiel checks (same labels, 1e-9) rely on those rules.
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

from guts.engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal, estimate_size  # noqa: F401
from guts.errors import GutsInputError

from .builder import build_game
from .cards import Deck
from .evaluators import holdem_evaluator, mercer_evaluator
from .rules import Round, Rules
from .spec import PokerSpec

__all__ = ["build_poker", "poker_rules", "hand_rank", "MAX_DEALS"]

#: Largest number of private deals built (overridable with ``max_deals``): the share
#: tables are (players x deals) per board, so memory grows with it.
MAX_DEALS = 200_000


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
    """Comparable strength of ``cards`` (ACPC card indices): best five cards when there
    are five or more, else pairs/trips/quads then high cards (module docstring)."""
    ranks = [c // suits_in_deck for c in cards]
    suits = [c % suits_in_deck for c in cards]
    all_ranks = ranks_in_deck == 13
    if len(cards) >= 5:
        return max(_rank5([ranks[i] for i in idx], [suits[i] for i in idx], all_ranks)
                   for idx in itertools.combinations(range(len(cards)), 5))
    cnt = Counter(ranks)
    return _rank_groups(sorted(cnt.items(), key=lambda kv: (kv[1], kv[0]), reverse=True))


class _Builder:
    def __init__(self, spec: PokerSpec, max_deals: int):
        self.spec = spec
        n, h, N = spec.num_players, spec.hole_cards, spec.deck_size
        self.n = n
        hands = list(itertools.combinations(range(N), h))
        count = 1
        for p in range(n):
            count *= len(list(itertools.combinations(range(N - p * h), h))) if N - p * h < 60 else 10 ** 9
        if count > max_deals:
            raise GutsInputError(f"{spec._where()}{count} private deals (players x hole cards from {N} cards) "
                                 f"exceed max_deals={max_deals}; accepted: a smaller game or a larger max_deals")
        index = {hd: i for i, hd in enumerate(hands)}
        deals = []
        for combo in itertools.product(range(len(hands)), repeat=n):
            cards = [c for t in combo for c in hands[t]]
            if len(set(cards)) == len(cards):
                deals.append(combo)
        self.hands = hands
        self.hand_index = index
        self.types = np.array(deals, dtype=np.int64)             # (D, n)
        self.D = len(deals)
        self.used = np.zeros((self.D, N), dtype=bool)
        for d, combo in enumerate(deals):
            for t in combo:
                self.used[d, list(hands[t])] = True
        self.labels = tuple("".join(spec.card_label(c) for c in hd) for hd in hands)
        self._share = {}
        self._strength = {}
        self._board_prob = {}

    def strengths(self, board):
        key = tuple(sorted(board))
        if key not in self._strength:
            s = self.spec
            self._strength[key] = np.array([hand_rank(hd + key, s.suits, s.ranks) for hd in self.hands],
                                           dtype=object)
        return self._strength[key]

    def share(self, board, active):
        key = (tuple(sorted(board)), active)
        if key not in self._share:
            st = self.strengths(board)
            idx = [p for p in range(self.n) if active[p]]
            win = np.zeros((self.n, self.D))
            for d in range(self.D):
                vals = [st[self.types[d, p]] for p in idx]
                best = max(vals)
                winners = [p for p, v in zip(idx, vals) if v == best]
                win[winners, d] = 1.0 / len(winners)
            win.setflags(write=False)
            self._share[key] = win
        return self._share[key]

    def board_probs(self, board):
        """P(next board card = c | deal) for every card c, (N, D) (shared arrays)."""
        key = tuple(sorted(board))
        if key not in self._board_prob:
            avail = ~self.used.copy()
            avail[:, list(board)] = False
            cnt = avail.sum(axis=1)
            probs = {c: np.where(avail[:, c], 1.0 / np.maximum(cnt, 1), 0.0) for c in range(self.spec.deck_size)
                     if avail[:, c].any()}
            self._board_prob[key] = probs
        return self._board_prob[key]

    def build(self):
        s = self.spec
        contrib = np.zeros(self.n)
        if s.antes:
            contrib += np.array(s.antes, dtype=float)
        if s.blinds:
            contrib += np.array(s.blinds, dtype=float)
        active = (True,) * self.n
        root = self.deal_board(0, active, contrib, (), s.rounds[0].board_cards)
        info = self.types.T
        deals = Deals(np.full(self.D, 1.0 / self.D), info, tuple(self.labels for _ in range(self.n)))
        return root, deals

    def deal_board(self, r, active, contrib, board, left):
        if left == 0:
            return self.betting(r, active, contrib, board)
        outs = {}
        for c, pr in self.board_probs(board).items():
            outs[self.spec.card_label(c)] = (pr, self.deal_board(r, active, contrib, board + (c,), left - 1))
        return Chance(outs)

    def next_round(self, r, active, contrib, board):
        if r + 1 == len(self.spec.rounds):
            return Terminal.showdown(contrib, self.share(board, active))
        return self.deal_board(r + 1, active, contrib, board, self.spec.rounds[r + 1].board_cards)

    def betting(self, r, active, contrib, board):
        rnd = self.spec.rounds[r]
        p = rnd.first_player
        while not active[p]:
            p = (p + 1) % self.n
        return self.act(r, p, active, contrib, board, (False,) * self.n, 0)

    def act(self, r, p, active, contrib, board, acted, nraises):
        rnd = self.spec.rounds[r]
        top = max(contrib[q] for q in range(self.n) if active[q])
        acted2 = tuple(a or q == p for q, a in enumerate(acted))

        def after(act, con, nr):
            live = [q for q in range(self.n) if act[q]]
            if len(live) == 1:
                pay = -con.copy()
                pay[live[0]] += con.sum()
                return Terminal(pay)
            m = max(con[q] for q in live)
            if all(acted2[q] or not act[q] for q in range(self.n)) and all(abs(con[q] - m) < 1e-12 for q in live):
                return self.next_round(r, act, con, board)
            nxt = next(q for k in range(1, self.n + 1) for q in [(p + k) % self.n] if act[q])
            return self.act(r, nxt, act, con, board, acted2 if act == active else acted2, nr)

        actions = {}
        to_call = top - contrib[p]
        if to_call > 1e-12:
            folded = tuple(a and q != p for q, a in enumerate(active))
            actions["f"] = after(folded, contrib, nraises)
        c = contrib.copy()
        c[p] = top
        actions["c"] = after(active, c, nraises)
        if nraises < rnd.max_raises:
            c2 = contrib.copy()
            c2[p] = top + rnd.raise_size
            actions["r"] = after(active, c2, nraises + 1)
        return Decision(p, actions)


def poker_rules(spec: PokerSpec) -> Rules:
    """The :class:`~guts.games.poker.rules.Rules` of a fixed-betting ``spec`` (Mercer
    hold'em's model): the deck's ``ranks`` lowest ranks (2, 3, ...) with ``copies``
    physical copies of every card kind (``suits = 0``: the cards are ranks only), one
    :class:`~guts.games.poker.rules.Round` per round (its ante, the hole cards in the
    first round, its board cards as shared cards, its orbits, bets and check) and the
    named evaluator.  Built by :func:`~guts.games.poker.builder.build_game`, the builder of
    :mod:`guts.games.poker.mercer`, so a description of Mercer hold'em IS that game."""
    if not isinstance(spec, PokerSpec) or spec.betting != "fixed":
        raise GutsInputError(f"poker_rules needs a PokerSpec with fixed betting; got "
                             f"{getattr(spec, 'betting', type(spec).__name__)!r}")
    deck = Deck(tuple(range(2, 2 + spec.ranks)), spec.copies, spec.suits)
    rounds = tuple(Round(ante=float(r.ante), hole_cards=spec.hole_cards if i == 0 else 0,
                         shared_cards=r.board_cards, orbits=r.orbits, bets=tuple(float(b) for b in r.bets),
                         check=r.check, betting="fixed")
                   for i, r in enumerate(spec.rounds))
    ev = {"mercer": mercer_evaluator, "holdem": holdem_evaluator}[spec.evaluator]()
    try:
        return Rules(deck, rounds, ev, spec.num_players, spec.name)
    except GutsInputError as exc:
        raise GutsInputError(f"{spec._where()}{exc}") from None


def build_poker(spec: PokerSpec, *, max_deals: int = MAX_DEALS) -> PublicTreeGame:
    """The public tree of ``spec`` (module docstring); size checked before expansion.

    Fixed betting (Mercer hold'em's model) is built by :func:`poker_rules` and the
    hold'em-like builder :func:`~guts.games.poker.builder.build_game`; the built game's
    ``.built`` then holds its :class:`~guts.games.poker.builder.BuiltGame` (sizes, hands).
    """
    if not isinstance(spec, PokerSpec):
        raise GutsInputError(f"spec must be a PokerSpec; got {type(spec).__name__}")
    if spec.betting == "fixed":
        rules = poker_rules(spec)
        built = build_game(rules)
        if built.stats.deals > max_deals:
            raise GutsInputError(f"{spec._where()}{built.stats.deals} private deals exceed max_deals={max_deals}; "
                                 "accepted: a smaller game or a larger max_deals")
        g = built.game
        g.poker_spec = spec
        g.built = built
        return g
    b = _Builder(spec, int(max_deals))
    root, deals = b.build()
    g = PublicTreeGame(root, deals, spec.num_players, name=spec.name or "poker")
    g.poker_spec = spec
    return g
