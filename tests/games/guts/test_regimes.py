"""The 1 v. N coalition in the three team regimes (guts.games.guts.regimes).

Oracles: the game's rules played out cell by cell (every ordering of hands that share a mesh
cell equally likely), every pure joint rule of a tiny mesh enumerated and the recursive game
iterated with scipy's linprog (the paper's algorithm), the closed forms of
guts.games.guts.payoffs for threshold rules, and the inclusions communication ⊇ correlated ⊇
independent of the strategy sets.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import linprog

from guts.errors import GutsInputError
from guts.games.guts.coalition import solve_coalition
from guts.games.guts.payoffs import alpha, beta
from guts.games.guts.regimes import (REGIMES, best_rule, bloc_rule, certify_player1_rules, joint_cells, rule_payoffs,
                                     solve_coalition_regime)


# ---------------------------------------------------------------------------------------
# An independent oracle: the rules of DESIGN.md played on mesh cells
# ---------------------------------------------------------------------------------------
def _returns(n, holders, best):
    """Immediate return of every player (DESIGN.md) and the stakes multiplier."""
    h = len(holders)
    if h == 0:
        return np.zeros(n), 1.0
    if h == 1:
        r = np.full(n, -1.0)
        r[holders[0]] = n - 1
        return r, 0.0
    r = np.full(n, h - 2.0)
    for i in holders:
        r[i] = h - n - 2.0
    r[best] = n + h - 2.0
    return r, h - 1.0


def _cell_game(M, N, q_index, holds):
    """Player 1's expected return and the multiplier, hands uniform; ``holds(cells)`` -> coalition holders.

    Player 1 (index 0) holds above grid[q_index]; members 1..N hold as ``holds`` says for their
    cell tuple.  Hands in distinct cells are ordered by the cells; hands sharing a cell are in
    every order with equal probability.
    """
    cells_per = M - 1
    n = N + 1
    a = b = 0.0
    for cells in itertools.product(range(cells_per), repeat=n):
        holders = ([0] if cells[0] >= q_index else []) + [i + 1 for i in holds(cells[1:])]
        groups = {}
        for i, c in enumerate(cells):
            groups.setdefault(c, []).append(i)
        orders = list(itertools.product(*[list(itertools.permutations(g)) for g in groups.values()]))
        for order in orders:
            rank = {}  # larger is a better hand
            for (c, _), perm in zip(groups.items(), order):
                for pos, i in enumerate(perm):
                    rank[i] = c * n + pos
            best = max(holders, key=lambda i: rank[i]) if holders else None
            r, s = _returns(n, holders, best)
            w = (1.0 / cells_per) ** n / len(orders)
            a += w * r[0]
            b += w * s
    return a, b


def _value(M_of_V, v0, iterations=400, cap=math.inf):
    """The paper's iteration V <- Value(M(V)) from v0 (row player), each stage by linprog; stopped at
    ``cap``, what the opponent forfeits by leaving (paper §1)."""
    V = v0
    for _ in range(iterations):
        G = M_of_V(V)
        R, C = G.shape
        if R == 1:  # one row: the column player's least entry
            new = float(G.min())
        elif C == 1:  # one column: the row player's best entry
            new = float(G.max())
        else:  # max t s.t. x G >= t, x in the simplex
            res = linprog(np.r_[np.zeros(R), -1.0], A_ub=np.c_[-G.T, np.ones(C)], b_ub=np.zeros(C),
                          A_eq=np.r_[np.ones(R), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * R + [(None, None)],
                          method="highs")
            new = -res.fun
        if new <= v0 and V == v0:
            return v0  # no entry: the termination value (paper §1)
        if new >= cap:
            return cap
        if abs(new - V) < 1e-13:
            return new
        V = new
    return V


def test_rule_payoffs_match_the_rules_played_on_cells():
    # N = 3 on 4 mesh points: every top-k rule of random choices against the cell game
    M, N = 4, 3
    cells = joint_cells(N, M)
    index = {tuple(c): i for i, c in enumerate(cells.cells)}
    rng = np.random.default_rng(0)
    for _ in range(3):
        rule = rng.integers(0, N + 1, cells.count)

        def holds(member_cells):
            k = rule[index[tuple(sorted(member_cells, reverse=True))]]
            order = sorted(range(N), key=lambda i: (-member_cells[i], i))  # highest cells first
            return order[:k]

        A, B = rule_payoffs(cells, rule)
        for s in range(M):
            a, b = _cell_game(M, N, s, holds)
            assert A[s] == pytest.approx(a, abs=1e-12)
            assert B[s] == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize("N,M", [(1, 6), (2, 11), (3, 8), (4, 5)])
def test_bloc_rules_are_the_closed_form(N, M):
    # a bloc at a mesh threshold is a threshold profile: Proposition-checked alpha and beta
    cells = joint_cells(N, M)
    assert math.isclose(cells.weight.sum(), 1.0, abs_tol=1e-12)
    assert cells.count == math.comb(M - 2 + N, N)
    for j in range(M):
        A, B = rule_payoffs(cells, bloc_rule(cells, j))
        p = cells.grid[j]
        np.testing.assert_allclose(A, [float(alpha(q, [p] * N)) for q in cells.grid], atol=1e-12)
        np.testing.assert_allclose(B, [float(beta([q] + [p] * N)) for q in cells.grid], atol=1e-12)


def test_communication_equals_brute_force_over_every_joint_rule():
    # mesh 3, N = 2: 4 cells (unsorted) x 4 holder sets = 4^4 = 256 pure rules, no reduction used
    M, N = 3, 2
    cell_tuples = list(itertools.product(range(M - 1), repeat=N))
    subsets = [(), (0,), (1,), (0, 1)]
    A = np.empty((M, len(subsets) ** len(cell_tuples)))
    B = np.empty_like(A)
    for r, choice in enumerate(itertools.product(range(len(subsets)), repeat=len(cell_tuples))):
        table = dict(zip(cell_tuples, choice))
        for s in range(M):
            A[s, r], B[s, r] = _cell_game(M, N, s, lambda mc: subsets[table[tuple(mc)]])
    player1 = _value(lambda V: A + B * V, -1.0)
    coalition = _value(lambda W: (-A + B * W).T, -float(N))
    res = solve_coalition_regime(N, "communication", mesh=M)
    assert res.converged
    assert res.player1_value == pytest.approx(player1, abs=1e-9)
    assert res.coalition_value == pytest.approx(coalition, abs=1e-9)
    assert res.coalition_lower - 1e-9 <= coalition <= res.coalition_upper + 1e-9
    assert player1 == pytest.approx(-coalition, abs=1e-9)  # the game has a value


def test_best_rule_is_the_least_over_every_rule():
    # small enough to enumerate the sorted-cell rules: (N + 1)^cells
    cells = joint_cells(2, 4)
    x = np.array([0.1, 0.2, 0.3, 0.4])
    for v in (-1.0, 0.0, 0.5):
        k, val = best_rule(cells, x, v)
        vals = []
        for rule in itertools.product(range(3), repeat=cells.count):
            a, b = rule_payoffs(cells, np.array(rule))
            vals.append(x @ (a + b * v))
        assert val == pytest.approx(min(vals), abs=1e-12)
        a, b = rule_payoffs(cells, k)
        assert x @ (a + b * v) == pytest.approx(val, abs=1e-12)


def test_player1_certificate_is_theorem_1_2_against_every_rule():
    cells = joint_cells(2, 4)
    res = solve_coalition_regime(2, "communication", mesh=4)
    x = np.zeros(4)
    for q, w in res.player1_strategy.items():
        x[int(round(q * 3))] = w
    cert = certify_player1_rules(cells, x, -1.0)
    assert cert.valid and cert.v_certified <= res.player1_value + 1e-9
    # f(v) >= 0 at the certified value against every enumerated rule
    v = cert.v_certified
    for rule in itertools.product(range(3), repeat=cells.count):
        a, b = rule_payoffs(cells, np.array(rule))
        assert x @ a + (x @ b - 1.0) * v >= -1e-12


@pytest.mark.parametrize("N,M", [(2, 21), (3, 21), (2, 101)])
def test_best_card_rule_is_the_continuum_rule_up_to_shared_cells(N, M):
    # the member in the highest cell holds alone (k = 1 everywhere).  In the continuum the best of N
    # cards (law x^N) holds: alpha = -q + 2(1 - q^n) - n(1 - q), beta = 1 - q.  On the mesh the holder
    # of a shared top cell is not always the best of that cell: |error| <= 2n C(N, 2) w^2 (a shared
    # top cell has probability <= C(N, 2) w and moves the holder's hand by at most w)
    cells = joint_cells(N, M)
    n, q, w = N + 1, cells.grid, 1.0 / (M - 1)
    A, B = rule_payoffs(cells, np.ones(cells.count, dtype=np.intp))
    np.testing.assert_allclose(B, 1.0 - q, atol=1e-12)
    assert np.max(np.abs(A - (-q + 2 * (1 - q ** n) - n * (1 - q)))) <= 2 * n * math.comb(N, 2) * w ** 2
    # the rule alone guarantees the coalition min_q -A/q (player 1's stationary value A / (1 - B)):
    # a lower bound of the communication value
    guarantee = float(np.min(-A[1:] / q[1:]))
    if M <= 21:
        res = solve_coalition_regime(N, "communication", mesh=M)
        assert res.coalition_upper >= guarantee - 1e-9


@pytest.mark.parametrize("N", [2, 3])
def test_orderings_and_the_correlated_column(N):
    M = 7
    com = solve_coalition_regime(N, "communication", mesh=M)
    cor = solve_coalition_regime(N, "correlated", mesh=M)
    ind = solve_coalition_regime(N, "independent", mesh=M, max_updates=20)
    direct = solve_coalition(N, mesh=M, structure="full")
    assert cor.coalition_value == direct.coalition_value
    assert (cor.certified_lower, cor.certified_upper) == (direct.certified_lower, direct.certified_upper)
    assert com.converged and cor.converged
    assert com.coalition_upper - com.coalition_lower < 1e-9
    assert com.coalition_lower >= cor.coalition_upper - 1e-9          # communication >= correlated
    assert cor.coalition_upper == pytest.approx(ind.coalition_upper)   # the independent upper end
    assert ind.coalition_lower <= cor.coalition_lower + 1e-9           # correlated >= independent
    # the found product profile beats every bloc (a pure, hence independent, profile), each
    # valued by the paper's iteration against player 1's best response
    grid = np.linspace(0, 1, M)
    for p in grid:
        a = np.array([float(alpha(q, [p] * N)) for q in grid])
        b = np.array([float(beta([q] + [p] * N)) for q in grid])
        bloc = _value(lambda W: (-a + b * W)[None, :], -float(N))
        assert ind.coalition_lower >= bloc - 1e-9


def test_independent_search_beats_a_grid_of_product_mixtures():
    # N = 2 at mesh 5: every pair of member mixtures with weights in halves, each valued by the
    # paper's iteration (player 1 from -1 against the fixed product mixture); the search may not
    # do worse, and the correlated value bounds them all
    from guts.games.guts.payoffs import alpha_matrix, beta_matrix

    N, M = 2, 5
    grid = np.linspace(0, 1, M)
    profiles = np.array(list(itertools.product(grid, repeat=N)))
    A, B = alpha_matrix(grid, profiles), beta_matrix(grid, profiles)
    mixtures = [np.array(c) / 2 for c in itertools.product(range(3), repeat=M) if sum(c) == 2]
    best = -math.inf
    for s1, s2 in itertools.product(mixtures, repeat=2):
        y = np.outer(s1, s2).ravel()
        best = max(best, -_value(lambda V: (A @ y + (B @ y) * V)[:, None], -1.0, iterations=5000, cap=N))
    res = solve_coalition_regime(N, "independent", mesh=M)
    assert res.coalition_lower >= best - 1e-9
    assert best <= res.coalition_upper + 1e-9


def test_one_member_is_two_player_guts_in_every_regime():
    for regime in REGIMES:
        r = solve_coalition_regime(1, regime, mesh=6)
        assert r.coalition_lower - 1e-9 <= 0.0 <= r.coalition_upper + 1e-9


@pytest.mark.parametrize("kwargs,match", [
    ({"size": 2, "regime": "telepathy"}, "regime"),
    ({"size": 0, "regime": "communication"}, "size"),
    ({"size": 2.5, "regime": "communication"}, "size"),
    ({"size": 2, "regime": "communication", "mesh": 1}, "mesh"),
    ({"size": 2, "regime": "communication", "mesh": [0.0, 0.5, 1.0]}, "mesh"),
    ({"size": 12, "regime": "communication", "mesh": 101}, "joint cells"),
])
def test_bad_input_is_one_line(kwargs, match):
    with pytest.raises(GutsInputError, match=match) as e:
        solve_coalition_regime(**kwargs)
    assert "\n" not in str(e.value)


@pytest.mark.slow
def test_command_writes_the_columns_beside_table1(tmp_path, capsys):
    import pandas as pd

    from guts.cli import main
    from guts.studies.table1_regimes import REGIMES_COLUMNS

    assert main(["table1-regimes", "--cases", "5:2", "--out", str(tmp_path), "--quiet"]) == 0
    df = pd.read_csv(tmp_path / "table1_regimes.csv")
    assert list(df.columns) == REGIMES_COLUMNS
    assert df["certified"].all() and df["communication_ge_correlated"].all() and df["correlated_ge_independent"].all()
    for r in df.itertuples():
        assert r.communication_lower <= r.communication <= r.communication_upper + 1e-9
        assert r.independent_lower <= r.independent_upper
        # the pseudo-bloc profiles (Table 1's game) are joint threshold profiles: correlated >= pseudo-bloc
        assert r.correlated_upper >= r.table1_pseudo_bloc - 1e-9
    capsys.readouterr()
    assert main(["table1-regimes", "--cases", "1:2", "--out", str(tmp_path / "bad"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("guts table1-regimes: error: --cases")
