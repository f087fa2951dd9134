"""The prefix-sum mesh LP against the engine's sequence-form LP of the same mesh game:
same value (1e-9), both pairs certified by the engine's best response, and the perturbed
(tie-broken) LP's value equal to the engine's LP of the perturbed game."""
import pytest

from guts.engine.extensive import exploitability, solve_lp
from guts.games.dividing_point import BettingRules, patent_rules
from guts.games.dividing_point.discrete import discretised_game, solve_mesh
from guts.games.dividing_point.mesh_lp import solve_mesh_plans

VALUE_TOL = 1e-9

RULES = [patent_rules(g) for g in "abcd"] + [
    BettingRules(name="three raises", raise_cap=3),
    BettingRules(name="check-raise, three raises", raise_cap=3, check_raise=True),
    BettingRules(name="P2 first, pot limit, one raise", first=1, betting="pot", raise_cap=1),
    BettingRules(name="bet 1/2, check-raise", raise_cap=2, check_raise=True, bet_unit="1/2"),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name.split(":")[0])
@pytest.mark.parametrize("pot, M", [(3, 2), (1, 7), (2.5, 24), (0.3, 41)])
def test_divpoint_prefix_sum_lp_has_the_sequence_form_value(rules, pot, M):
    new = solve_mesh(rules, pot, M)
    old = solve_mesh(rules, pot, M, formulation="sequence-form")
    assert new.formulation == "prefix-sum" and old.formulation == "sequence-form"
    assert abs(new.value - old.value) < VALUE_TOL
    assert new.converged and new.exploitability < VALUE_TOL
    # the LP's own value is the game's, from P1's LP and from P2's (the mirror), and the
    # mirror's pair (P2's plan primal, P1's from the duals) is certified too
    for side in (0, 1):
        lp = solve_mesh_plans(rules, pot, M, side=side)
        assert abs(lp.value - old.value) < VALUE_TOL
    assert exploitability(discretised_game(rules, pot, M), lp.strategies) < VALUE_TOL


@pytest.mark.parametrize("game", ["b", "c"])
def test_divpoint_prefix_sum_lp_solves_the_perturbed_game(game):
    """The tie-break terms (linear in each hand) are carried by one weighted-sum column per sequence."""
    rules, eps = patent_rules(game), 1e-3
    engine = solve_lp(discretised_game(rules, 3, 30, eps))
    for side in (0, 1):
        assert abs(solve_mesh_plans(rules, 3, 30, eps, side=side).value - engine.value) < VALUE_TOL
    sol = solve_mesh(rules, 3, 30, perturbation=eps)
    assert sol.converged  # certified in the game it solved (the perturbed one)
    plain = solve_mesh(rules, 3, 30)
    assert abs(sol.value - plain.value) < 10 * eps  # the unperturbed value of an eps-equilibrium


def test_divpoint_unknown_formulation_is_refused():
    from guts.errors import GutsInputError

    with pytest.raises(GutsInputError, match="formulation"):
        solve_mesh(patent_rules("a"), 1, 5, formulation="dense")


def test_divpoint_prefix_sum_lp_is_linear_in_the_mesh():
    """O(M) non-zeros: doubling the mesh doubles the LP (the sequence form's payoff matrix,
    measured by the engine, quadruples)."""
    from guts.engine.extensive import sequence_form

    rules = patent_rules("c")
    small, big = solve_mesh_plans(rules, 3, 50), solve_mesh_plans(rules, 3, 100)
    assert big.nonzeros <= 2 * small.nonzeros + 50 and big.rows == 2 * small.rows
    a_small = sequence_form(discretised_game(rules, 3, 50))[0].nnz
    a_big = sequence_form(discretised_game(rules, 3, 100))[0].nnz
    assert a_big > 3.5 * a_small and big.nonzeros < a_big / 10


_RSS_SCRIPT = """
import sys
from guts.games.dividing_point import patent_rules
from guts.games.dividing_point.discrete import solve_mesh

def status(key):  # kB -> bytes
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return 1024.0 * float(line.split()[1])

rules = patent_rules(sys.argv[1])
solve_mesh(rules, 3, 8, formulation=sys.argv[3])  # imports and JIT compilation first
with open("/proc/self/clear_refs", "w") as f:  # reset the peak (VmHWM) to the current resident size
    f.write("5")
base = status("VmRSS")
solve_mesh(rules, 3, int(sys.argv[2]), formulation=sys.argv[3])
print(status("VmHWM") - base)
"""


@pytest.mark.slow
@pytest.mark.parametrize("game, M, formulation", [("c", 800, "prefix-sum"), ("a", 800, "prefix-sum"),
                                                  ("b", 250, "sequence-form")])
def test_divpoint_mesh_memory_estimate_is_within_2x_of_the_measured_peak(game, M, formulation):
    """The estimate ``--lp-mesh`` refuses large meshes by, against the peak resident memory
    measured in a fresh process (Linux: VmHWM reset after a small warm-up solve, over VmRSS then)."""
    import os
    import subprocess
    import sys

    if not os.access("/proc/self/clear_refs", os.W_OK):
        pytest.skip("needs Linux's /proc/self/clear_refs to reset the peak resident size")

    from guts.games.dividing_point.discrete import mesh_memory_estimate

    out = subprocess.run([sys.executable, "-c", _RSS_SCRIPT, game, str(M), formulation], capture_output=True,
                         text=True, check=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    measured = float(out.stdout.strip().splitlines()[-1])
    estimate = mesh_memory_estimate(patent_rules(game), M, formulation)
    assert measured / 2 <= estimate <= 2 * measured
