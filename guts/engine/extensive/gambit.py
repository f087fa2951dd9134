"""Gambit behaviour profiles of the package's strategies (the ``NE,...`` lines of Gambit's
command-line solvers), for the ``.efg`` files :func:`.efg.write_efg` writes."""
from __future__ import annotations

from ...errors import GutsInputError

__all__ = ["gambit_behaviour_profile"]


def gambit_behaviour_profile(game, strategies) -> str:
    """``strategies`` as a Gambit behaviour profile of the ``.efg`` that
    :func:`.efg.write_efg` writes for ``game``.

    The line ``NE,p1,p2,...`` of Gambit's command-line solvers (McKelvey, McLennan and
    Turocy, *Gambit: Software Tools for Game Theory*): the action probabilities player by
    player, information set by information set in the order of their numbers in the file,
    action by action.  Probabilities are written with Python's shortest round-trip ``repr``.
    """
    from .explicit import ExplicitChance, ExplicitGame, ExplicitTerminal
    from .strategies import _check_game, from_flat, to_flat
    from .tree import Chance, Decision, PublicTreeGame, Terminal

    cg = _check_game(game)
    strategies = from_flat(game, to_flat(game, strategies))     # validated, one row per type
    n = cg.num_players
    rows = [dict() for _ in range(n)]         # information-set key -> probabilities, numbered in order
    if isinstance(game, ExplicitGame):
        stack = [game.root]
        while stack:
            nd = stack.pop()
            if isinstance(nd, ExplicitTerminal):
                continue
            if isinstance(nd, ExplicitChance):
                stack.extend(c for _, c in reversed(list(nd.outcomes.values())))
                continue
            if nd.infoset not in rows[nd.player]:
                rows[nd.player][nd.infoset] = strategies[nd.player][nd.infoset][0]
            stack.extend(reversed(list(nd.actions.values())))
    elif isinstance(game, PublicTreeGame):
        order = []                            # public decisions (player, history) in write_efg's order
        stack = [(game.root, ())]
        while stack:
            nd, hist = stack.pop()
            if isinstance(nd, Terminal):
                continue
            if isinstance(nd, Chance):
                stack.extend((c, hist + (lab,)) for lab, (_, c) in reversed(list(nd.outcomes.items())))
            elif isinstance(nd, Decision):
                order.append((nd.player, hist))
                stack.extend((c, hist + (lab,)) for lab, c in reversed(list(nd.actions.items())))
        info = game.deals.info
        for d in range(cg.num_deals):
            for p, hist in order:
                t = int(info[p, d])
                if (hist, t) not in rows[p]:
                    rows[p][hist, t] = strategies[p][hist][t]
    else:  # pragma: no cover - _check_game accepts these two only
        raise GutsInputError(f"game must be an ExplicitGame or a PublicTreeGame; got {type(game).__name__}")
    probs = [repr(float(x)) for p in range(n) for row in rows[p].values() for x in row]
    return "NE," + ",".join(probs)
