"""The sequence-form LP on constant-sum games: solved as the zero-sum game u - c/2, values reported for u."""
import numpy as np
import pytest

from guts.engine.extensive import (ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal, LP_CERT_TOL,
                                   efg_text, exploitability, expected_values, read_efg, solve_lp)
from guts.engine.extensive.lp import constant_sum
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker


def _shifted(node, add):
    """The same tree with ``add[p]`` added to player p's payoff at every terminal."""
    if isinstance(node, ExplicitTerminal):
        return ExplicitTerminal(np.asarray(node.payoffs, dtype=float) + add)
    if isinstance(node, ExplicitChance):
        return ExplicitChance({lab: (pr, _shifted(c, add)) for lab, (pr, c) in node.outcomes.items()})
    return ExplicitDecision(node.player, node.infoset, {lab: _shifted(c, add) for lab, c in node.actions.items()})


def _kuhn_pair(add):
    kuhn = read_efg(efg_text(kuhn_poker(2)))          # the explicit tree of Kuhn poker
    return kuhn, ExplicitGame(_shifted(kuhn.root, np.asarray(add, dtype=float)), 2, name="Kuhn + const")


def test_constant_sum_kuhn_value_and_certificate():
    kuhn, plus3 = _kuhn_pair([3.0, 3.0])
    assert not plus3.zero_sum and constant_sum(plus3) == pytest.approx(6.0, abs=1e-12)
    r, r0 = solve_lp(plus3), solve_lp(kuhn)
    # Kuhn's value is -1/18 for the first player (Kuhn, 1950); +3 for each player here
    assert r0.value == pytest.approx(-1 / 18, abs=1e-9)
    assert r.value == pytest.approx(-1 / 18 + 3, abs=1e-9)
    assert r.values[1] == pytest.approx(1 / 18 + 3, abs=1e-9)
    assert r.converged and r.exploitability <= LP_CERT_TOL * 4
    # the certificate is the same game's: a constant changes no best response, so the
    # strategies found have the same exploitability in Kuhn itself, and values shifted by 3
    assert exploitability(kuhn, r.strategies) == pytest.approx(r.exploitability, abs=1e-12)
    assert expected_values(kuhn, r.strategies) == pytest.approx(np.asarray(r.values) - 3.0, abs=1e-12)


def test_unequal_constant_and_refusals():
    # payoffs summing to 1 (player 0 gets +1 more): u0 - 1/2, u1 - 1/2 is zero-sum Kuhn shifted by 1/2
    _, g = _kuhn_pair([1.0, 0.0])
    r = solve_lp(g)
    assert r.value == pytest.approx(-1 / 18 + 1, abs=1e-9) and r.values[1] == pytest.approx(1 / 18, abs=1e-9)
    # a general-sum game is still refused
    pd = ExplicitGame(ExplicitDecision(0, "a", {"x": ExplicitTerminal([1.0, 1.0]),
                                                "y": ExplicitTerminal([0.0, 3.0])}), 2)
    assert constant_sum(pd) is None
    with pytest.raises(GutsInputError, match="constant-sum"):
        solve_lp(pd)



def _shifted_public(node, add):
    from guts.engine.extensive import Chance, Decision, Terminal

    if isinstance(node, Terminal):
        if node.table is None:
            return Terminal(np.asarray(node.offset, dtype=float) + add)
        return Terminal.affine(node.table, np.asarray(node.offset, dtype=float) + add, node.scale)
    if isinstance(node, Chance):
        return Chance({lab: (pr, _shifted_public(c, add)) for lab, (pr, c) in node.outcomes.items()})
    assert isinstance(node, Decision)
    return Decision(node.player, {lab: _shifted_public(c, add) for lab, c in node.actions.items()})


def kuhn_public_plus(add):
    from guts.engine.extensive import PublicTreeGame

    k = kuhn_poker(2)
    return PublicTreeGame(_shifted_public(k.root, np.asarray(add, dtype=float)), k.deals, 2, name="Kuhn plus")


def test_constant_sum_public_tree():
    g = kuhn_public_plus([3.0, 3.0])
    assert not g.zero_sum
    r = solve_lp(g)
    assert r.value == pytest.approx(-1 / 18 + 3, abs=1e-9) and r.values[1] == pytest.approx(1 / 18 + 3, abs=1e-9)
    assert exploitability(kuhn_poker(2), r.strategies) == pytest.approx(r.exploitability, abs=1e-12)
