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
from numpy.typing import ArrayLike

from guts._validate import GutsInputError, check_matrix

__all__ = ["StageGame", "DenseStage", "LazyStage", "as_stage"]


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


class LazyStage(StageGame):
    """A stage game whose entries are computed on demand by ``_block(I, J)``.

    Full rows are cached (the double oracle asks for the same support rows at every
    value of V); ``dense()`` builds the whole matrix once and then serves
    everything.  Subclasses set ``shape`` and implement ``_block(I, J)`` returning
    ``(A[I][:, J], B[I][:, J])`` for index arrays; ``max_cached_rows`` bounds the
    cache for very wide games.
    """

    max_cached_rows: int | None = None

    def __init__(self, shape):
        self.shape = (int(shape[0]), int(shape[1]))
        self._dense = None
        self._row_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _block(self, I, J):  # pragma: no cover - abstract
        raise NotImplementedError

    def dense(self):
        if self._dense is None:
            self._dense = self._block(np.arange(self.shape[0]), np.arange(self.shape[1]))
        return self._dense

    def _rows(self, I):
        if self._dense is not None:
            return self._dense[0][I], self._dense[1][I]
        C = self.shape[1]
        missing = [i for i in dict.fromkeys(int(i) for i in I) if i not in self._row_cache]
        if missing:
            A, B = self._block(np.asarray(missing, dtype=np.intp), np.arange(C))
            for k, i in enumerate(missing):
                self._row_cache[i] = (A[k], B[k])
        if self.max_cached_rows is not None and len(self._row_cache) > self.max_cached_rows:
            keep = {int(i) for i in I}  # bound memory: keep the rows asked for now
            self._row_cache = {i: v for i, v in self._row_cache.items() if i in keep}
        if len(I) == 0:
            return np.empty((0, C)), np.empty((0, C))
        return (np.stack([self._row_cache[int(i)][0] for i in I]),
                np.stack([self._row_cache[int(i)][1] for i in I]))

    def _cols(self, J):
        if self._dense is not None:
            return self._dense[0][:, J], self._dense[1][:, J]
        return self._block(np.arange(self.shape[0]), J)


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


def as_stage(A: ArrayLike | StageGame, B: ArrayLike | None = None) -> StageGame:
    """Accept a :class:`StageGame` or a pair of matrices ``(A, B)``."""
    if isinstance(A, StageGame):
        if B is not None:
            raise GutsInputError("pass either a StageGame or the matrices A and B, not both")
        return A
    if B is None:
        raise GutsInputError("the stakes multiplier B is required with a payoff matrix A")
    return DenseStage(A, B)
