"""Adaptive mesh refinement: the value of the continuous pseudo-bloc game for one N (see
:mod:`guts.games.guts.large_n`).
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_int, check_positive_float
from guts.engine.result import Certificate, Details, Solution, interval
from guts.errors import ConvergenceWarning
from guts.games.guts.large_n.bracket import ValueBracket, bracket_value
from guts.games.guts.large_n.mesh import threshold_mesh
from guts.games.guts.large_n.solve import MAX_SIZE, LargeNResult, solve_pseudo_bloc


@dataclass(frozen=True)
class LargeNValue(Details):
    """The 1 v. N pseudo-bloc value with thresholds in [0, 1], by adaptive mesh refinement.

    Attributes
    ----------
    size : int
        Coalition size N.
    value : float
        The coalition's value of the final (refined) mesh game.
    lower, upper : float
        Certified bracket for the coalition's value of the continuous pseudo-bloc
        game (:class:`ValueBracket` of the final mesh solution), rigorous in floating
        point: the rounding bound is inside it, not added on top.
    rounds : int
        Mesh solves.
    points : int
        Thresholds in the final mesh.
    converged : bool
        ``upper - lower <= target_width`` and the fixed points converged.
    history : tuple of (points, value, lower, upper)
        One entry per round: the refinement study.
    player1_strategy, coalition_strategy : dict
        Final mesh strategies (``{threshold: p}``, ``{(free, bloc): p}``).
    mesh_result : LargeNResult
        The final mesh solution.
    seconds : float
    rounding : float
        The floating-point error bounds included in ``[lower, upper]`` (both sides;
        ~1e-13 at every N, :mod:`guts.games.guts.continuum.rounding`).
    rigorous : bool
        Both certificates hold with a converged branch and bound.

    The :class:`~guts.engine.result.Result` protocol: here ``value`` is the *coalition's*
    (the curve V(N) of the paper's Figure 3) and the ``certificate`` is the interval
    ``[lower, upper]`` that brackets it; ``values = (player 1's, coalition's)`` of the final
    mesh; ``num_iter = rounds``.
    """

    size: int
    value: float
    lower: float
    upper: float
    rounds: int
    points: int
    converged: bool
    history: tuple
    player1_strategy: dict
    coalition_strategy: dict
    seconds: float
    rounding: float
    rigorous: bool
    mesh_result: LargeNResult = field(repr=False)
    bracket: ValueBracket = field(repr=False)

    values = property(lambda self: (self.mesh_result.player1_value, self.value),
                      doc="``(player 1's, coalition's)`` value of the final mesh.")
    strategies = property(lambda self: (self.player1_strategy, self.coalition_strategy))
    num_iter = property(lambda self: self.rounds)
    method = "refined-mesh"

    @property
    def certificate(self) -> Certificate:
        """The rigorous bracket ``[lower, upper]`` of the coalition's value."""
        return interval(self.lower, self.upper)

    @property
    def width(self) -> float:
        """``upper - lower``."""
        return self.upper - self.lower


def _local_points(thresholds, delta: float, count: int) -> np.ndarray:
    """``2 count + 1`` thresholds around each ``t`` with gaps ``(1 - t) e^(k delta)`` (log spacing)."""
    t = np.asarray([v for v in thresholds if 0.0 < v < 1.0], dtype=float)
    if t.size == 0:
        return np.empty(0)
    k = np.arange(-count, count + 1)
    pts = 1.0 - np.outer(1.0 - t, np.exp(delta * k)).ravel()
    return pts[(pts >= 0.0) & (pts <= 1.0)]


#: Widest ``target_width`` accepted: one ante, the unit of every value of the study (player 1's
#: forfeit is -1); a bracket that wide certifies nothing about the game.
MAX_TARGET_WIDTH = 1.0
#: Most mesh solves (``max_iterations``) accepted: each round adds points around the support.
MAX_ROUNDS = 1000


def solve_large_n(size: int, mesh: int = 100, max_iterations: int = 10, target_width: float = 1e-9,
                  s_min: float = 0.02, local: int = 4, warn: bool = True) -> Solution:
    """Value of the 1 v. N pseudo-bloc game with continuous thresholds (paper §5, large N).

    Round 0 solves on :func:`threshold_mesh` ``(size, mesh)``.  Each round then
    brackets the continuous game's value (:func:`bracket_value`) and refines the
    mesh where the strategies live: it adds both continuous best responses and
    ``2 local + 1`` points with log-spaced gaps ``1 - p`` around every support
    threshold, the spacing shrinking four-fold per round.  It stops when the
    bracket is narrower than ``target_width``.  The bracket is rigorous in floating
    point (its width includes the rounding bound, ``rounding``), so ``target_width``
    bounds the certified width itself.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    mesh : int
        Points of the initial scaled mesh (>= 10; was ``points``).
    max_iterations : int
        Mesh solves at most (was ``max_rounds``), 1 to :data:`MAX_ROUNDS`.
    target_width : float
        Stop when ``upper - lower <= target_width``; in (0, :data:`MAX_TARGET_WIDTH`].
    s_min : float
        Smallest scaled gap ``N (1 - p)`` of the initial mesh.
    local : int
        Refinement points each side of a support threshold.
    warn : bool
        Warn (ConvergenceWarning) if the bracket is still wider than ``target_width``.

    Returns
    -------
    LargeNValue

    Examples
    --------
    >>> v = solve_large_n(1, mesh=30)          # 2-player Guts is fair (Prop. 3.3)
    >>> abs(v.lower) < 1e-9 and abs(v.upper) < 1e-9
    True
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1, MAX_SIZE)
    points = check_int("mesh", mesh, 10)
    max_rounds = check_int("max_iterations", max_iterations, 1, MAX_ROUNDS)
    target_width = check_positive_float("target_width", target_width, maximum=MAX_TARGET_WIDTH)
    local = check_int("local", local, 1)
    mesh = threshold_mesh(size, points, "scaled", s_min)
    delta = math.log(size / s_min) / (points - 2)  # log spacing of the scaled mesh
    history = []
    for rnd in range(max_rounds):
        res = solve_pseudo_bloc(size, mesh)
        br = bracket_value(res)
        history.append((int(mesh.size), res.coalition_value, br.lower, br.upper))
        if br.width <= target_width or rnd == max_rounds - 1:
            break
        responses = [t for t in (br.player1_response, *br.coalition_response) if math.isfinite(t)]
        support = [*res.player1_strategy, *(t for prof in res.coalition_strategy for t in prof), *responses]
        delta /= 4.0
        mesh = np.union1d(mesh, np.concatenate([_local_points(support, delta, local), responses]))
    converged = bool(br.width <= target_width and res.converged and br.rigorous)
    if warn and not converged:
        warnings.warn(f"1 v. {size}: bracket width {br.width:.3e} after {len(history)} rounds "
                      f"(target {target_width:.1e}, fixed points converged: {res.converged}, "
                      f"certificates rigorous: {br.rigorous})",
                      ConvergenceWarning, stacklevel=2)
    return Solution.of(LargeNValue(
        size=size, value=res.coalition_value, lower=br.lower, upper=br.upper, rounds=len(history),
        points=int(mesh.size), converged=converged, history=tuple(history),
        player1_strategy=res.player1_strategy, coalition_strategy=res.coalition_strategy,
        seconds=time.perf_counter() - t0, rounding=br.rounding, rigorous=br.rigorous, mesh_result=res, bracket=br,
    ))
