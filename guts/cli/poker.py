"""``guts poker``: one-round betting games on [0, 1] hands.

``guts poker continuous`` (Spears 2025: von Neumann, Newman, limit continuous poker) and
``guts poker dividing-point`` (Hundal and Reitzen, US patent 6,129,631: the patent's dividing-point games).  Each family
keeps its own module (:mod:`guts.cli.continuous_poker`, :mod:`guts.cli.dividing_point`);
this module only groups them.
"""
from __future__ import annotations

from guts.cli import continuous_poker, dividing_point

HELP = "one-round betting games on [0, 1] hands: continuous (Spears 2025), dividing-point (Hundal and Reitzen, US patent 6,129,631)"
FAMILIES = [continuous_poker, dividing_point]


def add_subparser(subparsers):
    """Add the ``poker`` group and its family subcommands."""
    p = subparsers.add_parser("poker", help=HELP, description=HELP)
    sub = p.add_subparsers(dest="poker_command", metavar="GAME", parser_class=type(p))
    sub.required = True
    for module in FAMILIES:
        module.add_subparser(sub)
    return p
