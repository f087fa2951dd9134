"""The LP's algorithm: the dual simplex and the interior-point method give the same certified
value; ``"auto"`` follows the measured threshold on the payoff non-zeros; a bad choice is
refused in one line, in Python and on the command line."""
import pytest

from guts.engine.extensive import lp as lpmod
from guts.engine.extensive import solve_sequence_form_lp
from guts.engine.highs import LP_METHOD_CHOICES, LP_METHOD_HIGHS
from guts.errors import GutsInputError
from guts.games.toy import kuhn_poker, leduc_poker

KUHN_VALUE = -1 / 18          # Kuhn (1950): the first player's value


@pytest.mark.parametrize("make", [kuhn_poker, leduc_poker], ids=["kuhn", "leduc"])
def test_simplex_and_interior_point_give_the_same_certified_value(make):
    game = make()
    simplex = solve_sequence_form_lp(game, method="simplex")
    ipm = solve_sequence_form_lp(game, method="ipm")
    assert simplex.converged and ipm.converged
    bound = lpmod.LP_CERT_TOL * max(1.0, lpmod._check_game(game).payoff_scale)
    assert simplex.exploitability <= bound and ipm.exploitability <= bound
    # each pair is an epsilon-equilibrium: its value is within its exploitability of the game value
    assert abs(simplex.value - ipm.value) <= simplex.exploitability + ipm.exploitability + 1e-12
    if make is kuhn_poker:
        assert abs(simplex.value - KUHN_VALUE) <= 1e-9 and abs(ipm.value - KUHN_VALUE) <= 1e-9


def test_named_methods_are_highs_dual_simplex_and_ipx():
    game = kuhn_poker()
    assert lpmod.lp_method(game, "simplex") == "highs-ds" == LP_METHOD_HIGHS["simplex"]
    assert lpmod.lp_method(game, "ipm") == "highs-ipm" == LP_METHOD_HIGHS["ipm"]
    assert set(LP_METHOD_CHOICES) <= set(lpmod.LP_METHODS)


def test_auto_choice_follows_the_thresholds_on_synthetic_sizes():
    t, d, a, h = lpmod.LP_IPM_NNZ, lpmod.LP_IPM_NNZ_PER_ROW, lpmod.LP_IPM_ANY_NNZ, lpmod.LP_HIPO_NNZ
    assert t < a < h and d > 0
    dense = lambda n: int(n / d)                                       # noqa: E731 - d non-zeros per row
    sparse = lambda n: int(n / d) + 1                                  # noqa: E731 - fewer than d per row
    assert lpmod.choose_lp_method(0, 0) == "simplex"
    assert lpmod.choose_lp_method(t, 1) == "simplex"                   # small: the simplex however dense
    assert lpmod.choose_lp_method(t + 1, dense(t + 1)) == "ipm"
    assert lpmod.choose_lp_method(t + 1, sparse(t + 1)) == "simplex"
    assert lpmod.choose_lp_method(a, sparse(a)) == "simplex"
    assert lpmod.choose_lp_method(a + 1, 10 * a) == "ipm"              # large: the interior point however sparse
    assert lpmod.choose_lp_method(10 * h, dense(10 * h)) == "ipm"      # no HiPO: IPX however large
    assert lpmod.choose_lp_method(h, 1, hipo=True) == "ipm"
    assert lpmod.choose_lp_method(h + 1, 1, hipo=True) == "hipo"
    for bad in (-1, "many", None, 2.5, True):
        with pytest.raises(GutsInputError, match="nonzeros"):
            lpmod.choose_lp_method(bad, 1)
        with pytest.raises(GutsInputError, match="rows"):
            lpmod.choose_lp_method(1, bad)


def test_auto_on_a_game_reads_its_nonzeros_and_rows(monkeypatch):
    game = leduc_poker()
    nnz, rows = lpmod._lp_size(lpmod._check_game(game))
    assert lpmod.lp_method(game) == LP_METHOD_HIGHS[lpmod.choose_lp_method(nnz, rows)]
    monkeypatch.setattr(lpmod, "LP_IPM_NNZ", nnz - 1)
    monkeypatch.setattr(lpmod, "LP_IPM_NNZ_PER_ROW", nnz / rows)
    assert lpmod.lp_method(game) == "highs-ipm"
    monkeypatch.setattr(lpmod, "LP_IPM_NNZ_PER_ROW", 1.01 * nnz / rows)
    assert lpmod.lp_method(game) == "highs-ds"
    monkeypatch.setattr(lpmod, "LP_IPM_ANY_NNZ", nnz - 1)
    assert lpmod.lp_method(game) == "highs-ipm"


def test_bad_method_refused_naming_the_value_and_the_choices():
    with pytest.raises(GutsInputError, match=r"'dual'.*accepted: 'auto', 'simplex', 'ipm'"):
        solve_sequence_form_lp(kuhn_poker(), method="dual")


def test_solve_game_passes_the_choice_and_refuses_it_without_an_lp():
    from guts.studies.solve_game import solve_game

    game = kuhn_poker()
    r = solve_game(game, method="lp", lp_method="ipm", exact=False)
    assert r.result.converged and abs(r.result.value - KUHN_VALUE) <= 1e-9
    with pytest.raises(GutsInputError, match=r"lp_method 'interior'.*accepted: 'auto', 'simplex', 'ipm'"):
        solve_game(game, method="lp", lp_method="interior")
    with pytest.raises(GutsInputError, match="solves no LP"):
        solve_game(game, method="cfr+", lp_method="ipm")


LEDUC_ACPC = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\nfirstPlayer = 1 1\n"
              "maxRaises = 2 2\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n")


def test_cli_lp_method_solves_leduc_both_ways_and_refuses_a_bad_choice(tmp_path, capsys):
    import json

    from guts.cli import main
    from tests.cli.test_cli_conventions import ERROR_LINE

    (tmp_path / "leduc.game").write_text(LEDUC_ACPC)
    values = {}
    for m in ("simplex", "ipm"):
        assert main(["solve-game", str(tmp_path / "leduc.game"), "--lp-method", m, "--no-exact", "--quiet",
                     "--out", str(tmp_path / m)]) == 0
        out = capsys.readouterr().out
        assert f"HiGHS {LP_METHOD_HIGHS[m]} (--lp-method {m})" in out
        doc = json.loads((tmp_path / m / "solution.json").read_text())
        assert doc["exploitability"] <= 1e-9
        values[m] = doc["values"][0]
    assert values["simplex"] == pytest.approx(values["ipm"], abs=2e-9)
    assert main(["solve-game", str(tmp_path / "leduc.game"), "--lp-method", "dual", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and ERROR_LINE.match(err.strip()), err
    assert "--lp-method 'dual'" in err and "simplex" in err
    assert main(["mercer", "solve", "smh", "--players", "3", "--lp-method", "ipm", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "solves no LP" in err, err
