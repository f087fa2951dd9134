"""The sequence-pair relaxation of the correlated regime and the local-search pricing.

The relaxation's bound must lie between the correlated value (a brute-force oracle, or the
exact column generation) and the communication value, whatever multipliers certify it
(weak duality); the local-search column generation must bracket the exact value.
"""
import numpy as np
import pytest
from team_oracle import brute_force_correlated, random_public_game

from guts import GutsInputError
from guts.engine.extensive import correlated_upper_bound, solve_team
from guts.engine.extensive.team import _realisation, _Team
from guts.engine.extensive.team_relaxation import _certified_bound, pair_relaxation, relaxation_data
from guts.engine.extensive.strategies import normalise_blocks, uniform_flat
from guts.engine.matrix_game import solve_matrix_lp
from guts.games.toy import kuhn_poker, leduc_poker

TOL = 1e-8


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_relaxation_lies_between_correlated_and_communication(seed):
    game, deals, pay = random_public_game(seed)
    oracle = solve_matrix_lp(brute_force_correlated(deals, pay)).value
    rel = pair_relaxation(_Team(game, (0, 1), 2))
    com = solve_team(game, (0, 1), "communication")
    assert oracle - TOL <= rel["upper"] <= com.upper + TOL
    assert abs(rel["upper"] - rel["lp_value"]) <= 1e-6      # the certificate costs no more than the LP's tolerance


@pytest.fixture(scope="module")
def kuhn_exact():
    out = {}
    for ranks in (4, 5):
        g = kuhn_poker(3, ranks=ranks)
        for adv in range(3):
            team = tuple(p for p in range(3) if p != adv)
            out[ranks, adv] = (g, team, solve_team(g, team, "correlated"), solve_team(g, team, "communication"))
    return out


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_relaxation_is_exact_on_kuhn_with_four_ranks(kuhn_exact, adv):
    g, team, cor, com = kuhn_exact[4, adv]
    rel = pair_relaxation(_Team(g, team, adv))
    assert cor.converged
    assert abs(rel["upper"] - cor.value) <= TOL
    assert rel["upper"] < com.upper - 0.02          # communication is worth 0.04 to 0.05 more


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_relaxation_bounds_kuhn_with_five_ranks(kuhn_exact, adv):
    g, team, cor, com = kuhn_exact[5, adv]
    rel = pair_relaxation(_Team(g, team, adv))
    assert cor.upper - TOL <= rel["upper"] <= cor.upper + 0.005
    assert rel["upper"] < com.lower


@pytest.mark.parametrize("seed", [0, 1])
def test_any_multipliers_certify_a_bound(seed):
    """Weak duality: for every adversary plan Y and multipliers pi, the certified sum bounds
    what an exact team best response earns against Y (the public-state programme)."""
    rng = np.random.default_rng(seed)
    g = kuhn_poker(3, ranks=4)
    tm = _Team(g, (0, 2), 1)
    data = relaxation_data(tm)
    _check_weak_duality(tm, data, rng, draws=5, scale=0.1)


def _check_weak_duality(tm, data, rng, *, draws, scale):
    """Random adversary plans and multipliers never certify below the exact team best response."""
    pa = tm.pa
    for _ in range(draws):
        Y = _realisation(pa, normalise_blocks(pa, rng.gamma(1.0, size=(pa.num_seqs, pa.num_types))))
        pi = rng.normal(scale=scale, size=data["C"].shape[0])
        _plans, best, _ = tm.best_response(Y)
        assert _certified_bound(data, Y, pi) >= best - TOL


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_local_pricing_brackets_the_exact_value(kuhn_exact, adv):
    g, team, cor, _com = kuhn_exact[4, adv]
    loc = solve_team(g, team, "correlated", method="column-generation-local")
    assert loc.lower - TOL <= cor.value <= loc.upper + TOL
    assert loc.converged and loc.upper - loc.lower <= TOL     # the local search finds the optimum here
    assert loc.method == "column-generation-local"


def test_local_best_responses_are_local_optima():
    g = kuhn_poker(3, ranks=5)
    tm = _Team(g, (0, 1), 2, pricing="local")
    pa = tm.pa
    rng = np.random.default_rng(3)
    Y = _realisation(pa, normalise_blocks(pa, rng.gamma(1.0, size=(pa.num_seqs, pa.num_types))))
    exact = _Team(g, (0, 1), 2).best_response(Y)[1]
    uni = tuple(_realisation(pt, uniform_flat(pt)) for pt in tm.pts)
    for plans, value in tm.local_best_response(Y, [(uni, 0), (uni, 1)]):
        assert value <= exact + TOL
        for i in range(2):                    # no member gains alone
            other = tm.local_best_response(Y, [(plans, i)], max_rounds=1)[0][1]
            assert other <= value + TOL


def test_without_a_relaxation_the_communication_value_bounds(monkeypatch):
    import guts.engine.extensive.team as team_module
    from guts.errors import ConvergenceWarning, SolverError

    def no_dual(tm, **kwargs):
        raise SolverError("HiGHS returned no dual solution of the team pair-relaxation LP")

    monkeypatch.setattr(team_module, "pair_relaxation", no_dual)
    g = kuhn_poker(3, ranks=4)
    with pytest.warns(ConvergenceWarning, match="communication value"):
        loc = solve_team(g, (0, 1), "correlated", method="column-generation-local")
    com = solve_team(g, (0, 1), "communication")
    assert abs(loc.upper - com.upper) <= TOL and loc.lower <= loc.upper


def test_default_method_falls_back_to_the_local_search_where_the_milp_is_large(monkeypatch):
    import guts.engine.extensive.team as team_module

    g = kuhn_poker(3, ranks=9)                  # 9 cards a member: 2^18 type sets, beyond TEAM_DP_STATES
    monkeypatch.setattr(team_module, "TEAM_MILP_PRODUCTS", 10)
    loc = solve_team(g, (0, 1), "correlated")
    assert loc.method == "column-generation-local"
    monkeypatch.setattr(team_module, "TEAM_DP_STATES", 2 ** 18)
    exact = solve_team(g, (0, 1), "correlated")  # the dynamic programme, allowed for the comparison
    assert exact.method == "column-generation" and exact.converged
    assert loc.lower - TOL <= exact.value <= loc.upper + TOL


def test_above_the_pair_limit_the_local_method_skips_the_relaxation(monkeypatch):
    import guts.engine.extensive.team as team_module

    def must_not_run(tm, **kwargs):
        raise AssertionError("the relaxation LP ran above TEAM_RELAXATION_MAX_PAIRS")

    monkeypatch.setattr(team_module, "pair_relaxation", must_not_run)
    monkeypatch.setattr(team_module, "TEAM_RELAXATION_MAX_PAIRS", 10)
    g = kuhn_poker(3, ranks=5)
    loc = solve_team(g, (1, 2), "correlated", method="column-generation-local", max_iterations=1)
    com = solve_team(g, (1, 2), "communication")
    assert abs(loc.upper - com.upper) <= TOL


@pytest.mark.parametrize("method", ["column-generation", "column-generation-local"])
def test_given_profiles_seed_the_correlated_master(kuhn_exact, method):
    # a product of behaviour strategies is a correlated strategy: with the independent
    # regime's profile as a column, the first master is worth at least its guarantee
    g, team, cor, _com = kuhn_exact[5, 0]
    ind = solve_team(g, team, "independent", correlated=cor)
    prof = tuple(ind.strategies[s] for s in team)
    one = solve_team(g, team, "correlated", method=method, starts=[prof], max_iterations=1)
    assert one.lower >= ind.lower - TOL
    assert one.lower - TOL <= cor.value <= one.upper + TOL
    full = solve_team(g, team, "correlated", method=method, starts=[prof])
    assert full.lower - TOL <= cor.value <= full.upper + TOL
    assert abs(sum(w for w, _ in full.support) - 1.0) <= TOL
    if method == "column-generation":
        assert full.converged and abs(full.value - cor.value) <= TOL


def test_a_malformed_seed_is_refused_in_the_correlated_regime():
    from guts import GutsInputError

    with pytest.raises(GutsInputError, match=r"starts\[0\]"):
        solve_team(kuhn_poker(3, ranks=4), (1, 2), "correlated", starts=[({},)])


# ---------------------------------------------------------------- communication below a cut
def small_leduc():
    """Three-player Leduc with 2 ranks and one raise: a public board card, exact correlated
    values in seconds, and strict gaps between the bounds (seat 0 the adversary)."""
    return leduc_poker(3, ranks=2, max_raises=1)


@pytest.mark.parametrize("adv", [0, 1, 2])
def test_communicating_from_the_root_is_the_communication_value(kuhn_exact, adv):
    g, team, _cor, com = kuhn_exact[4, adv]
    b = correlated_upper_bound(g, team, communicate_after=0, solver="ipm")
    assert b["pairs"] == 1 and b["merged"] > 0          # only R(empty, empty): the merged team's LP
    assert abs(b["upper"] - com.value) <= 1e-7


def test_without_public_chance_the_cut_changes_nothing():
    tm = _Team(kuhn_poker(3, ranks=5), (0, 1), 2)
    whole, cut = relaxation_data(tm), relaxation_data(tm, communicate_after=1)
    assert cut["merged"] == 0
    assert np.array_equal(whole["pairs"], cut["pairs"])
    assert (whole["C"] != cut["C"]).nnz == 0 and (whole["A"] != cut["A"]).nnz == 0


def test_any_multipliers_certify_a_bound_below_a_cut():
    """Weak duality for the LP with communication after the board card: every joint pure plan
    satisfies its identities, so any multipliers bound the exact team best response."""
    rng = np.random.default_rng(7)
    tm = _Team(small_leduc(), (1, 2), 0)
    data = relaxation_data(tm, communicate_after=1)
    assert data["merged"] > 0
    _check_weak_duality(tm, data, rng, draws=4, scale=0.05)


def test_communication_after_the_board_card_lies_between_the_whole_relaxation_and_communication():
    g = small_leduc()
    team = (1, 2)
    cor = solve_team(g, team, "correlated", method="column-generation")     # exact here
    com = solve_team(g, team, "communication")
    whole = correlated_upper_bound(g, team, solver="ipm")
    cut = correlated_upper_bound(g, team, communicate_after=1, solver="ipm")
    assert cor.converged
    assert cor.value - TOL <= whole["upper"] <= cut["upper"] + TOL
    assert cut["upper"] <= com.value + TOL
    # each relaxation keeps something of the members' ignorance: the gaps are strict here
    assert cor.value + 0.01 < whole["upper"] < cut["upper"] - 0.05 < com.value - 0.06
    assert cut["pairs"] < whole["pairs"] / 10


def test_column_generation_falls_back_to_the_cut_relaxation(monkeypatch):
    """Above the whole relaxation's size limit the solver bounds by the relaxation cut at the
    board card; its bracket still holds the exact value."""
    from guts.engine.extensive import team as team_module

    g = small_leduc()
    exact = solve_team(g, (1, 2), "correlated", method="column-generation").value
    cut = correlated_upper_bound(g, (1, 2), communicate_after=1)["upper"]
    monkeypatch.setattr(team_module, "TEAM_RELAXATION_MAX_PAIRS", 10)
    loc = solve_team(g, (1, 2), "correlated", method="column-generation-local", max_iterations=3)
    assert loc.lower - TOL <= exact <= loc.upper + TOL
    assert loc.upper <= cut + TOL


@pytest.mark.parametrize("kwargs, word", [(dict(communicate_after=-1), "communicate_after"),
                                          (dict(solver="pdlp"), "solver"),
                                          (dict(time_limit=0), "time_limit")])
def test_correlated_upper_bound_names_the_bad_value(kwargs, word):
    with pytest.raises(GutsInputError, match=word):
        correlated_upper_bound(kuhn_poker(3, ranks=4), (1, 2), **kwargs)


def test_correlated_upper_bound_needs_a_two_member_team():
    with pytest.raises(GutsInputError, match="two-member team"):
        correlated_upper_bound(kuhn_poker(2), (0,))
