"""What ``guts play`` and ``guts simulate`` share: the bot's options and strategy, chips as text."""
from __future__ import annotations

import argparse

from guts._validate import GutsInputError
from guts.cli.options import path_arg, add_mesh, add_seed, add_size
from guts.games.guts.bot import MAX_OPPONENTS, bot_strategy
from guts.studies.bot import load_bot_strategy


def player1_arg(text):
    """A threshold in [0, 1] or 'optimal'/'opt'."""
    if text.strip().lower() in ("opt", "optimal"):
        return "optimal"
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: a threshold in [0, 1] or 'optimal'") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"{text}; accepted: a threshold in [0, 1] or 'optimal'")
    return v


def add_bot_options(p, seed_default, seed_what):
    add_size(p, MAX_OPPONENTS)
    add_mesh(p, default=None, maximum=1001,
             help="mesh points of the solved game (>= 3; default 101, as the paper's bot; not with --table)")
    p.add_argument("--table", type=path_arg, default=None, metavar="CSV",
                   help="read the strategies from a Table 1 CSV (e.g. results/table1.csv) instead of solving "
                        "(default: solve on the spot)")
    add_seed(p, seed_what, default=seed_default)


def strategy_from_args(args):
    if args.table is not None:
        if args.mesh is not None:
            raise GutsInputError("give either --table (its own mesh) or --mesh, not both")
        return load_bot_strategy(args.table, args.size)
    return bot_strategy(args.size, mesh=args.mesh or 101)


def chips(x) -> str:
    """Chips are integers (antes 1, pots multiplied by integers); print them so."""
    return f"{x:+,.0f}" if abs(x - round(x)) < 1e-9 else f"{x:+,.4f}"


def amount(x) -> str:
    return chips(x)[1:] if x >= 0 else chips(x)
