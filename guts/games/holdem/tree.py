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


from guts.engine.extensive import Decision, PublicTreeGame, Terminal
from guts.engine.extensive.building import fold_terminal, pair_deals, showdown_share

from .cards import CLASS_LABELS
from .equities import TOTAL_DEALS, EquityTable, equity_table

__all__ = ["class_pair_deals", "raise_game_tree"]

SMALL_BLIND = 1
BIG_BLIND = 2


def class_pair_deals(table: EquityTable):
    """``(deals, share)``: the 28561 class-pair deals and the shared showdown table."""
    deals = pair_deals(table.pairs / TOTAL_DEALS, (CLASS_LABELS, CLASS_LABELS))
    return deals, showdown_share(table.equity)


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
    fold_a = fold_terminal([SMALL_BLIND, BIG_BLIND], winner=1)
    call = Terminal.showdown([BIG_BLIND, BIG_BLIND], share)
    fold_b = fold_terminal([BIG_BLIND, BIG_BLIND], winner=0)
    root = {"f": fold_a, "c": call}
    for r in raises:
        put = BIG_BLIND + r
        bob = {"f": fold_b, "c": Terminal.showdown([put, put], share)}
        for s in reraises:
            bob[f"rr{s}"] = Decision(0, {
                "f": fold_terminal([put, put + s], winner=1),
                "c": Terminal.showdown([put + s, put + s], share),
            })
        root[f"r{r}"] = Decision(1, bob)
    return PublicTreeGame(Decision(0, root), deals, 2, name=name or f"holdem raise game (raises {list(raises)}"
                          + (f", re-raises {list(reraises)})" if reraises else ")"))
