"""Helpers shared by test modules of different folders: the committed Table 1 set copied into a
temporary folder, the argument lists of the three commands that read a Table 1 CSV, and the one
error line a refused command prints."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The committed Table 1 set: the CSV, its meta file and its manifest (every file's SHA-256).
TABLE1_SET = ("table1.csv", "table1.meta.json", "table1.manifest.json")
#: The commands that read a Table 1 CSV: ``guts fit --table1``, ``guts simulate --table``, ``guts play --table``.
TABLE_READERS = ("fit", "simulate", "play")


def copy_table1_set(folder: Path) -> Path:
    """The committed Table 1 set, copied byte for byte into the new folder ``folder``."""
    folder.mkdir()
    for name in TABLE1_SET:
        shutil.copyfile(REPO / "results" / name, folder / name)
    return folder


def table_reader_argv(command: str, table, tmp_path) -> list:
    """``guts <command>`` (one of :data:`TABLE_READERS`) reading the Table 1 CSV ``table``, quick
    settings; ``guts fit`` writes into ``tmp_path/fit``."""
    if command == "fit":
        return ["fit", "--table1", str(table), "--large-n", str(REPO / "results" / "large_n.csv"),
                "--out", str(tmp_path / "fit"), "--bootstrap", "0", "--quiet"]
    if command == "simulate":
        return ["simulate", "--table", str(table), "--size", "2", "--games", "20", "--seed", "0"]
    return ["play", "--table", str(table), "--size", "2", "--auto", "optimal", "--hands", "3", "--seed", "0"]


def one_error_line(capsys, prog: str) -> str:
    """The one line ``<prog>: error: ...`` that a refused command wrote to stderr (captured by
    ``capsys``): exactly one line, no traceback."""
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{prog}: error: "), err
    assert "Traceback" not in err[0]
    return err[0]
