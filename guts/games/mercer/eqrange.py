"""How much a two-player equilibrium leaves free: the range of a first-decision behaviour
probability over ALL equilibria (used to read the thesis's Tables 1 and 2).

In a two-player zero-sum game the equilibrium strategies of a player are exactly his
maxmin realisation plans, a polytope: ``{x : E x = e, x >= 0, F^T v - A^T x <= 0,
f^T v >= V}`` (the sequence form, with ``V`` the game value). At a player's *first*
decision the behaviour probability of an action is a single realisation weight, so its
smallest and largest equilibrium values are two linear programs over that polytope. A
printed figure outside [min, max] cannot come from an exact equilibrium; inside, the
difference from our LP's vertex is equilibrium multiplicity, not error.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from guts.engine.extensive import sequence_form
from guts.errors import GutsInputError, SolverError

__all__ = ["first_decision_range", "VALUE_SLACK"]

#: Slack on the value constraint (chips): equilibria up to this payoff loss are included.
VALUE_SLACK = 1e-9


def first_decision_range(game, value: float, player: int, history, action: str, type_label: str,
                         slack: float = VALUE_SLACK):
    """(min, max) over all equilibria of P(``action`` | ``history``, ``type_label``).

    Parameters
    ----------
    game : PublicTreeGame
        Two-player zero-sum.
    value : float
        The game value to ``player`` (e.g. ``solve_lp(game).values[player]``).
    player : int
        0 or 1; ``history`` must be his first decision (no own action before it).
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
    n1, m2 = A.shape[0], F.shape[0]
    A_ub = sp.vstack([sp.hstack([-A.T, F.T]),
                      sp.hstack([sp.csr_matrix((1, n1)), sp.csr_matrix(-f[None, :])])], format="csr")
    b_ub = np.concatenate([np.zeros(A.shape[1]), [-(value - slack)]])
    A_eq = sp.hstack([E, sp.csr_matrix((E.shape[0], m2))], format="csr")
    bounds = [(0, None)] * n1 + [(None, None)] * m2
    out = []
    for sign in (1.0, -1.0):
        c = np.zeros(n1 + m2)
        c[k] = sign
        res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=e, bounds=bounds, method="highs")
        if res.status != 0:
            raise SolverError(f"equilibrium-range LP failed: status {res.status} ({res.message})")
        out.append(sign * res.fun)
    return float(np.clip(out[0], 0, 1)), float(np.clip(out[1], 0, 1))
