"""The builder's public tree against brute-force enumeration of every physical card deal:
deal and flop probabilities, expected values and best responses for random strategies,
zero-sum, and the tree sizes implied by the rules."""
import numpy as np
import pytest

from guts.engine.extensive import Chance, Decision, best_response, expected_values
from guts.errors import GutsInputError
from guts.games.poker.mercer import Deck, Round, Rules, build_game, mercer_evaluator, mmh_rules, smh_rules

import mercer_oracle as O

VALUE_ATOL = 1e-10


def _fixed(orbits, ante=0.0, shared=0, bets=(4.0,), check=False, betting="fixed"):
    return dict(ante=ante, shared=shared, orbits=orbits, bets=list(bets), check=check, betting=betting)


def oracle_rules(variant, players, ranks, copies, **kw):
    """The seed's SMH / MMH written out for the oracle (§4.2)."""
    if variant == "smh":
        rounds = [_fixed(1, ante=1.0, **kw), _fixed(0, shared=2)]
    else:
        rounds = [_fixed(2, ante=1.0, **kw), _fixed(2, shared=2, **kw)]
    return O.Rules(players, ranks, copies, 2, rounds)


def random_strategies(game, seed):
    rng = np.random.default_rng(seed)
    out = []
    for p in range(game.num_players):
        labels = game.action_labels(p)
        T = game.num_types[p]
        out.append({h: rng.dirichlet(np.ones(len(a)) * 0.7, size=T) for h, a in labels.items()})
    return tuple(out)


def as_oracle_strategy(game, strategies):
    """strategy(player, info label, history) -> {action: prob} from engine strategies."""
    index = [{lab: t for t, lab in enumerate(game.deals.type_labels[p])} for p in range(game.num_players)]
    labels = [game.action_labels(p) for p in range(game.num_players)]

    def strategy(p, info, history):
        row = strategies[p][tuple(history)][index[p][info]]
        return dict(zip(labels[p][tuple(history)], row))
    return strategy


CASES = [
    ("smh", 2, (2, 3, 4), 2, {}),
    ("mmh", 2, (2, 3, 4), 2, {}),
    ("smh", 3, (2, 3, 4, 5), 2, {}),
    ("smh", 2, (2, 3, 4), 2, dict(check=True, bets=(4.0, 8.0))),
    ("mmh", 2, (2, 3, 4), 2, dict(betting="limit", check=True)),
    ("smh", 3, (2, 3, 4, 5), 2, dict(betting="limit")),
    pytest.param("mmh", 3, (2, 3, 4, 5), 2, {}, marks=pytest.mark.slow),
    ("smh", 2, (2, 3, 4), 2, dict(betting="limit", bets=(2.0, 4.0))),
]


def _built(variant, players, ranks, copies, kw):
    f = smh_rules if variant == "smh" else mmh_rules
    return build_game(f(players, Deck(ranks, copies), **kw))


@pytest.mark.parametrize("variant,players,ranks,copies,kw", CASES)
def test_values_and_best_responses_match_brute_force(variant, players, ranks, copies, kw):
    b = _built(variant, players, ranks, copies, kw)
    game = b.game
    assert game.zero_sum
    enum = O.Enumeration(oracle_rules(variant, players, ranks, copies, **kw))
    strategies = random_strategies(game, seed=players * 10 + copies)
    strat = as_oracle_strategy(game, strategies)
    ev = expected_values(game, strategies)
    np.testing.assert_allclose(ev, enum.values(strat), atol=VALUE_ATOL)
    assert abs(ev.sum()) < VALUE_ATOL
    for p in range(players):
        br = best_response(game, strategies, p)
        assert br.value == pytest.approx(enum.best_response_value(strat, p), abs=VALUE_ATOL)


@pytest.mark.parametrize("variant,players,ranks,copies", [("smh", 2, (2, 3, 4), 2), ("smh", 3, (2, 3, 4), 3)])
def test_deal_and_flop_probabilities_match_brute_force(variant, players, ranks, copies):
    b = _built(variant, players, ranks, copies, {})
    game = b.game
    enum = O.Enumeration(oracle_rules(variant, players, ranks, copies))
    labels = game.deals.type_labels
    got = {tuple(labels[p][game.deals.info[p, d]] for p in range(players)): game.deals.prob[d]
           for d in range(game.deals.num_deals)}
    brute = enum.deal_distribution()
    assert set(got) == set(brute)
    for k, v in brute.items():
        assert got[k] == pytest.approx(v, abs=VALUE_ATOL)
    # the flop after everybody bets: P(hands, flop) = P(hands) P(flop | hands)
    node = game.root
    while isinstance(node, Decision):
        node = node.actions[[a for a in node.actions if a != "f"][-1]]
    assert isinstance(node, Chance)
    got = {}
    for lab, (prob, _) in node.outcomes.items():
        for d in range(game.deals.num_deals):
            if prob[d] > 0:
                got[(tuple(labels[p][game.deals.info[p, d]] for p in range(players)), lab)] = game.deals.prob[d] * prob[d]
    brute = enum.board_distribution()
    assert set(got) == set(brute)
    for k, v in brute.items():
        assert got[k] == pytest.approx(v, abs=VALUE_ATOL)


def test_two_player_sizes_follow_from_the_rules():
    # two players: a fold ends the hand, so the public tree is one line of bets per flop
    for f, pre, post in ((smh_rules, 1, 0), (mmh_rules, 2, 2)):
        b = build_game(f(2))
        flops = 15                                   # rank multisets of two out of five ranks
        assert b.stats.deals == 225                  # every pair of hands fits in four copies
        assert b.stats.decision_nodes == 2 * pre + flops * 2 * post
        assert b.stats.terminals == 2 * pre + flops * (2 * post + 1)
        assert b.stats.info_sets == 15 * b.stats.decision_nodes
    # the pot of 2P-MMH when nobody folds: 2 antes + 8 bets of 4 (seed §4.2)
    game = build_game(mmh_rules(2)).game
    node = game.root
    while not hasattr(node, "table") or node.table is None:
        node = node.actions["b4"] if isinstance(node, Decision) else next(iter(node.outcomes.values()))[1]
    assert -node.offset.sum() == pytest.approx(34.0)


def test_shared_share_tables_are_not_copied():
    b = build_game(mmh_rules(3))
    tables = set()
    stack = [b.game.root]
    n_show = 0
    while stack:
        node = stack.pop()
        if isinstance(node, Decision):
            stack.extend(node.actions.values())
        elif isinstance(node, Chance):
            stack.extend(c for _, c in node.outcomes.values())
        elif node.table is not None:
            n_show += 1
            tables.add(id(node.table))
    # one table per (flop, set of >= 2 remaining players): 15 flops x 4 sets
    assert len(tables) == b.stats.share_tables == 15 * 4
    assert n_show > len(tables)


def test_bad_rules():
    with pytest.raises(GutsInputError, match="first round"):
        Rules(Deck.mercer(), (Round(ante=1.0, orbits=1),), mercer_evaluator(), 2)
    with pytest.raises(GutsInputError, match="4-card hand"):
        Rules(Deck.mercer(), (Round(ante=1.0, hole_cards=2, orbits=1),), mercer_evaluator(), 2)
    with pytest.raises(GutsInputError, match="betting model"):
        Round(orbits=1, betting="pot")
    with pytest.raises(GutsInputError, match="bet size"):
        Round(orbits=1, bets=(0.0,))


@pytest.mark.parametrize("kind,team", [("weak", (0, 1)), ("strong", (0, 2)), ("strong", (1, 2))])
def test_collusion_games_match_brute_force(kind, team):
    """Weak: payoffs pooled and split evenly; strong: also both hands seen (seed §5)."""
    from guts.games.poker.mercer import Collusion

    ranks, copies = (2, 3, 4, 5), 2
    b = build_game(smh_rules(3, Deck(ranks, copies)), Collusion(team, kind))
    game = b.game
    enum = O.Enumeration(oracle_rules("smh", 3, ranks, copies), pool_team=team)
    info_team = team if kind == "strong" else None
    strategies = random_strategies(game, seed=7)
    strat = as_oracle_strategy(game, strategies)
    ev = expected_values(game, strategies)
    np.testing.assert_allclose(ev, enum.values(strat, team=info_team), atol=VALUE_ATOL)
    assert ev[team[0]] == pytest.approx(ev[team[1]], abs=VALUE_ATOL)   # split evenly
    for p in range(3):
        assert best_response(game, strategies, p).value == pytest.approx(
            enum.best_response_value(strat, p, team=info_team), abs=VALUE_ATOL)


def test_merged_team_is_the_two_player_game_of_team_against_victim():
    """One team player (both hands, summed payoffs) = the pooled game summed over the team."""
    from guts.games.poker.mercer import Collusion

    ranks, copies, team = (2, 3, 4, 5), 2, (0, 2)
    merged = build_game(smh_rules(3, Deck(ranks, copies)), Collusion(team, "strong"), merge_team=True)
    assert merged.game.num_players == 2 and merged.game.zero_sum
    assert merged.seat_player == (0, 1, 0)
    enum = O.Enumeration(oracle_rules("smh", 3, ranks, copies), pool_team=team)
    strategies = random_strategies(merged.game, seed=3)
    idx = [{lab: t for t, lab in enumerate(merged.game.deals.type_labels[q])} for q in range(2)]
    labels = [merged.game.action_labels(q) for q in range(2)]

    def strat(p, info, history):
        q = merged.seat_player[p]
        return dict(zip(labels[q][tuple(history)], strategies[q][tuple(history)][idx[q][info]]))

    ev = expected_values(merged.game, strategies)
    brute = enum.values(strat, team=team)
    assert ev[0] == pytest.approx(brute[0] + brute[2], abs=VALUE_ATOL)   # pooled split x 2
    assert ev[1] == pytest.approx(brute[1], abs=VALUE_ATOL)
