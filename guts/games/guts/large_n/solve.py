"""The 1 v. N pseudo-bloc game on one explicit mesh: :func:`solve_pseudo_bloc` (see
:mod:`guts.games.guts.large_n`).
"""
from __future__ import annotations

from guts.games.guts.result import OneVsCoalitionRecord
from guts.engine.tolerances import MAX_FIXED_POINT_TOL

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_int, check_positive_float
from guts.engine.recursive import FixedPointResult, solve_both_sides, support
from guts.engine.tolerances import SUPPORT_TOL
from guts.errors import ConvergenceWarning
from guts.games.guts.pseudo_bloc import PseudoBlocStage
from guts.games.guts.strategies import BLOC_STEPS, check_recursive_grid, classify_components, mesh_step
from guts.engine.result import Solution

# Inner double-oracle warnings are re-emitted unless both certificates hold and
# bracket the value this tightly.
HELD_WARNING_WIDTH = 1e-8
#: Largest coalition N: 1e6 had not finished in 100 s, and from 1e8 on HiGHS fails (the scaled
#: mesh loses all precision).
MAX_SIZE = 100_000


@dataclass(frozen=True)
class LargeNResult(OneVsCoalitionRecord):
    """The 1 v. N pseudo-bloc game on one threshold mesh.

    Attributes
    ----------
    size : int
        Coalition size N.
    points : int
        Number of thresholds in the mesh (player 1 and every coalition member).
    coalition_value : float
        What the coalition forces from ``W_0 = -N`` (Table 1 "Opponent Value").
    player1_value : float
        What player 1 forces from ``V_0 = -1`` (``-coalition_value`` when the game has a value).
    certified_lower, certified_upper : float
        Theorem 1.2 interval for player 1's value of the discretized game (``nan`` if
        a certificate failed); the coalition's value lies in ``[-certified_upper, -certified_lower]``.
    player1_strategy : dict
        ``{threshold: probability}``.
    coalition_strategy : dict
        ``{(free, bloc): probability}`` for profiles ``(free, bloc, ..., bloc)``.
    converged : bool
        Both fixed points converged.
    num_iter : int
        Outer fixed-point iterations, both sides.
    num_solves : int
        Inner (double-oracle) solves, both sides.
    inner_warnings : int
        Double-oracle stops above its 1e-13 gap target that were held back because
        the Theorem 1.2 certificates confirm the value to ``HELD_WARNING_WIDTH``.
    seconds : float
        Wall time.
    grid : numpy.ndarray
        The mesh.
    """

    points: int
    num_solves: int
    inner_warnings: int
    grid: np.ndarray = field(repr=False)
    player1: FixedPointResult = field(repr=False)
    coalition: FixedPointResult = field(repr=False)


    @property
    def method(self) -> str:
        """Double oracle with Newton steps on one mesh (the :class:`~guts.engine.result.Result` protocol)."""
        return "oracle/newton"

    def bloc_and_pseudo_bloc(self):
        """``(player1, bloc, pseudo_bloc, pseudo_free, pseudo_weight)`` summary thresholds.

        Profiles whose free member is within ``BLOC_STEPS`` local mesh steps of the
        others count as bloc (:func:`guts.games.guts.strategies.classify_components`;
        for N = 2 the free member is the lower threshold), the rest as pseudo-bloc.  Each summary is the
        probability-weighted mean threshold of its group (``nan`` if empty).
        """
        # (a, b) and (b, a) are the same coalition profile for N = 2: free = the lower one
        pairs = [((min(a, b), max(a, b)) if self.size == 2 else (a, b), w)
                 for (a, b), w in self.coalition_strategy.items()]
        kinds = classify_components(pairs, lambda ab: BLOC_STEPS * mesh_step(self.grid, ab[1]))
        bloc_w = sum(w for _, w in kinds["bloc"])
        bloc_t = sum(w * b for (_, b), w in kinds["bloc"])
        pseudo = kinds["pseudo-bloc"] + kinds["other"]
        pseudo_w = sum(w for _, w in pseudo)
        pseudo_t = sum(w * b for (_, b), w in pseudo)
        pseudo_a = sum(w * a for (a, _), w in pseudo)
        p1 = sum(t * w for t, w in self.player1_strategy.items())
        nan = math.nan
        return (p1, bloc_t / bloc_w if bloc_w else nan, pseudo_t / pseudo_w if pseudo_w else nan,
                pseudo_a / pseudo_w if pseudo_w else nan, pseudo_w)


def solve_pseudo_bloc(size: int, mesh, coalition_mesh=None, tol: float = 1e-12,
                      certify_result: bool = True) -> Solution:
    """Solve the 1 v. N pseudo-bloc recursive game on an explicit mesh (paper §5).

    Same computation as ``solve_coalition(size, mesh, "pseudo-bloc", solver="oracle")``
    — player 1's fixed point from ``V_0 = -1``, the coalition's from ``W_0 = -N``,
    Newton steps, double-oracle stage solves, Theorem 1.2 certificates — on a
    :class:`PseudoBlocStage`, whose memory and cost per entry do not grow with N.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    mesh : array_like
        Player 1's thresholds (e.g. :func:`threshold_mesh`).
    coalition_mesh : array_like, optional
        The coalition members' thresholds (default: ``mesh``).
    tol : float
        Fixed-point tolerance.
    certify_result : bool
        Compute the Theorem 1.2 certificates.

    Returns
    -------
    LargeNResult
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1, MAX_SIZE)
    tol = check_positive_float("tol", tol, maximum=MAX_FIXED_POINT_TOL)
    stage = PseudoBlocStage(size, mesh, coalition_mesh)
    check_recursive_grid(stage.row_thresholds, "mesh")
    check_recursive_grid(stage.col_grid, "mesh" if coalition_mesh is None else "coalition_mesh")
    common = dict(solver="oracle", method="newton", tol=tol)
    with warnings.catch_warnings(record=True) as caught:
        # On fine meshes neighbouring columns differ by ~1e-12 and the restricted LPs
        # (HiGHS) stop the double oracle at gaps of ~1e-11 > its 1e-13 target.  Those
        # warnings are held back and judged below against the certificates, which
        # check the final strategies on the whole game independently of the LPs.
        warnings.simplefilter("always", ConvergenceWarning)
        both = solve_both_sides(stage, -1.0, -float(size), certify_result=certify_result, **common)
    p1, co, lo, hi = both.row, both.col, both.certified_lower, both.certified_upper
    held = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    for w in caught:
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    converged = bool(both.converged)
    if held and not (converged and hi - lo <= HELD_WARNING_WIDTH):
        for w in held:
            warnings.warn(str(w.message), ConvergenceWarning, stacklevel=2)
    g = stage.row_thresholds
    x, y = p1.row_strategy, co.row_strategy
    J = np.flatnonzero(y > SUPPORT_TOL)
    a, b = stage.profile_parts(J)
    return Solution.of(LargeNResult(
        size=size, points=int(g.size), coalition_value=float(co.value), player1_value=float(p1.value),
        certified_lower=float(lo), certified_upper=float(hi),
        player1_strategy=support(x, lambda i: float(g[i])),
        coalition_strategy={(float(a[k]), float(b[k])): float(y[j]) for k, j in enumerate(J)},
        converged=converged, num_iter=both.num_iter, num_solves=both.num_solves, inner_warnings=len(held),
        seconds=time.perf_counter() - t0, grid=g, player1=p1, coalition=co,
    ))
