"""The fused (numba) terminal pass against the numpy reference pass."""
import numpy as np
import pytest

from guts.engine.extensive import pool
from guts.engine.extensive import _kernels as K
from guts.engine.extensive.strategies import to_flat
from guts.games.toy import kuhn_poker, leduc_poker

from extensive_oracle import random_strategy

FUSED_TOL = 1e-13


@pytest.mark.skipif(not K._fused.HAVE_NUMBA, reason="numba not installed")
@pytest.mark.parametrize("make", [
    lambda: leduc_poker(),
    lambda: leduc_poker(3),
    lambda: pool(kuhn_poker(3), (0, 2), rule="sum", share_information=True),
])
def test_fused_pass_equals_numpy_pass(make):
    g = make()
    cg = g.compiled
    flat = to_flat(g, random_strategy(g, np.random.default_rng(11)))
    reaches = K.all_reaches(cg, flat)
    for p in range(g.num_players):
        a = K.terminal_values(cg, p, reaches, fused=True)
        b = K.terminal_values(cg, p, reaches, fused=False)
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=0, atol=FUSED_TOL * max(1.0, np.abs(b).max()))


def test_small_chunks_give_the_same_values(monkeypatch):
    # the numpy pass splits terminals in chunks; force many chunks with several tables
    from guts.engine.extensive import _compiled

    g = leduc_poker()
    monkeypatch.setattr(_compiled, "CHUNK_ELEMS", 30 * 7)
    g2 = leduc_poker()
    assert len(g2.compiled.chunks) > 10
    s = random_strategy(g, np.random.default_rng(1))
    for p in range(2):
        r1 = K.all_reaches(g.compiled, to_flat(g, s))
        r2 = K.all_reaches(g2.compiled, to_flat(g2, s))
        np.testing.assert_allclose(K.terminal_values(g.compiled, p, r1, fused=False),
                                   K.terminal_values(g2.compiled, p, r2, fused=False), atol=1e-14)
