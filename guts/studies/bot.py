"""Reading the guts-bot's strategies from a Table 1 CSV (``guts table1``; paper §5.1).

The game engine of the bot (:mod:`guts.games.guts.bot`) takes a :class:`BotStrategy`;
this study-layer reader builds one from a row of the committed table, so the game
family reads no files.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from guts._validate import check_choice, check_int
from guts.errors import GutsInputError
from guts.games.guts.bot import BotStrategy, parse_support
from guts.games.guts.strategies import STRUCTURES

__all__ = ["load_bot_strategy", "strategy_from_row", "recertify_table_row", "TABLE_CERT_TOL", "VALUE_COLUMNS"]


def load_bot_strategy(path, size: int) -> BotStrategy:
    """Read the mixtures of row ``N = size`` of a Table 1 CSV (``guts table1``).

    The coalition's mixture comes from column ``coalition_support``, player 1's from
    ``player1_support`` and the value from ``value_lower``.
    """
    from guts.studies.table_trust import read_results_csv, table_set_status

    size = check_int("opponents", size, 1)
    path = Path(path)
    # a regular file of a set that finished (or of none); its row is re-certified below either way
    _warn_if_not_published(path, table_set_status(path, "table"))
    return strategy_from_row(read_results_csv(path, "table"), size, path)


#: Columns of a Table 1 CSV that hold player 1's value (``opponent_value`` with the other sign):
#: each must lie in the interval the row's own strategies certify.
VALUE_COLUMNS = ("value_lower", "value_upper", "opponent_value")


def strategy_from_row(df, size: int, path) -> BotStrategy:
    """The :class:`BotStrategy` of row ``N = size`` of a Table 1 DataFrame, every number re-certified.

    The row's mixtures are re-certified (:func:`recertify_table_row`); each of its values
    (:data:`VALUE_COLUMNS`: ``value_lower``, ``value_upper``, ``-opponent_value``) must lie
    within :data:`TABLE_CERT_TOL` of the recomputed interval, else :class:`GutsInputError`.
    """
    size = check_int("opponents", size, 1)
    need = {"N", "mesh", "structure", "value_lower", "player1_support", "coalition_support"}
    if not need <= set(df.columns):
        raise GutsInputError(f"{str(path)!r} is not a Table 1 CSV: missing columns {sorted(need - set(df.columns))}")
    rows = df[df.N == size]
    if rows.empty:
        raise GutsInputError(f"{str(path)!r} has no row N = {size}; it has N = {sorted(df.N.tolist())}")
    row = rows.iloc[0]
    where = f"{str(path)!r} row N = {size}"
    try:
        mesh = int(row.mesh)
        structure = check_choice("structure", str(row.structure), STRUCTURES)
        value = float(row.value_lower)
    except (TypeError, ValueError, OverflowError) as exc:
        raise GutsInputError(f"{where}: unreadable cell ({exc}); accepted: a Table 1 CSV written by "
                             "guts table1") from None
    if not math.isfinite(value):
        raise GutsInputError(f"{where}: value_lower {row.value_lower}; accepted: a finite number")
    mesh = check_int(f"{where}: mesh", mesh, 2)
    profiles, weights = parse_support(row.coalition_support, size)
    p1, p1w = parse_support(row.player1_support, 1)
    lo, hi = recertify_table_row(size, mesh, structure, p1.ravel(), p1w, profiles, weights)
    slack = TABLE_CERT_TOL * (1.0 + abs(value))
    for column in VALUE_COLUMNS:
        if column not in row.index:
            continue
        try:
            v = float(row[column]) * (-1.0 if column == "opponent_value" else 1.0)
        except (TypeError, ValueError, OverflowError):
            v = math.nan
        if not (math.isfinite(v) and lo - slack <= v <= hi + slack):
            shown = row[column] if not isinstance(row[column], float) else f"{row[column]:.12g}"
            raise GutsInputError(f"{where}: {column} {shown} is not certified by the row's own strategies "
                                 f"(recomputed Theorem 1.2 interval [{lo:.12g}, {hi:.12g}] for player 1"
                                 f"{', opponent_value with the other sign' if column == 'opponent_value' else ''})"
                                 "; accepted: a table whose values its strategies certify (regenerate it with "
                                 "guts table1)")
    return BotStrategy(
        size=size, mesh=mesh, structure=structure, profiles=profiles, weights=weights,
        player1_thresholds=p1.ravel(), player1_weights=p1w, value=value,
        certified_lower=lo, certified_upper=hi, source=f"{path} (row N = {size})",
    )


def _warn_if_not_published(path: Path, st) -> None:
    """Warn when ``path`` belongs to a set changed since its manifest was written (``st``, its
    :class:`guts._atomic.SetStatus`); the row is re-certified whatever the file's history."""
    import warnings

    if st.state == "modified":
        warnings.warn(f"table {str(path)!r} is not part of a complete published set ({st.detail}); its row "
                      "is re-certified from its own strategies before use", UserWarning, stacklevel=3)


#: A table's printed value must lie within this (relative to ``1 + |v|``) of the interval its
#: own strategies certify: the CSV rounds probabilities to 6 decimals, which moves the bounds
#: by about that much.
TABLE_CERT_TOL = 1e-5


def recertify_table_row(size, mesh, structure, p1_thresholds, p1_weights, profiles, weights):
    """Theorem 1.2 interval ``(lower, upper)`` for player 1's value, recomputed from a table's mixtures.

    A file is not trusted: player 1's mixture is certified against every coalition profile
    of the row's mesh and structure, the coalition's against every threshold of the mesh
    (paper §1, Theorem 1.2).  Raises :class:`GutsInputError` when a mixture certifies nothing.
    """
    from guts.engine.recursive import certify
    from guts.games.guts.coalition import check_coalition_memory
    from guts.games.guts.stage import GutsStage
    from guts.games.guts.strategies import coalition_profiles, resolve_grid

    check_coalition_memory(size, mesh, structure)
    grid = resolve_grid(mesh, "mesh")
    w1 = np.asarray(p1_weights, float) / np.sum(p1_weights)
    w2 = np.asarray(weights, float) / np.sum(weights)
    c1 = certify(GutsStage(p1_thresholds, coalition_profiles(size, grid, structure)), strategy=w1, v_start=-1.0)
    c2 = certify(GutsStage(grid, profiles).transpose(), strategy=w2, v_start=-float(size))
    if not (c1.valid and c2.valid):
        raise GutsInputError(f"the table's mixtures for N = {size} certify no value ({c1.reason if not c1.valid else c2.reason})"
                             "; accepted: a table written by guts table1")
    return float(c1.v_certified), float(-c2.v_certified)
