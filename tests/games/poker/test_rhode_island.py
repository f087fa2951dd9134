"""Rhode Island hold'em (Shi and Littman 2001; rules of Gilpin and Sandholm, "Lossless
abstraction of imperfect information games", 2007) as the shipped description
``rhode_island.toml``: its three-card ranking against closed-form category counts and a
brute-force ranking, and small decks of the same description built and solved by the LP
(zero-sum value, the seat-swap identity, no betting = value 0, and equality with the
standard ranking where no straight or flush can be made)."""
import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from guts.engine.extensive import nash_conv, solve_lp
from guts.engine.tolerances import LP_CERT_TOL
from guts.errors import GutsInputError
from guts.games.poker import acpc_text, build_poker, descriptions, read_poker
from guts.games.poker.build import count_poker
from guts.games.poker.evaluators import THREE_CARD_CATEGORIES, three_card_rank

TOL = 1e-9


def oracle_key(cards, suits, ranks):
    """Brute-force three-card ranking: category by explicit membership (the rank sets of a
    straight listed one by one, A-2-3 included with 13 ranks), then the ranks that break ties."""
    rs = sorted((c // suits for c in cards), reverse=True)
    straights = {frozenset((r, r + 1, r + 2)): r + 2 for r in range(ranks - 2)}
    if ranks == 13:
        straights[frozenset((12, 0, 1))] = 1
    flush = len({c % suits for c in cards}) == 1
    top = straights.get(frozenset(rs)) if len(set(rs)) == 3 else None
    counts = {r: rs.count(r) for r in rs}
    by_mult = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if top is not None and flush:
        return ("straight flush", (top,))
    if len(counts) == 1:
        return ("three of a kind", tuple(by_mult))
    if top is not None:
        return ("straight", (top,))
    if flush:
        return ("flush", tuple(rs))
    if len(counts) == 2:
        return ("pair", tuple(by_mult))
    return ("high card", tuple(rs))


def test_three_card_category_counts_closed_form():
    """Over all C(52, 3) = 22100 hands: straight flushes 12*4, trips 13*C(4,3), straights
    12*4^3 - 48, flushes 4*C(13,3) - 48, pairs 13*C(4,2)*48, the rest high card; and the
    ranking is the order of rarity (a rarer category wins)."""
    counts = {c: 0 for c in THREE_CARD_CATEGORIES}
    for h in itertools.combinations(range(52), 3):
        counts[THREE_CARD_CATEGORIES[three_card_rank(h, 4, 13)[0]]] += 1
    expect = {"straight flush": 12 * 4, "three of a kind": 13 * math.comb(4, 3),
              "straight": 12 * 4 ** 3 - 48, "flush": 4 * math.comb(13, 3) - 48,
              "pair": 13 * math.comb(4, 2) * 48}
    expect["high card"] = math.comb(52, 3) - sum(expect.values())
    assert counts == expect
    assert [counts[c] for c in THREE_CARD_CATEGORIES] == sorted(counts.values(), reverse=True)
    # Gilpin and Sandholm's table: straight flush probability 0.00217
    assert counts["straight flush"] / math.comb(52, 3) == pytest.approx(0.00217, abs=5e-6)


@pytest.mark.parametrize("ranks, suits", [(13, 4), (5, 3), (4, 2)])
def test_three_card_rank_equals_brute_force_ranking(ranks, suits):
    """Same category as the oracle, and the same order of all hands (ties included)."""
    hands = list(itertools.combinations(range(ranks * suits), 3))
    ours = {h: three_card_rank(h, suits, ranks) for h in hands}
    theirs = {h: oracle_key(h, suits, ranks) for h in hands}
    order = {c: i for i, c in enumerate(THREE_CARD_CATEGORIES)}
    for h in hands:
        assert THREE_CARD_CATEGORIES[ours[h][0]] == theirs[h][0]
    a = sorted(hands, key=lambda h: ours[h])
    b = sorted(hands, key=lambda h: (order[theirs[h][0]], theirs[h][1]))
    assert [ours[h] for h in a] == [ours[h] for h in b]
    assert [(order[theirs[h][0]], theirs[h][1]) for h in a] == [(order[theirs[h][0]], theirs[h][1]) for h in b]


def test_three_card_rank_examples_and_best_of_more():
    def card(label):
        return "23456789TJQKA".index(label[0]) * 4 + "cdhs".index(label[1])

    def r(*labels):
        return three_card_rank([card(x) for x in labels], 4, 13)
    assert r("Ks", "Qs", "Js") > r("Ac", "Ad", "Ah") > r("Ac", "Kd", "Qh") > r("2c", "5c", "9c")
    assert r("2c", "5c", "9c") > r("Ac", "Ad", "Kh") > r("Ac", "Kd", "Jh")
    assert r("Ac", "2d", "3h") < r("2c", "3d", "4h")               # A-2-3 is the lowest straight
    assert r("Qc", "Kd", "Ah") > r("Jc", "Qd", "Kh")
    assert r("Ac", "2c", "3c")[0] == THREE_CARD_CATEGORIES.index("straight flush")
    assert r("Kc", "Ad", "2h")[0] == THREE_CARD_CATEGORIES.index("high card")   # no wrap-around
    assert r("7c", "7d", "2h") == r("7h", "7s", "2c")                # suits never break ties
    assert r("7c", "7d", "2h", "Ah", "Kh") == r("2h", "Ah", "Kh")      # best three: the flush, not the pair
    with pytest.raises(GutsInputError):
        three_card_rank([0, 1], 4, 13)


def test_shipped_description():
    assert "rhode_island" in descriptions()
    s = read_poker("rhode_island")
    assert (s.num_players, s.ranks, s.suits, s.hole_cards, s.antes) == (2, 13, 4, 1, (5.0, 5.0))
    assert [r.board_cards for r in s.rounds] == [0, 1, 1]
    assert [r.raise_size for r in s.rounds] == [10, 20, 20]
    assert [r.max_raises for r in s.rounds] == [3, 3, 3]
    assert s.evaluator == "rhode_island"
    with pytest.raises(GutsInputError, match="no ACPC form"):
        acpc_text(s)
    with pytest.raises(GutsInputError, match="three-card"):
        replace(s, rounds=s.rounds[:2])


def small(ranks=3, suits=2, max_raises=None):
    """The shipped description with a smaller deck (same rules, same evaluator) and, for a
    fast LP, optionally fewer raises per round."""
    spec = replace(read_poker("rhode_island"), ranks=ranks, suits=suits)
    if max_raises is not None:
        spec = replace(spec, rounds=tuple(replace(rd, max_raises=max_raises) for rd in spec.rounds))
    return spec


def random_profile(g, seed):
    rng = np.random.default_rng(seed)
    return tuple({k: rng.dirichlet(np.ones(len(labs)), size=g.num_types[p])
                  for k, labs in g.action_labels(p).items()} for p in range(g.num_players))


def check_solved(spec, identities=True):
    g = build_poker(spec)
    assert g.zero_sum
    c = count_poker(spec)
    assert (c.public_states, c.terminals, c.deals, c.info_sets, c.sequences) == \
        (g.size.public_nodes, g.size.terminals, g.size.deals, g.size.infosets, g.size.sequences)
    n = spec.ranks * spec.suits
    assert c.deals == n * (n - 1)
    r = solve_lp(g)
    assert r.converged
    assert abs(r.values[0] + r.values[1]) < TOL                        # zero-sum value
    assert nash_conv(g, r.strategies) < LP_CERT_TOL * g.payoff_scale
    if not identities:
        return r
    # seat swap: the second seat acting first is the same game with the players relabelled
    swapped = replace(spec, rounds=tuple(replace(rd, first_player=1) for rd in spec.rounds))
    assert abs(solve_lp(build_poker(swapped)).value + r.value) < TOL
    # without betting the showdown is a fair lottery (the deal is exchangeable): value 0
    flat = replace(spec, rounds=tuple(replace(rd, max_raises=0) for rd in spec.rounds))
    assert abs(solve_lp(build_poker(flat)).value) < TOL
    return r


def test_small_deck_builds_and_solves():
    """3 ranks x 2 suits, one bet or raise per round: built through the description path and
    solved by the LP."""
    check_solved(small(3, 2, max_raises=1))


def test_no_straight_no_flush_deck_equals_standard_ranking():
    """Two ranks x three suits: no three consecutive ranks and no three cards of one suit, so
    the three-card ranking reduces to pairs / trips / high cards, the ACPC ranking of fewer
    than five cards: the two descriptions build the same game (same NashConv of random
    profiles), while with three ranks (straights possible) they differ."""
    spec = small(2, 3, max_raises=1)
    ri, std = build_poker(spec), build_poker(replace(spec, evaluator="acpc"))
    assert ri.action_labels(0) == std.action_labels(0)
    for seed in (0, 1):
        s = random_profile(ri, seed)
        assert nash_conv(ri, s) == pytest.approx(nash_conv(std, s), abs=TOL)
    spec3 = small(3, 2, max_raises=1)
    ri3, std3 = build_poker(spec3), build_poker(replace(spec3, evaluator="acpc"))
    s = random_profile(ri3, 0)
    assert abs(nash_conv(ri3, s) - nash_conv(std3, s)) > 1e-6


def test_full_game_size_counted_without_building(monkeypatch):
    """One betting round (check or bet, at most three bets and raises, two players) has 8
    decision positions, 6 folds and 7 ways to go on; the board cards have 52 then 51 outcomes
    in the public tree.  Public decision nodes 8 + 7*52*(8 + 7*51*8), terminals
    6 + 7*52*(6 + 7*51*(6 + 7)), chance nodes 7 + 7*52*7, deals 52*51, information sets
    52 hole cards x decision nodes.  Building it is refused under a small memory budget."""
    from guts.games.poker import load_poker

    c = count_poker(read_poker("rhode_island"))
    assert c.decision_nodes == 8 + 7 * 52 * (8 + 7 * 51 * 8) == 1_042_504
    assert c.terminals == 6 + 7 * 52 * (6 + 7 * 51 * (6 + 7))
    assert c.chance_nodes == 7 + 7 * 52 * 7
    assert c.public_states == c.decision_nodes + c.terminals + c.chance_nodes
    assert c.deals == 52 * 51 and c.info_sets == 52 * c.decision_nodes
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", "1G")
    with pytest.raises(GutsInputError, match="public states"):
        load_poker("rhode_island")
