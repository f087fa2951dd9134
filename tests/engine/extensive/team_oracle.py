"""Brute-force oracle of the correlated (TMECor) team value on small random public games."""
import itertools

import numpy as np

from guts.engine.extensive.tree import Deals, Decision, PublicTreeGame, Terminal


def random_public_game(seed):
    """Deals: a bit to every seat (8 equally likely deals); seat 0 acts, then the
    adversary (seat 2), then seat 1, each with 2 public actions; random team payoffs."""
    rng = np.random.default_rng(seed)
    deals = np.array(list(itertools.product((0, 1), repeat=3))).T          # (3, 8)
    D = deals.shape[1]
    pay = rng.integers(-3, 4, size=(2, 2, 2, 2, D)).astype(float)         # [a0, aA, a1, seat 0/1, deal]

    def leaf(a0, aA, a1):
        t = np.zeros((3, D))
        t[0], t[1] = pay[a0, aA, a1, 0], pay[a0, aA, a1, 1]
        t[2] = -(t[0] + t[1])
        return Terminal(t)

    root = Decision(0, {a0: Decision(2, {aA: Decision(1, {a1: leaf(a0, aA, a1) for a1 in (0, 1)})
                                           for aA in (0, 1)}) for a0 in (0, 1)})
    game = PublicTreeGame(root, Deals(np.full(D, 1 / D), deals), 3, name=f"random{seed}")
    return game, deals, pay


def brute_force_correlated(deals, pay):
    """Matrix game: rows = joint pure plans (seat 0: action per type; seat 1: action per
    (a0, aA, type)), columns = adversary pure plans (action per (a0, type)); entries
    computed deal by deal."""
    P0 = np.array(list(itertools.product((0, 1), repeat=2)))               # [plan, t0]
    P1 = np.array(list(itertools.product((0, 1), repeat=8))).reshape(-1, 2, 2, 2)   # [plan, a0, aA, t1]
    PA = np.array(list(itertools.product((0, 1), repeat=4))).reshape(-1, 2, 2)      # [plan, a0, tA]
    i0, i1, iA = np.meshgrid(np.arange(len(P0)), np.arange(len(P1)), np.arange(len(PA)), indexing="ij")
    M = np.zeros(i0.shape)
    D = deals.shape[1]
    for d in range(D):
        t0, t1, tA = deals[:, d]
        a0 = P0[i0, t0]
        aA = PA[iA, a0, tA]
        a1 = P1[i1, a0, aA, t1]
        M += (pay[a0, aA, a1, 0, d] + pay[a0, aA, a1, 1, d]) / D
    return M.reshape(len(P0) * len(P1), len(PA))
