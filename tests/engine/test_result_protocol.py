"""One result protocol for every family: value, values, strategies, certificate
(with its kind), converged, num_iter, seconds, method, read the same way for every
(family, method) pair by :func:`guts.studies.overview.solver_overview`."""
import math

import numpy as np
import pytest

from guts.engine.result import (KINDS, PROTOCOL, Result, ResultCertificate, Solution, check_result, duality_gap_certificate,
                                exploitability_certificate, interval, max_regret_certificate)
from guts.errors import GutsInputError
from guts.studies.overview import CASES, solver_overview

# the slowest pair (adaptive refinement, ~2.5 s) is run by the overview notebook, not here
FAST = [name for name in CASES if name != "guts large N/refined-mesh"]


@pytest.fixture(scope="module")
def table():
    return solver_overview(FAST).set_index(["family", "method_asked"])


def test_every_family_and_method_reads_the_same_way(table):
    assert len(table) == len(FAST)
    assert set(table.certificate) <= set(KINDS)
    # every family is present with a result class of its own, all following the protocol
    assert {"CoalitionResult", "TeamResult", "ContinuumResult", "LargeNResult", "FictitiousPlayResult",
            "MatrixGameSolution", "ExtensiveResult", "DiscretisedSolution", "ContinuumCheck", "DividingPointResult",
            "MeshSolution", "MercerResult", "RaiseGameResult"} <= set(table.result_class)
    assert table.converged.all()
    assert not (table.seconds < 0).any() and (table.num_iter >= 0).all()  # nan: not timed (a closed form)


def test_values_are_the_known_ones(table):
    """Independent figures: RPS 0; Kuhn -1/18 (Kuhn 1950); 2 v. 2 teams 0 (Buck et al. 2022 §5);
    V(2) = 0.0132859051 without a mesh (README); the patent's FIG. 6 game at P = 1: E1 = 1/18."""
    v = table.value
    assert v[("matrix game", "lp")] == pytest.approx(0.0, abs=1e-12)
    assert v[("kuhn", "lp")] == pytest.approx(-1 / 18, abs=1e-9)
    assert v[("kuhn", "cfr+")] == pytest.approx(-1 / 18, abs=5e-3)
    assert v[("guts teams", "oracle")] == pytest.approx(0.0, abs=1e-9)
    assert v[("guts continuum", "oracle")] == pytest.approx(-0.0132859051, abs=1e-9)
    assert v[("dividing point", "exact")] == pytest.approx(1 / 18, abs=1e-12)
    # the same game by two methods gives the same value
    assert v[("guts coalition", "oracle")] == pytest.approx(v[("guts coalition", "lp")], abs=1e-9)
    assert v[("mercer", "lp")] == pytest.approx(v[("mercer", "cfr+")], abs=2e-3)


def test_zero_sum_values_and_exact_certificates(table):
    two = table[table.players == 2]
    for key, row in two.iterrows():
        vals = [float(x) for x in row["values"].split()]
        if row.certificate != "interval":  # zero-sum pairs; an interval game's sides are (V, W) with V = -W
            assert vals[0] + vals[1] == pytest.approx(0.0, abs=1e-9), key
    exact = table.loc[[("matrix game", "lp"), ("kuhn", "lp"), ("guts coalition", "oracle"), ("mercer", "lp"),
                       ("holdem", "lp"), ("continuous poker", "lp"), ("dividing point", "exact")]]
    assert (exact.certificate_measure < 1e-9).all()


def test_interval_certificates_bracket_the_value():
    from guts.games.guts.coalition import solve_coalition

    r = solve_coalition(2, 21)
    c = r.certificate
    assert c.kind == "interval" and c.lower <= r.value <= c.upper and c.holds(1e-10)
    assert c.lower == r.certified_lower and c.upper == r.certified_upper
    assert r.values == (r.player1_value, r.coalition_value)
    assert r.values[0] == pytest.approx(-r.values[1], abs=1e-9)  # the game has a value (§1)


def test_certificate_semantics():
    c = interval(0.1, 0.1 + 1e-11)
    assert c.holds(1e-10) and not c.holds(1e-12) and c.measure == pytest.approx(1e-11)
    assert not interval(math.nan, 0.2).holds(1.0)  # a failed side never certifies
    g = duality_gap_certificate(-0.25, 0.75)
    assert g.kind == "duality_gap" and g.gap == 1.0 and g.holds(1.0) and not g.holds(0.5)
    e = exploitability_certificate([0.2, 0.4])
    assert e.kind == "exploitability" and e.measure == pytest.approx(0.3) and e.nash_conv == pytest.approx(0.6)
    n = exploitability_certificate([0.1, 0.2, 0.3])
    assert n.kind == "nash_conv" and n.measure == pytest.approx(0.6) and n.exploitability == pytest.approx(0.2)
    m = max_regret_certificate([0.1, 0.3])
    assert m.kind == "max_regret" and m.measure == pytest.approx(0.3)
    assert not max_regret_certificate([math.inf, math.inf]).holds(1e300)
    with pytest.raises(GutsInputError):
        ResultCertificate("variance")
    assert f"{e:.2f}" == "exploitability 0.30"


def test_check_result_flags_what_is_missing():
    ok = Solution(value=1.0, values=(1.0, -1.0), strategies=((1.0,), (1.0,)), certificate=interval(1.0, 1.0),
                  converged=True, num_iter=1, seconds=0.0, method="test")
    assert check_result(ok) == [] and isinstance(ok, Result)
    assert ok.summary()["certificate"] == "interval"

    class Bare:
        value = 1.0

    assert "missing certificate" in check_result(Bare())
    bad = Solution(value=1.0, values=(1.0,), strategies=(), certificate=interval(math.nan, 1.0), converged=True)
    assert any("converged" in b for b in check_result(bad))
    assert set(PROTOCOL) <= set(dir(ok))


def test_dividing_point_certificate_is_the_protocols():
    """``DividingPointResult.certificate`` was a bare float (the largest gain); it is now the
    protocol's certificate of kind max_regret, the float is ``max_gain``."""
    from guts.games.dividing_point import solve_patent_game

    r = solve_patent_game("a", pot=1)
    assert isinstance(r.certificate, ResultCertificate) and r.certificate.kind == "max_regret"
    assert r.certificate.measure == r.max_gain == max(r.gains)
    assert r.certificate.nash_conv == pytest.approx(sum(r.gains))


def test_mercer_values_are_the_engines():
    """Mercer's solve reads the engine's values and best responses (no second evaluation),
    and they agree with an independent evaluation of the returned strategies."""
    from guts.games.poker.mercer import solve
    from guts.games.poker.mercer.solve import br_gains

    r = solve("smh", players=2, method="cfr+")
    ev, gains = br_gains(r.built.game, r.strategies)
    np.testing.assert_allclose(r.values, ev, atol=1e-12)
    np.testing.assert_allclose(r.gains, gains, atol=1e-12)
    assert r.certificate.kind == "nash_conv" and r.certificate.measure == pytest.approx(gains.sum(), abs=1e-12)
