"""One iteration driver for every iterative solver (the loop around a solver's state, written once).

An iterative method is written as a *state object* (as OpenSpiel's solvers are): it knows
how to advance its own iterates and how to certify where they stand. :func:`drive` owns
everything around that: the iteration budget, the target and the schedule of the checks
against it, the time limit, the progress bar (:mod:`guts.engine.progress`), Ctrl-C and
SIGTERM between two steps (:mod:`guts.engine.extensive._interrupt`), and the checkpoints
of a solve that keeps them. It returns why it stopped and the history of its checks.

The state protocol (:class:`IterativeState`):

``iteration`` (int)
    The iterations done so far (a resumed state starts at its checkpoint's).
``step(count)``
    Advance exactly ``count >= 1`` iterations (``iteration`` grows by ``count``).
``certificate()``
    The measure of the current iterate that is checked against the target: a number (an
    exploitability) or an array (every player's regret), compared through its maximum.

Optional:

``plan(limit) -> int``
    How many iterations the next :meth:`step` runs, ``1 <= count <= limit`` (``limit``
    ends at the next check or the budget). Without it a step runs up to the next check.
``complete() -> int``
    After a signal stopped a step half-way: finish the iteration it stopped in and return
    the last complete iteration (for a final checkpoint).

The driver never looks inside a state: a new method needs only the three members above.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from .progress import progress_bar

__all__ = ["IterativeState", "Drive", "drive", "STOP_REASONS", "TARGET_BAR_STEPS", "target_progress"]

#: Why :func:`drive` stopped: the certificate met the target, the iteration budget was spent,
#: the time limit was reached.
STOP_REASONS = ("target", "budget", "time")
#: Steps of the progress bar of a run with a target (percent of the way, log scale).
TARGET_BAR_STEPS = 100
_TARGET_BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"


@runtime_checkable
class IterativeState(Protocol):
    """What :func:`drive` needs of a solver's state (module docstring)."""

    iteration: int

    def step(self, count: int) -> None: ...

    def certificate(self) -> Any: ...


@dataclass(frozen=True)
class Drive:
    """What :func:`drive` did: ``stopped`` in :data:`STOP_REASONS`, the last ``iteration``,
    the ``history`` of checks ``(iteration, certificate, seconds)``, the last ``certificate``
    (None if no check ran) and ``next_check`` (where the schedule would have checked next)."""

    stopped: str
    iteration: int
    history: list
    certificate: Any
    next_check: int


def target_progress(first: float, now: float, target: float) -> int:
    """Percent of the way from the first checked certificate to the target, on a log scale
    (the certificate of a no-regret method falls roughly as a power of the iteration)."""
    if not (now > target):
        return TARGET_BAR_STEPS
    if not (first > target) or not (now > 0):
        return 0
    frac = np.log(first / now) / np.log(first / target)
    return int(np.clip(frac, 0.0, 1.0) * TARGET_BAR_STEPS)


def _score(cert) -> float:
    """The number compared with the target: the certificate, or its largest entry."""
    return float(np.max(cert))


def drive(state, *, max_iterations: int, target: float | None = None, time_limit: float | None = None,
          check_schedule: int | Callable[[list], int] = 1, first_check: int | None = None,
          strict: bool = False, final_check: bool = False, progress: bool = False, desc: str = "",
          measure: str = "certificate", on_check: Callable | None = None, history=None,
          started: float | None = None, elapsed: float = 0.0, keeper=None) -> Drive:
    """Run ``state`` (:class:`IterativeState`) until its certificate meets ``target``, the
    iteration budget or the time limit ends the run.

    Parameters
    ----------
    state : IterativeState
    max_iterations : int
        Iteration budget, counted from iteration 0 (a resumed state has spent some).
    target : float, optional
        Stop at the first check whose certificate (its maximum, for an array) is ``<= target``
        (``< target`` with ``strict``).
    time_limit : float, optional
        Seconds from ``started``, tested after every step.
    check_schedule : int or callable
        ``k``: check every ``k`` iterations; or ``next_check(history) -> iteration`` of the
        next check, called after every check that did not meet the target. A check also runs
        when the budget is spent.
    first_check : int, optional
        Iteration of the first check (default ``iteration + k``, or ``iteration + 1`` with a
        callable schedule).
    final_check : bool
        Certify the last iterate when the run ended elsewhere than at a check.
    progress, desc, measure
        A bar on stderr (:mod:`guts.engine.progress`): with a target, the certificate's way
        to it (log scale); without, the iterations. ``measure`` names the certificate.
    on_check : callable, optional
        ``on_check(iteration, certificate)`` after every check.
    history : list, optional
        Checks of an earlier part of the run (resumed), continued.
    started, elapsed
        ``time.perf_counter()`` at which the time limit started (default: now), and seconds
        the run had spent before (added to the history's seconds).
    keeper : optional
        Checkpoints: ``keeper.due()`` after every step, ``keeper.write(state, iteration,
        next_check, history, seconds)`` when due, at the end, and when a Ctrl-C or SIGTERM
        stops the run (after ``state.complete()``, if the state has it; the signal is then
        raised again).

    Returns
    -------
    Drive
    """
    from .extensive._interrupt import checkpoint, deferred_signals

    started = time.perf_counter() if started is None else started
    history = [] if history is None else list(history)
    every = check_schedule if not callable(check_schedule) else None
    t = int(state.iteration)
    if first_check is None:
        first_check = t + (every if every is not None else 1)
    next_check = max(int(first_check), t + 1)
    plan = getattr(state, "plan", None)

    def seconds():
        return time.perf_counter() - started + elapsed

    def met(score):
        return target is not None and (score < target if strict else score <= target)

    bar = None
    if progress:
        # with a target the bar measures the certificate's way to it (log scale, from the first
        # check), not the iteration cap: the cap is a safety bound and its ETA meant nothing
        # (hours shown for a run that met its target in a minute)
        if target is not None:
            bar = progress_bar(total=TARGET_BAR_STEPS, desc=f"{desc} to {measure} {target:.3g}", enabled=True,
                               unit="%", bar_format=_TARGET_BAR_FORMAT)
        else:
            bar = progress_bar(total=max_iterations, desc=desc, enabled=True)
            if t:
                bar.update(min(t, max_iterations))

    cert = None
    checked_at = None
    stopped = "budget"

    def check():
        nonlocal cert, checked_at
        cert = state.certificate()
        checked_at = t
        score = _score(cert)
        history.append((t, cert, seconds()))
        if bar is not None:
            if target is not None:
                bar.n = target_progress(_score(history[0][1]), score, target)
            bar.set_postfix({measure: f"{score:.3g}", "iteration": t})
        if on_check is not None:
            on_check(t, cert)
        return score

    try:
        with deferred_signals():
            while t < max_iterations:
                limit = min(max_iterations - t, next_check - t)
                count = max(1, min(limit, plan(limit))) if plan is not None else limit
                state.step(count)
                t += count
                if int(state.iteration) != t:
                    raise RuntimeError(f"{type(state).__name__}.step({count}) left iteration {state.iteration}, "
                                       f"not {t}")
                checkpoint()
                if bar is not None and target is None:
                    bar.update(count)
                if t >= next_check or t >= max_iterations:
                    if met(check()):
                        stopped = "target"
                        break
                    next_check = every + t if every is not None else max(t + 1, int(check_schedule(history)))
                if time_limit is not None and time.perf_counter() - started >= time_limit:
                    stopped = "time"
                    break
                if keeper is not None and keeper.due():
                    keeper.write(state, t, next_check, history, seconds())
            if final_check and checked_at != t:
                cert = state.certificate()
                if not history or history[-1][0] != t:
                    history.append((t, cert, seconds()))
            if keeper is not None:
                keeper.write(state, t, next_check, history, seconds())
    except KeyboardInterrupt:           # Ctrl-C, or SIGTERM as the command line raises it
        if keeper is not None:
            _final_write(state, keeper, next_check, history, seconds)
        raise
    finally:
        if bar is not None:
            bar.close()
    return Drive(stopped=stopped, iteration=t, history=history, certificate=cert, next_check=next_check)


def _final_write(state, keeper, next_check, history, seconds):
    """After a signal: finish the iteration it stopped and keep the state. A second signal
    meanwhile, or a failed write, leaves the previous checkpoint as it was."""
    try:
        complete = getattr(state, "complete", None)
        t = complete() if complete is not None else int(state.iteration)
        if t:
            keeper.write(state, t, next_check, history, seconds())
    except BaseException:       # noqa: BLE001 - the first signal is raised again by the caller
        pass

