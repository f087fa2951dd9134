"""Liar's Dice against OpenSpiel's ``liars_dice``, and its exact values.

Oracles: OpenSpiel (terminal payoffs, information sets, the LP value of its imported game),
the combinatorics of increasing bid sequences, and exact best responses in rational
arithmetic (independent of the LP).
"""
import math
from fractions import Fraction

import numpy as np
import pytest

from guts.engine.extensive import expected_values, solve_lp
from guts.engine.result import check_result
from guts.engine.extensive.rational import exact_best_response, exact_expected_values
from guts.errors import GutsInputError
from guts.games.liars_dice import LIAR, deal_table, dice_types, liars_dice, size, solve

VALUE_TOL = 1e-9


def os_walk(pyspiel, dice, faces):
    """Every OpenSpiel state of ``liars_dice(numdice, dice_sides)``: (information sets per player,
    terminals as (sorted dice of each player, bid labels, returns))."""
    g = pyspiel.load_game(f"liars_dice(numdice={dice},dice_sides={faces})")
    infosets, terminals = [set(), set()], []

    def walk(s, rolls, bids):
        if s.is_terminal():
            terminals.append((tuple(sorted(rolls[:dice])), tuple(sorted(rolls[dice:])), tuple(bids),
                              tuple(s.returns())))
            return
        if s.is_chance_node():
            for a, _ in s.chance_outcomes():
                walk(s.child(a), rolls + [a + 1], bids)
            return
        p = s.current_player()
        infosets[p].add(s.information_state_string(p))
        for a in s.legal_actions():
            lab = s.action_to_string(p, a)
            walk(s.child(a), rolls, bids + ([lab] if lab != LIAR else []))

    walk(g.new_initial_state(), [], [])
    return infosets, terminals


@pytest.mark.parametrize("dice,faces", [(1, 3), (2, 2)])
def test_terminal_payoffs_and_information_sets_equal_openspiel(dice, faces):
    pyspiel = pytest.importorskip("pyspiel")
    infosets, terminals = os_walk(pyspiel, dice, faces)
    g = liars_dice((dice, dice), faces)
    sets, _, _ = dice_types(dice, faces)
    info = g.deals.info
    deal_of = {(sets[a], sets[b]): d for d, (a, b) in enumerate(info.T)}
    for r0, r1, bids, returns in terminals:
        node = g.root
        for lab in bids + (LIAR,):
            node = node.actions[lab]
        np.testing.assert_array_equal(node.payoff(g.deals.num_deals)[:, deal_of[(r0, r1)]], returns)
    # the wild face matters: without it the bidder's result differs from OpenSpiel's somewhere
    differ = 0
    for r0, r1, bids, returns in terminals:
        q, f = (int(x) for x in bids[-1].split("-"))
        true_without_wild = sum(v == f for v in r0 + r1) >= q
        bidder = (len(bids) - 1) % 2
        differ += (returns[bidder] > 0) != true_without_wild
    assert differ > 0
    # OpenSpiel's information state "<dice> <bid> <bid> ..." is (our type label, our history)
    for p in range(2):
        ours = {" ".join((lab,) + h) for h in g.decision_histories(p) for lab in g.deals.type_labels[p]}
        assert ours == infosets[p]


@pytest.mark.parametrize("dice,faces", [(1, 2), (1, 3), (1, 4), (2, 2)])
def test_lp_value_equals_openspiel_import(dice, faces):
    pytest.importorskip("pyspiel")
    from guts.engine.extensive import from_openspiel

    imported = from_openspiel(f"liars_dice(numdice={dice},dice_sides={faces})")
    r = solve((dice, dice), faces)
    assert r.value == pytest.approx(solve_lp(imported).value, abs=VALUE_TOL)
    assert r.exact_value is not None and float(r.exact_value) == pytest.approx(r.value, abs=VALUE_TOL)
    # the import has OpenSpiel's information sets; ours are the same number
    assert len(imported.openspiel.infosets) == sum(size((dice, dice), faces).infosets)


def test_one_die_six_faces_value_is_minus_7_over_258_exactly():
    r = solve((1, 1), 6)
    assert r.exact_value == Fraction(-7, 258)
    assert r.exact_lower == r.exact_upper == Fraction(-7, 258)
    assert r.certificate.kind == "interval" and r.certificate.gap == 0
    g = liars_dice((1, 1), 6)
    # the certificate's pair, checked once more from scratch: each side's exact best response
    assert exact_best_response(g, r.exact_strategies, 0) == Fraction(-7, 258)
    assert -exact_best_response(g, r.exact_strategies, 1) == Fraction(-7, 258)
    ev = exact_expected_values(g, r.exact_strategies)
    assert ev == (Fraction(-7, 258), Fraction(7, 258))


def test_two_faces_one_die_each_by_hand():
    # faces 2: face 2 is wild, so bids on face 1 are always true. Opening "2-1" leaves player 1
    # "Liar" (loses) or "2-2", true only when both dice are 2 (player 0 must then call): player 1
    # with a 1 loses, with a 2 wins half the time. Opening 2-1 guarantees player 0 exactly 1/2.
    g = liars_dice((1, 1), 2)
    only = {h: [[Fraction(int(lab == "2-1" or (lab == LIAR)))
                 for lab in labs]] * 2 for h, labs in g.action_labels(0).items()}
    for h, labs in g.action_labels(0).items():          # a decision without 2-1 or Liar: the first bid
        if LIAR not in labs and "2-1" not in labs:
            only[h] = [[Fraction(int(i == 0)) for i in range(len(labs))]] * 2
    assert -exact_best_response(g, (only, {}), 1) == Fraction(1, 2)
    assert solve((1, 1), 2).exact_value == Fraction(1, 2)


def test_deals_are_multisets_with_multinomial_probabilities():
    faces = 4
    sets, probs, labels = dice_types(2, faces)
    assert len(sets) == faces * (faces + 1) // 2 == len(set(labels))
    assert sum(probs) == 1
    for s, p in zip(sets, probs):
        assert p == (Fraction(1, faces ** 2) if s[0] == s[1] else Fraction(2, faces ** 2))
    info, prob, counts, _ = deal_table((2, 1), faces)
    assert sum(prob) == 1 and info.shape == (2, len(sets) * faces)
    # the wild face counts for every lower face and only itself for its own
    g = liars_dice((2, 1), faces)
    assert g.exact_deal_prob == prob
    np.testing.assert_allclose(g.deals.prob, [float(p) for p in prob], rtol=0, atol=1e-15)
    d = next(d for d in range(info.shape[1]) if sets[info[0, d]] == (1, 4) and info[1, d] == 3)
    assert list(counts[:, d]) == [3, 2, 2, 2]


@pytest.mark.parametrize("dice,faces", [((1, 1), 3), ((2, 1), 2), ((1, 2), 3), ((2, 2), 2)])
def test_size_counts_equal_the_built_game(dice, faces):
    s = size(dice, faces)
    g = liars_dice(dice, faces)
    B = s.bids
    assert B == sum(dice) * faces
    # 2^B bid histories (every set of bids, made in increasing order), half of them player 0's
    assert s.histories == 2 ** B and s.terminals == 2 ** B - 1
    assert s.infosets == tuple(2 ** (B - 1) * k for k in g.num_types)
    assert s.infosets == tuple(len(g.decision_histories(p)) * g.num_types[p] for p in range(2))
    assert s.sequences == tuple(sum(len(a) for a in g.action_labels(p).values()) * g.num_types[p] for p in range(2))
    assert g.size.terminals == s.terminals and s.deals == g.deals.num_deals
    # the LP's size and memory as the engine estimates them from the compiled game
    from guts.engine.extensive.lp import lp_memory_estimate

    assert lp_memory_estimate(g) == (s.lp_nonzeros, s.lp_bytes)
    assert s.game_bytes == g.size.bytes
    assert s.types == (math.comb(dice[0] + faces - 1, dice[0]), math.comb(dice[1] + faces - 1, dice[1]))


def test_zero_sum_and_exact_identities_on_small_games():
    for dice, faces in (((2, 1), 3), ((1, 2), 3)):
        r = solve(dice, faces)
        assert r.exact_value is not None
        assert r.values[0] + r.values[1] == pytest.approx(0, abs=1e-12)
        g = liars_dice(dice, faces)
        ev = exact_expected_values(g, r.exact_strategies)
        assert ev[0] == r.exact_value and ev[0] + ev[1] == 0
        assert r.lower == r.upper == float(r.exact_value)
        assert check_result(r) == [] and r.converged and r.certificate.holds(0.0)
        np.testing.assert_allclose(expected_values(g, r.strategies)[0], r.value, atol=VALUE_TOL)


def test_cfr_bracket_contains_the_exact_value():
    exact = solve((1, 1), 3).exact_value
    r = solve((1, 1), 3, method="cfr+", max_iterations=200)
    assert r.exact_value is None
    assert r.lower <= float(exact) <= r.upper
    assert r.upper - r.lower == pytest.approx(r.nash_conv, abs=1e-12)


@pytest.mark.parametrize("kwargs", [dict(dice=(0, 1)), dict(dice=(1, 1, 1)), dict(faces=1), dict(dice="x"),
                                    dict(method="simplex"),
                                    # the exact LP reads neither: refused, not ignored
                                    dict(max_iterations=1e300), dict(max_iterations="abc"), dict(target=1e300)])
def test_bad_input(kwargs):
    with pytest.raises(GutsInputError):
        solve(**kwargs)


def test_games_and_lps_over_the_budget_are_refused_before_anything_is_built():
    with pytest.raises(GutsInputError, match="Liar's Dice 5v5 with 12 faces"):
        liars_dice((5, 5), 12)                   # 2^120 bid histories
    with pytest.raises(GutsInputError, match="method='cfr\\+'"):
        solve((2, 1), 6)                         # 3.3e7 payoff non-zeros: ~11.6 GiB by the engine's estimate


def test_experiment_script_writes_the_table_as_one_set(tmp_path):
    import importlib.util
    import json
    from pathlib import Path

    import pandas as pd

    script = Path(__file__).resolve().parents[3] / "experiments" / "liars_dice_table.py"
    spec = importlib.util.spec_from_file_location("liars_dice_table", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "out"
    assert module.main(["--cases", "1v1:2-4", "--out", str(out), "--no-cache", "--quiet"]) == 0
    df = pd.read_csv(out / "liars_dice.csv", keep_default_na=False)
    assert list(df["faces"]) == [2, 3, 4] and set(df["method"]) == {"lp"}
    for _, row in df.iterrows():
        assert float(Fraction(row["exact_value"])) == pytest.approx(row["value"], abs=VALUE_TOL)
        assert row["lower"] <= row["value"] + VALUE_TOL and row["value"] - VALUE_TOL <= row["upper"]
    meta = json.loads((out / "liars_dice.meta.json").read_text())
    assert meta["parameters"]["cases"] == [[1, 1, f, "auto"] for f in (2, 3, 4)]
    assert (out / "liars_dice.manifest.json").is_file()
    assert module.main(["--cases", "1v1:x", "--out", str(out), "--no-cache", "--quiet"]) == 2
