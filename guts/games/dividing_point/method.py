"""The dividing-point method (Hundal and Reitzen, US patent 6,129,631, FIG. 9 steps 955-965; FIG. 31 steps 3165-3175).

Given the rules and an assumed order, build ``E1`` (exact polynomial), set every
partial derivative to zero and solve.  ``E1`` has degree 2 in the points, so for a
numeric pot the equations are *linear*: they are solved exactly in rationals; with P
left symbolic sympy solves the small systems (the no-raise games) in closed form.  When
the linear system is singular (a continuum of stationary points), a point of it is found
as the point of the family nearest to a starting point (e.g. the LP's dividing points),
computed exactly (:func:`_family_point`).

The stationary point is then *checked*, not assumed: it must respect the order, and the
exact best responses on the continuum (:mod:`.continuum`) must gain nothing.
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from guts._validate import check_positive_float
from guts.engine.result import Certificate, Details, Solution, max_regret_certificate
from guts.engine.tolerances import CERTIFICATE_TOL as ENGINE_CERTIFICATE_TOL
from guts.errors import ConvergenceWarning, GutsInputError, SolverError

from .continuum import best_response_gains, strategy_from_points
from .expected import expected_return, expected_return_at, symbols_of
from .layout import Layout
from .rules import BettingRules, derive

__all__ = [
    "CERTIFICATE_TOL",
    "ORDER_SLACK",
    "DividingPointResult",
    "equations",
    "solve_layout",
    "solve_symbolic",
    "exact_pot",
]

#: Largest best-response gain on the continuum accepted as "an equilibrium" (the
#: engine's one certificate threshold, guts.engine.tolerances.CERTIFICATE_TOL).
CERTIFICATE_TOL = ENGINE_CERTIFICATE_TOL
#: Two points of the order closer than this count as tied (the patent's ``C2 <= C1``).
ORDER_SLACK = 1e-12
#: Largest relative difference between E1 (the order's polynomial) and the direct integration
#: of the profile's expected return still counted as equal.
VALUE_TOL = 1e-9


@dataclass(frozen=True)
class DividingPointResult(Details):
    """The dividing points of one game at one pot, with their certificate.

    Attributes
    ----------
    game : str
    pot : float
        The total ante P.
    points : dict
        Dividing point name -> value (float).
    exact_points : dict
        Name -> exact rational as text (``""`` when the system was solved numerically).
    value : float
        P1's expected return per game: his net gain including his ante (the patent's
        ``E1``; ``1/18 ≈ 0.056`` for FIG. 6 at P = 1).  P2's is ``-value``.
    value_exact : str
    converged : bool
        The stationary point respects the assumed order *and* is an equilibrium on the
        continuum (``max_gain <= CERTIFICATE_TOL``).
    max_gain : float
        Largest best-response gain of either player on the continuum against the strategy
        profile the points describe (``certificate`` is the
        :class:`~guts.engine.result.Certificate` of kind ``"max_regret"`` that carries it).
        Computed also when the points break the assumed order (each player's own points
        still increasing: they describe a strategy, played with the points where they fall);
        ``nan`` when a player's own points are not increasing (no strategy: ``reason`` says so).
    gains : tuple
        Each player's best-response gain.
    order_ok : bool
        The solution lies in [0, 1] in the assumed order.
    order_violations : tuple
        Pairs ``(a, b)`` of consecutive points of the order with ``a > b``.
    intervals : tuple
        Per player, ``(component, lo, hi, plan)`` rows: the strategy on the hand axis.
    layout : str
        The assumed order, as text.
    method : str
        ``"exact-linear"`` or ``"numeric-root"``.
    reason : str
        What failed when ``converged`` is False (empty when it is True).
    """

    game: str
    pot: float
    points: dict
    exact_points: dict
    value: float
    value_exact: str
    converged: bool
    max_gain: float
    gains: tuple
    order_ok: bool
    order_violations: tuple
    intervals: tuple
    layout: str
    method: str
    num_stationary: str = "unique"
    reason: str = ""
    extra: dict = field(default_factory=dict, compare=False)
    seconds: float = float("nan")

    values = property(lambda self: (self.value, -self.value), doc="``(value, -value)``: P1, P2.")
    strategies = property(lambda self: self.intervals, doc="Per player, the strategy on the hand axis (``intervals``).")
    num_iter = 0

    @property
    def certificate(self) -> Certificate:
        """Each player's best-response gain on the continuum; ``converged`` is ``max_gain <= CERTIFICATE_TOL``."""
        return max_regret_certificate(self.gains)


#: Pots accepted (the ante P, as ``guts poker dividing-point --pot``): the continuum certificate, in floating
#: point, resolves an equilibrium to 1e-10 on game a from 1e-6 to 1e6; from 1e12 on no solve succeeds.
MIN_POT, MAX_POT = 1e-6, 1e6


def exact_pot(pot) -> sp.Rational:
    """The pot as an exact rational (``2.5`` -> ``5/2``); ``GutsInputError`` unless in [MIN_POT, MAX_POT]."""
    try:
        v = check_positive_float("pot", pot, maximum=MAX_POT)
    except GutsInputError:
        v = None
    if v is None or v < MIN_POT:
        raise GutsInputError(f"pot must be a finite number in [{MIN_POT:g}, {MAX_POT:g}]; got {pot!r}")
    return sp.Rational(str(pot)) if not isinstance(pot, sp.Basic) else sp.Rational(v)


@lru_cache(maxsize=64)
def _cached_equations(rules: BettingRules, layout: Layout):
    structure = derive(rules)
    E = expected_return(structure, layout)
    syms = symbols_of(layout)
    grads = tuple(sp.expand(sp.diff(E, syms[n])) for n in layout.order)
    return structure, E, grads


def equations(rules: BettingRules, layout: Layout):
    """``(structure, E1, (dE1/dv for v in layout.order))``, exact, P symbolic (cached)."""
    return _cached_equations(rules, layout)


def solve_symbolic(rules: BettingRules, layout: Layout) -> dict:
    """Stationary point with P left symbolic (closed forms such as equations (5)-(7)).

    Returns ``{name: expression in P}``; raises :class:`SolverError` if sympy finds no
    unique solution.
    """
    _, _, grads = equations(rules, layout)
    syms = symbols_of(layout)
    sol = sp.solve(list(grads), [syms[n] for n in layout.order], dict=True)
    if len(sol) != 1 or len(sol[0]) != len(layout.order):
        raise SolverError(f"no unique symbolic stationary point for {layout.describe()!r}")
    return {n: sp.factor(sol[0][syms[n]]) for n in layout.order}


def _order_violations(layout: Layout, values: dict):
    seq = [0.0] + [values[n] for n in layout.order] + [1.0]
    names = ["0"] + list(layout.order) + ["1"]
    return tuple((names[i], names[i + 1]) for i in range(len(seq) - 1) if seq[i] > seq[i + 1] + ORDER_SLACK)


@lru_cache(maxsize=256)
def _numeric_system(rules: BettingRules, layout: Layout, pot: Fraction):
    """``(E1, A, b)`` at one pot, exact rationals: ``E1`` a :class:`Quadratic` and the
    stationarity equations ``A x = b`` (``A`` symmetric) in the order's points (cached)."""
    structure = derive(rules)
    E = expected_return_at(structure, layout, pot)
    A, b = E.gradient_system(len(layout.order))
    return structure, E, A, b


def _rref(A, b):
    """Reduced row echelon form of ``[A | b]`` in rationals: ``(rows, pivots)``."""
    n = len(b)
    M = [list(row) + [b[i]] for i, row in enumerate(A)]
    rank, pivots = 0, []
    for col in range(n):
        piv = next((r for r in range(rank, n) if M[r][col] != 0), None)
        if piv is None:
            continue
        M[rank], M[piv] = M[piv], M[rank]
        inv = 1 / M[rank][col]
        M[rank] = [v * inv for v in M[rank]]
        for r in range(n):
            if r != rank and M[r][col] != 0:
                f = M[r][col]
                M[r] = [v - f * w for v, w in zip(M[r], M[rank])]
        pivots.append(col)
        rank += 1
    return M, pivots


def _exact_solve(A, b):
    """Gauss-Jordan elimination in rationals: ``(x, rank)``, ``x`` None when ``A`` is singular."""
    n = len(b)
    M, pivots = _rref(A, b)
    if len(pivots) < n:
        return None, len(pivots)
    return [M[i][n] for i in range(n)], n


#: The starting point of a family of stationary points is rounded to this many decimals
#: before the exact projection (it comes from LP probabilities, whose last bits depend on
#: float noise such as numpy's alignment-dependent SIMD sums).
FAMILY_DECIMALS = 10


def _solve_square(G, r):
    """``G y = r`` for an invertible ``G``, in rationals."""
    M, pivots = _rref(G, r)
    if len(pivots) < len(r):  # pragma: no cover - R has full row rank, so R R^T is invertible
        raise SolverError("internal: singular Gram matrix in the projection onto the stationary points")
    return [M[i][len(r)] for i in range(len(r))]


def _family_point(A, b, start):
    """The point of ``{x : A x = b}`` nearest to ``start`` (rounded), exactly.

    With ``R x = c`` the independent rows of the reduced echelon form, the projection is
    ``x0 + R^T (R R^T)^-1 (c - R x0)``: what a least-squares root finder approximates from
    ``start``, computed in rationals so that the point (and exact ties between points of
    the family) does not depend on float noise.  ``SolverError`` if the system is inconsistent.
    """
    n = len(b)
    M, pivots = _rref(A, b)
    rank = len(pivots)
    if any(M[r][n] != 0 for r in range(rank, n)):
        raise SolverError("the stationarity equations are inconsistent for this order: no stationary point")
    scale = 10 ** FAMILY_DECIMALS
    x0 = [Fraction(round(float(v) * scale), scale) for v in start]
    R = [M[r][:n] for r in range(rank)]
    c = [M[r][n] for r in range(rank)]
    resid = [c[i] - sum(R[i][j] * x0[j] for j in range(n)) for i in range(rank)]
    G = [[sum(R[i][k] * R[j][k] for k in range(n)) for j in range(rank)] for i in range(rank)]
    y = _solve_square(G, resid)
    return [x0[j] + sum(R[i][j] * y[i] for i in range(rank)) for j in range(n)]


def solve_layout(rules: BettingRules, layout: Layout, pot, *, start: dict | None = None,
                 game: str = "", warn: bool = True) -> Solution:
    """Solve the stationarity equations of ``layout`` at pot ``pot`` and certify the result.

    ``E1`` is built at the numeric pot in exact rationals (:func:`.expected.expected_return_at`,
    the same polynomial as :func:`equations` with ``P`` substituted) and its gradient system
    solved exactly (FIG. 9 steps 955-960).

    Parameters
    ----------
    rules, layout
        The game and the assumed order.
    pot : number > 0
        The total ante P.
    start : dict, optional
        Starting point for the numeric fallback (singular systems), e.g. the LP's points.
    warn : bool
        Emit a :class:`ConvergenceWarning` when the point is not a certified equilibrium.
    """
    t0 = time.perf_counter()
    p = exact_pot(pot)
    pf = Fraction(int(p.p), int(p.q))
    structure, E, A, b = _numeric_system(rules, layout, pf)
    n = len(layout.order)
    num_stationary = "unique"
    sol, rank = _exact_solve(A, b) if n else ([], 0)
    if sol is not None:
        exact = dict(zip(layout.order, sol))
        values = {k: float(v) for k, v in exact.items()}
        method = "exact-linear"
        value_exact = E.evaluate(sol)
        value = float(value_exact)
    else:
        exact = None
        num_stationary = f"a {n - rank}-dimensional family"
        if start is None:
            raise SolverError(
                "the stationarity equations are singular for this order (a family of stationary points); "
                "pass start= (e.g. the LP's dividing points) to pick one"
            )
        point = _family_point(A, b, [start[k] for k in layout.order])
        values = {k: float(v) for k, v in zip(layout.order, point)}
        method = "numeric-root"
        value_exact = None
        value = float(E.evaluate(point))
    violations = _order_violations(layout, values)
    order_ok = not violations
    broken = ", ".join(f"{a} > {b}" for a, b in violations)
    reason = ""
    try:  # the profile the points describe: each player's own points in his own order
        strat = strategy_from_points(structure, layout, values)
    except GutsInputError as e:  # only when the order is broken: a player's own points cross
        strat = None
        certificate, gains, intervals = math.nan, (math.nan, math.nan), ((), ())
        reason = (f"the stationary point breaks the assumed order ({broken}) and a player's own points "
                  f"leave [0, 1] or cross, so it describes no strategy and no best response was computed ({e})")
    if strat is not None:
        chk = best_response_gains(structure, strat, float(p))
        certificate, gains = chk.max_gain, chk.gains
        intervals = (tuple(strat.intervals(0)), tuple(strat.intervals(1)))
        if order_ok and abs(chk.values[0] - value) > VALUE_TOL * max(1.0, abs(value)):
            raise SolverError(  # the polynomial and the direct integration disagree: a bug
                f"E1 = {value!r} but the continuum integration gives {chk.values[0]!r}"
            )
        if not order_ok and abs(chk.values[0] - value) > VALUE_TOL * max(1.0, abs(value)):
            # the order's polynomial is not the profile's expected return: report the profile's
            value, value_exact = float(chk.values[0]), None
        if not order_ok:
            verdict = ("an equilibrium" if certificate <= CERTIFICATE_TOL else "not an equilibrium")
            reason = (f"the stationary point breaks the assumed order ({broken}); the strategy profile its "
                      f"points describe is {verdict} (best-response gain {certificate:.2g})")
        elif certificate > CERTIFICATE_TOL:
            who = "P1" if gains[0] >= gains[1] else "P2"
            reason = (f"the stationary point respects the assumed order but is not an equilibrium "
                      f"({who} gains {certificate:.2g} by a best response on the continuum)")
    converged = order_ok and certificate <= CERTIFICATE_TOL
    if warn and not converged:
        warnings.warn(f"{game or rules.name} at P = {pot}: {reason}", ConvergenceWarning, stacklevel=2)
    return Solution.of(DividingPointResult(
        game=game or rules.name,
        pot=float(p),
        points=values,
        exact_points={k: str(v) for k, v in exact.items()} if exact is not None else {k: "" for k in values},
        value=value,
        value_exact=str(value_exact) if value_exact is not None else "",
        converged=converged,
        max_gain=float(certificate),
        gains=tuple(float(g) for g in gains),
        order_ok=order_ok,
        order_violations=violations,
        intervals=intervals,
        layout=layout.describe(),
        method=method,
        num_stationary=num_stationary,
        reason=reason,
        seconds=time.perf_counter() - t0,
    ))
