"""Floating-point error bounds of the pseudo-bloc closed forms (paper §3, §5), entry by entry.

The certificates of :mod:`guts.games.guts.continuum` evaluate α, β and their partial
derivatives with the O(1) closed forms of :mod:`guts.games.guts.pseudo_bloc`.  A fixed
allowance per entry that grows like N (``CERT_ROUNDING * (N + 1)``) reaches ~1e-7 at
N = 1e5, far above the 1e-9 brackets wanted.  The error is in fact *relative* to
the size of the terms actually summed, which near the equilibrium (every threshold
within O(1/N) of 1) are all O(1) whatever N.  This module bounds it that way.

Error model
-----------
Every input (``q``, ``a``, ``b``) is a double, taken as exact.  Each arithmetic
operation, ``log``, ``exp``, ``expm1`` and ``pow`` returns its exact result times
``(1 + δ)``, ``|δ| <= u = 2^-53`` (libm's are within one ulp: we allow
``2u``).  For an expression tree of depth ``d`` built from sums and products, the
computed value differs from the exact one by at most ``γ_d · M`` with
``γ_d = d u / (1 - d u)`` and ``M`` the same expression evaluated with the absolute
value of every term (Higham, *Accuracy and Stability of Numerical Algorithms*,
§3.1-3.4).  The one place an argument error is *amplified* is ``exp(y)`` (and
``expm1(y)``) with ``y = m log x`` computed: a relative error ``3u`` of ``y`` changes
``e^y`` by at most ``3u |y| e^y <= 3u / e`` for ``y <= 0`` (``t e^-t <= 1/e``), an
*absolute* O(u) error that does not grow with ``m`` — hence the ``+ 1`` inside the
magnitudes below.  Every depth here is below 16; :data:`ROUNDING_DEPTH` = 32 (twice
that, and one ulp per libm call) is used throughout.
"""
from __future__ import annotations

import numpy as np

from guts.games.guts.pseudo_bloc import _partials

__all__ = ["UNIT_ROUNDOFF", "ROUNDING_DEPTH", "ROUNDING_FACTOR", "alpha_beta_error", "partials_magnitude",
           "sum_error"]

#: ``u = 2^-53``, the unit roundoff of IEEE doubles.
UNIT_ROUNDOFF = 2.0**-53
#: Bound on the depth (operations along a path, libm calls counted twice) of the closed forms.
ROUNDING_DEPTH = 32
#: ``γ = depth u / (1 - depth u)``: relative-to-magnitude error of one closed-form entry.
ROUNDING_FACTOR = ROUNDING_DEPTH * UNIT_ROUNDOFF / (1.0 - ROUNDING_DEPTH * UNIT_ROUNDOFF)


def alpha_beta_error(q, free, bloc, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Bounds of ``|computed - exact|`` for :func:`pseudo_bloc_alpha` and :func:`pseudo_bloc_beta`.

    Mirrors the evaluation order of :func:`guts.games.guts.pseudo_bloc._alpha` with every
    term replaced by its absolute value (module docstring): with ``k = N - 1``,
    ``n = N + 1``, ``X1 = max(q, min(a, b))``, ``X2 = max(q, max(a, b))``::

        M_α = q (E[K] + 2 + 2Π) + (1 - q)(E[K] + 1 + n)
              + 2n [Π (X1 - q) + M_mid + (|expm1((k+2) log X2)| + 1) / (k + 2)]
        M_mid = b^k (X2 - X1)(X2 + X1) / 2                    (a <= b)
              = a (X2^(k+1) + X1^(k+1) + 2) / (k + 1)          (b < a)
        M_β = (1 - q) + (1 - a) + k (1 - b) + 1 + 2 q a b^k

    and the bounds are ``ROUNDING_FACTOR * M``.  Near the equilibrium (``1 - p = O(1/N)``
    for every threshold) ``(1 - q) n``, ``k (1 - b)`` and ``n G`` are O(1), so the bound
    is O(u) independently of N; it is O(n u) only far from 1, where payoffs are O(n).
    """
    q = np.asarray(q, dtype=float)
    a = np.asarray(free, dtype=float)
    b = np.asarray(bloc, dtype=float)
    k = size - 1
    n = size + 1
    bk = b**k
    EK = (1.0 - a) + k * (1.0 - b)
    Pi = a * bk
    X1 = np.maximum(q, np.minimum(a, b))
    X2 = np.maximum(q, np.maximum(a, b))
    with np.errstate(divide="ignore"):
        L1, L2 = np.log(X1), np.log(X2)
    mid = np.where(a <= b, bk * (X2 - X1) * (X2 + X1) / 2.0,
                   a * (np.exp((k + 1) * L2) + np.exp((k + 1) * L1) + 2.0) / (k + 1))
    tail = (np.abs(np.expm1((k + 2) * L2)) + 1.0) / (k + 2)
    G = Pi * (X1 - q) + mid + tail
    M_alpha = q * (EK + 2.0 + 2.0 * Pi) + (1.0 - q) * (EK + 1.0 + n) + 2.0 * n * G
    M_beta = (1.0 - q) + (1.0 - a) + k * (1.0 - b) + 1.0 + 2.0 * q * a * bk
    return ROUNDING_FACTOR * M_alpha, ROUNDING_FACTOR * M_beta


def partials_magnitude(size: int, q: np.ndarray, a: np.ndarray, b: np.ndarray):
    """Magnitudes ``M`` of :func:`guts.games.guts.pseudo_bloc._partials`, shape ``(R, C)``.

    Same rule as :func:`alpha_beta_error` (absolute value of every term; ``u^N - m^N``
    becomes ``u^N + m^N``); ``ROUNDING_FACTOR * M`` bounds each partial's rounding error.
    """
    return _partials(size, q, a, b, magnitude=True)


def sum_error(terms: int, magnitude):
    """Error of a recursive sum of ``terms`` numbers whose absolute values sum to ``magnitude``.

    ``γ_(terms + 1) * magnitude`` (Higham §4.2; one more for a final product by a weight).
    """
    d = (terms + 1) * UNIT_ROUNDOFF
    return d / (1.0 - d) * np.asarray(magnitude, dtype=float)
