"""Hold'em-like games as data: a deck, a list of rounds and an evaluator (Ullman 2015, §3.2).

Every round has three phases, in order: an ante paid by every player still in the hand,
a deal (private cards to every player, then shared cards), and a betting phase.

Betting phase (``Round.orbits`` > 0): in every *orbit* each active player, in seat order
(seat 0 first in every round), acts once, in the first two betting models; the third, the
ACPC rules, has no orbits (every round has betting):

``"fixed"`` (the thesis's program, used for SMH and MMH)
    The player puts in exactly one of the allowed amounts ``bets`` (or 0 when ``check``)
    or folds; nobody has to match anybody. Labels ``"b4"`` (bet 4), ``"k"`` (check),
    ``"f"`` (fold). With a single bet size and no check, every active player has put in
    the same amount after every orbit (two players in MMH: at most 8 bets, a pot of 34).
``"limit"`` (call/raise: beyond the paper)
    The player calls (``"c"``; ``"k"`` when there is nothing to call, allowed only with
    ``check``), raises by one of ``bets`` (``"r4"``: calls, then adds 4) or folds. In the
    last orbit only the first active player may raise, so all active players have put in
    the same amount when the round ends (the rule of the thesis's later program).

``"acpc"`` (the ACPC server's limit rules; limit poker descriptions, :mod:`.spec`)
    The round starts at ``first_player`` (skipping folded players); a player facing a bet
    folds (``"f"``), calls (``"c"``) or raises by ``bets[0]`` (``"r"``); with nothing to call
    he checks (``"c"``) or bets (``"r"``) and cannot fold; at most ``max_raises`` raises in
    the round, by all players together.  The round ends when every active player has acted
    and all have put in the same.  Every round of a game uses it or none does; ``orbits``
    and ``ante`` are not used (per-player forced bets: ``Rules.blinds``).

When all players but one have folded the hand ends at once and the last player takes the
pot; shared cards are dealt only while at least two players remain. At the end of the last
round the pot goes to the best hand(s) among the active players (ties split). Payoffs are
net chips (own ante and bets included), so the game is zero-sum.

Shared cards (``Rules.dealing``): ``"board"`` deals a round's shared cards as one public
chance node (labels ``"flop:23"``); ``"cards"`` deals them one card at a time, one chance
node per card labelled by the card (``"Kh"``), as the ACPC server and OpenSpiel's
``universal_poker`` do (ACPC betting only; decks of distinct cards).

Private cards may be dealt only in the first round (players' information types are fixed
at the root of the engine's public tree).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from guts._validate import check_bool, check_choice, check_int, check_positive_float
from guts.errors import GutsInputError

from .cards import Deck
from .evaluators import HandEvaluator, mercer_evaluator

__all__ = ["Round", "Rules", "smh_rules", "mmh_rules", "VARIANTS", "variant_rules", "BETTING_MODELS", "DEALING"]

BETTING_MODELS = ("fixed", "limit", "acpc")
DEALING = ("board", "cards")
#: Most players of an ACPC game (other models: 6)
MAX_ACPC_PLAYERS = 10
VARIANTS = ("smh", "mmh")


#: Largest bet size accepted (in antes): pots stay exact in double arithmetic (every payoff
#: below 2**53 / 1e6) whatever the number of orbits and players.
MAX_BET_SIZE = 1e6

@dataclass(frozen=True)
class Round:
    """One round: ante, deal (private then shared cards), betting.

    Parameters
    ----------
    ante : float
        Paid by every active player at the start of the round.
    hole_cards, shared_cards : int
        Private cards to each player, shared cards to the board.
    orbits : int
        Betting orbits (0: no betting in this round).
    bets : tuple of float
        Allowed bet (``"fixed"``) or raise (``"limit"``) sizes, each > 0.
    check : bool
        Whether a player may put in nothing (check) when there is nothing to call.
    betting : {"fixed", "limit", "acpc"}
        Betting model (module docstring).
    first_player, max_raises : int
        ``"acpc"`` only: the seat who acts first in the round, and its raise cap.
    """

    ante: float = 0.0
    hole_cards: int = 0
    shared_cards: int = 0
    orbits: int = 0
    bets: tuple = (4.0,)
    check: bool = False
    betting: str = "fixed"
    first_player: int = 0
    max_raises: int = 0

    def __post_init__(self):
        check_positive_float("ante", self.ante, allow_zero=True)
        check_int("hole_cards", self.hole_cards, 0, 10)
        check_int("shared_cards", self.shared_cards, 0, 10)
        check_int("orbits", self.orbits, 0, 10)
        acpc = self.betting == "acpc"
        # ACPC raise sizes are bounded by the description's payoff range (spec.py)
        bets = tuple(check_positive_float("bet size", b, maximum=None if acpc else MAX_BET_SIZE) for b in self.bets)
        if len(set(bets)) != len(bets):
            raise GutsInputError(f"bet sizes must be distinct; got {self.bets!r}")
        object.__setattr__(self, "bets", tuple(sorted(bets)))
        # strict: check="no" is a truthy string; bool() would turn checking on
        object.__setattr__(self, "check", check_bool("check", self.check))
        check_choice("betting model", self.betting, BETTING_MODELS)
        check_int("first_player", self.first_player, 0, MAX_ACPC_PLAYERS - 1)
        check_int("max_raises", self.max_raises, 0, 255)
        if acpc and (len(bets) != 1 or self.ante or self.orbits or self.check):
            raise GutsInputError("an ACPC betting round has one raise size and no ante, orbits or check; "
                                 f"got bets {self.bets!r}, ante {self.ante!r}, orbits {self.orbits!r}, "
                                 f"check {self.check!r}")
        if not acpc and (self.first_player or self.max_raises):
            raise GutsInputError("first_player and max_raises are ACPC betting; accepted with "
                                 f"{self.betting} betting: seat 0 first, orbits")
        if self.orbits and not bets and not self.check:
            raise GutsInputError("a betting round needs at least one bet size or the check option")


@dataclass(frozen=True)
class Rules:
    """A hold'em-like game: deck, rounds, evaluator, number of players; with ACPC betting
    also the per-seat ``blinds`` (blinds and antes put in before the first round) and the
    dealing of shared cards (``dealing``, module docstring)."""

    deck: Deck = field(default_factory=Deck.mercer)
    rounds: tuple = ()
    evaluator: HandEvaluator = field(default_factory=mercer_evaluator)
    num_players: int = 2
    name: str = ""
    blinds: tuple = ()
    dealing: str = "board"

    def __post_init__(self):
        rounds = tuple(self.rounds)
        if not rounds:
            raise GutsInputError("a game needs at least one round")
        acpc = [r.betting == "acpc" for r in rounds]
        check_int("players", self.num_players, 2, MAX_ACPC_PLAYERS if all(acpc) else 6)
        object.__setattr__(self, "rounds", rounds)
        check_choice("dealing", self.dealing, DEALING)
        if any(acpc) and not all(acpc):
            raise GutsInputError("ACPC betting in some rounds only; accepted: every round or none")
        if not all(acpc) and (self.blinds or self.dealing != "board"):
            raise GutsInputError("per-seat blinds and card-by-card dealing are ACPC betting; accepted with "
                                 "fixed or limit betting: antes per round, dealing = 'board'")
        if all(acpc):
            if self.deck.copies != 1 or not self.deck.suits or self.dealing != "cards":
                raise GutsInputError("ACPC betting deals distinct cards one at a time; accepted: a deck with "
                                     "suits and one copy of every card, dealing = 'cards'")
            if any(r.first_player >= self.num_players for r in rounds):
                raise GutsInputError(f"first_player {[r.first_player for r in rounds]}; accepted: seats "
                                     f"0..{self.num_players - 1}")
        if self.blinds:
            b = tuple(check_positive_float("blind", x, allow_zero=True) for x in self.blinds)
            if len(b) != self.num_players:
                raise GutsInputError(f"blinds {self.blinds!r}; accepted: {self.num_players} numbers, one per seat")
            object.__setattr__(self, "blinds", b)
        if any(r.hole_cards for r in rounds[1:]):
            raise GutsInputError("private cards can be dealt only in the first round; accepted: hole_cards in the "
                                 "first round only")
        hole = rounds[0].hole_cards
        if hole == 0:
            raise GutsInputError("the first round must deal private cards; accepted: hole_cards >= 1 in the first "
                                 "round")
        shared = sum(r.shared_cards for r in rounds)
        if hole + shared < self.evaluator.hand_size:
            raise GutsInputError(
                f"{hole} private + {shared} shared cards cannot make a {self.evaluator.hand_size}-card hand; "
                f"accepted: at least {self.evaluator.hand_size} private and shared cards in all")
        if self.num_players * hole + shared > self.deck.size:
            raise GutsInputError(
                f"the deck has {self.deck.size} cards; {self.num_players} players need "
                f"{self.num_players * hole + shared}; accepted: a deck of at least that many cards")
        if self.evaluator.flushes and not self.deck.suits:
            raise GutsInputError("flushes need a deck with suits")

    @property
    def hole_cards(self) -> int:
        return self.rounds[0].hole_cards


def smh_rules(num_players: int = 2, deck: Deck | None = None, *, check: bool = False,
              bets=(4.0,), betting: str = "fixed", evaluator: HandEvaluator | None = None) -> Rules:
    """Standard Mercer hold'em (§4.2): ante 1, two private cards, one orbit of "bet 4 or
    fold", then a two-card flop and the showdown."""
    r1 = Round(ante=1.0, hole_cards=2, orbits=1, bets=tuple(bets), check=check, betting=betting)
    r2 = Round(shared_cards=2)
    return Rules(deck or Deck.mercer(), (r1, r2), evaluator or mercer_evaluator(), num_players,
                 f"{num_players}P-SMH")


def mmh_rules(num_players: int = 2, deck: Deck | None = None, *, check: bool = False,
              bets=(4.0,), betting: str = "fixed", evaluator: HandEvaluator | None = None) -> Rules:
    """Multiround Mercer hold'em (§4.2): like SMH with two orbits before the flop and two
    after it."""
    r1 = Round(ante=1.0, hole_cards=2, orbits=2, bets=tuple(bets), check=check, betting=betting)
    r2 = Round(shared_cards=2, orbits=2, bets=tuple(bets), check=check, betting=betting)
    return Rules(deck or Deck.mercer(), (r1, r2), evaluator or mercer_evaluator(), num_players,
                 f"{num_players}P-MMH")


def variant_rules(variant: str, num_players: int = 2, **kwargs) -> Rules:
    """Rules of a named variant (``"smh"`` or ``"mmh"``)."""
    v = check_choice("variant", str(variant).lower() if isinstance(variant, str) else variant, VARIANTS)
    return (smh_rules if v == "smh" else mmh_rules)(num_players, **kwargs)
