"""The interior-point paths of the sequence-form LP (IPX, and HiPO where ``pip install
"guts[hipo]"`` installed it): their interior solution (no crossover) and the vertex after
crossover are both certified and give the same value, on either side of the LP, and agree
with the simplex."""
import pytest

from guts.engine.extensive import solve_sequence_form_lp
from guts.engine.highs import hipo_available
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

needs_hipo = pytest.mark.skipif(not hipo_available(), reason="HiPO needs highspy-extras (guts[hipo])")


@pytest.mark.parametrize("method", ["highs-ipm", pytest.param("highs-hipo", marks=needs_hipo)])
@pytest.mark.parametrize("crossover", [False, True])
def test_ipm_interior_and_vertex_agree_with_the_simplex_on_leduc_and_kuhn(method, crossover):
    game = leduc_poker()
    simplex = solve_sequence_form_lp(game, method="highs")
    ipm = solve_sequence_form_lp(game, method=method, crossover=crossover)
    assert simplex.converged and ipm.converged
    assert abs(ipm.value - simplex.value) <= 2 * (ipm.exploitability + simplex.exploitability) + 1e-12
    kuhn = solve_sequence_form_lp(kuhn_poker(), method=method, crossover=crossover)
    assert kuhn.converged and abs(kuhn.value + 1 / 18) <= 1e-9      # Kuhn (1950): -1/18


@needs_hipo
def test_auto_picks_hipo_above_the_ipm_threshold(monkeypatch):
    from guts.engine.extensive import lp as lpmod

    assert lpmod.lp_method(leduc_poker()) == "highs-ds"
    monkeypatch.setattr(lpmod, "LP_IPM_NNZ", 10)
    monkeypatch.setattr(lpmod, "LP_IPM_ANY_NNZ", 10)
    assert lpmod.lp_method(leduc_poker()) == "highs-ipm"
    monkeypatch.setattr(lpmod, "LP_HIPO_NNZ", 20)
    assert lpmod.lp_method(leduc_poker()) == "highs-hipo"
    nnz, need = lpmod.lp_memory_estimate(leduc_poker())
    assert need == lpmod.LP_BYTES_BASE + nnz * lpmod.LP_HIPO_BYTES_PER_NONZERO + lpmod._lp_size(
        lpmod._check_game(leduc_poker()))[1] * lpmod.LP_HIPO_BYTES_PER_ROW


def test_hipo_requested_without_it_names_the_method_and_the_install(monkeypatch):
    from guts.engine import highs
    from guts.engine.extensive import lp as lpmod

    monkeypatch.setattr(highs, "_HIPO", False)
    with pytest.raises(GutsInputError, match=r"highs-hipo.*guts\[hipo\]"):
        solve_sequence_form_lp(kuhn_poker(), method="highs-hipo")
    monkeypatch.setattr(lpmod, "LP_IPM_NNZ", 10)
    monkeypatch.setattr(lpmod, "LP_IPM_ANY_NNZ", 10)
    monkeypatch.setattr(lpmod, "LP_HIPO_NNZ", 20)
    assert lpmod.lp_method(leduc_poker()) == "highs-ipm"        # auto falls back to IPX
