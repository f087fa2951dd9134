"""How much a two-player equilibrium leaves free: the range of a first-decision behaviour
probability over ALL equilibria.

In a two-player zero-sum game the equilibrium strategies of a player are exactly his
maxmin realisation plans, a polytope: ``{x : E x = e, x >= 0, F^T v - A^T x <= 0,
f^T v >= V}`` (the sequence form of Koller, Megiddo and von Stengel 1996, with ``V`` the
game value). At a player's *first* decision the behaviour probability of an action is a
single realisation weight, so its smallest and largest equilibrium values are two linear
programs over that polytope (:func:`guts.engine.highs.sequence_form_range`). A published
figure outside [min, max] cannot come from an exact equilibrium; inside, the difference
from an LP vertex is equilibrium multiplicity, not error.
"""
from __future__ import annotations

import numpy as np

from ...errors import GutsInputError
from ..highs import sequence_form_range
from ..tolerances import CERTIFICATE_TOL
from .lp import sequence_form

__all__ = ["first_decision_range", "VALUE_SLACK"]

#: Slack on the value constraint (payoff units): equilibria up to this loss are included.
VALUE_SLACK = CERTIFICATE_TOL


def first_decision_range(game, value: float, player: int, history, action: str, type_label: str,
                         slack: float = VALUE_SLACK):
    """(min, max) over all equilibria of P(``action`` | ``history``, ``type_label``).

    Parameters
    ----------
    game : PublicTreeGame
        Two-player zero-sum.
    value : float
        The game value to ``player`` (e.g. ``solve_sequence_form_lp(game).values[player]``).
    player : int
        0 or 1; ``history`` must be his first decision (no own action before it).
    history : tuple
        Public history of the decision.
    action, type_label : str
        Action label at that decision and the player's private type.
    slack : float
        Equilibria up to this payoff loss are included.

    Raises
    ------
    GutsInputError
        ``history`` is not a first decision of ``player``.
    SolverError
        HiGHS did not solve one of the two LPs.
    """
    cg = game.compiled
    pt = cg.players[player]
    history = tuple(history)
    if history not in pt.index:
        raise GutsInputError(f"player {player} has no decision at {history!r}")
    d = pt.index[history]
    if pt.dec_parent[d] != 0:
        raise GutsInputError(f"{history!r} is not player {player}'s first decision")
    labels = list(pt.action_labels[d])
    tl = list(game.deals.type_labels[player])
    k = (int(pt.dec_first[d]) + labels.index(action)) * pt.num_types + tl.index(type_label)
    A, E, e, F, f = sequence_form(game, player=player)
    if player == 1:               # his plan indexes the columns: transpose the roles
        A, E, e, F, f = A.T.tocsr(), F, f, E, e
    lo, hi = sequence_form_range(A, E, e, F, f, value, slack, k)
    return float(np.clip(lo, 0, 1)), float(np.clip(hi, 0, 1))
