"""Pooled payoffs and shared information for a team of seats (collusion, Ullman 2015 §5).

``pool(game, team, rule, share_information)`` returns a new game with the same public
tree in which

* the team's payoffs are pooled: with ``rule="sum"`` every member receives the team's
  total payoff (a general-sum game: each member maximises the team's total), with
  ``rule="split"`` every member receives the total divided by the team size (the sum
  over all players is unchanged, so a zero-sum game stays zero-sum);
* with ``share_information=True`` each member's information type becomes the joint of
  the team members' types (they see each other's hands); the public tree and the
  players' decisions are unchanged.

Payoff tables stay shared: each distinct table is transformed once.

The members stay separate players, even with shared information: an equilibrium of the
pooled game is a Nash equilibrium *between* them (each member's deviation alone is
unprofitable), which need not be team-optimal, and such equilibria need not share values.
Members who share all information and payoffs are, for optimisation, one player; the team's
max-min value is the value of the game with the team merged into one player (a two-player
zero-sum game against a single opponent), which a family builds as its own tree.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...errors import GutsInputError
from ..._validate import check_choice
from .tree import Chance, Deals, Decision, PublicTreeGame, Terminal

__all__ = ["pool"]


def check_seats(team, num_players: int) -> tuple:
    """``team`` as a tuple of distinct seats (ints in ``[0, num_players)``), or ``GutsInputError``."""
    try:
        seats = tuple(team)
    except TypeError:
        raise GutsInputError(f"team must be a sequence of seats; got {team!r}") from None
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, (numbers.Integral, np.integer)) or not 0 <= s < num_players:
            raise GutsInputError(f"team seats must be integers in [0, {num_players - 1}]; got {s!r}")
    seats = tuple(int(s) for s in seats)
    if len(set(seats)) != len(seats):
        raise GutsInputError(f"team seats must be distinct; got {seats!r}")
    return seats


def pool(game, team, *, rule: str = "split", share_information: bool = False) -> PublicTreeGame:
    """The game with ``team``'s payoffs pooled (and optionally its information shared).

    Parameters
    ----------
    game : PublicTreeGame
    team : sequence of int
        Distinct seats, at least two.
    rule : {"split", "sum"}
        ``"sum"``: each member gets the team total; ``"split"``: the total / len(team).
    share_information : bool
        Each member observes the joint of the team's types.
    """
    if not isinstance(game, PublicTreeGame):
        raise GutsInputError(f"pool needs a PublicTreeGame; got {type(game).__name__}")
    n = game.num_players
    team = check_seats(team, n)
    if len(team) < 2:
        raise GutsInputError(f"team must hold at least two distinct seats; got {team!r}")
    rule = check_choice("rule", rule, ("split", "sum"))
    M = np.eye(n)
    w = 1.0 if rule == "sum" else 1.0 / len(team)
    for i in team:
        M[i, :] = 0.0
        M[i, list(team)] = w

    tables = {}
    memo = {}

    def table(t):
        k = id(t)
        if k not in tables:
            tables[k] = (M @ t, t)  # keep the original referenced so its id stays unique
        return tables[k][0]

    def convert(node):
        k = id(node)
        if k in memo:
            return memo[k][0]
        if isinstance(node, Terminal):
            if node.table is None:
                new = Terminal(M @ node.offset)
            else:
                new = Terminal.affine(table(node.table), M @ node.offset, node.scale)
        elif isinstance(node, Decision):
            new = Decision(node.player, {a: convert(c) for a, c in node.actions.items()})
        elif isinstance(node, Chance):
            new = Chance({o: (pr, convert(c)) for o, (pr, c) in node.outcomes.items()})
        else:  # the game validated its tree already
            raise GutsInputError(f"unexpected node {node!r}")
        memo[k] = (new, node)
        return new

    root = convert(game.root)
    deals = game.deals
    if share_information:
        info = deals.info.copy()
        joint, inv = np.unique(deals.info[list(team)].T, axis=0, return_inverse=True)
        inv = np.asarray(inv).reshape(-1)
        labels = list(deals.type_labels)
        jl = tuple("|".join(str(deals.type_labels[m][joint[j, i]]) for i, m in enumerate(team))
                   for j in range(joint.shape[0]))
        for m in team:
            info[m] = inv
            labels[m] = jl
        deals = Deals(deals.prob, info, tuple(labels))
    name = f"pool({game.name}, team={team}, rule={rule}{', shared info' if share_information else ''})"
    return PublicTreeGame(root, deals, n, name=name)
