"""Gambit .efg in and out: exact round trips, pygambit's LP/LCP and payoffs as the oracle,
OpenSpiel's efg_game parser on the .efg files OpenSpiel ships."""
import glob
import os

import numpy as np
import pytest

from guts.engine.extensive import (
    ExplicitDecision, ExplicitTerminal, efg_text, expected_values,
    from_openspiel, nash_conv, read_efg, solve_lp, write_efg,
)
from guts.errors import GutsInputError

TOL = 1e-9


def catalog():
    gbt = pytest.importorskip("pygambit")
    return sorted(glob.glob(os.path.join(os.path.dirname(gbt.__file__), "catalog_data", "**", "*.efg"),
                            recursive=True))


def load_perfect_recall(path):
    try:
        return read_efg(path)
    except GutsInputError as exc:
        assert "perfect recall" in str(exc)          # the catalogue's imperfect-recall games
        return None


def pair(g, G):
    """Walk our tree and pygambit's in parallel: our (player, key) -> pygambit infoset."""
    out = {}

    def walk(nd, gn):
        if isinstance(nd, ExplicitTerminal):
            assert gn.is_terminal
            return
        kids = list(gn.children)
        if isinstance(nd, ExplicitDecision):
            out[(nd.player, nd.infoset)] = gn.infoset
            subs = list(nd.actions.values())
        else:
            subs = [c for _, c in nd.outcomes.values()]
        assert len(subs) == len(kids)
        for a, b in zip(subs, kids):
            walk(a, b)
    walk(g.root, G.root)
    return out


def random_profile(g, seed):
    rng = np.random.default_rng(seed)
    return tuple({h: rng.dirichlet(np.ones(len(labs)), size=1) for h, labs in g.action_labels(p).items()}
                 for p in range(g.num_players))


def test_round_trip_is_exact(tmp_path):
    for path in catalog():
        g = load_perfect_recall(path)
        if g is None:
            continue
        out = write_efg(g, tmp_path / "g.efg")
        h = read_efg(out)
        assert efg_text(h) == efg_text(g)
        s = random_profile(g, 0)
        assert np.array_equal(expected_values(h, s), expected_values(g, s))


def test_payoffs_agree_with_pygambit_on_its_catalogue():
    gbt = pytest.importorskip("pygambit")
    checked = 0
    for path in catalog():
        g = load_perfect_recall(path)
        if g is None:
            continue
        G = gbt.read_efg(path)
        players = list(G.players)
        links = pair(g, G)
        prof = G.mixed_behavior_profile()
        s = random_profile(g, 1)
        for (p, key), inf in links.items():
            for a, act in enumerate(inf.actions):
                prof[act] = float(s[p][key][0, a])
        ours = expected_values(g, s)
        assert ours == pytest.approx([float(prof.payoff(pl)) for pl in players], abs=TOL)
        checked += 1
    assert checked >= 20


def test_equilibria_agree_with_pygambit_lp_and_lcp():
    gbt = pytest.importorskip("pygambit")
    n_zero_sum = 0
    for path in catalog():
        g = load_perfect_recall(path)
        if g is None or g.num_players != 2:
            continue
        G = gbt.read_efg(path)
        players = list(G.players)
        links = pair(g, G)
        eq = gbt.nash.lcp_solve(G, rational=False).equilibria[0]
        s = tuple({key: np.array([[float(eq[a]) for a in links[(p, key)].actions]])
                   for key in g.decision_histories(p)} for p in range(2))
        # pygambit's LCP equilibrium is an equilibrium by our best responses
        assert nash_conv(g, s) <= TOL
        if g.zero_sum:
            n_zero_sum += 1
            v = float(gbt.nash.lp_solve(G, rational=False).equilibria[0].payoff(players[0]))
            r = solve_lp(g)
            assert r.converged and r.value == pytest.approx(v, abs=TOL)
    assert n_zero_sum >= 3


def test_openspiel_efg_files_parse_and_agree():
    pyspiel = pytest.importorskip("pyspiel")
    for text in (pyspiel.get_kuhn_poker_efg_data(), pyspiel.get_sample_efg_data()):
        g = read_efg(text)
        assert efg_text(read_efg(efg_text(g))) == efg_text(g)
        h = from_openspiel(pyspiel.load_efg_game(text), form="explicit")
        if g.zero_sum:
            assert solve_lp(g).value == pytest.approx(solve_lp(h).value, abs=1e-12)
    assert solve_lp(read_efg(pyspiel.get_kuhn_poker_efg_data())).value == pytest.approx(-1 / 18, abs=1e-12)


def test_public_tree_written_as_efg_keeps_value(tmp_path):
    from guts.engine.extensive import Deals, Decision, PublicTreeGame, Terminal
    # a 3-card one-bet game: ante 1, player 1 bets 1 or checks, player 2 calls or folds
    share = np.array([[0, 0, 0, 1, 1, 1], [1, 1, 1, 0, 0, 0]], float)[:, [0, 1, 2, 3, 4, 5]]
    hands = [(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)]
    share = np.array([[1.0 if a > b else 0.0 for a, b in hands], [1.0 if b > a else 0.0 for a, b in hands]])
    deals = Deals(np.full(6, 1 / 6), np.array(hands).T)
    root = Decision(0, {"check": Terminal.showdown([1, 1], share),
                        "bet": Decision(1, {"fold": Terminal([1, -1]),
                                            "call": Terminal.showdown([2, 2], share)})})
    g = PublicTreeGame(root, deals, 2)
    h = read_efg(write_efg(g, tmp_path / "one_bet.efg"))
    assert solve_lp(h).value == pytest.approx(solve_lp(g).value, abs=1e-12)


@pytest.mark.parametrize("text, match", [
    ('NFG 1 R "x" { "a" "b" }', "must start"),
    ('EFG 2 R "x" { "a" "b" } t "" 1 "" { 1 }', "one per player"),
    ('EFG 2 R "x" { "a" "b" } t "" 1 "" { 1 x }', "must be a number"),
    ('EFG 2 R "x" { "a" "b" } c "" 1 "" { "h" 1/2 "t" 1/3 } 0 t "" 1 "" { 1 -1 } t "" 2 "" { 0 0 }', "sum"),
    ('EFG 2 R "x" { "a" "b" } p "" 3 1 "" { "l" } 0 t "" 1 "" { 1 -1 }', "player 3 out of range"),
    ('EFG 2 R "x" { "a" "b" } p "" 1 1 "" { "l" "r" } 0 t "" 1 "" { 1 -1 }', "ends early"),
    ('EFG 2 R "x" { "a" "b" } t "" 4 ""', "before its payoffs"),
    ("/no/such/file.efg", "cannot read"),
])
def test_malformed_files_one_clear_error(text, match):
    with pytest.raises(GutsInputError, match=match):
        read_efg(text)
