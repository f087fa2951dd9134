"""One round of a single-state generalized recursive game: payoff A, stakes B.

The recursive game (paper §1) is fully described by the one-round matrices
``A`` (row player's expected immediate return α) and ``B >= 0`` (expected stakes
multiplier β).  A :class:`StageGame` hands out rows and columns of both so that
solvers can work on the dense matrices (LP, fictitious play) or lazily on a few
rows and columns (double oracle), and :meth:`StageGame.transpose` gives the same
round seen by the column player (``-A^T``, ``B^T``).
"""
from __future__ import annotations

import numpy as np

from ._validate import GutsInputError, check_matrix, check_thresholds
from .payoffs import alpha_matrix, beta_matrix

__all__ = ["StageGame", "DenseStage", "GutsStage", "as_stage"]


class StageGame:
    """Abstract one-round game; subclasses implement ``_rows``, ``_cols`` and ``shape``."""

    shape: tuple[int, int]

    def rows(self, I):
        """``(A[I, :], B[I, :])`` for row indices ``I``."""
        return self._rows(np.asarray(I, dtype=np.intp))

    def cols(self, J):
        """``(A[:, J], B[:, J])`` for column indices ``J``."""
        return self._cols(np.asarray(J, dtype=np.intp))

    def dense(self):
        """The full ``(A, B)``."""
        return self.rows(np.arange(self.shape[0]))

    def transpose(self) -> "StageGame":
        """The round seen by the column player: payoff ``-A^T``, multiplier ``B^T``."""
        return _Transposed(self)


class DenseStage(StageGame):
    """A stage game given by explicit matrices ``A`` and ``B`` (``B >= 0``, paper (1.2))."""

    def __init__(self, A, B):
        A = check_matrix("A", A)
        B = check_matrix("B", B)
        if A.shape != B.shape:
            raise GutsInputError(f"A and B must have the same shape; got {A.shape} and {B.shape}")
        if np.any(B < 0):
            raise GutsInputError(f"the stakes multiplier B must be >= 0 (paper (1.2)); min is {B.min()}")
        self.A, self.B = A, B
        self.shape = A.shape

    def _rows(self, I):
        return self.A[I], self.B[I]

    def _cols(self, J):
        return self.A[:, J], self.B[:, J]

    def dense(self):
        return self.A, self.B


class GutsStage(StageGame):
    """Player 1 (rows: thresholds) against a coalition (columns: threshold profiles).

    Entries are computed on demand by the closed form of :mod:`guts.payoffs` and
    cached; ``dense()`` builds the whole matrix once.
    """

    def __init__(self, row_thresholds, col_profiles):
        self.row_thresholds = check_thresholds("player 1 thresholds", row_thresholds).ravel()
        prof = check_thresholds("coalition profiles", col_profiles)
        if prof.ndim != 2:
            raise GutsInputError(f"coalition profiles must have shape (C, N); got {prof.shape}")
        self.col_profiles = prof
        self.shape = (self.row_thresholds.size, prof.shape[0])
        self._dense = None
        self._row_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def dense(self):
        if self._dense is None:
            self._dense = (
                alpha_matrix(self.row_thresholds, self.col_profiles),
                beta_matrix(self.row_thresholds, self.col_profiles),
            )
        return self._dense

    def _rows(self, I):
        if self._dense is not None:
            return self._dense[0][I], self._dense[1][I]
        missing = [int(i) for i in I if int(i) not in self._row_cache]
        if missing:
            q = self.row_thresholds[missing]
            a = alpha_matrix(q, self.col_profiles)
            b = beta_matrix(q, self.col_profiles)
            for k, i in enumerate(missing):
                self._row_cache[i] = (a[k], b[k])
        A = np.array([self._row_cache[int(i)][0] for i in I]).reshape(len(I), self.shape[1])
        B = np.array([self._row_cache[int(i)][1] for i in I]).reshape(len(I), self.shape[1])
        return A, B

    def _cols(self, J):
        if self._dense is not None:
            return self._dense[0][:, J], self._dense[1][:, J]
        prof = self.col_profiles[J]
        return alpha_matrix(self.row_thresholds, prof), beta_matrix(self.row_thresholds, prof)


class _Transposed(StageGame):
    def __init__(self, base: StageGame):
        self.base = base
        self.shape = (base.shape[1], base.shape[0])

    def _rows(self, I):
        A, B = self.base.cols(I)
        return -A.T, B.T

    def _cols(self, J):
        A, B = self.base.rows(J)
        return -A.T, B.T

    def dense(self):
        A, B = self.base.dense()
        return -A.T, B.T

    def transpose(self):
        return self.base


def as_stage(A, B=None) -> StageGame:
    """Accept a :class:`StageGame` or a pair of matrices ``(A, B)``."""
    if isinstance(A, StageGame):
        if B is not None:
            raise GutsInputError("pass either a StageGame or the matrices A and B, not both")
        return A
    if B is None:
        raise GutsInputError("the stakes multiplier B is required with a payoff matrix A")
    return DenseStage(A, B)
