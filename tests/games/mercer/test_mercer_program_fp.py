"""The Mercer hold'em program's fictitious play (``rjullman/poker-nasheq``), iteration by
iteration against the program's published output files (``PROGRAM_FP``, ``PROGRAM_VALUES``).

The program prints, for every iteration, the max regret of the profile before that
iteration's average, then the iteration count; its summary file gives the expected payoffs
of the profile it returns (one average later). The engine's ``averaging="behavioural"``
must reproduce both; classical (realisation) fictitious play must not.
"""
import warnings
from pathlib import Path

import numpy as np
import pytest

from guts.engine.extensive import fictitious_play
from guts.errors import ConvergenceWarning
from guts.games.poker.mercer import Collusion, build_game, solve, variant_rules
from guts.games.poker.mercer.paper import PROGRAM_FP, PROGRAM_NASH_2P_SMH, PROGRAM_VALUES
from guts.games.poker.mercer.solve import program_action_priority

# the small games (each well under a second); the 3P-MMH runs are in
# experiments/mercer_program_fp.py (185 iterations of a 3P-MMH pass each)
SMALL = [k for k in PROGRAM_FP if not (k[0] == "mmh" and k[1] == 3)]


def _program_fp(variant, players, collusion, team, epsilon):
    """The program's game: three separate players for strong collusion, as it plays them."""
    coll = Collusion(team, collusion) if collusion else None
    game = build_game(variant_rules(variant, players), coll).game
    return fictitious_play(game, target=epsilon, averaging="behavioural",
                           action_priority=program_action_priority, max_iterations=10_000)


@pytest.mark.parametrize("key", SMALL, ids=lambda k: "-".join(str(x) for x in k))
def test_program_rule_reproduces_the_published_runs(key):
    iterations, first, last = PROGRAM_FP[key]
    r = _program_fp(*key)
    printed = r.regrets[:-1].max(axis=1)          # the program prints max over players
    assert r.num_iter == iterations == len(printed)
    np.testing.assert_allclose(printed[:4], first, rtol=1e-12)     # printed to 16-17 digits
    # the whole run: rounding (summation order) is the only difference left
    assert abs(printed[-1] - last) < 1e-12 and printed[-1] < key[-1] <= printed[-2]
    assert r.converged and r.regrets[-1].max() < key[-1]
    # the summary file's payoffs are those of the returned profile, one average after the
    # tested one: reproduced to rounding, so the returned strategies are the program's
    if PROGRAM_VALUES.get(key[:4], (None, None))[1] == key[4]:
        np.testing.assert_allclose(r.values, PROGRAM_VALUES[key[:4]][0], rtol=0, atol=1e-12)


def test_solve_fp_is_the_programs_rule_and_fp_realisation_is_not():
    """2P-SMH to 0.001: the program stops at 704 iterations (smh2p.out); classical fictitious
    play (mixed-strategy average) at 148. Both certify their own profile."""
    fp = solve("smh", 2, "fp", target=0.001)
    assert fp.num_iter == 704 and fp.converged and fp.max_regret < 0.001
    np.testing.assert_allclose(fp.regrets[:2].max(axis=1), [0.75, 0.31291279669762634], rtol=1e-12)
    np.testing.assert_allclose(fp.values, PROGRAM_VALUES[("smh", 2, None, None)][0], atol=1e-12)
    cl = solve("smh", 2, "fp-realisation", target=0.001)
    assert cl.num_iter == 148 and cl.converged and cl.max_regret < 0.001
    # the two rules part at the second iteration: the realisation average drops the
    # uniform start (s^1 = r^0), the program's keeps it (s^1 = (s^0 + r^0) / 2)
    assert abs(cl.regrets[1].max() - 0.31291279669762634) > 0.01


def test_program_tie_break_matters():
    """Against the uniform start the second player's 34 is exactly indifferent between
    calling and folding; the program takes its first child (bet). Folding instead gives
    another second iteration (0.3022 instead of the printed 0.3129)."""
    game = build_game(variant_rules("smh", 2)).game
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fold_first = fictitious_play(game, target=1e-9, averaging="behavioural", max_iterations=2)
        program = fictitious_play(game, target=1e-9, averaging="behavioural", max_iterations=2,
                                  action_priority=program_action_priority)
    assert abs(program.regrets[1].max() - 0.31291279669762634) < 1e-12
    assert abs(fold_first.regrets[1].max() - 0.31291279669762634) > 0.01


def test_program_rule_returns_the_programs_strategy_2p_smh():
    """Every information set of the returned 2P-SMH profile against the program's smh2p.nash
    (three decimals): e.g. the first player bets 25 with 0.750 and 34 with 0.693."""
    r = solve("smh", 2, "fp", target=0.001)
    g = r.built.game
    for seat, key, history in ((0, "first", ()), (1, "second", ("b4",))):
        labels = g.deals.type_labels[seat]
        bet = list(g.action_labels(seat)[history]).index("b4")
        ours = {lab: r.strategies[seat][history][t, bet] for t, lab in enumerate(labels)}
        for hand, printed in PROGRAM_NASH_2P_SMH[key].items():
            assert abs(ours[hand] - printed) <= 5e-4 + 1e-12, (seat, hand, ours[hand], printed)


def test_program_rule_reproduces_tables_2_and_3():
    """The study's Tables 2 and 3 (2P-MMH bet percentages, 34 figures) are its program's
    fictitious play at max regret 0.01: every figure to its printed decimal."""
    from guts.games.poker.mercer.tables import table_frame

    r = solve("mmh", 2, "fp", target=0.01)
    assert r.num_iter == PROGRAM_FP[("mmh", 2, None, None, 0.01)][0]
    for name in ("table2", "table3"):
        df = table_frame(name, r.built, r.strategies)
        np.testing.assert_array_equal(np.round(df.ours.to_numpy(), 1), df.paper.to_numpy())


def test_program_fp_artefact_quick_run_matches_the_committed_file():
    """The ``program_fp`` artefact's rows (quick: without 3P-MMH, nothing written) agree with
    the committed full run's: both rules' iteration counts exactly."""
    import pandas as pd

    from guts.studies.mercer_fp import run_program_fp

    df = run_program_fp(None, quick=True)
    assert df.same_count.all() and df.converged.all()
    committed = pd.read_csv(Path(__file__).resolve().parents[3] / "results" / "mercer" / "program_fp.csv")
    merged = df.merge(committed, on=["game", "epsilon"], suffixes=("", "_committed"))
    assert len(merged) == len(df) == 11
    assert (merged.iterations == merged.iterations_committed).all()
    assert (merged.realisation_iterations == merged.realisation_iterations_committed).all()
