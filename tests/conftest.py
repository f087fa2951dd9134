import os

import matplotlib

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")

from hypothesis import settings

# CI runs a fixed, reproducible set of examples (a red CI must be re-runnable);
# local runs explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# ---- the quick suite: tests measured slow are marked `slow` from one list (tests/slow_tests.txt)
import pathlib  # noqa: E402

import pytest  # noqa: E402

SLOW_LIST = pathlib.Path(__file__).with_name("slow_tests.txt")


def slow_node_ids() -> set:
    """Node ids listed in :data:`SLOW_LIST` (comments and blank lines skipped)."""
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines()
    return {s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")}


@pytest.hookimpl(tryfirst=True)     # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    slow = slow_node_ids()
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)
