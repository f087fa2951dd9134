"""The interior-point path of the sequence-form LP: its interior solution (no crossover)
and the vertex after crossover are both certified and give the same value, on either side
of the LP, and agree with the simplex."""
import pytest

from guts.engine.extensive import solve_sequence_form_lp
from guts.games.toy import leduc_poker


@pytest.mark.parametrize("crossover", [False, True])
def test_ipm_interior_and_vertex_agree_with_the_simplex_on_leduc(crossover):
    game = leduc_poker()
    simplex = solve_sequence_form_lp(game, method="highs")
    ipm = solve_sequence_form_lp(game, method="highs-ipm", crossover=crossover)
    assert simplex.converged and ipm.converged
    assert abs(ipm.value - simplex.value) <= 2 * (ipm.exploitability + simplex.exploitability) + 1e-12
