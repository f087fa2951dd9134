"""Wrong but confident: a result is converged only if its own certificate holds.

Each test reproduces a command that used to print a wrong number with
``converged True`` (or exit 0), and checks the certificate is now what decides.
"""
from __future__ import annotations

import math
import warnings
from pathlib import Path

import pandas as pd
import pytest

from guts import solve_coalition
from guts.cli import EXIT_BAD_INPUT, EXIT_NOT_CERTIFIED, main
from guts.engine.recursive import certificate_problem
from guts.errors import ConvergenceWarning, GutsInputError
from tests._helpers import one_error_line

REPO = Path(__file__).resolve().parents[2]


def test_certificate_problem_rules():
    assert certificate_problem(0.1, 0.1, 0.1 - 1e-12, 0.1 + 1e-12) == ""
    # the issue's `guts solve 1 --mesh 11 --solver fp --fp-iterations 1`: value outside, lower > upper
    assert "outside" in certificate_problem(0.1714, -0.1714, -4e-12, 4e-12)
    assert "lower" in certificate_problem(0.0, 0.0, 0.2, 0.1)
    assert "not finite" in certificate_problem(-3.0, 3.0, math.nan, math.nan)


def test_fictitious_play_one_round_is_not_certified():
    # 2-player Guts is fair (Proposition 3.3): one round of fictitious play gives +-0.1714, not 0
    with pytest.warns(ConvergenceWarning, match="not certified"):
        r = solve_coalition(1, mesh=11, solver="fp", fp_iterations=1, random_state=0)
    assert not r.converged
    assert r.certified_lower <= 0.0 <= r.certified_upper  # the certificate itself is still right


def test_exact_solver_is_certified_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        r = solve_coalition(2, mesh=21)
    assert r.converged and r.certified_lower <= r.lower <= r.certified_upper + 1e-9


@pytest.mark.parametrize("tol", [1e6, 1.0, 0.0, -1e-9, math.nan, math.inf, True])
def test_tolerance_bounded(tol):
    with pytest.raises(GutsInputError, match="tol"):
        solve_coalition(2, mesh=21, tol=tol)


def test_cli_solve_exit_code_and_status(capsys):
    code = main(["solve", "1", "--mesh", "11", "--solver", "fp", "--fp-iterations", "1"])
    out, err = capsys.readouterr()
    assert code == EXIT_NOT_CERTIFIED
    assert "status            not certified" in out and "converged False" in out
    assert "guts solve: warning: the fixed points stopped but the result is not certified" in err
    assert "Traceback" not in err and "coalition.py" not in err  # one line per warning, no source line
    assert main(["solve", "2", "--mesh", "11"]) == 0
    assert "status            certified" in capsys.readouterr().out


def test_cli_table1_not_certified_rows_exit_1(tmp_path, capsys):
    code = main(["table1", "--sizes", "1", "--mesh", "11", "--solver", "fp", "--fp-iterations", "1",
                 "--out", str(tmp_path), "--quiet"])
    assert code == EXIT_NOT_CERTIFIED
    df = pd.read_csv(tmp_path / "table1.csv")
    assert df["status"].tolist() == ["not certified"] and not df["converged"].any()
    assert "not certified: N = 1" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--bet", "1e308"], ["--bet", "1e20"], ["--min-bet", "1e100", "--max-bet", "1e100"],
                                  ["--max-bet", "1e200"], ["--max-bet", "1e400"],
                                  ["--min-bet", "0", "--max-bet", "1e6", "--certify"]])
def test_continuous_poker_bets_out_of_precision_refused(argv, capsys):
    assert main(["poker", "continuous", *argv]) == EXIT_BAD_INPUT
    assert "accepted: finite numbers" in one_error_line(capsys, "guts poker continuous")


def test_continuous_poker_largest_bet_still_certifies(capsys):
    # the range ends where the exact best-response check still certifies the closed form
    from guts.games.continuous_poker.closed_forms import MAX_BET

    assert main(["poker", "continuous", "--min-bet", "0", "--max-bet", f"{MAX_BET:g}", "--certify"]) == 0
    assert "status: certified" in capsys.readouterr().out


def test_mercer_check_is_a_strict_boolean():
    from guts.games.poker.mercer import solve

    with pytest.raises(GutsInputError, match="check must be True or False"):
        solve("smh", 2, "lp", check="no")
    r = solve("smh", 2, "lp", check=False)
    assert r.values[1] == pytest.approx(0.1042, abs=5e-5)  # Mercer study, 2P-SMH (printed to 4 places)


@pytest.fixture
def table(tmp_path):
    df = pd.read_csv(REPO / "results" / "table1.csv")

    def write(name, column, value):
        d = df.copy()
        d[column] = d[column].astype(object)
        d.loc[d.N == 2, column] = value
        path = tmp_path / f"{name}.csv"
        d.to_csv(path, index=False)
        return str(path)

    return write


@pytest.mark.parametrize("column,value,match", [
    ("value_lower", 5.0, "not certified by the row's own strategies"),
    ("value_lower", float("nan"), "value_lower nan"),
    ("mesh", "abc", "unreadable cell"),
    ("coalition_support", "0.5/nan:1", "thresholds"),
])
def test_table_csv_is_recertified_not_trusted(table, column, value, match, capsys):
    path = table("bad", column, value)
    assert main(["simulate", "--table", path, "--size", "2", "--games", "10"]) == EXIT_BAD_INPUT
    assert match in one_error_line(capsys, "guts simulate")


def test_genuine_table_recertifies():
    from guts.studies.bot import load_bot_strategy

    s = load_bot_strategy(REPO / "results" / "table1.csv", 2)
    # Table 1 of Buck et al. (2022) prints the opponent value 0.0132 for N = 2
    assert s.certified_lower <= s.value <= s.certified_upper + 1e-9
    assert -s.certified_upper == pytest.approx(0.0132, abs=5e-5)


@pytest.mark.parametrize("argv", [
    ["poker", "dividing-point", "a", "--pot", "1e12"], ["poker", "dividing-point", "a", "--pot", "1e400"],
    ["poker", "dividing-point", "a", "--pot", "1e999999999"], ["poker", "dividing-point", "a", "--lp-mesh", "100000"],
    ["continuum", "--sizes", "100"], ["continuum", "--sizes", "3", "--meshes", "5000"],
    ["curve", "--sizes", "1000000000000"], ["curve", "--sizes", "1-1000000000"],
    ["simulate", "--games", "1000000000000"], ["holdem", "solve", "--max-raise", "1000000000000"],
    ["holdem", "solve", "--max-raise", "100000"], ["holdem", "solve", "--max-raise", "40", "--reraise", "1000000000"],
    ["mercer", "solve", "smh", "--method", "cfr+", "--epsilon", "1e-300"],
    ["mercer", "solve", "smh", "--method", "cfr+", "--max-iterations", "0"],
    ["fit", "--bootstrap", "1000000000"], ["fit", "--table1="],
    ["table1", "--fp-iterations=--"],
])
def test_issue_commands_refused_before_work(argv, capsys, tmp_path, monkeypatch):
    """Each command that once hung, overflowed or allocated too much: one line, exit 2, at once."""
    import time

    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    assert main(argv) == EXIT_BAD_INPUT
    assert time.perf_counter() - t0 < 10
    line = one_error_line(capsys, "guts " + " ".join(a for a in argv[:2] if not a.startswith("-")).split(" a")[0]
                           if argv[0] in ("poker", "holdem", "mercer") else f"guts {argv[0]}")
    assert "accepted" in line or "memory budget" in line
    assert not any(tmp_path.iterdir())  # nothing written


def test_holdem_bound_shared():
    from guts.cli.holdem import MAX_RAISE as cli_max
    from guts.games.holdem.raise_game import MAX_RAISE, resolve_raises

    assert cli_max == MAX_RAISE
    with pytest.raises(GutsInputError, match="max_raise"):
        resolve_raises(MAX_RAISE + 1)


def test_memory_budget_respects_ulimit(monkeypatch):
    import resource

    from guts import _validate

    monkeypatch.delenv(_validate.MEMORY_BUDGET_ENV, raising=False)
    monkeypatch.setattr(resource, "getrlimit", lambda which: (2 * 2**30, resource.RLIM_INFINITY))
    assert _validate.memory_budget() <= 0.75 * 2 * 2**30
    monkeypatch.setenv(_validate.MEMORY_BUDGET_ENV, "100G")  # the override cannot exceed the hard limit
    assert _validate.memory_budget() <= 0.75 * 2 * 2**30


# ---------------------------------------------------------------------------------------
# Property: whatever the inputs, a result that says converged satisfies its certificate.
# ---------------------------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(1, 3), mesh=st.integers(3, 15), solver=st.sampled_from(["oracle", "lp", "fp"]),
       method=st.sampled_from(["newton", "iterate"]), fp_iterations=st.integers(1, 50),
       tol=st.sampled_from([1e-11, 1e-6, 1e-3]))
def test_converged_implies_certificate(size, mesh, solver, method, fp_iterations, tol):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_coalition(size, mesh=mesh, solver=solver, method=method, fp_iterations=fp_iterations,
                            tol=tol, random_state=0)
    if r.converged:
        assert math.isfinite(r.certified_lower) and math.isfinite(r.certified_upper)
        slack = 1e-8 * (1 + abs(r.lower))
        assert r.certified_lower <= r.certified_upper + slack
        assert r.certified_lower - slack <= r.lower <= r.certified_upper + slack
        assert r.certified_lower - slack <= r.upper <= r.certified_upper + slack


@settings(max_examples=15, deadline=None)
@given(lo=st.floats(0, 1e3), width=st.floats(0, 1e3))
def test_continuous_poker_in_range_certifies(lo, width):
    """Every limit game the range accepts is an equilibrium by the exact best-response check."""
    from guts.games.continuous_poker import limit_poker
    from guts.games.continuous_poker.bestresponse import check_equilibrium
    from guts.games.continuous_poker.closed_forms import MAX_BET
    from guts.cli.continuous_poker import certify_problem

    hi = min(MAX_BET, lo + width)
    if hi <= 0:
        return
    assert certify_problem(check_equilibrium(limit_poker(lo, hi))) == ""
