"""The mesh game solved by the engine's LP: a brute-force oracle on tiny meshes, convergence
to the dividing-point value, and the order read back from the LP (seed 003, FIGS. 12, 24)."""
import itertools

import nashpy
import numpy as np
import pytest

from guts.games.dividing_point import derive, patent_layout, patent_rules, solve_patent_game
from guts.games.dividing_point.discrete import mesh_hands, solve_mesh
from guts.games.dividing_point.infer import infer_and_solve, same_polynomial
from guts.games.dividing_point.rules import P


def _normal_form_value(game, pot, M):
    """Value of the mesh game from its normal form (one plan per type and component),
    solved by nashpy's linear program: independent of the engine."""
    s = derive(patent_rules(game))
    h = mesh_hands(M)
    first = [pl for pl in s.plans[(0, ())]]
    comps = s.components[1]
    p1 = list(itertools.product(first, repeat=M))
    p2_one = list(itertools.product(*[s.plans[(1, c)] for c in comps]))  # one type's joint plan
    p2 = list(itertools.product(p2_one, repeat=M))
    A = np.zeros((len(p1), len(p2)))
    for i, a in enumerate(p1):
        for j, b in enumerate(p2):
            tot = 0.0
            for x in range(M):
                for y in range(M):
                    opp = next((pl for pl in b[y] if s.play(a[x], pl) is not None and
                                pl.component == _reached(s, a[x])), b[y][0])
                    t = s.play(a[x], opp)
                    if t.folder is not None:
                        r = float(t.return_to(0, 1 - t.folder).subs(P, pot))
                    else:
                        amt = float(t.amount().subs(P, pot))
                        r = amt * np.sign(h[x] - h[y])
                    tot += r
            A[i, j] = tot / M**2
    x, y = nashpy.Game(A).linear_program()
    return float(x @ A @ y)


def _reached(s, plan):
    node = s.root
    from guts.games.dividing_point.rules import TerminalNode

    while not isinstance(node, TerminalNode):
        if node.player == 1:
            return node.history
        node = node.actions[plan.action_at(node.history)]
    return None


@pytest.mark.parametrize("formulation", ["prefix-sum", "sequence-form"])
@pytest.mark.parametrize("game, M", [("a", 3), ("d", 3), ("b", 2)])
def test_divpoint_mesh_lp_matches_the_normal_form(game, M, formulation):
    pot = 2
    lp = solve_mesh(patent_rules(game), pot, M, formulation=formulation)
    assert lp.value == pytest.approx(_normal_form_value(game, pot, M), abs=1e-8)
    assert lp.exploitability < 1e-8


@pytest.mark.parametrize("game", ["a", "b", "c", "d"])
def test_divpoint_mesh_value_tends_to_the_dividing_point_value(game):
    exact = solve_patent_game(game, 3).value
    d = [abs(solve_mesh(patent_rules(game), 3, M).value - exact) for M in (20, 80)]
    assert d[1] < d[0] / 4  # at least first order (the measured rate is about 2)
    assert d[1] < 2e-4


@pytest.mark.parametrize("game, M", [("a", 40), ("d", 40), ("b", 100)])
def test_divpoint_order_read_from_the_lp_is_the_patents(game, M):
    rules = patent_rules(game)
    io = infer_and_solve(rules, 3, M)
    assert io.result.converged
    same_shape, renaming, same_E1 = same_polynomial(rules, patent_layout(game), io.layout)
    assert same_shape and same_E1
    patent = solve_patent_game(game, 3)
    for name, pname in renaming.items():
        assert io.result.points[name] == pytest.approx(patent.points[pname], abs=1e-12)


def test_divpoint_a_wrong_order_is_replaced_by_the_one_read_from_the_lp():
    import warnings

    from guts.games.dividing_point import make_layout, solve_layout

    rules = patent_rules("a")
    wrong = make_layout(derive(rules), {("P1", "root"): "bet | b1 | pass | B1 | bet",
                                        ("P2", "bet"): "fold | C2 | call"}, "0 < C2 < b1 < B1 < 1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not solve_layout(rules, wrong, 2).converged
    io = infer_and_solve(rules, 2, 40)
    assert io.result.converged and same_polynomial(rules, patent_layout("a"), io.layout)[2]
