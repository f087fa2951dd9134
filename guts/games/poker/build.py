"""Build the engine's public tree of a poker game (:class:`~.spec.PokerSpec`).

Every description, limit or fixed betting, is translated by :func:`poker_rules` into the
hold'em-like builder's :class:`~guts.games.poker.rules.Rules` and built by
:func:`~guts.games.poker.builder.build_game`, the builder of Mercer hold'em
(:mod:`guts.games.poker.mercer`): one tree builder for every poker game.

Limit betting (the ACPC rules) becomes the rules' ``"acpc"`` betting model (first player
per round, a raise cap per round, labels ``f`` fold, ``c`` check/call, ``r`` bet/raise: the
ACPC letters), per-seat ``blinds`` (blinds plus antes), ``dealing = "cards"`` (board cards
one at a time, as the ACPC server and OpenSpiel's ``universal_poker`` deal them, labelled by
their ACPC names, ``"Kh"``) and a :class:`~guts.games.poker.evaluators.CardRanking` (the ACPC
ranking, which also compares fewer than five cards, or Rhode Island hold'em's three-card
ranking).  The private deal is one chance event over the players' hole cards (every ordered
assignment of distinct cards, equally likely: card removal exact); a board card's outcome
probabilities are arrays over deals (a card in somebody's hand cannot come); showdowns share
one ``(n, D)`` share table per (board, set of players still in).  Fixed betting is Mercer
hold'em's model, its rounds dealing their board as one chance node.
"""
from __future__ import annotations

from guts.errors import GutsInputError

from .builder import ACPC_BYTES_PER_NODE, TreeCount, build_game, count_tree
from .cards import Deck
from .evaluators import CardRanking, hand_rank, holdem_evaluator, mercer_evaluator
from .rules import Round, Rules
from .spec import PokerSpec

__all__ = ["build_poker", "poker_rules", "hand_rank", "MAX_DEALS", "count_poker"]

#: Bytes per expanded public node of a limit (ACPC) tree (:data:`~.builder.ACPC_BYTES_PER_NODE`).
POKER_BYTES_PER_NODE = ACPC_BYTES_PER_NODE

#: Largest number of private deals built (overridable with ``max_deals``): the share
#: tables are (players x deals) per board, so memory grows with it.
MAX_DEALS = 200_000


def _located(spec: PokerSpec, exc: GutsInputError) -> GutsInputError:
    """``exc`` with the description's source in front (once)."""
    where = spec._where()
    msg = str(exc)
    return GutsInputError(msg if not where or msg.startswith(where) else where + msg)


def count_poker(spec: PokerSpec) -> TreeCount:
    """Sizes of the tree :func:`build_poker` would build, counted from ``spec`` without
    building a node (the pre-flight): :func:`~.builder.count_tree` of :func:`poker_rules`.
    ``public_states``, ``terminals``, ``info_sets`` and ``deals`` equal the built game's
    ``size`` (:func:`~guts.engine.extensive.estimate_size`)."""
    rules = poker_rules(spec)
    try:
        return count_tree(rules)
    except GutsInputError as exc:
        raise _located(spec, exc) from None


def poker_rules(spec: PokerSpec) -> Rules:
    """The :class:`~guts.games.poker.rules.Rules` of ``spec``, built by
    :func:`~guts.games.poker.builder.build_game` (module docstring).

    Fixed betting (Mercer hold'em's model): the deck's ``ranks`` lowest ranks (2, 3, ...)
    with ``copies`` physical copies of every card kind (``suits = 0``: the cards are ranks
    only), one :class:`~guts.games.poker.rules.Round` per round (its ante, the hole cards in
    the first round, its board cards as shared cards, its orbits, bets and check) and the
    named evaluator, so a description of Mercer hold'em IS that game.  Limit betting: the
    ACPC deck (suits ``"cdhs"``), ``"acpc"`` rounds (raise size, raise cap, first player),
    the blinds plus antes per seat, card-by-card dealing and the named card ranking."""
    if not isinstance(spec, PokerSpec):
        raise GutsInputError(f"poker_rules needs a PokerSpec; got {type(spec).__name__}")
    try:
        if spec.betting == "fixed":
            deck = Deck(tuple(range(2, 2 + spec.ranks)), spec.copies, spec.suits)
            rounds = tuple(Round(ante=float(r.ante), hole_cards=spec.hole_cards if i == 0 else 0,
                                 shared_cards=r.board_cards, orbits=r.orbits, bets=tuple(float(b) for b in r.bets),
                                 check=r.check, betting="fixed")
                           for i, r in enumerate(spec.rounds))
            ev = {"mercer": mercer_evaluator, "holdem": holdem_evaluator}[spec.evaluator]()
            return Rules(deck, rounds, ev, spec.num_players, spec.name)
        n = spec.num_players
        blinds = [0.0] * n
        for vals in (spec.antes, spec.blinds):
            for q, v in enumerate(vals or ()):
                blinds[q] += float(v)
        deck = Deck(tuple(range(2, 2 + spec.ranks)), 1, spec.suits, suit_chars="cdhs")
        rounds = tuple(Round(hole_cards=spec.hole_cards if i == 0 else 0, shared_cards=r.board_cards,
                             bets=(float(r.raise_size),), betting="acpc", first_player=r.first_player,
                             max_raises=r.max_raises)
                       for i, r in enumerate(spec.rounds))
        ev = CardRanking("rhode_island" if spec.evaluator == "rhode_island" else "acpc", spec.ranks)
        return Rules(deck, rounds, ev, n, spec.name or "poker", blinds=tuple(blinds), dealing="cards")
    except GutsInputError as exc:
        raise _located(spec, exc) from None


def build_poker(spec: PokerSpec, *, max_deals: int = MAX_DEALS, isomorphism: bool | str = False):
    """The public tree of ``spec`` (module docstring); size checked before expansion.

    Every description is built by :func:`poker_rules` and the hold'em-like builder
    :func:`~guts.games.poker.builder.build_game`; the built game's ``.built`` holds its
    :class:`~guts.games.poker.builder.BuiltGame` (rules, sizes, hand labels).

    ``isomorphism=True`` returns instead the game's quotient by the suit permutations that
    are symmetries of it (:mod:`guts.games.poker.isomorphism`: an ``ExplicitGame`` with the
    same value, whose ``.isomorphism`` holds the counts before and after, the full game and
    ``expand`` to map strategies back); the full game's ``.isomorphism`` is ``None``.

    ``isomorphism="public"`` builds the suit quotient of the public tree directly, never the
    full tree (:mod:`guts.games.poker.public_quotient`: the CFR family and the best response
    accept it, with the full game's value and exploitability; its ``.isomorphism`` is
    ``"public"``): the way to games whose full tree does not fit, such as Rhode Island hold'em.
    """
    if not isinstance(spec, PokerSpec):
        raise GutsInputError(f"spec must be a PokerSpec; got {type(spec).__name__}")
    if not (isinstance(isomorphism, bool) or isomorphism == "public"):
        raise GutsInputError(f"isomorphism {isomorphism!r}; accepted: True, False or 'public'")
    if isomorphism is True:
        from .isomorphism import suit_quotient

        q = suit_quotient(build_poker(spec, max_deals=max_deals))
        q.game.isomorphism = q
        q.game.poker_spec = spec
        return q.game
    rules = poker_rules(spec)
    try:
        count = count_tree(rules)
    except GutsInputError as exc:
        raise _located(spec, exc) from None
    if count.deals > max_deals:
        what = "" if spec.betting == "fixed" else f" (players x hole cards from {spec.deck_size} cards)"
        raise GutsInputError(f"{spec._where()}{count.deals} private deals{what} exceed max_deals={max_deals}; "
                             "accepted: a smaller game or a larger max_deals")
    try:
        built = build_game(rules, suit_quotient=isomorphism == "public")
    except GutsInputError as exc:
        raise _located(spec, exc) from None
    g = built.game
    g.poker_spec = spec
    g.built = built
    g.isomorphism = "public" if isomorphism == "public" else None
    return g
