"""A one-round two-player betting game on uniform [0, 1] hands, described as data.

Hundal and Reitzen, US patent 6,129,631 starts its method (FIG. 9, steps 910-915; FIG. 31, steps
3105-3110) from two hand-made tables: each player's *action sequences* and the *outcome*
of every pair of sequences (Tables 8, 10, 11).  Here both are derived from a short
description of the rules, :class:`BettingRules`, so that the printed tables become
checks instead of inputs.

Conventions (the patent's): each player antes ``P/2`` (pot ``P``), hands are i.i.d.
uniform on [0, 1], the higher hand wins a showdown.  A *return* is a player's net gain
for the game (what he takes from the pot minus everything he put in, ante included), so
the game is zero-sum and the patent's "P1 wins P/2" means P1's return is ``+P/2``.

Action labels follow the patent's words: ``pass`` (= check), ``bet``, ``fold``, ``call``,
``raise`` (the first raise of the round), ``reraise`` (the second), ``raise3``, ...
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import sympy as sp

from guts._validate import check_choice, check_int
from guts.errors import GutsInputError

__all__ = [
    "P",
    "BettingRules",
    "DecisionNode",
    "TerminalNode",
    "Plan",
    "GameStructure",
    "derive",
    "pot_growth",
]

#: The pot (total ante) as a sympy symbol; every amount is a polynomial in it.
P = sp.Symbol("P", positive=True)

PLAYER_NAMES = ("P1", "P2")
BETTING = ("limit", "pot")


@dataclass(frozen=True)
class BettingRules:
    """The rules of a one-round, two-player betting game on uniform [0, 1] hands.

    Parameters
    ----------
    name : str
        A label for reports.
    first : int
        Seat that acts first (0 = P1, the patent's convention; 1 = P2).
    bet_after_check : bool
        If the first player passes, may the second bet?  ``False`` is FIG. 6 ("If P1
        passes, there is an immediate showdown"); ``True`` is FIGS. 10 and 23.
    raise_cap : int
        Raises allowed after the opening bet (0: no raising, FIGS. 6 and 27; 2: one
        raise by each player, FIGS. 10 and 23).
    check_raise : bool
        May a player who passed raise later in the round (FIG. 23: yes; FIG. 10: no)?
    betting : {"limit", "pot"}
        ``"limit"``: every bet and raise is ``bet_unit`` (the patent's limit games, one
        unit); ``"pot"``: pot limit at its maximum, a bet equals the pot and a raise is
        the call plus the pot after the call (column 2 of Tables 3 and 4).
    bet_unit : int or str
        The limit bet (exact: an int or a fraction string such as ``"1/2"``).
    """

    name: str = ""
    first: int = 0
    bet_after_check: bool = True
    raise_cap: int = 0
    check_raise: bool = False
    betting: str = "limit"
    bet_unit: object = 1

    def __post_init__(self):
        check_int("first", self.first, 0, 1)
        check_int("raise_cap", self.raise_cap, 0, 6)
        check_choice("betting", self.betting, BETTING)
        for flag in ("bet_after_check", "check_raise"):
            if not isinstance(getattr(self, flag), bool):
                raise GutsInputError(f"{flag} must be True or False; got {getattr(self, flag)!r}")
        try:
            unit = sp.Rational(str(self.bet_unit))
        except (TypeError, ValueError, sp.SympifyError):
            raise GutsInputError(f"bet_unit must be a positive number; got {self.bet_unit!r}") from None
        if not unit > 0:
            raise GutsInputError(f"bet_unit must be a positive number; got {self.bet_unit!r}")

    @property
    def unit(self) -> sp.Rational:
        return sp.Rational(str(self.bet_unit))


@dataclass(frozen=True)
class TerminalNode:
    """A resolution of the round (the patent's "resolution step").

    ``contrib`` are the chips each player put in (ante included); ``folder`` is the seat
    that folded, or ``None`` for a showdown.
    """

    history: tuple
    contrib: tuple
    folder: int | None

    @property
    def showdown(self) -> bool:
        return self.folder is None

    def sequence(self, player: int) -> tuple:
        """The player's own actions on the path to this terminal (Table 10's columns)."""
        return tuple(a for p, a in self.history if p == player)

    def amount(self) -> sp.Expr:
        """What the winner nets: the loser's contribution (equal to the winner's at a showdown)."""
        if self.folder is None:
            return self.contrib[0]
        return self.contrib[self.folder]

    def return_to(self, player: int, winner: int) -> sp.Expr:
        """Return to ``player`` when ``winner`` takes the pot."""
        c = self.contrib
        return sp.expand(c[0] + c[1] - c[player] if winner == player else -c[player])

    def outcome_text(self) -> str:
        """The patent's wording: ``"P2 wins P/2 + 1"`` or ``"High hand wins P/2 + 3"``."""
        amt = _fmt(self.amount())
        if self.folder is None:
            return f"High hand wins {amt}"
        return f"{PLAYER_NAMES[1 - self.folder]} wins {amt}"


@dataclass(frozen=True)
class DecisionNode:
    """A public decision: ``player`` chooses one of ``actions`` (label -> child)."""

    history: tuple
    player: int
    actions: dict = field(hash=False, compare=False)


@dataclass(frozen=True)
class Plan:
    """A reduced pure strategy of one player inside one *component*.

    A component is a decision node of the player with no earlier decision of his own on
    its path (P1: the root; P2: after "pass" and after "bet").  A plan fixes the action
    at every own decision node it can reach; its name joins those actions in order, e.g.
    ``"bet-reraise"`` (the patent's "action sequence" of FIG. 12).
    """

    player: int
    component: tuple
    name: str
    choices: tuple  # ((history, action), ...) sorted by history

    def action_at(self, history: tuple):
        for h, a in self.choices:
            if h == history:
                return a
        return None


def _fmt(expr) -> str:
    """``P/2 + 1`` style text for an amount."""
    expr = sp.expand(expr)
    coeff = expr.coeff(P)
    const = expr - coeff * P
    parts = []
    if coeff != 0:
        if coeff == sp.Rational(1, 2):
            parts.append("P/2")
        elif coeff == 1:
            parts.append("P")
        elif coeff.q == 1:
            parts.append(f"{coeff}P")
        else:
            parts.append(f"{coeff.p}P/{coeff.q}")
    if const != 0 or not parts:
        parts.append(str(const))
    return " + ".join(parts)


def _raise_label(k: int) -> str:
    return "raise" if k == 1 else ("reraise" if k == 2 else f"raise{k}")


def _bet_amount(rules: BettingRules, contrib, player: int):
    """Chips ``player`` adds to bet or raise (to-call plus the raise)."""
    to_call = max(contrib) - contrib[player]
    if rules.betting == "limit":
        return to_call + rules.unit
    pot = contrib[0] + contrib[1]
    return to_call + (pot + to_call)


def pot_growth(start_contrib, steps, betting: str = "limit", unit=1):
    """Pot after each step of a betting sequence, any number of players (Tables 3 and 4).

    ``steps`` is a list of ``(seat, action)`` with action in ``ante``-less words: ``bet``,
    ``raise``, ``call``, ``check``/``pass``, ``fold``.  Used to check the bet-size rule
    against the patent's Tables 3 and 4 (pot-limit column: a bet is the pot, a raise is
    the call plus the pot after the call).
    """
    check_choice("betting", betting, BETTING)
    c = [sp.Rational(str(x)) for x in start_contrib]
    unit = sp.Rational(str(unit))
    pots = []
    for seat, action in steps:
        to_call = max(c) - c[seat]
        if action in ("bet", "raise", "reraise"):
            add = to_call + (unit if betting == "limit" else sum(c) + to_call)
        elif action == "call":
            add = to_call
        elif action in ("check", "pass", "fold"):
            add = 0
        else:
            raise GutsInputError(f"unknown action {action!r}; accepted: bet, raise, call, check, pass, fold")
        c[seat] += add
        pots.append(sum(c))
    return pots


class GameStructure:
    """Everything the dividing-point method needs from the rules (FIG. 31 inputs 3105-3110).

    Attributes
    ----------
    rules : BettingRules
    root : DecisionNode
    terminals : list of TerminalNode
    components : tuple of two tuples of histories (each player's first decision nodes)
    plans : dict (player, component) -> tuple of Plan
    """

    def __init__(self, rules: BettingRules):
        self.rules = rules
        self.terminals: list[TerminalNode] = []
        self.decisions: dict[tuple, DecisionNode] = {}
        half = P / 2
        self.root = self._build((), [half, half], rules.first, 0, False, [False, False], None)
        comps = ([], [])
        for h, node in self.decisions.items():
            if not any(p == node.player for p, _ in h):
                comps[node.player].append(h)
        self.components = tuple(tuple(sorted(c, key=_hkey)) for c in comps)
        self.plans = {}
        for p in (0, 1):
            for comp in self.components[p]:
                self.plans[(p, comp)] = tuple(self._enumerate_plans(p, comp))

    # ----------------------------------------------------------------- tree
    def _build(self, history, contrib, to_act, raises, bet_open, checked, last_aggr):
        r = self.rules
        other = 1 - to_act
        acts = {}
        if not bet_open:
            # pass: showdown if both passed, or if the opener passed and the other may not bet
            n_passes = sum(1 for _, a in history if a == "pass")
            if n_passes == 1 or not r.bet_after_check:
                acts["pass"] = self._terminal(history + ((to_act, "pass"),), contrib, None)
            else:
                ch = list(checked)
                ch[to_act] = True
                acts["pass"] = self._build(history + ((to_act, "pass"),), contrib, other, 0, False, ch, None)
            c = list(contrib)
            c[to_act] = c[to_act] + _bet_amount(r, contrib, to_act)
            acts["bet"] = self._build(history + ((to_act, "bet"),), c, other, 0, True, checked, to_act)
        else:
            acts["fold"] = self._terminal(history + ((to_act, "fold"),), contrib, to_act)
            c = list(contrib)
            c[to_act] = max(contrib)
            acts["call"] = self._terminal(history + ((to_act, "call"),), c, None)
            if raises < r.raise_cap and (r.check_raise or not checked[to_act]):
                c = list(contrib)
                c[to_act] = c[to_act] + _bet_amount(r, contrib, to_act)
                lab = _raise_label(raises + 1)
                acts[lab] = self._build(history + ((to_act, lab),), c, other, raises + 1, True, checked, to_act)
        node = DecisionNode(history=history, player=to_act, actions=acts)
        self.decisions[history] = node
        return node

    def _terminal(self, history, contrib, folder):
        t = TerminalNode(history=history, contrib=tuple(sp.expand(x) for x in contrib), folder=folder)
        self.terminals.append(t)
        return t

    # ---------------------------------------------------------------- plans
    def _own_next(self, player, node):
        """Own decision nodes reachable from ``node`` through the opponent's moves only."""
        if isinstance(node, TerminalNode):
            return []
        if node.player == player:
            return [node]
        out = []
        for child in node.actions.values():
            out.extend(self._own_next(player, child))
        return out

    def _enumerate_plans(self, player, comp):
        def expand(nodes):
            # all joint choices at a list of own nodes (each followed recursively)
            if not nodes:
                return [()]
            first, rest = nodes[0], nodes[1:]
            out = []
            for a, child in first.actions.items():
                for sub in expand(self._own_next(player, child)):
                    for tail in expand(rest):
                        out.append(((first.history, a),) + sub + tail)
            return out

        plans = []
        for choices in expand([self.decisions[comp]]):
            choices = tuple(sorted(choices, key=lambda t: _hkey(t[0])))
            name = "-".join(a for _, a in choices)
            plans.append(Plan(player=player, component=comp, name=name, choices=choices))
        names = [p.name for p in plans]
        if len(set(names)) != len(names):  # pragma: no cover - not in one-round heads-up games
            raise GutsInputError(f"plan names are ambiguous for {PLAYER_NAMES[player]} at {comp}: {names}")
        return plans

    def plan(self, player: int, component: tuple, name: str) -> Plan:
        for pl in self.plans.get((player, component), ()):
            if pl.name == name:
                return pl
        known = [pl.name for pl in self.plans.get((player, component), ())]
        raise GutsInputError(
            f"{PLAYER_NAMES[player]} has no plan {name!r} at {label(component)}; accepted: {', '.join(known)}"
        )

    def component(self, player: int, key) -> tuple:
        """A component from its history or its label (``"root"``, ``"bet"``, ``"pass"``...)."""
        for comp in self.components[player]:
            if comp == key or label(comp) == key:
                return comp
        known = [label(c) for c in self.components[player]]
        raise GutsInputError(
            f"{PLAYER_NAMES[player]} first acts at {', '.join(known)}; got component {key!r}"
        )

    def play(self, plan_a: Plan, plan_b: Plan):
        """The terminal reached when P1 follows ``plan_a`` and P2 ``plan_b``; ``None`` if the
        path leaves either plan's component (the pair never meets)."""
        plans = {plan_a.player: plan_a, plan_b.player: plan_b}
        node = self.root
        while isinstance(node, DecisionNode):
            a = plans[node.player].action_at(node.history)
            if a is None:
                return None
            node = node.actions[a]
        return node

    @cached_property
    def outcome_table(self):
        """Rows (P1 sequence, P2 sequence, outcome text, terminal): Tables 10 and 11."""
        rows = []
        for t in self.terminals:
            rows.append(("-".join(t.sequence(0)), "-".join(t.sequence(1)), t.outcome_text(), t))
        return rows


def _hkey(h):
    return (len(h), h)


def component_reached(structure: GameStructure, plan: Plan, other: int):
    """The component (first decision node) of player ``other`` that ``plan`` leads to, or
    ``None`` when the plan ends the round before ``other`` acts."""
    node = structure.root
    while not isinstance(node, TerminalNode):
        if node.player == other:
            return node.history
        node = node.actions[plan.action_at(node.history)]
    return None


def label(history: tuple) -> str:
    """``"root"`` or the actions joined by ``-`` (e.g. ``"pass-bet"``)."""
    return "root" if not history else "-".join(a for _, a in history)


def derive(rules: BettingRules) -> GameStructure:
    """Derive the action sequences, plans and outcome table from ``rules``."""
    if not isinstance(rules, BettingRules):
        raise GutsInputError(f"rules must be a BettingRules; got {type(rules).__name__}")
    return GameStructure(rules)
