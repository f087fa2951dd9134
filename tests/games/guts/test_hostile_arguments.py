"""solve_coalition validates what it is given, and a result without certificates is never
"converged" (a nan certificate certifies nothing)."""
import math

import numpy as np
import pytest

from guts.engine.result import check_result
from guts.errors import GutsInputError
from guts.games.guts.coalition import solve_coalition


@pytest.mark.parametrize("kwargs, names", [
    (dict(random_state="abc"), "random_state"),
    (dict(random_state=1.5), "random_state"),
    (dict(random_state=-1), "random_state"),
    (dict(certify_result="abc"), "certify_result"),
    (dict(certify_result=1), "certify_result"),
])
def test_bad_arguments_are_refused(kwargs, names):
    with pytest.raises(GutsInputError, match=names):
        solve_coalition(2, mesh=11, **kwargs)


def test_good_seeds_are_accepted():
    for seed in (None, 0, 7, np.random.default_rng(3)):
        assert solve_coalition(1, mesh=5, solver="fp", fp_iterations=20, random_state=seed).num_iter >= 1


def test_without_certificates_the_result_is_not_converged():
    bare = solve_coalition(2, mesh=11, certify_result=False)
    assert math.isnan(bare.certificate.measure) and not bare.certificate.holds(math.inf)
    assert not bare.converged and check_result(bare) == []
    full = solve_coalition(2, mesh=11)
    # the same fixed points: with the certificates the values are certified
    assert full.converged and full.certificate.holds(1e-8)
    assert abs(full.coalition_value - bare.coalition_value) <= 1e-12


# --- a mesh with no threshold strictly inside (0, 1) -------------------------------------------------------
def test_on_thresholds_0_and_1_no_strategy_can_be_certified():
    """The root cause of refusing mesh 2: with thresholds 0 (always hold) and 1 (never hold), the 1 v. 1
    stage game is, by the rules (DESIGN: h = 1 pays the holder n - 1 = 1 and ends; h = 2 is a fair
    showdown with the stakes times h - 1 = 1; h = 0 a redeal), A = [[0, 1], [-1, 0]], B = I.  Against the
    reply "always hold", every mixture x of player 1 makes Theorem 1.2's x A y + (x B y - 1) v exactly 0
    at v = -1, never > 0: no certificate exists, whatever the solver does."""
    from guts.games.guts.teams import team_payoff_matrix

    A, B = team_payoff_matrix(np.array([[0.0], [1.0]]), np.array([[0.0], [1.0]]))
    np.testing.assert_allclose(A, [[0.0, 1.0], [-1.0, 0.0]], atol=1e-15)
    np.testing.assert_allclose(B, np.eye(2), atol=1e-15)
    for a in np.linspace(0.0, 1.0, 11):
        x = np.array([a, 1.0 - a])
        f = x @ A + (x @ B - 1.0) * -1.0       # one entry per pure reply y
        assert f.min() <= 1e-15 and abs(f[0]) <= 1e-15


@pytest.mark.parametrize("m, n", [(1, 1), (1, 2), (2, 1), (2, 3), (3, 3)])
def test_against_always_hold_a_side_on_thresholds_0_and_1_never_certifies(m, n):
    """m v. n: team 1 with k members holding (threshold 0), the others dropping, against team 2 all
    holding.  With h = n + k holders, a holder expects -(N - h)(h - 2)/h and a dropper h - 2 (zero-sum
    in every event), the stakes times h - 1: Theorem 1.2's value at v = -m is -(h - 2) k N / h <= 0."""
    from guts.games.guts.teams import team_payoff_matrix

    N = m + n
    rows = np.array([[0.0] * k + [1.0] * (m - k) for k in range(m + 1)])
    A, B = team_payoff_matrix(rows, np.zeros((1, n)))
    for k in range(m + 1):
        h = n + k
        assert abs(A[k, 0] + (B[k, 0] - 1.0) * -m - (-(h - 2) * k * N / h)) <= 1e-12
        assert A[k, 0] + (B[k, 0] - 1.0) * -m <= 1e-12


@pytest.mark.parametrize("call", [
    lambda: solve_coalition(1, mesh=2),
    lambda: solve_coalition(2, mesh=[0.0, 1.0], structure="full"),
    lambda: solve_coalition(1, mesh=5, coalition_mesh=2),
    lambda: __import__("guts.games.guts.teams", fromlist=["x"]).solve_teams(1, 1, 2),
    lambda: __import__("guts.games.guts.teams", fromlist=["x"]).solve_teams(2, 3, [0.0, 1.0], "bloc"),
    lambda: __import__("guts.games.guts.large_n", fromlist=["x"]).solve_pseudo_bloc(2, [0.0, 1.0]),
])
def test_a_mesh_without_an_interior_threshold_is_refused(call):
    with pytest.raises(GutsInputError, match="too small for the recursive game"):
        call()


def test_mesh_3_is_enough_one_v_one_is_fair():
    from guts.games.guts.teams import solve_teams

    # 2-player Guts is fair (paper Prop. 3.3); one interior threshold (1/2) already certifies it
    r = solve_teams(1, 1, 3, solver="oracle")
    assert r.converged and r.certified_lower <= 0.0 <= r.certified_upper
    assert r.certified_upper - r.certified_lower <= 1e-9


# --- absurd values of the shared parameters ---------------------------------------------------------------
@pytest.mark.parametrize("kwargs, name", [
    (dict(max_iterations=1e300), "max_iterations"),
    (dict(fp_iterations=1e300, solver="fp"), "fp_iterations"),
    (dict(mesh="abc"), "mesh"),
    (dict(mesh=True), "mesh"),
    (dict(mesh=1e300), "mesh"),
    (dict(mesh=float("nan")), "mesh"),
])
def test_absurd_budgets_and_meshes_are_refused(kwargs, name):
    with pytest.raises(GutsInputError, match=name):
        solve_coalition(2, **{"mesh": 11, **kwargs})


@pytest.mark.parametrize("kwargs, name", [
    (dict(mesh="abc"), "mesh"), (dict(mesh=1e300), "mesh"), (dict(random_state="abc"), "random_state"),
    (dict(random_state=True), "random_state"), (dict(random_state=-1), "random_state"),
    (dict(players=1e300), "players"), (dict(iterations=1e300), "iterations"),
])
def test_fictitious_play_refuses_absurd_arguments(kwargs, name):
    from guts.games.guts.fictitious import fictitious_play

    with pytest.raises(GutsInputError, match=name):
        fictitious_play(**{"players": 3, "mesh": 5, "iterations": 3, **kwargs})


@pytest.mark.parametrize("kwargs, name", [
    (dict(target_width=1e300), "target_width"), (dict(target_width=2.0), "target_width"),
    (dict(target_width=float("nan")), "target_width"), (dict(max_iterations=1e300), "max_iterations"),
    (dict(size=1e300), "size"),
])
def test_large_n_refuses_meaningless_targets_and_budgets(kwargs, name):
    from guts.games.guts.large_n import solve_large_n

    with pytest.raises(GutsInputError, match=name):
        solve_large_n(**{"size": 1, "mesh": 10, "max_iterations": 1, **kwargs})


def test_a_team_game_beyond_the_memory_budget_is_refused_before_it_is_built(monkeypatch):
    # 3 v. 3 "full" at mesh 401: C(403, 3) = 10 827 401 strategies a team, refused at once
    # (it grew past 6 GB before) whatever the machine: the budget is set here
    import time

    from guts.games.guts.teams import solve_teams

    monkeypatch.setenv("GUTS_MEMORY_BUDGET", "4G")
    t = time.perf_counter()
    with pytest.raises(GutsInputError, match=r"10,827,401 .*memory budget"):
        solve_teams(3, 3, mesh=401, structure="full")
    assert time.perf_counter() - t < 5
