"""Every disagreement between the seed's text and the mathematics (seed.MISPRINTS), pinned:
the printed formula fails, the corrected one holds."""
import sympy as sp
import pytest

from guts.games.continuous_poker import limit_poker, newman, symbolic as S, von_neumann
from guts.games.continuous_poker.bestresponse import check_equilibrium
from guts.games.continuous_poker.misprints import MISPRINTS, printed

X = S.XS


def zero(e):
    return sp.expand(sp.numer(sp.together(e))) == 0


@pytest.fixture(scope="module")
def pr():
    return printed()


@pytest.fixture(scope="module")
def printed_solution(pr):
    subs = {k: pr[str(k)] for k in X}
    subs[S.B0] = pr["b0"]
    return subs


def test_every_misprint_names_an_existing_test():
    import pathlib

    here = pathlib.Path(__file__).parent
    for m in MISPRINTS:
        fname, test = m.test.split("::")
        assert test in (here / fname).read_text(), m.test


def test_von_neumann_thresholds_misprint_s_for_B(pr):
    vn = S.von_neumann_system()
    # printed with a stray s: not the threshold unless s = B
    assert not zero(pr["vn_value_bet_threshold"] - vn["value_bet"])
    assert zero(pr["vn_value_bet_threshold"].subs(sp.Symbol("s_misprint"), S.B) - vn["value_bet"])
    assert zero(pr["vn_bluff_threshold"] - vn["bluff"]) and zero(pr["vn_call_threshold"] - vn["call"])
    g = von_neumann(0.7)
    assert g.value_threshold == pytest.approx((1 + 4 * 0.7 + 2 * 0.49) / ((1 + 1.4) * 2.7), rel=1e-15)


def test_printed_values_are_in_the_ante_one_convention(pr):
    """Pot 1 (antes 0.5, the seed's own convention): V_B/2 and 1/14.  The printed values are
    those of antes 1 (pot 2): every payoff doubles."""
    vn = S.von_neumann_system()
    assert not zero(pr["vn_value"] - vn["value"])
    assert zero(pr["vn_value"] / 2 - vn["value"])
    assert S.newman_limits()["value"][0] == pr["newman_value"] / 2
    # independent of the closed forms: quadrature of the equilibrium payoff (footnote 3)
    assert check_equilibrium(von_neumann(1.0)).value == pytest.approx(1 / 18, abs=1e-12)
    assert check_equilibrium(newman()).value == pytest.approx(1 / 14, abs=1e-12)
    # the maximum over B is at B = 1 in both conventions (the seed's claim holds)
    assert sp.solve(sp.diff(vn["value"], S.B), S.B) == [1]


def test_atom_indifference_misprints(pr, printed_solution):
    """Eqs. (2)-(3) as printed fail for the printed solution; the corrected ones hold, and the
    corrected ones are the seed's own P[bluff|s](1 + s) - P[value|s] s = 0."""
    x0, x1, x2, x3, x4, x5 = (printed_solution[k] for k in X)
    L, U = S.L, S.U
    assert not zero((x4 - x3) * (1 + L) - (x2 - x1) * L)
    assert not zero((1 - x5) * (1 + U) - x0 * U)
    assert zero((x2 - x1) * (1 + L) - (x4 - x3) * L)
    assert zero(x0 * (1 + U) - (1 - x5) * U)
    # solving the printed system gives a different, wrong profile: a caller hand gains
    wrong = S.limit_equations(pr["c"], pr["v"], pr["b"], printed=True)
    sol = sp.solve([e.subs({L: sp.Rational(1, 2), U: 1}) for e in wrong], list(X) + [S.B0], dict=True)
    assert all(abs(float(sol[0][k]) - v) > 1e-3 for k, v in zip(X[:1], limit_poker(0.5, 1.0).x[:1]))


def test_interior_caller_indifference(pr, printed_solution):
    """|b'|(1+s) + |v'| s = 0 is impossible; the signed b'(1+s) + v's = 0 holds with b' < 0 < v'."""
    s = S.s
    b = pr["b"].subs({S.X2: printed_solution[X[2]], S.B0: printed_solution[S.B0]})
    v = pr["v"].subs(S.X2, printed_solution[X[2]])
    db, dv = sp.diff(b, s), sp.diff(v, s)
    assert zero(db * (1 + s) + dv * s)
    g = limit_poker(0.5, 1.0)
    for t in (0.6, 0.8, 0.95):
        num = {S.L: 0.5, S.U: 1.0, s: t}
        dbn, dvn = float(db.subs(num)), float(dv.subs(num))
        assert dbn < 0 < dvn
        assert abs(dbn) * (1 + t) + abs(dvn) * t > 0.1           # printed form: never 0
        # the corrected density ratio P[value|s]/P[bluff|s] = |v'|/|b'| = (1+s)/s (fair odds)
        assert abs(dvn) / abs(dbn) == pytest.approx((1 + t) / t, rel=1e-12)
        assert g.db(t) == pytest.approx(dbn, rel=1e-12) and g.dv(t) == pytest.approx(dvn, rel=1e-12)


def test_summary_misprint_eq6(pr, printed_solution):
    cL = pr["c"].subs({S.s: S.L, S.X2: printed_solution[X[2]]})
    x2, x3 = printed_solution[X[2]], printed_solution[X[3]]
    L = S.L
    assert not zero(cL - (1 - cL) * L - x3)                                   # summary line
    assert zero(cL - (1 - cL) * L - x2)                                       # it is eq. (7) at L
    assert zero((x3 - cL) * (1 + L) - (1 - x3) * L + cL - x3)                 # eq. (6)
    assert zero(x3 - (1 + cL) / 2)


def test_eq9_check_region_reversed(pr):
    """Printed: check when B/D > x > (1+4B+2B^2)/D -- empty, since the lower bound exceeds the upper."""
    for B in (0.1, 1.0, 5.0):
        lo = float(pr["eq9_check_lower"].subs(S.B, B))
        hi = float(pr["eq9_check_upper"].subs(S.B, B))
        assert hi < lo                                                        # printed set is empty
        g = von_neumann(B)
        assert g.regions[1].role == "check"
        assert (g.regions[1].lo, g.regions[1].hi) == pytest.approx((hi, lo), rel=1e-14)
