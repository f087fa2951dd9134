"""A seeded fuzzer of game files and result sets for the CLI harness (no tests here).

From valid seed files (the shipped ACPC and TOML descriptions of ``guts/games/poker/descriptions``,
Gambit ``.efg`` text written by :func:`guts.engine.extensive.efg_text`, and small Kuhn poker
descriptions of Kuhn, "A simplified two-person poker", 1950), :func:`game_cases` generates
hostile files, one :class:`FuzzCase` each, in eight classes:

* ``truncate``: the seed cut at a random byte offset;
* ``byte-flip``: one to eight random bytes XOR-ed with a random non-zero byte;
* ``invalid-utf8``: a byte sequence that is not UTF-8 inserted at a random offset;
* ``deep-nesting``: TOML arrays, inline tables and table headers 3000 deep, ``.efg`` chains of
  3000 decisions or chance nodes, an ACPC line of 100 000 values;
* ``huge-number`` / ``tiny-number``: a random number of the seed replaced by ``1e400``,
  ``1e999999999``, a 5000-digit integer, ... / ``1e-400``, ``4.9e-324``, a 5000-digit fraction;
* ``wrong-type``: a random number replaced by text, a negative or fractional count, a boolean,
  an array, ``nan``, ``inf``;
* ``special``: an empty file, a directory, a FIFO, a symlink to ``/dev/zero``, a dangling
  symlink, a sparse file over the size bound, NUL bytes.

:func:`set_cases` does the same for a published results set (``table1.csv`` with its meta file
and manifest): a deleted, truncated, flipped or re-typed manifest, ``"complete": false``, a changed
value, a truncated or flipped CSV, a FIFO or ``/dev/zero`` in place of a file.

Everything random comes from one :class:`numpy.random.Generator` seeded by ``random_state``: the
same arguments give the same cases, byte for byte.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DESCRIPTIONS = REPO / "guts" / "games" / "poker" / "descriptions"

#: Kuhn poker (Kuhn, 1950) as a limit poker description and as an ACPC definition: three cards,
#: antes of 1, one bet of 1.  Value -1/18 for the first player.
KUHN_TOML = ('name = "kuhn"\nplayers = 2\nantes = [1, 1]\n[deck]\nranks = 3\nsuits = 1\n[[rounds]]\n'
             'hole_cards = 1\nraise_size = 1\nmax_raises = 1\nfirst_player = 0\n')
KUHN_ACPC = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nraiseSize = 1\nfirstPlayer = 1\n"
             "maxRaises = 1\nnumSuits = 1\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0\nEND GAMEDEF\n")
#: A two-player .efg with a decision, outcomes and payoffs (player 1 picks x: (1, -1), or y: (2, -2)).
SMALL_EFG = ('EFG 2 R "g" { "a" "b" }\n""\np "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1 -1 }\n'
             't "" 2 "" { 2 -2 }\n')

CLASSES = ("truncate", "byte-flip", "invalid-utf8", "deep-nesting", "huge-number", "tiny-number", "wrong-type",
           "special")
#: The classes whose cases are drawn at random (the others are one fixed list per seed kind).
RANDOM_CLASSES = ("truncate", "byte-flip", "invalid-utf8", "huge-number", "tiny-number", "wrong-type")

HUGE = ("1e400", "-1e400", "1e999999999", "1E+99999", "9" * 5000, "-" + "9" * 5000, "1e308", "179769313486231570"
        + "0" * 291, "99999999999999999999")
TINY = ("1e-400", "-1e-400", "4.9e-324", "1e-999999999", "0." + "0" * 5000 + "1", "1/" + "9" * 400, "5e-324")
WRONG = ('"abc"', "abc", "-3", "-1", "0", "2.5", "true", "[]", "[1, [2]]", "{}", "nan", "inf", "-inf", '""',
         "0x10", "1_000", "1/0", "+", "1e", "--1")
BAD_UTF8 = (b"\xff", b"\xfe\xff", b"\xc3(", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc", b"\xc0\xaf", b"\xed\xa0\x80",
            b"\x80")
SPECIALS = ("empty", "directory", "fifo", "dev-zero", "dangling-symlink", "sparse-oversize", "nul-bytes",
            "only-bom", "whitespace")

_NUMBER_TOKEN = re.compile(rb"(?<![\w.])[+-]?\d+(?:\.\d+)?(?:/\d+)?(?![\w.])")


@dataclass(frozen=True)
class FuzzCase:
    """One hostile file: its class, the seed it came from, its name and how to make it.

    ``data`` holds the bytes of a regular file; ``special`` (one of :data:`SPECIALS`) a path
    that is not a plain small file.
    """

    klass: str
    seed: str
    name: str
    suffix: str
    data: bytes | None = None
    special: str | None = None

    @property
    def id(self) -> str:
        return f"{self.klass}:{self.seed}:{self.name}"

    def materialize(self, folder, max_bytes: int = 64 * 2**20) -> Path:
        """Create the file under ``folder`` and return its path."""
        path = Path(folder) / f"fuzzed{self.suffix}"
        if self.special is None:
            path.write_bytes(self.data)
        elif self.special == "empty":
            path.write_bytes(b"")
        elif self.special == "directory":
            path.mkdir()
        elif self.special == "fifo":
            os.mkfifo(path)
        elif self.special == "dev-zero":
            os.symlink("/dev/zero", path)
        elif self.special == "dangling-symlink":
            os.symlink(Path(folder) / "no-such-target", path)
        elif self.special == "sparse-oversize":
            with open(path, "wb") as fh:  # nothing of it is on disk: a reader must refuse it by its size
                fh.truncate(max_bytes + 1)
        elif self.special == "nul-bytes":
            path.write_bytes(b"\x00" * 4096)
        elif self.special == "only-bom":
            path.write_bytes(b"\xef\xbb\xbf")
        elif self.special == "whitespace":
            path.write_bytes(b" \n\t\r\n" * 100)
        else:  # pragma: no cover
            raise ValueError(self.special)
        return path


def seeds() -> dict:
    """``{name: (suffix, bytes)}``: the valid files the mutations start from."""
    from guts.engine.extensive import efg_text
    from guts.games.toy import kuhn_poker

    return {
        "kuhn.efg": (".efg", efg_text(kuhn_poker(2)).encode()),
        "small.efg": (".efg", SMALL_EFG.encode()),
        "kuhn.toml": (".toml", KUHN_TOML.encode()),
        "kuhn.game": (".game", KUHN_ACPC.encode()),
        "leduc.game": (".game", (DESCRIPTIONS / "leduc.game").read_bytes()),
        "mercer_mmh.toml": (".toml", (DESCRIPTIONS / "mercer_mmh.toml").read_bytes()),
    }


#: Seeds small enough to solve in a fraction of a second: their mutations also go through the
#: command ``guts solve-game`` in the quick run.
QUICK_SOLVE_SEEDS = ("kuhn.efg", "small.efg", "kuhn.toml", "kuhn.game")


def _replace_token(rng, data: bytes, values) -> tuple[bytes, str]:
    tokens = list(_NUMBER_TOKEN.finditer(data))
    new = values[int(rng.integers(len(values)))]
    if not tokens:
        return data + b"\n" + new.encode(), f"appended {new[:20]}"
    m = tokens[int(rng.integers(len(tokens)))]
    return data[:m.start()] + new.encode() + data[m.end():], f"{m.group().decode()}@{m.start()}->{new[:20]}"


def _mutate(klass: str, rng, data: bytes) -> tuple[bytes, str]:
    if klass == "truncate":
        cut = int(rng.integers(len(data)))
        return data[:cut], f"cut@{cut}"
    if klass == "byte-flip":
        out = bytearray(data)
        where = sorted(int(i) for i in rng.integers(len(data), size=int(rng.integers(1, 9))))
        for i in where:
            out[i] ^= int(rng.integers(1, 256))
        return bytes(out), "flip@" + ",".join(map(str, where))
    if klass == "invalid-utf8":
        bad = BAD_UTF8[int(rng.integers(len(BAD_UTF8)))]
        at = int(rng.integers(len(data) + 1))
        return data[:at] + bad + data[at:], f"{bad.hex()}@{at}"
    if klass == "huge-number":
        return _replace_token(rng, data, HUGE)
    if klass == "tiny-number":
        return _replace_token(rng, data, TINY)
    if klass == "wrong-type":
        return _replace_token(rng, data, WRONG)
    raise ValueError(klass)  # pragma: no cover


def _nested(suffix: str) -> dict:
    """The fixed deep-nesting files of one seed kind: ``{name: bytes}``."""
    d = 3000
    if suffix == ".toml":
        return {
            "array-3000": ("x = " + "[" * d + "]" * d + "\n").encode(),
            "inline-table-3000": ("x = " + "{a = " * d + "1" + "}" * d + "\n").encode(),
            "header-3000": ("[" + ".".join(["a"] * d) + "]\nb = 1\n").encode(),
            "dotted-key-3000": (".".join(["a"] * d) + " = 1\n").encode(),
            "rounds-3000": (KUHN_TOML + "[[rounds]]\nboard_cards = 0\n" * d).encode(),
            "unclosed-array": ("x = " + "[" * d + "\n").encode(),
        }
    if suffix == ".game":
        return {
            "blind-100000-values": KUHN_ACPC.replace("blind = 1 1", "blind = " + " 1" * 100_000).encode(),
            "3000-rounds": KUHN_ACPC.replace("numRounds = 1", f"numRounds = {d}").replace(
                "raiseSize = 1", "raiseSize =" + " 1" * d).replace("firstPlayer = 1", "firstPlayer =" + " 1" * d)
            .replace("maxRaises = 1", "maxRaises =" + " 1" * d).replace("numBoardCards = 0", "numBoardCards =" + " 0" * d)
            .encode(),
            "3000-players": KUHN_ACPC.replace("numPlayers = 2", f"numPlayers = {d}").replace(
                "blind = 1 1", "blind =" + " 1" * d).encode(),
            "no-end": KUHN_ACPC.replace("END GAMEDEF\n", "").encode(),
            "gamedef-3000-times": ("GAMEDEF\n" * d).encode(),
        }
    chain = "".join(f'p "" 1 {k + 1} "" {{ "s" "g" }} 0\nt "" {k + 1} "" {{ 1 -1 }}\n' for k in range(d))
    chance = "".join(f'c "" {k + 1} "" {{ "h" 1/2 "t" 1/2 }} 0\nt "" {k + 1} "" {{ 1 -1 }}\n' for k in range(d))
    head = 'EFG 2 R "c" { "a" "b" }\n""\n'
    return {
        "decision-chain-3000": (head + chain + 't "" 9999 "" { 0 0 }\n').encode(),
        "chance-chain-3000": (head + chance + 't "" 9999 "" { 0 0 }\n').encode(),
        "unclosed-braces-3000": (head + 'p "" 1 1 "" ' + "{ " * d + "\n").encode(),
        "players-3000": ('EFG 2 R "c" { ' + ' "p"' * d + ' }\n""\nt "" 1 "" { ' + "0 " * d + "}\n").encode(),
        "label-1MB": (head + 'p "" 1 1 "' + "x" * 2**20 + '" { "x" "y" } 0\nt "" 1 "" { 1 -1 }\n'
                      't "" 2 "" { 2 -2 }\n').encode(),
    }


def game_cases(per_class: int, random_state: int = 0, seed_names=None) -> list[FuzzCase]:
    """Hostile game files: ``per_class`` random mutations of every seed for each class of
    :data:`RANDOM_CLASSES`, plus the fixed deep-nesting and special files of each seed kind."""
    rng = np.random.default_rng(random_state)
    all_seeds = seeds()
    names = list(all_seeds) if seed_names is None else list(seed_names)
    cases = []
    for name in names:
        suffix, data = all_seeds[name]
        for klass in RANDOM_CLASSES:
            for k in range(per_class):
                mutated, how = _mutate(klass, rng, data)
                cases.append(FuzzCase(klass, name, f"{k}:{how}", suffix, data=mutated))
    for suffix in sorted({all_seeds[n][0] for n in names}):
        for label, data in _nested(suffix).items():
            cases.append(FuzzCase("deep-nesting", suffix, label, suffix, data=data))
        for special in SPECIALS:
            cases.append(FuzzCase("special", suffix, special, suffix, special=special))
    return cases


# ---- tampered result sets -------------------------------------------------------------------

SET_FILES = ("table1.csv", "table1.meta.json", "table1.manifest.json")
#: Kinds of path put in place of one file of the set.
SET_SPECIALS = ("deleted", "empty", "directory", "fifo", "dev-zero", "dangling-symlink")
SET_RANDOM = ("truncate", "byte-flip", "invalid-utf8", "huge-number", "tiny-number", "wrong-type")
#: Fixed manifest edits (JSON paths set to hostile values).
MANIFEST_EDITS = (
    ("complete", False), ("complete", "yes"), ("complete", None), ("files", []), ("files", {}),
    ("files", "table1.csv"), ("manifest_version", 2), ("manifest_version", "1"), ("manifest_version", 1e308),
    ("withdrawn", ["table1.csv"]), ("withdrawn", "table1.csv"), ("withdrawn", None),
    ("files.table1.csv.sha256", "0" * 64), ("files.table1.csv.sha256", 123), ("files.table1.csv.sha256", None),
    ("files.table1.csv.bytes", -1), ("files.table1.csv.bytes", 10**400), ("files.table1.csv.bytes", "4571"),
    ("files.table1.csv", None), ("files.table1.csv", []),
)


@dataclass(frozen=True)
class SetCase:
    """One tampered copy of a results set: which file, how, and (for edits) the new bytes."""

    target: str
    how: str
    data: bytes | None = None
    special: str | None = None

    @property
    def id(self) -> str:
        return f"{self.target}:{self.how}"

    def apply(self, folder) -> Path:
        """Tamper with the copy of the set in ``folder``; return the table's path."""
        path = Path(folder) / self.target
        if self.special is not None:
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            elif path.exists() or path.is_symlink():
                path.unlink()
            if self.special == "empty":
                path.write_bytes(b"")
            elif self.special == "directory":
                path.mkdir()
            elif self.special == "fifo":
                os.mkfifo(path)
            elif self.special == "dev-zero":
                os.symlink("/dev/zero", path)
            elif self.special == "dangling-symlink":
                os.symlink(Path(folder) / "no-such-target", path)
        else:
            path.write_bytes(self.data)
        return Path(folder) / "table1.csv"


def _json_set(doc, dotted: str, value):
    keys = dotted.split(".")
    # "files.table1.csv.sha256": the file name has a dot in it
    if keys[0] == "files" and len(keys) > 1:
        keys = ["files", "table1.csv", *keys[3:]]
    node = doc
    for k in keys[:-1]:
        node = node.setdefault(k, {}) if isinstance(node, dict) else node
    if isinstance(node, dict):
        node[keys[-1]] = value
    return doc


def _change_cell(rng, csv: bytes) -> tuple[bytes, str]:
    """A random numeric cell of the CSV moved by a random relative amount (1e-9 .. 1e3)."""
    lines = csv.decode().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    row = int(rng.integers(1, len(lines)))
    cells = lines[row].rstrip("\n").split(",")
    numeric = [j for j, c in enumerate(cells) if re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", c)]
    j = numeric[int(rng.integers(len(numeric)))]
    scale = 10.0 ** float(rng.uniform(-9, 3))
    cells[j] = repr(float(cells[j]) + scale * (1 + abs(float(cells[j]))))
    lines[row] = ",".join(cells) + "\n"
    return "".join(lines).encode(), f"row{row}:{header[j]}+{scale:.1e}"


def set_cases(per_class: int, random_state: int = 0, folder=None) -> list[SetCase]:
    """Tampered copies of the committed ``results/table1.csv`` set: ``per_class`` random
    mutations of each file for each class of :data:`SET_RANDOM`, ``per_class`` changed values,
    every edit of :data:`MANIFEST_EDITS`, and each special path in place of each file."""
    folder = Path(folder) if folder is not None else REPO / "results"
    rng = np.random.default_rng(random_state)
    original = {name: (folder / name).read_bytes() for name in SET_FILES}
    cases = []
    for target in SET_FILES:
        for klass in SET_RANDOM:
            for k in range(per_class):
                data, how = _mutate(klass, rng, original[target])
                cases.append(SetCase(target, f"{klass}:{k}:{how}", data=data))
        for special in SET_SPECIALS:
            cases.append(SetCase(target, special, special=special))
    for k in range(per_class):
        data, how = _change_cell(rng, original["table1.csv"])
        cases.append(SetCase("table1.csv", f"changed-value:{k}:{how}", data=data))
    for dotted, value in MANIFEST_EDITS:
        doc = _json_set(json.loads(original["table1.manifest.json"]), dotted, value)
        cases.append(SetCase("table1.manifest.json", f"{dotted}={str(value)[:20]}", data=json.dumps(doc).encode()))
    return cases


# ---- checking one run ------------------------------------------------------------------------

#: Time allowed to one hostile file, read or solved (seconds).
FILE_SECONDS = 20
#: Time allowed to one import of an OpenSpiel game, refused or solved (seconds).
IMPORT_SECONDS = 60
#: Leftovers of an interrupted write (guts._atomic's temporaries and staging folders).
LEFTOVER = re.compile(r"(^\..*\.tmp$)|(^\.guts-staging-)")


class Overtime(Exception):
    """Raised by :func:`guarded` when the work outlives its time."""


def guarded(fn, seconds: float):
    """``(fn(), elapsed seconds)``, or :class:`Overtime` raised once ``seconds`` pass (SIGALRM)."""
    import signal
    import time

    def alarm(signum, frame):
        raise Overtime(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    t0 = time.monotonic()
    try:
        return fn(), time.monotonic() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def error_lines(err: str) -> list[str]:
    """The lines of ``err`` that are not warnings or progress bars."""
    return [ln for ln in re.split(r"[\r\n]", err) if ln.strip() and ": warning: " not in ln and "%|" not in ln]


def check_exit(code: int, out: str, err: str, prog: str, what) -> None:
    """Exit 0 with finite output, or exit 2 with one line ``<prog>: error: ...``; never a traceback."""
    assert "Traceback" not in err and "Traceback" not in out, (what, err[-2000:])
    assert code in (0, 2), (what, code, out[-1000:], err[-1000:])
    if code == 2:
        lines = error_lines(err)
        assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), (what, err[-2000:])
    assert not re.search(r"(?<![a-z])[+-]?nan(?![a-z])", out.lower()), (what, out)


def leftovers(folder) -> list[str]:
    """Half-written files (temporaries, staging folders) anywhere below ``folder``."""
    return [str(p) for p in Path(folder).rglob("*") if LEFTOVER.search(p.name)]


def live_children() -> list:
    """Child processes still running (multiprocessing's, and any other of this process)."""
    import multiprocessing

    kids = list(multiprocessing.active_children())
    try:
        import psutil
    except ImportError:  # pragma: no cover
        return kids
    return kids + [p for p in psutil.Process().children(recursive=True) if p.is_running()
                   and p.status() != psutil.STATUS_ZOMBIE]
