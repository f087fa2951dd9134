"""The tree-size pre-flight: counting the public tree from the rules.

Oracle: the built game. ``count_tree`` must give exactly the builder's :class:`TreeStats`
(and ``count_poker`` the engine's ``estimate_size`` of the ACPC builder's tree), on variants
covering both betting models, several bet sizes, the check, three players, collusion,
several board rounds and mixed betting models; then the guard must refuse the big command
of the issue (limit MMH with eight bet sizes and a check) at once, with one line.
"""
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.games.poker import build_poker, read_poker
from guts.games.poker.build import count_poker
from guts.games.poker.builder import (MAX_ACTION_DEPTH, Collusion, build_game, check_tree_memory, count_tree)
from guts.games.poker.cards import Deck
from guts.games.poker.evaluators import mercer_evaluator
from guts.games.poker.rules import Round, Rules, mmh_rules, smh_rules, variant_rules
from guts.games.poker.spec import PokerRound, PokerSpec

STATS = ("players", "deals", "types", "public_states", "decision_nodes", "chance_nodes", "terminals",
         "info_sets", "info_sets_per_player", "share_tables")

EIGHT = tuple(float(b) for b in range(1, 9))

CASES = {
    "2P-SMH": (variant_rules("smh", 2), None, False),
    "3P-SMH": (variant_rules("smh", 3), None, False),
    "2P-MMH": (variant_rules("mmh", 2), None, False),
    "3P-MMH": (variant_rules("mmh", 3), None, False),
    "2P-SMH limit, 8 bets, check": (smh_rules(2, bets=EIGHT, check=True, betting="limit"), None, False),
    "3P-SMH limit, 2 bets, check": (smh_rules(3, bets=(2.0, 4.0), check=True, betting="limit"), None, False),
    "2P-SMH fixed, 3 bets, check": (smh_rules(2, bets=(2.0, 4.0, 8.0), check=True), None, False),
    "2P-MMH limit": (mmh_rules(2, betting="limit"), None, False),
    "3P-MMH weak": (variant_rules("mmh", 3), Collusion((0, 1), "weak"), False),
    "3P-SMH strong pooled": (variant_rules("smh", 3), Collusion((0, 2), "strong"), False),
    "3P-MMH strong merged": (variant_rules("mmh", 3), Collusion((1, 2), "strong"), True),
    "two board rounds": (Rules(rounds=(Round(ante=1, hole_cards=2, orbits=1), Round(shared_cards=1, orbits=1, check=True),
                                       Round(shared_cards=1, orbits=1))), None, False),
    "fixed then limit": (Rules(rounds=(Round(ante=1, hole_cards=2, orbits=1, bets=(1.0, 3.0)),
                                       Round(shared_cards=1, orbits=1, check=True, betting="limit", bets=(2.0,)),
                                       Round(shared_cards=1, orbits=1))), None, False),
    "3P small deck, fixed then limit": (Rules(Deck((2, 3, 4), 3), (
        Round(ante=1, hole_cards=1, orbits=1, bets=(1.0, 3.0)),
        Round(shared_cards=1, orbits=1, check=True, betting="limit", bets=(2.0,)),
        Round(shared_cards=2, orbits=1, betting="limit", bets=(1.0,))), mercer_evaluator(), 3), None, False),
}


SLOW = {"3P small deck, fixed then limit"}      # 5 s: 50 k public states, mixed betting models


@pytest.mark.parametrize("name", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in CASES])
def test_count_tree_equals_built_game(name):
    rules, collusion, merge = CASES[name]
    count = count_tree(rules, collusion, merge_team=merge)
    stats = build_game(rules, collusion, merge_team=merge).stats
    for f in STATS:
        assert getattr(count, f) == getattr(stats, f), f


def _leduc():
    return read_poker("leduc.game")


ACPC = {
    "leduc": _leduc,
    "leduc, 3 players": lambda: replace(_leduc(), num_players=3, blinds=(1, 1, 1)),
    "one suit, no board": lambda: PokerSpec(2, 3, 1, 1, (PokerRound(0, 1.0, 1, 0),), antes=(1, 1)),
    "blinds, three rounds": lambda: PokerSpec(3, 3, 2, 1, (PokerRound(0, 2.0, 2, 2), PokerRound(1, 4.0, 1, 0),
                                                           PokerRound(1, 4.0, 1, 1)), blinds=(1, 2, 0)),
}


@pytest.mark.parametrize("name", list(ACPC))
def test_count_poker_equals_built_game(name):
    spec = ACPC[name]()
    c = count_poker(spec)
    z = build_poker(spec).size
    assert (c.public_states, c.terminals, c.info_sets, c.deals, c.sequences) == (
        z.public_nodes, z.terminals, z.infosets, z.deals, z.sequences)


def test_one_suit_deck_is_built():
    # hand strengths of equal-length tuples once became a 2-D object array (ValueError)
    g = build_poker(ACPC["one suit, no board"]())
    assert g.zero_sum and g.deals.num_deals == 6            # 3 x 2 ordered private cards


def test_two_board_rounds_equal_one_board_round():
    # dealing the flop one card at a time, with no betting between, is the same game as dealing
    # it at once: same value (the second board round used to raise ValueError in public_deal)
    from guts.engine.extensive import solve_lp

    one = Rules(rounds=(Round(ante=1, hole_cards=2, orbits=1), Round(shared_cards=2)))
    two = Rules(rounds=(Round(ante=1, hole_cards=2, orbits=1), Round(shared_cards=1), Round(shared_cards=1)))
    v1 = solve_lp(build_game(one).game).values[0]
    v2 = solve_lp(build_game(two).game).values[0]
    assert v2 == pytest.approx(v1, abs=1e-9)


def test_public_deal_after_an_incompatible_board_sums_to_one():
    # after a board of 2, 2 no deal holding 2, 2, 2 remains possible; its row still sums to one
    deck = Deck((2, 3, 4), 3)
    hands, types, prob, left = deck.joint_deals(2, 2)
    board = deck.counts((0, 0))
    deal = deck.public_deal(left - board[None, :], 1)
    total = sum(p for _, p in deal)
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    impossible = (left - board[None, :] < 0).any(axis=1)
    assert impossible.any() and (~impossible).any()


def test_depth_cap_refuses_unbounded_raises():
    spec = PokerSpec(2, 5, 2, 1, (PokerRound(0, 1.0, 255, 0), PokerRound(1, 1.0, 255, 0)), antes=(1, 1))
    with pytest.raises(GutsInputError, match=f"more than {MAX_ACTION_DEPTH} decisions"):
        build_poker(spec)


def test_depth_cap_in_the_holdem_like_builder():
    # fixed betting, one bet, no check, two players: 2 x 10 decisions a round on the betting path
    # (a fold ends the hand); 15 rounds (300 decisions on a path) build, 16 are refused
    def rules(k):
        return Rules(rounds=(Round(ante=1, hole_cards=2, orbits=10),) + (Round(orbits=10),) * (k - 2)
                     + (Round(shared_cards=2, orbits=10),))

    count = count_tree(rules(15))
    assert count.max_depth == MAX_ACTION_DEPTH == 300
    # 14 rounds of 20 decisions, then 15 boards x 20 (no RecursionError at the cap)
    assert build_game(rules(15)).stats.decision_nodes == count.decision_nodes == 14 * 20 + 15 * 20
    with pytest.raises(GutsInputError, match="more than 300 decisions.*fewer rounds"):
        build_game(rules(16))


def test_guard_names_estimate_budget_and_remedy(monkeypatch):
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", "1M")
    rules = smh_rules(2, bets=EIGHT, check=True, betting="limit")
    with pytest.raises(GutsInputError) as exc:
        build_game(rules)
    msg = str(exc.value)
    assert "needs about" in msg and "memory budget of 1 MB" in msg and "fewer bet sizes (now 8)" in msg
    assert "no check" in msg and "\n" not in msg
    with pytest.raises(GutsInputError):
        check_tree_memory(count_tree(rules), "x")


def test_issue_command_refused_at_once():
    # limit MMH with eight bet sizes and a check: about 4e9 public states; it used to build until
    # the machine ran out of memory. Refused with exit code 2 and one line.
    cmd = [sys.executable, "-m", "guts", "mercer", "solve", "mmh", "--betting", "limit",
           "--bets", "1,2,3,4,5,6,7,8", "--check"]
    root = Path(__file__).resolve().parents[3]          # this checkout's guts, not an installed one
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("GUTS_MEMORY_BUDGET", None)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=root, env=env)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "memory budget" in lines[0] and "public states" in lines[0]
    assert p.stdout == ""


def test_cli_mirrors_the_study_artefacts():
    from guts.cli import mercer as cli
    from guts.studies import mercer as study

    assert sorted(cli.ARTEFACTS) == sorted(study.ARTEFACTS) and cli.SWEPT == study.SWEPT
