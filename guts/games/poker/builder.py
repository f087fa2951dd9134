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

It is the one tree builder of the poker family: every poker description (:mod:`.spec`) is
written as :class:`~.rules.Rules` by :func:`~guts.games.poker.build.poker_rules` and built
here.  Limit (ACPC) descriptions use the rules' ``"acpc"`` betting model (first player and
raise cap per round, labels ``f``/``c``/``r``), per-seat ``blinds``, ``dealing = "cards"``
(one chance node per board card, labelled ``"Kh"``, as OpenSpiel's ``universal_poker``) and a
:class:`~.evaluators.CardRanking` (which also ranks fewer than five cards).

Collusion (§5) is applied to the built tree by the engine's :func:`pool`: weak collusion
pools the colluders' payoffs and splits them evenly (the thesis's "win sharing" evaluator),
strong collusion also gives each colluder both colluders' hands (the colluders then stay
separate players: ``solve(collusion="strong-separate")``). With ``merge_team=True`` the
strong team is built as ONE player instead, the team-vs-victim game that
``solve(collusion="strong")`` solves with every method.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from guts._validate import check_choice
from guts.engine.extensive import Chance, Deals, Decision, PublicTreeGame, Terminal
from guts.engine.extensive.building import fold_payoff
from guts.errors import GutsInputError

from .rules import Rules

__all__ = ["build_game", "BuiltGame", "TreeStats", "Collusion", "COLLUSION_KINDS", "check_team",
           "fmt_amount", "count_tree", "TreeCount", "check_tree_memory", "estimate_build_bytes",
           "MAX_ACTION_DEPTH"]

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


class _Board(tuple):
    """The board: its cards as a sorted tuple (what the showdown, card removal and the caches
    read: boards with the same cards are one key) that also remembers ``groups``, the cards
    of each chance event in the order dealt (what the suit quotient's stabiliser reads)."""

    groups: tuple = ()

    @staticmethod
    def extend(board, cards: tuple) -> "_Board":
        out = _Board(sorted(board + tuple(cards)))
        out.groups = _Board.groups_of(board) + (tuple(sorted(cards)),)
        return out

    @staticmethod
    def groups_of(board) -> tuple:
        return getattr(board, "groups", ())


class _Builder:
    def __init__(self, rules: Rules, merged_team: tuple | None = None, suit_quotient: bool = False):
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
        # this keeps a few thousand terminal objects instead of 344 k (memory)
        self._terminal_cache = {}
        self.n_decision = self.n_chance = self.n_terminal = 0
        self.info_sets = [0] * self.n_out
        self.full_nodes = 0                   # explicit-tree node count (for the report)
        # the public tree's suit quotient (.public_quotient): representatives of the chance
        # outcomes' orbits, type orbits at the decisions
        self.sym = None
        if suit_quotient:
            from .public_quotient import SuitSymmetry

            self.sym = SuitSymmetry(self.deck, hands)

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
    def _card_outcomes(self, board: tuple):
        """``[(label, card, P(card | deal))]`` of the next single card (``dealing="cards"``):
        uniform over the cards neither in the deal nor on the board (rows of deals that the
        board contradicts are never reached)."""
        key = ("card", board)
        if key not in self._chance_cache:
            left = np.maximum(self.left - self.deck.counts(board)[None, :], 0)
            total = np.maximum(left.sum(axis=1), 1)
            self._chance_cache[key] = [(self.deck.kind_label(k), k, left[:, k] / total)
                                       for k in range(self.deck.num_kinds) if left[:, k].any()]
        return self._chance_cache[key]

    def build(self):
        blinds = np.array(self.rules.blinds, dtype=float) if self.rules.blinds else np.zeros(self.n)
        root = self._start_round(0, (True,) * self.n, blinds, ())
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
        if rnd.shared_cards and rules.dealing == "cards":
            return self._deal_cards(r, active, contrib, board, rnd.shared_cards)
        if rnd.shared_cards:
            outcomes = {}
            j = sum(1 for x in rules.rounds[:r] if x.shared_cards)
            name = _SHARED_NAMES[j] if j < len(_SHARED_NAMES) else f"board{j + 1}"
            self.n_chance += 1
            mult = {}
            for (label, h, p), k in self._quotient(board, self._shared_outcomes(board, rnd.shared_cards)):
                nb = _Board.extend(board, tuple(h))
                outcomes[f"{name}:{label}"] = (p, self._betting(r, active, contrib, nb))
                if k > 1:
                    mult[f"{name}:{label}"] = k
            return Chance(outcomes, multiplicity=mult or None)
        return self._betting(r, active, contrib, board)

    def _deal_cards(self, r, active, contrib, board, left):
        """``left`` more shared cards, one chance node per card (``dealing="cards"``)."""
        if left == 0:
            return self._betting(r, active, contrib, board)
        self.n_chance += 1
        reps = self._quotient(board, self._card_outcomes(board))
        return Chance({label: (p, self._deal_cards(r, active, contrib, _Board.extend(board, (k,)), left - 1))
                       for (label, k, p), _ in reps},
                      multiplicity={label: m for (label, _, _), m in reps if m > 1} or None)

    def _quotient(self, board, outcomes):
        """``[(outcome, multiplicity)]``: every outcome (k = 1), or with the suit quotient one
        representative per orbit of the board's stabiliser."""
        if self.sym is None:
            return [(o, 1) for o in outcomes]
        return self.sym.representatives(_Board.groups_of(board), outcomes)

    def _betting(self, r, active, contrib, board):
        rnd = self.rules.rounds[r]
        if rnd.betting == "acpc":
            p = rnd.first_player
            while not active[p]:
                p = (p + 1) % self.n
            return self._acpc(r, p, active, contrib, board, (False,) * self.n, 0)
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

    def _decision(self, p, actions, board=()):
        self.n_decision += 1
        self.info_sets[self.owner[p]] += 1
        return Decision(int(self.owner[p]), actions,
                        orbits=None if self.sym is None else self.sym.orbits(_Board.groups_of(board)))

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
        return self._decision(p, actions, board)

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
        return self._decision(p, actions, board)


    # the ACPC rules: fold only facing a bet, "c" calls or checks, "r" raises by the round's
    # size while the round has had fewer than ``max_raises`` raises (all players together)
    def _acpc(self, r, p, active, contrib, board, acted, nraises):
        rnd = self.rules.rounds[r]
        top = max(contrib[q] for q in range(self.n) if active[q])
        acted2 = tuple(a or q == p for q, a in enumerate(acted))

        def after(act, con, nr):
            live = [q for q in range(self.n) if act[q]]
            m = max(con[q] for q in live)
            if all(acted2[q] or not act[q] for q in range(self.n)) and all(abs(con[q] - m) < 1e-12 for q in live):
                return self._start_round(r + 1, act, con, board)
            nxt = next(q for k in range(1, self.n + 1) for q in [(p + k) % self.n] if act[q])
            return self._acpc(r, nxt, act, con, board, acted2, nr)

        actions = {}
        if top - contrib[p] > 1e-12:
            folded = tuple(a and q != p for q, a in enumerate(active))
            actions["f"] = self._fold_or_continue(folded, contrib, lambda: after(folded, contrib, nraises))
        c = contrib.copy()
        c[p] = top
        actions["c"] = after(active, c, nraises)
        if nraises < rnd.max_raises:
            c2 = contrib.copy()
            c2[p] = top + rnd.bets[0]
            actions["r"] = after(active, c2, nraises + 1)
        return self._decision(p, actions, board)


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
               count_full_tree: bool = False, suit_quotient: bool = False) -> BuiltGame:
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
    suit_quotient : bool
        Build the public tree's quotient by the suit permutations instead of the full tree
        (:mod:`.public_quotient`: same value and exploitability, for the CFR family and the
        best response); no collusion.

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
    if collusion is not None and rules.rounds[0].betting == "acpc":
        raise GutsInputError("collusion with ACPC betting; accepted: fixed or limit betting")
    if suit_quotient and collusion is not None:
        raise GutsInputError("suit_quotient with collusion; accepted: suit_quotient=False for a team game")
    # pre-flight: count the tree and refuse it before building a node (the quotient is
    # smaller than the full tree by about the number of suit permutations at the boards)
    if not suit_quotient:
        check_tree_memory(count_tree(rules, collusion, merge_team=merge_team), rules.name or "tree",
                          _rules_hint(rules))
    b = _Builder(rules, merged, suit_quotient=suit_quotient)
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


# ---------------------------------------------------------------------------------------
# Pre-flight: count the tree from the rules, without building a node
# ---------------------------------------------------------------------------------------
#: Longest action sequence (decisions on one path) the builders accept: they recurse once per
#: action, and a path this long means a tree far beyond any memory budget anyway.
MAX_ACTION_DEPTH = 300
#: Most betting states (memoized positions of one round) the counter visits before refusing.
MAX_COUNT_STATES = 200_000

#: Memory model of building and compiling a public tree (the builder's Python nodes, the
#: engine's compiled arrays and histories), calibrated against the peak resident memory
#: measured by ``benchmarks/memory_calibration.py`` (docs/performance.md, "Memory pre-flight";
#: 650-820 B per public state measured on 2P/3P-MMH variants of 0.17 to 1.6 million states):
#: bytes per expanded public node ...
BUILD_BYTES_PER_NODE = 1100
#: ... per (information set, action) sequence (the build keeps none per type: the solvers'
#: arrays are estimated by the engine and the methods) ...
BUILD_BYTES_PER_SEQUENCE = 0
#: ... per float of the (rows x deals) arrays: share tables, chance probabilities, the
#: compiled chance contexts, the deal arrays (float64, with a temporary copy).
BUILD_BYTES_PER_DEAL_FLOAT = 16
#: Expanded public nodes built and compiled per second (one core, for the time in a refusal).
BUILD_NODES_PER_SECOND = 30_000


def _human_time(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.3g} days"


def _rules_hint(rules: Rules) -> str:
    """What makes the tree smaller, naming the rules' current values."""
    if rules.rounds[0].betting == "acpc":
        return "accepted: a smaller game: fewer raises per round (max_raises), rounds, players or cards"
    rs = [r for r in rules.rounds if r.orbits]
    sizes = max((len(r.bets) for r in rs), default=0)
    out = []
    if sizes > 1:
        out.append(f"fewer bet sizes (now {sizes})")
    if any(r.check for r in rs):
        out.append("no check")
    if any(r.betting == "limit" for r in rs):
        out.append("fixed betting (limit call/raise trees grow with the raises)")
    if max((r.orbits for r in rs), default=0) > 1:
        out.append(f"fewer orbits (now {max(r.orbits for r in rs)})")
    if rules.num_players > 2:
        out.append(f"fewer players (now {rules.num_players})")
    if len(rules.rounds) > 2:
        out.append(f"fewer rounds (now {len(rules.rounds)})")
    return "accepted: a smaller game: " + ", ".join(out or ["fewer rounds or cards"])


def check_tree_memory(count: "TreeCount", name: str, hint: str = "") -> None:
    """Refuse (``GutsInputError``, one line) a tree whose build would exceed the memory budget
    (:func:`guts._validate.memory_budget`: ``GUTS_MEMORY_BUDGET``, half the RAM, the ulimit
    and cgroup limits) or whose longest path exceeds :data:`MAX_ACTION_DEPTH` decisions.
    The message names the tree's size, the estimate, the budget and the estimated build time."""
    from guts._validate import check_memory

    if count.max_depth > MAX_ACTION_DEPTH:
        raise GutsInputError(
            f"the game {name} has paths of more than {MAX_ACTION_DEPTH} decisions (at least {count.max_depth}); "
            + (hint or "accepted: fewer raises per round or fewer players"))
    seconds = count.public_states / BUILD_NODES_PER_SECOND
    check_memory(f"building the game {name} ({count.public_states:.3g} public states, "
                 f"{count.info_sets:.3g} information sets, "
                 f"{count.deals if count.deals < 10**6 else format(count.deals, '.3g')} deals; about "
                 f"{_human_time(seconds)} to build)", count.bytes, hint)


@dataclass(frozen=True)
class TreeCount:
    """Sizes of the game ``build_game`` would build, counted from the rules (:func:`count_tree`).

    The counts equal :class:`TreeStats` of the built game; ``sequences`` (information sets x
    their actions), ``max_depth`` (most decisions on one path), ``board_sequences`` (distinct
    board-card histories) and ``deal_floats`` (floats of the arrays over deals) feed the
    memory estimate ``bytes`` (:data:`BUILD_BYTES_PER_NODE` ...).
    """

    players: int
    deals: int
    types: tuple
    public_states: int
    decision_nodes: int
    chance_nodes: int
    terminals: int
    info_sets: int
    info_sets_per_player: tuple
    share_tables: int
    sequences: int
    max_depth: int
    board_sequences: int
    deal_floats: int
    bytes: int


def estimate_build_bytes(public_states: int, sequences: int, deal_floats: int,
                         bytes_per_node: float = BUILD_BYTES_PER_NODE) -> int:
    """Estimated peak memory (bytes) of building and compiling a tree of these sizes."""
    return int(bytes_per_node * public_states
               + BUILD_BYTES_PER_SEQUENCE * sequences + BUILD_BYTES_PER_DEAL_FLOAT * deal_floats)


class _RoundCount:
    """Counts of one betting round from one start, per board history (memoized per state)."""

    __slots__ = ("dec", "seq", "folds", "exits", "depth")

    def __init__(self, n):
        self.dec = [0] * n          # decisions per seat
        self.seq = [0] * n          # sum of actions over those decisions, per seat
        self.folds = 0              # fold terminals
        self.exits = {}             # (active, matched) -> number of paths leaving the round
        self.depth = 0              # most decisions on one path through the round

    def add(self, other, times=1):
        for p in range(len(self.dec)):
            self.dec[p] += times * other.dec[p]
            self.seq[p] += times * other.seq[p]
        self.folds += times * other.folds
        for k, v in other.exits.items():
            self.exits[k] = self.exits.get(k, 0) + times * v


def _round_counter(n: int, rnd, track: bool):
    """Count function of one betting round of the hold'em-like builder (``_fixed`` / ``_limit``).

    The tree of a round depends on the chips only through which active players are *matched*
    (have put in the most): a call joins them, a raise leaves the raiser alone, a fold or a
    check keeps them. In the fixed model it depends on nothing but the active players, except
    when this or a later round uses the limit model (``track``): then the contributions
    (relative to the largest, :func:`_relative`) are in the state.
    """
    memo = {}

    def guard(depth):
        if depth > MAX_ACTION_DEPTH:
            raise GutsInputError(f"a betting round has paths of more than {MAX_ACTION_DEPTH} decisions; "
                                 "accepted: fewer players, orbits or raises")
        if len(memo) > MAX_COUNT_STATES:
            raise GutsInputError(
                f"the betting of a round has more than {MAX_COUNT_STATES} distinct positions; accepted: "
                "fewer players, bet sizes, orbits or raises")

    def exit_key(active, contrib):
        return (active, None if contrib is None else _relative(contrib, active))

    def fixed(orbit, p, active, contrib, depth=1):
        key = (orbit, p, active, contrib)
        if key in memo:
            return memo[key]
        guard(depth)
        out = _RoundCount(n)

        def after(act, con):
            con = None if con is None else _relative(con, act)
            nxt = next((q for q in range(p + 1, n) if act[q]), None)
            if nxt is not None:
                return fixed(orbit, nxt, act, con, depth + 1)
            if orbit + 1 < rnd.orbits:
                return fixed(orbit + 1, act.index(True), act, con, depth + 1)
            leaf = _RoundCount(n)
            leaf.exits[exit_key(act, con)] = 1
            return leaf

        folded = tuple(a and q != p for q, a in enumerate(active))
        kids = []
        if sum(folded) == 1:
            out.folds += 1
        else:
            kids.append(after(folded, contrib))
        if rnd.check:
            kids.append(after(active, contrib))
        for b in rnd.bets:
            con = None
            if contrib is not None:
                con = list(contrib)
                con[p] += b
                con = _relative(con, active)
            kids.append(after(active, con))
        out.dec[p] += 1
        out.seq[p] += 1 + bool(rnd.check) + len(rnd.bets)
        for k in kids:
            out.add(k)
        out.depth = 1 + max((k.depth for k in kids), default=0)
        memo[key] = out
        return out

    def limit(p, active, acted, raises, matched, depth=1):
        key = (p, active, acted, raises, matched)
        if key in memo:
            return memo[key]
        guard(depth)
        out = _RoundCount(n)
        acted_p = tuple(a or q == p for q, a in enumerate(acted))

        def after(act, mat, raises2):
            live = [q for q in range(n) if act[q]]
            if all(acted_p[q] for q in live) and all(mat[q] for q in live):
                leaf = _RoundCount(n)
                leaf.exits[(act, _relative([0.0] * n, act) if track else None)] = 1
                return leaf
            nxt = next(q for k in range(1, n + 1) for q in [(p + k) % n] if act[q])
            return limit(nxt, act, acted_p, raises2, mat, depth + 1)

        kids = []
        folded = tuple(a and q != p for q, a in enumerate(active))
        mat_f = tuple(m and q != p for q, m in enumerate(matched))
        if sum(folded) == 1:
            out.folds += 1
        else:
            kids.append(after(folded, mat_f, raises))
        na = 1
        if not matched[p]:
            kids.append(after(active, tuple(m or q == p for q, m in enumerate(matched)), raises))
            na += 1
        elif rnd.check:
            kids.append(after(active, matched, raises))
            na += 1
        if raises[p] < rnd.orbits:
            r2 = tuple(x + (q == p) for q, x in enumerate(raises))
            alone = tuple(q == p for q in range(n))
            for _ in rnd.bets:
                kids.append(after(active, alone, r2))
            na += len(rnd.bets)
        out.dec[p] += 1
        out.seq[p] += na
        for k in kids:
            out.add(k)
        out.depth = 1 + max((k.depth for k in kids), default=0)
        memo[key] = out
        return out

    def count(active, contrib):
        """Counts of the round started with these active players (``contrib``: their
        contributions relative to the largest when tracked, else None)."""
        if rnd.orbits == 0:
            leaf = _RoundCount(n)
            leaf.exits[(active, contrib)] = 1
            return leaf
        first = next(p for p in range(n) if active[p])
        if rnd.betting == "fixed":
            return fixed(0, first, active, contrib)
        matched = active if contrib is None else tuple(a and c == 0.0 for a, c in zip(active, contrib))
        return limit(first, active, (False,) * n, (0,) * n, matched)
    return count


def _deal_transitions(hist: tuple, size: int, copies: int):
    """Deals of ``size`` cards (multisets) onto a deck whose kinds have ``hist[j]`` kinds with
    ``j`` copies used: ``{new hist: number of multisets}`` (kinds are interchangeable)."""
    out = {}

    def parts(total, cap, maxcount):
        """Non-increasing tuples of positive parts <= cap, at most maxcount of them, sum total."""
        if total == 0:
            yield ()
            return
        if maxcount == 0:
            return
        for a in range(min(cap, total), 0, -1):
            for rest in parts(total - a, a, maxcount - 1):
                yield (a,) + rest

    def rec(j, left, new, mult):
        if j == len(hist):
            if left == 0:
                key = tuple(new)
                out[key] = out.get(key, 0) + mult
            return
        g = hist[j]
        for s_j in range(0, left + 1):
            for pt in parts(s_j, copies - j, g):
                m = math.factorial(g) // math.factorial(g - len(pt))
                for v in set(pt):
                    m //= math.factorial(pt.count(v))
                n2 = list(new)
                n2[j] += g - len(pt)
                for a in pt:
                    n2[j + a] += 1
                rec(j + 1, left - s_j, n2, mult * m)

    rec(0, size, [0] * len(hist), 1)
    return out


def _hand_count(num_kinds: int, copies: int, size: int) -> int:
    return sum(_deal_transitions((num_kinds,) + (0,) * copies, size, copies).values())


def _team_types(deck, hole: int) -> int:
    """Types of a merged team (``a * H + b`` over its two hands): the largest index + 1."""
    hands = deck.hands(hole)
    H = len(hands)
    for a in range(H - 1, -1, -1):
        ca = deck.counts(hands[a])
        for b in range(H - 1, -1, -1):
            if (ca + deck.counts(hands[b]) <= deck.copies).all():
                return a * H + b + 1
    return 1  # pragma: no cover - a deck always deals two hands (Rules checks its size)


def count_tree(rules: Rules, collusion: Collusion | None = None, *, merge_team: bool = False) -> TreeCount:
    """Sizes of ``build_game(rules, collusion, merge_team=...)``, counted without building a node.

    The betting of every round is counted once per position (memoized: who acts, who is
    still in, who has acted, raised and matched), the deals and the boards over the deck's
    *count profiles* (how many kinds have 0, 1, ... copies used: kinds are interchangeable),
    so the cost is independent of the tree's size.  Raises ``GutsInputError`` when a round
    has more than :data:`MAX_COUNT_STATES` betting positions.
    """
    if not isinstance(rules, Rules):
        raise GutsInputError(f"rules must be a Rules instance; got {type(rules).__name__}")
    if rules.rounds[0].betting == "acpc":
        if collusion is not None:
            raise GutsInputError("collusion with ACPC betting; accepted: fixed or limit betting")
        return _count_acpc(rules)
    n, deck, c = rules.num_players, rules.deck, rules.deck.copies
    K = deck.num_kinds
    hole = rules.hole_cards
    empty = (K,) + (0,) * c
    # deals: n hands in sequence over the count profiles
    prof = {empty: 1}
    for _ in range(n):
        nxt = {}
        for h, m in prof.items():
            for h2, m2 in _deal_transitions(h, hole, c).items():
                nxt[h2] = nxt.get(h2, 0) + m * m2
        prof = nxt
    D = sum(prof.values())
    H = _hand_count(K, c, hole)
    n_out = n
    types = [H] * n
    merged = None
    if collusion is not None:
        team = check_team(collusion.team, n)
        if merge_team:
            if collusion.kind != "strong":
                raise GutsInputError("merge_team needs strong collusion (the colluders must share their hands)")
            merged = team
            n_out = n - 1
            lead = min(team)
            outs = sorted({lead} | {s for s in range(n) if s not in team})
            owner = [outs.index(lead if s in team else s) for s in range(n)]
            types = [H] * n_out
            types[owner[lead]] = _team_types(deck, hole)
        elif collusion.kind == "strong":        # pool(share_information=True): distinct hand pairs
            pair = {empty: 1}
            for _ in range(2):
                nxt = {}
                for h, m in pair.items():
                    for h2, m2 in _deal_transitions(h, hole, c).items():
                        nxt[h2] = nxt.get(h2, 0) + m * m2
                pair = nxt
            for s in team:
                types[s] = sum(pair.values())
    owner = list(range(n)) if merged is None else owner
    # boards: the deck's profile after the board only (board outcomes do not depend on the deal)
    track = [any(x.betting == "limit" and x.orbits for x in rules.rounds[r:])
             for r in range(len(rules.rounds))]
    arrivals = {((True,) * n, (0.0,) * n if track[0] else None): 1}
    depth_before = {k: 0 for k in arrivals}
    boards = {empty: 1}            # count profile of the board -> number of board histories
    board_seq = 1
    distinct_boards = {empty: 1}   # count profile -> number of distinct boards (multisets)
    dec = [0] * n
    seq = [0] * n
    chance = terminals = 0
    deal_floats = D * (K + 2 * n + 4)     # prob, types, left, info and their copies
    max_depth = 0
    for r, rnd in enumerate(rules.rounds):
        if rnd.shared_cards:
            paths = sum(arrivals.values())
            chance += paths * board_seq
            # the builder's chance arrays: one (D,) array per outcome per distinct board
            outcomes = sum(m * sum(_deal_transitions(h, rnd.shared_cards, c).values())
                           for h, m in distinct_boards.items())
            deal_floats += 2 * D * outcomes
            nb = {}
            for h, m in boards.items():
                for h2, m2 in _deal_transitions(h, rnd.shared_cards, c).items():
                    nb[h2] = nb.get(h2, 0) + m * m2
            boards = nb
            board_seq = sum(boards.values())
            distinct_boards = _distinct_multisets(K, c, sum(x.shared_cards for x in rules.rounds[:r + 1]))
            deal_floats += D * board_seq     # the compiled chance contexts (a row per board history)
        counter = _round_counter(n, rnd, track[r])
        nxt, nxt_depth = {}, {}
        for (active, contrib), m in arrivals.items():
            rc = counter(active, contrib)
            for p in range(n):
                dec[p] += m * rc.dec[p] * board_seq
                seq[p] += m * rc.seq[p] * board_seq
            terminals += m * rc.folds * board_seq
            d0 = depth_before[(active, contrib)] + rc.depth
            max_depth = max(max_depth, d0)
            for (act, con), v in rc.exits.items():
                key = (act, con if r + 1 < len(rules.rounds) and track[r + 1] else None)
                nxt[key] = nxt.get(key, 0) + m * v
                nxt_depth[key] = max(nxt_depth.get(key, 0), d0)
        arrivals, depth_before = nxt, nxt_depth
        if max_depth > MAX_ACTION_DEPTH:
            break
    showdown_paths = sum(arrivals.values())
    terminals += showdown_paths * board_seq
    active_sets = len({k[0] for k in arrivals})
    share_tables = active_sets * sum(distinct_boards.values())
    deal_floats += share_tables * n_out * D * 2
    dec_out = [0] * n_out
    seq_out = [0] * n_out
    for s in range(n):
        dec_out[owner[s]] += dec[s]
        seq_out[owner[s]] += seq[s]
    public = sum(dec) + chance + terminals
    info = tuple(dec_out[q] * types[q] for q in range(n_out))
    sequences = sum(seq_out[q] * types[q] for q in range(n_out))
    pooled = collusion is not None and merged is None
    nbytes = estimate_build_bytes(public * (2 if pooled else 1), sequences, deal_floats * (2 if pooled else 1))
    return TreeCount(players=n_out, deals=int(D), types=tuple(int(t) for t in types), public_states=int(public),
                     decision_nodes=int(sum(dec)), chance_nodes=int(chance), terminals=int(terminals),
                     info_sets=int(sum(info)), info_sets_per_player=tuple(int(x) for x in info),
                     share_tables=int(share_tables), sequences=int(sequences), max_depth=int(max_depth),
                     board_sequences=int(board_seq), deal_floats=int(deal_floats), bytes=nbytes)


#: Bytes per expanded public node of an ACPC-betting tree, built and compiled (card-by-card
#: dealing: more chance nodes and fewer shared terminals than Mercer hold'em): 1000 B measured
#: on two- and three-player games of 0.14 and 0.31 million states by
#: ``benchmarks/memory_calibration.py``.
ACPC_BYTES_PER_NODE = 1500


def _count_acpc(rules: Rules) -> TreeCount:
    """:func:`count_tree` of ACPC betting with card-by-card dealing (distinct cards).

    The betting of a round depends on the chips only through who has matched the largest
    contribution (a call joins them, a raise leaves the raiser alone), so it is counted once
    per position (who acts, who is in, who has acted and matched, raises so far).  Every card
    not on the board can come next for some deal, so a board card has ``N - |board|`` outcomes.
    """
    n, h, N = rules.num_players, rules.hole_cards, rules.deck.size
    D = 1
    for p in range(n):
        D *= math.comb(N - p * h, h)
    types = math.comb(N, h)
    contrib = list(rules.blinds) if rules.blinds else [0.0] * n
    top = max(contrib)
    states = [0]

    def round_counter(rnd):
        memo = {}

        def act(p, active, acted, nraises, matched, depth=1):
            key = (p, active, acted, nraises, matched)
            if key in memo:
                return memo[key]
            if depth > MAX_ACTION_DEPTH:
                raise GutsInputError(f"a betting round has paths of more than {MAX_ACTION_DEPTH} "
                                     "decisions; accepted: fewer raises per round (max_raises) or players")
            states[0] += 1
            if states[0] > MAX_COUNT_STATES:
                raise GutsInputError(f"the betting has more than {MAX_COUNT_STATES} distinct positions; "
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
    for r, rnd in enumerate(rules.rounds):
        paths = sum(arrivals.values())
        for _ in range(rnd.shared_cards):
            chance += paths * board_seq
            # the card outcomes: one (D,) array per card left, per distinct board (sorted)
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
                     bytes=estimate_build_bytes(public, sequences, deal_floats, ACPC_BYTES_PER_NODE))


def _relative(contrib, active) -> tuple:
    """Contributions of the active players minus the largest (rounded), None for the others."""
    top = max(x for x, a in zip(contrib, active) if a)
    return tuple(round(float(x) - top, 9) if a else None for x, a in zip(contrib, active))


def _distinct_multisets(num_kinds: int, copies: int, size: int) -> dict:
    """``{count profile: number of multisets}`` of ``size`` cards the deck can hold."""
    return _deal_transitions((num_kinds,) + (0,) * copies, size, copies)


def seat_values(built: BuiltGame, values: np.ndarray) -> np.ndarray:
    """Per-seat values; a merged team's value is split evenly between its seats (§5)."""
    owner = np.asarray(built.seat_player) if built.seat_player else np.arange(len(values))
    counts = np.bincount(owner, minlength=len(values))
    return np.array([values[owner[s]] / counts[owner[s]] for s in range(len(owner))])
