"""Hyperparameter schedules of discounted CFR: HS-DCFR and HS-PCFR+.

Zhang, McAleer and Sandholm, *Faster Game Solving via Hyperparameter Schedules* (2024;
arXiv:2404.09097) replace the constant discount exponents of DCFR (Brown and Sandholm, *Solving
Imperfect-Information Games via Discounted Regret Minimization*, 2019) and the constant
averaging exponent of PCFR+ (Farina, Kroer and Sandholm, *Faster Game Solving via Predictive
Blackwell Approachability*, 2021) by exponents that move linearly with the share ``t / T`` of
the run done (``T`` the number of iterations the run is planned for, its *horizon*):

    alpha_t = 1 + 3 t / T,    beta_t = -1 - 2 t / T,    gamma_t = 30 - 5 t / T

(the schedules the paper calls HS_alpha, HS_beta and HS_gamma30; its HS_gamma15, starting at
15, is not offered here).
HS-DCFR schedules all three; HS-PCFR+ only ``gamma`` (PCFR+ has no regret discount). This
module implements that reading, taken from two independent public implementations of the
paper (both transcribe these four linear schedules as its equation (4) and take ``T`` as the
run's total iterations); the paper's text itself was not at hand.  Conventions of this
package (those of ``variant="dcfr"``), iterations counted from 1:

* at the end of iteration ``t`` (after adding its regrets) positive cumulative regrets are
  multiplied by ``t^alpha_t / (t^alpha_t + 1)``, negative ones by ``t^beta_t / (t^beta_t + 1)``
  (HS-DCFR);
* the average strategy's sums are multiplied by ``(t / (t + 1))^gamma_t`` after iteration
  ``t`` (Brown and Sandholm's averaging discount), i.e. iteration ``t`` weighs
  ``w_t = prod_{s < t} ((s + 1) / s)^gamma_s`` in the (unnormalised) average, which is
  ``t^gamma`` for a constant ``gamma`` (the weights of ``"dcfr"`` and ``"pcfr+"``);
* past the horizon the exponents stay at their final values (``t / T`` clipped at 1).

The weights reach ``t^30``: the solver keeps these variants' accumulators in float64 (up to
:data:`guts.engine.tolerances.MAX_ITERATIONS` = 1e9 iterations ``sum_t w_t < 1e280``).

The per-iteration scalars are computed in blocks of :data:`BLOCK` iterations aligned on
multiples of it, always the same arrays, so that a value never depends on how the iterations
were grouped into calls nor on a resumed solve: the iterates stay bit-identical.
"""
from __future__ import annotations

import numpy as np

__all__ = ["HS_VARIANTS", "GAMMA_START", "GAMMA_DROP", "ALPHA_START", "ALPHA_RISE", "BETA_START", "BETA_DROP",
           "BLOCK", "exponents", "HyperSchedule"]

#: The variants with a hyperparameter schedule.
HS_VARIANTS = ("hs-dcfr", "hs-pcfr+")
#: gamma_t = GAMMA_START - GAMMA_DROP t / T (the paper's HS_gamma30).
GAMMA_START, GAMMA_DROP = 30.0, 5.0
#: alpha_t = ALPHA_START + ALPHA_RISE t / T (HS_alpha).
ALPHA_START, ALPHA_RISE = 1.0, 3.0
#: beta_t = BETA_START - BETA_DROP t / T (HS_beta).
BETA_START, BETA_DROP = -1.0, 2.0
#: Iterations per block of precomputed scalars (at least one call of the whole-game kernels,
#: :attr:`.cfr._WholeState.MAX_CHUNK`, so that a call spans at most two blocks).
BLOCK = 4096


def exponents(t, horizon):
    """``(alpha_t, beta_t, gamma_t)`` at iteration(s) ``t`` (from 1) of a run of ``horizon``
    iterations (module docstring)."""
    p = np.minimum(np.asarray(t, dtype=float) / float(horizon), 1.0)
    return ALPHA_START + ALPHA_RISE * p, BETA_START - BETA_DROP * p, GAMMA_START - GAMMA_DROP * p


class HyperSchedule:
    """The per-iteration scalars ``(w_t, pos_factor_t, neg_factor_t)`` of a scheduled variant,
    as the CFR kernels take them (``mode`` 1 for HS-DCFR, 2 for HS-PCFR+)."""

    def __init__(self, variant: str, horizon: int):
        if variant not in HS_VARIANTS:
            raise ValueError(variant)
        self.variant = variant
        self.mode = 1 if variant == "hs-dcfr" else 2
        self.horizon = int(horizon)
        self._k = -1                # the block in self._tab
        self._tab = None
        self._log_next = 0.0        # log w at the first iteration of block self._k + 1

    def _block(self, k: int) -> np.ndarray:
        """Block k: rows for iterations ``k BLOCK + 1 .. (k + 1) BLOCK``."""
        if k == self._k:
            return self._tab
        if k < self._k:             # only when a state is rebuilt: start again from block 0
            self._k, self._log_next = -1, 0.0
        while self._k < k:
            self._k += 1
            t = np.arange(self._k * BLOCK + 1, (self._k + 1) * BLOCK + 1, dtype=float)
            alpha, beta, gamma = exponents(t, self.horizon)
            # log w_{t+1} = log w_t + gamma_t log((t + 1) / t), summed in order from w_1 = 1
            logw = np.cumsum(np.concatenate(([self._log_next], gamma * np.log1p(1.0 / t))))
            self._log_next = float(logw[-1])
            tab = np.empty((BLOCK, 3))
            tab[:, 0] = np.exp(logw[:-1])
            if self.mode == 1:
                ta = t ** alpha
                tb = t ** beta
                tab[:, 1] = ta / (ta + 1.0)
                tab[:, 2] = tb / (tb + 1.0)
            else:
                tab[:, 1:] = 1.0
            self._tab = tab
        return self._tab

    def table(self, t_first: int, count: int) -> np.ndarray:
        """Rows ``(w, pos_factor, neg_factor)`` of iterations ``t_first .. t_first + count - 1``
        (C-contiguous, float64)."""
        out = np.empty((count, 3))
        i, t = 0, t_first
        while i < count:
            k, r = divmod(t - 1, BLOCK)
            n = min(count - i, BLOCK - r)
            out[i:i + n] = self._block(k)[r:r + n]
            i += n
            t += n
        return out

    def at(self, t: int):
        """``(mode, w, pos_factor, neg_factor)`` of iteration ``t`` (the level kernels' form)."""
        k, r = divmod(t - 1, BLOCK)
        row = self._block(k)[r]
        return self.mode, float(row[0]), float(row[1]), float(row[2])
