"""No false verdict, no endless run: ``converged`` means a certificate met at a target; an
iteration budget is an integer within MAX_ITERATIONS; a target must be within the payoff
range; a one-player game is solved (its best response), not an IndexError."""
import math
import time

import numpy as np
import pytest

from guts.engine.extensive import (
    ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal, cfr_plus, exploitability, fictitious_play,
)
from guts.engine.result import Certificate, check_result
from guts.engine.tolerances import MAX_ITERATIONS
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker


def test_an_iteration_budget_alone_is_not_converged():
    g = kuhn_poker(2)
    r = cfr_plus(g, max_iterations=1)
    # one iteration from the uniform profile: exploitability far from 0 (the uniform profile's
    # own is 0.458), recomputed independently by the best-response pass
    assert r.exploitability > 0.1 and abs(exploitability(g, r.strategies) - r.exploitability) <= 1e-12
    assert not r.converged and check_result(r) == []
    hit = cfr_plus(g, max_iterations=1000, target=0.05)
    assert hit.converged and hit.exploitability <= 0.05 and hit.certificate.holds(0.05)


@pytest.mark.parametrize("value", [1e300, 1e3, 2.5, float("nan"), "10", True, 0, -1, MAX_ITERATIONS + 1])
def test_iteration_counts_are_integers_within_the_maximum(value):
    g = kuhn_poker(2)
    t0 = time.monotonic()
    with pytest.raises(GutsInputError, match=f"accepted: integers 1..{MAX_ITERATIONS}"):
        cfr_plus(g, max_iterations=value)
    with pytest.raises(GutsInputError, match=f"accepted: integers 1..{MAX_ITERATIONS}"):
        fictitious_play(g, max_iterations=value)
    assert time.monotonic() - t0 < 5


def test_a_target_beyond_the_payoff_range_is_refused():
    g = kuhn_poker(2)
    # the compiled bound on |payoff| (offset + scale x showdown table) holds Kuhn's largest, 2
    scale = g.compiled.payoff_scale
    assert scale >= 2.0
    for solve in (cfr_plus, fictitious_play):
        with pytest.raises(GutsInputError, match=rf"payoff range {2 * scale:g} .*accepted: a target in \(0, "):
            solve(g, target=1e300)
        with pytest.raises(GutsInputError, match="payoff range"):
            solve(g, target=2.01 * scale)
    # at the range itself any profile meets it (every best-response gain is <= 4 <= 2 scale)
    r = cfr_plus(g, target=2 * scale, report_every=1)
    assert r.converged and r.num_iter == 1


def test_a_nan_certificate_never_holds():
    c = Certificate("exploitability", exploitability=math.nan)
    assert not c.holds(math.inf) and not c.holds(1e300)
    assert not Certificate("interval", lower=0.0, upper=math.nan).holds(math.inf)


def decision_problem():
    """One player, a fair coin he sees: heads a -> 1, b -> 3; tails a -> 2, b -> -1.
    Optimal: b on heads, a on tails, value (3 + 2) / 2 = 2.5."""
    heads = ExplicitDecision(0, "H", {"a": ExplicitTerminal([1.0]), "b": ExplicitTerminal([3.0])})
    tails = ExplicitDecision(0, "T", {"a": ExplicitTerminal([2.0]), "b": ExplicitTerminal([-1.0])})
    return ExplicitGame(ExplicitChance({"h": (0.5, heads), "t": (0.5, tails)}), 1)


def test_a_one_player_game_is_solved_by_its_best_response():
    g = decision_problem()
    r = cfr_plus(g, target=1e-12)
    assert r.value == pytest.approx(2.5, abs=1e-15) and r.exploitability == 0 and r.converged
    assert np.array_equal(r.strategies[0]["H"], [[0.0, 1.0]]) and np.array_equal(r.strategies[0]["T"], [[1.0, 0.0]])
    assert check_result(r) == []
    assert not cfr_plus(g, max_iterations=5).converged          # no target: nothing certified at one
    f = fictitious_play(g, target=1e-9)
    assert f.value == pytest.approx(2.5, abs=1e-12) and f.converged


def test_openspiel_catch_is_solved_or_refused_in_one_line():
    pytest.importorskip("pyspiel")
    from guts.engine.extensive import from_openspiel

    # 3 x 3: the ball falls two rows, the paddle moves one column a step from the middle, so
    # it reaches every column in time: the catch is sure, value 1
    r = cfr_plus(from_openspiel("catch(rows=3,columns=3)"), target=1e-9)
    assert r.value == pytest.approx(1.0, abs=1e-12) and r.converged
    try:
        from_openspiel("catch")
    except GutsInputError as exc:       # its information states do not recall the player's moves
        assert "\n" not in str(exc) and "perfect recall" in str(exc)


def test_progress_with_a_target_measures_the_certificate_not_the_cap():
    """The bar of a solve with a target is the log-scale way from the first checked
    exploitability to the target: halfway at the geometric mean, full once it is met."""
    from guts.engine.extensive.cfr import TARGET_BAR_STEPS, _target_progress

    assert _target_progress(1.0, 1e-2, 1e-4) == TARGET_BAR_STEPS // 2
    assert _target_progress(1.0, 1.0, 1e-4) == 0
    assert _target_progress(1.0, 1e-4, 1e-4) == TARGET_BAR_STEPS
    assert _target_progress(1.0, 2.0, 1e-4) == 0                 # worse than the start: no progress
    assert _target_progress(1e-5, 1e-5, 1e-4) == TARGET_BAR_STEPS  # met at the first check
