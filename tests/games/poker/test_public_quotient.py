"""The suit quotient of the public tree (guts.games.poker.public_quotient) against the full game.

Oracles: the full game's own exact best response, evaluated on the expansion of the
quotient's strategies (the quotient's exploitability must equal it at every iterate, not only
at an equilibrium); the full game's LP value (inside the quotient's certified bracket); CFR+ on
the full game, whose first iterates are invariant under the suit permutations, so equal to
the quotient's; and the number of boards, counted by hand (Rhode Island: the flop's rank, then
a turn of the flop's suit (one of r - 1 ranks) or of another suit (any of r ranks)).
"""
from dataclasses import replace

import numpy as np
import pytest

from guts.engine.extensive import cfr_plus, expected_values, exploitability, fictitious_play, solve_lp
from guts.engine.tolerances import CERTIFICATE_TOL
from guts.errors import GutsInputError
from guts.games.poker import build_poker, load_poker, read_poker
from guts.games.poker.public_quotient import expand_strategies
from tests.games.poker.test_isomorphism import LEDUC3
from tests.games.poker.test_isomorphism import MERCER as MERCER_TEMPLATE

MERCER = MERCER_TEMPLATE.format(ranks=3, suits=2, copies=1)

#: relative agreement of two computations of one number in float64 (different summation orders)
SAME = 1e-11

# budgets of a few iterations: the exploitability is the point, not convergence
pytestmark = pytest.mark.filterwarnings("ignore::guts.errors.ConvergenceWarning")


def rhode_island(ranks, suits, max_raises=(1, 1, 1)):
    spec = replace(read_poker("rhode_island"), ranks=ranks, suits=suits)
    return replace(spec, rounds=tuple(replace(r, max_raises=m) for r, m in zip(spec.rounds, max_raises)))


GAMES = {
    "leduc": lambda: read_poker("leduc.game"),
    "leduc-3-suits": lambda: read_poker(LEDUC3),
    "mercer-3x2": lambda: read_poker(MERCER),
    "rhode-island-3x2": lambda: rhode_island(3, 2),
    "rhode-island-3x3": lambda: rhode_island(3, 3),
}


def both(name):
    spec = GAMES[name]()
    return build_poker(spec), build_poker(spec, isomorphism="public")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_quotient_exploitability_is_the_full_games(name):
    full, q = both(name)
    assert q.isomorphism == "public" and q.compiled.quotient and not full.compiled.quotient
    assert q.compiled.num_nodes < full.compiled.num_nodes
    for iterations in (1, 7, 40):
        r = cfr_plus(q, max_iterations=iterations, target=1e-12)
        e_q = r.certificate.exploitability
        fs = expand_strategies(full, q, r.strategies)
        e_full = exploitability(full, fs)
        assert abs(e_q - e_full) <= SAME * max(1.0, e_full), (iterations, e_q, e_full)
        v_q, v_full = expected_values(q, r.strategies), expected_values(full, fs)
        assert np.allclose(v_q, v_full, rtol=0, atol=SAME * full.payoff_scale)


@pytest.mark.parametrize("name", ["leduc-3-suits", "rhode-island-3x2"])
def test_quotient_brackets_the_full_lp_value(name):
    full, q = both(name)
    lp = solve_lp(full)
    r = cfr_plus(q, target=1e-4 * full.payoff_scale)
    e = r.certificate.exploitability
    assert r.value - e - CERTIFICATE_TOL <= lp.value <= r.value + e + CERTIFICATE_TOL


def test_first_iterates_are_the_full_games():
    # CFR+ from zero regrets keeps the full game's iterates suit-invariant (up to rounding,
    # which the regret floor amplifies only later): its first iterates are the quotient's
    full, q = both("rhode-island-3x3")
    for iterations in (1, 2):
        a = cfr_plus(full, max_iterations=iterations, target=1e-12)
        b = cfr_plus(q, max_iterations=iterations, target=1e-12)
        assert abs(a.value - b.value) <= SAME * full.payoff_scale
        assert abs(a.certificate.exploitability - b.certificate.exploitability) <= SAME * full.payoff_scale


@pytest.mark.parametrize("ranks,suits", [(3, 2), (4, 3), (3, 4)])
def test_rhode_island_boards(ranks, suits):
    q = build_poker(rhode_island(ranks, suits), isomorphism="public")
    boards = {tuple(lab for lab in h if ":" in lab or len(lab) == 2 and lab[0] not in "fckr")
              for pt in q.compiled.players for h in pt.histories}
    two = {b for b in boards if len(b) == 2}
    assert len({b[0] for b in two}) == ranks                     # one flop per rank
    assert len(two) == ranks * (2 * ranks - 1)                   # turn: r - 1 suited, r offsuit
    n_full = ranks * suits * (ranks * suits - 1)
    assert len(two) < n_full


def test_methods_that_read_information_sets_refuse_the_quotient():
    q = load_poker("leduc.game", isomorphism="public")
    for call in (lambda: solve_lp(q), lambda: fictitious_play(q, max_iterations=2)):
        with pytest.raises(GutsInputError, match="suit quotient"):
            call()
    with pytest.raises(GutsInputError, match="accepted: True, False or 'public'"):
        load_poker("leduc.game", isomorphism="yes")


def test_cli_public_quotient(tmp_path, capsys):
    from guts.cli import main
    from guts.games.poker import DESCRIPTIONS

    # the counts: Leduc's 465 public nodes (the full game's compiled count) against the quotient's
    code = main(["solve-game", str(DESCRIPTIONS / "leduc.game"), "--isomorphism", "public", "--target", "1e-2",
                 "--out", str(tmp_path / "out"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    full, q = load_poker("leduc.game"), load_poker("leduc.game", isomorphism="public")
    assert f"public nodes {full.size.public_nodes} -> {q.size.public_nodes}" in out
    assert "method            dcfr, target 0.01" in out
    # the LP is refused on the quotient with one line and exit code 2
    code = main(["solve-game", "leduc", "--isomorphism", "public", "--method", "lp", "--quiet",
                 "--out", str(tmp_path / "lp")])
    err = capsys.readouterr().err
    assert code == 2 and "does not accept a suit quotient" in err and "Traceback" not in err


def test_cli_chooses_the_quotient_for_rhode_island():
    # the full tree's (public node, deal) pairs are counted, not built
    from guts.studies.solve_game import AUTO_QUOTIENT_PAIRS, poker_quotient_advised

    why = poker_quotient_advised("rhode_island", None)
    assert why is not None and "7.26e+09" in why and 7.26e9 > AUTO_QUOTIENT_PAIRS
    assert poker_quotient_advised("rhode_island", "lp") is None
    assert poker_quotient_advised("leduc", None) is None
