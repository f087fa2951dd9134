"""Every family and method read through one result protocol.

:func:`solver_overview` solves one small instance of each (family, method) pair and reads
each answer only through :class:`guts.engine.result.Result`: ``value``, ``values``,
``certificate`` (its kind and measure), ``converged``, ``num_iter``, ``seconds`` and
``method``.  No family's private result class is named here; swapping a family or a method
is swapping one entry of :data:`CASES`.

    >>> from guts.studies.overview import solver_overview
    >>> table = solver_overview(["matrix game/lp", "kuhn/cfr+"])   # doctest: +SKIP
"""
from __future__ import annotations

import warnings
from typing import Callable

import numpy as np
import pandas as pd

from guts.engine.result import check_result
from guts.errors import ConvergenceWarning, GutsInputError

__all__ = ["CASES", "solver_overview", "overview_row"]


def _matrix(method):
    from guts.engine.matrix_game import solve_fp, solve_lp

    rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])  # rock-paper-scissors, value 0
    return solve_lp(rps) if method == "lp" else solve_fp(rps, iterations=2000, random_state=0, tol=0.05)


def _kuhn(method, players=2):
    from guts.engine import extensive as E
    from guts.games.toy import kuhn_poker

    game = kuhn_poker(players)
    if method == "lp":
        return E.solve_lp(game)
    if method == "cfr+":
        return E.cfr_plus(game, max_iterations=2000, target=1e-3)
    return E.fictitious_play(game, target=0.02, max_iterations=5000)


def _coalition(solver):
    from guts.games.guts.coalition import solve_coalition

    return solve_coalition(2, 21, solver=solver)


def _teams(_):
    from guts.games.guts.teams import solve_teams

    return solve_teams(2, 2, 11)


def _continuum(_):
    from guts.games.guts.continuum import solve_continuum

    return solve_continuum(2)


def _large_n(method):
    from guts.games.guts.large_n import solve_large_n
    from guts.games.guts.large_n.solve import solve_pseudo_bloc

    return solve_pseudo_bloc(3, 21) if method == "oracle" else solve_large_n(2, mesh=20, target_width=1e-5)


def _guts_fp(_):
    from guts.games.guts.fictitious import fictitious_play

    return fictitious_play(3, mesh=11, iterations=300, random_state=0, tol=0.05, warn=False)


def _continuous_poker(method):
    from guts.games.continuous_poker import limit_poker
    from guts.games.continuous_poker.bestresponse import check_equilibrium
    from guts.games.continuous_poker.discrete import solve_discretised

    if method == "lp":
        return solve_discretised(1.0, 2.0, mesh=20, sizes=3)
    return check_equilibrium(limit_poker(1.0, 2.0))


def _dividing_point(method):
    from guts.games.dividing_point import patent_rules, solve_patent_game
    from guts.games.dividing_point.discrete import solve_mesh

    if method == "lp":
        return solve_mesh(patent_rules("a"), 1, 30)
    return solve_patent_game("a", pot=1)


def _mercer(method):
    from guts.games.poker.mercer import solve

    return solve("smh", players=2, method=method)


def _holdem(method):
    from guts.games.holdem import solve_raise_game

    return solve_raise_game(max_raise=4, method=method)


#: ``"family/method" -> callable`` returning a :class:`~guts.engine.result.Result`; each is small
#: (a second or less) so that the whole table is a quick smoke test of the protocol.
CASES: dict[str, Callable] = {
    "matrix game/lp": lambda: _matrix("lp"),
    "matrix game/fp": lambda: _matrix("fp"),
    "kuhn/lp": lambda: _kuhn("lp"),
    "kuhn/cfr+": lambda: _kuhn("cfr+"),
    "kuhn/fp": lambda: _kuhn("fp"),
    "kuhn 3 players/cfr+": lambda: _kuhn("cfr+", 3),
    "guts coalition/oracle": lambda: _coalition("oracle"),
    "guts coalition/lp": lambda: _coalition("lp"),
    "guts teams/oracle": lambda: _teams(None),
    "guts continuum/oracle": lambda: _continuum(None),
    "guts large N/oracle": lambda: _large_n("oracle"),
    "guts large N/refined-mesh": lambda: _large_n("refined-mesh"),
    "guts 3 players/fp": lambda: _guts_fp(None),
    "continuous poker/lp": lambda: _continuous_poker("lp"),
    "continuous poker/closed-form": lambda: _continuous_poker("closed-form"),
    "dividing point/exact": lambda: _dividing_point("exact"),
    "dividing point/lp": lambda: _dividing_point("lp"),
    "mercer/lp": lambda: _mercer("lp"),
    "mercer/cfr+": lambda: _mercer("cfr+"),
    "holdem/lp": lambda: _holdem("lp"),
}


def overview_row(name: str, result) -> dict:
    """One row of the overview: the family, the method asked, and the protocol's fields."""
    bad = check_result(result)
    if bad:
        raise GutsInputError(f"{name}: {type(result).__name__} does not follow the result protocol: {'; '.join(bad)}")
    family, _, asked = name.partition("/")
    values = np.atleast_1d(np.asarray(result.values, dtype=float))
    c = result.certificate
    return {"family": family, "method_asked": asked, **result.summary(),
            "values": " ".join(f"{v:.6g}" for v in values), "players": int(values.size),
            "certificate_holds": c.holds(CERTIFICATE_DISPLAY_TARGET), "details": type(result.details).__name__}


#: The target at which the overview reports whether each certificate holds (a display choice:
#: each solver's own ``converged`` uses its own, documented target).
CERTIFICATE_DISPLAY_TARGET = 1e-6


def solver_overview(names=None) -> pd.DataFrame:
    """Solve the cases ``names`` (default: all of :data:`CASES`) and tabulate them the same way.

    Convergence warnings are recorded in the ``converged`` column rather than raised.
    """
    names = list(CASES) if names is None else list(names)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        raise GutsInputError(f"unknown cases {unknown}; accepted: {', '.join(CASES)}")
    rows = []
    for name in names:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            rows.append(overview_row(name, CASES[name]()))
    return pd.DataFrame(rows)
