"""The raise game: structured LP vs the engine's sequence-form LP, certificates, the
oracle, dominance facts, the seed's R = 40 figure, and bad input."""
import numpy as np
import pytest

from guts.engine.extensive import exploitability, expected_values, solve_lp
from guts.errors import GutsInputError
from guts.games.holdem import EXPLOITABILITY_TOL, best_response_values, equity_table, raise_game_tree, solve_raise_game
from guts.games.holdem.cards import CLASS_LABELS

VALUE_TOL = 1e-9   # chips per hand: two exact LP solutions of the same game


@pytest.fixture(scope="module")
def table():
    return equity_table()


@pytest.mark.parametrize("raises,reraises", [((2, 3, 4), ()), ((2, 7), (5,)), ((3,), (2, 9))])
def test_structured_lp_matches_engine_sequence_form(table, raises, reraises):
    r = solve_raise_game(raises=raises, reraises=reraises, method="lp", table=table)
    game = raise_game_tree(raises, reraises, table)
    ref = solve_lp(game)
    assert ref.converged and r.converged
    assert abs(r.value - ref.value) < VALUE_TOL
    # the structured pair is an equilibrium of the engine's game (independent best response)
    assert exploitability(game, r.strategies) <= EXPLOITABILITY_TOL
    assert abs(expected_values(game, r.strategies)[0] - r.value) < VALUE_TOL
    assert r.certified_by == "engine" and r.exploitability <= EXPLOITABILITY_TOL


def test_engine_method_and_direct_best_responses_agree(table):
    r = solve_raise_game(raises=(2, 5), reraises=(4,), method="engine", table=table)
    u, br_a, br_b = best_response_values(table, r.raises, r.reraises, r.alice_strategy, r.alice_call_reraise,
                                         r.bob_strategy, r.bob_reraise)
    assert abs(u - r.value) < VALUE_TOL
    assert br_a - br_b == pytest.approx(r.nash_conv, abs=1e-12)


def test_oracle_generates_the_missing_sizes(table):
    # the oracle starts from sizes <= 12 and the largest; 13..21 must be generated
    raises = (2, 4, 5, 6, 13, 15, 21, 22)
    full = solve_raise_game(raises=raises, method="lp", table=table, certify=False)
    orc = solve_raise_game(raises=raises, method="oracle", table=table)
    assert orc.num_iter >= 2                                  # at least one round added sizes
    assert abs(full.value - orc.value) < VALUE_TOL
    assert orc.converged and orc.exploitability <= EXPLOITABILITY_TOL
    # sizes the oracle never put in the LP are unused by Alice and deterred by Bob's defence
    unused = [k for k, r in enumerate(raises) if r not in orc.info["active"]]
    assert np.all(orc.alice_strategy[:, [2 + k for k in unused]] == 0)


def test_alice_never_folds_and_value_grows_with_options(table):
    # calling can't be punished (Bob has no action after it): its payoff is 2 (2 E_i - 1) with
    # E_i the equity against a random hand, > 1/4 for every class, so calling beats folding (-1)
    assert table.vs_random().min() > 0.25
    vals = []
    for R in (2, 4, 6):
        r = solve_raise_game(max_raise=R, table=table, certify=False)
        assert np.all(r.alice_strategy[:, 0] < 1e-12)
        assert r.exploitability <= EXPLOITABILITY_TOL
        vals.append(r.value)
    assert vals[0] <= vals[1] + VALUE_TOL <= vals[2] + 2 * VALUE_TOL
    # Bob's re-raise option can only help Bob
    rr = solve_raise_game(max_raise=4, reraises=(6,), table=table, certify=False)
    assert rr.value <= vals[1] + VALUE_TOL


def test_strategies_are_distributions(table):
    r = solve_raise_game(raises=(2, 6), reraises=(3, 12), table=table, certify=False)
    assert np.allclose(r.alice_strategy.sum(axis=1), 1.0) and (r.alice_strategy >= 0).all()
    tot = r.bob_strategy + r.bob_reraise.sum(axis=2)
    assert (tot <= 1 + 1e-12).all() and (r.bob_strategy >= 0).all() and (r.bob_reraise >= 0).all()
    assert ((r.alice_call_reraise >= 0) & (r.alice_call_reraise <= 1)).all()
    assert r.action_frequencies(table).sum() == pytest.approx(1.0)


@pytest.mark.slow
def test_seed_r40_value_and_claims(table):
    """Seed 001: 'Alice can ... gain an average of at least 0.39776' (R = 40; the author's
    printed figure is his approximate strategy's value against Bob's best response, so
    the exact value may only be larger, by less than his 1e-4 duality gap)."""
    r = solve_raise_game(max_raise=40, table=table)
    assert r.converged and r.exploitability <= EXPLOITABILITY_TOL
    assert 0.39776 <= r.value < 0.39776 + 1e-4
    freq = dict(zip(r.actions, r.action_frequencies(table)))
    assert freq["f"] < 1e-12                                  # "Alice never folds"
    assert abs(freq["c"] - 0.43) < 0.01                       # "flat call (around 43% of the time)"
    assert freq["r2"] + freq["r3"] < 0.01                     # "almost never raises by 2 or 3 ..."
    assert sum(freq[f"r{k}"] for k in range(24, 41)) < 0.01   # "... or more than 23"
    i = CLASS_LABELS.index("63s")                             # "63s ... raises": a bluff with a weak hand
    assert r.alice_strategy[i, 2:].sum() > 0.99


def test_bad_input():
    with pytest.raises(GutsInputError, match="max_raise"):
        solve_raise_game(max_raise=1)
    with pytest.raises(GutsInputError, match="max_raise"):
        solve_raise_game(max_raise="ten")
    with pytest.raises(GutsInputError, match="distinct"):
        solve_raise_game(raises=(2, 2))
    with pytest.raises(GutsInputError, match="re-raise size"):
        solve_raise_game(max_raise=4, reraises=(1,))
    with pytest.raises(GutsInputError, match="re-raise sizes must be a list"):
        solve_raise_game(max_raise=4, reraises=5)
    with pytest.raises(GutsInputError, match="method"):
        solve_raise_game(max_raise=4, method="magic")
