"""Strategy tables as in the thesis (Tables 1-6 and 8: bet percentages by holding, position
and betting history), read from engine strategies, side by side with the printed figures.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from guts.engine.extensive import Chance, Decision
from guts.errors import GutsInputError

from ..builder import BuiltGame
from .paper import PAPER_TABLES

__all__ = ["behaviour", "history_reach", "table_frame", "wide_table", "bet_action"]


def bet_action(labels) -> str:
    """The bet action among a decision's labels (the thesis's games have one bet size)."""
    bets = [a for a in labels if a.startswith("b") or a.startswith("r")]
    if len(bets) != 1:
        raise GutsInputError(f"expected exactly one bet action; got {labels}")
    return bets[0]


def _node(game, history):
    node = game.root
    for a in history:
        if isinstance(node, Decision):
            node = node.actions[a]
        elif isinstance(node, Chance):
            node = node.outcomes[a][1]
        else:
            raise GutsInputError(f"history {history!r} runs past a terminal")
    return node


def history_reach(built: BuiltGame, strategies, history) -> np.ndarray:
    """P(deal d and public history ``history``) for every deal d (array (D,))."""
    game = built.game
    history = tuple(history)
    reach = game.deals.prob.copy()
    node = game.root
    for i, a in enumerate(history):
        if isinstance(node, Decision):
            q = node.player
            probs = strategies[q][history[:i]][:, list(node.actions).index(a)]
            reach = reach * probs[game.deals.info[q]]
            node = node.actions[a]
        elif isinstance(node, Chance):
            prob, node = node.outcomes[a]
            reach = reach * prob
        else:
            raise GutsInputError(f"history {history!r} runs past a terminal")
    return reach


def behaviour(built: BuiltGame, strategies, seat: int, history, info_label: str, action: str | None = None):
    """(probability of ``action`` (default: the bet), reach probability) at the information
    set (``history``, ``info_label``) of ``seat``."""
    game = built.game
    history = tuple(history)
    node = _node(game, history)
    if not isinstance(node, Decision):
        raise GutsInputError(f"no decision at history {history!r}")
    q = node.player
    seat_player = built.seat_player or tuple(range(game.num_players))
    if seat_player[seat] != q:
        raise GutsInputError(f"seat {seat} does not act at history {history!r} (player {q} does)")
    labels = list(node.actions)
    a = bet_action(labels) if action is None else action
    tl = game.deals.type_labels[q]
    if info_label not in tl:
        raise GutsInputError(f"unknown holding {info_label!r} of player {q}")
    t = tl.index(info_label)
    reach = history_reach(built, strategies, history)
    r = float(reach[game.deals.info[q] == t].sum())
    return float(strategies[q][history][t, labels.index(a)]), r


def table_frame(name: str, built: BuiltGame, strategies, method: str = "") -> pd.DataFrame:
    """One of the thesis's strategy tables, long format: paper figure and ours (percent)."""
    if name not in PAPER_TABLES:
        raise GutsInputError(f"unknown table {name!r}; accepted: {', '.join(PAPER_TABLES)}")
    spec = PAPER_TABLES[name]
    rows = []
    for row_label, seat, hist, paper_vals in spec["rows"]:
        for col, paper in zip(spec["columns"], paper_vals):
            if "hand" in spec:      # columns are flops, the holding is fixed
                h = tuple(x.format(col) if "{}" in x else x for x in hist)
                holding = spec["hand"]
            else:
                h, holding = tuple(hist), col
            p, reach = behaviour(built, strategies, seat, h, holding)
            rows.append(dict(table=name, row=row_label, seat=seat, history=" ".join(h) or "-",
                             column=col, holding=holding, paper=float(paper), ours=100.0 * p,
                             reach=reach, method=method))
    return pd.DataFrame(rows)


def wide_table(df: pd.DataFrame, value: str = "ours") -> pd.DataFrame:
    """Rows x columns of a long table (as printed in the thesis)."""
    order_rows = list(dict.fromkeys(df["row"]))
    order_cols = list(dict.fromkeys(df["column"]))
    w = df.pivot(index="row", columns="column", values=value)
    return w.loc[order_rows, order_cols]


def add_equilibrium_ranges(df: pd.DataFrame, built: BuiltGame, values) -> pd.DataFrame:
    """Columns ``eq_min``/``eq_max`` (percent): the range of each two-player figure over
    all exact equilibria (first decisions only; NaN elsewhere), see :mod:`.eqrange`."""
    from .eqrange import first_decision_range

    game = built.game
    lo, hi = [], []
    for _, row in df.iterrows():
        h = tuple(row["history"].split()) if row["history"] != "-" else ()
        q = (built.seat_player or tuple(range(game.num_players)))[row["seat"]]
        pt = game.compiled.players[q]
        d = pt.index.get(h)
        if game.num_players != 2 or d is None or pt.dec_parent[d] != 0:
            lo.append(np.nan)
            hi.append(np.nan)
            continue
        a = bet_action(pt.action_labels[d])
        mn, mx = first_decision_range(game, values[q], q, h, a, row["holding"])
        lo.append(100 * mn)
        hi.append(100 * mx)
    out = df.copy()
    out["eq_min"], out["eq_max"] = lo, hi
    return out
