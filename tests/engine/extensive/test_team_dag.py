"""The team belief DAG: its flows against a brute-force oracle, its two passes against each
other, its bracket against column generation's exact value.

* Random small public games: the correlated value of the matrix game of all joint pure
  plans (evaluated deal by deal by hand, not by the engine) lies in the DAG's certified
  bracket, and the bracket narrows to 1e-3.
* Leduc poker with 2 ranks (the board card removes a type, so the live-type maps of the
  graph are exercised): the value of the DAG strategy computed bottom-up equals the team's
  payoff computed from the flows top-down; each member's marginal obeys the sequence-form
  identities (a decision's actions sum to the parent sequence's weight).
* Three-player Kuhn with 4 ranks, the adversary in each seat: column generation's value,
  certified to 1e-9, lies in the DAG's bracket.
"""

import copy
import warnings

import numpy as np
import pytest

from guts.engine.extensive import ExplicitDecision, ExplicitGame, ExplicitTerminal, solve_team
from guts.engine.extensive.strategies import _realisation, normalise_blocks
from guts.engine.extensive.team import _Team, _flat_of
from guts.engine.extensive.team_dag import BeliefDAG, dag_size
from guts.engine.matrix_game import solve_matrix_lp
from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker
from team_oracle import brute_force_correlated, random_public_game

TOL = 1e-9


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dag_bracket_holds_the_brute_force_value(seed):
    game, deals, pay = random_public_game(seed)
    oracle = solve_matrix_lp(brute_force_correlated(deals, pay)).value
    r = solve_team(game, (0, 1), "correlated", method="belief-dag", target=1e-3, max_iterations=5000)
    assert r.method == "belief-dag" and r.converged and r.upper - r.lower <= 1e-3
    assert r.lower - TOL <= oracle <= r.upper + TOL
    assert abs(sum(r.values)) <= TOL                        # zero-sum


def test_dag_values_equal_flows_and_marginals_are_plans():
    g = leduc_poker(3, ranks=2)
    tm = _Team(g, (1, 2), 0)
    dag = BeliefDAG(tm, tm.dp)
    dag.step(3)                                              # regrets away from uniform
    rng = np.random.default_rng(0)
    Y = _realisation(tm.pa, normalise_blocks(tm.pa, rng.random(dag.Y.shape)))
    saved = copy.deepcopy(dag.reg)
    root = dag._team_update(Y)                               # bottom-up, with the saved regrets
    dag.reg = saved
    marg = [np.zeros_like(M) for M in dag.marg]
    reach = dag._team_reach(dag._flows(marg))                # top-down, the same regrets
    c = tm.wt * Y.ravel()[tm.ent.idx[tm.adv]]
    assert abs(root - float(reach @ c)) <= 1e-12 * max(1.0, abs(root))
    assert any(len(dag.lists[0][nd]) < tm.pts[0].num_types for nd in range(g.compiled.num_nodes))
    for i, pt in enumerate(tm.pts):
        M = marg[i]
        M[0] = 1.0
        for h, node in enumerate(pt.dec_node):
            f, k = int(pt.dec_first[h]), int(pt.dec_num_actions[h])
            live = dag.lists[i][int(node)]
            par = int(pt.dec_parent[h])
            assert np.allclose(M[f:f + k, live].sum(axis=0), M[par, live], atol=1e-12)


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_dag_bracket_holds_kuhn3_exact_value(adv):
    g = kuhn_poker(3, ranks=4)
    team = tuple(p for p in range(3) if p != adv)
    exact = solve_team(g, team, "correlated")                 # column generation, closed to 1e-9
    assert exact.method == "column-generation" and exact.converged
    r = solve_team(g, team, "correlated", method="belief-dag", target=1e-3, max_iterations=2000)
    assert r.converged and r.upper - r.lower <= 1e-3
    assert r.lower - TOL <= exact.lower and exact.upper <= r.upper + TOL
    assert not r.support and set(r.strategies[team[0]]) == set(exact.strategies[team[0]][0])


def test_leduc_defaults_to_the_dag_and_agrees_with_column_generation():
    g = leduc_poker(3, ranks=2)
    tm = _Team(g, (0, 1), 2)
    assert sum(pt.num_decisions for pt in tm.pts) >= 100 and dag_size(tm, tm.dp) < 10 ** 6
    with pytest.warns(ConvergenceWarning, match="belief DAG's certified bracket"):
        r = solve_team(g, (0, 1), "correlated", max_iterations=100)     # the default target, 1e-9
    assert r.method == "belief-dag" and not r.converged
    cg = solve_team(g, (0, 1), "correlated", method="column-generation", time_limit=10)
    # two certified brackets of the same value overlap
    assert max(r.lower, cg.lower) <= min(r.upper, cg.upper) + TOL
    assert r.upper - r.lower < cg.upper - cg.lower


def test_belief_dag_needs_a_public_tree_game():
    def leaf(a, b):
        return ExplicitTerminal(np.array([a == b, a == b, -2.0 * (a == b)], dtype=float))
    root = ExplicitDecision(0, "m0", {a: ExplicitDecision(1, "m1", {b: leaf(a, b) for b in "HT"}) for a in "HT"})
    g = ExplicitGame(root, 3, name="match")
    with pytest.raises(GutsInputError, match="belief-dag"):
        solve_team(g, (0, 1), "correlated", method="belief-dag", max_iterations=5)


@pytest.mark.parametrize("seed", [0, 1])
def test_merged_types_bracket_is_certified_in_the_original_game(seed):
    # seat 0 sees nothing (its two types merged): the graph's lower end is the merged game's
    # correlated value (a brute-force oracle with seat 0's type hidden) and is certified in the
    # original game (at most its value); the upper end is the original game's
    game, deals, pay = random_public_game(seed)
    full = solve_matrix_lp(brute_force_correlated(deals, pay)).value
    hidden = deals.copy()
    hidden[0] = 0
    blind = solve_matrix_lp(brute_force_correlated(hidden, pay)).value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)      # lossy merge: the bracket may not close
        r = solve_team(game, (0, 1), "correlated", member_types={0: [0, 0]}, target=1e-3, max_iterations=3000)
    assert r.method == "belief-dag"
    assert r.lower - TOL <= full <= r.upper + TOL
    assert blind - 2e-3 <= r.lower <= blind + TOL
    assert len(r.strategies[0]) > 0                    # marginals given per original type
    # the identity merge is the plain graph
    s = solve_team(game, (0, 1), "correlated", member_types={0: [0, 1], 1: [0, 1]}, target=1e-3,
                   max_iterations=5000)
    assert s.converged and s.lower - TOL <= full <= s.upper + TOL


@pytest.mark.parametrize("bad, needle", [
    ({0: [0]}, "2 types"),
    ({0: [0, 2]}, "without gaps"),
    ({0: [0, -1]}, "without gaps"),
    ({0: [0.0, 1.0]}, "class"),
    ({2: [0, 0]}, "outside the team"),
    ([0, 0], "dict"),
])
def test_member_types_are_validated(bad, needle):
    game, _deals, _pay = random_public_game(0)
    with pytest.raises(GutsInputError, match=needle):
        solve_team(game, (0, 1), "correlated", member_types=bad, max_iterations=10)


def test_member_types_need_the_belief_dag():
    game, _deals, _pay = random_public_game(0)
    with pytest.raises(GutsInputError, match="belief DAG"):
        solve_team(game, (0, 1), "correlated", method="column-generation", member_types={0: [0, 0]})


def test_leduc_ranks_graph_agrees_with_the_cards_graph():
    # a card's suit never changes a payoff: the graph over ranks (2^2 sets per member) and the
    # graph over cards (2^4) bracket the same value, both certified in the game with cards
    game = leduc_poker(3, ranks=2)
    ranks = [c // 2 for c in range(4)]
    kw = dict(target=1e-9, max_iterations=300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_team(game, (1, 2), "correlated", member_types={1: ranks, 2: ranks}, **kw)
        c = solve_team(game, (1, 2), "correlated", method="belief-dag", **kw)
    assert max(r.lower, c.lower) <= min(r.upper, c.upper) + TOL
    assert r.upper - r.lower <= 0.02


def _oracle_row(plans):
    """Row of :func:`brute_force_correlated`'s matrix of a joint pure plan of the random game
    (seat 0: its action per type; seat 1: its action per (a0, aA, type), most significant first)."""
    p0, p1 = plans
    a0 = np.argmax(p0[()], axis=1)
    bits = [int(np.argmax(p1[(x, y)][t])) for x in (0, 1) for y in (0, 1) for t in (0, 1)]
    return (2 * int(a0[0]) + int(a0[1])) * 256 + int("".join(map(str, bits)), 2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_device_support_guarantees_the_lower_end_in_the_brute_force_game(seed):
    # the certified distribution, decomposed into joint pure plans, earns against every one of
    # the adversary's pure plans (columns of the matrix built deal by deal) at least the lower
    # end, and exactly it against the worst; its weights sum to one
    game, deals, pay = random_public_game(seed)
    M = brute_force_correlated(deals, pay)
    r = solve_team(game, (0, 1), "correlated", method="belief-dag", target=1e-3, max_iterations=5000)
    support, mass = r.device.support()
    assert abs(mass - 1.0) <= TOL and abs(sum(w for w, _ in support) - 1.0) <= TOL
    x = np.zeros(M.shape[0])
    for w, plans in support:
        assert all(np.isin(s, (0.0, 1.0)).all() for p in plans for s in p.values())   # pure plans
        x[_oracle_row(plans)] += w
    assert abs((x @ M).min() - r.lower) <= 1e-9
    assert r.lower <= solve_matrix_lp(M).value + TOL


def test_device_samples_are_distributed_as_the_certified_flow():
    # the payoff of the sampled plans' average against each of the adversary's 16 pure plans is
    # the distribution's (the decomposition above) to 6 standard errors (its exact standard
    # deviation per column over sqrt(n)); fixed seed
    game, deals, pay = random_public_game(1)
    M = brute_force_correlated(deals, pay)
    r = solve_team(game, (0, 1), "correlated", method="belief-dag", target=1e-3, max_iterations=5000)
    x = np.zeros(M.shape[0])
    for w, plans in r.device.support()[0]:
        x[_oracle_row(plans)] += w
    n = 4000
    rng = np.random.default_rng(7)
    emp = np.bincount([_oracle_row(r.device.sample(rng)) for _ in range(n)], minlength=M.shape[0]) / n
    sd = np.sqrt(x @ (M - x @ M) ** 2)
    eps = 6 * sd.max() / np.sqrt(n)
    assert np.all(np.abs((emp - x) @ M) <= 6 * sd / np.sqrt(n))
    # a device that always plays its heaviest plan is told apart: the test can fail
    heaviest = np.zeros_like(x)
    heaviest[np.argmax(x)] = 1.0
    assert np.abs((heaviest - x) @ M).max() > eps


def _leduc_over_ranks(max_iterations):
    """Correlated solve of three-player Leduc with 2 ranks (seat 0 the adversary), the graph over
    the members' ranks."""
    ranks = [c // 2 for c in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return solve_team(leduc_poker(3, ranks=2), (1, 2), "correlated", member_types={1: ranks, 2: ranks},
                          max_iterations=max_iterations)


def test_device_of_merged_types_plays_the_class_action():
    # Leduc over ranks: a drawn plan is a pure plan of the game with cards in which both suits of
    # a rank take the same action everywhere
    r = _leduc_over_ranks(max_iterations=50)
    for plan in r.device.sample(0):
        for s in plan.values():
            assert s.shape[0] == 4 and np.isin(s, (0.0, 1.0)).all() and (s.sum(axis=1) == 1).all()
            assert np.array_equal(s[0], s[1]) and np.array_equal(s[2], s[3])


def test_device_support_reproduces_the_flow_through_the_boards_type_maps():
    # Leduc over ranks (the board card removes a type: the graph's live-type maps): the support,
    # read as plans of the game with cards, earns against the adversary's exact best response
    # what the certified flow earns (after two iterations, the first uniform: ~1 900 plans)
    game = leduc_poker(3, ranks=2)
    r = _leduc_over_ranks(max_iterations=2)
    support, mass = r.device.support(mass_tol=1e-12, max_plans=100_000)
    assert abs(mass - 1.0) <= 1e-9
    tm = _Team(game, (1, 2), 0)
    w = np.zeros(tm.wt.size)
    for lam, plans in support:
        w += lam * tm.team_reach([_realisation(tm.pts[i], _flat_of(game, m, plans[i])) for i, m in enumerate((1, 2))])
    assert abs(tm.guarantee(w)[0] - r.lower) <= 1e-9
