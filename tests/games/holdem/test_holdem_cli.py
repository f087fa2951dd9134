"""``guts holdem`` through argparse (the coordinator wires add_subparser into ``guts``)."""
import json

import numpy as np
import pandas as pd
import pytest

from guts.cli import _Parser
from guts.cli import holdem as cli_holdem
from guts.cli.guard import guarded
from guts.games.holdem import equity_table
from guts.games.holdem.equities import load_equity_table


def run(argv):
    ap = _Parser(prog="guts")
    sub = ap.add_subparsers(dest="command", parser_class=_Parser)
    cli_holdem.add_subparser(sub)
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return exc.code
    code, res = guarded(f"guts {args.command}", args.func, args)
    return code or res


def test_solve_writes_strategies_with_parameters(tmp_path, capsys):
    assert run(["holdem", "solve", "--max-raise", "3", "--reraise", "4", "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "value" in out and "exploitability" in out and "Alice" in out
    alice = pd.read_csv(tmp_path / "solve_R3_rr4_alice.csv")
    bob = pd.read_csv(tmp_path / "solve_R3_rr4_bob.csv")
    root = alice[alice.node == "root"].groupby("class").probability.sum()
    assert np.allclose(root.values, 1.0) and len(root) == 169
    assert set(bob["raise"]) == {2, 3}
    assert np.allclose(bob[["call", "reraise_4", "fold"]].sum(axis=1), 1.0)
    meta = json.loads((tmp_path / "solve_R3_rr4_alice.meta.json").read_text())
    assert meta["parameters"]["reraises"] == [4] and meta["exploitability"] <= 1e-9


@pytest.mark.parametrize("argv,msg", [
    (["holdem", "solve", "--max-raise", "1"], "max-raise"),
    (["holdem", "solve", "--max-raise", "5", "--reraise", "1"], "accepted: comma-separated integers 2..1000"),
    (["holdem", "solve", "--max-raise", "x"], "max-raise"),
    (["holdem", "solve"], "required"),
])
def test_bad_input_one_line_exit_2(argv, msg, capsys):
    assert run(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]


def test_equities_writes_and_compares_checksum(tmp_path, capsys, monkeypatch):
    import guts.games.holdem.equities as eq

    monkeypatch.setattr(eq, "compute_equity_table", lambda **kw: equity_table())   # no 30 s enumeration here
    target = tmp_path / "table.npz"
    assert run(["holdem", "equities", "--out", str(target)]) == 0
    assert load_equity_table(target, rebuild=False).win.sum() == equity_table().win.sum()
    assert run(["holdem", "equities", "--out", str(target), "--check"]) == 0
    assert "matches the cached table" in capsys.readouterr().out


def test_solve_without_out_never_writes_into_the_committed_folder(tmp_path, monkeypatch, capsys):
    """An exploratory solve goes to results/runs/ (it left 12 files in results/holdem/)."""
    monkeypatch.chdir(tmp_path)
    assert run(["holdem", "solve", "--max-raise", "3", "--quiet"]) == 0
    assert not (tmp_path / "results" / "holdem").exists()
    runs = list((tmp_path / "results" / "runs").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("holdem-solve-") and any(runs[0].iterdir())
