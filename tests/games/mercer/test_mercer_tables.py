"""Strategy tables and the equilibrium-range LP, checked against best responses and
closed-form deal probabilities."""
import math

import pytest

from guts.engine.extensive import best_response
from guts.errors import GutsInputError
from guts.games.poker.mercer import solve
from guts.games.poker.mercer.eqrange import first_decision_range
from guts.games.poker.mercer.tables import add_equilibrium_ranges, behaviour, table_frame, wide_table


@pytest.fixture(scope="module")
def smh2():
    return solve("smh", 2, "lp")


def test_table1_reads_the_strategies_and_reach(smh2):
    df = table_frame("table1", smh2.built, smh2.strategies, method="lp")
    g = smh2.built.game
    tl = list(g.deals.type_labels[0])
    first = df[df.row == "1st Player"].set_index("holding")
    for hand in ("25", "34", "35"):
        assert first.loc[hand, "ours"] == pytest.approx(100 * smh2.strategies[0][()][tl.index(hand), 1])
        # reach of a first decision = P(holding) = 4*4 / C(20, 2) for an unpaired hand
        assert first.loc[hand, "reach"] == pytest.approx(16 / math.comb(20, 2))
    w = wide_table(df, "paper")
    assert list(w.columns) == ["25", "34", "35"] and w.loc["2nd Player", "35"] == 97


def test_equilibrium_range_is_sharp_by_best_response(smh2):
    """2P-SMH: the first player's bluff with 25 is free in [lo, 1] over all equilibria.
    At lo (with 34 always bet) he still guarantees the value; below lo he loses."""
    g, V = smh2.built.game, smh2.values[0]
    lo, hi = first_decision_range(g, V, 0, (), "b4", "25")
    assert 0.0 < lo < hi and hi == pytest.approx(1.0)
    tl = list(g.deals.type_labels[0])

    def guaranteed(a25, a34):
        s0 = {h: a.copy() for h, a in smh2.strategies[0].items()}
        s0[()][tl.index("25")] = [1 - a25, a25]
        s0[()][tl.index("34")] = [1 - a34, a34]
        return -best_response(g, (s0, smh2.strategies[1]), 1).value

    assert guaranteed(lo, 1.0) == pytest.approx(V, abs=1e-7)
    assert guaranteed(lo - 0.1, 1.0) < V - 1e-4
    # the seed's Table 1 figures (66 %, 65 %) are (up to rounding) an exact equilibrium
    assert guaranteed(0.66, 0.65) == pytest.approx(V, abs=1e-5)


def test_ranges_in_the_table_frame(smh2):
    df = add_equilibrium_ranges(table_frame("table1", smh2.built, smh2.strategies), smh2.built, smh2.values)
    assert ((df.eq_min <= df.ours + 1e-6) & (df.ours <= df.eq_max + 1e-6)).all()
    r35 = df[(df.row == "2nd Player") & (df.holding == "35")].iloc[0]
    assert r35.eq_min == pytest.approx(r35.eq_max)      # the caller's 35 is pinned down


def test_table_errors(smh2):
    with pytest.raises(GutsInputError, match="unknown table"):
        table_frame("table9", smh2.built, smh2.strategies)
    with pytest.raises(GutsInputError, match="does not act"):
        behaviour(smh2.built, smh2.strategies, 1, (), "25")
    with pytest.raises(GutsInputError, match="first decision"):
        first_decision_range(solve("mmh", 2, "lp").built.game, 0.0, 0, ("b4", "b4"), "b4", "25")
