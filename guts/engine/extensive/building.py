"""Game-building helpers that the families share: deals over pairs of private types, the
uniform hand mesh with its showdown table, and the fold terminal.

A one-card poker game on a mesh (von Neumann's model discretised: Buck, Lee, Platnick,
Wheeler and Zumbrun 2022; Spears 2025; Hundal and Reitzen 2000) deals each of two
players one of ``M`` hands, uniformly and independently; the higher hand wins the
showdown and equal hands split the pot.  :func:`uniform_mesh` returns those deals and the
ONE share table every showdown terminal references (``Terminal.showdown`` does not copy it).
"""
from __future__ import annotations

import numpy as np

from .tree import Deals, Terminal

__all__ = ["pair_deals", "showdown_share", "uniform_mesh", "fold_payoff", "fold_terminal"]


def pair_deals(prob, type_labels) -> Deals:
    """Deals over pairs ``(t0, t1)`` of private types, ``d = t0 * n1 + t1``.

    Parameters
    ----------
    prob : array_like (n0, n1)
        Probability of each type pair (sums to one).
    type_labels : pair of sequences
        Labels of player 0's ``n0`` and player 1's ``n1`` types.
    """
    prob = np.asarray(prob, dtype=float)
    n0, n1 = prob.shape
    i, j = np.divmod(np.arange(n0 * n1), n1)
    return Deals(prob=prob.ravel(), info=np.vstack([i, j]), type_labels=tuple(tuple(t) for t in type_labels))


def showdown_share(win) -> np.ndarray:
    """The two-player showdown table ``(win, 1 - win)``, shape ``(2, D)``: the fraction of
    the pot player 0 wins at each deal (ties counted half) and player 1's complement."""
    w = np.asarray(win, dtype=float).ravel()
    return np.vstack([w, 1.0 - w])


def uniform_mesh(M: int, type_labels=None) -> tuple[Deals, np.ndarray]:
    """``(deals, share)``: both players' hands uniform on ``M`` mesh cells, independent.

    Deal ``d = i * M + j`` (player 0 holds cell ``i``, player 1 cell ``j``), probability
    ``1 / M^2``; the higher cell wins the showdown, equal cells split it.  ``type_labels``
    (default: the cell midpoints ``(i + 1/2) / M``) label both players' types.
    """
    M = int(M)
    if type_labels is None:
        type_labels = tuple(f"{(t + 0.5) / M:.6g}" for t in range(M))
    deals = pair_deals(np.full((M, M), 1.0 / (M * M)), (type_labels, type_labels))
    i, j = deals.info
    return deals, showdown_share(np.where(i > j, 1.0, np.where(i == j, 0.5, 0.0)))


def fold_payoff(contrib, winner: int) -> np.ndarray:
    """Everybody but ``winner`` has folded: he takes the pot.

    ``payoff[p] = -contrib[p]`` for every player, plus ``sum(contrib)`` for ``winner``
    (returns net of what each put in; zero-sum by construction).
    """
    c = np.asarray(contrib, dtype=float).ravel()
    pay = -c.copy()
    pay[int(winner)] += c.sum()
    return pay


def fold_terminal(contrib, winner: int) -> Terminal:
    """The terminal of :func:`fold_payoff` (a constant payoff vector)."""
    return Terminal(fold_payoff(contrib, winner))
