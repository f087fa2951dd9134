"""Fictitious play on the public tree: two averaging rules (Ullman 2015, Mercer hold'em, §2.2).

Both start from the uniform profile ``s^0`` and update every player *simultaneously*
from pure best responses ``r^k_i`` to ``s^k_{-i}`` (first maximising action, ties as
below); the regret of player i at time k is ``u_i(r^k_i, s^k_{-i}) - u_i(s^k)``.  They
differ in what is averaged and with which weights:

``averaging="realisation"`` (default; the better algorithm)
    ``s^t = (1 - 1/t) s^{t-1} + (1/t) r^{t-1}`` as a *mixed*-strategy average:
    realisation weights (sequence form) are averaged and turned back into behaviour, so
    ``s^t`` is exactly the mixture "play r^k with probability 1/t", k < t (the uniform
    start drops out at t = 1).  This is the update printed in Ullman 2015 §2.2, read as
    classical fictitious play.  The run stops at the first t with every regret of ``s^t``
    below epsilon; ``num_iter = t``.

``averaging="behavioural"`` (Ullman 2015's program, exactly)
    What the program that produced the thesis's figures does (``rjullman/poker-nasheq``,
    ``Strategies.nes``, ``Strategy.average``, ``Distribution.average``)::

        iter = 0
        while maxRegret(s) >= epsilon:          # maxRegret = +inf before the first pass
            iter += 1
            r, maxRegret(s) = bestResponses(s)  # every player against the same s
            s = (1 - 1/(iter+1)) s + 1/(iter+1) r   # per information set, behaviour
        return s, iter

    i.e. ``s^t = (s^0 + r^0 + ... + r^{t-1}) / (t + 1)`` in *behaviour* at every
    information set, reached or not (the uniform start counts as one sample), which is
    not the mixture of the r^k.  The program stops after the pass whose regret of
    ``s^{t-1}`` is below epsilon, counts that pass (``num_iter = t``, the figure it prints
    as "t iterations"), and returns ``s^t``: one more average than the profile it tested.
    Ties between best actions go to the program's child order (``action_priority``):
    its best response takes the first child with the largest value, comparing doubles;
    values equal in exact arithmetic are decided here by :data:`FP_TIE_REL`.

The program's rule needs several times more iterations than the realisation average
(2P-SMH to 0.001: 704 against 148; 3P-MMH to 0.01: 3 600, the count of Ullman 2015 §3.4,
against 1 925); tests/games/mercer/test_mercer_program_fp.py checks it against the
program's published outputs iteration by iteration.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from ...errors import ConvergenceWarning, GutsInputError
from ..._validate import check_choice, check_positive_float
from ..progress import progress_bar
from ..tolerances import FP_EPSILON, FP_TIE_REL
from . import _kernels as K
from ._interrupt import deferred_signals
from .cfr import check_iterations, check_target_scale
from ._threads import check_threads, using_threads
from ..result import Solution
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks, uniform_flat
from .types import Game

__all__ = ["fictitious_play", "FP_EPSILON", "FP_MAX_ITERATIONS", "AVERAGING"]

# FP_EPSILON (default regret threshold, chips) lives in guts.engine.tolerances.
#: Default iteration cap.
FP_MAX_ITERATIONS = 10_000
#: The averaging rules (module docstring).
AVERAGING = ("realisation", "behavioural")


def _action_ranks(pt, action_priority):
    """Rank (S,) of every sequence 1..S within its decision: 0 = preferred on a tie."""
    if action_priority is None:
        return np.concatenate([np.arange(na) for na in pt.dec_num_actions]).astype(np.int64) \
            if pt.num_decisions else np.zeros(0, dtype=np.int64)
    ranks = []
    for labels in pt.action_labels:
        keys = [action_priority(lab) for lab in labels]
        order = sorted(range(len(labels)), key=lambda a: (keys[a], a))
        r = np.empty(len(labels), dtype=np.int64)
        r[order] = np.arange(len(labels))
        ranks.append(r)
    return np.concatenate(ranks) if ranks else np.zeros(0, dtype=np.int64)


def preferred_best_actions(pt, V, Vdec, ranks, tie_rel: float = 0.0):
    """Pure best response (S+1, T): at every (decision, type) the best action of least rank.

    ``V``, ``Vdec`` from :func:`._kernels.backup_max`; an action is a maximiser when its
    value is ``>= max - tie_rel * max|value|`` over the decision's actions.  With the
    default ranks (game order) and ``tie_rel = 0`` this is :func:`._kernels.best_actions`.
    """
    B = np.zeros_like(V)
    B[0] = 1.0
    if pt.num_decisions == 0:
        return B
    body = V[1:]
    starts = pt.dec_first - 1
    dec = pt.seq_dec[1:]
    if tie_rel > 0:
        scale = np.maximum.reduceat(np.abs(body), starts, axis=0)
        near = body >= (Vdec - tie_rel * scale)[dec]
    else:
        near = body >= Vdec[dec]
    key = np.where(near, ranks[:, None], np.iinfo(np.int64).max)
    kmin = np.minimum.reduceat(key, starts, axis=0)
    B[1:] = (key == kmin[dec]).astype(float)       # ranks are distinct within a decision
    return B


def fictitious_play(game: Game, *, target: float = FP_EPSILON, max_iterations: int = FP_MAX_ITERATIONS,
                    progress: bool = False, time_limit: float | None = None,
                    averaging: str = "realisation", action_priority=None, threads=None) -> Solution:
    """Fictitious play until every player's regret is ``< target`` (module docstring).

    Parameters
    ----------
    game : PublicTreeGame or ExplicitGame
    target : float
        Regret threshold (chips), every player (was ``epsilon``, the thesis's ε): the result's
        ``certificate`` has kind ``"max_regret"``.
    max_iterations : int
        Iteration cap (a run that hits it, or ``time_limit``, warns).
    averaging : {"realisation", "behavioural"}
        ``"realisation"``: mixed-strategy (sequence-form) average with weight 1/t;
        ``"behavioural"``: the Mercer hold'em program's rule, per-information-set
        behaviour average with weight 1/(t+1), uniform start counted, its stopping test
        and iteration count.
    action_priority : callable, optional
        ``action_priority(label) -> sortable``: among best actions the one with the
        smallest key (then the first in the game's order) is taken.  Default: the game's
        order.  With ``"behavioural"`` values within :data:`FP_TIE_REL` (relative) count
        as tied, as exact ties do in the program.
    threads : int, optional
        Threads of the numba kernels (default: all cores, or one when the load saturates
        them or a bare parallel region is slow: :func:`._threads.auto_threads`); the result
        does not depend on it.

    Returns
    -------
    Solution
        Its details an :class:`~guts.engine.extensive.result.ExtensiveResult`.
        ``strategies`` = s^t, ``num_iter`` = t, ``history`` = (k, exploitability of s^k,
        seconds) and ``regrets`` = array (t + 1, n), every player's regret of s^k, for
        k = 0..t (Ullman 2015, Figure 2; with ``"behavioural"`` rows 0..t-1 are what the
        program prints, their max per row, and row t is the returned profile's).
        ``nash_conv``, ``exploitability``, ``values``, ``br_values`` are of s^t.
        ``converged``: the rule's stopping test held AND s^t's max regret is < epsilon
        (with ``"behavioural"`` the program tests s^{t-1}; if s^t misses epsilon the run
        warns with ConvergenceWarning, as it does when a cap ends the run).
    """
    cg = _check_game(game)
    threads = check_threads(threads)
    epsilon = check_target_scale(cg, check_positive_float("target", target))
    max_iterations = check_iterations("max_iterations", max_iterations)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    averaging = check_choice("averaging", averaging, AVERAGING)
    if action_priority is not None and not callable(action_priority):
        raise GutsInputError(
            f"action_priority must be a callable label -> key or None; got {action_priority!r}")
    bar = progress_bar(total=max_iterations, desc=f"fictitious play ({averaging})", enabled=True) if progress else None
    try:
        run = _realisation if averaging == "realisation" else _behavioural
        K.prepare(cg)
        with using_threads(threads), deferred_signals():     # Ctrl-C between kernel calls
            return run(game, cg, epsilon, max_iterations, time_limit, action_priority, bar)
    finally:
        if bar is not None:
            bar.close()


def _tick(bar, reg):
    if bar is not None:
        bar.update(1)
        bar.set_postfix(regret=f"{reg.max():.3g}")


def _realisation(game, cg, epsilon, max_iterations, time_limit, action_priority, bar):
    n = cg.num_players
    players = cg.players
    ranks = [_action_ranks(pt, action_priority) for pt in players]
    t0 = time.perf_counter()
    B = [uniform_flat(pt) for pt in players]
    X = [K.reach(pt, b) for pt, b in zip(players, B)]           # realisation weights of s^t
    ev, br, bvals = K.values_and_br(cg, B, reaches=X)
    regrets = [br - ev]
    history = [(0, float(np.sum(br - ev)) / n, time.perf_counter() - t0)]
    t = 0
    converged = False
    while t < max_iterations:
        t += 1
        # r^{t-1}: pure best responses to s^{t-1}, from the last evaluation
        for p, pt in enumerate(players):
            V, Vdec = bvals[p]
            Xr = K.reach(pt, preferred_best_actions(pt, V, Vdec, ranks[p]))
            X[p] = (1.0 - 1.0 / t) * X[p] + (1.0 / t) * Xr
            B[p] = normalise_blocks(pt, X[p])
        ev, br, bvals = K.values_and_br(cg, B, reaches=X)
        reg = br - ev
        regrets.append(reg)
        history.append((t, float(np.sum(reg)) / n, time.perf_counter() - t0))
        _tick(bar, reg)
        if np.all(reg < epsilon):
            converged = True
            break
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            break
    if not converged:
        warnings.warn(
            f"fictitious play: max regret {float(np.max(regrets[-1])):.3g} after {t} iterations "
            f"is not below epsilon = {epsilon:g}", ConvergenceWarning, stacklevel=3)
    nc = float(np.sum(br - ev))
    return Solution.of(ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, B), exploitability=nc / n,
        nash_conv=nc, converged=converged, num_iter=t, history=tuple(history),
        seconds=time.perf_counter() - t0, method="fictitious_play", br_values=br,
        regrets=np.array(regrets)))


def _behavioural(game, cg, epsilon, max_iterations, time_limit, action_priority, bar):
    n = cg.num_players
    players = cg.players
    ranks = [_action_ranks(pt, action_priority) for pt in players]
    t0 = time.perf_counter()
    B = [uniform_flat(pt) for pt in players]                    # s^0: uniform everywhere
    regrets, history = [], []
    t = 0
    stopped = False
    while t < max_iterations:
        # the program's pass number t + 1: regrets of s^t and best responses r^t to it
        ev, br, bvals = K.values_and_br(cg, B)
        reg = br - ev
        regrets.append(reg)
        history.append((t, float(np.sum(reg)) / n, time.perf_counter() - t0))
        t += 1
        w = 1.0 / (t + 1)
        for p, pt in enumerate(players):
            V, Vdec = bvals[p]
            R = preferred_best_actions(pt, V, Vdec, ranks[p], FP_TIE_REL)
            B[p] = (1.0 - w) * B[p] + w * R                     # Distribution.average
        _tick(bar, reg)
        if np.max(reg) < epsilon:                               # the program's loop test
            stopped = True
            break
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            break
    # the certificate of what is returned: s^t, one average after the tested s^{t-1}
    ev, br, _ = K.values_and_br(cg, B)
    reg = br - ev
    regrets.append(reg)
    history.append((t, float(np.sum(reg)) / n, time.perf_counter() - t0))
    converged = stopped and bool(np.max(reg) < epsilon)
    if not converged:
        why = (f"the program's test held at iteration {t} (max regret {float(np.max(regrets[-2])):.3g} "
               f"of the profile before the last average) but the returned profile's" if stopped
               else f"after {t} iterations the")
        warnings.warn(f"fictitious play (behavioural): {why} max regret {float(np.max(reg)):.3g} "
                      f"is not below epsilon = {epsilon:g}", ConvergenceWarning, stacklevel=3)
    nc = float(np.sum(reg))
    return Solution.of(ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, B), exploitability=nc / n,
        nash_conv=nc, converged=converged, num_iter=t, history=tuple(history),
        seconds=time.perf_counter() - t0, method="fictitious_play_behavioural", br_values=br,
        regrets=np.array(regrets)))
