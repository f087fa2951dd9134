"""The sweep cache is keyed on what a point is (the function's qualified name, its byte code, the
package version, the item), never on memory addresses: a sweep interrupted in one process
resumes in the next."""
import json
import os
import subprocess
import sys
from pathlib import Path

from guts.studies.sweep import JsonCache

ROOT = Path(__file__).resolve().parents[2]
FAIL = "GUTS_TEST_SWEEP_FAIL_IF_CALLED"


def cube_unless_told(item):
    """item ** 3 (a lambda inside: its code object's repr holds a memory address)."""
    if os.environ.get(FAIL):
        raise RuntimeError(f"point {item} was recomputed instead of read from the cache")
    f = lambda x: x ** 3         # noqa: E731
    return {"n": item["n"], "cube": f(item["n"])}


SCRIPT = """
import json, sys
from guts.studies.sweep import run_sweep
from tests.studies.test_sweep_cache_processes import cube_unless_told
items = [{"n": n} for n in json.loads(sys.argv[2])]
print(json.dumps(run_sweep(cube_unless_told, items, cache=sys.argv[1], progress=False)))
"""


def run(cache, ns, fail=False):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop(FAIL, None)
    if fail:
        env[FAIL] = "1"
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(cache), json.dumps(ns)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    return out


def test_a_second_process_finds_the_first_ones_entries(tmp_path):
    cache = tmp_path / "cache"
    first = run(cache, [1, 2, 3])
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == [{"n": n, "cube": n ** 3} for n in (1, 2, 3)]
    assert len(list(cache.glob("*.json"))) == 3
    # a new process (new addresses, new string-hash salt) may not compute any of them again
    again = run(cache, [1, 2, 3], fail=True)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    # and a point never computed is computed (the cache is not a blanket hit)
    missing = run(cache, [4], fail=True)
    assert missing.returncode != 0 and "point {'n': 4} was recomputed" in missing.stderr


def test_the_key_names_the_function_and_the_version_not_an_address():
    import guts

    fid = JsonCache._func_id(cube_unless_told)
    assert "test_sweep_cache_processes.cube_unless_told@" + guts.__version__ in fid and " at 0x" not in fid
    assert JsonCache._func_id(cube_unless_told) == fid
    assert JsonCache._func_id(abs) != JsonCache._func_id(round)
