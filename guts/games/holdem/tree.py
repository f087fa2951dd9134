"""The raise games as :class:`guts.engine.extensive.PublicTreeGame` (the engine contract).

Deals are the 169 x 169 class pairs with probability ``n_ij / (1326 * 1225)``; Alice
(player 0) observes her class i, Bob (player 1) his class j.  Every showdown terminal
shares ONE share array ``(e_ij, 1 - e_ij)`` (exact equities), so the tree costs
O(169^2) memory whatever the number of raise sizes.

Histories: Alice's root actions ``"f"``, ``"c"``, ``"r<r>"``; after ``("r<r>",)`` Bob
plays ``"f"``, ``"c"`` (and ``"rr<s>"`` in the re-raise game, after which Alice plays
``"f"`` or ``"c"`` at ``("r<r>", "rr<s>")``).
"""
from __future__ import annotations

import numpy as np

from guts.engine.extensive import Deals, Decision, PublicTreeGame, Terminal

from .cards import CLASS_LABELS, NUM_CLASSES
from .equities import TOTAL_DEALS, EquityTable, equity_table

__all__ = ["class_pair_deals", "raise_game_tree"]

SMALL_BLIND = 1
BIG_BLIND = 2


def class_pair_deals(table: EquityTable):
    """``(deals, share)``: the 28561 class-pair deals and the shared showdown table."""
    prob = (table.pairs / TOTAL_DEALS).ravel()
    i, j = np.divmod(np.arange(NUM_CLASSES * NUM_CLASSES), NUM_CLASSES)
    deals = Deals(prob=prob, info=np.vstack([i, j]), type_labels=(CLASS_LABELS, CLASS_LABELS))
    e = table.equity.ravel()
    share = np.vstack([e, 1.0 - e])
    return deals, share


def raise_game_tree(raises, reraises=(), table: EquityTable | None = None, name: str = "") -> PublicTreeGame:
    """The raise game (the hold'em note) on the engine; with ``reraises`` Bob may also re-raise.

    Parameters
    ----------
    raises : sequence of int
        Alice's raise sizes r (she puts 2 + r in).
    reraises : sequence of int
        Bob's re-raise sizes s after a raise r (he puts 2 + r + s in; Alice folds or calls).
    """
    table = table or equity_table()
    deals, share = class_pair_deals(table)
    fold_a = Terminal(np.array([-SMALL_BLIND, SMALL_BLIND], dtype=float))
    call = Terminal.showdown([BIG_BLIND, BIG_BLIND], share)
    fold_b = Terminal(np.array([BIG_BLIND, -BIG_BLIND], dtype=float))
    root = {"f": fold_a, "c": call}
    for r in raises:
        put = BIG_BLIND + r
        bob = {"f": fold_b, "c": Terminal.showdown([put, put], share)}
        for s in reraises:
            bob[f"rr{s}"] = Decision(0, {
                "f": Terminal(np.array([-put, put], dtype=float)),
                "c": Terminal.showdown([put + s, put + s], share),
            })
        root[f"r{r}"] = Decision(1, bob)
    return PublicTreeGame(Decision(0, root), deals, 2, name=name or f"holdem raise game (raises {list(raises)}"
                          + (f", re-raises {list(reraises)})" if reraises else ")"))
