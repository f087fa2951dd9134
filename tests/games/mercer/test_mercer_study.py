"""The study writes its artefacts atomically with their parameters; tree sizes as reported."""
import json

import pandas as pd

from guts.studies.mercer import run_beyond, run_sizes


def test_sizes_artefact(tmp_path):
    df = run_sizes(tmp_path)
    disk = pd.read_csv(tmp_path / "sizes.csv")
    assert len(disk) == len(df) == 10
    meta = json.loads((tmp_path / "sizes.meta.json").read_text())
    assert meta["file"] == "sizes.csv"
    row = disk[(disk.variant == "3P-MMH") & (disk.collusion == "none")].iloc[0]
    # the seed's explicit tree of 3P-MMH has "around 5 million nodes" (§3.4)
    assert 3e6 < row.seed_tree_nodes < 6e6
    # information sets = decision nodes x hand types (15 two-card rank multisets)
    assert row.info_sets == 15 * row.decision_nodes
    strong = disk[(disk.variant == "3P-MMH") & disk.collusion.str.startswith("strong")]
    assert set(strong.types) == {"225/225/15", "225/15"}


def test_beyond_artefact_small(tmp_path):
    cases = (("fixed, check allowed", "smh", 2, dict(check=True)),
             ("limit (call / raise 4)", "smh", 2, dict(betting="limit")))
    df = run_beyond(tmp_path, cases=cases)
    assert (tmp_path / "beyond.csv").exists() and (tmp_path / "beyond.meta.json").exists()
    assert abs(df.value_0.iloc[0]) < 1e-9
    assert (df.exploitability < 1e-9).all()
