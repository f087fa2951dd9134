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
>>> round(r.coalition_value, 6), r.certified_width < 1e-8     # Table 1: 0.0132
(0.013152, True)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_choice, check_int, check_positive_float
from guts.games.guts.strategies import STRUCTURES, coalition_profiles, pseudo_bloc_parts, resolve_grid
from guts.engine.recursive import METHODS, SOLVERS, Certificate, FixedPointResult, certify, fixed_point
from guts.games.guts.stage import GutsStage

__all__ = ["CoalitionResult", "solve_coalition", "coalition_stage", "table1_row", "format_profile"]

SUPPORT_TOL = 1e-9


@dataclass(frozen=True)
class CoalitionResult:
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
    player1, coalition : FixedPointResult
        The raw results of both fixed points.
    certificate_lower, certificate_upper : Certificate
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
    player1: FixedPointResult = field(repr=False)
    coalition: FixedPointResult = field(repr=False)
    certificate_lower: Certificate = field(repr=False)
    certificate_upper: Certificate = field(repr=False)
    certified_lower: float
    certified_upper: float
    num_solves: int
    seconds: float
    player1_grid: np.ndarray = field(repr=False)
    coalition_profiles: np.ndarray = field(repr=False)

    @property
    def certified_width(self) -> float:
        """``certified_upper - certified_lower`` (nan if a certificate failed)."""
        return self.certified_upper - self.certified_lower

    @property
    def epsilon(self) -> float:
        """Theorem 1.3 rate of player 1's certificate, ``f(-1)``."""
        return self.certificate_lower.epsilon

    def coalition_components(self):
        """Coalition support as a list of ``(profile, probability)``, heaviest first."""
        return sorted(self.coalition_strategy.items(), key=lambda kv: -kv[1])

    def summary(self) -> dict:
        """The Table 1 columns for this row (see :func:`table1_row`)."""
        return table1_row(self)


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


def solve_coalition(size: int, mesh=101, structure: str = "pseudo-bloc", solver: str = "lp",
                    method: str = "newton", coalition_mesh=None, tol: float = 1e-11,
                    max_iter: int = 10_000, fp_iterations: int = 10_000, random_state=None,
                    certify_result: bool = True) -> CoalitionResult:
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
    solver : {"lp", "fp", "oracle"}
        Inner matrix-game solver: exact LP (HiGHS), nashpy fictitious play (the
        paper's method, approximate), or double oracle (exact LP on generated rows
        and columns; fastest).
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
        Compute the Theorem 1.2 certificates (cheap).

    Returns
    -------
    CoalitionResult
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    check_choice("solver", solver, SOLVERS)
    check_choice("method", method, METHODS)
    check_positive_float("tol", tol)
    stage = coalition_stage(size, mesh, structure, coalition_mesh)
    common = dict(solver=solver, method=method, tol=tol, max_iter=max_iter,
                  fp_iterations=fp_iterations, random_state=random_state)
    # The other side forfeits its antes by leaving: caps of N (player 1) and 1 (coalition).
    p1 = fixed_point(stage, v0=-1.0, cap=float(size), **common)
    co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **common)
    if certify_result:
        cert_lo = certify(stage, strategy=p1.row_strategy, v_start=-1.0)
        cert_hi = certify(stage.transpose(), strategy=co.row_strategy, v_start=-float(size))
    else:
        nan = Certificate(False, math.nan, math.nan, math.nan, "not computed")
        cert_lo = cert_hi = nan
    certified_lower = cert_lo.v_certified if cert_lo.valid else math.nan
    certified_upper = -cert_hi.v_certified if cert_hi.valid else math.nan
    g1 = stage.row_thresholds
    prof = stage.col_profiles
    x = p1.row_strategy
    y = co.row_strategy
    p1_strat = {float(round(g1[i], 12)): float(x[i]) for i in np.flatnonzero(x > SUPPORT_TOL)}
    co_strat = {tuple(float(round(v, 12)) for v in prof[j]): float(y[j]) for j in np.flatnonzero(y > SUPPORT_TOL)}
    return CoalitionResult(
        size=size, mesh=g1.size, structure=structure, solver=solver, method=method,
        player1_value=p1.value, coalition_value=co.value, lower=p1.value, upper=-co.value,
        player1_strategy=p1_strat, coalition_strategy=co_strat,
        iterations=p1.num_iter, history=p1.history,
        coalition_iterations=co.num_iter, coalition_history=co.history,
        converged=p1.converged and co.converged, player1=p1, coalition=co,
        certificate_lower=cert_lo, certificate_upper=cert_hi,
        certified_lower=certified_lower, certified_upper=certified_upper,
        num_solves=p1.num_solves + co.num_solves, seconds=time.perf_counter() - t0,
        player1_grid=g1, coalition_profiles=prof,
    )


def _fmt_support(items) -> str:
    return " ".join(f"{k}:{v:.6f}" for k, v in items)


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


def table1_row(r: CoalitionResult) -> dict:
    """The Table 1 columns for one solved row.

    ``player1_strategy`` is player 1's heaviest support threshold.  Coalition
    components ``(p_2, p_3, ..., p_3)`` are split into *bloc* ones, whose free
    member is within one mesh step of the others (on a mesh the continuous bloc
    threshold is often straddled by two neighbouring points), and *pseudo-bloc*
    ones (the paper's has ``p_2 = 0``: always hold).  ``bloc_strategy`` is the common
    threshold ``p_3`` of the heaviest bloc component, ``pseudo_bloc_strategy`` the
    ``p_3`` of the heaviest pseudo-bloc one, ``pseudo_bloc_free`` its ``p_2`` and
    ``pseudo_bloc_weight`` the total weight of pseudo-bloc components.
    """
    p1 = sorted(r.player1_strategy.items(), key=lambda kv: -kv[1])
    step = 1.5 * float(np.min(np.diff(np.unique(r.coalition_profiles)))) if r.coalition_profiles.size > 1 else 0.0
    bloc, pseudo = [], []
    for prof, w in r.coalition_components():
        parts = pseudo_bloc_parts(prof)
        if parts is not None and abs(parts[0] - parts[1]) <= step:
            bloc.append((parts, w))
        elif parts is not None:
            pseudo.append((parts, w))
        else:
            pseudo.append(((math.nan, math.nan), w))
    co_items = [(format_profile(prof), w) for prof, w in r.coalition_components()]
    return {
        "N": r.size,
        "mesh": r.mesh,
        "structure": r.structure,
        "solver": r.solver,
        "method": r.method,
        "opponent_value": r.coalition_value,
        "value_lower": r.lower,
        "value_upper": r.upper,
        "certified_lower": r.certified_lower,
        "certified_upper": r.certified_upper,
        "epsilon": r.epsilon,
        "player1_strategy": p1[0][0],
        "bloc_strategy": bloc[0][0][1] if bloc else math.nan,
        "pseudo_bloc_strategy": pseudo[0][0][1] if pseudo else math.nan,
        "pseudo_bloc_free": pseudo[0][0][0] if pseudo else math.nan,
        "pseudo_bloc_weight": float(sum(w for _, w in pseudo)),
        "player1_support": _fmt_support(p1),
        "coalition_support": _fmt_support(co_items),
        "iterations": r.iterations,
        "coalition_iterations": r.coalition_iterations,
        "num_solves": r.num_solves,
        "converged": r.converged,
        "seconds": r.seconds,
    }
