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
import math
from collections import Counter

import numpy as np

from guts.engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal, estimate_size  # noqa: F401
from guts.errors import GutsInputError

from .builder import MAX_ACTION_DEPTH, TreeCount, build_game, check_tree_memory, estimate_build_bytes
from .cards import Deck
from .evaluators import holdem_evaluator, mercer_evaluator, three_card_rank
from .rules import Round, Rules
from .spec import PokerSpec

__all__ = ["build_poker", "poker_rules", "hand_rank", "MAX_DEALS", "count_poker"]

#: Bytes per expanded public node of this builder's tree, built and compiled (its showdown
#: terminals are one object per path): 1000 B measured on two- and three-player games of 0.14
#: and 0.31 million states by ``benchmarks/memory_calibration.py`` (the hold'em-like builder's
#: ``BUILD_BYTES_PER_NODE`` is for 650-820 B).
POKER_BYTES_PER_NODE = 1500

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
            # element by element: np.array of equal-length tuples would make a 2-D array
            st = np.empty(len(self.hands), dtype=object)
            rank = three_card_rank if s.evaluator == "rhode_island" else hand_rank
            for i, hd in enumerate(self.hands):
                st[i] = rank(hd + key, s.suits, s.ranks)
            self._strength[key] = st
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


def count_poker(spec: PokerSpec) -> TreeCount:
    """Sizes of the limit-betting tree :func:`build_poker` would build, counted from ``spec``
    without building a node (the pre-flight; fixed betting: :func:`~.builder.count_tree`).

    The betting of a round depends on the chips only through who has matched the largest
    contribution (a call joins them, a raise leaves the raiser alone), so it is counted once
    per position (who acts, who is in, who has acted and matched, raises so far).  Every card
    not on the board can come next for some deal, so a board card has ``N - |board|`` outcomes.
    ``public_states``, ``terminals``, ``info_sets`` and ``deals`` equal the built game's
    ``size`` (:func:`~guts.engine.extensive.estimate_size`).
    """
    if spec.betting == "fixed":
        from .builder import count_tree

        return count_tree(poker_rules(spec))
    n, h, N = spec.num_players, spec.hole_cards, spec.deck_size
    D = 1
    for p in range(n):
        D *= math.comb(N - p * h, h)
    types = math.comb(N, h)
    contrib = [0.0] * n
    for vals in (spec.antes, spec.blinds):
        for q, v in enumerate(vals or ()):
            contrib[q] += float(v)
    top = max(contrib)
    states = [0]

    def round_counter(rnd):
        memo = {}

        def act(p, active, acted, nraises, matched, depth=1):
            key = (p, active, acted, nraises, matched)
            if key in memo:
                return memo[key]
            if depth > MAX_ACTION_DEPTH:
                raise GutsInputError(f"{spec._where()}a betting round has paths of more than {MAX_ACTION_DEPTH} "
                                     "decisions; accepted: fewer raises per round (max_raises) or players")
            states[0] += 1
            if states[0] > 200_000:
                raise GutsInputError(f"{spec._where()}the betting has more than 200000 distinct positions; "
                                     "accepted: fewer raises per round (max_raises) or players")
            acted2 = tuple(a or q == p for q, a in enumerate(acted))
            dec, folds, depth, exits = [0] * n, 0, 0, {}

            def after(act_, mat, nr):
                live = [q for q in range(n) if act_[q]]
                if len(live) == 1:
                    return None
                if all(acted2[q] or not act_[q] for q in range(n)) and all(mat[q] for q in live):
                    return ([0] * n, 0, 0, {act_: 1})
                nxt = next(q for k in range(1, n + 1) for q in [(p + k) % n] if act_[q])
                return act(nxt, act_, acted2, nr, mat, depth + 1)

            kids = []
            if not matched[p]:
                kids.append(after(tuple(a and q != p for q, a in enumerate(active)),
                                  tuple(m and q != p for q, m in enumerate(matched)), nraises))
                kids.append(after(active, tuple(m or q == p for q, m in enumerate(matched)), nraises))
            else:
                kids.append(after(active, matched, nraises))
            if nraises < rnd.max_raises:
                kids.append(after(active, tuple(q == p for q in range(n)), nraises + 1))
            dec[p] += 1
            seq = [0] * n
            seq[p] += len(kids)
            for k in kids:
                if k is None:
                    folds += 1
                    continue
                kd, kf, kdep, kex = k[0], k[1], k[2], k[3]
                for q in range(n):
                    dec[q] += kd[q]
                    if len(k) > 4:
                        seq[q] += k[4][q]
                folds += kf
                depth = max(depth, kdep)
                for a, v in kex.items():
                    exits[a] = exits.get(a, 0) + v
            out = (dec, folds, depth + 1, exits, seq)
            memo[key] = out
            return out

        def start(active, matched):
            p = rnd.first_player
            while not active[p]:
                p = (p + 1) % n
            return act(p, active, (False,) * n, 0, matched)

        return start

    arrivals = {(True,) * n: 1}
    first_matched = tuple(abs(c - top) < 1e-12 for c in contrib)
    board_seq, board_cards, ctx_rows = 1, 0, 0
    dec, seq = [0] * n, [0] * n
    chance = terminals = 0
    deal_floats = D * (3 * n + N + 4)
    max_depth = 0
    depth_before = {k: 0 for k in arrivals}
    for r, rnd in enumerate(spec.rounds):
        paths = sum(arrivals.values())
        for _ in range(rnd.board_cards):
            chance += paths * board_seq
            # board_probs: one (D,) array per card left, per distinct board (sorted)
            deal_floats += D * (N - board_cards) * math.comb(N, board_cards)
            board_seq *= N - board_cards
            board_cards += 1
            ctx_rows += board_seq
        start = round_counter(rnd)
        nxt, nxt_depth = {}, {}
        for active, m in arrivals.items():
            kd, kf, kdep, kex, ks = start(active, first_matched if r == 0 else active)
            for q in range(n):
                dec[q] += m * kd[q] * board_seq
                seq[q] += m * ks[q] * board_seq
            terminals += m * kf * board_seq
            d0 = depth_before[active] + kdep
            max_depth = max(max_depth, d0)
            for a, v in kex.items():
                nxt[a] = nxt.get(a, 0) + m * v
                nxt_depth[a] = max(nxt_depth.get(a, 0), d0)
        arrivals, depth_before = nxt, nxt_depth
        if max_depth > MAX_ACTION_DEPTH:
            break
    terminals += sum(arrivals.values()) * board_seq
    share_tables = len(arrivals) * math.comb(N, board_cards)
    deal_floats += D * ctx_rows + 2 * share_tables * n * D
    public = sum(dec) + chance + terminals
    info = tuple(dec[q] * types for q in range(n))
    sequences = sum(seq) * types
    return TreeCount(players=n, deals=int(D), types=(int(types),) * n, public_states=int(public),
                     decision_nodes=int(sum(dec)), chance_nodes=int(chance), terminals=int(terminals),
                     info_sets=int(sum(info)), info_sets_per_player=tuple(int(x) for x in info),
                     share_tables=int(share_tables), sequences=int(sequences), max_depth=int(max_depth),
                     board_sequences=int(board_seq), deal_floats=int(deal_floats),
                     bytes=estimate_build_bytes(public, sequences, deal_floats, POKER_BYTES_PER_NODE))


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


def build_poker(spec: PokerSpec, *, max_deals: int = MAX_DEALS, isomorphism: bool = False):
    """The public tree of ``spec`` (module docstring); size checked before expansion.

    Fixed betting (Mercer hold'em's model) is built by :func:`poker_rules` and the
    hold'em-like builder :func:`~guts.games.poker.builder.build_game`; the built game's
    ``.built`` then holds its :class:`~guts.games.poker.builder.BuiltGame` (sizes, hands).

    ``isomorphism=True`` returns instead the game's quotient by the suit permutations that
    are symmetries of it (:mod:`guts.games.poker.isomorphism`: an ``ExplicitGame`` with the
    same value, whose ``.isomorphism`` holds the counts before and after, the full game and
    ``expand`` to map strategies back); the full game's ``.isomorphism`` is ``None``.
    """
    if not isinstance(spec, PokerSpec):
        raise GutsInputError(f"spec must be a PokerSpec; got {type(spec).__name__}")
    if not isinstance(isomorphism, bool):
        raise GutsInputError(f"isomorphism {isomorphism!r}; accepted: True or False")
    if isomorphism:
        from .isomorphism import suit_quotient

        q = suit_quotient(build_poker(spec, max_deals=max_deals))
        q.game.isomorphism = q
        q.game.poker_spec = spec
        return q.game
    if spec.betting == "fixed":
        rules = poker_rules(spec)
        built = build_game(rules)
        if built.stats.deals > max_deals:
            raise GutsInputError(f"{spec._where()}{built.stats.deals} private deals exceed max_deals={max_deals}; "
                                 "accepted: a smaller game or a larger max_deals")
        g = built.game
        g.poker_spec = spec
        g.built = built
        g.isomorphism = None
        return g
    count = count_poker(spec)
    if count.deals > max_deals:
        raise GutsInputError(f"{spec._where()}{count.deals} private deals (players x hole cards from "
                             f"{spec.deck_size} cards) exceed max_deals={max_deals}; accepted: a smaller game "
                             "or a larger max_deals")
    check_tree_memory(count, spec.name or "poker",
                      "accepted: a smaller game: fewer raises per round (max_raises), rounds, players or cards")
    b = _Builder(spec, int(max_deals))
    root, deals = b.build()
    g = PublicTreeGame(root, deals, spec.num_players, name=spec.name or "poker")
    g.poker_spec = spec
    g.isomorphism = None
    return g
