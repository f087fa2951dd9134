"""Solving Liar's Dice: the sequence-form LP with an exact rational certificate, or CFR+.

``solve(dice, faces, method="lp")`` solves :func:`~guts.games.liars_dice.game.liars_dice` with
the engine's sequence-form LP (Koller, Megiddo and von Stengel, *Efficient Computation of
Equilibria for Extensive Two-Person Games*, 1996), reconstructs rational strategies from the
floating-point solution and verifies them by exact best responses in rational arithmetic
(:func:`guts.engine.extensive.rational.certify_exact`): when both players' rational strategies
give the same exact value, ``exact_value`` is that fraction.  ``method="cfr+"`` (or ``"dcfr"``,
``"pcfr+"``) runs the engine's CFR+ (Tammelin, *Solving Large Imperfect Information Games Using
CFR+*, 2014) for games whose LP is out of reach and reports the bracket its best responses give.

The LP's memory is checked from :func:`~guts.games.liars_dice.game.size` before the game is built.
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ...engine.extensive import ExtensiveResult
from ...engine.result import Certificate, interval
from ...engine.tolerances import LP_MEMORY_LIMIT, LP_TOL, RATIONAL_MAX_DENOMINATORS
from ..._validate import check_bool, check_choice, check_positive_float
from ...errors import ConvergenceWarning, GutsInputError
from .game import check_dice, liars_dice, size
from guts.engine.result import Solution

__all__ = ["solve", "LiarsDiceResult", "METHODS"]

#: Methods of :func:`solve`.
METHODS = ("lp", "cfr+", "dcfr", "pcfr+")


@dataclass(frozen=True)
class LiarsDiceResult(ExtensiveResult):
    """:class:`~guts.engine.extensive.ExtensiveResult` of a Liar's Dice solve, with its exact value.

    Besides the engine's fields (``value``, ``strategies``, ``exploitability`` ...):

    Attributes
    ----------
    exact_value : Fraction or None
        Player 0's value, exactly, when the rational strategies' exact best responses meet
        (``exact_lower == exact_upper``); else ``None``.
    exact_lower, exact_upper : Fraction or None
        The exact bracket from the rational strategies (``method="lp"``, ``exact=True``).
    lower, upper : float
        The certified bracket of the value: the exact one as floats when it was computed,
        else ``[-BR_1, BR_0]`` of the float strategies (best responses in float64).
    exact_strategies : tuple of dict or None
        The rational strategies (``[p][history]`` = rows of fractions) giving the bracket.
    exact_seconds : float
        Time of the rational reconstruction and verification (not in ``seconds``).
    max_denominators : tuple
        Denominator bounds of the kept rational strategies (player 0, player 1).
    dice, faces : tuple, int
        The game.

    ``certificate`` is an ``interval``: ``[lower, upper]`` (width 0 when the value is exact);
    ``converged`` is the solver's own (LP: exploitability within tolerance; CFR+: its target).
    """

    exact_value: Fraction | None = None
    exact_lower: Fraction | None = None
    exact_upper: Fraction | None = None
    lower: float = math.nan
    upper: float = math.nan
    exact_strategies: tuple = field(default=None, repr=False)
    exact_seconds: float = 0.0
    max_denominators: tuple = ()
    dice: tuple = (1, 1)
    faces: int = 6

    @property
    def certificate(self) -> Certificate:
        base = ExtensiveResult.certificate.fget(self)
        c = interval(self.lower, self.upper)
        return Certificate("interval", lower=c.lower, upper=c.upper, gap=c.gap,
                                 exploitability=base.exploitability, nash_conv=base.nash_conv,
                                 max_regret=base.max_regret)

    @property
    def bracket(self) -> tuple:
        """``(lower, upper)``."""
        return (self.lower, self.upper)

    def summary(self) -> dict:
        row = super().summary()
        row.update(exact_value=None if self.exact_value is None else str(self.exact_value),
                   lower=self.lower, upper=self.upper)
        return row


def solve(dice=(1, 1), faces: int = 6, *, method: str = "lp", exact: bool = True,
          max_denominators=RATIONAL_MAX_DENOMINATORS, tol: float = LP_TOL,
          memory_limit: float | None = LP_MEMORY_LIMIT, time_limit: float | None = None,
          max_iterations: int | None = None, target: float | None = None, progress: bool = False,
          game=None) -> Solution:
    """Solve two-player Liar's Dice; with the LP, its exact rational value.

    Parameters
    ----------
    dice : pair of int
        Dice of player 0 and player 1.
    faces : int
        Faces per die (the highest is wild).
    method : {"lp", "cfr+", "dcfr", "pcfr+"}
        The sequence-form LP (:func:`guts.engine.extensive.solve_lp`) or an iterative method
        (:func:`guts.engine.extensive.cfr_plus` with that ``variant``).
    exact : bool
        LP only: reconstruct rational strategies and verify them by exact best responses
        (:func:`guts.engine.extensive.rational.certify_exact`).
    max_denominators : sequence of int
        Denominator bounds of the reconstruction, tried in turn.
    tol, memory_limit, time_limit : float
        Passed to the LP (``time_limit`` also to CFR+); the LP's memory (:func:`size`) is checked
        against ``memory_limit`` before the game is built.
    max_iterations, target, progress : int, float, bool
        Passed to CFR+ (``target``: exploitability); ``max_iterations`` and ``target`` are refused
        with ``method="lp"`` (exact: nothing would read them).
    game : PublicTreeGame, optional
        ``liars_dice(dice, faces)`` already built.

    Returns
    -------
    LiarsDiceResult

    Raises
    ------
    GutsInputError
        Bad arguments, or a game or LP over the memory budget (estimated before building).
    """
    from ...engine.extensive import cfr_plus, solve_lp
    from ...engine.extensive.rational import certify_exact

    (n0, n1), faces = check_dice(dice, faces)
    method = check_choice("method", method, METHODS)
    exact = check_bool("exact", exact)
    if method == "lp" and (max_iterations is not None or target is not None):
        # the LP is exact: a budget or a target given to it would be silently ignored
        raise GutsInputError("max_iterations and target apply to 'cfr+', 'dcfr' and 'pcfr+'; the LP is exact "
                             f"(got max_iterations={max_iterations!r}, target={target!r}); accepted: None with "
                             "method='lp'")
    if method == "lp" and memory_limit is not None:
        memory_limit = check_positive_float("memory_limit", memory_limit)
        need = size((n0, n1), faces)
        if need.lp_bytes > memory_limit:
            raise GutsInputError(
                f"the sequence-form LP of Liar's Dice {n0}v{n1} with {faces} faces would need about "
                f"{need.lp_bytes / 2**30:.2f} GiB ({need.lp_nonzeros} payoff non-zeros); accepted: memory_limit >= "
                f"that (now {memory_limit / 2**30:.2f} GiB), or method='cfr+'")
    if game is None:
        game = liars_dice((n0, n1), faces)
    t0 = time.perf_counter()
    if method == "lp":
        r = solve_lp(game, tol=tol, memory_limit=memory_limit, time_limit=time_limit)
    else:
        r = cfr_plus(game, variant=method, max_iterations=max_iterations, target=target, time_limit=time_limit,
                     progress=progress)
    seconds = time.perf_counter() - t0
    br = np.asarray(r.br_values, dtype=float)
    lower, upper = -float(br[1]), float(br[0])
    fields = {}
    if method == "lp" and exact:
        c = certify_exact(game, r.strategies, max_denominators=max_denominators)
        lower, upper = float(c.lower), float(c.upper)
        fields = dict(exact_value=c.value, exact_lower=c.lower, exact_upper=c.upper, exact_strategies=c.strategies,
                      exact_seconds=c.seconds, max_denominators=c.max_denominators)
        if c.value is None:
            warnings.warn(f"Liar's Dice {n0}v{n1}, {faces} faces: the rational reconstruction gives the exact "
                          f"bracket [{c.lower}, {c.upper}] (width {float(c.upper - c.lower):.3g}), not one value",
                          ConvergenceWarning, stacklevel=2)
    base = {k: getattr(r, k) for k in ("value", "values", "strategies", "exploitability", "nash_conv", "converged",
                                       "num_iter", "history", "method", "br_values", "regrets")}
    base["seconds"] = seconds
    return Solution.of(LiarsDiceResult(**base, lower=lower, upper=upper, dice=(n0, n1), faces=faces, **fields))
