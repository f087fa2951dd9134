"""Team games in three regimes: closed forms, a brute-force oracle, ordering and identities.

* Coordination game (no chance, simultaneous moves): the team wins 1 when its two members
  match each other and not the adversary.  Correlated 1/2 (a shared coin), independent
  1/4 (p = q = 1/2 maximises min(pq, (1-p)(1-q))).
* One-time pad: member 0 sees a private bit and announces a public signal, member 1 and
  the adversary see only the signal and guess the bit; the team gets [member 1 right] -
  [adversary right].  Correlated 1/2 (a shared key hides the bit from the adversary and
  not from member 1), independent 0 (whatever member 1 can read from the signal the
  adversary reads too, so [right] - [adversary right] <= 0, and 0 is reached by ignoring
  the bit).
* Random small public-tree games: correlated = the matrix game of all joint pure plans
  against all adversary pure plans, evaluated deal by deal by hand (not by the engine).
* Kuhn poker: with a one-member team every regime is the two-player value -1/18; three
  players (OpenSpiel's deck of 4 and a deck of 3), the adversary in every seat:
  communication >= correlated >= independent, the correlated bracket closed to 1e-9,
  communication = correlated in the game where the members share their cards (a
  different algorithm on a different game), and the zero-sum identity.
"""

import numpy as np
import pytest

from guts.engine.extensive import (ExplicitDecision, ExplicitGame, ExplicitTerminal, pool, solve_lp, solve_team)
from guts.engine.matrix_game import solve_matrix_lp
from guts.engine.result import check_result
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker
from team_oracle import brute_force_correlated, random_public_game

TOL = 1e-9        # the solver's certificate target
CMP = 1e-7        # comparisons of two LP-based values (HiGHS feasibility 1e-10 on payoffs of order 1)


def coordination_game(adversary=2):
    """Members choose H/T without seeing each other, the adversary too; the team gets 1
    (half each) when the members match each other and differ from the adversary."""
    members = [p for p in range(3) if p != adversary]

    def leaf(m0, m1, a):
        win = 1.0 if (m0 == m1 and m0 != a) else 0.0
        pay = np.zeros(3)
        pay[members] = win / 2
        pay[adversary] = -win
        return ExplicitTerminal(pay)

    def adv(m0, m1):
        return ExplicitDecision(adversary, "adv", {a: leaf(m0, m1, a) for a in "HT"})

    def second(m0):
        return ExplicitDecision(members[1], "m1", {m1: adv(m0, m1) for m1 in "HT"})

    root = ExplicitDecision(members[0], "m0", {m0: second(m0) for m0 in "HT"})
    return ExplicitGame(root, 3, name="coordination")


def pad_game():
    """One-time pad: seat 0 sees bit b (chance), announces s; seat 2 (adversary) sees s and
    guesses a; seat 1 sees s and guesses g.  Team payoff [g == b] - [a == b]."""
    def leaf(b, g, a):
        t = float(g == b) - float(a == b)
        return ExplicitTerminal([t / 2, t / 2, -t])

    def node(b):
        def guess(s):
            return ExplicitDecision(2, ("adv", s), {a: ExplicitDecision(1, ("m1", s), {
                g: leaf(b, g, a) for g in (0, 1)}) for a in (0, 1)})
        return ExplicitDecision(0, ("m0", b), {s: guess(s) for s in (0, 1)})

    from guts.engine.extensive import ExplicitChance
    return ExplicitGame(ExplicitChance({b: (0.5, node(b)) for b in (0, 1)}), 3, name="pad")


# --------------------------------------------------------------------------- closed forms
def test_coordination_closed_forms():
    for adversary in (0, 1, 2):
        g = coordination_game(adversary)
        team = [p for p in range(3) if p != adversary]
        cor = solve_team(g, team, "correlated")
        assert cor.converged and cor.certificate.kind == "interval"
        assert abs(cor.lower - 0.5) <= TOL and abs(cor.upper - 0.5) <= TOL
        assert not check_result(cor)
        ind = solve_team(g, team, "independent", correlated=cor)
        assert abs(ind.lower - 0.25) <= TOL          # found, and certified against the adversary's best response
        assert abs(ind.upper - 0.5) <= TOL           # the correlated bound
        assert not ind.converged                     # the bracket is wider than the target
        assert abs(sum(ind.values)) <= TOL and abs(ind.values[adversary] + ind.value) <= TOL


def test_one_time_pad_closed_forms():
    g = pad_game()
    cor = solve_team(g, (0, 1), "correlated")
    assert cor.converged and abs(cor.lower - 0.5) <= TOL
    # the support is a distribution over joint pure plans
    w = np.array([wt for wt, _ in cor.support])
    assert np.all(w > 0) and abs(w.sum() - 1) <= TOL
    for _, plans in cor.support:
        for plan in plans:
            for row in plan.values():
                assert set(np.unique(row)) <= {0.0, 1.0}
    ind = solve_team(g, (0, 1), "independent", correlated=cor)
    assert abs(ind.lower) <= TOL and abs(ind.upper - 0.5) <= TOL


# --------------------------------------------------------------------------- brute force
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correlated_equals_brute_force(seed):
    game, deals, pay = random_public_game(seed)
    oracle = solve_matrix_lp(brute_force_correlated(deals, pay)).value
    cor = solve_team(game, (0, 1), "correlated")
    assert cor.converged and cor.upper - cor.lower <= TOL
    assert cor.lower - CMP <= oracle <= cor.upper + CMP
    com = solve_team(game, (0, 1), "communication")
    ind = solve_team(game, (0, 1), "independent", correlated=cor)
    assert ind.lower <= cor.upper + TOL and cor.lower <= com.upper + TOL


# --------------------------------------------------------------------------- Kuhn
@pytest.mark.parametrize("regime", ["communication", "correlated", "independent"])
def test_one_member_team_is_the_two_player_game(regime):
    g = kuhn_poker(2)
    for seat, v in ((0, -1 / 18), (1, 1 / 18)):
        r = solve_team(g, (seat,), regime)
        assert r.converged and r.lower - CMP <= v <= r.upper + CMP
        assert abs(r.value - v) <= CMP and abs(r.values[1 - seat] + v) <= CMP


@pytest.fixture(scope="module")
def kuhn3_solutions():
    out = {}
    for ranks in (3, 4):
        g = kuhn_poker(3, ranks=ranks)
        for adv in range(3):
            team = tuple(p for p in range(3) if p != adv)
            com = solve_team(g, team, "communication")
            cor = solve_team(g, team, "correlated")
            ind = solve_team(g, team, "independent", correlated=cor)
            out[ranks, adv] = (g, team, {"communication": com, "correlated": cor, "independent": ind})
    return out


@pytest.mark.parametrize("ranks", [3, 4])
@pytest.mark.parametrize("adv", [0, 1, 2])
def test_kuhn3_regimes_ordered_and_certified(kuhn3_solutions, ranks, adv):
    g, team, r = kuhn3_solutions[ranks, adv]
    com, cor, ind = r["communication"], r["correlated"], r["independent"]
    for res in (com, cor, ind):
        assert not check_result(res)
        assert res.lower <= res.value + TOL and res.value <= res.upper + TOL
        # zero-sum identity: the team's value is minus the adversary's
        assert abs(res.values[adv] + res.value) <= TOL and abs(sum(res.values)) <= TOL
        assert abs(sum(res.values[m] for m in team) - res.value) <= TOL
    assert com.converged and com.upper - com.lower <= TOL
    assert cor.converged and cor.upper - cor.lower <= TOL
    for w, plans in cor.support:                 # joint pure plans: one action per (decision, card)
        assert w > 0
        for plan in plans:
            for row in plan.values():
                assert np.all((row == 0) | (row == 1)) and np.all(row.sum(axis=1) == 1)
    # communication >= correlated >= independent
    assert cor.lower <= com.upper + TOL
    assert ind.lower <= cor.upper + TOL and ind.upper == pytest.approx(cor.upper, abs=TOL)


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_kuhn3_communication_is_correlated_with_shared_cards(kuhn3_solutions, adv):
    """Members who see each other's cards (pool(..., share_information=True)) and correlate
    their plans are one player: the correlated column generation on that game equals the
    merged game's sequence-form LP."""
    g, team, r = kuhn3_solutions[4, adv]
    shared = pool(g, team, rule="split", share_information=True)
    via_cg = solve_team(shared, team, "correlated")
    assert via_cg.converged
    assert abs(via_cg.lower - r["communication"].value) <= CMP
    # and the merged game is the two-player game its LP solves
    assert abs(solve_lp(r["communication"].merged_game).value - r["communication"].value) <= CMP


def test_kuhn3_communication_helps(kuhn3_solutions):
    # with the cards shared, the team does strictly better than correlating blind (some seat)
    gaps = [r["communication"].lower - r["correlated"].upper for (ranks, _), (_, _, r) in kuhn3_solutions.items()]
    assert max(gaps) > 1e-3


def test_public_state_dp_equals_milp_best_response():
    """The two exact team best responses (dynamic programme over public states, MILP) agree
    on random adversary strategies, and the DP's plan earns its value."""
    from guts.engine.extensive import team as T

    g = kuhn_poker(3, ranks=5)
    rng = np.random.default_rng(5)
    for adv in (0, 2):
        team = tuple(p for p in range(3) if p != adv)
        dp, mip = T._Team(g, team, adv, "auto"), T._Team(g, team, adv, "milp")
        assert dp.pricing == "dp" and mip.pricing == "milp"
        pa = dp.pa
        Y = T._realisation(pa, T.normalise_blocks(pa, rng.random((pa.num_seqs, pa.num_types)) ** 3))
        plans, v_dp, _ = dp.best_response(Y)
        _, v_mip, bound = mip.best_response(Y)
        assert abs(v_dp - v_mip) <= TOL and bound >= v_dp - TOL
        earned = float(np.dot(dp.wt * Y.ravel()[dp.ent.idx[adv]], dp.team_reach(plans)))
        assert abs(earned - v_dp) <= TOL


def test_dp_kernels_equal_brute_force():
    """The public-state DP's kernels against sums and maxima over explicit subsets: terminal
    arrays (subset sums), the max-plus split along each member's axis (two and three members)
    and the maximising split read back."""
    from guts.engine.extensive import team as T

    def subsets(S):
        return [P for P in range(S + 1) if P & S == P]

    rng = np.random.default_rng(7)
    A = rng.normal(size=(3, 5))
    out = np.empty((8, 5))
    T._subset_sums(A, out)
    for S in range(8):
        assert np.abs(out[S] - A[[t for t in range(3) if S >> t & 1]].sum(axis=0)).max() <= TOL
    dp = T._PublicStateDP.__new__(T._PublicStateDP)
    for shape in ((8, 4), (4, 8, 2)):
        Va, Wb = rng.normal(size=shape), rng.normal(size=shape)
        for i in range(len(shape)):
            mx = dp._split(i, Va, Wb)
            for idx in np.ndindex(*shape):
                S = idx[i]
                at = idx[:i] + (slice(None),) + idx[i + 1:]
                va, wb = Va[at], Wb[at]
                brute = max(va[P] + wb[S ^ P] for P in subsets(S))
                assert abs(mx[idx] - brute) <= TOL
                P = T._split_arg(np.ascontiguousarray(va), np.ascontiguousarray(wb), S)
                assert P & S == P and abs(va[P] + wb[S ^ P] - brute) <= TOL


def test_warm_started_master_equals_fresh_lp():
    """The column-generation master, re-solved from its basis as columns arrive, has after
    every column the value and a dual plan of the LP built from scratch on the same columns."""
    from guts.engine.extensive import team as T
    from guts.engine.highs import sequence_form_maxmin

    g = kuhn_poker(3, ranks=5)
    tm = T._Team(g, (0, 2), 1)
    rng = np.random.default_rng(3)
    rows = [rng.normal(size=tm.Na) for _ in range(6)]
    master = T._Master(tm, rows[0])
    for k in range(1, len(rows)):
        master.add(rows[k])
        lam, y, v = master.solution()
        A = np.vstack(rows[:k + 1])
        _x, _y, v_fresh, _ = sequence_form_maxmin(A, np.ones((1, k + 1)), np.ones(1), tm.F, tm.f)
        assert abs(v - v_fresh) <= CMP
        assert abs(lam.sum() - 1.0) <= CMP and lam.min() >= 0.0
        # y is an adversary plan and lam guarantees v against it: lam A y = v (strong duality)
        assert np.abs(tm.F @ y - tm.f).max() <= CMP
        assert abs(float(lam @ A @ y) - v) <= CMP


def test_master_adds_several_columns_at_once():
    """Columns added together (several per re-solve) give the master of the same columns added
    one at a time, and the LP built from scratch: same value, a distribution, a dual plan."""
    from guts.engine.extensive import team as T
    from guts.engine.highs import sequence_form_maxmin

    g = kuhn_poker(3, ranks=4)
    tm = T._Team(g, (1, 2), 0)
    rng = np.random.default_rng(11)
    rows = [rng.normal(size=tm.Na) for _ in range(7)]
    batched, single = T._Master(tm, rows[:2]), T._Master(tm, rows[0])
    for r in rows[1:]:
        single.add(r)
    batched.add(rows[2:5])
    batched.add([])                               # nothing to add: the model is unchanged
    batched.add(rows[5:])
    A = np.vstack(rows)
    _x, _y, v_fresh, _ = sequence_form_maxmin(A, np.ones((1, len(rows))), np.ones(1), tm.F, tm.f)
    for master in (batched, single):
        lam, y, v = master.solution()
        assert lam.size == len(rows) and abs(lam.sum() - 1.0) <= CMP and lam.min() >= 0.0
        assert abs(v - v_fresh) <= CMP
        assert np.abs(tm.F @ y - tm.f).max() <= CMP
        assert abs(float(lam @ A @ y) - v) <= CMP


def test_time_limit_keeps_a_valid_bracket():
    g = kuhn_poker(3, ranks=5)
    full = solve_team(g, (0, 1), "correlated")
    cut = solve_team(g, (0, 1), "correlated", time_limit=1e-3)
    assert not cut.converged and cut.num_iter == 1
    assert cut.lower <= full.lower + TOL and full.upper <= cut.upper + TOL
    with pytest.raises(GutsInputError, match="correlated"):
        solve_team(g, (0, 1), "independent", correlated=full.support)


def test_a_time_limit_lifts_the_iteration_cap(monkeypatch):
    """Without ``max_iterations`` the default cap stops the column generation, unless a time
    limit governs; an explicit ``max_iterations`` always applies."""
    from guts.engine.extensive import team as T

    g = kuhn_poker(3, ranks=5)
    monkeypatch.setitem(T._MAX_ITER, "correlated", 2)
    capped = solve_team(g, (0, 1), "correlated")
    timed = solve_team(g, (0, 1), "correlated", time_limit=600)
    explicit = solve_team(g, (0, 1), "correlated", time_limit=600, max_iterations=2)
    assert capped.num_iter == explicit.num_iter == 2 and not capped.converged
    assert timed.converged and timed.num_iter > 2
    assert capped.lower <= timed.lower + TOL and timed.upper <= capped.upper + TOL


def test_correlated_methods_agree():
    g = kuhn_poker(3)
    a = solve_team(g, (0, 2), "correlated")
    b = solve_team(g, (0, 2), "correlated", method="column-generation-milp")
    assert a.converged and b.converged and abs(a.lower - b.lower) <= 2 * TOL


# --------------------------------------------------------------------------- Kuhn's deck
def test_kuhn_ranks():
    g = kuhn_poker(3, ranks=5)
    assert g.compiled.num_deals == 5 * 4 * 3 and g.num_types == (5, 5, 5) and g.zero_sum
    default = kuhn_poker(3)
    assert kuhn_poker(3, ranks=4).compiled.num_deals == default.compiled.num_deals == 24
    with pytest.raises(GutsInputError, match="ranks"):
        kuhn_poker(3, ranks=2)
    with pytest.raises(GutsInputError, match="ranks"):
        kuhn_poker(2, ranks=1.5)


# --------------------------------------------------------------------------- arguments
def test_bad_arguments():
    g = kuhn_poker(3)
    with pytest.raises(GutsInputError, match="adversary"):
        solve_team(g, (0,), "correlated")
    with pytest.raises(GutsInputError, match="regime"):
        solve_team(g, (0, 1), "cooperative")
    with pytest.raises(GutsInputError, match="method"):
        solve_team(g, (0, 1), "correlated", method="lp")
    with pytest.raises(GutsInputError, match="distinct"):
        solve_team(g, (1, 1), "correlated")
    with pytest.raises(GutsInputError, match="PublicTreeGame"):
        solve_team(coordination_game(), (0, 1), "communication")
    nonzero = ExplicitGame(ExplicitDecision(0, "a", {"x": ExplicitTerminal([1.0, 1.0, 1.0])}), 3)
    with pytest.raises(GutsInputError, match="zero-sum"):
        solve_team(nonzero, (0, 1), "correlated")


def test_a_target_wider_than_the_teams_payoff_range_is_refused():
    # the team's total payoff lies within +-(members x payoff scale): a bracket target wider than that
    # range is met by any bracket, however far apart its ends
    from guts.engine.extensive.team import solve_team
    from guts.errors import GutsInputError
    from guts.games.toy import kuhn_poker

    g = kuhn_poker(3)
    span = 2 * 2 * g.compiled.payoff_scale
    for target in (1e300, 1.01 * span):
        with pytest.raises(GutsInputError, match="payoff range"):
            solve_team(g, (0, 1), "correlated", target=target)


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_independent_bounded_by_communication_without_a_correlated_solve(kuhn3_solutions, adv):
    """``communication=`` replaces the correlated solve: the bracket's upper end is the communication
    value, its lower end what the returned members' strategies guarantee against the adversary's
    exact best response (an independent oracle: the engine's best response in the three-player game),
    and a start (the members' strategies of the local search from the correlated support) can only
    raise it."""
    from guts.engine.extensive import best_response

    g, team, r = kuhn3_solutions[4, adv]
    com, cor, ind_cor = r["communication"], r["correlated"], r["independent"]
    ind = solve_team(g, team, "independent", communication=com, random_starts=2)
    assert ind.upper == pytest.approx(com.upper, abs=TOL)
    assert ind.lower <= cor.upper + TOL                       # independent <= correlated
    br = best_response(g, tuple(ind.strategies), adv)
    assert -br.value == pytest.approx(ind.lower, abs=CMP)
    seeded = solve_team(g, team, "independent", communication=com, random_starts=0,
                        starts=[tuple(ind_cor.strategies[m] for m in team)])
    assert seeded.lower >= ind_cor.lower - CMP


def test_independent_starts_and_bound_are_validated(kuhn3_solutions):
    g, team, r = kuhn3_solutions[3, 0]
    with pytest.raises(GutsInputError, match="one behaviour strategy per team member"):
        solve_team(g, team, "independent", communication=r["communication"], starts=[(r["independent"].strategies[1],)])
    with pytest.raises(GutsInputError, match="not a behaviour strategy"):
        solve_team(g, team, "independent", communication=r["communication"], starts=[({}, {})])
    with pytest.raises(GutsInputError, match="communication must be"):
        solve_team(g, team, "independent", communication=r["correlated"])
