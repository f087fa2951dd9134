"""Best responses on the continuum: does any hand or bet size gain against the other side?

An independent check of the closed forms of :mod:`.closed_forms` (Spears §4.2): each side's
best response to the other's equilibrium strategy is computed *exactly* from the rules,
not from the indifference equations that produced the strategies.

Bettor, hand x, against the caller's thresholds c(s)
    The payoff of a bet s is E(x, s) = c + (1 + s)(x - c)^+ - s(1 - max(x, c)) (minus the
    ante), c = c(s).  Where c(s) > x it is the bluff payoff c - (1 - c)s; where c(s) <= x it
    is x(1 + 2s) - s(1 + c(s)).  For the caller's family c(s) = (k + s)/(1 + s) (every
    profile here: k = c(s)(1 + s) - s is read off the caller's strategy and checked to be
    constant) the bluff payoff is the constant k and dE/ds on the other piece is a
    quadratic in s over (1 + s)^2 whose roots are computed with ``numpy.roots``.  The best
    payoff over [L, U] is therefore the largest of E at L, U, the switch point c(s) = x and
    the roots in [L, U], and the check x: exact up to rounding.

Caller, size s, hand y, against the bettor's hands
    At an atom (a size bet on whole intervals of hands H) the caller's gain from calling
    rather than folding, (1 + 2s)|H ∩ [0, y]| - s|H|, is piecewise linear in y; at an
    interior size (one bluffing hand b(s) and one value hand v(s), densities |b'| and
    |v'|) it is piecewise constant.  Its positive part where the caller folds and its
    negative part where he calls are integrated exactly.

The certificate is the pair of *integrated* gains (each side's best-response payoff minus
the equilibrium payoff, integrated over hands and sizes with ``scipy.integrate.quad`` on
the smooth pieces): ``bettor_gain`` and ``caller_gain``; together they bound the value,
``certified_lower <= value <= certified_upper``.  The pointwise maxima (largest gain of
one hand, and of one hand facing one size, per unit of probability) are evaluated at
every breakpoint and on dense Chebyshev nodes of each smooth piece.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.integrate import quad

from guts.engine.result import Certificate, Details, Solution, interval
from guts.errors import SolverError

__all__ = ["ContinuumCheck", "check_equilibrium", "bettor_best_payoff", "caller_gain_density", "BR_TOL"]

#: largest gain accepted by the tests (per hand, per unit of probability, and integrated)
BR_TOL = 1e-9
#: Chebyshev nodes per smooth piece for the pointwise maxima
NODES_PER_PIECE = 400
#: quadrature tolerances (absolute) for the integrated gains and the value
QUAD_EPSABS = 1e-14
#: relative tolerance when checking that the caller's strategy has the form (k + s)/(1 + s)
FORM_TOL = 1e-12


@dataclass(frozen=True)
class ContinuumCheck(Details):
    """Result of :func:`check_equilibrium` (payoffs to the bettor, pot 1).

    Attributes
    ----------
    value : float
        The profile's value by quadrature of the equilibrium payoff over the hands.
    closed_form_value : float
        The profile's ``value`` attribute.
    bettor_gain, caller_gain : float
        Integrated best-response gains (>= 0 up to rounding).
    max_bettor_gain : float
        Largest gain of one hand x over its equilibrium action; ``argmax_bettor`` the hand.
    max_caller_gain : float
        Largest gain of one caller hand facing one size, per unit probability of that size;
        ``argmax_caller`` the (size, hand).
    certified_lower, certified_upper : float
        value - caller_gain and value + bettor_gain: what each side's strategy guarantees.
    nash_conv, exploitability : float
        bettor_gain + caller_gain, and half of it (OpenSpiel's conventions).

    The :class:`~guts.engine.result.Result` protocol: ``certificate`` is the interval
    ``[certified_lower, certified_upper]`` (its width is the NashConv); ``strategies`` are
    the closed forms checked (not stored: ``()``); ``num_iter`` 0, ``method`` "closed-form".
    """

    value: float
    closed_form_value: float
    bettor_gain: float
    caller_gain: float
    max_bettor_gain: float
    argmax_bettor: float
    max_caller_gain: float
    argmax_caller: tuple
    certified_lower: float
    certified_upper: float
    nash_conv: float
    exploitability: float

    @property
    def converged(self) -> bool:
        return max(self.max_bettor_gain, self.max_caller_gain, self.nash_conv) <= BR_TOL

    values = property(lambda self: (self.value, -self.value), doc="``(value, -value)``: bettor, caller.")
    strategies = ()
    num_iter = 0
    seconds = float("nan")
    method = "closed-form"

    @property
    def certificate(self) -> Certificate:
        """What each side's strategy guarantees: ``[value - caller_gain, value + bettor_gain]``."""
        return interval(self.certified_lower, self.certified_upper)


def _cheb(lo, hi, n=NODES_PER_PIECE):
    k = np.arange(n)
    return 0.5 * (lo + hi) + 0.5 * (hi - lo) * np.cos(np.pi * (k + 0.5) / n)


def _caller_constant(profile):
    """k with c(s) = (k + s)/(1 + s) on the sizes, checked at several sizes (else SolverError)."""
    L, U = profile.min_bet, profile.max_bet
    probe = [L, U] if L == U else list(np.linspace(L, min(U, L + 20.0), 7))
    ks = [profile.c(s) * (1.0 + s) - s for s in probe]
    if max(ks) - min(ks) > FORM_TOL * (1.0 + max(probe)):
        raise SolverError("the caller's thresholds are not of the form (k + s)/(1 + s); "
                          "the exact bettor best response assumes it")
    return float(np.mean(ks))


def _stationary_sizes(x, k):
    """Both roots (NaN if complex) of d/ds [x(1 + 2s) - s(1 + c(s))] = 0, c = (k + s)/(1 + s).

    Multiplying 2x - 1 - c - s c' by (1 + s)^2 gives (2x - 1)(1 + s)^2 - (k + s)(1 + s)
    - s(1 - k) = a2 s^2 + a1 s + a0 with a2 = 2x - 2, a1 = 4x - 4, a0 = 2x - 1 - k.
    """
    a2, a1, a0 = 2.0 * x - 2.0, 4.0 * x - 4.0, 2.0 * x - 1.0 - k
    disc = a1 * a1 - 4.0 * a2 * a0
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.sqrt(np.where(disc >= 0, disc, np.nan))
        return (-a1 + r) / (2.0 * a2), (-a1 - r) / (2.0 * a2)


def bettor_best_payoff(profile, x, k=None):
    """The bettor's best net payoff with hand(s) ``x`` against ``profile``'s caller (exact).

    Candidates: check, L, U, the stationary points of the value piece in [L, U] and the
    switch point c(s) = x (and, if U = inf, any size on the constant bluff piece).
    Returns ``(payoff, size)`` arrays (size 0 = check), floats for a float ``x``.
    """
    if k is None:
        k = _caller_constant(profile)
    xa = np.asarray(x, dtype=float)
    scalar = xa.ndim == 0
    xa = np.atleast_1d(xa)
    L, U = profile.min_bet, profile.max_bet
    cands = [np.zeros_like(xa), np.full_like(xa, L), np.full_like(xa, U)]
    if L < U:
        cands += list(_stationary_sizes(xa, k))
        with np.errstate(divide="ignore", invalid="ignore"):
            sx = (xa - k) / (1.0 - xa)  # c(s) = x
        cands.append(sx)
        if np.isinf(U):
            cands.append(np.maximum(L, np.nan_to_num(sx, nan=L, posinf=L)) * 2.0 + 1.0)
    S = np.vstack(cands)
    ok = np.isfinite(S) & (S >= L) & (S <= U) | (S == 0.0)
    S = np.where(ok, S, 0.0)  # invalid candidates become a check (always available)
    E = profile.bet_payoff(np.broadcast_to(xa, S.shape), S)
    i = np.argmax(E, axis=0)
    cols = np.arange(xa.size)
    best, size = E[i, cols], S[i, cols]
    return (float(best[0]), float(size[0])) if scalar else (best, size)


def _equilibrium_payoff(profile, x):
    return profile.bet_payoff(x, profile.bet_size(x))


def _pos_part_integral(ys, ds, lo, hi, sign):
    """∫_lo^hi max(0, sign * d(y)) dy for d piecewise linear through (ys, ds)."""
    total = 0.0
    for y0, y1, d0, d1 in zip(ys[:-1], ys[1:], ds[:-1], ds[1:]):
        a, b = max(y0, lo), min(y1, hi)
        if b <= a:
            continue
        slope = (d1 - d0) / (y1 - y0) if y1 > y0 else 0.0
        fa, fb = sign * (d0 + slope * (a - y0)), sign * (d0 + slope * (b - y0))
        if fa >= 0 and fb >= 0:
            total += 0.5 * (fa + fb) * (b - a)
        elif fa > 0 or fb > 0:  # one crossing: triangle
            z = a + (b - a) * fa / (fa - fb)
            total += 0.5 * (fa * (z - a) if fa > 0 else fb * (b - z))
    return total


def _atoms(profile):
    """{size: [(lo, hi), ...]}: the sizes bet on whole intervals of hands."""
    atoms = {}
    for r in profile.regions:
        if r.bet is not None and r.bet > 0:
            atoms.setdefault(r.bet, []).append((r.lo, r.hi))
    return atoms


def _atom_gain(profile, size, intervals):
    """Caller's integrated gain at an atom, and the largest gain per unit of the atom's mass."""
    M = sum(hi - lo for lo, hi in intervals)
    c = float(profile.c(size))
    pts = sorted({0.0, 1.0, c, *[t for iv in intervals for t in iv]})
    mass_below = lambda y: sum(max(0.0, min(hi, y) - lo) for lo, hi in intervals)  # noqa: E731
    ds = [(1.0 + 2.0 * size) * mass_below(y) - size * M for y in pts]  # call - fold, caller's view
    # the caller folds below c: he loses the positive part there; calls above: the negative part
    integrated = _pos_part_integral(pts, ds, 0.0, c, +1.0) + _pos_part_integral(pts, ds, c, 1.0, -1.0)
    pointwise = [(max(0.0, d) if y <= c else 0.0, y) for y, d in zip(pts, ds)]
    pointwise += [(max(0.0, -d) if y >= c else 0.0, y) for y, d in zip(pts, ds)]
    g, y = max(pointwise)
    return integrated, g / M if M > 0 else 0.0, y


def caller_gain_density(profile, s):
    """At interior sizes ``s``: (integrated gain over y per unit ds, largest gain per unit
    probability of s, the hand where it occurs), arrays."""
    s = np.atleast_1d(np.asarray(s, dtype=float))
    rb, rv = -np.asarray(profile.db(s)), np.asarray(profile.dv(s))
    bs, vs, cs = np.asarray(profile.b(s)), np.asarray(profile.v(s)), np.asarray(profile.c(s))
    # call - fold on y < b(s), b(s) < y < v(s), y > v(s)
    D = [-s * (rb + rv), rb * (1.0 + s) - rv * s, (1.0 + s) * (rb + rv)]
    edges = [np.zeros_like(s), np.minimum(bs, vs), np.maximum(bs, vs), np.ones_like(s)]
    integ = np.zeros_like(s)
    best = np.zeros_like(s)
    where = np.zeros_like(s)
    for i, Di in enumerate(D):
        lo, hi = edges[i], edges[i + 1]
        below = np.clip(np.minimum(hi, cs) - lo, 0.0, None)  # part where the caller folds
        above = np.clip(hi - np.maximum(lo, cs), 0.0, None)
        integ += below * np.maximum(Di, 0.0) + above * np.maximum(-Di, 0.0)
        g = np.where(below > 0, np.maximum(Di, 0.0), 0.0)
        g = np.maximum(g, np.where(above > 0, np.maximum(-Di, 0.0), 0.0)) / (rb + rv)
        upd = g > best
        best = np.where(upd, g, best)
        where = np.where(upd, 0.5 * (lo + hi), where)
    return integ, best, where


def check_equilibrium(profile) -> Solution:
    """Best responses of both sides against ``profile`` (a von Neumann, Newman or limit
    equilibrium), computed exactly; see the module docstring."""
    k = _caller_constant(profile)
    L, U = profile.min_bet, profile.max_bet
    # -- the bettor ---------------------------------------------------------------
    breaks = {0.0, 1.0, *profile.x}
    for t in (L, U):
        if math.isfinite(t):
            breaks.add(float(profile.c(t)))
            if L < U:
                breaks.add(float(profile.v(t)))
    breaks = sorted(b for b in breaks if 0.0 <= b <= 1.0)
    gain = lambda xx: bettor_best_payoff(profile, xx, k)[0] - _equilibrium_payoff(profile, xx)  # noqa: E731
    pts = []
    for a, b in zip(breaks[:-1], breaks[1:]):
        if b > a:
            pts.extend(_cheb(a, b))
    pts += [min(1.0, max(0.0, t + d)) for t in breaks for d in (-1e-12, 0.0, 1e-12)]
    pts = np.array(pts)
    gains = gain(pts)
    i = int(np.argmax(gains))
    max_bettor, arg_bettor = float(gains[i]), float(pts[i])
    bettor_int = value_int = 0.0
    for a, b in zip(breaks[:-1], breaks[1:]):
        if b > a:
            bettor_int += quad(lambda xx: float(gain(xx)), a, b, epsabs=QUAD_EPSABS, limit=200)[0]
            value_int += quad(lambda xx: float(_equilibrium_payoff(profile, xx)), a, b, epsabs=QUAD_EPSABS,
                              limit=200)[0]
    # -- the caller ---------------------------------------------------------------
    caller_int, max_caller, arg_caller = 0.0, -1.0, (float("nan"), float("nan"))
    for size, ivs in _atoms(profile).items():
        gi, gmax, y = _atom_gain(profile, size, ivs)
        caller_int += gi
        if gmax > max_caller:
            max_caller, arg_caller = gmax, (float(size), float(y))
    if L < U:
        f = lambda t: float(caller_gain_density(profile, t)[0][0])  # noqa: E731
        caller_int += quad(f, L, U, epsabs=QUAD_EPSABS, limit=200)[0]
        grid = _cheb(L, U) if math.isfinite(U) else np.expm1(_cheb(np.log1p(L), np.log1p(1e6)))
        _, best, where = caller_gain_density(profile, grid)
        j = int(np.argmax(best))
        if best[j] > max_caller:
            max_caller, arg_caller = float(best[j]), (float(grid[j]), float(where[j]))
    nash_conv = bettor_int + caller_int
    return Solution.of(ContinuumCheck(value=value_int, closed_form_value=float(profile.value), bettor_gain=bettor_int,
                          caller_gain=caller_int, max_bettor_gain=max_bettor, argmax_bettor=arg_bettor,
                          max_caller_gain=max_caller, argmax_caller=arg_caller,
                          certified_lower=value_int - caller_int, certified_upper=value_int + bettor_int,
                          nash_conv=nash_conv, exploitability=nash_conv / 2.0))
