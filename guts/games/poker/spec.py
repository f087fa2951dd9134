"""A limit poker game as data (:class:`PokerSpec`), and its two file forms.

* **ACPC game definition** (the format of the Annual Computer Poker Competition's server,
  read by OpenSpiel's ``universal_poker``; limit betting)::

      GAMEDEF
      limit
      numPlayers = 2
      numRounds = 2
      blind = 1 1
      raiseSize = 2 4
      firstPlayer = 1 1
      maxRaises = 2 2
      numSuits = 2
      numRanks = 3
      numHoleCards = 1
      numBoardCards = 0 1
      END GAMEDEF

  Keys are case-insensitive; ``stack`` is accepted and ignored (limit betting never
  reaches it: ``universal_poker`` also plays limit games with unbounded stacks).
  Players and rounds are 1-based in the file (``firstPlayer``) and 0-based here.

* **Poker description (TOML)**, the same data with names, plus antes and the check option::

      name = "leduc"
      players = 2
      blinds = [1, 1]            # or antes = [1, 1]
      [deck]
      ranks = 3                  # ranks 2, 3, 4 (the lowest of a standard deck)
      suits = 2
      [[rounds]]
      hole_cards = 1             # private cards, first round only
      board_cards = 0
      raise_size = 2
      max_raises = 2
      first_player = 0
      [[rounds]]
      board_cards = 1
      raise_size = 4
      max_raises = 2
      first_player = 0

* **Fixed betting** (Mercer hold'em's model, ``betting = "fixed"``; no ACPC form): the deck
  may have no suits (``suits = 0``) and several copies of every card (``copies``); every
  round has an ``ante`` (paid by every player still in), ``orbits`` of betting in which
  each active player, seat 0 first, puts in one of the allowed ``bets``, or nothing when
  ``check = true``, or folds; and hands are ranked by a named ``evaluator`` (``"mercer"``:
  best four cards, no straights or flushes; ``"holdem"``: best five, straights and
  flushes).  Like every description, built by the hold'em-like builder
  :mod:`guts.games.poker.builder` (the one of :mod:`guts.games.poker.mercer`).  Shipped: ``descriptions/mercer_smh.toml``,
  ``descriptions/mercer_mmh.toml``::

      betting = "fixed"
      evaluator = "mercer"
      [deck]
      ranks = 5                  # 2..6
      suits = 0
      copies = 4
      [[rounds]]
      ante = 1
      hole_cards = 2
      bets = [4]                 # several sizes allowed; check = true adds a check
      orbits = 1
      [[rounds]]
      board_cards = 2

Betting (limit, the ACPC rules): in each round the players act in turn from
``first_player`` (skipping folded players); a player facing a bet folds (``f``), calls
(``c``) or raises by the round's ``raise_size`` (``r``, while fewer than ``max_raises``
raises were made in the round); with nothing to call he checks (``c``) or bets (``r``),
and cannot fold.  A round ends when every active player has acted and all have put in
the same; board cards are then dealt one at a time (public chance); the hand ends when
one player is left or at the showdown after the last round, where the best hand wins the
pot (ties split).  Hands are ranked as in poker (best five cards when there are five or
more; with fewer, by pairs, trips and quads then high cards; straights need five cards,
the ace plays low in A-2-3-4-5 when the deck has all 13 ranks).  ``evaluator =
"rhode_island"`` ranks the best three cards instead, as in Rhode Island hold'em (straight
flush > three of a kind > straight > flush > pair > high card; shipped:
``descriptions/rhode_island.toml``); it has no ACPC form.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

from guts.engine._textfile import parse_number, read_text_file
from guts.engine.tolerances import MAX_PAYOFF_MAGNITUDE
from guts.errors import GutsInputError

__all__ = ["PokerSpec", "PokerRound", "read_acpc", "read_poker_toml", "acpc_text", "RANK_CHARS", "SUIT_CHARS",
           "MAX_PLAYERS", "BETTING", "EVALUATORS", "LIMIT_EVALUATORS", "FIXED_EVALUATORS"]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"          # the ACPC server's suit order (card = rank * suits + suit)
MAX_PLAYERS = 10
#: Largest description file (ACPC or TOML) read; at most this many bytes are ever read.
MAX_DESCRIPTION_BYTES = 2**20
#: Deepest nesting of arrays and inline tables in a TOML description (a description needs 2:
#: ``bets = [4]`` in a ``[[rounds]]`` table).
MAX_TOML_DEPTH = 16
#: ``"limit"``: the ACPC rules (module docstring); ``"fixed"``: Mercer hold'em's model (each
#: active player puts in one of the allowed amounts, or checks, or folds, once per orbit;
#: :mod:`guts.games.poker.rules`)
BETTING = ("limit", "fixed")
#: hand rankings by name: ``"acpc"`` (module docstring, limit betting), ``"mercer"`` (the
#: four-card suitless ranking of Mercer hold'em), ``"holdem"`` (best five cards, straights
#: and flushes) and ``"rhode_island"`` (best three cards, straight flush > three of a kind >
#: straight > flush > pair > high card: Rhode Island hold'em, limit betting), the last three
#: from :mod:`guts.games.poker.evaluators`
EVALUATORS = ("acpc", "mercer", "holdem", "rhode_island")
#: the rankings each betting model's builder takes
LIMIT_EVALUATORS = ("acpc", "rhode_island")
FIXED_EVALUATORS = ("mercer", "holdem")


@dataclass(frozen=True)
class PokerRound:
    """One betting round: board cards dealt before it, raise size and cap, first player
    (limit betting); ante, orbits, allowed bets and check (fixed betting)."""

    board_cards: int = 0
    raise_size: float = 1.0
    max_raises: int = 1
    first_player: int = 0
    ante: float = 0.0
    orbits: int = 0
    bets: tuple = ()
    check: bool = False


@dataclass(frozen=True)
class PokerSpec:
    """A poker game, limit or fixed betting (module docstring).  Validated on construction."""

    num_players: int
    ranks: int
    suits: int
    hole_cards: int
    rounds: tuple
    blinds: tuple = ()
    antes: tuple = ()
    name: str = ""
    source: str = field(default="", compare=False)
    copies: int = 1
    betting: str = "limit"
    evaluator: str = "acpc"

    def __post_init__(self):
        def whole(what, v, lo, hi):
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise GutsInputError(f"{self._where()}{what} {v!r}; accepted: integers {lo}..{hi}")
            return v

        n = whole("players", self.num_players, 2, MAX_PLAYERS)
        whole("ranks", self.ranks, 1, 13)
        fixed = self.betting == "fixed"
        whole("suits", self.suits, 0 if fixed else 1, 4)
        whole("copies", self.copies, 1, 64 if fixed else 1)
        whole("hole cards", self.hole_cards, 1, 5)
        if self.betting not in BETTING:
            raise GutsInputError(f"{self._where()}betting {self.betting!r}; accepted: {', '.join(BETTING)}")
        ok = FIXED_EVALUATORS if fixed else LIMIT_EVALUATORS
        if self.evaluator not in ok:
            raise GutsInputError(f"{self._where()}evaluator {self.evaluator!r} with {self.betting} betting; "
                                 f"accepted: {', '.join(ok)}")
        if not self.rounds:
            raise GutsInputError(f"{self._where()}no betting rounds; accepted: at least one round")
        for i, r in enumerate(self.rounds):
            self._check_model(i, r)
            whole(f"round {i + 1} board cards", r.board_cards, 0, 5)
            whole(f"round {i + 1} max raises", r.max_raises, 0, 255)
            whole(f"round {i + 1} first player", r.first_player, 0, n - 1)
            if not (isinstance(r.raise_size, (int, float)) and math.isfinite(r.raise_size) and r.raise_size > 0):
                raise GutsInputError(f"{self._where()}round {i + 1} raise size {r.raise_size!r}; "
                                     "accepted: positive finite numbers")
        for what, vals in (("blinds", self.blinds), ("antes", self.antes)):
            if vals and (len(vals) != n or not all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0
                                                   for v in vals)):
                raise GutsInputError(f"{self._where()}{what} {list(vals)!r}; accepted: {n} numbers >= 0, "
                                     "one per player")
        deck = self.deck_size
        need = n * self.hole_cards + sum(r.board_cards for r in self.rounds)
        if self.evaluator == "rhode_island" and need - (n - 1) * self.hole_cards < 3:
            raise GutsInputError(f"{self._where()}evaluator 'rhode_island' ranks three-card hands; a player has "
                                 f"{need - (n - 1) * self.hole_cards} cards at the showdown; accepted: hole and "
                                 "board cards making at least 3")
        if need > deck:
            copies = f" x {self.copies} copies" if self.copies > 1 else ""
            raise GutsInputError(f"{self._where()}a deck of {deck} cards ({self.ranks} ranks x {self.suits} "
                                 f"suits{copies}) cannot deal {n} x {self.hole_cards} hole cards and "
                                 f"{need - n * self.hole_cards} board cards; accepted: decks of at least {need} cards")

    def _check_model(self, i, r):
        """Each betting model takes only its own round fields (a silently ignored field
        would be a different game than the one the user wrote)."""
        d = PokerRound()
        if self.betting == "fixed":
            if (r.raise_size, r.max_raises, r.first_player) != (d.raise_size, d.max_raises, d.first_player):
                raise GutsInputError(f"{self._where()}round {i + 1}: raise_size, max_raises and first_player "
                                     "are limit betting; accepted with fixed betting: ante, orbits, bets, check "
                                     "(seat 0 acts first)")
            if self.blinds or self.antes:
                raise GutsInputError(f"{self._where()}blinds/antes per player with fixed betting; "
                                     "accepted: an ante per round (paid by every player still in)")
            if not (isinstance(r.ante, (int, float)) and math.isfinite(r.ante) and r.ante >= 0):
                raise GutsInputError(f"{self._where()}round {i + 1} ante {r.ante!r}; accepted: a number >= 0")
            if isinstance(r.orbits, bool) or not isinstance(r.orbits, int) or not 0 <= r.orbits <= 10:
                raise GutsInputError(f"{self._where()}round {i + 1} orbits {r.orbits!r}; accepted: integers 0..10")
            if not all(isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b) and b > 0
                       for b in r.bets) or len(set(r.bets)) != len(r.bets):
                raise GutsInputError(f"{self._where()}round {i + 1} bets {list(r.bets)!r}; accepted: distinct "
                                     "positive numbers")
            if not isinstance(r.check, bool):
                raise GutsInputError(f"{self._where()}round {i + 1} check {r.check!r}; accepted: true or false")
            if r.orbits and not r.bets and not r.check:
                raise GutsInputError(f"{self._where()}round {i + 1} has betting orbits but no bets and no check; "
                                     "accepted: at least one bet size or check = true")
        elif (r.ante, r.orbits, r.bets, r.check) != (d.ante, d.orbits, d.bets, d.check):
            raise GutsInputError(f"{self._where()}round {i + 1}: ante, orbits, bets and check are fixed betting; "
                                 "accepted with limit betting: board_cards, raise_size, max_raises, first_player")

    def _where(self):
        return f"{self.source}: " if self.source else ""

    @property
    def deck_size(self) -> int:
        return self.ranks * max(self.suits, 1) * self.copies

    def card_label(self, c: int) -> str:
        """ACPC card ``c = rank * suits + suit`` as text, e.g. ``"Kh"``."""
        return RANK_CHARS[c // self.suits] + SUIT_CHARS[c % self.suits]


_ACPC_INT_LISTS = {"blind": "blind", "raisesize": "raiseSize", "firstplayer": "firstPlayer",
                   "maxraises": "maxRaises", "numboardcards": "numBoardCards", "stack": "stack"}
_ACPC_INTS = {"numplayers": "numPlayers", "numrounds": "numRounds", "numsuits": "numSuits",
              "numranks": "numRanks", "numholecards": "numHoleCards"}


def _read_text(path_or_text, what):
    """(text, source) of a description given as its text or as a path: a regular file of at most
    :data:`MAX_DESCRIPTION_BYTES`, UTF-8 (:func:`guts.engine._textfile.read_text_file`)."""
    text = str(path_or_text)
    if "\n" in text:
        if len(text) > MAX_DESCRIPTION_BYTES:
            raise GutsInputError(f"the {what} text has {len(text)} characters; accepted: at most "
                                 f"{MAX_DESCRIPTION_BYTES}")
        return text, f"the {what} text"
    return read_text_file(path_or_text, what, MAX_DESCRIPTION_BYTES), repr(os.fspath(path_or_text))


_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\Z")


def _acpc_numbers(src, line, key, values):
    """An ACPC line's values, each text checked before it is converted (no ``nan``, ``1e400``,
    ``1e999999999``: :func:`guts.engine._textfile.parse_number`); a line is a value per player
    or per round, so more than :data:`MAX_PLAYERS` values are refused before any is converted."""
    out = []
    tokens = values.split()
    if len(tokens) > MAX_PLAYERS:
        raise GutsInputError(f"{src}, line {line}: {key} has {len(tokens)} values; accepted: at most {MAX_PLAYERS} "
                             "(one per player or per round)")
    for token in tokens:
        if not _DECIMAL.match(token):
            raise GutsInputError(f"{src}, line {line}: {key} = {values!r} is not a list of numbers ({token!r}); "
                                 "accepted: numbers separated by spaces")
        out.append(float(parse_number(token, f"{src}, line {line}: {key}", max_abs=MAX_PAYOFF_MAGNITUDE,
                                      rational=False)))
    return out


def read_acpc(path_or_text) -> PokerSpec:
    """Read an ACPC game definition (limit betting) as a :class:`PokerSpec`."""
    text, src = _read_text(path_or_text, "ACPC game definition")
    numbered = [(i + 1, ln.split("#", 1)[0].strip()) for i, ln in enumerate(text.splitlines())]
    numbered = [(i, ln) for i, ln in numbered if ln]
    lines = [ln for _, ln in numbered]
    if not lines or lines[0].upper() != "GAMEDEF":
        raise GutsInputError(f"{src}: an ACPC game definition starts with GAMEDEF; accepted: GAMEDEF ... END GAMEDEF")
    betting = None
    vals = {}
    ended = False
    for lineno, ln in numbered[1:]:
        low = ln.lower()
        if low in ("end gamedef", "endgamedef"):
            ended = True
            break
        if low in ("limit", "nolimit"):
            betting = low
            continue
        m = re.match(r"^([A-Za-z]+)\s*=\s*(.*)$", ln)
        if not m:
            raise GutsInputError(f"{src}: cannot read line {ln!r}; accepted: key = values, limit, END GAMEDEF")
        key = m.group(1).lower()
        if key not in _ACPC_INT_LISTS and key not in _ACPC_INTS:
            known = ", ".join(sorted(set(_ACPC_INT_LISTS.values()) | set(_ACPC_INTS.values())))
            raise GutsInputError(f"{src}: unknown key {m.group(1)!r}; accepted: {known}")
        nums = _acpc_numbers(src, lineno, m.group(1), m.group(2))
        if not nums:
            raise GutsInputError(f"{src}: {m.group(1)} has no value; accepted: numbers separated by spaces")
        vals[key] = nums
    if not ended:
        raise GutsInputError(f"{src}: no END GAMEDEF; accepted: GAMEDEF ... END GAMEDEF")
    if betting != "limit":
        raise GutsInputError(f"{src}: betting {betting or 'not given'!r}; accepted: limit (no-limit games are not supported)")
    for k, name in _ACPC_INTS.items():
        if k not in vals:
            raise GutsInputError(f"{src}: {name} is missing; accepted: a definition with "
                                 + ", ".join(_ACPC_INTS.values()))

    def one(k):
        v = vals[k]
        if len(v) != 1 or v[0] != int(v[0]):
            raise GutsInputError(f"{src}: {_ACPC_INTS[k]} {v!r}; accepted: one integer")
        return int(v[0])

    n, R = one("numplayers"), one("numrounds")
    if not 1 <= R <= 4:
        raise GutsInputError(f"{src}: numRounds {R}; accepted: 1..4")

    def per_round(k, default, integer=True):
        v = vals.get(k)
        if v is None:
            if default is None:
                raise GutsInputError(f"{src}: {_ACPC_INT_LISTS[k]} is missing; accepted: {R} values, one per round")
            return [default] * R
        if len(v) < R:
            raise GutsInputError(f"{src}: {_ACPC_INT_LISTS[k]} has {len(v)} values; accepted: {R}, one per round")
        if integer and any(x != int(x) for x in v[:R]):
            raise GutsInputError(f"{src}: {_ACPC_INT_LISTS[k]} {v!r}; accepted: integers")
        return [int(x) if integer else x for x in v[:R]]

    raise_size = per_round("raisesize", None, integer=False)
    first = per_round("firstplayer", 1)
    max_raises = per_round("maxraises", 255)
    board = per_round("numboardcards", 0)
    blind = vals.get("blind", [0.0] * n)
    if len(blind) != n:
        raise GutsInputError(f"{src}: blind has {len(blind)} values; accepted: {n}, one per player")
    if any(f < 1 or f > n for f in first):
        raise GutsInputError(f"{src}: firstPlayer {first}; accepted: players 1..{n}")
    rounds = tuple(PokerRound(board_cards=b, raise_size=float(rs), max_raises=m, first_player=f - 1)
                   for b, rs, m, f in zip(board, raise_size, max_raises, first))
    return PokerSpec(num_players=n, ranks=one("numranks"), suits=one("numsuits"), hole_cards=one("numholecards"),
                     rounds=rounds, blinds=tuple(float(b) for b in blind), name="", source=src)


def acpc_text(spec: PokerSpec) -> str:
    """The ACPC game definition of ``spec`` (antes and fixed betting have no ACPC form: refused)."""
    if spec.betting != "limit":
        raise GutsInputError(f"{spec.betting} betting has no ACPC form; accepted: limit games")
    if spec.antes and any(spec.antes):
        raise GutsInputError("antes have no ACPC form; accepted: games with blinds only")
    if spec.evaluator != "acpc":
        raise GutsInputError(f"the {spec.evaluator!r} hand ranking has no ACPC form (the ACPC server ranks "
                             "hands as in poker); accepted: games with evaluator 'acpc'")
    rs = spec.rounds

    def g(x):
        return f"{x:g}"
    return "\n".join([
        "GAMEDEF", "limit",
        f"numPlayers = {spec.num_players}", f"numRounds = {len(rs)}",
        "blind = " + " ".join(g(b) for b in (spec.blinds or (0,) * spec.num_players)),
        "raiseSize = " + " ".join(g(r.raise_size) for r in rs),
        "firstPlayer = " + " ".join(str(r.first_player + 1) for r in rs),
        "maxRaises = " + " ".join(str(r.max_raises) for r in rs),
        f"numSuits = {spec.suits}", f"numRanks = {spec.ranks}", f"numHoleCards = {spec.hole_cards}",
        "numBoardCards = " + " ".join(str(r.board_cards) for r in rs),
        "END GAMEDEF", ""])


_TOML_TOP = {"name", "players", "blinds", "antes", "deck", "rounds", "betting", "evaluator"}
_TOML_DECK = {"ranks", "suits", "copies"}
_TOML_ROUND = {"hole_cards", "board_cards", "raise_size", "max_raises", "first_player", "ante", "orbits", "bets",
               "check"}


def read_poker_toml(path_or_text) -> PokerSpec:
    """Read a poker description (TOML, module docstring) as a :class:`PokerSpec`."""
    import tomllib

    text, src = _read_text(path_or_text, "poker description (TOML)")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GutsInputError(f"{src}: not valid TOML ({exc}); accepted: a TOML poker description") from None
    except RecursionError:
        raise GutsInputError(f"{src}: arrays or inline tables nested too deeply; accepted: nesting at most "
                             f"{MAX_TOML_DEPTH} deep") from None
    except ValueError as exc:       # e.g. an integer of more digits than Python converts
        raise GutsInputError(f"{src}: not a readable TOML value ({exc}); accepted: a TOML poker description") from None
    _check_toml_values(doc, src)
    for where, got, known in (("", doc, _TOML_TOP), ("[deck] ", doc.get("deck", {}), _TOML_DECK)):
        if not isinstance(got, dict):
            raise GutsInputError(f"{src}: {where or 'the file'} must be a table; accepted: see docs/your_own_game.md")
        extra = set(got) - known
        if extra:
            raise GutsInputError(f"{src}: unknown key {where}{sorted(extra)[0]!r}; accepted: {', '.join(sorted(known))}")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, dict) for r in rounds):
        raise GutsInputError(f"{src}: no [[rounds]]; accepted: one [[rounds]] table per betting round")
    hole = rounds[0].get("hole_cards", 1)
    out = []
    for i, r in enumerate(rounds):
        extra = set(r) - _TOML_ROUND
        if extra:
            raise GutsInputError(f"{src}: unknown key {sorted(extra)[0]!r} in round {i + 1}; accepted: "
                                 + ", ".join(sorted(_TOML_ROUND)))
        if i and r.get("hole_cards", 0):
            raise GutsInputError(f"{src}: round {i + 1} deals hole cards; accepted: hole cards in the first round only")
        bets = r.get("bets", ())
        if not isinstance(bets, list | tuple):
            bets = (bets,)
        out.append(PokerRound(board_cards=r.get("board_cards", 0), raise_size=r.get("raise_size", 1.0),
                              max_raises=r.get("max_raises", 1), first_player=r.get("first_player", 0),
                              ante=r.get("ante", 0.0), bets=tuple(bets), check=r.get("check", False),
                              # a round with bets (or check) has one orbit unless told
                              orbits=r.get("orbits", 1 if (bets or r.get("check")) else 0)))
    deck = doc.get("deck", {})
    players = doc.get("players", 2)
    betting = doc.get("betting", "limit")
    return PokerSpec(num_players=players, ranks=deck.get("ranks", 13), suits=deck.get("suits", 4),
                     hole_cards=hole, rounds=tuple(out), blinds=tuple(doc.get("blinds", ())),
                     antes=tuple(doc.get("antes", ())), name=str(doc.get("name", "")), source=src,
                     copies=deck.get("copies", 1), betting=betting,
                     evaluator=doc.get("evaluator", "mercer" if betting == "fixed" else "acpc"))


def _check_toml_values(doc, src):
    """Refuse nesting deeper than :data:`MAX_TOML_DEPTH` and numbers that are not finite or
    beyond :data:`~guts.engine.tolerances.MAX_PAYOFF_MAGNITUDE` (by key, iteratively)."""
    stack = [((), doc)]
    while stack:
        path, v = stack.pop()
        where = ".".join(map(str, path)) or "the file"
        if len(path) > MAX_TOML_DEPTH:
            raise GutsInputError(f"{src}: {where} is nested {len(path)} deep; accepted: nesting at most "
                                 f"{MAX_TOML_DEPTH} deep")
        if isinstance(v, dict):
            stack.extend((path + (k,), x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((path + (i,), x) for i, x in enumerate(v))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            if not math.isfinite(v) or abs(v) > MAX_PAYOFF_MAGNITUDE:
                shown = f"{v:g}" if isinstance(v, float) else (str(v) if abs(v) < 10**40 else f"an integer of "
                                                                f"{len(str(abs(v)))} digits")
                raise GutsInputError(f"{src}: {where} = {shown} is out of range; accepted: finite numbers with "
                                     f"|value| <= {MAX_PAYOFF_MAGNITUDE:g}")
