"""Gambit's ``.efg`` extensive-form format in and out: :func:`read_efg`, :func:`write_efg`.

The format is Gambit's (McKelvey, McLennan and Turocy, *Gambit: Software Tools for Game
Theory*; "The .efg file format" of its documentation), also read by OpenSpiel's
``efg_game``::

    EFG 2 R "title" { "Player 1" "Player 2" } "optional comment"
    c "node" 1 "infoset" { "H" 1/2 "T" 1/2 } 0
    p "node" 1 1 "infoset" { "a" "b" } 0
    t "node" 1 "outcome" { 1 -1 }

Nodes are listed in depth-first order: ``c`` chance (information set number, name,
actions with probabilities, outcome), ``p`` personal (player 1..n, information set
number of that player, name, actions, outcome), ``t`` terminal (outcome number, name,
payoffs).  The action list and the payoffs may be omitted where the information set or
the outcome was defined before; outcome 0 means none.  Outcomes at non-terminal nodes
add to the payoffs of every terminal below (the engine keeps payoffs at terminals, so
:func:`write_efg` writes them there: the same game).  Probabilities and payoffs may be
decimals or rationals ``p/q``.

Reading gives an :class:`~.explicit.ExplicitGame` whose information-set keys (the keys of
``strategies[p]``) are the information-set names when every name is non-empty and
unique, else ``"P<player>:<number>"``; players are numbered from 0 in the engine (``p``
is Gambit's player ``p + 1``).  Writing accepts an explicit game or a public tree (the
deal becomes the root chance node and an information set is (public history, type)).
"""
from __future__ import annotations

import os
import re
import unicodedata
from fractions import Fraction

import numpy as np

from .._textfile import line_col, parse_number, read_text_file
from ...errors import GutsInputError
from ..tolerances import MAX_PAYOFF_MAGNITUDE
from .explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal
from .tree import Chance, Decision, PublicTreeGame, Terminal, _GameBase

__all__ = ["read_efg", "write_efg", "efg_text", "efg_label", "MAX_EFG_BYTES", "MAX_EFG_DEPTH", "MAX_EFG_PLAYERS"]

#: Largest ``.efg`` file (or text) read: at most this many bytes are ever read from a file.
MAX_EFG_BYTES = 64 * 2**20
#: Deepest tree read (nodes on one path from the root).  The reader is iterative, but the
#: engine keeps every node's history (its path), so a chain of depth d costs d**2 / 2 entries:
#: 2000 deep, about 16 MB.
MAX_EFG_DEPTH = 2000
#: Most digits of an integer field (outcome, information-set and player numbers).
MAX_EFG_INT_DIGITS = 18
#: Most players read (as the poker descriptions' ``MAX_PLAYERS``): the solvers' kernels are
#: compiled per number of players, and a compilation for hundreds of players never ends in practice.
MAX_EFG_PLAYERS = 10

_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([{},])|([^\s{},"]+))', re.S)


def _tokens(text, where=None):
    pos, out = 0, []
    where = [] if where is None else where
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise GutsInputError(f".efg: cannot read text at character {pos}: {text[pos:pos + 30]!r}")
        if m.end() == pos:
            break
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        pos = m.end()
        if m.group(2) != ",":
            where.append(start)
        if m.group(1) is not None:
            out.append(("s", m.group(1).replace('\\"', '"')))
        elif m.group(2) is not None:
            if m.group(2) != ",":
                out.append(("b", m.group(2)))
        elif m.group(3) is not None:
            out.append(("w", m.group(3)))
    return out


def _number(tok, what, max_abs=MAX_PAYOFF_MAGNITUDE):
    """A decimal or ``p/q`` token as a float, its text checked first (:func:`guts.engine._textfile.parse_number`:
    length, exponent, ``|value| <= max_abs``)."""
    kind, val = tok
    if kind != "w":
        raise GutsInputError(f".efg: expected a number for {what}; got {val!r}")
    return float(parse_number(val, f".efg: {what}", max_abs=max_abs))


class _Reader:
    #: index of the last token read (for the line number of an error)
    last = None

    def __init__(self, toks):
        self.toks, self.i = toks, 0
        _Reader.last = None

    def next(self, what):
        if self.i >= len(self.toks):
            _Reader.last = len(self.toks) - 1 if self.toks else None
            raise GutsInputError(f".efg: file ends early (expected {what})")
        t = self.toks[self.i]
        _Reader.last = self.i
        self.i += 1
        return t

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def string(self, what):
        kind, val = self.next(what)
        if kind != "s":
            raise GutsInputError(f".efg: expected a quoted string for {what}; got {val!r}")
        return val

    def int(self, what, lo=0):
        kind, val = self.next(what)
        try:
            v = int(val) if len(str(val)) <= MAX_EFG_INT_DIGITS else None
        except (TypeError, ValueError):
            v = None
        if kind != "w" or v is None or v < lo:
            shown = val if len(str(val)) <= 40 else f"{str(val)[:20]}... ({len(str(val))} characters)"
            raise GutsInputError(f".efg: {what} must be an integer >= {lo} of at most {MAX_EFG_INT_DIGITS} "
                                 f"digits; got {shown!r}")
        return v

    def brace(self, what):
        kind, val = self.next(what)
        if (kind, val) != ("b", "{"):
            raise GutsInputError(f".efg: expected '{{' for {what}; got {val!r}")

    def closes(self):
        if self.peek() == ("b", "}"):
            self.i += 1
            return True
        return False


def read_efg(path_or_text):
    """Read a Gambit ``.efg`` game (a path, or the text itself) as an ``ExplicitGame``.

    Raises
    ------
    GutsInputError
        Malformed file (naming what was expected and where), a probability or payoff that
        is not a number, an information set used with different actions, an unknown
        outcome, or a game the engine rejects (imperfect recall, probabilities not summing
        to one).
    """
    if not isinstance(path_or_text, (str, os.PathLike)):
        raise GutsInputError(f".efg: got {type(path_or_text).__name__} {path_or_text!r:.40}; accepted: the path of "
                             "a Gambit .efg file or its text (a str)")
    text = str(path_or_text)
    # text if it looks like one (a header, braces or several lines), else a path
    if not (text.lstrip().startswith("EFG") or "{" in text or "\n" in text):
        try:
            text = read_text_file(path_or_text, "Gambit .efg", MAX_EFG_BYTES)
        except GutsInputError as exc:
            raise GutsInputError(f".efg: {exc}") from None
    elif len(text) > MAX_EFG_BYTES:
        raise GutsInputError(f".efg: the text has {len(text)} characters; accepted: at most {MAX_EFG_BYTES}")
    source = "the .efg text" if text is path_or_text or "\n" in str(path_or_text) else repr(os.fspath(path_or_text))
    where = []
    try:
        return _read(text, where)
    except GutsInputError as exc:
        # name the line and column (of the token being read) and the accepted format, once
        msg = str(exc)
        at = where[_Reader.last] if where and _Reader.last is not None and _Reader.last < len(where) else None
        pos = "" if at is None else ", line {}, column {}".format(*line_col(text, at))
        if "; accepted:" not in msg:
            msg += "; accepted: Gambit's .efg format (header EFG 2 R, then c/p/t nodes in depth-first order)"
        raise GutsInputError(f"{source}{pos}: {msg}") from None
    except RecursionError:      # pragma: no cover - the reader and the engine's passes are iterative
        raise GutsInputError(f"{source}: the game tree is nested too deeply for this Python; accepted: trees "
                             f"at most {MAX_EFG_DEPTH} nodes deep") from None


def _read(text, where):
    r = _Reader(_tokens(text, where))
    head = r.next("EFG")
    if head != ("w", "EFG"):
        raise GutsInputError(f".efg: the file must start with 'EFG 2 R'; got {head[1]!r}")
    ver, kind = r.next("version"), r.next("R")
    if ver[1] != "2" or kind[1] not in ("R", "D"):
        raise GutsInputError(f".efg: header must be 'EFG 2 R'; got 'EFG {ver[1]} {kind[1]}'")
    title = r.string("the title")
    r.brace("the player list")
    players = []
    while not r.closes():
        players.append(r.string("a player name"))
        if len(players) > MAX_EFG_PLAYERS:
            raise GutsInputError(f".efg: the player list has more than {MAX_EFG_PLAYERS} players; accepted: "
                                 f"1..{MAX_EFG_PLAYERS} players")
    n = len(players)
    if n < 1:
        raise GutsInputError(".efg: the player list is empty; accepted: at least one player")
    comment = r.string("the comment") if r.peek()[0] == "s" else ""
    outcomes = {}                    # number -> payoffs
    chance_sets = {}                 # number -> (labels, probs)
    personal_sets = {}               # (player, number) -> (name, labels)
    info_names = {}

    def outcome(what):
        num = r.int(f"the outcome number of {what}")
        name = ""
        pay = None
        if r.peek()[0] == "s":
            name = r.string("the outcome name")
            if r.peek() == ("b", "{"):
                r.brace("the payoffs")
                vals = []
                while not r.closes():
                    vals.append(_number(r.next("a payoff"), f"a payoff of outcome {num} ({what})"))
                if len(vals) != n:
                    raise GutsInputError(
                        f".efg: outcome {num} ({what}) has {len(vals)} payoffs; accepted: one per player ({n})")
                pay = np.array(vals)
                if num:
                    outcomes[num] = pay
        if num == 0:
            return np.zeros(n), name
        if pay is None:
            if num not in outcomes:
                raise GutsInputError(f".efg: outcome {num} at {what} is used before its payoffs are given")
            pay = outcomes[num]
        return pay, name

    decisions = []                   # every decision node, its key set once the names are known

    def node_head(acc):
        """Read one node up to its children: a finished terminal, or an open frame
        ``[kind, player, labels, probs, acc, children]`` whose children come next."""
        kind, val = r.next("a node ('c', 'p' or 't')")
        if kind != "w" or val not in ("c", "p", "t"):
            raise GutsInputError(f".efg: expected a node type 'c', 'p' or 't'; got {val!r}")
        r.string("the node name")
        if val == "t":
            pay, _ = outcome("a terminal node")
            total = acc + pay          # with the outcomes of the nodes above
            if np.abs(total).max() > MAX_PAYOFF_MAGNITUDE:
                raise GutsInputError(f".efg: a terminal's payoffs with the outcomes above it sum to "
                                     f"{np.abs(total).max():g} in magnitude; accepted: |payoff| <= "
                                     f"{MAX_PAYOFF_MAGNITUDE:g}")
            return ExplicitTerminal(total)
        pl = None
        if val == "p":
            pl = r.int("the player of a personal node", 1)
            if pl > n:
                raise GutsInputError(f".efg: player {pl} out of range; accepted: 1..{n}")
        num = r.int("the information set number", 1)
        iname = r.string("the information set name") if r.peek()[0] == "s" else ""
        labels, probs = [], []
        if r.peek() == ("b", "{"):
            r.brace("the action list")
            while not r.closes():
                labels.append(r.string("an action name"))
                if val == "c":
                    probs.append(_number(r.next("a probability"), f"the probability of chance action {labels[-1]!r}",
                                         max_abs=1))
        if val == "c":
            if labels:
                chance_sets[num] = (labels, probs)
            elif num in chance_sets:
                labels, probs = chance_sets[num]
            else:
                raise GutsInputError(f".efg: chance information set {num} has no actions")
        else:
            key = (pl, num)
            if labels:
                if key in personal_sets and personal_sets[key][1] != labels:
                    raise GutsInputError(
                        f".efg: information set {num} of player {pl} has actions {labels} and "
                        f"{personal_sets[key][1]}")
                personal_sets.setdefault(key, (iname, labels))
            elif key in personal_sets:
                labels = personal_sets[key][1]
            else:
                raise GutsInputError(f".efg: information set {num} of player {pl} has no actions")
            if iname:
                info_names.setdefault(key, iname)
        if len(set(labels)) != len(labels):
            # Gambit allows repeated action names (e.g. chance actions all named "1/2");
            # the engine keys actions by name, so repeats get "#k" (k = position from 1)
            labels = [lab if labels.count(lab) == 1 else f"{lab}#{k + 1}" for k, lab in enumerate(labels)]
        pay, _ = outcome("a non-terminal node")
        return [val, (pl, num), labels, probs, acc + pay, []]

    def close(frame):
        val, key, labels, probs, _, children = frame
        if val == "c":
            return ExplicitChance({lab: (pr, ch) for lab, pr, ch in zip(labels, probs, children)})
        d = ExplicitDecision(key[0] - 1, key, dict(zip(labels, children)))
        decisions.append(d)
        return d

    # depth-first, with an explicit stack of open nodes (no recursion: a deep chain of
    # decisions cannot exhaust Python's stack)
    stack, acc, raw = [], np.zeros(n), None
    while raw is None:
        if len(stack) >= MAX_EFG_DEPTH:
            raise GutsInputError(f".efg: the tree is deeper than {MAX_EFG_DEPTH} nodes; accepted: trees at most "
                                 f"{MAX_EFG_DEPTH} nodes deep")
        got = node_head(acc)
        if isinstance(got, list):
            stack.append(got)
            acc = got[4]
            continue
        while True:             # a finished node: hand it to its parent, close the finished parents
            if not stack:
                raw = got
                break
            top = stack[-1]
            top[5].append(got)
            if len(top[5]) < len(top[2]):
                acc = top[4]
                break
            got = close(stack.pop())
    if r.i != len(r.toks):
        raise GutsInputError(f".efg: unexpected text after the tree: {r.toks[r.i][1]!r}")
    names = [info_names.get(k, "") for k in personal_sets]
    use_names = all(names) and len(set(names)) == len(names)
    for d in decisions:
        pl, num = d.infoset
        d.infoset = info_names[(pl, num)] if use_names else f"P{pl}:{num}"

    _Reader.last = None             # errors from here on concern the whole game, not a line
    try:
        g = ExplicitGame(raw, n, name=title)
    except GutsInputError as exc:
        raise GutsInputError(f"{exc}; accepted: a finite game with perfect recall whose chance "
                             "probabilities sum to one") from None
    g.efg_players = tuple(players)
    g.efg_comment = comment
    return g


def efg_label(s) -> str:
    """``s`` as a label Gambit accepts: printable ASCII, single inner spaces, none at either end.

    Gambit's reader (The Gambit Project, *Gambit: software tools for game theory*, version
    16) refuses any other label.  Accents are dropped (NFKD, ``"é"`` -> ``"e"``), other
    non-ASCII characters are written ``<U+XXXX>``, every run of whitespace (newlines, tabs)
    becomes one space, backslashes become ``/`` (Gambit does not read them back as
    written); double quotes stay (:func:`efg_text` escapes them as ``\\"``).
    """
    out = []
    for ch in unicodedata.normalize("NFKD", str(s)):
        if unicodedata.combining(ch):
            continue
        if ch.isspace():
            out.append(" ")
        elif ch == "\\":
            out.append("/")
        elif " " < ch <= "~":
            out.append(ch)
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return " ".join("".join(out).split())


def _q(s) -> str:
    return '"' + efg_label(s).replace('"', '\\"') + '"'


def _unique(labels) -> list:
    """Sanitised labels of one node, repeats (after sanitising) numbered ``#k`` by position."""
    labs = [efg_label(lab) for lab in labels]
    return [lab if labs.count(lab) == 1 else f"{lab} #{k + 1}".lstrip() for k, lab in enumerate(labs)]


def _num(x: float) -> str:
    """Shortest exact text: an integer, a small rational p/q equal to x in floating point,
    else repr (which reads back to the same double)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    f = Fraction(x).limit_denominator(10_000)
    if float(f) == x:
        return f"{f.numerator}/{f.denominator}"
    return repr(x)


def _nice(x: float) -> Fraction:
    f = Fraction(float(x)).limit_denominator(1_000_000)
    return f if abs(float(f) - float(x)) <= 4e-16 * max(1.0, abs(float(x))) else Fraction(float(x))


def _probs(values) -> list:
    """Chance probabilities as text summing to exactly one (Gambit checks the sum in exact
    arithmetic): small rationals when they sum to one (1/3, 1/6: products of float
    probabilities are off by an ulp), else exact binary fractions with the last one
    ``1 - sum(others)``."""
    fr = [_nice(v) for v in values]
    if sum(fr) != 1:
        fr = [Fraction(float(v)) for v in values[:-1]]
        fr.append(1 - sum(fr))
    return [str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}" for f in fr]


def efg_text(game) -> str:
    """The ``.efg`` text of an engine game (see :func:`write_efg`)."""
    if not isinstance(game, _GameBase):
        raise GutsInputError(f"game must be an ExplicitGame or a PublicTreeGame; got {type(game).__name__}")
    n = game.num_players
    players = getattr(game, "efg_players", None) or tuple(f"Player {p + 1}" for p in range(n))
    lines = [f"EFG 2 R {_q(game.name)} {{ {' '.join(_q(p) for p in players)} }}",
             _q(getattr(game, "efg_comment", "")), ""]
    infosets = [dict() for _ in range(n)]    # key -> number
    chance_no = [0]
    outcome_no = [0]

    def info_number(p, key):
        d = infosets[p]
        if key in d:
            return d[key], False
        d[key] = len(d) + 1
        return d[key], True

    def terminal(payoffs, ind):
        outcome_no[0] += 1
        lines.append(f'{ind}t "" {outcome_no[0]} "" {{ {" ".join(_num(v) for v in payoffs)} }}')

    if isinstance(game, ExplicitGame):
        stack = [(game.root, 0)]
        while stack:
            nd, depth = stack.pop()
            ind = "  " * depth
            if isinstance(nd, ExplicitTerminal):
                terminal(nd.payoffs, ind)
            elif isinstance(nd, ExplicitChance):
                chance_no[0] += 1
                acts = " ".join(f"{_q(lab)} {pr}" for lab, pr in
                                zip(_unique(nd.outcomes), _probs([float(pr) for pr, _ in nd.outcomes.values()])))
                lines.append(f'{ind}c "" {chance_no[0]} "" {{ {acts} }} 0')
                stack.extend((c, depth + 1) for _, c in reversed(list(nd.outcomes.values())))
            else:
                num, new = info_number(nd.player, nd.infoset)
                acts = " ".join(_q(lab) for lab in _unique(nd.actions))
                lines.append(f'{ind}p "" {nd.player + 1} {num} {_q(nd.infoset)} {{ {acts} }} 0')
                stack.extend((c, depth + 1) for c in reversed(list(nd.actions.values())))
    elif isinstance(game, PublicTreeGame):
        deals = game.deals
        D = deals.num_deals
        labels = deals.type_labels
        chance_no[0] += 1
        dp = _probs(list(deals.prob))
        dl = " ".join(f"{_q('deal ' + '|'.join(str(labels[p][deals.info[p, d]]) for p in range(n)) + f' #{d}')} "
                      f"{dp[d]}" for d in range(D))
        lines.append(f'c "deal" {chance_no[0]} "deal" {{ {dl} }} 0')
        for d in range(D):
            stack = [(game.root, (), 1)]
            while stack:
                nd, hist, depth = stack.pop()
                ind = "  " * depth
                if isinstance(nd, Terminal):
                    terminal(nd.payoff(D)[:, d] if nd.table is not None else nd.offset, ind)
                elif isinstance(nd, Chance):
                    chance_no[0] += 1
                    acts = " ".join(f"{_q(lab)} {pr}" for lab, pr in zip(_unique(nd.outcomes), _probs(
                        [float(pr if np.ndim(pr) == 0 else pr[d]) for pr, _ in nd.outcomes.values()])))
                    lines.append(f'{ind}c "" {chance_no[0]} "" {{ {acts} }} 0')
                    stack.extend((c, hist + (lab,), depth + 1) for lab, (_, c) in reversed(list(nd.outcomes.items())))
                elif isinstance(nd, Decision):
                    p = nd.player
                    key = f"{'/'.join(map(str, hist))}|{labels[p][deals.info[p, d]]}"
                    num, _ = info_number(p, key)
                    acts = " ".join(_q(lab) for lab in _unique(nd.actions))
                    lines.append(f'{ind}p "" {p + 1} {num} {_q(key)} {{ {acts} }} 0')
                    stack.extend((c, hist + (lab,), depth + 1) for lab, c in reversed(list(nd.actions.items())))
                else:
                    raise GutsInputError(f"public tree node at {hist} is a {type(nd).__name__}")
    return "\n".join(lines) + "\n"


def write_efg(game, path) -> str:
    """Write ``game`` as a Gambit ``.efg`` file (atomically: temporary file, then rename).

    Explicit games keep their information-set keys as information-set names; a public
    tree is expanded: the root chance node deals (one action per deal, named by the
    players' type labels), and player p's information set at public history h with type
    t is named ``"h|t"``.  Every label is made one Gambit accepts (:func:`efg_label`:
    printable ASCII, single spaces, none at the ends; repeats within a node after that are
    numbered), so that Gambit opens every file written; information sets are numbered,
    so the game read back (by :func:`read_efg` or Gambit) is the same game, only its
    labels may differ.  Returns the path written.
    """
    text = efg_text(game)
    path = os.fspath(path)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)
    return path
