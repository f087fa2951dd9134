"""The pair-relaxation table of docs/teams.md: regenerated from the committed CSVs, and the
committed bounds obey what a relaxation must (between the correlated value, or the column
generation's certified lower end, and the communication value)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from guts import GutsInputError
from guts.studies.team_games import (
    RELAXATION_END,
    RELAXATION_START,
    documented_table,
    read_team_games,
    read_team_relaxation,
    team_relaxation_markdown,
)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks"
#: LP tolerances of the relaxation's certificate and of the exact values it is compared with.
BOUND_TOL = 1e-8
#: How far two solvers' certified bounds of one relaxation LP may differ (HiPO's duals certified
#: 2.3e-5 above the optimum on Kuhn with 8 ranks, IPX's 3e-9).
CERT_SLACK = 1e-4


def test_docs_relaxation_table_is_the_committed_csv():
    shown = documented_table((ROOT / "docs" / "teams.md").read_text(encoding="utf-8"), RELAXATION_START,
                             RELAXATION_END)
    assert shown == team_relaxation_markdown(read_team_relaxation(OUT), read_team_games(OUT)), \
        "docs/teams.md is stale: paste `python benchmarks/team_relaxation.py --table`"


def test_committed_bounds_lie_between_the_correlated_and_communication_values():
    rel = read_team_relaxation(OUT)
    cg = read_team_games(OUT)
    cg = cg[(cg.regime == "correlated") & (cg.method == "column-generation")].set_index(["game", "adversary"])
    assert len(rel) and not rel["relaxation"].isna().any()
    for _, r in rel.iterrows():
        assert r["relaxation"] <= r["communication"] + BOUND_TOL      # a member cannot see the partner's card
        if not np.isnan(r["correlated"]):
            assert r["relaxation"] >= r["correlated"] - BOUND_TOL      # an upper bound on the exact value
        low = cg.loc[(r["game"], r["adversary"]), "lower"]             # a certified lower end
        assert r["relaxation"] >= low - BOUND_TOL
        if not np.isnan(r["cut"]):                                     # communication after the card: looser
            assert r["relaxation"] - BOUND_TOL <= r["cut"] <= r["communication"] + BOUND_TOL
    leduc = rel[rel["game"].str.startswith("leduc")]
    assert leduc["cut"].notna().all() and rel[rel["game"].str.startswith("kuhn")]["cut"].isna().all()


def test_relaxation_table_from_a_constructed_csv():
    nan = float("nan")
    rel = pd.DataFrame([dict(game="g r=3", adversary=0, pairs=12345, relaxation=0.5, seconds=2.25, cut=0.5625,
                             communication=0.75, correlated=nan)])
    cg = pd.DataFrame([dict(game="g r=3", adversary=0, regime="correlated", method="column-generation",
                            lower=0.25, upper=0.625)])
    assert team_relaxation_markdown(rel, cg).splitlines()[-1] == \
        "| g r=3 | 0 | 12 345 | 0.500000 | — | 0.6250 | 0.562500 | 0.750000 | 2.2 |"
    assert team_relaxation_markdown(rel, cg.iloc[:0]).splitlines()[-1].count("—") == 2


def test_a_csv_without_the_columns_is_refused(tmp_path):
    bad = tmp_path / "team_relaxation.csv"
    pd.DataFrame([dict(game="g", adversary=0)]).to_csv(bad, index=False)
    with pytest.raises(GutsInputError, match="lacks the columns"):
        read_team_relaxation(tmp_path)
    with pytest.raises(GutsInputError, match="no team-relaxation CSV"):
        read_team_relaxation(tmp_path / "missing")


def test_the_documented_run_reproduces_the_committed_kuhn_rows(tmp_path):
    """``python benchmarks/team_relaxation.py --leduc-ranks`` (docs/teams.md), into a scratch folder:
    the same bounds and values as the committed CSV."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("team_relaxation", ROOT / "benchmarks" / "team_relaxation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fresh = module.main(["--leduc-ranks", "--out", str(tmp_path)]).set_index(["game", "adversary"])
    committed = read_team_relaxation(OUT).set_index(["game", "adversary"])
    kuhn = committed[committed.index.get_level_values("game").str.startswith("kuhn")]
    for col in ("pairs", "communication", "correlated"):
        assert np.allclose(fresh.loc[kuhn.index, col], kuhn[col], rtol=0.0, atol=BOUND_TOL), col
    # the certified bound depends on the dual the LP solver returns (HiPO where installed, else
    # IPX): each lies at or above the LP's optimum, within the certificate's slack of the other
    bound = fresh.loc[kuhn.index, "relaxation"]
    assert (bound >= kuhn["lp_value"] - CERT_SLACK).all() and (bound >= kuhn["correlated"] - BOUND_TOL).all()
    assert np.allclose(bound, kuhn["relaxation"], rtol=0.0, atol=CERT_SLACK)


def test_committed_correlated_brackets_agree_across_methods():
    """Every certified bracket of one seat's correlated value (the belief DAG's, column generation's)
    overlaps every other, and each lower end lies below the relaxation's bounds (upper bounds of the
    same value): two independent algorithms, one value."""
    rel = read_team_relaxation(OUT).set_index(["game", "adversary"])
    tg = read_team_games(OUT)
    cor = tg[(tg.regime == "correlated") & tg["lower"].notna()]
    dag = cor[cor.method == "belief-dag"]
    assert len(dag) == 3 and set(dag.game) == {"leduc3 r=3"}
    for (game, adv), seat in cor.groupby(["game", "adversary"]):
        assert seat["lower"].max() <= seat["upper"].min() + BOUND_TOL, (game, adv)
        if (game, adv) in rel.index:
            r = rel.loc[(game, adv)]
            assert seat["lower"].max() <= min(r["relaxation"], r["cut"] if not np.isnan(r["cut"]) else np.inf) \
                + BOUND_TOL, (game, adv)
