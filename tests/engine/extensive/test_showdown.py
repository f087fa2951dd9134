"""The two-player showdown pass (O(cards) per terminal) against the sum over the deals.

Oracle: the general terminal pass, which sums every deal of every terminal, on the same
reaches (random, so no structure of an equilibrium helps), for the full game and its suit
quotient; and the checks that turn the pass off where its assumptions fail.
"""
from dataclasses import replace

import numpy as np
import pytest

from guts.engine.extensive import _kernels as K
from guts.engine.extensive import _showdown
from guts.games.poker import build_poker, load_poker, read_poker

#: two sums of the same products in different orders (float64)
SAME = 1e-13


def _compare(game, monkeypatch):
    cg = game.compiled
    assert _showdown.showdown_data(cg) is not None
    rng = np.random.default_rng(7)
    R = [rng.random((pt.num_seqs, pt.num_types)) for pt in cg.players]
    for p in (0, 1):
        fast = K.terminal_values(cg, p, R).copy()
        monkeypatch.setattr(K, "USE_SHOWDOWN", False)
        slow = K.terminal_values(cg, p, R).copy()
        monkeypatch.setattr(K, "USE_SHOWDOWN", True)
        assert np.abs(fast - slow).max() <= SAME * max(1.0, np.abs(slow).max())


@pytest.mark.parametrize("iso", [False, "public"])
def test_showdown_pass_equals_the_sum_over_deals(iso, monkeypatch):
    spec = replace(read_poker("rhode_island"), ranks=4, suits=3)
    spec = replace(spec, rounds=tuple(replace(r, max_raises=1) for r in spec.rounds))
    _compare(build_poker(spec, isomorphism=iso), monkeypatch)


def test_showdown_pass_on_leduc_when_forced(monkeypatch):
    monkeypatch.setattr(_showdown, "SHOWDOWN_MIN_TYPES", 0)
    _compare(load_poker("leduc.game"), monkeypatch)


def test_showdown_pass_stays_off_where_it_does_not_apply():
    assert _showdown.showdown_data(load_poker("leduc.game").compiled) is None          # 6 cards
    assert _showdown.showdown_data(load_poker("mercer_smh", players=3).compiled) is None  # 3 players
