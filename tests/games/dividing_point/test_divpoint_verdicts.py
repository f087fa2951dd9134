"""Honest verdicts of the dividing-point method off the patent's range (Hundal and Reitzen,
US patent 6,129,631 (2000), FIG. 24): the printed order holds only on an interval of P,
outside it the order is read from the mesh LP and certified, and order inference does not
hinge on one mesh."""
import argparse

import pytest

from guts.cli.guard import guarded
from guts.errors import SolverError
from guts.games.dividing_point import patent_layout, patent_rules, solve_layout, solve_patent_game
from guts.games.dividing_point.discrete import solve_mesh
from guts.games.dividing_point.infer import infer_and_solve
from guts.games.dividing_point.method import CERTIFICATE_TOL
from guts.games.dividing_point.patent import patent_order_interval


def test_divpoint_patent_order_interval_ends_where_two_points_meet():
    """At each end of the interval the stationary point of FIG. 24's order hits a tie of two
    points (the order's edge), and just outside the order is broken by exactly that pair."""
    lo, hi = patent_order_interval("c")
    assert 0.5 < lo < 0.55 and 45 < hi < 55
    rules, lay = patent_rules("c"), patent_layout("c")
    for inside, outside, pair in ((lo, lo * 0.99, ("C2RR", "KR1")), (hi, hi * 1.01, ("kr1", "b2"))):
        r_in = solve_layout(rules, lay, inside, warn=False)
        assert r_in.converged and r_in.max_gain <= CERTIFICATE_TOL
        assert abs(r_in.points[pair[0]] - r_in.points[pair[1]]) < 1e-3  # the two points (nearly) meet
        r_out = solve_layout(rules, lay, round(outside, 6), warn=False)
        assert not r_out.converged and pair in r_out.order_violations


def test_divpoint_game_c_is_certified_outside_the_printed_orders_interval():
    pot = 60
    r = solve_patent_game("c", pot)
    assert r.converged and r.max_gain <= CERTIFICATE_TOL
    assert r.extra["order"] == "inferred" and "kr1 > b2" in r.extra["patent_failure"]
    lo, hi = r.extra["patent_order_interval"]
    assert not (lo <= pot <= hi)
    # the value against the LP of the mesh game the order was read from (error ~ C M^-2)
    M = r.extra["mesh"]
    assert abs(r.extra["lp_value"] - r.value) < 2.0 * (1 + pot) / M**2


def test_divpoint_cli_game_c_small_pot_is_an_equilibrium(capsys):
    from guts.cli import dividing_point

    root = argparse.ArgumentParser(prog="guts")
    sub = root.add_subparsers(dest="command", required=True)
    poker = sub.add_parser("poker")
    dividing_point.add_subparser(poker.add_subparsers(dest="game_command", required=True))
    args = root.parse_args(["poker", "dividing-point", "c", "--pot", "3/10"])
    code, result = guarded("guts poker dividing-point", args.func, args)
    out = capsys.readouterr().out
    assert (code or result) == 0 and "equilibrium: True" in out
    first = out.splitlines()[0]
    assert "FIG. 24" in first and "0.5313 <= P <= 49.24" in first and "C2RR > KR1" in first
    assert "is an equilibrium" in first and "interleaved differently" in first


def test_divpoint_inference_says_what_failed_and_tries_other_meshes():
    """Game c at P = 0.3 read at 60 hands: the repaired order respects itself but a player
    gains by deviating; the error names that (and the gain), not "a finer mesh".  With a
    further mesh the same call certifies, its value within the mesh error of that mesh's LP value."""
    rules = patent_rules("c")
    sol = solve_mesh(rules, 0.3, 60, formulation="sequence-form")  # the vertex the order is read from
    with pytest.raises(SolverError) as exc:
        infer_and_solve(rules, 0.3, 60, sol=sol, meshes=())
    msg = str(exc.value)
    assert "finer mesh" not in msg and "M = 60: the stationary point respects the order read but is not" in msg
    io = infer_and_solve(rules, 0.3, 60, sol=sol, meshes=(80,))
    assert io.result.converged and io.mesh == 80
    assert abs(io.lp_value - io.result.value) < 2.0 * (1 + 0.3) / 80**2


@pytest.mark.parametrize("kwargs, name", [
    (dict(mesh="abc"), "mesh"), (dict(mesh=1e300), "mesh"), (dict(mesh=-1), "mesh"),
    (dict(mesh=float("nan")), "mesh"), (dict(mesh=True), "mesh"), (dict(mesh=7), "mesh"),
    (dict(mesh=10**6), "mesh"),                      # its LP would need hundreds of TB: the memory budget
    (dict(pot=1e300), "pot"), (dict(pot=1e-300), "pot"), (dict(pot="abc"), "pot"),
    (dict(warn="abc"), "warn"), (dict(layout="abc"), "layout"),
])
@pytest.mark.parametrize("game", ["a", "d"])
def test_divpoint_patent_game_refuses_absurd_arguments(game, kwargs, name):
    # the mesh is checked even where the printed order certifies (P = 1) and no LP is read
    from guts.errors import GutsInputError

    with pytest.raises(GutsInputError, match=name):
        solve_patent_game(game, **kwargs)


def test_divpoint_mesh_game_refuses_a_mesh_beyond_the_budget():
    from guts.errors import GutsInputError

    with pytest.raises(GutsInputError, match="memory budget"):
        solve_mesh(patent_rules("a"), 1, 10**6)
    with pytest.raises(GutsInputError, match="mesh"):
        infer_and_solve(patent_rules("a"), 1, 1e300)
    from guts.games.dividing_point.mesh_lp import mesh_hands, solve_mesh_plans

    with pytest.raises(GutsInputError, match="memory budget"):
        solve_mesh_plans(patent_rules("a"), 1, 10**6)
    with pytest.raises(GutsInputError, match="mesh"):
        mesh_hands(1e300)


@pytest.mark.parametrize("pot", [0.3, 60, 100])
def test_divpoint_patent_order_gain_is_the_best_response_of_its_stationary_point(pot):
    """Outside FIG. 24's interval what fails is the printed order of the points: the
    patent-order stationary point crosses it (one P1 point and one P2 point), and the gain
    reported is the exact best response against the profile those points describe --
    recomputed here from the points alone -- not a placeholder."""
    import math

    from guts.games.dividing_point.continuum import best_response_gains, strategy_from_points
    from guts.games.dividing_point.rules import derive

    r = solve_patent_game("c", pot, order="patent", warn=False)
    assert not r.converged and not r.order_ok and math.isfinite(r.max_gain)
    lay = patent_layout("c")
    for a, b in r.order_violations:  # always a point of each player: each one's own points increase
        assert lay.owner(a) != lay.owner(b)
    structure = derive(patent_rules("c"))
    chk = best_response_gains(structure, strategy_from_points(structure, lay, r.points), pot)
    assert abs(r.max_gain - chk.max_gain) <= CERTIFICATE_TOL
    assert abs(r.value - chk.values[0]) <= CERTIFICATE_TOL
    # the points are an equilibrium; only the printed order is not theirs
    assert r.max_gain <= CERTIFICATE_TOL
    assert "breaks the assumed order" in r.reason and "is an equilibrium" in r.reason


def test_divpoint_stationary_point_without_a_strategy_has_nan_gain_and_a_reason():
    """An order whose stationary point puts a player's own point outside [0, 1] describes no
    strategy: no best response is computed, max_gain is nan (not inf) and reason says why."""
    import math

    from guts.games.dividing_point.layout import make_layout
    from guts.games.dividing_point.patent import PATENT_GAMES
    from guts.games.dividing_point.rules import derive

    g = PATENT_GAMES["a"]
    lay = make_layout(derive(g["rules"]), g["segs"], "0 < b1 < B1 < C2 < 1")
    r = solve_layout(g["rules"], lay, 1, warn=False)
    assert r.points["b1"] < 0 and ("0", "b1") in r.order_violations
    assert math.isnan(r.max_gain) and not r.converged
    assert "no best response was computed" in r.reason and "b1" in r.reason


def test_divpoint_auto_names_the_patent_points_when_only_their_interleaving_differs():
    """At P = 0.3 the certified equilibrium read from the LP has the patent-order stationary
    point's 18 dividing points (the same plans on every hand axis, the same values)."""
    pot = 0.3
    r = solve_patent_game("c", pot)
    p = solve_patent_game("c", pot, order="patent", warn=False)
    names = r.extra["patent_names"]
    assert r.converged and r.extra["same_points_as_patent"] and len(names) == len(p.points) == 18
    for k, v in names.items():
        assert abs(r.points[k] - p.points[v]) <= 1e-12
    assert "C2RR > KR1" in r.extra["patent_failure"]
