"""The dividing-point method (Hundal and Reitzen, US patent 6,129,631, FIG. 9 steps 955-965; FIG. 31 steps 3165-3175).

Given the rules and an assumed order, build ``E1`` (exact polynomial), set every
partial derivative to zero and solve.  ``E1`` has degree 2 in the points, so for a
numeric pot the equations are *linear*: they are solved exactly in rationals; with P
left symbolic sympy solves the small systems (the no-raise games) in closed form.  When
the linear system is singular (a continuum of stationary points), a point of it is found
with ``scipy.optimize.root`` from a starting point (e.g. the LP's dividing points).

The stationary point is then *checked*, not assumed: it must respect the order, and the
exact best responses on the continuum (:mod:`.continuum`) must gain nothing.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import sympy as sp

from guts._validate import check_positive_float
from guts.errors import ConvergenceWarning, SolverError

from .continuum import best_response_gains, strategy_from_points
from .expected import expected_return, symbols_of
from .layout import Layout
from .rules import P, BettingRules, derive

__all__ = [
    "CERTIFICATE_TOL",
    "ORDER_SLACK",
    "DividingPointResult",
    "equations",
    "solve_layout",
    "solve_symbolic",
    "exact_pot",
]

#: Largest best-response gain on the continuum accepted as "an equilibrium".
CERTIFICATE_TOL = 1e-9
#: Two points of the order closer than this count as tied (the patent's ``C2 <= C1``).
ORDER_SLACK = 1e-12
#: Residual accepted from the numeric root finder (singular systems only).
ROOT_TOL = 1e-11


@dataclass(frozen=True)
class DividingPointResult:
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
        continuum (``certificate <= CERTIFICATE_TOL``).
    certificate : float
        Largest best-response gain of either player on the continuum.
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
    """

    game: str
    pot: float
    points: dict
    exact_points: dict
    value: float
    value_exact: str
    converged: bool
    certificate: float
    gains: tuple
    order_ok: bool
    order_violations: tuple
    intervals: tuple
    layout: str
    method: str
    num_stationary: str = "unique"
    extra: dict = field(default_factory=dict, compare=False)


def exact_pot(pot) -> sp.Rational:
    """The pot as an exact rational (``2.5`` -> ``5/2``); ``GutsInputError`` unless ``> 0``."""
    v = check_positive_float("pot", pot)
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


def solve_layout(rules: BettingRules, layout: Layout, pot, *, start: dict | None = None,
                 game: str = "", warn: bool = True) -> DividingPointResult:
    """Solve the stationarity equations of ``layout`` at pot ``pot`` and certify the result.

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
    p = exact_pot(pot)
    structure, E, grads = equations(rules, layout)
    syms = symbols_of(layout)
    xs = [syms[n] for n in layout.order]
    eqs = [g.subs(P, p) for g in grads]
    A, b = sp.linear_eq_to_matrix(eqs, xs)
    n = len(xs)
    num_stationary = "unique"
    if n == 0:
        exact = {}
    elif A.rank() == n:
        sol = A.LUsolve(b)
        exact = {name: sp.cancel(sol[i]) for i, name in enumerate(layout.order)}
    else:
        exact = None
        num_stationary = f"a {n - A.rank()}-dimensional family"
    if exact is not None:
        values = {k: float(v) for k, v in exact.items()}
        method = "exact-linear"
        value_exact = sp.cancel(E.subs(P, p).subs({syms[k]: v for k, v in exact.items()}))
    else:
        values = _numeric_root(A, b, layout, start)
        method = "numeric-root"
        value_exact = None
    violations = _order_violations(layout, values)
    order_ok = not violations
    value = float(sp.N(E.subs(P, p).subs({syms[k]: v for k, v in values.items()}), 17))
    if order_ok:
        strat = strategy_from_points(structure, layout, values)
        chk = best_response_gains(structure, strat, float(p))
        certificate, gains = chk.certificate, chk.gains
        intervals = (tuple(strat.intervals(0)), tuple(strat.intervals(1)))
        if abs(chk.values[0] - value) > 1e-9 * max(1.0, abs(value)):
            raise SolverError(  # the polynomial and the direct integration disagree: a bug
                f"E1 = {value!r} but the continuum integration gives {chk.values[0]!r}"
            )
    else:
        certificate, gains, intervals = float("inf"), (float("inf"), float("inf")), ((), ())
    converged = order_ok and certificate <= CERTIFICATE_TOL
    if warn and not converged:
        why = (f"the stationary point violates the assumed order at {violations}" if not order_ok
               else f"the stationary point is not an equilibrium (best-response gain {certificate:.3g})")
        warnings.warn(f"{game or rules.name} at P = {pot}: {why}", ConvergenceWarning, stacklevel=2)
    return DividingPointResult(
        game=game or rules.name,
        pot=float(p),
        points=values,
        exact_points={k: str(v) for k, v in exact.items()} if exact is not None else {k: "" for k in values},
        value=value,
        value_exact=str(value_exact) if value_exact is not None else "",
        converged=converged,
        certificate=float(certificate),
        gains=tuple(float(g) for g in gains),
        order_ok=order_ok,
        order_violations=violations,
        intervals=intervals,
        layout=layout.describe(),
        method=method,
        num_stationary=num_stationary,
    )


def _numeric_root(A, b, layout: Layout, start):
    """A stationary point of a singular system, by ``scipy.optimize.root`` from ``start``."""
    from scipy.optimize import root

    if start is None:
        raise SolverError(
            "the stationarity equations are singular for this order (a family of stationary points); "
            "pass start= (e.g. the LP's dividing points) to pick one"
        )
    An = np.array(A.tolist(), dtype=float)
    bn = np.array(b.tolist(), dtype=float).ravel()
    x0 = np.array([float(start[n]) for n in layout.order])
    res = root(lambda x: An @ x - bn, x0, jac=lambda x: An, method="lm")
    resid = float(np.max(np.abs(An @ res.x - bn)))
    if resid > ROOT_TOL:
        raise SolverError(f"scipy.optimize.root did not solve the stationarity equations (residual {resid:.3g})")
    return {n: float(v) for n, v in zip(layout.order, res.x)}
