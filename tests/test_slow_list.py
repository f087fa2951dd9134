"""tests/slow_tests.txt names real tests (a renamed test would silently join the quick suite)."""
import re
from pathlib import Path

from tests.conftest import slow_node_ids

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_slow_test_exists():
    missing = []
    for node in sorted(slow_node_ids()):
        path, _, rest = node.partition("::")
        name = re.split(r"[\[:]", rest)[0]
        f = ROOT / path
        if not f.is_file() or not re.search(rf"def {re.escape(name)}\(", f.read_text(encoding="utf-8")):
            missing.append(node)
    assert missing == [], f"tests/slow_tests.txt lists tests that do not exist: {missing}"
