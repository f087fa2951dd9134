"""ruff (configured in pyproject.toml) finds nothing in the package, the tests, the experiments
and the benchmarks (issue 19): CI runs only pytest, so the linter runs here."""
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
