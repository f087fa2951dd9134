"""Brute-force oracle for Mercer-type games, written from the rules alone.

Independent of guts.games.poker.builder: it deals *physical* cards (every card a distinct
object, every complete deal equally likely), replays the betting rules from the action
history each time (no recursion sharing state with the builder), evaluates hands by
brute force over card subsets with its own ranking code, and computes expected values and
best responses over physical deals. Only for tiny decks.
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np


# ---------------------------------------------------------------------------- hand ranking
def rank_hand(ranks, suits=None, straights=False, flushes=False):
    """A comparable key for exactly these cards (seed §4.2, footnote 4; hold'em for 5)."""
    cnt = Counter(ranks)
    groups = sorted(((c, r) for r, c in cnt.items()), reverse=True)
    pattern = [c for c, _ in groups]
    order = [r for _, r in groups]
    # categories: 0 high 1 pair 2 two pair 3 trips 4 straight 5 flush 6 full 7 quads 8 sflush 9 five
    if pattern[0] >= 5:
        cat = 9
    elif pattern[0] == 4:
        cat = 7
    elif pattern[0] == 3:
        cat = 6 if len(pattern) > 1 and pattern[1] >= 2 else 3
    elif pattern[0] == 2:
        cat = 2 if len(pattern) > 1 and pattern[1] == 2 else 1
    else:
        cat = 0
    if len(cnt) == len(ranks) and len(ranks) >= 2:
        srt = sorted(ranks)
        st = None
        if straights:
            if all(b - a == 1 for a, b in zip(srt, srt[1:])):
                st = srt[-1]
            elif srt[-1] == 14 and srt[:-1] == list(range(2, 1 + len(ranks))):
                st = srt[-2]
        fl = flushes and suits is not None and len(set(suits)) == 1
        if st is not None and fl:
            return (8, st)
        if fl:
            return (5, *order)
        if st is not None:
            return (4, st)
    return (cat, *order)


def best_hand(cards, hand_size, straights=False, flushes=False):
    """cards: list of (rank, suit)."""
    return max(rank_hand([c[0] for c in sub], [c[1] for c in sub], straights, flushes)
               for sub in itertools.combinations(cards, hand_size))


# ---------------------------------------------------------------------------- betting rules
class Rules:
    """Plain description: players, ranks, copies, suits, hole, list of rounds.

    Each round: dict(ante, shared, orbits, bets, check, betting).
    """

    def __init__(self, players, ranks, copies, hole, rounds, hand_size=4, suits=0,
                 straights=False, flushes=False):
        self.players, self.ranks, self.copies, self.hole = players, list(ranks), copies, hole
        self.rounds, self.hand_size, self.suits = rounds, hand_size, suits
        self.straights, self.flushes = straights, flushes
        # physical cards: (rank, suit, copy)
        self.cards = [(r, s, c) for r in self.ranks for s in (range(suits) if suits else [-1])
                      for c in range(copies)]


def _label_amount(x):
    return f"{x:g}"


def replay(rules: Rules, history):
    """Replay a public history; return the state dict (pure: recomputed from scratch).

    History entries: action labels, and board labels "flop:xy" etc. at shared deals.
    State: 'kind' in {'decision', 'chance', 'fold_end', 'showdown'}, plus fields.
    """
    n = rules.players
    active = [True] * n
    contrib = [0.0] * n
    hist = list(history)
    pos = 0
    board_labels = []
    for r, rnd in enumerate(rules.rounds):
        for p in range(n):
            if active[p]:
                contrib[p] += rnd["ante"]
        if rnd.get("shared", 0):
            if pos == len(hist):
                return dict(kind="chance", round=r, active=active, contrib=contrib, board=board_labels)
            board_labels.append(hist[pos])
            pos += 1
        if rnd.get("orbits", 0) == 0:
            continue
        if rnd["betting"] == "fixed":
            for orbit in range(rnd["orbits"]):
                for p in range(n):
                    if not active[p]:
                        continue
                    legal = ["f"] + (["k"] if rnd["check"] else []) + ["b" + _label_amount(b) for b in sorted(rnd["bets"])]
                    if pos == len(hist):
                        return dict(kind="decision", player=p, legal=legal, active=active, contrib=contrib,
                                    round=r, orbit=orbit)
                    a = hist[pos]
                    pos += 1
                    assert a in legal, (history, a, legal)
                    if a == "f":
                        active[p] = False
                        if sum(active) == 1:
                            return dict(kind="fold_end", winner=active.index(True), active=active,
                                        contrib=contrib)
                    elif a != "k":
                        contrib[p] += float(a[1:])
        else:  # limit: act in seat order until all acted and matched; <= orbits raises each
            acted = [False] * n
            raises = [0] * n
            p = 0
            while True:
                live = [q for q in range(n) if active[q]]
                top = max(contrib[q] for q in live)
                if all(acted[q] for q in live) and all(abs(contrib[q] - top) < 1e-12 for q in live):
                    break
                if not active[p]:
                    p = (p + 1) % n
                    continue
                legal = ["f"]
                if top - contrib[p] > 1e-12:
                    legal.append("c")
                elif rnd["check"]:
                    legal.append("k")
                if raises[p] < rnd["orbits"]:
                    legal += ["r" + _label_amount(b) for b in sorted(rnd["bets"])]
                if pos == len(hist):
                    return dict(kind="decision", player=p, legal=legal, active=active, contrib=contrib, round=r)
                a = hist[pos]
                pos += 1
                assert a in legal, (history, a, legal)
                acted[p] = True
                if a == "f":
                    active[p] = False
                    if sum(active) == 1:
                        return dict(kind="fold_end", winner=active.index(True), active=active, contrib=contrib)
                elif a == "c":
                    contrib[p] = top
                elif a[0] == "r":
                    contrib[p] = top + float(a[1:])
                    raises[p] += 1
                p = (p + 1) % n
    assert pos == len(hist), history
    return dict(kind="showdown", active=active, contrib=contrib, board=board_labels)


# ---------------------------------------------------------------------------- physical deals
def rank_char(r):
    return {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(r, str(r))


def card_label(c, suited):
    return rank_char(c[0]) + ("shdc"[c[1]] if suited else "")


def multiset_label(cards, suited):
    return "".join(card_label(c, suited) for c in sorted(cards, key=lambda c: (c[0], c[1])))


def physical_deals(rules: Rules):
    """All complete deals (holes, then the shared cards of each round), equally likely.

    Yields (holes, boards): holes a tuple per player of card tuples; boards a list per
    shared round of card tuples.
    """
    shared_sizes = [rnd.get("shared", 0) for rnd in rules.rounds if rnd.get("shared", 0)]
    n = rules.players
    cards = list(range(len(rules.cards)))

    def rec(remaining, parts, sizes):
        if not sizes:
            yield parts
            return
        for comb in itertools.combinations(remaining, sizes[0]):
            rest = [c for c in remaining if c not in comb]
            yield from rec(rest, parts + [comb], sizes[1:])

    sizes = [rules.hole] * n + shared_sizes
    for parts in rec(cards, [], sizes):
        holes = tuple(tuple(rules.cards[i] for i in part) for part in parts[:n])
        boards = [tuple(rules.cards[i] for i in part) for part in parts[n:]]
        yield holes, boards


class Enumeration:
    """Every physical deal with its labels, as arrays over deals (omega)."""

    SHARED_NAMES = ("flop", "turn", "river")

    def __init__(self, rules: Rules, pool_team=None):
        self.rules = rules
        self.pool_team = tuple(pool_team) if pool_team else None   # weak/strong collusion payoffs
        self._cache = {}
        suited = bool(rules.suits)
        self.hand_labels = []        # per omega: tuple of hole labels
        self.board_labels = []       # per omega: list of "flop:xy" labels
        self.strengths = []          # per omega: {board depth: per player key}
        deals = list(physical_deals(rules))
        self.W = len(deals)
        self.weight = np.full(self.W, 1.0 / self.W)
        for holes, boards in deals:
            self.hand_labels.append(tuple(multiset_label(h, suited) for h in holes))
            self.board_labels.append([f"{self.SHARED_NAMES[j]}:{multiset_label(b, suited)}"
                                      for j, b in enumerate(boards)])
            allb = [c for b in boards for c in b]
            self.strengths.append([
                best_hand([(c[0], c[1]) for c in h] + [(c[0], c[1]) for c in allb], rules.hand_size,
                          rules.straights, rules.flushes)
                for h in holes])

    def deal_distribution(self):
        out = Counter()
        for w, h in zip(self.weight, self.hand_labels):
            out[h] += w
        return out

    def board_distribution(self):
        """P(hands, first board)."""
        out = Counter()
        for w, h, b in zip(self.weight, self.hand_labels, self.board_labels):
            out[(h, b[0])] += w
        return out

    def payoff(self, omega, state):
        """Net chips of every player at a terminal state for physical deal omega."""
        n = self.rules.players
        contrib = state["contrib"]
        pot = sum(contrib)
        pay = [-c for c in contrib]
        if state["kind"] == "fold_end":
            pay[state["winner"]] += pot
            return self._pool(pay)
        live = [p for p in range(n) if state["active"][p]]
        best = max(self.strengths[omega][p] for p in live)
        winners = [p for p in live if self.strengths[omega][p] == best]
        for p in winners:
            pay[p] += pot / len(winners)
        return self._pool(pay)

    def _pool(self, pay):
        if self.pool_team:
            avg = sum(pay[q] for q in self.pool_team) / len(self.pool_team)
            for q in self.pool_team:
                pay[q] = avg
        return pay

    # -------------------------------------------------------------- values and best responses
    def _walk(self, strategy, br_player, history, reach, observe):
        """Reach-weighted payoff arrays over omega (n, W).

        strategy(player, info_label, history) -> {action: prob}; ``observe(p, omega)`` is
        the information label of player p at omega. The BR player's decisions maximise
        per (history, his label), as in the seed's best response (§2.3).
        """
        st = replay(self.rules, history)
        n = self.rules.players
        if st["kind"] in ("fold_end", "showdown"):
            out = np.zeros((n, self.W))
            for w in np.flatnonzero(reach):
                out[:, w] = reach[w] * np.array(self.payoff(w, st))
            return out
        if st["kind"] == "chance":
            depth = len(st["board"])
            total = np.zeros((n, self.W))
            labels = sorted({b[depth] for b in self.board_labels})
            for lab in labels:
                mask = np.array([b[depth] == lab for b in self.board_labels])
                r2 = reach * mask
                if r2.any():
                    total += self._walk(strategy, br_player, history + (lab,), r2, observe)
            return total
        p = st["player"]
        labels = self._labels(p, observe)
        if p == br_player:
            vals = {a: self._walk(strategy, br_player, history + (a,), reach, observe) for a in st["legal"]}
            out = np.zeros((n, self.W))
            for lab, mask in self._masks(p, observe).items():
                best = max(st["legal"], key=lambda a: vals[a][p][mask].sum())
                out[:, mask] = vals[best][:, mask]
            return out
        out = np.zeros((n, self.W))
        pa_all = {a: np.zeros(self.W) for a in st["legal"]}
        for lab, mask in self._masks(p, observe).items():
            m = mask & (reach > 0)
            if m.any():
                d = strategy(p, lab, history)
                for a in st["legal"]:
                    pa_all[a][m] = d.get(a, 0.0)
        for a in st["legal"]:
            pa = pa_all[a]
            if pa.any():
                out += self._walk(strategy, br_player, history + (a,), reach * pa, observe)
        return out

    def _labels(self, p, observe):
        key = (p, id(observe))
        if key not in self._cache:
            labels = [observe(p, w) for w in range(self.W)]
            masks = {lab: np.array([x == lab for x in labels]) for lab in set(labels)}
            self._cache[key] = (labels, masks)
        return self._cache[key][0]

    def _masks(self, p, observe):
        self._labels(p, observe)
        return self._cache[(p, id(observe))][1]

    def observe_fn(self, team=None):
        """Information label: own hole cards; with a strong-collusion team, both hands."""
        def observe(p, w):
            if team is not None and p in team:
                return "|".join(self.hand_labels[w][q] for q in sorted(team))
            return self.hand_labels[w][p]
        return observe

    def values(self, strategy, team=None):
        self._obs = getattr(self, "_obs", {})
        obs = self._obs.setdefault(team, self.observe_fn(team))
        u = self._walk(strategy, None, (), self.weight.copy(), obs)
        return u.sum(axis=1)

    def best_response_value(self, strategy, player, team=None):
        """Best-response value of ``player`` (``team``: strong-collusion information)."""
        self._obs = getattr(self, "_obs", {})
        obs = self._obs.setdefault(team, self.observe_fn(team))
        u = self._walk(strategy, player, (), self.weight.copy(), obs)
        return u.sum(axis=1)[player]
