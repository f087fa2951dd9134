"""CFR+ and discounted CFR (DCFR), n players, vectorised over information types.

Counterfactual regret minimisation (Zinkevich et al. 2007) on the public tree: an
information set is (public decision node, type), so one bottom-up pass over the public
tree per player and iteration computes the counterfactual values of *all* types at once
(:mod:`._kernels`).  Variants:

* ``"cfr+"`` (Tammelin 2014; Bowling et al. 2015): regret matching+ (cumulative regrets
  clipped at zero after every update), alternating updates, linear averaging (iteration
  ``t`` weighs ``t`` in the average strategy).  This is OpenSpiel's ``CFRPlusSolver``.
* ``"dcfr"`` (Brown & Sandholm 2019, DCFR_{alpha, beta, gamma}): after adding iteration
  ``t``'s regrets, positive cumulative regrets are multiplied by ``t^a / (t^a + 1)``,
  negative ones by ``t^b / (t^b + 1)``; iteration ``t`` weighs ``t^gamma`` in the
  average.  Defaults alpha = 1.5, beta = 0, gamma = 2 (the paper's recommendation);
  alternating updates.

The returned strategies are the average strategies (realisation-weighted, i.e. the
average of the mixed strategies), with their exploitability computed by the
best-response pass.
"""
from __future__ import annotations

import math
import numbers
import time
import warnings

import numpy as np

from ..._names import renamed
from ..progress import progress_bar
from ...errors import ConvergenceWarning, GutsInputError
from ..._validate import check_choice, check_int, check_positive_float
from . import _kernels as K
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks, uniform_flat
from .types import Game

__all__ = ["cfr_plus", "DEFAULT_ITERATIONS", "MAX_ITERATIONS_WITH_TARGET"]

#: Iterations when neither ``max_iterations``, ``target`` nor ``time_limit`` is given.
DEFAULT_ITERATIONS = 1000
#: Safety cap when only a target exploitability is given.
MAX_ITERATIONS_WITH_TARGET = 1_000_000


class _CFRState:
    """Regrets, cumulative strategies and current behaviour of every player."""

    def __init__(self, cg, variant, alpha, beta, gamma):
        self.cg = cg
        self.variant = variant
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.B = [uniform_flat(pt) for pt in cg.players]
        self.R = [K.reach(pt, B) for pt, B in zip(cg.players, self.B)]
        self.regret = [np.zeros_like(B) for B in self.B]
        self.avg = [np.zeros_like(B) for B in self.B]
        # sequence -> decision maps, per player
        self.seq_dec = [pt.seq_dec[1:] for pt in cg.players]

    def iterate(self, t: int):
        cg = self.cg
        for p, pt in enumerate(cg.players):
            if pt.num_decisions == 0:
                continue
            B = self.B[p]
            g = K.terminal_values(cg, p, self.R)
            V, Vdec = K.backup_mean(pt, g, B)
            delta = V[1:] - Vdec[self.seq_dec[p]]
            reg = self.regret[p][1:]
            # average strategy: realisation weights of the strategy played at iteration t
            own = self.R[p]
            if self.variant == "cfr+":
                w = float(t)
                self.avg[p][1:] += w * own[1:]
                reg += delta
                np.maximum(reg, 0.0, out=reg)
            else:
                w = float(t) ** self.gamma
                self.avg[p][1:] += w * own[1:]
                reg += delta
                ta = float(t) ** self.alpha
                tb = float(t) ** self.beta
                reg *= np.where(reg > 0, ta / (ta + 1.0), tb / (tb + 1.0))
            self.B[p] = normalise_blocks(pt, np.maximum(self.regret[p], 0.0))
            self.R[p] = K.reach(pt, self.B[p])

    def average(self):
        return [normalise_blocks(pt, A) for pt, A in zip(self.cg.players, self.avg)]


def _budget(iterations, target, time_limit):
    if iterations is not None:
        iterations = check_int("max_iterations", iterations, 1)
    if target is not None:
        target = check_positive_float("target", target)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    if iterations is None:
        iterations = MAX_ITERATIONS_WITH_TARGET if (target is not None or time_limit is not None) else DEFAULT_ITERATIONS
    return iterations, target, time_limit


@renamed(iterations="max_iterations", target_exploitability="target")
def cfr_plus(game: Game, *, max_iterations=None, target=None, time_limit=None,
             variant: str = "cfr+", report_every: int = 10, progress: bool = False,
             alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0) -> ExtensiveResult:
    """CFR+ or DCFR average strategies for an n-player game (zero-sum or not).

    Parameters
    ----------
    game : PublicTreeGame
    max_iterations : int, optional
        Iteration budget (default 1000 if no other stopping rule is given; a safety cap
        of 1e6 with only a target or a time limit).  Was ``iterations``.
    target : float, optional
        Stop at the first report where exploitability (NashConv / n) of the average
        strategy is ``<=`` this (the result's ``certificate`` is this exploitability);
        ConvergenceWarning if the budget ends first.  Was ``target_exploitability``.
    time_limit : float, optional
        Wall-clock budget in seconds (checked every iteration).
    variant : {"cfr+", "dcfr"}
    report_every : int
        Compute the exploitability of the average every ``report_every`` iterations
        (into ``history``; the final one is always computed).
    progress : bool
        a progress bar on stderr (:mod:`guts.engine.progress`).
    alpha, beta, gamma : float
        DCFR discount parameters (ignored by CFR+).

    Returns
    -------
    ExtensiveResult
        ``converged`` = the target was reached (with a target) / the iteration budget
        was completed (without one; False when stopped by ``time_limit``).
    """
    cg = _check_game(game)
    variant = check_choice("variant", variant, ("cfr+", "dcfr"))
    iterations, target, time_limit = _budget(max_iterations, target, time_limit)
    report_every = check_int("report_every", report_every, 1)
    for name, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise GutsInputError(f"{name} must be a finite number; got {v!r}")
    state = _CFRState(cg, variant, float(alpha), float(beta), float(gamma))
    n = cg.num_players
    t0 = time.perf_counter()
    history = []
    bar = None
    if progress:
        bar = progress_bar(total=iterations, desc=variant, enabled=True)
    reached = False
    timed_out = False
    t = 0
    last = None
    try:
        while t < iterations:
            t += 1
            state.iterate(t)
            if bar is not None:
                bar.update(1)
            if t % report_every == 0 or t == iterations:
                flat = state.average()
                ev, br, _ = K.values_and_br(cg, flat)
                expl = float(np.sum(br - ev)) / n
                last = (t, flat, ev, br)
                history.append((t, expl, time.perf_counter() - t0))
                if bar is not None:
                    bar.set_postfix(exploitability=f"{expl:.3g}")
                if target is not None and expl <= target:
                    reached = True
                    break
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                timed_out = True
                break
    finally:
        if bar is not None:
            bar.close()
    if last is None or last[0] != t:
        flat = state.average()
        ev, br, _ = K.values_and_br(cg, flat)
        history.append((t, float(np.sum(br - ev)) / n, time.perf_counter() - t0))
    else:
        _, flat, ev, br = last
    nc = float(np.sum(br - ev))
    if target is not None:
        converged = reached
        if not reached:
            warnings.warn(
                f"{variant}: exploitability {nc / n:.3g} after {t} iterations is above the "
                f"target {target:.3g}", ConvergenceWarning, stacklevel=2)
    else:
        converged = not timed_out
    return ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, flat), exploitability=nc / n,
        nash_conv=nc, converged=bool(converged), num_iter=t, history=tuple(history),
        seconds=time.perf_counter() - t0, method=variant, br_values=br)
