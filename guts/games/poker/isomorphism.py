"""Lossless suit isomorphism: a poker game solved on its quotient by the card permutations
that leave its rules unchanged, with strategies and values mapped back exactly.

The mathematics (Gilpin and Sandholm, "Lossless abstraction of imperfect information games",
J. ACM 2007; Waugh, "A fast and optimal hand isomorphism algorithm", 2013, for the suit
classes).  Let ``G`` be a group of permutations of the cards (the suit permutations: card
``c = rank * suits + suit`` goes to ``rank * suits + pi(suit)``) under which the game is
invariant: a joint deal ``d`` and ``g d`` are equally likely, every public chance event has
``P(g c | g d) = P(c | d)``, and ``g`` maps the subtree of ``d`` onto that of ``g d`` with
the same actions and payoffs.  This module *verifies* that invariance on the built tree for
every candidate permutation (so a rule that looks at suits, a flush, keeps only the
permutations that respect it) and builds the quotient game:

* its nodes are the orbits of the full game's histories (private deal, board cards so far,
  actions) under ``G``: one representative per orbit;
* at a chance node reached by a representative history ``h`` with stabiliser
  ``H = {g : g h = h}``, one outcome ``c`` per ``H``-orbit, with probability
  ``P(c | h) * |H c|`` (the root: one deal per ``G``-orbit, ``P(d) * |G d|``); along a path the
  factors multiply to ``|G h|``, the number of full histories the representative stands for;
* a player's information set is the ``G``-orbit of his *view* (his own cards, the board cards
  in the order dealt, the public actions), keyed by its lexicographically least image.  The
  canonical view is taken under the whole group, not the stabiliser of the history: with the
  view (J of spades; board K of spades) and (J of hearts; board K of hearts) the two deals are
  different orbits of joint histories yet the same information set.

The quotient's strategies are exactly the ``G``-invariant strategies of the full game and,
for those, payoffs over an orbit are equal, so the quotient's payoff is the full game's.  In
a two-player zero-sum game the set of max-min strategies is convex and ``G``-invariant, so
it holds an invariant one; against an invariant strategy a best response can be taken
invariant (average a best response over ``G``).  Hence the quotient's value is the game's
value and the exploitability of a quotient strategy equals the full game's exploitability
of its expansion (:meth:`SuitQuotient.expand`, which gives every information set of the
full game the behaviour of its orbit).

The quotient is an :class:`~guts.engine.extensive.ExplicitGame` (a public tree cannot hold
it: a player's type would change at a board card, (J, K) splitting into suited and
offsuit); it is built from the full public tree, so building memory is the full game's and
the solvers' sizes are the quotient's.

    from guts.games.poker import load_poker
    q = load_poker("leduc.game", isomorphism=True)       # the quotient (an ExplicitGame)
    q.isomorphism.stats                                  # counts before and after
    r = solve_lp(q); full = q.isomorphism.expand(r.strategies)

Any public tree whose type and chance labels show cards (an imported OpenSpiel game, with a
``reader`` of its labels) goes through :func:`quotient_game`, whose candidates default to every
swap of two cards, each verified on the tree (docs/isomorphism.md).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from guts.engine.extensive import Chance, Decision, PublicTreeGame, Terminal
from guts.engine.tolerances import PROB_TOL
from guts.errors import GutsInputError

__all__ = ["SuitQuotient", "IsomorphismStats", "suit_quotient", "quotient_game", "suit_permutations",
           "poker_card_labels", "verify_symmetry", "MAX_GROUP_ORDER"]

#: Largest symmetry group enumerated (every canonical view is a minimum over the group).
MAX_GROUP_ORDER = 5040


@dataclass(frozen=True)
class IsomorphismStats:
    """Sizes of a game before (full) and after (quotient) the isomorphism.

    ``info_sets_*`` count, per player, the information sets a deal with positive probability
    reaches ((public node, type) pairs in the full game, orbits of views in the quotient);
    ``deal_histories_*`` the (private deal, board cards so far) histories with positive
    probability, at every depth (orbits in the quotient); ``terminal_deals_full`` the
    (terminal, deal) pairs with positive probability (the payoff entries of the sequence-form
    LP), ``terminals_quotient`` the quotient's terminals (its LP's payoff entries).
    """

    group_order: int
    info_sets_full: tuple
    info_sets_quotient: tuple
    deal_histories_full: int
    deal_histories_quotient: int
    terminal_deals_full: int
    terminals_quotient: int

    def lines(self) -> list:
        """Human-readable lines (``guts solve-game --isomorphism`` prints them)."""
        fi, qi = sum(self.info_sets_full), sum(self.info_sets_quotient)
        return [f"symmetry group    {self.group_order} card permutations",
                f"information sets  {fi} -> {qi} ({_ratio(fi, qi)})  per player "
                f"{'/'.join(map(str, self.info_sets_full))} -> {'/'.join(map(str, self.info_sets_quotient))}",
                f"deal histories    {self.deal_histories_full} -> {self.deal_histories_quotient} "
                f"({_ratio(self.deal_histories_full, self.deal_histories_quotient)})",
                f"terminal x deal   {self.terminal_deals_full} -> {self.terminals_quotient} "
                f"({_ratio(self.terminal_deals_full, self.terminals_quotient)})"]


def _ratio(a, b) -> str:
    return f"{a / b:.3g}x fewer" if b else "-"


def suit_permutations(ranks: int, suits: int) -> tuple:
    """Every permutation of the suits as a card permutation (card ``c = rank * suits + suit``),
    identity first: ``suits!`` tuples of length ``ranks * suits``."""
    R, S = int(ranks), int(suits)
    if S <= 1:
        return (tuple(range(R * max(S, 1))),)
    return tuple(tuple(r * S + pi[s] for r in range(R) for s in range(S))
                 for pi in itertools.permutations(range(S)))


def poker_card_labels(game) -> tuple:
    """``(card labels, ranks, suits)`` of a game built by :func:`~guts.games.poker.build_poker`
    (card ``c = rank * suits + suit``; a suitless deck has ``suits = 0``: no permutation)."""
    spec = getattr(game, "poker_spec", None)
    if spec is None:
        raise GutsInputError(f"game {getattr(game, 'name', game)!r} was not built from a poker description; "
                             "accepted: a game of guts.games.poker.build_poker / load_poker")
    if spec.betting == "fixed":
        deck = game.built.rules.deck      # fixed betting is built by the Mercer builder (build_poker)
        return tuple(deck.kind_label(k) for k in range(deck.num_kinds)), spec.ranks, spec.suits
    return tuple(spec.card_label(c) for c in range(spec.ranks * spec.suits)), spec.ranks, spec.suits


class _Cards:
    """Reads type and chance labels as card multisets (sorted tuples of card ids)."""

    def __init__(self, card_labels, reader=None):
        self.labels = tuple(str(x) for x in card_labels)
        if len(set(self.labels)) != len(self.labels) or any(not x for x in self.labels):
            raise GutsInputError(f"card labels must be distinct and non-empty; got {self.labels!r}")
        if reader is not None and not callable(reader):
            raise GutsInputError(f"reader must be a function label -> card numbers; got {reader!r}")
        self.reader = reader
        self.by_label = {x: i for i, x in enumerate(self.labels)}
        self.lengths = sorted({len(x) for x in self.labels}, reverse=True)
        self._cache = {}

    def parse(self, label) -> tuple:
        if label in self._cache:
            return self._cache[label]
        if self.reader is not None:
            try:
                cards = tuple(sorted(int(c) for c in self.reader(label)))
            except (TypeError, ValueError):
                raise GutsInputError(f"reader({label!r}) must return card numbers") from None
            if any(not 0 <= c < len(self.labels) for c in cards):
                raise GutsInputError(f"reader({label!r}) = {cards}; accepted: card numbers 0..{len(self.labels) - 1}")
            self._cache[label] = cards
            return cards
        text = str(label).rsplit(":", 1)[-1]
        out, i = [], 0
        while i < len(text):
            for n in self.lengths:
                c = self.by_label.get(text[i:i + n])
                if c is not None:
                    out.append(c)
                    i += n
                    break
            else:
                raise GutsInputError(f"label {label!r} is not a sequence of cards; accepted: labels made of "
                                     f"the card labels {', '.join(self.labels[:8])}...")
        cards = tuple(sorted(out))
        self._cache[label] = cards
        return cards

    def name(self, cards) -> str:
        # labels of one length concatenate unambiguously ("2c3d"); others are separated
        return ("" if len(self.lengths) == 1 else ",").join(self.labels[c] for c in cards)


def _image(perm, cards) -> tuple:
    return tuple(sorted(perm[c] for c in cards))


class _Action:
    """A candidate card permutation acting on a public tree's deals and chance outcomes."""

    def __init__(self, game, cards: _Cards, perm):
        self.perm = tuple(int(x) for x in perm)
        d = game.deals
        n = game.num_players
        self.tperm = []
        for p in range(n):
            tc = [cards.parse(lab) for lab in d.type_labels[p]]
            index = {c: t for t, c in enumerate(tc)}
            self.tperm.append(np.array([index.get(_image(self.perm, c), -1) for c in tc], dtype=np.int64))
        self.ok = all((tp >= 0).all() for tp in self.tperm)
        self.dperm = None
        if self.ok:
            radix = np.array([len(tp) for tp in self.tperm], dtype=np.int64)
            code = _codes(d.info, radix)
            order = np.argsort(code)
            img = np.stack([self.tperm[p][d.info[p]] for p in range(n)])
            icode = _codes(img, radix)
            pos = np.searchsorted(code[order], icode)
            pos = np.minimum(pos, len(order) - 1)
            found = code[order][pos] == icode
            self.ok = bool(found.all())
            if self.ok:
                self.dperm = order[pos]


def _codes(info, radix):
    code = np.zeros(info.shape[1], dtype=np.int64)
    for p in range(info.shape[0]):
        code = code * radix[p] + info[p]
    return code


class _Outcomes:
    """A chance node's outcomes read as card multisets."""

    __slots__ = ("labels", "cards", "lookup")

    def __init__(self, node: Chance, cards: _Cards):
        self.labels = tuple(node.outcomes)
        self.cards = tuple(cards.parse(lab) for lab in self.labels)
        self.lookup = {c: lab for c, lab in zip(self.cards, self.labels)}


def _prob_at(prob, D):
    return np.full(D, prob) if np.isscalar(prob) or np.ndim(prob) == 0 else np.asarray(prob, dtype=float)


def verify_symmetry(game: PublicTreeGame, card_labels, perm, *, reader=None) -> bool:
    """Whether the card permutation ``perm`` is a symmetry of ``game``: it maps every type
    to a type, deal probabilities, public chance probabilities (``P(g c | g d) = P(c | d)``
    to ``PROB_TOL``) and payoffs (to ``PROB_TOL`` x the payoff scale) onto themselves, the
    tree's shape and action labels included, at every deal a history reaches."""
    if not isinstance(game, PublicTreeGame):
        raise GutsInputError(f"game must be a PublicTreeGame; got {type(game).__name__}")
    cards = _Cards(card_labels, reader)
    return _verify(game, cards, _Action(game, cards, perm), {})


def _verify(game, cards, act: _Action, outcome_cache) -> bool:
    if not act.ok:
        return False
    D = game.deals.num_deals
    prob = game.deals.prob
    dp = act.dperm
    if np.any(np.abs(prob[dp] - prob) > PROB_TOL):
        return False
    tol = PROB_TOL * max(game.payoff_scale, 1.0)
    pay_cache = {}

    def payoff(t):
        k = id(t)
        if k not in pay_cache:
            pay_cache[k] = (t, t.payoff(D))
        return pay_cache[k][1]

    def outcomes(node):
        k = id(node)
        if k not in outcome_cache:
            outcome_cache[k] = (node, _Outcomes(node, cards))
        return outcome_cache[k][1]

    stack = [(game.root, game.root, prob > 0)]
    while stack:
        a, b, mask = stack.pop()
        if type(a) is not type(b):
            return False
        if isinstance(a, Decision):
            if a.player != b.player or tuple(a.actions) != tuple(b.actions):
                return False
            stack.extend((a.actions[x], b.actions[x], mask) for x in a.actions)
        elif isinstance(a, Chance):
            oa, ob = outcomes(a), outcomes(b)
            if len(oa.labels) != len(ob.labels):
                return False
            for lab in oa.labels:
                img = ob.lookup.get(_image(act.perm, oa.cards[oa.labels.index(lab)]))
                if img is None:
                    return False
                pa, ca = a.outcomes[lab]
                pb, cb = b.outcomes[img]
                pa, pb = _prob_at(pa, D), _prob_at(pb, D)
                if np.any(np.abs(pb[dp][mask] - pa[mask]) > PROB_TOL):
                    return False
                stack.append((ca, cb, mask & (pa > 0)))
        elif isinstance(a, Terminal):
            ua, ub = payoff(a), payoff(b)
            if ua.ndim == 1 and ub.ndim == 1:
                if np.any(np.abs(ua - ub) > tol):
                    return False
            else:
                ua = ua if ua.ndim == 2 else np.repeat(ua[:, None], D, 1)
                ub = ub if ub.ndim == 2 else np.repeat(ub[:, None], D, 1)
                if np.any(np.abs(ub[:, dp][:, mask] - ua[:, mask]) > tol):
                    return False
        else:
            raise GutsInputError(f"node {a!r} is not a Decision, Chance or Terminal")
    return True


def _compose(p, q):
    """``p`` after ``q``."""
    return tuple(p[x] for x in q)


def _closure(perms) -> tuple:
    n = len(perms[0]) if perms else 0
    ident = tuple(range(n))
    group = {ident}
    frontier = [ident]
    while frontier:
        nxt = []
        for g in frontier:
            for s in perms:
                h = _compose(s, g)
                if h not in group:
                    group.add(h)
                    nxt.append(h)
                    if len(group) > MAX_GROUP_ORDER:
                        raise GutsInputError(f"the symmetry group has more than {MAX_GROUP_ORDER} elements; "
                                             "accepted: fewer candidate permutations")
        frontier = nxt
    return tuple(sorted(group))


class SuitQuotient:
    """The quotient of a public-tree game by a verified group of card permutations.

    Attributes
    ----------
    game : ExplicitGame
        The quotient (solve it with any solver of :mod:`guts.engine.extensive`).
    full : PublicTreeGame
        The full game.
    group : tuple of tuple
        The symmetry group (card permutations, identity included).
    rejected : int
        Candidate permutations that are not symmetries of the full game.
    stats : IsomorphismStats
        Counts before and after.
    """

    def __init__(self, full: PublicTreeGame, card_labels, candidates, reader=None):
        if not isinstance(full, PublicTreeGame):
            raise GutsInputError(f"the isomorphism needs a PublicTreeGame; got {type(full).__name__}")
        self.full = full
        self.cards = _Cards(card_labels, reader)
        cands = [tuple(int(x) for x in c) for c in candidates]
        ncards = len(self.cards.labels)
        for c in cands:
            if sorted(c) != list(range(ncards)):
                raise GutsInputError(f"candidate {c!r} is not a permutation of the {ncards} cards")
        self._outcome_cache = {}
        ident = tuple(range(ncards))
        verified = [ident]
        self.rejected = 0
        for c in cands:
            if c == ident:
                continue
            if _verify(full, self.cards, _Action(full, self.cards, c), self._outcome_cache):
                verified.append(c)
            else:
                self.rejected += 1
        self.group = _closure(verified)
        self.actions = [_Action(full, self.cards, g) for g in self.group]
        n = full.num_players
        labels = full.deals.type_labels
        self._type_cards = [[self.cards.parse(lab) for lab in labels[p]] for p in range(n)]
        self._views = {}
        self.game, qcounts = self._build()
        fi, fh, ft = self._full_counts()
        qi, qh, qt = qcounts
        self.stats = IsomorphismStats(len(self.group), fi, qi, fh, qh, ft, qt)

    # -- canonical views -----------------------------------------------------------------
    def _view(self, p, t, chance_seq):
        """The canonical view's card names: own cards first, then each board deal."""
        key = (p, t, chance_seq)
        v = self._views.get(key)
        if v is None:
            tc = self._type_cards[p][t]
            v = min((_image(g, tc),) + tuple(_image(g, cs) for cs in chance_seq) for g in self.group)
            v = (self.cards.name(v[0]),) + tuple("[" + self.cards.name(x) + "]" for x in v[1:])
            self._views[key] = v
        return v

    def infoset_key(self, player: int, history, type_index: int) -> tuple:
        """The quotient's information-set label of the full game's information set
        (``history``, ``type_index``) of ``player``: its orbit's canonical view."""
        kinds = self._kinds(history)
        hist = tuple(zip(history, kinds))
        chance = tuple(self.cards.parse(lab) for lab, kind in hist if kind)
        return self._key_fast(int(player), int(type_index), hist, chance)

    def _kinds(self, history):
        """Which labels of a full history are chance outcomes (walks the full tree)."""
        node, kinds = self.full.root, []
        for lab in history:
            if isinstance(node, Chance):
                kinds.append(True)
                node = node.outcomes[lab][1]
            elif isinstance(node, Decision):
                kinds.append(False)
                node = node.actions[lab]
            else:
                raise GutsInputError(f"history {history!r} passes a terminal")
        return kinds

    # -- the quotient tree ---------------------------------------------------------------
    def _outcomes(self, node):
        k = id(node)
        if k not in self._outcome_cache:
            self._outcome_cache[k] = (node, _Outcomes(node, self.cards))
        return self._outcome_cache[k][1]

    def _build(self):
        from guts.engine.extensive import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal

        full, acts = self.full, self.actions
        D, n = full.deals.num_deals, full.num_players
        prob, info, tl = full.deals.prob, full.deals.info, full.deals.type_labels
        pay_cache = {}
        info_keys = [set() for _ in range(n)]
        histories = set()
        terminals = [0]

        def build(node, d, H, hist, chance):
            if isinstance(node, Terminal):
                terminals[0] += 1
                k = id(node)
                if k not in pay_cache:
                    pay_cache[k] = (node, node.payoff(D))
                u = pay_cache[k][1]
                return ExplicitTerminal(u[:, d] if u.ndim == 2 else u)
            if isinstance(node, Decision):
                p = node.player
                key = self._key_fast(p, int(info[p, d]), hist, chance)
                info_keys[p].add(key)
                return ExplicitDecision(p, key, {a: build(c, d, H, hist + ((a, False),), chance)
                                                 for a, c in node.actions.items()})
            oc = self._outcomes(node)
            outs, covered = {}, set()
            for i, lab in enumerate(oc.labels):
                pr, child = node.outcomes[lab]
                w = float(pr) if np.ndim(pr) == 0 else float(pr[d])
                if w <= 0 or lab in covered:
                    continue
                orbit, stab = set(), []
                for h in H:
                    img = oc.lookup[_image(acts[h].perm, oc.cards[i])]
                    orbit.add(img)
                    if img == lab:
                        stab.append(h)
                covered |= orbit
                cs = chance + (oc.cards[i],)
                histories.add((d, cs))
                outs[lab] = (w * len(orbit), build(child, d, stab, hist + ((lab, True),), cs))
            return ExplicitChance(outs)

        reps, seen = {}, np.zeros(D, dtype=bool)
        for d in range(D):
            if prob[d] <= 0 or seen[d]:
                continue
            orbit = {int(a.dperm[d]) for a in acts}
            seen[list(orbit)] = True
            reps[d] = len(orbit)
        root = {}
        for d, size in reps.items():
            H = [i for i, a in enumerate(acts) if a.dperm[d] == d]
            histories.add((d, ()))
            label = "|".join(tl[p][info[p, d]] for p in range(n))
            root[label] = (float(prob[d]) * size, build(full.root, d, H, (), ()))
        name = (full.name or "game") + " (suit quotient)"
        q = ExplicitGame(ExplicitChance(root), n, name=name)
        return q, (tuple(len(k) for k in info_keys), len(histories), terminals[0])

    def _key_fast(self, p, t, hist, chance):
        v = self._view(p, t, chance)
        out, j = [f"P{p}", v[0]], 1
        for lab, kind in hist:
            if kind:
                out.append(v[j])
                j += 1
            else:
                out.append(lab)
        return tuple(out)

    def _full_counts(self):
        full = self.full
        D, info = full.deals.num_deals, full.deals.info
        n = full.num_players
        infosets = [0] * n
        term = 0
        masks = {(): full.deals.prob > 0}
        stack = [(full.root, full.deals.prob > 0, ())]
        while stack:
            node, mask, chance = stack.pop()
            if isinstance(node, Decision):
                infosets[node.player] += len(np.unique(info[node.player][mask]))
                stack.extend((c, mask, chance) for c in node.actions.values())
            elif isinstance(node, Chance):
                for lab, (pr, child) in node.outcomes.items():
                    m = mask & (_prob_at(pr, D) > 0)
                    cs = chance + (lab,)
                    masks[cs] = masks[cs] | m if cs in masks else m
                    stack.append((child, m, cs))
            else:
                term += int(mask.sum())
        return tuple(infosets), sum(int(m.sum()) for m in masks.values()), term

    # -- mapping back --------------------------------------------------------------------
    def expand(self, strategies) -> tuple:
        """The full game's strategies of quotient strategies (``strategies[p][key]``, rows
        ``(1, actions)`` or ``(actions,)``): every information set of the full game plays as
        its orbit's; sets no deal reaches (a type holding a board card) play uniformly."""
        full = self.full
        n = full.num_players
        if len(strategies) != n:
            raise GutsInputError(f"strategies must hold {n} dicts (one per player); got {len(strategies)}")
        out = tuple({} for _ in range(n))
        stack = [(full.root, (), ())]
        while stack:
            node, hist, chance = stack.pop()
            if isinstance(node, Decision):
                p, na = node.player, len(node.actions)
                T = full.deals.num_types[p]
                arr = np.full((T, na), 1.0 / na)
                labels = tuple(h for h, _ in hist)
                for t in range(T):
                    row = strategies[p].get(self._key_fast(p, t, hist, chance))
                    if row is not None:
                        arr[t] = np.asarray(row, dtype=float).reshape(-1)
                out[p][labels] = arr
                stack.extend((c, hist + ((a, False),), chance) for a, c in node.actions.items())
            elif isinstance(node, Chance):
                oc = self._outcomes(node)
                stack.extend((node.outcomes[lab][1], hist + ((lab, True),), chance + (cs,))
                             for lab, cs in zip(oc.labels, oc.cards))
        return out


def quotient_game(full: PublicTreeGame, card_labels, candidates="transpositions", *, reader=None) -> SuitQuotient:
    """The quotient of ``full`` by the subgroup generated by those ``candidates`` that are
    symmetries of it (:func:`verify_symmetry`).

    Parameters
    ----------
    full : PublicTreeGame
        Any public tree whose type and chance labels name cards: built here, or imported
        (``from_openspiel("leduc_poker")`` with a ``reader``).
    card_labels : sequence of str
        The cards' names, card ``i`` first; without a ``reader`` a type or chance label is a run
        of card names, optionally after ``"name:"`` (``"Kh"``, ``"flop:2s3h"``).
    candidates : sequence of tuple, or "transpositions"
        Card permutations (tuples over ``0..len(card_labels)-1``) to try; ``"transpositions"``
        tries every swap of two cards (it finds the swaps of interchangeable cards, e.g. the
        suits of one rank where the ranking ignores suits; a swap of all suits at once is a
        product of several and is tried by :func:`suit_permutations`).
    reader : callable, optional
        ``reader(label)`` -> the card numbers a type or chance label shows.
    """
    n = len(tuple(card_labels))
    if isinstance(candidates, str):
        if candidates != "transpositions":
            raise GutsInputError(f"candidates {candidates!r}; accepted: 'transpositions' or card permutations")
        candidates = [tuple(b if x == a else a if x == b else x for x in range(n))
                      for a, b in itertools.combinations(range(n), 2)]
    return SuitQuotient(full, card_labels, candidates, reader)


def suit_quotient(full) -> SuitQuotient:
    """The quotient of a game built by :func:`~guts.games.poker.build_poker` by the suit
    permutations that are symmetries of it (all of them unless a rule looks at suits beyond
    flush-type equalities; none for a suitless deck)."""
    labels, ranks, suits = poker_card_labels(full)
    return quotient_game(full, labels, suit_permutations(ranks, suits) if suits else ())
