"""Expected one-round payoff α and stakes multiplier β of n-player continuous Guts.

Paper §3 (rules and Propositions 3.1–3.2) and §4.1 (the enumeration algorithms).

Every player i holds when the hand ``U_i ~ Uniform[0, 1]`` exceeds the threshold
``p_i``.  With ``h`` holders the immediate returns are (ante paid on termination):

* ``h = 0``: 0 for everybody, stakes unchanged (redeal, multiplier 1);
* ``h = 1``: holder ``n - 1``, each dropper ``-1``, game over (multiplier 0);
* ``h >= 2``: best holder ``n + h - 2``, other holders ``h - n - 2``, droppers
  ``h - 2``; the stakes are multiplied by ``h - 1``.

Two independent implementations are provided:

``alpha_enumeration`` / ``beta_enumeration``
    The paper's Θ(n 3^n) / Θ(n 2^n) enumeration (§4.1.1–4.1.2), kept as the test
    oracle.
``alpha`` / ``beta`` / ``alpha_matrix`` / ``beta_matrix``
    A closed form, vectorised over whole matrices.  For player 1 with threshold
    ``q`` against others ``p_2..p_n`` (``K`` other holders, ``Π = Π_j p_j``)::

        α_1 = q (E[K] - 2 + 2Π) + (1 - q)(E[K] - 1 - n) + 2n ∫_q^1 Π_j max(p_j, x) dx
        β   = Σ_i (1 - p_i) - 1 + 2 Π_i p_i

    The integrand equals ``x^k Π_{j>k} s_j`` between consecutive sorted thresholds
    ``s_k <= x <= s_{k+1}``, so one entry costs O(n log n).

Examples
--------
>>> import numpy as np
>>> from guts.games.guts.payoffs import alpha, beta, alpha_enumeration
>>> float(alpha(0.5, [0.5]))                    # symmetric 2-player profile
0.0
>>> round(float(beta([0.5, 0.5])), 12)          # Proposition 3.1: pq + (1-p)(1-q)
0.5
>>> bool(np.allclose(alpha_enumeration([0.2, 0.7, 0.9]).sum(), 0.0))   # zero-sum
True
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from guts._validate import GutsInputError, check_thresholds

__all__ = [
    "alpha_enumeration",
    "beta_enumeration",
    "alpha_pseudo_bloc_enumeration",
    "alpha",
    "beta",
    "alpha_all",
    "alpha_matrix",
    "beta_matrix",
]


# ---------------------------------------------------------------------------
# The paper's enumeration (§4.1.1, §4.1.2): the oracle.
# ---------------------------------------------------------------------------
def alpha_enumeration(thresholds) -> np.ndarray:
    """Expected immediate return of every player, by the paper's enumeration (§4.1.1).

    Parameters
    ----------
    thresholds : sequence of float, length n >= 2
        Player i holds when the hand exceeds ``thresholds[i]``.

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``α_i`` for every player, in the input order.

    Notes
    -----
    Θ(n 3^n): for every drop set D and every split of the holders H into losers L
    (hand below the top holder threshold ``p^H``) and fair contenders F (hand above
    ``p^H``, each wins with probability 1/|F|) the scenario has probability
    ``Π_D p · Π_F (1 - p^H) · Π_L (p^H - p)``.
    """
    p = check_thresholds("thresholds", thresholds).ravel()
    n = p.size
    if n < 2:
        raise GutsInputError(f"Guts needs n >= 2 players; got {n} threshold(s)")
    order = np.argsort(p, kind="stable")
    s = p[order]
    value = np.zeros(n)
    players = range(n)
    for d in range(n):  # d = number who drop; all-drop (d = n) returns 0 to all
        h = n - d
        for D in combinations(players, d):
            Dset = set(D)
            H = [i for i in players if i not in Dset]
            pD = 1.0
            for i in D:
                pD *= s[i]
            pH = max(s[i] for i in H)
            for l in range(h):  # at least one fair contender
                for L in combinations(H, l):
                    Lset = set(L)
                    F = [i for i in H if i not in Lset]
                    f = len(F)
                    prob = pD * (1.0 - pH) ** f
                    for i in L:
                        prob *= pH - s[i]
                    if prob == 0.0:
                        continue
                    for i in D:
                        value[i] += prob * (h - 2)
                    for i in L:
                        value[i] += prob * (h - n - 2)
                    fair = ((n + h - 2) + (h - n - 2) * (f - 1)) / f
                    for i in F:
                        value[i] += prob * fair
    out = np.empty(n)
    out[order] = value
    return out


def beta_enumeration(thresholds) -> float:
    """Expected stakes multiplier by the paper's enumeration (§4.1.2), Θ(n 2^n)."""
    p = check_thresholds("thresholds", thresholds).ravel()
    n = p.size
    if n < 2:
        raise GutsInputError(f"Guts needs n >= 2 players; got {n} threshold(s)")
    total = 0.0
    for d in range(n + 1):
        h = n - d
        for D in combinations(range(n), d):
            Dset = set(D)
            prob = 1.0
            for i in range(n):
                prob *= p[i] if i in Dset else 1.0 - p[i]
            total += prob * (1.0 if h == 0 else h - 1)
    return float(total)


def alpha_pseudo_bloc_enumeration(q: float, free: float, bloc: float, size: int) -> float:
    """α_1 against a pseudo-bloc coalition by the paper's O(n^2) enumeration (§4.1.4).

    Player 1 plays ``q``, player 2 ``free`` and players 3..size+1 the common ``bloc``
    threshold.  Only the *number* of bloc members holding (and, among them, the
    number above the top holder threshold) matters, so the enumeration runs over
    player 1 and player 2 holding or not, ``k`` bloc holders and ``f_b`` of them in
    fair play, with binomial weights.  Kept as the baseline of the benchmarks and as
    a second oracle.
    """
    from math import comb

    check_thresholds("thresholds", [q, free, bloc])
    if int(size) < 1:
        raise GutsInputError(f"size must be >= 1; got {size}")
    if int(size) == 1:
        return float(alpha_enumeration([q, free])[0])
    m = int(size) - 1  # bloc members
    n = m + 2
    total = 0.0
    for h1 in (0, 1):
        for h2 in (0, 1):
            for k in range(m + 1):
                h = h1 + h2 + k
                if h == 0:
                    continue  # everybody drops: redeal, return 0
                # droppers' probabilities; a holder's is in its fair/loser factor below
                w = comb(m, k) * bloc ** (m - k) * (1.0 if h1 else q) * (1.0 if h2 else free)
                tops = ([q] if h1 else []) + ([free] if h2 else []) + ([bloc] if k else [])
                pH = max(tops)
                for f1 in ((0, 1) if h1 else (0,)):          # player 1 fair (1) or loser (0)
                    p1 = ((1 - pH) if f1 else (pH - q)) if h1 else 1.0
                    for f2 in ((0, 1) if h2 else (0,)):
                        p2 = ((1 - pH) if f2 else (pH - free)) if h2 else 1.0
                        for fb in range(k + 1):
                            f = f1 + f2 + fb
                            if f == 0:
                                continue
                            pb = comb(k, fb) * (1 - pH) ** fb * (pH - bloc) ** (k - fb)
                            prob = w * p1 * p2 * pb
                            if prob == 0.0:
                                continue
                            if not h1:
                                ret = h - 2
                            elif f1:
                                ret = ((n + h - 2) + (h - n - 2) * (f - 1)) / f
                            else:
                                ret = h - n - 2
                            total += prob * ret
    return float(total)


# ---------------------------------------------------------------------------
# Closed form, vectorised.
# ---------------------------------------------------------------------------
def _win_integral(q: np.ndarray, s_sorted: np.ndarray) -> np.ndarray:
    """∫_q^1 Π_j max(s_j, x) dx, broadcasting ``q[...]`` against ``s_sorted[..., m]``.

    ``s_sorted`` is sorted along the last axis.  Between ``s_k`` and ``s_{k+1}``
    (``s_0 = 0``, ``s_{m+1} = 1``) the integrand is ``x^k Π_{j>k} s_j``.
    """
    m = s_sorted.shape[-1]
    # suffix products P_k = Π_{j>k} s_j, k = 0..m (P_m = 1)
    ones = np.ones(s_sorted.shape[:-1] + (1,))
    rev = np.cumprod(s_sorted[..., ::-1], axis=-1)[..., ::-1]  # rev[k] = Π_{j>=k+1} s_j (1-based)
    P = np.concatenate([rev, ones], axis=-1)  # shape (..., m+1)
    edges = np.concatenate([np.zeros_like(ones), s_sorted, ones], axis=-1)  # (..., m+2)
    k1 = np.arange(1, m + 2, dtype=float)  # exponents k+1
    qx = np.asarray(q, dtype=float)[..., None]
    lo = np.maximum(edges[..., :-1], qx)
    hi = np.maximum(edges[..., 1:], qx)
    return np.sum(P * (hi**k1 - lo**k1) / k1, axis=-1)


def alpha(q, others) -> np.ndarray:
    """Player 1's expected immediate return α_1 (closed form, §3), vectorised.

    Parameters
    ----------
    q : float or array_like
        Player 1's threshold(s), broadcast against ``others[..., 0]``.
    others : array_like, shape (..., m), m >= 1
        Thresholds of the other ``m = n - 1`` players (order irrelevant).

    Returns
    -------
    numpy.ndarray
        α_1 with the broadcast shape of ``q`` and ``others[..., 0]``.
    """
    q = check_thresholds("q", q)
    o = check_thresholds("others", others)
    if o.ndim == 0:
        o = o[None]
    m = o.shape[-1]
    n = m + 1
    s = np.sort(o, axis=-1)
    EK = np.sum(1.0 - s, axis=-1)
    Pi = np.prod(s, axis=-1)
    q_b = np.broadcast_to(q, np.broadcast_shapes(q.shape, s.shape[:-1]))
    G = _win_integral(q_b, np.broadcast_to(s, q_b.shape + (m,)))
    return q * (EK - 2.0 + 2.0 * Pi) + (1.0 - q) * (EK - 1.0 - n) + 2.0 * n * G


def beta(thresholds) -> np.ndarray:
    """Expected stakes multiplier β = Σ(1 - p_i) - 1 + 2 Π p_i over the last axis (§3)."""
    p = check_thresholds("thresholds", thresholds)
    if p.ndim == 0 or p.shape[-1] < 2:
        raise GutsInputError(f"beta needs thresholds of n >= 2 players on the last axis; got shape {p.shape}")
    return np.sum(1.0 - p, axis=-1) - 1.0 + 2.0 * np.prod(p, axis=-1)


def alpha_all(thresholds) -> np.ndarray:
    """α_i for every player of one or many profiles (closed form), shape of input."""
    p = check_thresholds("thresholds", thresholds)
    if p.ndim == 0 or p.shape[-1] < 2:
        raise GutsInputError(f"need n >= 2 thresholds on the last axis; got shape {p.shape}")
    n = p.shape[-1]
    out = np.empty_like(p)
    for i in range(n):
        others = np.delete(p, i, axis=-1)
        out[..., i] = alpha(p[..., i], others)
    return out


def alpha_matrix(rows, cols, chunk: int = 4096) -> np.ndarray:
    """Matrix ``A[i, j] = α_1(rows[i], cols[j, :])`` of player 1 against column profiles.

    Parameters
    ----------
    rows : array_like, shape (R,)
        Player 1's thresholds.
    cols : array_like, shape (C, m)
        One profile of the ``m`` other players per column.
    chunk : int
        Columns per block (bounds memory at about ``R * chunk * 8`` bytes per temporary).

    Notes
    -----
    Per column the sorted thresholds, suffix products and suffix integrals are
    computed once; each entry then needs one power ``q^{k+1}`` where ``k`` is the
    number of other thresholds not above ``q``.
    """
    q = check_thresholds("rows", rows).ravel()
    c = check_thresholds("cols", cols)
    if c.ndim != 2:
        raise GutsInputError(f"cols must have shape (C, m); got {c.shape}")
    C, m = c.shape
    n = m + 1
    out = np.empty((q.size, C))
    for start in range(0, C, chunk):
        s = np.sort(c[start:start + chunk], axis=1)
        Cb = s.shape[0]
        ones = np.ones((Cb, 1))
        rev = np.cumprod(s[:, ::-1], axis=1)[:, ::-1]
        P = np.concatenate([rev, ones], axis=1)  # (Cb, m+1), P[:, k] = Π_{j>k} s_j
        edges = np.concatenate([np.zeros((Cb, 1)), s, ones], axis=1)  # (Cb, m+2)
        k1 = np.arange(1, m + 2, dtype=float)
        full = P * (edges[:, 1:] ** k1 - edges[:, :-1] ** k1) / k1  # (Cb, m+1)
        # suffix sums S[:, k] = Σ_{k' >= k} full[:, k'], with S[:, m+1] = 0
        S = np.concatenate([np.cumsum(full[:, ::-1], axis=1)[:, ::-1], np.zeros((Cb, 1))], axis=1)
        # k(q) = #{j : s_j <= q}; q lies in [s_k, s_{k+1}]
        k = np.empty((q.size, Cb), dtype=np.intp)
        for r, qr in enumerate(q):
            k[r] = np.sum(s <= qr, axis=1)
        cidx = np.arange(Cb)[None, :]
        Pk = P[cidx, k]
        upper = edges[cidx, k + 1]
        kp1 = (k + 1).astype(float)
        G = S[cidx, k + 1] + Pk * (upper**kp1 - q[:, None] ** kp1) / kp1
        EK = np.sum(1.0 - s, axis=1)
        Pi = P[:, 0]
        out[:, start:start + Cb] = (
            q[:, None] * (EK - 2.0 + 2.0 * Pi)[None, :]
            + (1.0 - q[:, None]) * (EK - 1.0 - n)[None, :]
            + 2.0 * n * G
        )
    return out


def beta_matrix(rows, cols) -> np.ndarray:
    """Matrix ``B[i, j] = β(rows[i], cols[j, :])`` (stakes multiplier, §3)."""
    q = check_thresholds("rows", rows).ravel()
    c = check_thresholds("cols", cols)
    if c.ndim != 2:
        raise GutsInputError(f"cols must have shape (C, m); got {c.shape}")
    EK = np.sum(1.0 - c, axis=1)
    Pi = np.prod(c, axis=1)
    return (1.0 - q)[:, None] + EK[None, :] - 1.0 + 2.0 * q[:, None] * Pi[None, :]
