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

Each rule is a state object (``step``, ``iteration``, ``certificate`` = every player's regret
of the profile its stopping test reads) run by :func:`guts.engine.driver.drive`, every
iteration checked, the test strict (``< epsilon``); a long solve keeps its state in a
checkpoint and continues it bit for bit (``checkpoint=``, ``resume=``; :mod:`.checkpoint`).
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from ...errors import ConvergenceWarning, GutsInputError
from ..._validate import check_choice, check_positive_float
from ..driver import drive
from ..tolerances import FP_EPSILON, FP_TIE_REL
from . import _kernels as K
from ._interrupt import deferred_signals
from .cfr import check_iterations, check_target_scale
from ._threads import check_threads, using_threads
from ..result import Solution
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks, uniform_flat
from .types import Game
from .tree import require_full_game

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
                    averaging: str = "realisation", action_priority=None, threads=None,
                    checkpoint=None, checkpoint_every=None, resume=None) -> Solution:
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
    checkpoint : str or Path, optional
        Keep the solver's state in this file (:mod:`.checkpoint`, format
        ``"guts-fp-checkpoint"``: the average strategies, every player's regret history, the
        history, the iteration; written atomically) every ``checkpoint_every`` seconds, at the
        end, and when a Ctrl-C or SIGTERM stops the solve (between two iterations; the
        signal is then raised again).
    checkpoint_every : float, optional
        Seconds between two checkpoints (default: only at the end and on a signal).
    resume : str or Path, optional
        Continue the solve kept in this checkpoint (same game, averaging, ``action_priority``
        and package version, else ``GutsInputError``): ``max_iterations`` counts from the
        start of the original solve, ``history``, ``regrets`` and ``seconds`` continue it,
        ``time_limit`` is this call's. The iterates are bit-identical to an uninterrupted
        solve's. ``resume`` and ``checkpoint`` may name the same file.

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
    require_full_game(game, "fictitious play")
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
    if checkpoint_every is not None:
        from .checkpoint import check_checkpoint_every

        checkpoint_every = check_checkpoint_every(checkpoint, checkpoint_every)
    K.prepare(cg)
    names = {"averaging": averaging}         # what a checkpoint of this solve is of
    saved = keeper = None
    if resume is not None:
        from .checkpoint import FP_CHECKPOINT_FORMAT, open_checkpoint

        saved = open_checkpoint(resume, FP_CHECKPOINT_FORMAT, "fictitious-play checkpoint", game, names)
    if checkpoint is not None:
        from .checkpoint import FP_CHECKPOINT_FORMAT, Keeper

        keeper = Keeper(checkpoint, checkpoint_every, game, FP_CHECKPOINT_FORMAT, names,
                        lambda state, history: state.kept())
    cls = _RealisationFP if averaging == "realisation" else _BehaviouralFP
    with using_threads(threads):
        with deferred_signals():     # Ctrl-C between kernel calls
            started = time.perf_counter()    # the time limit is this call's
            state = cls(cg, action_priority, saved=saved)
            elapsed = 0.0 if saved is None else saved[1]["seconds"]
            state.t0 = started - elapsed      # the seconds continue the original solve's
        if state.iteration and float(np.max(state.certificate())) < epsilon:
            # resumed where the stopping test already held: the uninterrupted solve stopped here
            if keeper is not None:
                keeper.write(state, state.iteration, state.iteration + 1, [], time.perf_counter() - state.t0)
            return state.result(game, epsilon, True)
        # every iteration is checked (the rule's stopping test): certificate = every player's regret
        run = drive(state, max_iterations=max_iterations, target=epsilon, time_limit=time_limit,
                    check_schedule=1, strict=True, progress=progress,
                    desc=f"fictitious play ({averaging})", measure="regret", started=started,
                    elapsed=elapsed, keeper=keeper)
        return state.result(game, epsilon, run.stopped == "target")


def _restore_common(state, saved, rows):
    """Check a checkpoint's arrays against ``state`` (fresh, same game) and return them:
    the tie-breaking ranks must be this solve's, the regret history ``rows`` x players."""
    from .checkpoint import check_arrays

    name, meta, arrays = saved
    cg, n = state.cg, state.cg.num_players
    t = meta["iteration"]
    rows = rows(t)
    check_arrays(name, arrays, {
        **{f"B{p}": ((pt.num_seqs, pt.num_types), np.float64) for p, pt in enumerate(cg.players)},
        **{f"ranks{p}": (r.shape, np.int64) for p, r in enumerate(state.ranks)},
        "regrets": ((rows, n), np.float64), "history": ((rows, 3), np.float64)})
    if not all(np.array_equal(arrays[f"ranks{p}"], r) for p, r in enumerate(state.ranks)):
        raise GutsInputError(f"checkpoint {name!r} broke ties between best actions in another order; "
                             "accepted: the action_priority of the solve that wrote it")
    state.B = [np.array(arrays[f"B{p}"]) for p in range(n)]
    state.regrets = list(np.array(arrays["regrets"]))
    state.history = [(int(k), float(e), float(s)) for k, e, s in arrays["history"]]
    state.iteration = t
    return arrays


def _kept_common(state) -> dict:
    """The arrays every averaging keeps (:func:`_restore_common` reads them back)."""
    n = state.cg.num_players
    return {**{f"B{p}": b for p, b in enumerate(state.B)},
            **{f"ranks{p}": r for p, r in enumerate(state.ranks)},
            "regrets": np.array(state.regrets, dtype=np.float64).reshape(len(state.regrets), n),
            "history": np.array(state.history, dtype=np.float64).reshape(len(state.history), 3)}


class _RealisationFP:
    """State of ``averaging="realisation"`` (module docstring): ``s^t`` as the realisation-weight
    average of the pure best responses ``r^0 .. r^{t-1}``; its certificate after iteration ``t``
    is every player's regret of ``s^t``."""

    def __init__(self, cg, action_priority, saved=None):
        self.cg = cg
        players = cg.players
        self.ranks = [_action_ranks(pt, action_priority) for pt in players]
        self.t0 = time.perf_counter()
        if saved is not None:       # (name, meta, arrays) of a checkpoint (:mod:`.checkpoint`)
            from .checkpoint import check_arrays

            arrays = _restore_common(self, saved, lambda t: t + 1)
            check_arrays(saved[0], arrays, {f"X{p}": ((pt.num_seqs, pt.num_types), np.float64)
                                            for p, pt in enumerate(players)})
            self.X = [np.array(arrays[f"X{p}"]) for p in range(len(players))]
            # the evaluation of s^t, exactly as the step that made s^t computed it
            self.ev, self.br, self.bvals = K.values_and_br(cg, self.B, reaches=self.X)
            return
        self.B = [uniform_flat(pt) for pt in players]
        self.X = [K.reach(pt, b) for pt, b in zip(players, self.B)]     # realisation weights of s^t
        self.ev, self.br, self.bvals = K.values_and_br(cg, self.B, reaches=self.X)
        self.regrets = [self.br - self.ev]
        self.history = [(0, float(np.sum(self.br - self.ev)) / cg.num_players, time.perf_counter() - self.t0)]
        self.iteration = 0

    def step(self, count: int) -> None:
        cg, n = self.cg, self.cg.num_players
        for _ in range(count):
            t = self.iteration + 1
            # r^{t-1}: pure best responses to s^{t-1}, from the last evaluation
            X, B = [], []
            for p, pt in enumerate(cg.players):
                V, Vdec = self.bvals[p]
                Xr = K.reach(pt, preferred_best_actions(pt, V, Vdec, self.ranks[p]))
                X.append((1.0 - 1.0 / t) * self.X[p] + (1.0 / t) * Xr)
                B.append(normalise_blocks(pt, X[-1]))
            ev, br, bvals = K.values_and_br(cg, B, reaches=X)
            reg = br - ev
            # the new iterate replaces the old one whole: a stop half-way leaves iteration t - 1
            self.X, self.B, self.ev, self.br, self.bvals = X, B, ev, br, bvals
            self.regrets.append(reg)
            self.history.append((t, float(np.sum(reg)) / n, time.perf_counter() - self.t0))
            self.iteration = t

    def kept(self) -> tuple:
        """``(arrays, meta)`` of a checkpoint (:class:`.checkpoint.Keeper`)."""
        return {**_kept_common(self), **{f"X{p}": x for p, x in enumerate(self.X)}}, {}

    def certificate(self):
        """Every player's regret of ``s^t``."""
        return self.regrets[-1]

    def result(self, game, epsilon, converged):
        n, t, ev, br = self.cg.num_players, self.iteration, self.ev, self.br
        if not converged:
            warnings.warn(
                f"fictitious play: max regret {float(np.max(self.regrets[-1])):.3g} after {t} iterations "
                f"is not below epsilon = {epsilon:g}", ConvergenceWarning, stacklevel=3)
        nc = float(np.sum(br - ev))
        return Solution.of(ExtensiveResult(
            value=float(ev[0]), values=ev, strategies=from_flat(game, self.B), exploitability=nc / n,
            nash_conv=nc, converged=converged, num_iter=t, history=tuple(self.history),
            seconds=time.perf_counter() - self.t0, method="fictitious_play", br_values=br,
            regrets=np.array(self.regrets)))


class _BehaviouralFP:
    """State of ``averaging="behavioural"``, the program's loop (module docstring): a step is
    the program's pass: the regrets of ``s^{t-1}`` (the certificate tested, as the program's
    loop test does, before the average), then ``s^t`` = its behaviour average with ``r^{t-1}``."""

    def __init__(self, cg, action_priority, saved=None):
        self.cg = cg
        self.ranks = [_action_ranks(pt, action_priority) for pt in cg.players]
        self.t0 = time.perf_counter()
        if saved is not None:       # (name, meta, arrays) of a checkpoint (:mod:`.checkpoint`)
            _restore_common(self, saved, lambda t: t)
            return
        self.B = [uniform_flat(pt) for pt in cg.players]                # s^0: uniform everywhere
        self.regrets, self.history = [], []
        self.iteration = 0

    def step(self, count: int) -> None:
        cg, n = self.cg, self.cg.num_players
        for _ in range(count):
            # the program's pass number t + 1: regrets of s^t and best responses r^t to it
            t = self.iteration
            ev, br, bvals = K.values_and_br(cg, self.B)
            reg = br - ev
            w = 1.0 / (t + 2)
            B = []
            for p, pt in enumerate(cg.players):
                V, Vdec = bvals[p]
                R = preferred_best_actions(pt, V, Vdec, self.ranks[p], FP_TIE_REL)
                B.append((1.0 - w) * self.B[p] + w * R)                 # Distribution.average
            # the new iterate replaces the old one whole: a stop half-way leaves iteration t
            self.regrets.append(reg)
            self.history.append((t, float(np.sum(reg)) / n, time.perf_counter() - self.t0))
            self.B = B
            self.iteration = t + 1

    def kept(self) -> tuple:
        """``(arrays, meta)`` of a checkpoint (:class:`.checkpoint.Keeper`)."""
        return _kept_common(self), {}

    def certificate(self):
        """Every player's regret of ``s^{t-1}``, the profile the program's loop tests."""
        return self.regrets[-1]

    def result(self, game, epsilon, stopped):
        n, t = self.cg.num_players, self.iteration
        # the certificate of what is returned: s^t, one average after the tested s^{t-1}
        ev, br, _ = K.values_and_br(self.cg, self.B)
        reg = br - ev
        self.regrets.append(reg)
        self.history.append((t, float(np.sum(reg)) / n, time.perf_counter() - self.t0))
        converged = stopped and bool(np.max(reg) < epsilon)
        if not converged:
            why = (f"the program's test held at iteration {t} (max regret {float(np.max(self.regrets[-2])):.3g} "
                   f"of the profile before the last average) but the returned profile's" if stopped
                   else f"after {t} iterations the")
            warnings.warn(f"fictitious play (behavioural): {why} max regret {float(np.max(reg)):.3g} "
                          f"is not below epsilon = {epsilon:g}", ConvergenceWarning, stacklevel=3)
        nc = float(np.sum(reg))
        return Solution.of(ExtensiveResult(
            value=float(ev[0]), values=ev, strategies=from_flat(game, self.B), exploitability=nc / n,
            nash_conv=nc, converged=converged, num_iter=t, history=tuple(self.history),
            seconds=time.perf_counter() - self.t0, method="fictitious_play_behavioural", br_values=br,
            regrets=np.array(self.regrets)))
