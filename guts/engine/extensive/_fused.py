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
def terminal_values_blocked(p, others, ctxp, tvid, tscal, tseq, toff, tscale, ttid, tabp, infop,
                            bstart, bend, btype, rflat, rbase, rstride, g):
    """g[seq_p(z), info_p(d)] += scal_z ctx[vid_z, d] prod_{q != p} R_q[seq_q(z), info_q(d)]
    * (offset_p(z) + scale_z * tables[tid_z, p, d]) for all terminals z and deals d, with deals sorted by player p's type
    (``ctxp``, ``tabp``, ``infop`` permuted; ``bstart/bend/btype`` = the type blocks):
    contiguous streaming loads and one write per (terminal, type)."""
    n = tseq.shape[0]
    Z = tvid.shape[0]
    no = others.shape[0]
    nb = bstart.shape[0]
    rb = np.empty(n, dtype=np.int64)
    for z in range(Z):
        k = tscal[z]
        if k == 0.0:
            continue
        skip = False
        for j in range(no):
            q = others[j]
            rb[q] = rbase[q] + tseq[q, z] * rstride[q]
            nz = False
            for t in range(rstride[q]):
                if rflat[rb[q] + t] != 0.0:
                    nz = True
                    break
            if not nz:
                skip = True
                break
        if skip:
            continue
        v = tvid[z]
        off = toff[p, z]
        sc = tscale[z]
        tid = ttid[z]
        sp = tseq[p, z]
        for b in range(nb):
            acc0 = 0.0
            acc1 = 0.0
            if no == 1:
                q0 = others[0]
                r0 = rb[q0]
                for d in range(bstart[b], bend[b]):
                    w = ctxp[v, d] * rflat[r0 + infop[q0, d]]
                    acc0 += w
                    acc1 += w * tabp[tid, d]
            elif no == 2:
                q0 = others[0]
                q1 = others[1]
                r0 = rb[q0]
                r1 = rb[q1]
                for d in range(bstart[b], bend[b]):
                    w = ctxp[v, d] * rflat[r0 + infop[q0, d]] * rflat[r1 + infop[q1, d]]
                    acc0 += w
                    acc1 += w * tabp[tid, d]
            else:
                for d in range(bstart[b], bend[b]):
                    w = ctxp[v, d]
                    for j in range(no):
                        q = others[j]
                        w *= rflat[rb[q] + infop[q, d]]
                    acc0 += w
                    acc1 += w * tabp[tid, d]
            g[sp, btype[b]] += k * (off * acc0 + sc * acc1)
    return g
