"""Player 1 against a coalition of N in n = N + 1 player continuous Guts (paper §5).

:func:`solve_coalition` builds the stage game (player 1's thresholds against the
coalition's structured profiles), runs the fixed point from both sides — player 1
from ``V_0 = -1`` and the coalition from ``W_0 = -N`` — and certifies both ends
with Theorem 1.2.  This reproduces one row of Table 1.

Examples
--------
>>> from guts import solve_coalition
>>> r = solve_coalition(size=1, mesh=101)
>>> abs(r.coalition_value) < 1e-9        # 2-player guts is fair (Proposition 3.3)
True
>>> r = solve_coalition(size=2, mesh=101, solver="oracle")
>>> round(r.coalition_value, 4), r.certified_width < 1e-8     # the paper's Table 1 prints 0.0132
(0.0132, True)
"""
from __future__ import annotations

from guts.games.guts.result import OneVsCoalition
from guts.engine.tolerances import MAX_FIXED_POINT_TOL

import math
import time
from dataclasses import dataclass, field

import numpy as np

from guts._validate import (check_bool, check_choice, check_int, check_memory, check_positive_float,
                            check_random_state, check_thresholds)
from guts.games.guts.strategies import (MAX_MESH_POINTS, STRUCTURES, check_recursive_grid, coalition_profiles,
                                        count_profiles, resolve_grid)
from guts.engine.recursive import (METHODS, SOLVERS, StrategyBound, FixedPointResult,
                                   solve_both_sides, support)
from guts.engine.tolerances import FIXED_POINT_TOL
from guts.games.guts.stage import GutsStage
from guts.engine.result import Solution

__all__ = ["CoalitionResult", "solve_coalition", "coalition_stage", "format_profile", "coalition_bytes",
           "check_coalition_memory"]


@dataclass(frozen=True)
class CoalitionResult(OneVsCoalition):
    """Solution of the 1 v. N recursive game.

    Attributes
    ----------
    size, mesh, structure, solver, method
        What was solved (``mesh`` is player 1's number of mesh points).
    player1_value : float
        ``lower``: the value player 1 forces, iterating from ``V_0 = -1``.
    coalition_value : float
        The value the coalition forces, iterating from ``W_0 = -N`` (Table 1
        "Opponent Value").
    lower, upper : float
        Player 1's value from below and from above (``upper = -coalition_value``).
    player1_strategy : dict
        ``{threshold: probability}`` at the fixed point (player 1 side).
    coalition_strategy : dict
        ``{(p_2, ..., p_{N+1}): probability}`` at the fixed point (coalition side).
    iterations : int
        Player 1's outer iterations; ``history`` its iterates ``V_0, V_1, ...``.
    coalition_iterations, coalition_history
        The same for the coalition (its own value, starting at ``-N``).
    converged : bool
        Both sides converged.
    num_iter : int
        Outer iterations, both sides.
    player1, coalition : FixedPointResult
        The raw results of both fixed points.
    certificate_lower, certificate_upper : StrategyBound
        Theorem 1.2 for player 1's strategy (from -1) and the coalition's (from -N).
    certified_lower, certified_upper : float
        Rigorous interval for player 1's value of the discretized game (``nan`` if
        a certificate failed).
    num_solves : int
        Inner matrix-game solves, both sides, including the attraction probes.
    seconds : float
        Wall time.
    """

    size: int
    mesh: int
    structure: str
    solver: str
    method: str
    player1_value: float
    coalition_value: float
    lower: float
    upper: float
    player1_strategy: dict
    coalition_strategy: dict
    iterations: int
    history: tuple
    coalition_iterations: int
    coalition_history: tuple
    converged: bool
    num_iter: int
    player1: FixedPointResult = field(repr=False)
    coalition: FixedPointResult = field(repr=False)
    certificate_lower: StrategyBound = field(repr=False)
    certificate_upper: StrategyBound = field(repr=False)
    certified_lower: float
    certified_upper: float
    num_solves: int
    seconds: float
    player1_grid: np.ndarray = field(repr=False)
    coalition_profiles: np.ndarray = field(repr=False)


    @property
    def epsilon(self) -> float:
        """Theorem 1.3 rate of player 1's certificate, ``f(-1)``."""
        return self.certificate_lower.epsilon

    def coalition_components(self):
        """Coalition support as a list of ``(profile, probability)``, heaviest first."""
        return sorted(self.coalition_strategy.items(), key=lambda kv: -kv[1])


def coalition_stage(size: int, mesh=101, structure: str = "pseudo-bloc", coalition_mesh=None) -> GutsStage:
    """The one-round game of player 1 (rows) against a coalition of ``size`` (columns).

    ``mesh`` and ``coalition_mesh`` are a number of uniform points (>= 2) or an
    explicit array of thresholds in [0, 1]; the coalition uses player 1's mesh
    unless told otherwise.
    """
    size = check_int("size", size, 1)
    check_choice("structure", structure, STRUCTURES)
    g1 = resolve_grid(mesh, "mesh")
    gc = g1 if coalition_mesh is None else resolve_grid(coalition_mesh, "coalition_mesh")
    return GutsStage(g1, coalition_profiles(size, gc, structure))


def _points(mesh) -> int:
    """Number of thresholds a mesh argument stands for, without building it."""
    if isinstance(mesh, (int, np.integer, float, np.floating)) and not isinstance(mesh, bool):
        return check_int("mesh", mesh, 2, MAX_MESH_POINTS)
    return int(check_thresholds("mesh", mesh).size)


#: Float64 words per stage-matrix entry at the LP's peak: ``A``, ``B``, ``A + B V`` and HiGHS's
#: row- and column-wise sparse copies with their presolve (measured 20-26 on 1 v. 2 and 1 v. 3
#: pseudo-bloc, meshes 101 and 201).
LP_FLOATS_PER_ENTRY = 34
#: Full rows and columns (float64) the double oracle holds at its peak, per row of player 1
#: (measured 69 lines at R = 41, 1 v. 4 full, and 119 at R = 61, 1 v. 3 full: the restricted
#: game grows with the oracle's iterations, bounded by the rows).
ORACLE_LINES_PER_ROW = 3
#: Float64 words per stage-matrix entry for fictitious play (``A``, ``B``, ``A + B V`` and the
#: running payoff sums; measured 11 on 1 v. 2 pseudo-bloc, mesh 101).
FP_FLOATS_PER_ENTRY = 16


def coalition_bytes(size: int, points: int, coalition_points: int, structure: str, solver: str) -> float:
    """Estimated peak memory of :func:`solve_coalition` in bytes (checked before allocating).

    The coalition profiles (``C x N`` floats), the temporaries of the closed-form payoff
    (blocks of up to 4096 sorted profiles, about six arrays), and the stage matrices:
    dense ``A`` and ``B`` and, for the LP, HiGHS's sparse copies (:data:`LP_FLOATS_PER_ENTRY`
    per entry); for fictitious play :data:`FP_FLOATS_PER_ENTRY` per entry; for the double
    oracle :data:`ORACLE_LINES_PER_ROW` full rows and columns per row of player 1.  Calibrated against the peak resident
    memory by ``benchmarks/memory_calibration.py`` (docs/performance.md, "Memory pre-flight").
    """
    C = count_profiles(size, coalition_points, structure)
    R = points
    profiles = 8.0 * C * size
    block = min(C, 4096)
    temporaries = 6 * 8.0 * block * (size + 2) + 5 * 8.0 * R * block
    if solver == "oracle":
        matrices = ORACLE_LINES_PER_ROW * R * 8.0 * (R + C)
    elif solver == "lp":
        matrices = LP_FLOATS_PER_ENTRY * 8.0 * R * C
    else:
        matrices = FP_FLOATS_PER_ENTRY * 8.0 * R * C
    return profiles + temporaries + matrices


def check_coalition_memory(size: int, mesh=101, structure: str = "pseudo-bloc", solver: str = "oracle",
                           coalition_mesh=None) -> None:
    """Refuse (GutsInputError) a 1 v. N game whose :func:`coalition_bytes` exceed the memory budget."""
    points = _points(mesh)
    try:
        nbytes = coalition_bytes(size, points, _points(mesh if coalition_mesh is None else coalition_mesh),
                                 structure, solver)
    except OverflowError:   # more columns than a float can count: far beyond any budget
        nbytes = math.inf
    check_memory(f"the 1 v. {size} game ({structure}, mesh {points}, solver {solver!r})", nbytes,
                 "use a smaller mesh or coalition" + ("" if solver == "oracle" else ", or solver='oracle'"))


def solve_coalition(size: int, mesh=101, structure: str = "pseudo-bloc", solver: str = "oracle",
                    method: str = "newton", coalition_mesh=None, tol: float = FIXED_POINT_TOL,
                    max_iterations: int = 10_000, fp_iterations: int = 10_000, random_state=None,
                    certify_result: bool = True) -> Solution:
    """Solve the 1 v. N recursive Guts game (one row of Table 1, paper §5).

    Parameters
    ----------
    size : int
        Coalition size N >= 1 (n = N + 1 players).
    mesh : int or array_like
        Player 1's thresholds: a number of uniform mesh points (>= 2; the paper uses
        101) or explicit thresholds in [0, 1].
    structure : {"pseudo-bloc", "bloc", "full", "product"}
        Coalition strategy space (:mod:`guts.games.guts.strategies`).
    solver : {"oracle", "lp", "fp"}
        Inner matrix-game solver: double oracle (default: exact LP on generated rows
        and columns, the fastest), one full LP per stage game (HiGHS), or nashpy
        fictitious play (the paper's method, approximate).
    method : {"newton", "iterate"}
        Fixed-point method (:func:`guts.engine.recursive.fixed_point`).
    coalition_mesh : int or array_like, optional
        Coalition members' thresholds, if different from player 1's.
    tol : float
        Fixed-point tolerance.
    fp_iterations : int
        Fictitious-play rounds per stage game (``solver="fp"``).
    random_state : int or numpy.random.Generator, optional
        Tie-breaking seed for fictitious play.
    certify_result : bool
        Compute the Theorem 1.2 certificates (cheap); without them ``converged`` is False
        (nothing certifies the values).

    Returns
    -------
    CoalitionResult
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    certify_result = check_bool("certify_result", certify_result)
    random_state = check_random_state("random_state", random_state)
    check_choice("solver", solver, SOLVERS)
    check_choice("method", method, METHODS)
    check_positive_float("tol", tol, maximum=MAX_FIXED_POINT_TOL)
    check_choice("structure", structure, STRUCTURES)
    check_coalition_memory(size, mesh, structure, solver, coalition_mesh)
    stage = coalition_stage(size, mesh, structure, coalition_mesh)
    check_recursive_grid(stage.row_thresholds, "mesh")
    check_recursive_grid(stage.col_profiles, "mesh" if coalition_mesh is None else "coalition_mesh")
    # player 1 from -1, the coalition from -N; each capped at what the other forfeits by leaving
    both = solve_both_sides(stage, -1.0, -float(size), certify_result=certify_result, solver=solver,
                            method=method, tol=tol, max_iterations=max_iterations, fp_iterations=fp_iterations,
                            random_state=random_state)
    p1, co = both.row, both.col
    g1 = stage.row_thresholds
    prof = stage.col_profiles
    x = p1.row_strategy
    y = co.row_strategy
    p1_strat = support(x, lambda i: float(round(g1[i], 12)))
    co_strat = support(y, lambda j: tuple(float(round(v, 12)) for v in prof[j]))
    return Solution.of(CoalitionResult(
        size=size, mesh=g1.size, structure=structure, solver=solver, method=method,
        player1_value=p1.value, coalition_value=co.value, lower=p1.value, upper=-co.value,
        player1_strategy=p1_strat, coalition_strategy=co_strat,
        iterations=p1.num_iter, history=p1.history,
        coalition_iterations=co.num_iter, coalition_history=co.history,
        converged=both.converged, num_iter=both.num_iter, player1=p1, coalition=co,
        certificate_lower=both.certificate_lower, certificate_upper=both.certificate_upper,
        certified_lower=both.certified_lower, certified_upper=both.certified_upper,
        num_solves=both.num_solves, seconds=time.perf_counter() - t0,
        player1_grid=g1, coalition_profiles=prof,
    ))


def format_profile(profile) -> str:
    """Compact coalition profile: runs of equal thresholds as ``value*count``, joined by ``/``.

    >>> format_profile((0.0, 0.97, 0.97, 0.97))
    '0/0.97*3'
    """
    parts = []
    vals = [float(v) for v in profile]
    k = 0
    while k < len(vals):
        j = k
        while j + 1 < len(vals) and abs(vals[j + 1] - vals[k]) <= 1e-12:
            j += 1
        run = j - k + 1
        parts.append(f"{vals[k]:g}" + (f"*{run}" if run > 1 else ""))
        k = j + 1
    return "/".join(parts)
