"""The hold'em artefact writers on a small game (R = 3, one re-raise size)."""
import json
import os
import stat

import numpy as np
import pandas as pd

from guts.games.holdem import equity_table, solve_raise_game
from guts.studies import holdem as H


def test_solution_files_and_figures(tmp_path):
    t = equity_table()
    r = solve_raise_game(max_raise=3, reraises=(6,), table=t)
    paths = H.write_solution(r, tmp_path, "small")
    alice, bob = (pd.read_csv(p) for p in paths)
    # the CSV reproduces the strategy: root rows sum to one per class; Bob's actions to one
    assert np.allclose(alice[alice.node == "root"].groupby("class").probability.sum(), 1.0)
    assert np.allclose(bob[["call", "reraise_6", "fold"]].sum(axis=1), 1.0)
    for p in paths:
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o644
        meta = json.loads(p.with_name(p.stem + ".meta.json").read_text())
        assert meta["parameters"]["reraises"] == [6]
    H.plot_action_distribution(r, tmp_path / "a.png", t)
    H.plot_preferred_grid(r, tmp_path / "g.png")
    H.plot_bob_calling(r, tmp_path / "b.png", t)
    assert all((tmp_path / f).stat().st_size > 10_000 for f in ("a.png", "g.png", "b.png"))
    pref = H.preferred_actions(r)
    assert len(pref) == 169 and set(pref.preferred) <= set(r.actions)
