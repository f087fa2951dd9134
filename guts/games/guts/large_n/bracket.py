"""Continuous best responses: a certified bracket of the pseudo-bloc game's value with thresholds
in [0, 1] from a mesh solution (see :mod:`guts.games.guts.large_n`).

The two certificates are those of :mod:`guts.games.guts.continuum` (the one
implementation of Theorem 1.2 against a continuum opponent): player 1's exact
best response (concave payoff) and the coalition's certified branch and bound, both
on the O(1) closed forms of α and β with rigorous floating-point bounds, so N up to
1e5 is as cheap as N = 2.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from guts.games.guts.continuum.certificates import (ContinuumCertificate, certify_coalition_pseudo_bloc,
                                                    certify_player1)
from guts.games.guts.large_n.solve import LargeNResult

#: First distance below the player-1 fixed point at which f(v^*) >= 0 is tried
#: (:func:`certify_player1` ``margin``); it widens the bracket by about this much.
PLAYER1_MARGIN = 2e-11


@dataclass(frozen=True)
class ValueBracket:
    """The coalition's value of the *continuous* pseudo-bloc game, bracketed by two certificates.

    Attributes
    ----------
    lower : float
        The mesh solution's coalition strategy, repeated, forces at least this against
        every player-1 threshold in [0, 1] (Theorem 1.2, player 1's exact best response).
    upper : float
        Player 1's mesh strategy, repeated, holds the coalition to at most this
        against every pseudo-bloc profile ``(free, bloc)`` in [0, 1]^2 (Theorem 1.2,
        certified branch and bound).
    player1_response : float
        Player 1's best threshold against the coalition's strategy (at ``lower``).
    coalition_response : tuple of float
        The coalition's best profile ``(free, bloc)`` against player 1's strategy.
    rounding : float
        Floating-point error bounds (both sides) already included in
        ``[lower, upper]``: the interval is rigorous in floating point.
    rigorous : bool
        Both certificates hold with a converged branch and bound.
    lower_certificate, upper_certificate : ContinuumCertificate
        The coalition's and player 1's certificates.
    """

    lower: float
    upper: float
    player1_response: float
    coalition_response: tuple
    rounding: float
    rigorous: bool
    lower_certificate: ContinuumCertificate = field(repr=False)
    upper_certificate: ContinuumCertificate = field(repr=False)

    @property
    def width(self) -> float:
        """``upper - lower`` (nan if a certificate failed)."""
        return self.upper - self.lower


def bracket_value(result: LargeNResult) -> ValueBracket:
    """Bracket the continuous pseudo-bloc game's value with the mesh solution's strategies.

    The mesh game restricts both sides to the mesh.  Each side's mesh strategy is
    certified (Theorem 1.2, Buck et al. 2022, §2.1) against the opponent's *continuous* pure
    strategies: the coalition's mixture against every player-1 threshold in [0, 1]
    (:func:`~guts.games.guts.continuum.certify_coalition_pseudo_bloc`) and player 1's
    mixture against every pseudo-bloc profile ``(free, bloc)`` in [0, 1]^2
    (:func:`~guts.games.guts.continuum.certify_player1`).

    Parameters
    ----------
    result : LargeNResult
        A mesh solution (:func:`solve_pseudo_bloc`).

    Returns
    -------
    ValueBracket
        ``lower``/``upper`` are ``nan`` if a certificate fails (e.g. a strategy that
        does not force more than its side's termination value).
    """
    N = result.size
    prof = np.array(list(result.coalition_strategy.keys()), dtype=float)
    w = np.array(list(result.coalition_strategy.values()), dtype=float)
    w = w / w.sum()
    qs = np.array(list(result.player1_strategy.keys()), dtype=float)
    x = np.array(list(result.player1_strategy.values()), dtype=float)
    x = x / x.sum()
    cert_lo = certify_coalition_pseudo_bloc(N, prof[:, 0], prof[:, 1], w, v_target=result.coalition_value)
    cert_hi = certify_player1(N, qs, x, v_target=result.player1_value, margin=PLAYER1_MARGIN)
    lower = cert_lo.v_certified if cert_lo.valid else math.nan
    upper = -cert_hi.v_certified if cert_hi.valid else math.nan
    p1 = cert_lo.response[0] if cert_lo.response else math.nan
    co = cert_hi.response if cert_hi.response else (math.nan, math.nan)
    return ValueBracket(
        lower=lower, upper=upper, player1_response=float(p1), coalition_response=tuple(map(float, co)),
        rounding=cert_lo.rounding + cert_hi.rounding,
        rigorous=bool(cert_lo.valid and cert_hi.valid and cert_lo.rigorous and cert_hi.rigorous),
        lower_certificate=cert_lo, upper_certificate=cert_hi,
    )
