"""The limit equilibrium re-derived with sympy from the rules, against the seed's printed
solution (§4.2.5) and the package's closed forms; the value V(L, U); limit theorems 5.1-5.4."""
import sympy as sp
import pytest

from guts.games.continuous_poker import closed_forms as cf
from guts.games.continuous_poker import limit_poker, symbolic as S
from guts.games.continuous_poker.misprints import printed

X = S.XS


def zero(e):
    """Exact test that a rational expression vanishes: its numerator expands to 0."""
    return sp.expand(sp.numer(sp.together(e))) == 0


@pytest.fixture(scope="module")
def sysd():
    return S.limit_system()


@pytest.fixture(scope="module")
def pr():
    return printed()


def test_derived_functions_match_printed(sysd, pr):
    # c from eq. 7, v from eq. 5 (chain rule), b from eq. 4 (signed form) integrated
    for name in ("c", "v", "b"):
        assert sp.simplify(sysd[name] - pr[name]) == 0, name


def test_printed_solution_equals_fresh_solve(sysd, pr):
    sol = sysd["solution"]
    for k in list(X) + [S.B0]:
        assert zero(sol[k] - pr[str(k)]), k


def test_seven_equations_hold_for_printed_solution(pr):
    # caller indifference at L and U (corrected), bettor eq. 6, continuity (8): all residuals 0
    eqs = S.limit_equations(pr["c"], pr["v"], pr["b"])
    subs = {k: pr[str(k)] for k in X}
    subs[S.B0] = pr["b0"]
    for e in eqs:
        assert zero(e.subs(subs))
    # and the two functional equations, identically in s
    c = pr["c"].subs(S.X2, pr["x2"])
    v = pr["v"].subs(S.X2, pr["x2"])
    b = pr["b"].subs({S.X2: pr["x2"], S.B0: pr["b0"]})
    s = S.s
    assert zero(sp.diff(b, s) * (1 + s) + sp.diff(v, s) * s)          # eq. 4 (signed)
    assert zero(-s * sp.diff(c, s) - c + 2 * v - 1)                   # eq. 5
    assert zero(S.bluff_share(s, c) - pr["x2"])                       # eq. 7, every s


def test_float_closed_forms_match_symbolic(sysd):
    sol = sysd["solution"]
    f = sp.lambdify((S.L, S.U), [sol[k] for k in X] + [sol[S.B0], S.limit_value()])
    for L, U in [(0.0, 0.3), (0.5, 1.0), (0.2, 7.0), (3.0, 3.0), (0.0, 50.0)]:
        g = limit_poker(L, U)
        *xs, b0, V = f(L, U)
        assert g.x == pytest.approx(xs, abs=1e-14)
        assert g.b0 == pytest.approx(b0, abs=1e-14)
        assert g.value == pytest.approx(V, rel=1e-13)


def test_gap_factorisations_and_ordering(sysd):
    """x_{i+1} - x_i equal the factored gaps used numerically, all >= 0 for 0 <= L <= U."""
    sol = sysd["solution"]
    A4 = printed()["A"][4]
    gaps = cf._limit_gaps(S.L, S.U, A4)
    seq = [0] + [sol[k] for k in X] + [1]
    d = sp.Symbol("d", nonnegative=True)
    for i, g in enumerate(gaps):
        assert zero(seq[i + 1] - seq[i] - g)
        num, den = sp.fraction(sp.factor(g))
        for poly in (num, den):  # non-negative coefficients in L and d = U - L: >= 0
            coeffs = sp.Poly(sp.expand(poly.subs(S.U, S.L + d)), S.L, d).coeffs()
            assert all(c >= 0 for c in coeffs)


def test_value_is_half_x2_and_A_form():
    V = S.limit_value()
    pr_ = printed()
    A4, A5 = pr_["A"][4], pr_["A"][5]
    assert zero(V - A5 / (2 * A4))
    assert zero(V - pr_["x2"] / 2)


def test_value_monotone_in_limits():
    """dV/dL = -9 L^2 (L+1)^2 (U+1)^6 / A4^2 <= 0 and dV/dU = 9 (L+1)^6 (U+1)^2 / A4^2 > 0."""
    V = S.limit_value()
    A4 = printed()["A"][4]
    L, U = S.L, S.U
    assert zero(sp.diff(V, L) + 9 * L**2 * (L + 1) ** 2 * (U + 1) ** 6 / A4**2)
    assert zero(sp.diff(V, U) - 9 * (L + 1) ** 6 * (U + 1) ** 2 / A4**2)


def test_von_neumann_from_its_own_equations():
    vn = S.von_neumann_system()
    B = S.B
    D = (1 + 2 * B) * (2 + B)
    assert zero(vn["bluff"] - B / D)
    assert zero(vn["value_bet"] - (1 + 4 * B + 2 * B**2) / D)
    assert zero(vn["call"] - B * (3 + 2 * B) / D)
    assert zero(vn["value"] - B / (2 * D))


def test_theorems_5_1_and_5_2_limit_to_von_neumann(sysd, pr):
    """L = U = B: x0 = x1, x2 = bluff threshold, x3 = value threshold, x4 = x5; c(B) = C_B; V = V_B."""
    sol, vn, B = sysd["solution"], S.von_neumann_system(), S.B
    at = {S.L: B, S.U: B}
    assert zero(sol[X[0]].subs(at) - pr["thm51_x0_x1"])
    assert zero(sol[X[1]].subs(at) - pr["thm51_x0_x1"])
    assert zero(sol[X[2]].subs(at) - vn["bluff"])
    assert zero(sol[X[3]].subs(at) - vn["value_bet"])
    assert zero(sol[X[4]].subs(at) - pr["thm51_x4_x5"])
    assert zero(sol[X[5]].subs(at) - pr["thm51_x4_x5"])
    assert zero(sysd["c_LU"].subs(at).subs(S.s, B) - vn["call"])
    assert zero(S.limit_value().subs(at) - vn["value"])


def test_theorems_5_3_and_5_4_limit_to_newman(pr):
    lim = S.newman_limits()
    for k, v in pr["thm53"].items():
        assert lim[k][0] == v and lim[k][1] == v, k
    for name, seed_name in (("c", "newman_call"), ("v", "newman_value_hand"), ("b", "newman_bluff")):
        for e in lim[name]:
            assert sp.simplify(e - pr[seed_name]) == 0, name
    assert lim["value"] == (sp.Rational(1, 14), sp.Rational(1, 14))
    assert lim["b0"] == (0, 0)


def test_bettor_optimality_structure():
    """dE/ds = 2(x - v(s)) on the value piece, and E(x, L) - x = 2L(x - x3): the exact
    reasons why value hands bet v^{-1}(x) (clipped) and the check region is optimal."""
    s, x = S.s, S.x
    x2 = S.X2
    c = (x2 + s) / (1 + s)
    v = (1 + 4 * s + 2 * s**2 + x2) / (2 * (1 + s) ** 2)
    E = S.bettor_share(x, s, c)
    assert zero(sp.diff(E, s) - 2 * (x - v))
    x3 = (1 + c.subs(s, S.L)) / 2
    assert zero(S.bettor_share(x, S.L, c.subs(s, S.L)) - x - 2 * S.L * (x - x3))
