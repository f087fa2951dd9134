"""Hostile Gambit ``.efg`` files end in one GutsInputError naming what, where and what is accepted.

Never a hang (a FIFO, /dev/zero, ``Fraction("1e999999999")``), a RecursionError (a deep chain
of decisions), a traceback from a decoder, or a payoff the LP cannot hold in double precision.
"""
import os
import time

import numpy as np
import pytest

from guts.engine.extensive import efg as efg_module
from guts.engine.extensive import read_efg, solve_lp
from guts.engine.tolerances import MAX_PAYOFF_MAGNITUDE
from guts.errors import GutsInputError

HEAD = 'EFG 2 R "hostile" { "P1" "P2" }\n""\n'
GOOD = HEAD + 'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { PAY -2 }\n'


def one_line(exc) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def chain_efg(depth: int) -> tuple[str, float]:
    """A perfect-information chain: at node k (k = 0..depth-1) player k % 2 + 1 stops, ending the
    game with payoffs (u_k, -u_k), u_k = (-1)^k (k mod 7), or goes on; past the last node
    player 1 gets 3.  Returns the text and the value by backward induction."""
    lines = [HEAD]
    for k in range(depth):
        u = (-1) ** k * (k % 7)
        lines.append(f'p "" {k % 2 + 1} {k + 1} "" {{ "stop" "go" }} 0\nt "" {k + 1} "" {{ {u} {-u} }}\n')
    lines.append(f't "" {depth + 1} "" {{ 3 -3 }}\n')
    v = 3.0
    for k in reversed(range(depth)):
        u = (-1) ** k * (k % 7)
        v = max(u, v) if k % 2 == 0 else min(u, v)     # player 1 maximises, player 2 minimises
    return "".join(lines), v


def test_a_chain_of_500_decisions_is_read_and_solved_by_backward_induction(tmp_path):
    text, value = chain_efg(500)
    path = tmp_path / "chain.efg"
    path.write_text(text)
    game = read_efg(str(path))
    assert game.size.public_nodes == 2 * 500 + 1
    assert abs(solve_lp(game).value - value) <= 1e-9


def test_a_tree_deeper_than_the_limit_names_the_limit(monkeypatch):
    monkeypatch.setattr(efg_module, "MAX_EFG_DEPTH", 50)
    with pytest.raises(GutsInputError) as exc:
        read_efg(chain_efg(60)[0])
    msg = one_line(exc)
    assert "deeper than 50 nodes" in msg and "accepted: trees at most 50 nodes deep" in msg and "line" in msg


def test_non_utf8_bytes_name_their_offset(tmp_path):
    path = tmp_path / "latin1.efg"
    data = GOOD.replace("PAY", "2").encode()
    bad = data.index(b'"a"') + 1
    path.write_bytes(data[:bad] + b"\xe9" + data[bad + 1:])
    with pytest.raises(GutsInputError) as exc:
        read_efg(str(path))
    msg = one_line(exc)
    assert f"byte 0xe9 at byte offset {bad}" in msg and "line 3" in msg and "UTF-8" in msg


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.efg"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(GutsInputError) as exc:       # opening it would block until a writer came
        read_efg(str(fifo))
    assert time.monotonic() - t0 < 5
    assert "FIFO" in one_line(exc) and "accepted: a regular Gambit .efg file" in str(exc.value)


def test_a_directory_and_a_device_are_refused(tmp_path):
    (tmp_path / "dir.efg").mkdir()
    with pytest.raises(GutsInputError, match="is a directory"):
        read_efg(str(tmp_path / "dir.efg"))
    if os.path.exists("/dev/zero"):
        with pytest.raises(GutsInputError, match="character device"):   # would never end
            read_efg("/dev/zero")


def test_the_file_size_is_capped_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "MAX_EFG_BYTES", 64)
    path = tmp_path / "big.efg"
    path.write_text(GOOD.replace("PAY", "2"))
    assert path.stat().st_size > 64
    with pytest.raises(GutsInputError) as exc:
        read_efg(str(path))
    assert "of at most 64 bytes" in one_line(exc)


@pytest.mark.parametrize("pay, names", [
    ("1e999999999", "exponent"),            # Fraction() would build a billion-digit integer
    ("1e-999999999", "exponent"),
    ("1e400", "exponent"),
    ("1e300", "out of range"),              # a double, but not a payoff the LP can certify
    (f"{2 * MAX_PAYOFF_MAGNITUDE:.0f}", "out of range"),
    ("9" * 5000, "characters"),
    ("nan", "must be a number"),
    ("inf", "must be a number"),
    ("1/0", "divides by zero"),
])
def test_numbers_are_refused_by_their_text(pay, names):
    t0 = time.monotonic()
    with pytest.raises(GutsInputError) as exc:
        read_efg(GOOD.replace("PAY", pay))
    assert time.monotonic() - t0 < 5
    msg = one_line(exc)
    column = GOOD.splitlines()[4].index("PAY") + 1          # line 5, where the payoff is
    assert names in msg and f"line 5, column {column}:" in msg and "accepted" in msg, msg


def test_payoffs_at_the_bound_are_read_exactly():
    big = f"{MAX_PAYOFF_MAGNITUDE:.0f}"
    g = read_efg(GOOD.replace("PAY", big).replace("{ 1 -1 }", "{ -1/3 1/3 }"))
    pays = sorted(float(t[0]) for t in g.compiled.term_offset.T)
    assert pays == [-1 / 3, MAX_PAYOFF_MAGNITUDE]


def test_outcomes_summed_along_a_path_are_bounded_too():
    half = f"{0.75 * MAX_PAYOFF_MAGNITUDE:.0f}"
    text = HEAD + f'p "" 1 1 "" {{ "a" "b" }} 1 "o" {{ {half} -{half} }}\nt "" 2 "" {{ 1 -1 }}\nt "" 3 "" {{ {half} 0 }}\n'
    with pytest.raises(GutsInputError) as exc:
        read_efg(text)
    assert "sum to" in one_line(exc) and f"|payoff| <= {MAX_PAYOFF_MAGNITUDE:g}" in str(exc.value)


def test_an_integer_field_of_thousands_of_digits_is_refused():
    with pytest.raises(GutsInputError) as exc:
        read_efg(GOOD.replace("PAY", "2").replace('t "" 2 ""', 't "" ' + "7" * 5000 + ' ""'))
    assert "at most 18 digits" in one_line(exc) and "5000 characters" in str(exc.value)


def test_probabilities_are_bounded_by_one():
    text = HEAD + 'c "" 1 "" { "h" 3/2 "t" -1/2 } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { -1 1 }\n'
    with pytest.raises(GutsInputError) as exc:
        read_efg(text)
    assert "|value| <= 1" in one_line(exc)
    ok = read_efg(text.replace("3/2", "1/4").replace("-1/2", "3/4"))
    assert np.isclose(solve_lp(ok).value, 1 / 4 - 3 / 4)
