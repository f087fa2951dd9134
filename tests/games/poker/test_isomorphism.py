"""Lossless suit isomorphism (guts.games.poker.isomorphism) against the full game.

Oracles: the number of suit classes of (private card, board cards) by brute-force orbit
enumeration, by Burnside's lemma and by Waugh's (2013) hand indexer; the information sets of
the quotient from those classes and the betting structure of the full tree; the value and the
exploitability of the expanded strategy computed in the FULL game (an exploitability e of a
profile whose value is v brackets the game's value in [v - e, v + e]); the full game's own LP;
and Mercer hold'em with a suited deck against the suitless deck (the same physical cards).
"""
import itertools
from dataclasses import replace
from math import factorial

import numpy as np
import pytest

from guts.engine.extensive import cfr_plus, expected_values, exploitability, nash_conv, solve_lp
from guts.engine.tolerances import CERTIFICATE_TOL, LP_CERT_TOL
from guts.errors import GutsInputError
from guts.games.poker import HandIndexer, build_poker, load_poker, read_poker
from guts.games.poker.isomorphism import (poker_card_labels, quotient_game, suit_permutations, suit_quotient,
                                          verify_symmetry)

LEDUC3 = "\n".join(["GAMEDEF", "limit", "numPlayers = 2", "numRounds = 2", "blind = 1 1", "raiseSize = 2 4",
                    "firstPlayer = 1 1", "maxRaises = 2 2", "numSuits = 3", "numRanks = 3", "numHoleCards = 1",
                    "numBoardCards = 0 1", "END GAMEDEF", ""])

MERCER = """players = 2
betting = "fixed"
evaluator = "mercer"
[deck]
ranks = {ranks}
suits = {suits}
copies = {copies}
[[rounds]]
ante = 1
hole_cards = 2
bets = [4]
orbits = 1
[[rounds]]
board_cards = 2
"""


def rhode_island(ranks=3, suits=2, max_raises=(1, 1, 1)):
    """The shipped Rhode Island hold'em on a small deck (one private card, two board cards)."""
    spec = replace(read_poker("rhode_island"), ranks=ranks, suits=suits)
    return replace(spec, rounds=tuple(replace(r, max_raises=m) for r, m in zip(spec.rounds, max_raises)))


# -- suit classes: three independent counts ---------------------------------------------------
def orbits(length, ranks, suits):
    """Classes of ordered tuples of distinct cards (card = rank * suits + suit) under the suit
    permutations, by enumeration: the least image of every tuple."""
    cards = range(ranks * suits)
    perms = list(itertools.permutations(range(suits)))
    seen = set()
    for t in itertools.permutations(cards, length):
        seen.add(min(tuple((c // suits) * suits + pi[c % suits] for c in t) for pi in perms))
    return len(seen)


def burnside_pairs(ranks, suits):
    """Classes of ordered (private, board) pairs: (1/|G|) sum_g |Fix(g)|; a permutation with
    f fixed suits fixes the pairs of two distinct cards of fixed suits: (R f)(R f - 1)."""
    total = 0
    for pi in itertools.permutations(range(suits)):
        f = sum(pi[s] == s for s in range(suits))
        total += ranks * f * (ranks * f - 1)
    return total // factorial(suits)


@pytest.mark.parametrize("suits", [2, 3])
def test_suit_classes_closed_forms(suits):
    # 3 private classes (the ranks); (private, board): 3 pairs + 6 ordered rank pairs x
    # (suited, offsuit) = 15, with two suits and with three
    assert orbits(1, 3, suits) == 3
    assert orbits(2, 3, suits) == burnside_pairs(3, suits) == 3 + 6 * 2 == 15
    idx = HandIndexer((1, 1), ranks=3, suits=suits)
    assert (idx.size(0), idx.size(1)) == (3, 15)
    assert HandIndexer((1, 1, 1), ranks=3, suits=suits).size(2) == orbits(3, 3, suits)


# -- counts of the quotient from the classes --------------------------------------------------
def structure(game, player):
    """Decision histories of ``player`` by number of board cards seen, per board path."""
    labels, _, _ = poker_card_labels(game)
    cards = set(labels)
    per_round = {}
    for h in game.decision_histories(player):
        k = sum(lab in cards for lab in h)
        per_round[k] = per_round.get(k, 0) + 1
    N = len(labels)
    paths = [1]
    for k in range(1, max(per_round) + 1):
        paths.append(paths[-1] * (N - k + 1))
    return {k: v // paths[k] for k, v in per_round.items()}, N


def expected_counts(game, ranks, suits, classes=None):
    """(full, quotient) information sets per player: round k (k board cards) has m_k betting
    nodes per board path; the full game has N (N-1)...(N-k) reachable (board path, card)
    pairs per betting node, the quotient one per class of (card, board cards)."""
    full, quot = [], []
    for p in range(game.num_players):
        m, N = structure(game, p)
        fp = qp = 0
        for k, mk in m.items():
            pairs = 1
            for j in range(k + 1):
                pairs *= N - j
            fp += mk * pairs
            qp += mk * (classes[k] if classes else orbits(k + 1, ranks, suits))
        full.append(fp)
        quot.append(qp)
    return tuple(full), tuple(quot)


def check_against_full(q, target=CERTIFICATE_TOL):
    """Quotient LP: its strategies, expanded, are an equilibrium of the FULL game with the
    quotient's value (so the values agree to the certificate)."""
    r = solve_lp(q.game)
    assert r.exploitability <= target
    full = q.expand(r.strategies)
    e = exploitability(q.full, full)
    assert e <= r.exploitability + target
    assert abs(expected_values(q.full, full)[0] - r.value) <= target
    return r


def test_leduc_two_suits():
    g = load_poker("leduc.game")
    q = load_poker("leduc.game", isomorphism=True).isomorphism
    assert g.isomorphism is None and q.game.isomorphism is q
    s = q.stats
    assert s.group_order == 2
    full, quot = expected_counts(g, 3, 2)
    assert s.info_sets_full == full and sum(full) == 936          # OpenSpiel's 936 information states
    assert s.info_sets_quotient == quot == (234, 234)              # suits act freely: half
    # (deal) + (deal, board): 30 + 120 full; 15 + 60 classes
    assert (s.deal_histories_full, s.deal_histories_quotient) == (30 + 120, orbits(2, 3, 2) + orbits(3, 3, 2))
    assert 2 * s.terminals_quotient == s.terminal_deals_full
    r = check_against_full(q)
    assert abs(r.value - solve_lp(g).value) <= LP_CERT_TOL
    # not only at an equilibrium: an invariant strategy's exploitability is the same in the
    # quotient and in the full game (best responses to it can be taken invariant)
    c = cfr_plus(q.game, max_iterations=40, report_every=40)
    assert abs(exploitability(g, q.expand(c.strategies)) - exploitability(q.game, c.strategies)) <= 1e-12
    assert exploitability(q.game, c.strategies) > 1e-3


def test_leduc_three_suits_stabilisers():
    q = load_poker(LEDUC3, isomorphism=True).isomorphism
    g = q.full
    s = q.stats
    assert s.group_order == 6
    full, quot = expected_counts(g, 3, 3)
    assert s.info_sets_full == full and s.info_sets_quotient == quot
    idx = HandIndexer((1, 1), ranks=3, suits=3)
    m, _ = structure(g, 0)
    assert quot[0] == idx.size(0) * m[0] + idx.size(1) * m[1]
    assert s.deal_histories_quotient == orbits(2, 3, 3) + orbits(3, 3, 3)
    # the views (2c | board 3c) and (2c | board 3d) are different classes (suited / offsuit),
    # (2c | 3d) and (2c | 3h) the same one, though the stabiliser of 2c swaps only d and h
    key = q.infoset_key
    assert key(0, ("c", "c", "3c"), 0) != key(0, ("c", "c", "3d"), 0)
    labels = g.deals.type_labels[0]
    assert key(0, ("c", "c", "3d"), labels.index("2c")) == key(0, ("c", "c", "3h"), labels.index("2c"))
    assert key(0, ("c", "c", "3d"), labels.index("2c")) == key(0, ("c", "c", "3c"), labels.index("2d"))
    # orbit weights of the deals: 72 ordered deals, an orbit has 6 (two suits) or 3 (one suit)
    w = sorted(p for p, _ in q.game.root.outcomes.values())
    assert abs(sum(w) - 1) <= 1e-12
    assert np.allclose(sorted(set(np.round(w, 12))), [3 / 72, 6 / 72])
    assert len(w) == orbits(2, 3, 3) == 3 + 6 * 2        # a pair of ranks: 1 class; else suited / offsuit
    check_against_full(q)


def test_three_players_nash_conv():
    """Three players (not zero-sum two-player): the NashConv of any quotient strategy (CFR+
    iterates) equals the full game's NashConv of its expansion."""
    text = LEDUC3.replace("numPlayers = 2", "numPlayers = 3").replace("blind = 1 1", "blind = 1 1 1") \
        .replace("maxRaises = 2 2", "maxRaises = 1 0").replace("numSuits = 3", "numSuits = 2")
    q = load_poker(text, isomorphism=True)
    iso = q.isomorphism
    assert iso.stats.group_order == 2 and q.num_players == 3
    c = cfr_plus(q, max_iterations=10, report_every=10)
    assert abs(nash_conv(q, c.strategies) - nash_conv(iso.full, iso.expand(c.strategies))) <= 1e-12


def rank_wise(ranks, suits):
    """Generators of the permutations of the suits of ONE rank (a symmetry only where the
    rules ignore suits altogether)."""
    out = []
    for r in range(ranks):
        for pi in ([1, 0] + list(range(2, suits)), list(range(1, suits)) + [0]):
            perm = list(range(ranks * suits))
            for s in range(suits):
                perm[r * suits + s] = r * suits + pi[s]
            out.append(tuple(perm))
    return out


def test_leduc_rank_wise_symmetries():
    # Leduc's ranking ignores suits: swapping the two cards of one rank is a symmetry too, and
    # the group (order 2^3) leaves 3 pairs + 6 non-pairs = 9 (private, board) classes
    g = load_poker("leduc.game")
    labels, R, S = poker_card_labels(g)
    q = quotient_game(g, labels, rank_wise(R, S))
    assert q.rejected == 0 and q.stats.group_order == 8
    _, quot = expected_counts(g, R, S, classes={0: 3, 1: 3 + 6})
    assert q.stats.info_sets_quotient == quot
    check_against_full(q)


def test_openspiel_leduc_detected():
    """An imported game: OpenSpiel's Leduc, its cards read from the labels; of the 15 swaps of
    two cards exactly the 3 of the two cards of one rank (c and c ^ 1) leave the tree unchanged."""
    pytest.importorskip("pyspiel")
    import re

    from guts.engine.extensive import from_openspiel

    g = from_openspiel("leduc_poker")

    def reader(label):
        m = re.search(r"Private: (\d+)\]", label) or re.search(r"Chance outcome:(\d+)", label)
        return (int(m.group(1)),)

    q = quotient_game(g, [f"c{i}" for i in range(6)], reader=reader)
    assert q.rejected == 12 and q.stats.group_order == 8
    assert sorted(tuple(i for i in range(6) if p[i] != i) for p in q.group if sum(p[i] != i for i in range(6)) == 2) \
        == [(0, 1), (2, 3), (4, 5)]
    assert sum(q.stats.info_sets_full) == 936
    ours = load_poker("leduc.game")
    _, quot = expected_counts(ours, 3, 2, classes={0: 3, 1: 3 + 6})
    assert q.stats.info_sets_quotient == quot
    r = check_against_full(q)
    assert abs(r.value - solve_lp(ours).value) <= LP_CERT_TOL


def test_rhode_island_small():
    g = build_poker(rhode_island(3, 2, (1, 1, 0)))
    labels, R, S = poker_card_labels(g)
    # a flush needs three cards of one suit: swapping the suits of one rank is NOT a symmetry,
    # swapping all suits is
    assert not verify_symmetry(g, labels, rank_wise(R, S)[0])
    assert all(verify_symmetry(g, labels, p) for p in suit_permutations(R, S))
    q = quotient_game(g, labels, suit_permutations(R, S) + tuple(rank_wise(R, S)))
    assert q.stats.group_order == 2 and q.rejected == len(rank_wise(R, S))
    full, quot = expected_counts(g, R, S)
    assert q.stats.info_sets_full == full and q.stats.info_sets_quotient == quot
    idx = HandIndexer((1, 1, 1), ranks=R, suits=S)
    m, _ = structure(g, 0)
    assert quot[0] == sum(idx.size(k) * m[k] for k in m)
    check_against_full(q)


def test_mercer_smh_suitless_and_suited():
    # Mercer SMH's deck has no suits: the group is trivial and nothing changes
    q = load_poker("mercer_smh", isomorphism=True).isomorphism
    s = q.stats
    assert s.group_order == 1 and s.info_sets_quotient == s.info_sets_full == (15, 15)
    assert s.deal_histories_quotient == s.deal_histories_full
    r = check_against_full(q)
    assert abs(r.value - solve_lp(q.full).value) <= LP_CERT_TOL
    # Mercer hold'em on a suited deck (3 ranks x 2 suits) is the game of the suitless deck with
    # two copies of each rank (the evaluator ignores suits): same value, and the quotient by
    # the suit swap solves it
    qs = load_poker(MERCER.format(ranks=3, suits=2, copies=1), isomorphism=True).isomorphism
    assert qs.stats.group_order == 2
    rs = check_against_full(qs)
    plain = solve_lp(load_poker(MERCER.format(ranks=3, suits=0, copies=2)))
    assert abs(rs.value - plain.value) <= LP_CERT_TOL


@pytest.mark.slow
def test_full_lp_values_slow():
    """The full games' own LP values against the quotients' (three-suit Leduc, Rhode Island)."""
    for spec in (read_poker(LEDUC3), rhode_island(3, 2, (1, 1, 1))):
        q = build_poker(spec, isomorphism=True)
        assert abs(solve_lp(q).value - solve_lp(q.isomorphism.full).value) <= LP_CERT_TOL


@pytest.mark.slow
def test_mercer_smh_suited_deck_slow():
    """Standard Mercer hold'em dealt from 5 ranks x 4 suits (the thesis's 20 physical cards,
    suits shown): 29 070 deals, 24 suit permutations; the quotient's value is Mercer SMH's
    (about 2 min on two busy cores)."""
    q = load_poker(MERCER.format(ranks=5, suits=4, copies=1), isomorphism=True).isomorphism
    assert q.stats.group_order == 24
    r = check_against_full(q)
    assert abs(r.value - solve_lp(load_poker("mercer_smh")).value) <= LP_CERT_TOL


def test_bad_input():
    spec = read_poker("leduc.game")
    with pytest.raises(GutsInputError, match="isomorphism 'yes'"):
        build_poker(spec, isomorphism="yes")
    from guts.games.toy import leduc_poker

    with pytest.raises(GutsInputError, match="not built from a poker description"):
        suit_quotient(leduc_poker())
    g = build_poker(spec)
    labels, _, _ = poker_card_labels(g)
    with pytest.raises(GutsInputError, match="not a permutation"):
        quotient_game(g, labels, [(0, 0, 1, 2, 3, 4)])


def test_cli_prints_counts(tmp_path, capsys):
    from guts.cli import main

    code = main(["solve-game", str(_leduc_path()), "--isomorphism",
                 "--out", str(tmp_path / "out"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "information sets  936 -> 468" in out
    assert "full game         exploitability" in out


def _leduc_path():
    from guts.games.poker import DESCRIPTIONS

    return DESCRIPTIONS / "leduc.game"
