"""Fused (numba) kernel for the terminal pass: one loop over terminals x deals, no
temporaries.  Same result as the numpy chunked pass in :mod:`._kernels` (which stays
the reference implementation and the fallback when numba is unavailable).
"""
from __future__ import annotations

import numpy as np

try:  # numba is a runtime dependency, but keep the engine importable without it
    from numba import njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def njit(*a, **k):
        def deco(f):
            return f
        return deco


@njit(cache=True, nogil=True)
def terminal_values_fused(p, ctx, tvid, tscal, tseq, toff, tscale, ttid, tables, info,
                          rflat, rbase, rstride, g):
    """g[seq_p(z), info_p(d)] += scal_z ctx[vid_z, d] prod_{q != p} R_q[seq_q(z), info_q(d)]
    * (offset_p(z) + scale_z * tables[tid_z, p, d])   for all terminals z and deals d."""
    n = tseq.shape[0]
    Z = tvid.shape[0]
    D = ctx.shape[1]
    rb = np.empty(n, dtype=np.int64)
    for z in range(Z):
        k = tscal[z]
        if k == 0.0:
            continue
        skip = False
        for q in range(n):
            rb[q] = rbase[q] + tseq[q, z] * rstride[q]
            if q != p and not skip:
                nz = False
                for t in range(rstride[q]):
                    if rflat[rb[q] + t] != 0.0:
                        nz = True
                        break
                if not nz:
                    skip = True
        if skip:
            continue
        v = tvid[z]
        off = toff[p, z]
        sc = tscale[z]
        tid = ttid[z]
        sp = tseq[p, z]
        for d in range(D):
            w = ctx[v, d]
            if w == 0.0:
                continue
            for q in range(n):
                if q != p:
                    w *= rflat[rb[q] + info[q, d]]
            if w == 0.0:
                continue
            if sc != 0.0:
                w *= off + sc * tables[tid, p, d]
            else:
                w *= off
            g[sp, info[p, d]] += k * w
    return g
