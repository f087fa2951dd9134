"""Best response, expected values, NashConv and exploitability, vectorised over types.

All four take behaviour strategies ``strategies[p] = {history: (num_types[p], A)}`` and
work on any number of players, zero-sum or not.  NashConv = sum_p (BR value_p - value_p),
exploitability = NashConv / n (OpenSpiel's definitions; for two-player zero-sum games
this is the mean over the players of what a best response gains).
"""
from __future__ import annotations

import numbers

import numpy as np

from ...errors import GutsInputError
from . import _kernels as K
from .result import BestResponse
from ._interrupt import deferred_signals
from ._threads import using_threads
from .strategies import _check_game, from_flat, to_flat
from .types import Game, Profile

__all__ = ["best_response", "expected_values", "nash_conv", "exploitability"]


def _check_player(cg, player):
    n = cg.num_players
    if isinstance(player, bool) or not isinstance(player, (numbers.Integral, np.integer)) or not 0 <= int(player) < n:
        raise GutsInputError(f"player must be an integer in [0, {n - 1}]; got {player!r}")
    return int(player)


def best_response(game: Game, strategies: Profile, player: int, *, threads=None) -> BestResponse:
    """Pure best response of ``player`` against the others' behaviour ``strategies``.

    ``strategies[player]`` is ignored except for its presence (it may be any valid
    strategy).  Counterfactual values are backed up over the public tree per type:
    a player's information set is (public node, type), so the max is taken per type.
    ``threads``: threads of the numba kernels (default all cores; same result).
    """
    cg = _check_game(game)
    player = _check_player(cg, player)
    flat = to_flat(game, strategies)
    pt = cg.players[player]
    K.prepare(cg)
    with using_threads(threads), deferred_signals():
        reaches = K.all_reaches(cg, flat)
        g = K.terminal_values(cg, player, reaches)
        V, Vdec = K.backup_max(pt, g)
    Bbr = K.best_actions(pt, V, Vdec)
    strat = from_flat(game, [Bbr if q == player else flat[q] for q in range(cg.num_players)])[player]
    return BestResponse(player=player, value=float(V[0].sum()), strategy=strat, type_values=V[0].copy())


def expected_values(game: Game, strategies: Profile, *, threads=None) -> np.ndarray:
    """Every player's expected payoff (n_players,) under ``strategies`` (``threads`` as in
    :func:`best_response`)."""
    cg = _check_game(game)
    flat = to_flat(game, strategies)
    K.prepare(cg)
    with using_threads(threads), deferred_signals():
        reaches = K.all_reaches(cg, flat)
        return np.array([K.expected_value(reaches[p], K.terminal_values(cg, p, reaches))
                         for p in range(cg.num_players)])


def nash_conv(game: Game, strategies: Profile, *, threads=None) -> float:
    """sum_p (best-response value_p - value_p) >= 0; zero exactly at a Nash equilibrium.

    Computed in float64 (``threads`` as in :func:`best_response`)."""
    cg = _check_game(game)
    flat = to_flat(game, strategies)
    K.prepare(cg)
    with using_threads(threads), deferred_signals():
        ev, br, _ = K.values_and_br(cg, flat, keep=False)
    return float(np.sum(br - ev))


def exploitability(game: Game, strategies: Profile, *, threads=None) -> float:
    """``nash_conv / num_players`` (OpenSpiel's exploitability)."""
    return nash_conv(game, strategies, threads=threads) / game.num_players
