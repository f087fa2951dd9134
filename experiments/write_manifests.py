"""Write the manifests of the results/ files committed before manifests existed.

Thin script over :func:`guts.studies.committed_sets.adopt_committed`: one manifest per set,
marked ``"retroactive": true`` (the files' current hashes; nothing is recomputed). A set
whose manifest a real run wrote is kept; a set whose files do not match their meta files is
refused (rerun its command instead).

    python experiments/write_manifests.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    from guts.studies.committed_sets import adopt_committed

    refused = 0
    for path, outcome in adopt_committed(ROOT / "results"):
        print(f"{path.relative_to(ROOT)}: {outcome}")
        refused += outcome.startswith("refused")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
