"""Every experiments/ and benchmarks/ script imports (a script that names a moved or deleted
module fails here, not months later when someone reruns it)."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "experiments").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[f"{p.parent.name}/{p.name}" for p in SCRIPTS])
def test_script_imports(path):
    spec = importlib.util.spec_from_file_location(f"_script_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)    # top level only: every script guards its main; raises on a bad import
