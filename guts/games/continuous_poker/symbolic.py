"""Exact derivations (sympy) for continuous poker, from the game's rules, not from the paper.

Everything here is derived afresh and is what the tests compare the paper's printed
formulas (:mod:`.seed`) and the floating-point closed forms (:mod:`.closed_forms`) with.

Conventions: antes 0.5 each (pot 1); payoffs to the bettor.  In §4.2 the paper works with
the bettor's *share* ``E`` (a check with hand x is worth x, a fold 1, a called and won bet
1 + s, a called and lost bet -s); the net payoff is ``E - 1/2``.

The functions:

* :func:`limit_system` -- c(s), v(s), b(s) from the bettor's optimality conditions
  (Spears eqs. 7, 5, 4) and the seven equations for x0..x5, b0 (Spears eqs. 2, 3, 6, 8, in
  their corrected form), solved.
* :func:`limit_value` -- the value V(L, U), by exact piecewise integration of the
  bettor's payoff over his hand.
* :func:`von_neumann_system`, :func:`newman_limits` -- the fixed-bet game solved from its
  three indifference equations, and the no-limit limit of the limit game.
"""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from guts.errors import SolverError

__all__ = [
    "L", "U", "B", "s", "x", "y", "X2", "B0",
    "bettor_share",
    "limit_system",
    "limit_equations",
    "limit_value",
    "value_by_integration",
    "von_neumann_system",
    "newman_limits",
]

L, U, B, s, x, y = sp.symbols("L U B s x y", nonnegative=True)
X2, B0 = sp.symbols("x2 b0", real=True)
XS = sp.symbols("x0:6", real=True)


def bettor_share(hand, size, c):
    """The bettor's share E of betting ``size`` with ``hand`` when the caller calls iff y >= c.

    For hand >= c: fold (y < c) wins 1, a call by a worse hand (c <= y < hand) wins 1 + s, a
    call by a better hand loses s (Spears §4.2.2).  For hand < c every call wins: c - (1 - c) s.
    Returned as the branch ``hand >= c`` (the other is :func:`bluff_share`).
    """
    return c * 1 + (hand - c) * (1 + size) - (1 - hand) * size


def bluff_share(size, c):
    """Share of a bluff (hand below every calling hand): c - (1 - c) s (Spears eq. 1)."""
    return c - (1 - c) * size


@lru_cache(maxsize=None)
def limit_system():
    """Derive c, v, b and solve the seven equilibrium equations (Spears §4.2, corrected).

    Returns
    -------
    dict
        ``c``, ``v``, ``b``: expressions in s, x2, b0 (and ``solution``: x0..x5, b0 in L, U,
        with ``c_LU``, ``v_LU``, ``b_LU`` the same functions with the solution substituted).
    """
    cs = sp.Function("c")(s)
    # eq. 7: a bluff of any size is worth exactly a check with the top bluffing hand x2
    c = sp.solve(sp.Eq(bluff_share(s, cs), X2), cs)[0]
    # eq. 5: value hand x = v(s) maximises its share over s, c depending on s (chain rule)
    xv = sp.Symbol("xv")
    dE = sp.diff(bettor_share(xv, s, c), s)
    v = sp.solve(sp.Eq(dE, 0), xv)[0]
    # eq. 4 (corrected): caller indifferent at interior s: b'(s)(1 + s) + v'(s) s = 0
    # b0 names the limit b(inf) (the paper's choice: its b(s) - b0 vanishes as s -> inf)
    r = sp.Symbol("r", positive=True)
    bprime = (-sp.diff(v, s) * s / (1 + s)).subs(s, r)
    b = sp.factor(B0 - sp.integrate(sp.apart(sp.together(bprime), r), (r, s, sp.oo)))
    # the system is linear in x0..x5, b0 once denominators (powers of 1 + L, 1 + U) are cleared
    eqs = [sp.fraction(sp.together(e))[0] for e in limit_equations(c, v, b)]
    sols = sp.linsolve(eqs, list(XS) + [B0])
    if len(sols) != 1:  # pragma: no cover - a unique solution
        raise SolverError(f"expected one solution, got {sols}")
    sol = {k: sp.factor(val) for k, val in zip(list(XS) + [B0], next(iter(sols)))}
    subs = {X2: sol[XS[2]], B0: sol[B0]}
    return {"c": c, "v": sp.simplify(v), "b": b, "solution": sol,
            "c_LU": sp.cancel(c.subs(subs)), "v_LU": sp.cancel(v.subs(subs)), "b_LU": sp.cancel(b.subs(subs))}


def limit_equations(c, v, b, printed=False):
    """The seven equations in x0..x5, b0 (Spears §4.2.4), as residuals (expressions = 0).

    With ``printed=False`` (the default) the caller-indifference equations at the atoms
    L and U weigh the *bluffs* by 1 + s and the *value bets* by s, as the paper's own
    indifference ``P[bluff|s](1 + s) - P[value|s] s = 0`` requires, and the check/value
    indifference is eq. 6.  With ``printed=True`` they are as printed in §4.2.1 (2)-(3)
    and in the §4.2.4 summary (``c(L) - (1 - c(L)) L = x3``).
    """
    x0, x1, x2, x3, x4, x5 = XS
    cL = c.subs(s, L)
    if printed:
        atoms = [(x4 - x3) * (1 + L) - (x2 - x1) * L, (1 - x5) * (1 + U) - x0 * U]
        marginal = bluff_share(L, cL) - x3
    else:
        atoms = [(x2 - x1) * (1 + L) - (x4 - x3) * L, x0 * (1 + U) - (1 - x5) * U]
        marginal = bettor_share(x3, L, cL) - x3  # eq. 6: the hand x3 is indifferent: bet L / check
    cont = [b.subs(s, U) - x0, b.subs(s, L) - x1, v.subs(s, U) - x5, v.subs(s, L) - x4]  # eq. 8
    return [e.subs(X2, x2) for e in atoms + [marginal] + cont]


def value_by_integration(sol, c, v):
    """Bettor's net value: exact integral over x of his equilibrium share, minus 1/2.

    ``sol`` maps x0..x5 (and b0) to expressions; ``c``, ``v`` are in s and x2.  Bluffs
    (x < x2) earn x2 each (eq. 7), checks earn x, bets L / U on (x3, x4) / (x5, 1) earn the
    linear :func:`bettor_share`, and on (x4, x5) the substitution x = v(s) turns the
    integral into one over s in [L, U] of a rational function (no logarithm occurs).
    """
    x0, x1, x2, x3, x4, x5 = XS
    t = sp.Symbol("t", positive=True)
    share = lambda hand, size: bettor_share(hand, size, c.subs(s, size))  # noqa: E731
    inner = sp.apart(sp.together((share(v, s) * sp.diff(v, s)).subs(s, t - 1)), t)
    F = sp.integrate(inner, t)
    G = (x2 * x2 + (x3**2 - x2**2) / 2
         + sp.integrate(share(x, L), (x, x3, x4)) + sp.integrate(share(x, U), (x, x5, 1))
         + F.subs(t, 1 + U) - F.subs(t, 1 + L))
    G = sp.expand(G.subs(X2, x2) - sp.Rational(1, 2))
    # substitute in the field Q(L, U): fast, and the result is in lowest terms
    K = sp.QQ.frac_field(L, U)
    poly = sp.Poly(G, *XS, domain=K)
    val = poly.eval(dict(zip(XS, [K.from_sympy(sol[k]) for k in XS])))
    return sp.factor(K.to_sympy(val) if hasattr(K, "to_sympy") else val.as_expr())


@lru_cache(maxsize=None)
def limit_value():
    """V(L, U): the value of limit continuous poker (pot 1), derived by exact integration."""
    sysd = limit_system()
    return value_by_integration(sysd["solution"], sysd["c"], sysd["v"])


@lru_cache(maxsize=None)
def von_neumann_system():
    """Von Neumann's game with bet B from its three indifference equations (Spears §2.1.1).

    Unknowns: bluff threshold a, value threshold bv, calling threshold c.
    * caller at c: a (1 + B) - (1 - bv) B = 0 (bluffs pay 1 + B, value bets cost B);
    * bettor at a: bluff_share(B, c) = a (a check with a wins when y < a);
    * bettor at bv: bettor_share(bv, B, c) = bv.
    The value is the exact integral of the equilibrium share minus 1/2.
    """
    a, bv, c = sp.symbols("a bv c", real=True)
    eqs = [a * (1 + B) - (1 - bv) * B, bluff_share(B, c) - a, bettor_share(bv, B, c) - bv]
    sol = sp.solve(eqs, [a, bv, c], dict=True)
    sol = [d for d in sol if d[c] != 1][0] if len(sol) > 1 else sol[0]
    a_, b_, c_ = (sp.factor(sol[k]) for k in (a, bv, c))
    G = (a_ * bluff_share(B, c_) + sp.integrate(x, (x, a_, b_)) + sp.integrate(bettor_share(x, B, c_), (x, b_, 1)))
    return {"bluff": a_, "value_bet": b_, "call": c_, "value": sp.factor(sp.cancel(G - sp.Rational(1, 2)))}


@lru_cache(maxsize=None)
def newman_limits():
    """Limits of the limit-game solution as L -> 0 and U -> inf, in both orders (Thms 5.3-5.4).

    Returns ``{name: (lim_L lim_U, lim_U lim_L)}`` for x0..x5, b0, the value, and c, v, b
    (as functions of s).
    """
    sysd = limit_system()
    out = {}
    items = dict(sysd["solution"])
    items["value"] = limit_value()
    items["c"], items["v"], items["b"] = sysd["c_LU"], sysd["v_LU"], sysd["b_LU"]
    for k, e in items.items():
        a = sp.limit(sp.limit(e, U, sp.oo), L, 0)
        b = sp.limit(sp.limit(e, L, 0), U, sp.oo)
        out[str(k)] = (sp.simplify(a), sp.simplify(b))
    return out
