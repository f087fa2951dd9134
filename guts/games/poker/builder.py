"""Build the engine's public tree of a hold'em-like game (Ullman 2015, §3.3 "the construction").

The thesis's program builds one tree over every card deal and every action (5 million nodes
and over 4 GB for three-player MMH). Here the private deal is a single chance event over
the players' *hand types* (rank multisets), with the joint probabilities computed exactly
with card removal (:meth:`Deck.joint_deals`); everything after it is public: the actions,
and the shared cards as public chance nodes whose outcome probabilities depend on the deal
(card removal again). A player's information set is (public node, his hand), which is the
thesis's information set (§2.3, footnote 1: same history except for the others' hole cards).

Showdown terminals reference one share table per (board, set of remaining players)
(:meth:`Terminal.showdown`), so memory grows with the number of boards, not of terminals.

Collusion (§5) is applied to the built tree by the engine's :func:`pool`: weak collusion
pools the colluders' payoffs and splits them evenly (the thesis's "win sharing" evaluator),
strong collusion also gives each colluder both colluders' hands (the colluders then stay
separate players: ``solve(collusion="strong-separate")``). With ``merge_team=True`` the
strong team is built as ONE player instead, the team-vs-victim game that
``solve(collusion="strong")`` solves with every method.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guts._validate import check_choice
from guts.engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal
from guts.engine.extensive.building import fold_payoff
from guts.errors import GutsInputError

from .rules import Rules

__all__ = ["build_game", "BuiltGame", "TreeStats", "Collusion", "COLLUSION_KINDS", "check_team",
           "fmt_amount"]

COLLUSION_KINDS = ("weak", "strong")
_SHARED_NAMES = ("flop", "turn", "river")


def fmt_amount(x: float) -> str:
    """``4.0 -> '4'``, ``2.5 -> '2.5'`` (action labels)."""
    return f"{x:g}"


@dataclass(frozen=True)
class Collusion:
    """Two or more seats that pool their payoffs (weak) and also share their hands (strong)."""

    team: tuple
    kind: str = "weak"

    def __post_init__(self):
        check_choice("collusion", self.kind, COLLUSION_KINDS)


def check_team(team, num_players: int) -> tuple:
    """Validate a colluding team: two distinct seats in ``0..num_players-1``."""
    try:
        t = tuple(int(x) for x in team)
    except (TypeError, ValueError):
        raise GutsInputError(f"team must be two distinct seats, e.g. (0, 1); got {team!r}") from None
    if (len(t) != 2 or t[0] == t[1] or min(t) < 0 or max(t) >= num_players
            or any(isinstance(x, bool) for x in team)):
        raise GutsInputError(
            f"team must be two distinct seats in 0..{num_players - 1}; got {team!r}")
    if num_players < 3:
        raise GutsInputError(f"collusion needs three players (two colluders and a victim); got {num_players}")
    return tuple(sorted(t))


@dataclass(frozen=True)
class TreeStats:
    """Sizes of a built game (all counts exact)."""

    players: int
    deals: int                  # joint private deals = type tuples with positive probability
    types: tuple                # information types per player
    public_states: int          # public nodes (decisions + chance + terminals)
    decision_nodes: int
    chance_nodes: int
    terminals: int
    info_sets: int              # sum over decision nodes of the acting player's number of types
    info_sets_per_player: tuple
    share_tables: int           # distinct showdown share tables
    full_tree_nodes: int        # nodes of the thesis's explicit tree (every card deal expanded)


@dataclass(frozen=True)
class BuiltGame:
    """The engine game plus what the study needs to read it."""

    game: PublicTreeGame
    rules: Rules
    stats: TreeStats
    hands: tuple                # hand labels (type labels of an uncolluded player)
    collusion: Collusion | None = None
    seat_player: tuple = ()     # player of the game who acts for each seat (merged team)


class _Builder:
    def __init__(self, rules: Rules, merged_team: tuple | None = None):
        self.rules = rules
        self.deck = rules.deck
        self.n = rules.num_players
        # seat -> player of the built game: a merged (strongly colluding) team is ONE player
        # who sees both hands and receives the sum of both payoffs (a two-player zero-sum
        # game against the victim when n = 3)
        if merged_team:
            lead = min(merged_team)
            outs = sorted({lead} | {s for s in range(self.n) if s not in merged_team})
            self.owner = np.array([outs.index(lead if s in merged_team else s) for s in range(self.n)])
        else:
            self.owner = np.arange(self.n)
        self.merged_team = tuple(sorted(merged_team)) if merged_team else None
        self.n_out = int(self.owner.max()) + 1
        hands, types, prob, left = self.deck.joint_deals(self.n, rules.hole_cards)
        self.hands = hands
        self.types = types                    # (D, n)
        self.prob = prob
        self.left = left                      # (D, K)
        self.D = len(prob)
        self._chance_cache = {}               # board -> [(label, hand, prob array)]
        self._strength_cache = {}             # board -> strength per hand type
        self._share_cache = {}                # (board, active) -> share table (n, D)
        # identical terminals (same contributions, board and remaining players) are one
        # shared node object (the engine expands a node per path): on 3P-MMH with a check
        # this keeps a few thousand terminal objects instead of 344 k (issue 21: memory)
        self._terminal_cache = {}
        self.n_decision = self.n_chance = self.n_terminal = 0
        self.info_sets = [0] * self.n_out
        self.full_nodes = 0                   # explicit-tree node count (for the report)

    # -- chance ------------------------------------------------------------------------
    def _shared_outcomes(self, board: tuple, size: int):
        key = (board, size)
        if key not in self._chance_cache:
            left = self.left - self.deck.counts(board)[None, :]
            self._chance_cache[key] = [(self.deck.hand_label(h), h, p) for h, p in self.deck.public_deal(left, size)]
        return self._chance_cache[key]

    # -- showdown ----------------------------------------------------------------------
    def _strengths(self, board: tuple) -> np.ndarray:
        if board not in self._strength_cache:
            ev, deck = self.rules.evaluator, self.deck
            out = np.empty(len(self.hands), dtype=np.int64)
            for t, h in enumerate(self.hands):
                cards = tuple(h) + tuple(board)
                out[t] = ev.best([deck.kind_rank(k) for k in cards],
                                 [deck.kind_suit(k) for k in cards] if deck.suits else None)
            self._strength_cache[board] = out
        return self._strength_cache[board]

    def _share(self, board: tuple, active: tuple) -> np.ndarray:
        key = (board, active)
        if key not in self._share_cache:
            s = self._strengths(board)[self.types.T]            # (n, D)
            idx = [p for p in range(self.n) if active[p]]
            best = s[idx].max(axis=0)
            win = np.zeros((self.n, self.D))
            win[idx] = (s[idx] == best[None, :])
            share = self._merge_rows(win / win.sum(axis=0, keepdims=True))
            share.setflags(write=False)
            self._share_cache[key] = share
        return self._share_cache[key]

    def _merge_rows(self, x: np.ndarray) -> np.ndarray:
        """Seat rows -> player rows (sums over a merged team)."""
        if self.n_out == self.n:
            return x
        out = np.zeros((self.n_out,) + x.shape[1:])
        np.add.at(out, self.owner, x)
        return out

    # -- tree --------------------------------------------------------------------------
    def build(self):
        root = self._start_round(0, (True,) * self.n, np.zeros(self.n), ())
        labels = [self.deck.hand_label(h) for h in self.hands]
        H = len(self.hands)
        info, tl = [], []
        for q in range(self.n_out):
            seats = [s for s in range(self.n) if self.owner[s] == q]
            if len(seats) == 1:
                info.append(self.types[:, seats[0]])
                tl.append(tuple(labels))
            else:       # the team's type: the pair of both hands (seat order)
                a, b = seats
                info.append(self.types[:, a] * H + self.types[:, b])
                tl.append(tuple(f"{x}|{y}" for x in labels for y in labels))
        deals = Deals(self.prob, np.array(info), tuple(tl))
        return root, deals

    def _start_round(self, r: int, active: tuple, contrib: np.ndarray, board: tuple):
        rules = self.rules
        if r == len(rules.rounds):
            self.n_terminal += 1
            key = ("showdown", tuple(contrib.tolist()), board, active)
            node = self._terminal_cache.get(key)
            if node is None:
                node = Terminal.showdown(self._merge_rows(contrib), self._share(board, active))
                self._terminal_cache[key] = node
            return node
        rnd = rules.rounds[r]
        contrib = contrib + rnd.ante * np.array(active, dtype=float)
        if rnd.shared_cards:
            outcomes = {}
            j = sum(1 for x in rules.rounds[:r] if x.shared_cards)
            name = _SHARED_NAMES[j] if j < len(_SHARED_NAMES) else f"board{j + 1}"
            self.n_chance += 1
            for label, h, p in self._shared_outcomes(board, rnd.shared_cards):
                nb = tuple(sorted(board + tuple(h)))
                outcomes[f"{name}:{label}"] = (p, self._betting(r, active, contrib, nb))
            return Chance(outcomes)
        return self._betting(r, active, contrib, board)

    def _betting(self, r, active, contrib, board):
        rnd = self.rules.rounds[r]
        if rnd.orbits == 0:
            return self._start_round(r + 1, active, contrib, board)
        first = next(p for p in range(self.n) if active[p])
        if rnd.betting == "fixed":
            return self._fixed(r, 0, first, active, contrib, board)
        return self._limit(r, first, active, contrib, board, acted=(False,) * self.n,
                           raises=(0,) * self.n)

    def _fold_or_continue(self, active, contrib, cont):
        """Terminal if one player is left (he takes the pot), else ``cont()``."""
        if sum(active) == 1:
            self.n_terminal += 1
            pay = fold_payoff(contrib, winner=active.index(True))
            key = ("fold", tuple(pay.tolist()))
            node = self._terminal_cache.get(key)
            if node is None:
                node = self._terminal_cache[key] = Terminal(self._merge_rows(pay))
            return node
        return cont()

    def _decision(self, p, actions):
        self.n_decision += 1
        self.info_sets[self.owner[p]] += 1
        return Decision(int(self.owner[p]), actions)

    # the thesis's model: every active player puts in one allowed amount per orbit, or folds
    def _fixed(self, r, orbit, p, active, contrib, board):
        rnd = self.rules.rounds[r]

        def after(act, con):
            nxt = next((q for q in range(p + 1, self.n) if act[q]), None)
            if nxt is not None:
                return self._fixed(r, orbit, nxt, act, con, board)
            if orbit + 1 < rnd.orbits:
                return self._fixed(r, orbit + 1, act.index(True), act, con, board)
            return self._start_round(r + 1, act, con, board)

        actions = {}
        folded = tuple(a and q != p for q, a in enumerate(active))
        actions["f"] = self._fold_or_continue(folded, contrib, lambda: after(folded, contrib))
        if rnd.check:
            actions["k"] = after(active, contrib)
        for b in rnd.bets:
            c = contrib.copy()
            c[p] += b
            actions[f"b{fmt_amount(b)}"] = after(active, c)
        return self._decision(p, actions)

    # call/raise model (beyond the paper): the round ends when all active players have
    # acted and matched; each player raises at most ``orbits`` times per round
    def _limit(self, r, p, active, contrib, board, acted, raises):
        rnd = self.rules.rounds[r]
        top = max(contrib[q] for q in range(self.n) if active[q])

        def after(act, con, acted2, raises2):
            live = [q for q in range(self.n) if act[q]]
            m = max(con[q] for q in live)
            if all(acted2[q] for q in live) and all(abs(con[q] - m) < 1e-12 for q in live):
                return self._start_round(r + 1, act, con, board)
            nxt = next(q for k in range(1, self.n + 1) for q in [(p + k) % self.n] if act[q])
            return self._limit(r, nxt, act, con, board, acted2, raises2)

        acted_p = tuple(a or q == p for q, a in enumerate(acted))
        actions = {}
        folded = tuple(a and q != p for q, a in enumerate(active))
        actions["f"] = self._fold_or_continue(folded, contrib, lambda: after(folded, contrib, acted_p, raises))
        to_call = top - contrib[p]
        if to_call > 1e-12:
            c = contrib.copy()
            c[p] = top
            actions["c"] = after(active, c, acted_p, raises)
        elif rnd.check:
            actions["k"] = after(active, contrib, acted_p, raises)
        if raises[p] < rnd.orbits:
            r2 = tuple(x + (q == p) for q, x in enumerate(raises))
            for b in rnd.bets:
                c = contrib.copy()
                c[p] = top + b
                actions[f"r{fmt_amount(b)}"] = after(active, c, acted_p, r2)
        return self._decision(p, actions)


def _full_tree_nodes(b: _Builder, root) -> int:
    """Nodes of the thesis's explicit tree: every card deal expanded (§3.3, Figure 3).

    Counts, per public node, the number of distinct card histories reaching it (private
    deals with positive probability times the boards compatible with them), plus the
    private deal nodes themselves; used only to compare sizes with the thesis's 5 million.
    """
    counts = 0
    # number of (deal, board) pairs at each public node, propagated through chance nodes
    stack = [(root, np.ones(b.D, dtype=bool))]
    while stack:
        node, mask = stack.pop()
        counts += int(mask.sum())
        if isinstance(node, Decision):
            stack.extend((child, mask) for child in node.actions.values())
        elif isinstance(node, Chance):
            for prob, child in node.outcomes.values():
                stack.append((child, mask & (np.asarray(prob) > 0)))
    return counts


def build_game(rules: Rules, collusion: Collusion | None = None, *, merge_team: bool = False,
               count_full_tree: bool = False) -> BuiltGame:
    """Build the public tree of ``rules`` (with collusion applied by :func:`pool`).

    Parameters
    ----------
    rules : Rules
        Deck, rounds, evaluator and number of players.
    collusion : Collusion, optional
        ``Collusion(team, "weak")``: the team's payoffs are summed and split evenly;
        ``"strong"``: also each colluder's information type is the pair of both hands.
    merge_team : bool
        With strong collusion only: build the team as ONE player who sees both hands and
        gets the sum of both payoffs. Both colluders then act on the same information
        with the same goal, so this player has perfect recall and the game against the
        victim (three players) is two-player zero-sum: solvable exactly by LP. Each
        colluder's payoff under the thesis's even split is half the team's.
    count_full_tree : bool
        Also count the nodes of the thesis's explicit tree (slow for big games).

    Returns
    -------
    BuiltGame
    """
    if not isinstance(rules, Rules):
        raise GutsInputError(f"rules must be a Rules instance; got {type(rules).__name__}")
    merged = None
    if merge_team:
        if collusion is None or collusion.kind != "strong":
            raise GutsInputError("merge_team needs strong collusion (the colluders must share their hands)")
        merged = check_team(collusion.team, rules.num_players)
    b = _Builder(rules, merged)
    root, deals = b.build()
    game = PublicTreeGame(root, deals, b.n_out, name=rules.name + (f"-team{merged}" if merged else ""))
    if collusion is not None and not merged:
        from guts.engine.extensive import pool     # the engine's team pooling (thesis §5)

        team = check_team(collusion.team, rules.num_players)
        game = pool(game, team, rule="split", share_information=(collusion.kind == "strong"))
    num_types = tuple(game.deals.num_types)
    stats = TreeStats(
        players=b.n_out,
        deals=b.D,
        types=num_types,
        public_states=b.n_decision + b.n_chance + b.n_terminal,
        decision_nodes=b.n_decision,
        chance_nodes=b.n_chance,
        terminals=b.n_terminal,
        info_sets=sum(b.info_sets[p] * num_types[p] for p in range(b.n_out)),
        info_sets_per_player=tuple(b.info_sets[p] * num_types[p] for p in range(b.n_out)),
        share_tables=len(b._share_cache),
        full_tree_nodes=_full_tree_nodes(b, root) if count_full_tree else -1,
    )
    hands = tuple(b.deck.hand_label(h) for h in b.hands)
    return BuiltGame(game, rules, stats, hands, collusion, tuple(int(x) for x in b.owner))
