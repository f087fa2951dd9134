"""Hostile poker descriptions (ACPC ``.game``, TOML) end in one GutsInputError: what, where,
what is accepted.  Never a hang (a FIFO, ``/dev/zero``), a RecursionError (TOML nested
3000 deep), an OverflowError (``numRanks = 1e400``) or a game whose chips the LP cannot hold."""
import os
import time

import pytest

from guts.engine.tolerances import MAX_PAYOFF_MAGNITUDE
from guts.errors import GutsInputError
from guts.games.poker import load_poker, read_poker
from guts.games.poker import spec as spec_module
from guts.games.poker.spec import MAX_TOML_DEPTH

LEDUC = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 4\nfirstPlayer = 1 1\n"
         "maxRaises = 2 2\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n")
LEDUC_TOML = ('name = "leduc"\nplayers = 2\nblinds = [1, 1]\n[deck]\nranks = 3\nsuits = 2\n[[rounds]]\n'
              'hole_cards = 1\nraise_size = 2\nmax_raises = 2\n[[rounds]]\nboard_cards = 1\nraise_size = 4\n'
              'max_raises = 2\n')


def refused(arg) -> str:
    t0 = time.monotonic()
    with pytest.raises(GutsInputError) as exc:
        read_poker(arg)
    assert time.monotonic() - t0 < 5
    msg = str(exc.value)
    assert "\n" not in msg and "accepted" in msg, msg
    return msg


@pytest.mark.parametrize("value, names", [
    ("1e400", "exponent"),                  # float() gives inf, int(inf) an OverflowError
    ("1e999999999", "exponent"),
    ("1e300", "out of range"),
    ("nan", "not a list of numbers"),
    ("9" * 5000, "characters"),
])
def test_acpc_values_are_refused_by_their_text(value, names):
    msg = refused(LEDUC.replace("numRanks = 3", f"numRanks = {value}"))
    assert names in msg and "line 10: numRanks" in msg, msg


def test_acpc_chip_amounts_are_bounded_by_the_payoff_range():
    msg = refused(LEDUC.replace("raiseSize = 2 4", f"raiseSize = 2 {10 * MAX_PAYOFF_MAGNITUDE:.0f}"))
    assert "line 6: raiseSize" in msg and f"|value| <= {MAX_PAYOFF_MAGNITUDE:g}" in msg
    at_bound = read_poker(LEDUC.replace("raiseSize = 2 4", f"raiseSize = 2 {MAX_PAYOFF_MAGNITUDE:.0f}"))
    assert at_bound.rounds[1].raise_size == MAX_PAYOFF_MAGNITUDE


def test_toml_nested_3000_deep_names_the_depth_limit():
    msg = refused("x = " + "[" * 3000 + "]" * 3000 + "\n")
    assert f"nesting at most {MAX_TOML_DEPTH} deep" in msg
    msg = refused("x = " + "[" * (MAX_TOML_DEPTH + 2) + "]" * (MAX_TOML_DEPTH + 2) + "\n")   # parsed, then refused
    assert f"nesting at most {MAX_TOML_DEPTH} deep" in msg and "x.0.0" in msg


@pytest.mark.parametrize("line, names", [
    ("raise_size = 1e300", "rounds.0.raise_size = 1e+300 is out of range"),
    ("raise_size = inf", "rounds.0.raise_size = inf is out of range"),
    ("raise_size = nan", "rounds.0.raise_size = nan is out of range"),
    ("raise_size = 1e999999999", "out of range"),
    ("raise_size = " + "9" * 5000, "not a readable TOML value"),
    ("raise_size = " + "9" * 50, "an integer of 50 digits"),
])
def test_toml_numbers_out_of_range(line, names):
    msg = refused(LEDUC_TOML.replace("raise_size = 2", line))
    assert names in msg, msg


def test_non_utf8_descriptions_name_the_byte_offset(tmp_path):
    for name, text in (("latin1.game", LEDUC), ("latin1.toml", LEDUC_TOML)):
        data = text.encode()
        at = data.index(b"2", 10)
        (tmp_path / name).write_bytes(data[:at] + b"\xa3" + data[at + 1:])
        msg = refused(str(tmp_path / name))
        assert f"byte 0xa3 at byte offset {at}" in msg, msg


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", ["pipe.game", "pipe.toml", "pipe"])
def test_a_fifo_is_refused_without_blocking(tmp_path, name):
    os.mkfifo(tmp_path / name)
    assert "FIFO" in refused(str(tmp_path / name))


def test_directories_devices_and_big_files(tmp_path, monkeypatch):
    (tmp_path / "dir.toml").mkdir()
    assert "is a directory" in refused(str(tmp_path / "dir.toml"))
    if os.path.exists("/dev/zero"):
        assert "character device" in refused("/dev/zero")
    monkeypatch.setattr(spec_module, "MAX_DESCRIPTION_BYTES", 100)
    (tmp_path / "big.game").write_text(LEDUC)
    assert "of at most 100 bytes" in refused(str(tmp_path / "big.game"))


def test_a_well_formed_description_still_builds_leduc():
    g = load_poker(LEDUC)
    # Leduc hold'em: 6 cards, 2 players, 6 * 5 = 30 ordered deals of private cards
    assert g.num_players == 2 and g.deals.num_deals == 30
