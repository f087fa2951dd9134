"""Every code block of docs/your_own_game.md runs as written: the ```python blocks in order
in one namespace, the ```console lines through ``guts.cli.main`` (exit code 0)."""
import re
import shlex
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "your_own_game.md"
BLOCK = re.compile(r"```(python|console)\n(.*?)```", re.S)


def test_every_block_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyspiel")
    from guts.cli import main

    monkeypatch.chdir(tmp_path)
    blocks = BLOCK.findall(DOC.read_text())
    assert sum(kind == "python" for kind, _ in blocks) >= 6 and any(k == "console" for k, _ in blocks)
    ns = {}
    for kind, code in blocks:
        if kind == "python":
            exec(compile(code, str(DOC), "exec"), ns)
        else:
            for line in code.strip().splitlines():
                argv = shlex.split(line, comments=True)
                assert argv[0] == "guts"
                assert main([*argv[1:], "--quiet"]) == 0, line
    assert (tmp_path / "results" / "runs" / "guide" / "solved" / "strategy.csv").exists()
    # the guide writes only into its gitignored scratch folder: nothing else in the working directory
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["runs"]
