"""One solution type for every family: value, values, strategies, certificate (with its
kind), converged, num_iter, seconds, method and the family's details, read the same way for
every (family, method) pair by :func:`guts.studies.overview.solver_overview`."""
import importlib
import inspect
import math
import pkgutil

import numpy as np
import pytest

from guts.engine.result import (KINDS, PROTOCOL, Certificate, Details, Solution, check_result, duality_gap_certificate,
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
    # every family is present, each answer one Solution carrying its family's details record
    assert {"CoalitionResult", "TeamResult", "ContinuumResult", "LargeNResult", "FictitiousPlayResult",
            "MatrixGameSolution", "ExtensiveResult", "DiscretisedSolution", "ContinuumCheck", "DividingPointResult",
            "MeshSolution", "MercerResult", "RaiseGameResult"} <= set(table.details)
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
        Certificate("variance")
    assert f"{e:.2f}" == "exploitability 0.30"


def test_check_result_flags_what_is_missing():
    ok = Solution(value=1.0, values=(1.0, -1.0), strategies=((1.0,), (1.0,)), certificate=interval(1.0, 1.0),
                  converged=True, num_iter=1, seconds=0.0, method="test")
    assert check_result(ok) == [] and isinstance(ok, Solution)
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
    assert isinstance(r.certificate, Certificate) and r.certificate.kind == "max_regret"
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
    # Mercer's target is exploitability (the mean gain), and so is its certificate's kind
    assert r.certificate.kind == "exploitability"
    assert r.certificate.measure == pytest.approx(gains.sum() / 2, abs=1e-12)


#: Public functions named like solvers that do not return one solution, and why.
NOT_ONE_SOLUTION = {
    "guts.engine.extensive.fingerprint.solved_game": "the game a solution remembers, not a solve",
    "guts.games.dividing_point.mesh_lp.solve_mesh_plans": "the mesh LP's plans, read by solve_mesh",
    "guts.games.dividing_point.method.solve_symbolic": "sympy expressions of the dividing points",
    "guts.games.poker.mercer.persist.solved_budget": "the budget recorded in a solution file",
    "guts.games.poker.mercer.solve.solve_regimes": "one Solution per regime, keyed by regime",
}

#: Solver names that do not begin with ``solve``.
SOLVER_NAMES = {"fixed_point", "cfr_plus", "fictitious_play", "check_equilibrium", "double_oracle"}


def _solver_functions():
    import guts

    for info in pkgutil.walk_packages(guts.__path__, "guts."):
        if not (info.name.startswith("guts.engine") or info.name.startswith("guts.games")):
            continue
        mod = importlib.import_module(info.name)
        for name, fn in vars(mod).items():
            if (inspect.isfunction(fn) and fn.__module__ == mod.__name__ and not name.startswith("_")
                    and (name.startswith("solve") or name in SOLVER_NAMES)):
                yield f"{mod.__name__}.{name}", fn


def test_every_solver_of_the_package_returns_one_solution():
    """Every public solver of the engine and the families is declared to return
    :class:`Solution` (``double_oracle``: with the rows and columns it generated)."""
    found = dict(_solver_functions())
    assert len(found) >= 25 and set(NOT_ONE_SOLUTION) <= set(found)
    wrong = {name: fn.__annotations__.get("return") for name, fn in found.items()
             if name not in NOT_ONE_SOLUTION
             and fn.__annotations__.get("return") not in ("Solution", "tuple[Solution, np.ndarray, np.ndarray]")}
    assert wrong == {}


def test_every_answer_is_exactly_a_solution(table):
    """At run time too: the overview's answers are Solution itself, never a subclass, and
    each carries a details record (a family's own names read through the solution)."""
    from guts.games.guts.coalition import CoalitionResult, solve_coalition

    r = solve_coalition(2, 21)
    assert type(r) is Solution and isinstance(r.details, CoalitionResult) and isinstance(r.details, Details)
    assert r.player1_value == r.details.player1_value == r.value
    assert r.replace(seconds=0.0).seconds == 0.0 and r.replace(seconds=0.0).player1_value == r.player1_value
    with pytest.raises(AttributeError, match="CoalitionResult"):
        r.no_such_name
    assert not any(issubclass(cls, Solution) and cls is not Solution
                   for _, mod in _modules() for cls in vars(mod).values() if inspect.isclass(cls))


def _modules():
    import guts

    for info in pkgutil.walk_packages(guts.__path__, "guts."):
        if info.name.startswith(("guts.engine", "guts.games", "guts.studies")):
            yield info.name, importlib.import_module(info.name)


def test_fixed_point_certifies_a_lower_bound():
    """One side's fixed point: the row strategy forces (Theorem 1.2) a value within the
    rounding allowance of the value reported; the 2x1 game of §2.2 has value 0."""
    from guts.engine.recursive import fixed_point

    r = fixed_point(np.array([[0.0], [0.0]]), np.array([[0.5], [2.0]]), v0=-1.0, warn=False)
    c = r.certificate
    assert type(r) is Solution and c.kind == "lower_bound" and c.upper == r.value
    assert c.lower <= 1e-9 and c.holds(1e-6) and abs(r.value) < 1e-9
