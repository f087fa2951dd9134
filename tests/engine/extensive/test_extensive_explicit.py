"""Explicit extensive form: perfect-recall check, and the same solvers as the public tree."""
import itertools

import numpy as np
import pytest

from guts.engine.extensive import (
    ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal, cfr_plus, nash_conv,
    sequence_form, solve_lp,
)
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker

from extensive_oracle import random_strategy


def brute_values(node, s, prob=1.0):
    """Player 0's expected payoff by plain recursion over the explicit nodes."""
    if isinstance(node, ExplicitTerminal):
        return prob * node.payoffs[0]
    if isinstance(node, ExplicitChance):
        return sum(brute_values(c, s, prob * pr) for pr, c in node.outcomes.values())
    row = s[node.player][node.infoset][0]
    return sum(brute_values(c, s, prob * row[a]) for a, c in enumerate(node.actions.values()))


def explicit_kuhn():
    """Two-player Kuhn poker written out node by node; info sets '<card><history>'."""
    def after(cards, hist):
        p = len(hist) % 2
        if hist in ("pp", "bb", "pbb"):
            pot = 2 if hist == "pp" else 4
            win = 0 if cards[0] > cards[1] else 1
            pay = [-pot / 2, -pot / 2]
            pay[win] += pot
            return ExplicitTerminal(pay)
        if hist == "bp":
            return ExplicitTerminal([1.0, -1.0])
        if hist == "pbp":
            return ExplicitTerminal([-1.0, 1.0])
        return ExplicitDecision(p, f"{cards[p]}{hist}",
                                {a: after(cards, hist + a) for a in "pb"})

    deals = list(itertools.permutations(range(3), 2))
    return ExplicitGame(ExplicitChance({f"{a}{b}": (1 / 6, after((a, b), "")) for a, b in deals}), 2)


def test_explicit_kuhn_lp_value_and_agreement_with_public_tree():
    e = explicit_kuhn()
    r = solve_lp(e)
    assert abs(r.value + 1 / 18) <= 1e-12 and r.converged
    # same profile in both forms -> same NashConv
    pub = kuhn_poker(2)
    s = random_strategy(pub, np.random.default_rng(3))
    s_exp = tuple({f"{t}{''.join(h)}": s[p][h][t:t + 1] for h in s[p] for t in range(3)}
                  for p in range(2))
    assert abs(nash_conv(e, s_exp) - nash_conv(pub, s)) < 1e-14
    c = cfr_plus(e, max_iterations=300)
    assert c.exploitability < 1e-3


def test_sequence_form_payoff_is_bilinear_expected_value():
    from guts.engine.extensive._kernels import reach
    from guts.engine.extensive.strategies import to_flat

    g = explicit_kuhn()
    A, E, e, F, f = sequence_form(g)
    # 6 info sets x 2 actions + the empty sequence, per player
    assert A.shape == (13, 13) and E.shape == (7, 13) and F.shape == (7, 13)
    s = random_strategy(g, np.random.default_rng(5))
    flat = to_flat(g, s)
    x, y = (reach(g.compiled.players[p], flat[p]).ravel() for p in range(2))
    np.testing.assert_allclose(E @ x, e, atol=1e-15)
    np.testing.assert_allclose(F @ y, f, atol=1e-15)
    assert abs(x @ A @ y - brute_values(g.root, s)) < 1e-14


def test_perfect_recall_violation_is_detected():
    # player 0 acts, then forgets his own action (both children in one info set)
    t = ExplicitTerminal([0.0, 0.0])
    bad = ExplicitDecision(0, "root", {
        "l": ExplicitDecision(0, "I", {"x": t, "y": t}),
        "r": ExplicitDecision(0, "I", {"x": t, "y": t}),
    })
    with pytest.raises(GutsInputError, match="perfect recall"):
        ExplicitGame(bad, 2)
    # absent-minded driver: the same info set twice on one path
    absent = ExplicitDecision(0, "I", {"exit": t, "go": ExplicitDecision(0, "I", {"exit": t, "go": t})})
    with pytest.raises(GutsInputError, match="perfect recall"):
        ExplicitGame(absent, 2)


@pytest.mark.parametrize("make, match", [
    (lambda t: ExplicitChance({"a": (0.5, t), "b": (0.6, t)}), "sum to"),
    (lambda t: ExplicitDecision(3, "I", {"a": t}), "player 3 out of range"),
    (lambda t: ExplicitDecision(0, "I", {"a": ExplicitTerminal([np.nan, 0.0])}), "NaN"),
    (lambda t: ExplicitDecision(0, "I", {"a": ExplicitDecision(1, "I", {"b": t})}), "players 0 and 1"),
    (lambda t: ExplicitChance({"a": (0.5, ExplicitDecision(0, "I", {"x": t})),
                               "b": (0.5, ExplicitDecision(0, "I", {"y": t}))}), "actions"),
])
def test_explicit_bad_input(make, match):
    with pytest.raises(GutsInputError, match=match):
        ExplicitGame(make(ExplicitTerminal([0.0, 0.0])), 2)
