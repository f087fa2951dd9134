"""solve(): exact values certified by the brute-force oracle on small decks, the seed's
values at their printed precision, iterative methods within their certificates, bad input."""
import warnings

import numpy as np
import pytest

from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.poker.mercer import Deck
from guts.games.poker.mercer.paper import PAPER_3P_SMH_BET, PAPER_VALUES, PROGRAM_VALUES
from guts.games.poker.mercer.solve import solve

import mercer_oracle as O
from test_mercer_builder import as_oracle_strategy, oracle_rules

GAIN_ATOL = 1e-8


@pytest.mark.parametrize("variant", ["smh", "mmh"])
def test_lp_equilibrium_is_unexploitable_by_brute_force(variant):
    ranks, copies = (2, 3, 4), 2
    r = solve(variant, 2, "lp", deck=Deck(ranks, copies))
    game = r.built.game
    enum = O.Enumeration(oracle_rules(variant, 2, ranks, copies))
    strat = as_oracle_strategy(game, r.strategies)
    vals = enum.values(strat)
    np.testing.assert_allclose(vals, r.values, atol=GAIN_ATOL)
    for p in range(2):
        assert enum.best_response_value(strat, p) - vals[p] < GAIN_ATOL


def test_strong_collusion_lp_is_an_equilibrium_of_the_pooled_three_player_game():
    """The merged team's LP solution, played seat by seat in the engine's pooled game with
    shared information, leaves no player a profitable deviation (brute force)."""
    ranks, copies, team = (2, 3, 4, 5), 2, (1, 2)
    r = solve("smh", 3, "lp", collusion="strong", team=team, deck=Deck(ranks, copies))
    assert r.values[1] == pytest.approx(r.values[2]) and abs(r.values.sum()) < GAIN_ATOL
    merged = r.built
    idx = [{lab: t for t, lab in enumerate(merged.game.deals.type_labels[q])} for q in range(2)]
    labels = [merged.game.action_labels(q) for q in range(2)]

    def strat(p, info, history):
        q = merged.seat_player[p]
        return dict(zip(labels[q][tuple(history)], r.strategies[q][tuple(history)][idx[q][info]]))

    enum = O.Enumeration(oracle_rules("smh", 3, ranks, copies), pool_team=team)
    vals = enum.values(strat, team=team)
    np.testing.assert_allclose(vals, r.values, atol=GAIN_ATOL)
    for p in range(3):
        assert enum.best_response_value(strat, p, team=team) - vals[p] < GAIN_ATOL


def test_two_player_values_match_the_seed_at_printed_precision():
    # §4.2: 2P-SMH -0.1 / +0.1 and 2P-MMH -0.4 / +0.4 (one decimal printed)
    for variant in ("smh", "mmh"):
        r = solve(variant, 2, "lp")
        assert r.exploitability < 1e-9 and r.converged
        np.testing.assert_allclose(r.values, PAPER_VALUES[(variant, 2)], atol=0.05)
        assert r.values.sum() == pytest.approx(0.0, abs=1e-12)


def test_exact_two_player_values_within_the_stopping_regret_of_the_seeds_program():
    """Two-player zero-sum: a profile whose every regret is below eps has values within eps
    of the game value, so the seed program's own outputs (stopped at max regret eps) must
    lie within eps of the exact LP values."""
    for variant in ("smh", "mmh"):
        (prog, eps) = PROGRAM_VALUES[(variant, 2, None, None)]
        r = solve(variant, 2, "lp")
        assert np.max(np.abs(r.values - prog)) <= eps


def test_strong_collusion_team_value_near_the_seeds_program():
    """3P-SMH, seats 1 and 2 strongly colluding: a two-player zero-sum game (team vs victim).
    The program stopped when each of the three players' regret was below eps; a joint
    deviation of the team can gain up to the sum of its members' gains, hence 2 eps."""
    (prog, eps) = PROGRAM_VALUES[("smh", 3, "strong", (1, 2))]
    r = solve("smh", 3, "lp", collusion="strong", team=(1, 2))
    assert r.exploitability < 1e-9
    assert np.max(np.abs(r.values - prog)) <= 2 * eps


def test_three_player_smh_printed_values_are_consistent_with_a_bet_of_8():
    """§4.3 prints (-0.29, 0.008, 0.282) for 3P-SMH. The stated game (bet 4) has values near
    the seed program's own output (-0.0905, 0.0028, 0.0877); the printed figures are
    consistent with the same game with a bet of 8 (-0.299, +0.015, +0.284: the middle seat
    0.007 from the printed 0.008; three-player equilibria need not share values, so this is
    a comparison, not a certificate)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        stated = solve("smh", 3, "cfr+", target=1e-3 / 3)       # exploitability: NashConv 1e-3
        eight = solve("smh", 3, "cfr+", target=1e-3 / 3, bets=(PAPER_3P_SMH_BET,))
    (prog, eps) = PROGRAM_VALUES[("smh", 3, None, None)]
    assert np.max(np.abs(stated.values - prog)) <= eps
    assert abs(stated.values[0] - PAPER_VALUES[("smh", 3)][0]) > 0.15
    np.testing.assert_allclose(eight.values, PAPER_VALUES[("smh", 3)], atol=0.015)


def test_fictitious_play_within_its_certificate_of_the_lp_value():
    """Two-player zero-sum: V - u_0 <= gain_0 and u_0 - V <= gain_1 for any profile."""
    exact = solve("smh", 2, "lp").values[0]
    r = solve("smh", 2, "fp", target=0.01)
    assert r.converged and r.max_regret < 0.01
    assert exact - r.values[0] <= r.gains[0] + 1e-12
    assert r.values[0] - exact <= r.gains[1] + 1e-12


#: Relative slack of a certificate against its target (floating-point sums of gains).
TARGET_RTOL = 1e-9


@pytest.mark.parametrize("method", ["pcfr+", "cfr+", "dcfr"])
def test_cfr_target_is_exploitability(method):
    """``target`` of the CFR methods is exploitability, the mean of the players' best-response
    gains (NashConv / 3 here), as everywhere in the package; the certificate says so."""
    target = 0.01 / 3
    r = solve("smh", 3, method, target=target)
    assert r.converged and r.exploitability <= target * (1 + TARGET_RTOL)
    assert r.exploitability == pytest.approx(float(np.sum(r.gains)) / 3, rel=TARGET_RTOL)
    assert r.nash_conv == pytest.approx(3 * r.exploitability, rel=TARGET_RTOL)
    assert r.max_regret <= r.nash_conv + 1e-15
    assert r.target == r.epsilon == target
    c = r.certificate
    assert c.kind == "exploitability" and c.measure == pytest.approx(r.exploitability, rel=TARGET_RTOL)
    assert abs(r.values.sum()) < 1e-9


def test_cfr_target_reaches_the_engine_unchanged():
    """The engine's ``cfr_plus`` target is exploitability too: the same target runs the same
    iterations (an independent call of the engine on the same game)."""
    from guts.engine.extensive import cfr_plus
    from guts.games.poker.mercer import build_game, variant_rules

    target = 0.01 / 3
    r = solve("smh", 3, "cfr+", target=target)
    e = cfr_plus(build_game(variant_rules("smh", 3)).game, target=target, variant="cfr+", max_iterations=10**5)
    assert e.converged and r.num_iter == e.num_iter


def test_default_target_is_the_thesis_epsilon_as_nash_conv():
    """Without a target the CFR methods stop at NashConv <= 0.01 (exploitability 0.01 / players),
    fictitious play at every player's regret < 0.01."""
    from guts.games.poker.mercer.solve import DEFAULT_EPSILON, default_target

    assert default_target("lp", 2) is None
    assert default_target("fp", 3) == DEFAULT_EPSILON
    for n in (2, 3):
        assert default_target("pcfr+", n) * n == pytest.approx(DEFAULT_EPSILON, rel=TARGET_RTOL)
    r = solve("smh", 3, "cfr+")
    assert r.converged and r.nash_conv <= DEFAULT_EPSILON * (1 + TARGET_RTOL)
    f = solve("smh", 2, "fp")
    assert f.certificate.kind == "max_regret" and f.max_regret < DEFAULT_EPSILON


def test_iteration_cap_warns():
    with pytest.warns(ConvergenceWarning) as record:       # the engine's warning, then the family's
        r = solve("mmh", 2, "cfr+", target=1e-6, max_iterations=3)
    assert any("not certified: exploitability" in str(w.message) for w in record)
    assert not r.converged and r.exploitability > 1e-6


@pytest.mark.parametrize("kwargs,needle", [
    (dict(variant="holdem"), "variant"),
    (dict(variant=3), "variant"),
    (dict(players=4), "players"),
    (dict(method="simplex"), "method"),
    (dict(method="cfr+", target=0.0), "target"),
    (dict(method="fp", target=-1), "target"),
    (dict(players=3, method="cfr+", collusion="weak", team=(1, 1)), "team"),
    (dict(players=3, method="cfr+", collusion="weak", team=(0, 3)), "team"),
    (dict(players=3, method="cfr+", collusion="weak", team=(0, 1, 2)), "team"),
    (dict(players=3, method="cfr+", collusion="weak"), "team"),
    (dict(players=2, method="cfr+", collusion="weak", team=(0, 1)), "3 players"),
    (dict(players=3, method="cfr+", collusion="medium", team=(0, 1)), "collusion"),
    (dict(players=3, method="lp"), "lp"),
    (dict(players=3, method="lp", collusion="weak", team=(0, 1)), "lp"),
    # checked whatever the method (the LP does not read them: refused, not ignored)
    (dict(time_limit="abc"), "time_limit"),
    (dict(threads=1e300), "threads"),
    (dict(threads=True), "threads"),
])
def test_bad_input_one_clear_error(kwargs, needle):
    args = dict(variant="smh", players=2, method="lp")
    args.update(kwargs)
    with pytest.raises(GutsInputError, match=needle) as exc:
        solve(args.pop("variant"), **args)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("variant,deck", [("smh", None), ("mmh", Deck((2, 3, 4), 2))])
def test_free_check_in_the_fixed_model_is_worth_exactly_zero(variant, deck):
    """In the seed's model nobody has to match a bet: with a free check, always checking
    guarantees a player his showdown equity, which is 0 by symmetry of the deal, and no
    bet can force a checker out; so the two-player value is 0 (beyond the paper)."""
    kw = {} if deck is None else dict(deck=deck)
    r = solve(variant, 2, "lp", check=True, **kw)
    assert abs(r.values[0]) < 1e-9 and r.exploitability < 1e-9


def test_limit_betting_with_check_is_an_exact_equilibrium_by_brute_force():
    ranks, copies = (2, 3, 4), 2
    r = solve("mmh", 2, "lp", betting="limit", check=True, deck=Deck(ranks, copies))
    enum = O.Enumeration(oracle_rules("mmh", 2, ranks, copies, betting="limit", check=True))
    strat = as_oracle_strategy(r.built.game, r.strategies)
    vals = enum.values(strat)
    for p in range(2):
        assert enum.best_response_value(strat, p) - vals[p] < GAIN_ATOL


@pytest.mark.parametrize("method", ["cfr+", "fp"])
def test_a_target_the_uniform_start_already_meets_is_refused(method):
    """Every iterative method starts from the uniform strategies: a target at or above their
    certificate (exploitability for CFR+; NashConv, which bounds every player's regret, for
    fictitious play) is met before any step and certifies nothing."""
    from guts.engine.extensive import nash_conv, uniform_strategy
    from guts.games.poker.mercer import build_game, variant_rules

    game = build_game(variant_rules("smh", 2)).game
    start = nash_conv(game, uniform_strategy(game)) / (2 if method == "cfr+" else 1)
    assert 0.5 < start < 10.0                        # within the CLI's stated range: the range alone lets it pass
    for target in (start, 10.0):
        with pytest.raises(GutsInputError, match="uniform strategies"):
            solve("smh", 2, method, target=target)
    if method == "fp":                               # just below: accepted, and the verdict is the measure's
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = solve("smh", 2, method, target=0.99 * start, max_iterations=2)
        assert r.converged == (r.max_regret < 0.99 * start)
