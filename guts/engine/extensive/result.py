"""Frozen result types of the extensive-form solvers."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from guts.engine.result import Certificate, Details

__all__ = ["ExtensiveResult", "BestResponse"]


@dataclass(frozen=True)
class ExtensiveResult(Details):
    """What every extensive-form solver returns.

    Attributes
    ----------
    value : float
        First player's expected payoff under ``strategies``.
    values : ndarray (n_players,)
        Every player's expected payoff under ``strategies``.
    strategies : tuple of dict
        ``strategies[p][history]`` = array (num_types[p], num_actions).
    exploitability, nash_conv : float
        Of ``strategies``, by the best-response routine (exploitability = nash_conv / n).
    converged : bool
        The solver's stopping criterion was met (LP: certificate within tolerance).
    num_iter : int
        Iterations (LP: simplex/IPM iterations reported by HiGHS).
    history : tuple of (iteration, exploitability, seconds)
        Convergence trace (empty for the LP).
    seconds : float
        Wall time of the solve.
    method : str
        ``"lp"``, ``"cfr+"``, ``"dcfr"``, ``"fictitious_play"`` (realisation average),
        ``"fictitious_play_behavioural"`` (Ullman 2015's program's rule).
    br_values : ndarray (n_players,)
        Each player's best-response value against the others' ``strategies``.
    regrets : ndarray (num_iter + 1, n_players) or None
        Fictitious play only: every player's regret of s^k, k = 0..num_iter (Ullman 2015,
        Figure 2).

    ``certificate`` (the :class:`~guts.engine.result.Result` protocol): of the kind the
    method's ``target`` measures, the exploitability (LP, CFR+, DCFR) or the max regret
    (fictitious play), with NashConv and the largest gain recorded too.
    """

    value: float
    values: np.ndarray
    strategies: tuple
    exploitability: float
    nash_conv: float
    converged: bool
    num_iter: int
    history: tuple = ()
    seconds: float = 0.0
    method: str = ""
    br_values: np.ndarray = field(default=None, repr=False)
    regrets: np.ndarray = field(default=None, repr=False)
    #: :func:`.fingerprint.game_fingerprint` of the game solved (set when read back from a file).
    game_fingerprint: dict = field(default=None, repr=False, compare=False)
    #: What the solver was asked for (iterations, target, time limit, schedule), if recorded.
    budget: dict = field(default=None, repr=False, compare=False)

    @property
    def certificate(self) -> Certificate:
        gains = None if self.br_values is None else np.asarray(self.br_values, float) - np.asarray(self.values, float)
        # the kind is what the method's stopping target measures (guts._names: ``target``)
        kind = "max_regret" if self.method.startswith("fictitious_play") else "exploitability"
        return Certificate(kind, exploitability=float(self.exploitability),
                           nash_conv=float(self.nash_conv),
                           max_regret=float(np.max(gains)) if gains is not None and gains.size else float("nan"))

    def to_openspiel_policy(self, game, os_game=None, *, link=None):
        """``strategies`` as an OpenSpiel ``TabularPolicy`` (:func:`.openspiel.to_openspiel_policy`)."""
        from .openspiel import to_openspiel_policy

        return to_openspiel_policy(game, self.strategies, os_game, link=link)

    def to_gambit(self, game) -> str:
        """``strategies`` as a Gambit behaviour profile line (:func:`.gambit.gambit_behaviour_profile`)."""
        from .gambit import gambit_behaviour_profile

        return gambit_behaviour_profile(game, self.strategies)

    def history_frame(self):
        """``history`` as a DataFrame (iteration, exploitability, seconds)."""
        import pandas as pd

        return pd.DataFrame(list(self.history), columns=["iteration", "exploitability", "seconds"])


@dataclass(frozen=True)
class BestResponse:
    """A pure best response of ``player`` to fixed behaviour of the others.

    ``value`` = his expected payoff when best-responding; ``strategy`` = {history:
    array (num_types, num_actions)} of 0/1 rows (first maximising action);
    ``type_values`` (num_types,) = the part of ``value`` earned with each type
    (deal-probability weighted, so they sum to ``value``).
    """

    player: int
    value: float
    strategy: dict
    type_values: np.ndarray
