"""Smaller debts of the result protocol, each a bug a test now pins: a study's documented return value,
and errors inside the errors.py contract (GutsInputError for bad input)."""
import numpy as np
import pytest

from guts.errors import GutsInputError


def test_run_lp_convergence_returns_table_and_rates_without_writing(tmp_path, monkeypatch):
    """Documented to return ``(table, rates)``; with ``out=None`` it returned None."""
    from guts.games.continuous_poker import limit_poker
    from guts.studies.continuous_poker import run_lp_convergence

    monkeypatch.chdir(tmp_path)
    got = run_lp_convergence(limits=((1.0, 1.0),), meshes=(8, 16), sizes=(2, 3), out=None, progress=False)
    assert got is not None
    table, rates = got
    assert not list(tmp_path.iterdir())  # out=None writes nothing
    # von Neumann's game (L = U = 1) has value 1/18 (pot 1): the LP values approach it
    assert np.all(np.abs(table.lp_value - limit_poker(1.0, 1.0).value) < 0.02)
    np.testing.assert_allclose(table.error, table.lp_value - table.closed_form_value, atol=1e-15)
    assert len(rates) == 1


def test_evaluator_rejects_bad_cards_with_the_contract_error():
    from guts.games.holdem.evaluator import evaluate_many

    with pytest.raises(GutsInputError):
        evaluate_many(np.zeros((2, 3), dtype=np.int64))


def test_equity_table_goes_through_the_one_atomic_writer(tmp_path):
    """The hold'em table had its own writer forcing mode 0644; now the package's one writer
    (guts._atomic) applies the umask like every other file, and the table reads back."""
    import os
    import stat

    from guts.games.holdem.equities import _read_verified, equity_table, write_equity_table

    table = equity_table()
    old = os.umask(0o077)
    try:
        path = write_equity_table(table, tmp_path / "eq.npz")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = _read_verified(path)
    np.testing.assert_array_equal(again.win, table.win)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
