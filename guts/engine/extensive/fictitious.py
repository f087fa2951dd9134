"""Fictitious play on the public tree, as in Ullman 2015 (Mercer hold'em), Algorithm 1.

Ullman 2015 §2.2: start from the uniform profile ``s^0``; at time t every player's strategy
is updated simultaneously to

    s^t_i = (1 - 1/t) s^{t-1}_i + (1/t) r^{t-1}_i,

``r^{t-1}_i`` a (pure) best response to ``s^{t-1}_{-i}``; the regret of player i at time
t is ``u_i(r^t_i, s^t_{-i}) - u_i(s^t)`` and the run stops at the first t where every
player's regret is below epsilon.  (Algorithm 1 as printed never resets ``regret``
inside the loop and evaluates ``s^t_p`` against ``s^{t-1}_{-p}``; the text's definition
above is what we implement: the best responses computed for the stopping test at time t
are the ``r^t`` of the update at t + 1, so each iteration costs one best-response pass
per player.)

The average is a *mixed*-strategy average: realisation weights (sequence form) are
averaged with weight 1/t and turned back into behaviour, so ``s^t`` is exactly the
mixture "play r^k with probability 1/t" in every information set.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from ...errors import ConvergenceWarning
from ..._validate import check_int, check_positive_float
from . import _kernels as K
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks, uniform_flat

__all__ = ["fictitious_play", "FP_EPSILON", "FP_MAX_ITERATIONS"]

#: Default regret threshold (chips).
FP_EPSILON = 1e-3
#: Default iteration cap.
FP_MAX_ITERATIONS = 10_000


def fictitious_play(game, *, epsilon: float = FP_EPSILON, max_iterations: int = FP_MAX_ITERATIONS,
                    progress: bool = False, time_limit: float | None = None) -> ExtensiveResult:
    """Ullman 2015's fictitious play; stops when every player's regret is ``< epsilon``.

    Returns
    -------
    ExtensiveResult
        ``strategies`` = s^t, ``num_iter`` = t, ``converged`` = max regret < epsilon,
        ``history`` = (t, exploitability of s^t, seconds) for every t, ``regrets`` =
        array (t + 1, n) of every player's regret at times 0..t (Ullman 2015, Figure 2).
        ConvergenceWarning when ``max_iterations`` (or ``time_limit``) ends the run first.
    """
    cg = _check_game(game)
    epsilon = check_positive_float("epsilon", epsilon)
    max_iterations = check_int("max_iterations", max_iterations, 1)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    n = cg.num_players
    players = cg.players
    t0 = time.perf_counter()
    B = [uniform_flat(pt) for pt in players]
    X = [K.reach(pt, b) for pt, b in zip(players, B)]           # realisation weights of s^t
    ev, br, bvals = K.values_and_br(cg, B, reaches=X)
    regrets = [br - ev]
    history = [(0, float(np.sum(br - ev)) / n, time.perf_counter() - t0)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=max_iterations, desc="fictitious play", leave=False)
    t = 0
    converged = False
    try:
        while t < max_iterations:
            t += 1
            # r^{t-1}: pure best responses to s^{t-1}, from the last evaluation
            for p, pt in enumerate(players):
                V, Vdec = bvals[p]
                Xr = K.reach(pt, K.best_actions(pt, V, Vdec))
                X[p] = (1.0 - 1.0 / t) * X[p] + (1.0 / t) * Xr
                B[p] = normalise_blocks(pt, X[p])
            ev, br, bvals = K.values_and_br(cg, B, reaches=X)
            reg = br - ev
            regrets.append(reg)
            history.append((t, float(np.sum(reg)) / n, time.perf_counter() - t0))
            if bar is not None:
                bar.update(1)
                bar.set_postfix(regret=f"{reg.max():.3g}")
            if np.all(reg < epsilon):
                converged = True
                break
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                break
    finally:
        if bar is not None:
            bar.close()
    if not converged:
        warnings.warn(
            f"fictitious play: max regret {float(np.max(regrets[-1])):.3g} after {t} iterations "
            f"is not below epsilon = {epsilon:g}", ConvergenceWarning, stacklevel=2)
    nc = float(np.sum(br - ev))
    return ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, B), exploitability=nc / n,
        nash_conv=nc, converged=converged, num_iter=t, history=tuple(history),
        seconds=time.perf_counter() - t0, method="fictitious_play", br_values=br,
        regrets=np.array(regrets))
