"""Reading the guts-bot's strategies from a Table 1 CSV (``guts table1``; paper §5.1).

The game engine of the bot (:mod:`guts.games.guts.bot`) takes a :class:`BotStrategy`;
this study-layer reader builds one from a row of the committed table, so the game
family reads no files.
"""
from __future__ import annotations

import math
from pathlib import Path

from guts._validate import check_int
from guts.errors import GutsInputError
from guts.games.guts.bot import BotStrategy, parse_support

__all__ = ["load_bot_strategy"]


def load_bot_strategy(path, size: int) -> BotStrategy:
    """Read the mixtures of row ``N = size`` of a Table 1 CSV (``guts table1``).

    The coalition's mixture comes from column ``coalition_support``, player 1's from
    ``player1_support`` and the value from ``value_lower``.
    """
    import pandas as pd

    size = check_int("opponents", size, 1)
    path = Path(path)
    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise GutsInputError(f"cannot read table {str(path)!r}: {exc}") from None
    need = {"N", "mesh", "structure", "value_lower", "player1_support", "coalition_support"}
    if not need <= set(df.columns):
        raise GutsInputError(f"{str(path)!r} is not a Table 1 CSV: missing columns {sorted(need - set(df.columns))}")
    rows = df[df.N == size]
    if rows.empty:
        raise GutsInputError(f"{str(path)!r} has no row N = {size}; it has N = {sorted(df.N.tolist())}")
    row = rows.iloc[0]
    profiles, weights = parse_support(row.coalition_support, size)
    p1, p1w = parse_support(row.player1_support, 1)
    get = lambda name: float(row[name]) if name in row.index else math.nan  # noqa: E731
    return BotStrategy(
        size=size, mesh=int(row.mesh), structure=str(row.structure), profiles=profiles, weights=weights,
        player1_thresholds=p1.ravel(), player1_weights=p1w, value=float(row.value_lower),
        certified_lower=get("certified_lower"), certified_upper=get("certified_upper"),
        source=f"{path} (row N = {size})",
    )
