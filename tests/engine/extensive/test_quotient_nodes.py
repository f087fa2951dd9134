"""Quotients by a symmetry group in the engine (``Chance(multiplicity=...)``,
``Decision(orbits=...)``), on a game built by hand, independently of the poker builder.

The game: each player holds a bit; a public coin ``c`` is tossed after the first player's
in/out decision; the second player calls or folds; at a call the higher of ``t XOR c`` wins 2.
Flipping every bit (both hands and the coin) is a symmetry. The quotient keeps the coin 0 with
multiplicity 2; the first player's two hands form one orbit before the toss, and after it the
stabiliser is trivial. Oracles: the full game's LP value and its exact best response evaluated
on the expansion of the quotient's strategies (the second player's hand ``t`` after coin 1
plays as hand ``t XOR 1`` after coin 0).
"""
import numpy as np
import pytest

from guts.engine.extensive import (Chance, Deals, Decision, PublicTreeGame, Terminal, cfr_plus, exploitability,
                                   solve_lp)
from guts.engine.tolerances import CERTIFICATE_TOL
from guts.errors import GutsInputError

pytestmark = pytest.mark.filterwarnings("ignore::guts.errors.ConvergenceWarning")
T0 = np.array([0, 0, 1, 1])
T1 = np.array([0, 1, 0, 1])
#: two computations of one float64 number in different orders
SAME = 1e-12


def _after_coin(c, orbits=None):
    s0, s1 = T0 ^ c, T1 ^ c
    pay = 2.0 * np.sign(s0 - s1)
    return Decision(1, {"fold": Terminal([1.0, -1.0]), "call": Terminal(np.stack([pay, -pay]))}, orbits=orbits)


def game(quotient: bool):
    deals = Deals(np.full(4, 0.25), np.stack([T0, T1]))
    if quotient:
        coin = Chance({"c0": (0.5, _after_coin(0))}, multiplicity={"c0": 2})
        root = Decision(0, {"out": Terminal([-1.0, 1.0]), "in": coin}, orbits=np.array([0, 0]))
    else:
        coin = Chance({"c0": (0.5, _after_coin(0)), "c1": (0.5, _after_coin(1))})
        root = Decision(0, {"out": Terminal([-1.0, 1.0]), "in": coin})
    return PublicTreeGame(root, deals, 2, name="coin" + ("-quotient" if quotient else ""))


def expand(strategies):
    s0, s1 = strategies
    full1 = {}
    for h, row in s1.items():
        full1[h] = row
        full1[tuple("c1" if x == "c0" else x for x in h)] = row[[1, 0]]
    return (dict(s0), full1)


def test_quotient_equals_the_full_game():
    full, q = game(False), game(True)
    assert q.compiled.quotient and not full.compiled.quotient
    lp = solve_lp(full)
    for iterations in (1, 3, 30, 300):
        r = cfr_plus(q, max_iterations=iterations, target=1e-12)
        e_full = exploitability(full, expand(r.strategies))
        assert abs(r.certificate.exploitability - e_full) <= SAME
        # the first player's two hands are one orbit before the coin: the same strategy
        assert np.array_equal(r.strategies[0][()][0], r.strategies[0][()][1])
    e = r.certificate.exploitability
    assert r.value - e - CERTIFICATE_TOL <= lp.value <= r.value + e + CERTIFICATE_TOL


def test_bad_quotient_input_raises_one_clear_error():
    with pytest.raises(GutsInputError, match=r"multiplicity\['c0'\] = 0; accepted: an integer >= 1"):
        Chance({"c0": (0.5, Terminal([0.0, 0.0]))}, multiplicity={"c0": 0})
    with pytest.raises(GutsInputError, match="names 'x', which is not an outcome"):
        Chance({"c0": (0.5, Terminal([0.0, 0.0]))}, multiplicity={"x": 2})
    deals = Deals(np.full(4, 0.25), np.stack([T0, T1]))
    bad = Decision(0, {"a": Terminal([0.0, 0.0]), "b": Terminal([0.0, 0.0])}, orbits=np.array([0, 0, 0]))
    with pytest.raises(GutsInputError, match="orbits must be an int array over player 0's 2 types"):
        PublicTreeGame(bad, deals, 2)
    # representatives may carry less than all of the probability, never more
    over = Chance({"c0": (0.75, Terminal([0.0, 0.0])), "c1": (0.5, Terminal([0.0, 0.0]))}, multiplicity={"c0": 2})
    with pytest.raises(GutsInputError, match="at most 1 with multiplicities"):
        PublicTreeGame(over, deals, 2)
    with pytest.raises(GutsInputError, match="does not accept a suit quotient"):
        solve_lp(game(True))
