"""Stage games of continuous Guts: player 1's thresholds against coalition profiles.

The engine's :class:`guts.engine.stage.LazyStage` with entries from the closed form of
:mod:`guts.games.guts.payoffs` (paper §3).
"""
from __future__ import annotations

from guts._validate import GutsInputError, check_thresholds
from guts.engine.stage import LazyStage
from guts.games.guts.payoffs import alpha_matrix, beta_matrix

__all__ = ["GutsStage"]


class GutsStage(LazyStage):
    """Player 1 (rows: thresholds) against a coalition (columns: threshold profiles).

    Entries are computed on demand by the closed form of :mod:`guts.games.guts.payoffs` and
    cached; ``dense()`` builds the whole matrix once.
    """

    def __init__(self, row_thresholds, col_profiles):
        self.row_thresholds = check_thresholds("player 1 thresholds", row_thresholds).ravel()
        prof = check_thresholds("coalition profiles", col_profiles)
        if prof.ndim != 2:
            raise GutsInputError(f"coalition profiles must have shape (C, N); got {prof.shape}")
        self.col_profiles = prof
        super().__init__((self.row_thresholds.size, prof.shape[0]))

    def _block(self, I, J):
        q, prof = self.row_thresholds[I], self.col_profiles[J]
        return alpha_matrix(q, prof), beta_matrix(q, prof)
