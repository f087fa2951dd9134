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
* ``"pcfr+"`` (predictive CFR+; Farina, Kroer & Sandholm 2021, *Faster game solving via
  predictive Blackwell approachability*, Algorithm "PCFR+"): cumulative regrets clipped
  at zero as in CFR+, but the next strategy is regret matching on ``[R_t + m]^+`` with
  the prediction ``m`` = the last instantaneous regret; iteration ``t`` weighs
  ``t^gamma`` (quadratic by default) in the average; alternating updates.
* ``"hs-dcfr"``, ``"hs-pcfr+"`` (hyperparameter schedules; Zhang, McAleer & Sandholm 2024,
  *Faster Game Solving via Hyperparameter Schedules*): DCFR with ``alpha_t = 1 + 3t/T``,
  ``beta_t = -1 - 2t/T``, ``gamma_t = 30 - 5t/T`` and PCFR+ with that ``gamma_t``, where ``T``
  is the run's ``horizon`` (default: the iteration budget); the average sums are discounted by
  ``(t/(t+1))^gamma_t`` after iteration ``t`` (:mod:`._schedules`, which says how these
  formulas were established). Accumulators in float64 (weights up to ``t^30``).

When to compute the exploitability of the average (a best-response pass costs about one
iteration): every ``report_every`` iterations (``check="fixed"``, the pre-issue-21
schedule) or, with a target, ``check="adaptive"``: after a check at ``t`` with
exploitability ``e`` above the target, the decay ``e ~ t^-a`` fitted on the last two
checks (``a`` clipped to [0.5, 3]; ``a = 1`` after the first) predicts the iteration
``t*`` of the target and the next check is at ``t + clip(0.8 (t* - t), report_every, t)``.
The reported exploitability is always that of the returned average, in float64.

The returned strategies are the average strategies (realisation-weighted, i.e. the
average of the mixed strategies), with their exploitability computed by the
best-response pass.

The solve is a state object (:class:`_CFRState`, :class:`_WholeState`: ``step``,
``iteration``, ``certificate``) run by the package's one loop, :func:`guts.engine.driver.drive`
(budget, checks, time limit, progress, signals, checkpoints).
"""
from __future__ import annotations

import math
import numbers
import time
import warnings

import numpy as np

from ..driver import drive
from ..driver import TARGET_BAR_STEPS, target_progress as _target_progress  # noqa: F401 - the bar's rule
from ...errors import ConvergenceWarning, GutsInputError
from ..._validate import check_choice, check_int, check_positive_float
from . import _atomics, _fused, _whole
from . import _kernels as K
from ._interrupt import checkpoint, deferred_signals
from ._schedules import HS_VARIANTS, HyperSchedule
from .fingerprint import remember_game
from ._threads import (ThreadTuner, check_seconds, check_threads, current_threads, set_threads, threads_now,
                       using_threads)
from ..tolerances import MAX_ITERATIONS
from ..result import Solution
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks, uniform_flat
from .types import Game

__all__ = ["cfr_plus", "VARIANTS", "DEFAULT_ITERATIONS", "MAX_ITERATIONS_WITH_TARGET", "MAX_ITERATIONS",
           "check_iterations", "check_target_scale"]

#: Iterations when neither ``max_iterations``, ``target`` nor ``time_limit`` is given.
DEFAULT_ITERATIONS = 1000
#: Safety cap when only a target exploitability is given.
MAX_ITERATIONS_WITH_TARGET = 1_000_000
#: Storage of the cumulative regrets and average-strategy weights of a big game (float32
#: halves two of the largest arrays of a solve; the strategies played, the reaches, every
#: value and the exploitability of the returned average stay float64) ...
ACCUMULATOR_DTYPE = np.float32
#: ... from this many (sequence, type) entries over all players (3P-MMH with a check: 7.7e6).
#: Smaller games keep float64, where memory does not matter and CFR+ stays OpenSpiel's
#: iteration for iteration (Kuhn and Leduc: the same exploitabilities to 1e-9).
ACCUMULATOR_MIN_ENTRIES = 1_000_000


#: Every ``variant=`` of :func:`cfr_plus`.
VARIANTS = ("cfr+", "dcfr", "pcfr+") + HS_VARIANTS


def accumulator_dtype(cg, variant=None):
    """The dtype of the regret and average arrays of game ``cg`` (float32 for big games; always
    float64 for a hyperparameter schedule, whose average weights reach ``t^30``)."""
    if variant in HS_VARIANTS:
        return np.float64
    entries = sum(pt.num_seqs * pt.num_types for pt in cg.players)
    return ACCUMULATOR_DTYPE if entries >= ACCUMULATOR_MIN_ENTRIES else np.float64


class _CFRState:
    """Regrets, cumulative strategies and current behaviour of every player."""

    def __init__(self, cg, variant, alpha, beta, gamma, horizon=None):
        self.cg = cg
        self.variant = variant
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.sched = _hyper_schedule(variant, horizon)
        self.B = [uniform_flat(pt) for pt in cg.players]
        self.R = [K.reach(pt, B) for pt, B in zip(cg.players, self.B)]
        # float32 for big games (memory): the regrets only steer regret matching,
        # and the average is normalised and certified in float64 (:meth:`average`)
        dt = accumulator_dtype(cg, variant)
        self.regret = [np.zeros(B.shape, dtype=dt) for B in self.B]
        self.avg = [np.zeros(B.shape, dtype=dt) for B in self.B]
        # sequence -> decision maps, per player
        self.seq_dec = [pt.seq_dec[1:] for pt in cg.players]
        # scratch arrays of the passes, reused from one pass to the next (no page faults)
        self.work = K.Workspace()
        self.chunk = 1            # iterations per :meth:`run` (one: a Ctrl-C is seen within one)

    def run(self, t_first: int, count: int):
        """Iterations ``t_first .. t_first + count - 1``."""
        for t in range(t_first, t_first + count):
            self.iterate(t)

    #: (iteration, players updated in it): what a signal interrupted (:meth:`complete`).
    done = (0, 0)
    # -- the state protocol of :func:`guts.engine.driver.drive` ------------------------------
    #: Iterations done (a resumed solve: the checkpoint's).
    iteration = 0
    #: The :class:`._threads.ThreadTuner` of the solve (None: the threads are left as they are).
    tuner = None
    #: Thread count in use, as the tuner knows it.
    cur = None
    #: Calls of :meth:`step` so far (the tuner's steps are calls, not iterations).
    calls = 0
    #: (iteration, average, values, best-response values) of the last :meth:`certificate`.
    last = None

    def plan(self, limit: int) -> int:
        """Iterations of the next :meth:`step`: one, or a chunk of a few milliseconds for a
        small game compiled whole (never past ``limit``: the next check or the budget).
        Picks the thread count of that call first (the tuner's probe or choice)."""
        self.last = None            # the previous check's average is stale: free it
        tuner = self.tuner
        if tuner is not None:
            k = tuner.threads(self.calls + 1)
            if k != self.cur:
                set_threads(k)
                self.cur = k
        count = max(1, min(self.chunk, limit))
        if tuner is not None and (not tuner.decided or tuner.probing):
            # until the first probe has decided, short calls: on a loaded machine the initial
            # count may be several times slower than the other. A probe too, and shorter by
            # the probed count's last slowdown: the chunk is sized from the choice's speed,
            # and a full chunk of two threads beside a busy process took Leduc 130-150 ms
            # instead of 20 (5-6x slower)
            share = _WholeState.PROBE_SHARE / tuner.slowdown
            count = max(1, min(count, int(self.chunk * share)))
        return count

    def step(self, count: int) -> None:
        """Iterations ``iteration + 1 .. iteration + count`` (one call of :meth:`run`), timed
        for the thread tuner."""
        tuner = self.tuner
        ti, ci = time.perf_counter(), check_seconds()
        self.run(self.iteration + 1, count)
        self.iteration += count
        if tuner is None:
            return
        self.calls += 1
        # the default's first parallel kernel may have checked the pool (not timed) and
        # fallen back to one thread
        self.cur = threads_now() or self.cur
        tuner.record(self.calls, self.cur, (time.perf_counter() - ti - (check_seconds() - ci)) / count, count)
        if self.cur != tuner.choice and not tuner.probing:
            set_threads(tuner.choice)
            self.cur = tuner.choice

    def certificate(self) -> float:
        """Exploitability (NashConv / n) of the average strategy, in float64 (:meth:`check`,
        kept in :attr:`last`)."""
        flat, ev, br = self.check()
        self.last = (self.iteration, flat, ev, br)
        return float(np.sum(br - ev)) / self.cg.num_players

    def iterate(self, t: int, first: int = 0):
        """Iteration ``t`` (its players from ``first`` on: :meth:`complete`)."""
        cg = self.cg
        for p, pt in enumerate(cg.players):
            if pt.num_decisions == 0 or p < first:
                continue
            B = self.B[p]
            g = K.terminal_values(cg, p, self.R, work=self.work)
            if self.sched is not None:
                mode, w, fp, fn = self.sched.at(t)
            elif self.variant == "cfr+":
                mode, w, fp, fn = 0, float(t), 1.0, 1.0
            elif self.variant == "pcfr+":
                mode, w, fp, fn = 2, float(t) ** self.gamma, 1.0, 1.0
            else:
                ta = float(t) ** self.alpha
                tb = float(t) ** self.beta
                mode, w, fp, fn = 1, float(t) ** self.gamma, ta / (ta + 1.0), tb / (tb + 1.0)
            if K.USE_FUSED:
                # one bottom-up pass, in place, no temporaries: values of B, then avg += w R_own,
                # the regret update and B = regret matching, decision by decision
                K.backup_update(pt, g, B, mode, w, fp, fn, self.regret[p], self.avg[p], self.R[p], work=self.work)
            else:
                V, Vdec = K.backup_mean(pt, g, B, out=g)
                self._update_numpy(p, pt, mode, w, fp, fn, V, Vdec)
                del V, Vdec
            del g
            self.R[p] = K.reach(pt, self.B[p], out=self.R[p])
            self.done = (t, p + 1)
            checkpoint()        # a Ctrl-C is seen here, between two kernel calls

    def _update_numpy(self, p, pt, mode, w, fp, fn, V, Vdec):
        """Reference (numpy) form of :func:`._fused.backup_update` (same arithmetic: float64,
        one rounding to the accumulators' dtype)."""
        delta = V[1:] - Vdec[self.seq_dec[p]]
        # average strategy: realisation weights of the strategy played at iteration t
        self.avg[p][1:] += w * self.R[p][1:]
        reg = self.regret[p][1:] + delta
        if mode == 1:
            reg *= np.where(reg > 0, fp, fn)
        else:
            np.maximum(reg, 0.0, out=reg)
        self.regret[p][1:] = reg
        reg = self.regret[p][1:].astype(float)              # as stored
        X = np.zeros(self.B[p].shape)
        if mode == 2:
            # optimistic step: regret matching on the cumulative regret plus the
            # prediction (this iteration's instantaneous regret)
            np.maximum(reg + delta, 0.0, out=X[1:])
        else:
            np.maximum(reg, 0.0, out=X[1:])
        self.B[p][:] = normalise_blocks(pt, X)

    def complete(self) -> int:
        """Finish the iteration a signal stopped between two players' updates; returns the
        last complete iteration (the state is then that of its end, for a checkpoint)."""
        t, first = self.done
        if t and first < len(self.cg.players):
            self.iterate(t, first)
        if t:
            self.iteration = t
        return t

    def refresh_reaches(self):
        """R from B again (after :meth:`check` lent the R arrays to the best-response pass)."""
        for p, pt in enumerate(self.cg.players):
            self.R[p] = K.reach(pt, self.B[p], out=self.R[p])

    def check(self):
        """(average, values, best-response values) of the average strategy, in float64; the
        reach arrays are reused for the average's reaches (peak memory)."""
        flat = self.average()
        reaches = [K.reach(pt, f, out=R) for pt, f, R in zip(self.cg.players, flat, self.R)]
        try:
            ev, br, _ = K.values_and_br(self.cg, flat, reaches=reaches, keep=False, work=self.work)
        finally:
            self.refresh_reaches()
        return flat, ev, br

    def average(self):
        if not K.USE_FUSED:
            return [normalise_blocks(pt, A.astype(float)) for pt, A in zip(self.cg.players, self.avg)]
        out = []
        for pt, A in zip(self.cg.players, self.avg):
            if not pt.num_decisions:
                out.append(normalise_blocks(pt, A.astype(float)))
                continue
            norm = _fused.normalise_into if K.parallel_for(A.size, K.LEVEL_MIN_WORK) else _fused.normalise_into_serial
            # into the workspace: the previous check's average is not used any more (the
            # returned strategies are copies, :func:`.strategies.from_flat`)
            out.append(norm(pt.dec_first, pt.dec_num_actions, A, self.work.take(f"average{len(out)}", A.shape)))
        return out


class _WholeState(_CFRState):
    """:class:`_CFRState` for a small game, its iterations compiled whole (:mod:`._whole`):
    many per call; with several threads one parallel region per call, each thread a block of
    every player's types, the threads meeting at a barrier after each player's update. The
    arrays are stored transposed, (types, sequences); the iterates are bit-identical to
    :meth:`_CFRState.iterate`'s, whatever the number of threads."""

    #: Seconds of iterations per call (a Ctrl-C, a time limit and the thread tuner are seen
    #: between calls).
    CHUNK_SECONDS = 0.02
    #: Most iterations per call.
    MAX_CHUNK = 4096
    #: Iterations of the second call (the first compiles and runs one), before cfr_plus's
    #: PROBE_SHARE.
    SECOND_CHUNK = 16
    #: The thread tuner's first probe and first period, in calls (:class:`._threads.ThreadTuner`).
    TUNING = dict(first_probe=4, first_period=4, mean=True)
    #: Share of a call's iterations (CHUNK_SECONDS) before the tuner's first probe decided,
    #: and in a probe of the other thread count (divided by how much slower that count was
    #: when last timed, :attr:`._threads.ThreadTuner.slowdown`).
    PROBE_SHARE = 0.25
    VARIANTS = {"cfr+": 0, "dcfr": 1, "pcfr+": 2, "hs-dcfr": 3, "hs-pcfr+": 4}
    #: The ``table`` of a call without a hyperparameter schedule (not read).
    NO_TABLE = np.zeros((0, 3))
    #: Seconds before a refused barrier (:func:`._atomics.start`) is tried again, doubling up
    #: to the maximum while it keeps being refused (a refusal costs the start's spins).
    BARRIER_BACKOFF = 1.0
    BARRIER_MAX_BACKOFF = 60.0

    def __init__(self, cg, variant, alpha, beta, gamma, horizon=None):
        from ._threads import max_threads

        self.cg = cg
        self.variant = variant
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.sched = _hyper_schedule(variant, horizon)
        self.data = _whole.static_data(cg)
        self.game = _whole.pack(self.data)
        tr = lambda xs: tuple(np.ascontiguousarray(x.T) for x in xs)        # noqa: E731
        B = [uniform_flat(pt) for pt in cg.players]
        self.Bt = tr(B)
        self.Rt = tr([K.reach(pt, b) for pt, b in zip(cg.players, B)])
        dt = accumulator_dtype(cg, variant)
        self.REG = tuple(np.zeros(b.shape, dtype=dt) for b in self.Bt)
        self.AVG = tuple(np.zeros(b.shape, dtype=dt) for b in self.Bt)
        self.G = tuple(np.zeros(b.shape) for b in self.Bt)
        self.VD = tuple(np.zeros((cg.num_types[p], max(1, pt.num_decisions))) for p, pt in enumerate(cg.players))
        nb = max(1, max_threads())
        self.RL = tuple(np.zeros((nb, pt.num_seqs, cg.num_types[p])) for p, pt in enumerate(cg.players))
        self._blocks = {}
        self.work = K.Workspace()
        self.chunk = 1
        self.ctl = _atomics.control()
        self.barrier_ok = True          # the last parallel call ran with the barrier
        self._barrier_retry = 0.0       # time.monotonic() from which the barrier is tried again
        self._barrier_backoff = self.BARRIER_BACKOFF

    def run(self, t_first: int, count: int) -> float:
        """Iterations ``t_first .. t_first + count - 1``; returns their seconds."""
        par = K.parallel_for(self.data["work"], _whole.MIN_PARALLEL_WORK)
        k = current_threads() if par else 1
        blocks = self._blocks.get(k)
        if blocks is None:
            blocks = self._blocks[k] = _whole.type_blocks(self.cg, k)
        t0 = time.perf_counter()
        done = False
        if par and time.monotonic() >= self._barrier_retry:
            # one parallel region for the whole call, its threads meeting at a spinning
            # barrier; refused (nothing done) if they did not all run at once: then this call
            # runs on one thread and the barrier is tried again after a wait that doubles
            _atomics.control(self.ctl)
            done = self.barrier_ok = bool(self._run(_whole.iterations_barrier, blocks, t_first, count, self.ctl))
            if done:
                self._barrier_backoff = self.BARRIER_BACKOFF
            else:
                self._barrier_retry = time.monotonic() + self._barrier_backoff
                self._barrier_backoff = min(2 * self._barrier_backoff, self.BARRIER_MAX_BACKOFF)
        if not done:
            # on one thread (the only way to use a pool that does not run a region's threads
            # at once: waiting at a barrier would never end)
            self._run(_whole.iterations_serial, blocks, t_first, count)
        dt = time.perf_counter() - t0
        self.done = (t_first + count - 1, len(self.cg.players))
        checkpoint()            # a Ctrl-C is seen here, between two calls
        if t_first > 1:
            self.chunk = int(min(self.MAX_CHUNK, max(1, self.CHUNK_SECONDS * count / max(dt, 1e-9))))
        else:
            # the first call compiles; the second, timed (by the thread tuner too: a single
            # iteration's time is mostly the parallel region's start), is sized from
            # SECOND_CHUNK (cfr_plus shortens calls until the tuner's first probe decides)
            self.chunk = self.SECOND_CHUNK
        return dt

    def _run(self, kernel, blocks, t_first, count, *ctl):
        state = (self.Rt, self.G, self.VD, self.REG, self.AVG, self.Bt, self.RL)
        table = self.NO_TABLE if self.sched is None else self.sched.table(t_first, count)
        return kernel(*ctl, t_first, count, self.VARIANTS[self.variant], self.alpha, self.beta, self.gamma, table,
                      blocks, self.game, state)

    def iterate(self, t: int):
        self.run(t, 1)

    @property
    def B(self):
        return [np.ascontiguousarray(x.T) for x in self.Bt]

    @property
    def regret(self):
        return [np.ascontiguousarray(x.T) for x in self.REG]

    @property
    def avg(self):
        return [np.ascontiguousarray(x.T) for x in self.AVG]

    def check(self):
        """As :meth:`_CFRState.check`, into fresh reach arrays (the transposed ones stay)."""
        flat = self.average()
        reaches = [K.reach(pt, f) for pt, f in zip(self.cg.players, flat)]
        ev, br, _ = K.values_and_br(self.cg, flat, reaches=reaches, keep=False, work=self.work)
        return flat, ev, br


def _hyper_schedule(variant, horizon):
    """The :class:`._schedules.HyperSchedule` of a scheduled variant (horizon default
    :data:`DEFAULT_ITERATIONS`), else None."""
    if variant not in HS_VARIANTS:
        return None
    return HyperSchedule(variant, DEFAULT_ITERATIONS if horizon is None else horizon)


def _next_check(history, target, step):
    """Iteration of the next exploitability check (``check="adaptive"``, module docstring)."""
    t, e, _ = history[-1]
    a = 1.0
    if len(history) >= 2:
        t1, e1, _ = history[-2]
        if e1 > 0 and e > 0 and t > t1:
            a = min(3.0, max(0.5, math.log(e1 / e) / math.log(t / t1)))
    t_star = t * (e / target) ** (1.0 / a) if e > 0 else t + step
    gap = min(max(0.8 * (t_star - t), step), t)
    return t + max(1, int(gap))


def check_iterations(name, value) -> int:
    """An iteration budget: an integer (not a float: ``1e300`` is no count) in 1..:data:`MAX_ITERATIONS`."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)) \
            or not 1 <= value <= MAX_ITERATIONS:
        raise GutsInputError(f"{name} {value!r}; accepted: integers 1..{MAX_ITERATIONS}")
    return int(value)


def check_target_scale(cg, target, what="target"):
    """Refuse a ``target`` larger than the payoff range ``2 max|payoff|`` of compiled game ``cg``:
    every strategy profile's exploitability (and any player's regret) is at most that, so such
    a target would be met by any strategies and certify nothing."""
    scale = float(cg.payoff_scale)
    if target is not None and scale > np.finfo(float).tiny and target > 2 * scale:
        raise GutsInputError(f"{what} {target:g} is larger than the game's payoff range {2 * scale:g} "
                             f"(payoffs within +-{scale:g}), so any strategies would meet it; accepted: "
                             f"a target in (0, {2 * scale:g}]")
    return target


def _budget(iterations, target, time_limit):
    if iterations is not None:
        iterations = check_iterations("max_iterations", iterations)
    if target is not None:
        target = check_positive_float("target", target)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    if iterations is None:
        iterations = MAX_ITERATIONS_WITH_TARGET if (target is not None or time_limit is not None) else DEFAULT_ITERATIONS
    return iterations, target, time_limit


def cfr_plus(game: Game, *, max_iterations=None, target=None, time_limit=None,
             variant: str = "cfr+", report_every: int = 10, progress: bool = False,
             alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0, check: str = "fixed",
             threads=None, checkpoint=None, checkpoint_every=None, resume=None,
             horizon=None) -> Solution:
    """CFR+, DCFR, PCFR+ or their hyperparameter schedules: average strategies for an n-player
    game (zero-sum or not).

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
    variant : {"cfr+", "dcfr", "pcfr+", "hs-dcfr", "hs-pcfr+"}
        The last two: DCFR and PCFR+ with the hyperparameter schedules of Zhang, McAleer and
        Sandholm (2024) (module docstring; ``alpha``, ``beta``, ``gamma`` are then unused).
    report_every : int
        Compute the exploitability of the average every ``report_every`` iterations
        (into ``history``; the final one is always computed); with ``check="adaptive"``
        the smallest gap between two checks.
    progress : bool
        a progress bar on stderr (:mod:`guts.engine.progress`).
    alpha, beta, gamma : float
        DCFR discount parameters (``gamma`` also the averaging exponent of PCFR+;
        ignored by CFR+ and the scheduled variants).
    check : {"fixed", "adaptive"}
        Schedule of the exploitability checks (module docstring); ``"adaptive"`` needs
        ``target_exploitability`` (without one it is ``"fixed"``).
    threads : int, optional
        Threads of the numba kernels. Default: measured as the solve runs, the faster of one
        thread and every core numba may use (:class:`._threads.ThreadTuner`: small games and
        loaded machines run faster on one). The result is bit-identical whatever the number
        of threads.
    checkpoint : str or Path, optional
        Keep the solver's state in this file (:mod:`.checkpoint`: regrets, averages,
        behaviour, iteration, history; written atomically) every ``checkpoint_every``
        seconds, at the end, and when a Ctrl-C or SIGTERM stops the solve (the iteration
        it stopped in is finished first; the signal is then raised again).
    checkpoint_every : float, optional
        Seconds between two checkpoints (default: only at the end and on a signal).
    resume : str or Path, optional
        Continue the solve kept in this checkpoint (same game, variant and schedule
        parameters, else ``GutsInputError``): ``max_iterations`` counts from the start of
        the original solve, ``history`` and ``seconds`` continue it, ``time_limit`` is this
        call's. The iterates are bit-identical to an uninterrupted solve's. ``resume`` and
        ``checkpoint`` may name the same file.
    horizon : int, optional
        The ``T`` of a scheduled variant's exponents (``t / T``, clipped at 1): the iterations
        the run is planned for. Default: the iteration budget (``max_iterations``, or its
        default), or the checkpoint's when resuming. Ignored by the other variants.

    Returns
    -------
    Solution
        Its details an :class:`~guts.engine.extensive.result.ExtensiveResult`.
        ``converged`` = the target was reached; without a target always False (the budget
        was spent, the exploitability is reported, nothing was certified at a target).
    """
    cg = _check_game(game)
    variant = check_choice("variant", variant, VARIANTS)
    check = check_choice("check", check, ("fixed", "adaptive"))
    threads = check_threads(threads)
    iterations, target, time_limit = _budget(max_iterations, target, time_limit)
    if horizon is not None:
        horizon = check_iterations("horizon", horizon)
    check_target_scale(cg, target)
    report_every = check_int("report_every", report_every, 1)
    for name, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise GutsInputError(f"{name} must be a finite number; got {v!r}")
    if checkpoint_every is not None:
        from .checkpoint import check_checkpoint_every

        checkpoint_every = check_checkpoint_every(checkpoint, checkpoint_every)
    K.prepare(cg)
    n = cg.num_players
    if n == 1:      # a decision problem: the best response (to nobody) is the exact solution
        return _one_player(game, cg, variant, target)
    schedule = (variant, float(alpha), float(beta), float(gamma))
    saved = None
    if resume is not None:
        from .checkpoint import read_checkpoint

        saved = read_checkpoint(resume, game, *schedule, accumulator_dtype(cg, variant), horizon=horizon)
        horizon = saved["horizon"]
    if variant not in HS_VARIANTS:
        horizon = None
    elif horizon is None:
        horizon = iterations
    budget = {"max_iterations": iterations, "target": target, "time_limit": time_limit, "variant": variant,
              "alpha": float(alpha), "beta": float(beta), "gamma": float(gamma), "check": check,
              "report_every": report_every}
    if horizon is not None:
        budget["horizon"] = horizon
    ckpt = None
    if checkpoint is not None:
        from .checkpoint import Checkpointer

        ckpt = Checkpointer(checkpoint, checkpoint_every, game, *schedule, horizon=horizon)
    t0 = time.perf_counter()     # the time limit is this call's
    history = []
    elapsed = 0.0
    next_check = report_every
    with using_threads(threads):
        with deferred_signals():
            state = (_WholeState if _whole.applicable(cg) else _CFRState)(
                cg, variant, float(alpha), float(beta), float(gamma), horizon)
            if saved is not None:
                from .checkpoint import restore_state

                restore_state(state, saved.pop("arrays"))
                t = saved["iteration"]
                state.iteration = t
                state.done = (t, n)
                history = list(saved["history"])
                elapsed = saved["seconds"]                  # seconds continue the original solve's
                next_check = max(saved["next_check"], t + 1)
            # the tuner counts calls of state.step, not iterations: a call is one iteration,
            # or ~20 ms of them for a small game compiled whole, and a probe of the other
            # thread count is one call (counted in iterations, a chunked solve probed every
            # other call and ran half its iterations on the slower count: Leduc 46 against
            # 37 us per iteration, and beside one other busy process 109 against 50 us). A
            # chunked solve times two calls before its first probe, re-probes sooner and
            # compares means (:class:`._threads.ThreadTuner`).
            tuner = ThreadTuner(threads, **(_WholeState.TUNING if isinstance(state, _WholeState) else {}))
            state.tuner = tuner
            state.cur = tuner.choice = threads_now() or tuner.choice
        adaptive = check == "adaptive" and target is not None
        run = drive(state, max_iterations=iterations, target=target, time_limit=time_limit,
                    check_schedule=(lambda h: _next_check(h, target, report_every)) if adaptive else report_every,
                    first_check=next_check, final_check=True, progress=progress, desc=variant,
                    measure="exploitability", history=history, started=t0, elapsed=elapsed, keeper=ckpt)
    t = run.iteration
    _, flat, ev, br = state.last
    history, run_stopped = run.history, run.stopped
    del state, run         # regrets and averages are not needed any more: free them before
    nc = float(np.sum(br - ev))   # the strategy tables are built (peak memory)
    if target is not None:
        converged = run_stopped == "target"
        if not converged:
            warnings.warn(
                f"{variant}: exploitability {nc / n:.3g} after {t} iterations is above the "
                f"target {target:.3g}", ConvergenceWarning, stacklevel=2)
    else:
        # an iteration budget (or a time limit) alone certifies nothing: the exploitability
        # is reported, but "converged" means a certificate met at a target
        converged = False
    return remember_game(Solution.of(ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, flat), exploitability=nc / n,
        nash_conv=nc, converged=bool(converged), num_iter=t, history=tuple(history),
        seconds=time.perf_counter() - t0 + elapsed, method=variant, br_values=br, budget=budget)), game)


def _one_player(game, cg, variant, target):
    """A one-player game: the player's best response to nobody is optimal, its exploitability
    0 (CFR's average would only approach it).  ``converged`` as for any solve: the certificate
    met at a target, so False without one."""
    from .evaluate import best_response, expected_values

    t0 = time.perf_counter()
    br = best_response(game, from_flat(game, [uniform_flat(pt) for pt in cg.players]), 0)
    strategies = (br.strategy,)
    ev = np.asarray(expected_values(game, strategies), dtype=float)
    nc = max(0.0, float(br.value - ev[0]))
    seconds = time.perf_counter() - t0
    return Solution.of(ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=strategies, exploitability=nc, nash_conv=nc,
        converged=target is not None and nc <= target, num_iter=0, history=((0, nc, seconds),), seconds=seconds,
        method=variant, br_values=np.array([br.value])))
