"""What every 1 v. N result of the guts family shares: player 1 against a coalition, each side's
value from its own termination value, each side's strategy (the engine's result protocol)."""
from __future__ import annotations

from dataclasses import dataclass

from guts.engine.recursive import CertifiedInterval

__all__ = ["OneVsCoalition", "OneVsCoalitionRecord"]


class OneVsCoalition(CertifiedInterval):
    """Mixin of :class:`CoalitionResult`, :class:`ContinuumResult` and :class:`LargeNResult`:
    ``value``, ``values`` and ``strategies`` from their ``player1_*`` and ``coalition_*`` fields."""

    @property
    def value(self) -> float:
        """Player 1's value (the :class:`~guts.engine.result.Result` protocol)."""
        return self.player1_value

    @property
    def values(self) -> tuple:
        """``(player1_value, coalition_value)``: what each side forces from its own termination value."""
        return (self.player1_value, self.coalition_value)

    @property
    def strategies(self) -> tuple:
        """``(player1_strategy, coalition_strategy)``."""
        return (self.player1_strategy, self.coalition_strategy)


@dataclass(frozen=True)
class OneVsCoalitionRecord(OneVsCoalition):
    """The fields a 1 v. N record declares first (:class:`~guts.games.guts.regimes.RegimeResult`,
    :class:`~guts.games.guts.large_n.LargeNResult`): the coalition size, each side's value and
    strategy, the certified interval of player 1's value, convergence, iterations and wall time.
    Each record adds its own fields after these and documents them all."""

    size: int
    player1_value: float
    coalition_value: float
    certified_lower: float
    certified_upper: float
    player1_strategy: dict
    coalition_strategy: dict
    converged: bool
    num_iter: int
    seconds: float
