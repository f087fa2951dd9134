"""ruff (configured in pyproject.toml) finds nothing in the package, the tests, the experiments
and the benchmarks: CI runs only pytest, so the linter runs here."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff():
    exe = shutil.which("ruff")
    if exe:
        return [exe]
    try:
        import ruff  # noqa: F401 - the wheel ships the binary and a module entry point
    except ImportError:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", "ruff"]


def test_ruff_is_clean():
    out = subprocess.run([*_ruff(), "check", "--no-cache", "guts", "tests", "experiments", "benchmarks"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_engine_public_functions_type_their_game_and_strategy_arguments():
    """The engine's public functions annotate ``game``, ``strategies`` and matrix arguments."""
    import inspect

    import guts.engine.extensive as E
    from guts.engine import matrix_game, recursive, stage

    funcs = [E.solve_lp, E.sequence_form, E.cfr_plus, E.fictitious_play, E.best_response, E.expected_values,
             E.nash_conv, E.exploitability, E.uniform_strategy, E.strategy_table, matrix_game.solve_lp,
             matrix_game.solve_fp, matrix_game.solve_matrix_game, matrix_game.duality_gap, recursive.fixed_point,
             recursive.certify, stage.as_stage]
    missing = []
    for f in funcs:
        sig = inspect.signature(f)
        for name in ("game", "strategies", "M", "A", "B", "x", "y", "strategy"):
            if name in sig.parameters and sig.parameters[name].annotation is inspect.Parameter.empty:
                missing.append(f"{f.__module__}.{f.__name__}({name})")
    assert missing == []
