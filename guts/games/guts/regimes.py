"""The 1 v. N coalition in the three team regimes: communication, correlated, independent.

In Buck, Lee, Platnick, Wheeler and Zumbrun, *Continuous Guts Poker and Numerical Optimization
of Generalized Recursive Games* (2022), the coalition mixes over joint threshold profiles
drawn before the deal, each member seeing only its own card: a team max-min equilibrium with
ex-ante correlation (TMECor: Celli and Gatti, *Computational results for extensive-form
adversarial team games*, 2018; Farina, Celli, Gatti and Sandholm, *Ex ante coordination and
collusion in zero-sum multi-player extensive-form games*, 2018).  That is the
``"correlated"`` regime, :func:`guts.games.guts.coalition.solve_coalition` with the free
(``"full"``) coalition.  The two other regimes:

``"communication"``
    The coalition's hold/drop decisions depend on all its members' cards: the coalition is
    one player who sees the vector of its members' hands.  On the mesh ``g_0 = 0 < ... <
    g_{M-1} = 1`` its pure strategies are *joint rules*: one set of holders per joint hand
    cell ``[g_{j_1}, g_{j_1+1}] x ... x [g_{j_N}, g_{j_N+1}]``; player 1 keeps his mesh
    thresholds.  A threshold profile is such a rule, so the regime contains the correlated
    one on the same mesh.
``"independent"``
    Each member plays his own mixed threshold strategy, without correlation (team max-min
    equilibrium: von Stengel and Koller, *Team-maxmin equilibria*, 1997): a non-convex
    problem, searched and reported as a bracket.

Communication stage game
------------------------
With player 1 at threshold ``q`` and ``k`` coalition holders whose best hand is ``m``
(DESIGN.md's rules; ``n = N + 1``), player 1's expected immediate return over his hand
``u ~ U[0, 1]`` is

* ``k = 0``: ``(1 - q)(n - 1)`` (he drops: redeal, 0; he holds alone: ``n - 1``);
* ``k >= 1``: ``q d_k + (k - n - 1)(1 - q) + 2n (1 - max(q, m))``, with ``d_1 = -1``,
  ``d_k = k - 2`` (``k >= 2``): holding, he is the best holder (``n + k - 1``) exactly
  when ``u > m``, otherwise he matches the pot (``k - n - 1``);

and the stakes multiplier is ``q`` (``k = 0``), ``q e_k + (1 - q) k`` (``k >= 1``,
``e_1 = 0``, ``e_k = k - 1``).  Both are linear in the cell's law, so a rule's entry is a
sum over cells.  Two reductions, both exact:

* for a given number ``k`` of holders, the ``k`` members in the highest cells stochastically
  dominate any other ``k`` (their best hand is larger), and the coalition's return
  ``-alpha`` increases with ``m`` while the multiplier depends on ``k`` only: a cell's choice
  is a number ``k = 0..N``;
* the members are exchangeable: cells are multisets of cell indices, weighted by the number
  of their orderings (``C(M + N - 2, N)`` cells instead of ``(M - 1)^N``).

With the mesh thresholds on the cells' edges, ``max(q, m)`` has the expectation
``max(q, l + w t / (t + 1))`` where ``[l, l + w]`` is the top cell and ``t`` the number of
holders in it.

The rule space, ``(N + 1)^cells``, is not enumerated: the coalition's best rule against a
mixed ``x`` of player 1 at a value ``V`` is computed cell by cell, and the recursive game
(:func:`guts.engine.recursive.solve_both_sides`, the engine's fixed point and Theorem 1.2
certificates) is solved on the rules generated so far, adding the coalition's best rule
against player 1's fixed-point strategy until none improves (column generation).  The
coalition's certificate is valid as it stands (player 1's strategies are all there);
player 1's is recomputed against *every* rule, cell by cell (:func:`certify_player1_rules`).

Independent search
------------------
From each start (the members' marginals of the correlated optimum, each profile of its
support, the symmetric Nash threshold as a bloc), each member in turn replaces his mixed
threshold strategy by his max-min strategy in the recursive game against player 1 with the
others fixed (a 1 v. 1 recursive game solved and certified by the engine), while the
coalition's value rises.  The best product profile's value, certified by Theorem 1.2 for the
fixed product mixture, is the lower end; the correlated value is the upper end.

Examples
--------
>>> from guts.games.guts.regimes import solve_coalition_regime
>>> com = solve_coalition_regime(2, "communication", mesh=11)
>>> cor = solve_coalition_regime(2, "correlated", mesh=11)
>>> com.coalition_lower >= cor.coalition_upper - 1e-9, com.converged
(True, True)
"""
from __future__ import annotations

import math
import time
import warnings
from guts.engine.result import Solution
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

import numpy as np

from guts._validate import (GutsInputError, check_choice, check_int, check_memory, check_positive_float,
                            check_random_state)
from guts.engine.recursive import StrategyBound, _certify, solve_both_sides, support
from guts.engine.stage import DenseStage
from guts.errors import ConvergenceWarning
from guts.engine.tolerances import (CERT_ROUNDING, FIXED_POINT_TOL, MAX_FIXED_POINT_TOL, MAX_ITERATIONS,
                                    PROBABILITY_SUM_TOL, SUPPORT_TOL)
from guts.games.guts.coalition import CoalitionResult, solve_coalition
from guts.games.guts.large_n.solve import MAX_SIZE
from guts.games.guts.payoffs import _alpha_matrix, _beta_matrix, symmetric_equilibrium
from guts.games.guts.result import OneVsCoalitionRecord
from guts.games.guts.stage import GutsStage

__all__ = ["REGIMES", "RegimeResult", "JointCells", "joint_cells", "rule_payoffs", "bloc_rule", "best_rule",
           "certify_player1_rules", "solve_coalition_regime"]

#: The three regimes, strongest coalition first.
REGIMES = ("communication", "correlated", "independent")
#: Largest number of joint hand cells (multisets) the communication regime builds.
MAX_CELLS = 5_000_000
#: Most extra random starts of the independent search (each is a full search).
MAX_RANDOM_STARTS = 10_000
#: A generated rule improves player 1's stage value by more than this (relative to 1 + |V|) or
#: the column generation stops.
PRICING_TOL = 1e-12
#: The independent search stops when a round of member updates gains less than this.
SEARCH_TOL = 1e-10
#: A regime's bracket counts as converged when narrower than this (exact ends are certified to ~1e-11).
TARGET_WIDTH = 1e-8
#: Bytes per joint cell of the communication regime (cell indices, expectations, weights and the
#: pricing temporaries, about 16 float64 words per cell and choice).
BYTES_PER_CELL_CHOICE = 16 * 8


@dataclass(frozen=True)
class RegimeResult(OneVsCoalitionRecord):
    """The 1 v. N game in one team regime, with a certified bracket of its value.

    Attributes
    ----------
    size, mesh : int
        Coalition size N and number of uniform mesh points.
    regime : str
        ``"communication"``, ``"correlated"`` or ``"independent"``.
    player1_value, coalition_value : float
        Player 1's value from ``-1`` and the coalition's from ``-N`` (for ``"independent"``:
        the coalition's value of the product profile found, player 1's value against it).
    lower, upper : float
        Player 1's value from below and from above (``upper = -coalition_value``).
    certified_lower, certified_upper : float
        Rigorous bracket of player 1's max-min value in this regime (``nan`` where a
        certificate failed); for ``"independent"``: ``[-correlated upper, -found profile's
        certified value]``.
    player1_strategy : dict
        ``{threshold: probability}``.
    coalition_strategy : dict
        ``"correlated"``: ``{profile: probability}``; ``"communication"``: ``{rule index:
        probability}`` (the rules are ``coalition_rules``); ``"independent"``: ``{member:
        {threshold: probability}}``.
    converged : bool
        The bracket is narrower than ``target`` (and every certificate holds).
    num_iter : int
        Column-generation rounds (communication), member updates (independent) or outer
        fixed-point iterations (correlated).
    seconds : float
    method : str
    coalition_rules : numpy.ndarray or None
        Communication: the support's rules, one row per rule, one ``k`` (holders: the ``k``
        members in the highest cells) per cell of :func:`joint_cells`.
    correlated : CoalitionResult or None
        The correlated solve (its own result for ``"correlated"``, the upper end for
        ``"independent"``).
    """

    mesh: int
    regime: str
    lower: float
    upper: float
    method: str
    coalition_rules: np.ndarray | None = field(default=None, repr=False)
    correlated: CoalitionResult | None = field(default=None, repr=False)

    @property
    def coalition_lower(self) -> float:
        """Certified lower end of the coalition's max-min value (``-certified_upper``)."""
        return -self.certified_upper

    @property
    def coalition_upper(self) -> float:
        """Certified upper end of the coalition's max-min value (``-certified_lower``)."""
        return -self.certified_lower


# ---------------------------------------------------------------------------------------
# Communication: joint hand cells and rules
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class JointCells:
    """The joint hand cells of a coalition of ``size`` on a uniform mesh, as multisets.

    Attributes
    ----------
    size : int
    grid : numpy.ndarray
        The mesh ``g_0 = 0 < ... < g_{M-1} = 1``.
    cells : numpy.ndarray, shape (C, N)
        Cell indices of the members, sorted in decreasing order (cell ``j`` is ``[g_j, g_{j+1}]``).
    weight : numpy.ndarray, shape (C,)
        Probability of the cell (all its orderings); sums to one.
    top : numpy.ndarray, shape (C, N + 1)
        ``top[c, k]``: the expected best hand of the ``k`` highest members (``nan`` for ``k = 0``).
    """

    size: int
    grid: np.ndarray = field(repr=False)
    cells: np.ndarray = field(repr=False)
    weight: np.ndarray = field(repr=False)
    top: np.ndarray = field(repr=False)

    @property
    def count(self) -> int:
        """Number of cells C."""
        return int(self.cells.shape[0])


def _count_cells(size: int, mesh: int) -> int:
    return math.comb(mesh - 2 + size, size)


def joint_cells(size: int, mesh: int) -> JointCells:
    """The multisets of the members' cells on a uniform mesh of ``mesh`` points (see the module notes)."""
    size = check_int("size", size, 1)
    mesh = check_int("mesh", mesh, 2)
    C = _count_cells(size, mesh)
    if C > MAX_CELLS:
        raise GutsInputError(f"the communication regime of a coalition of {size} at mesh {mesh} has {C} joint "
                             f"cells; accepted: at most {MAX_CELLS} (a smaller mesh or coalition)")
    check_memory(f"the communication regime of a coalition of {size} at mesh {mesh}",
                 BYTES_PER_CELL_CHOICE * C * (size + 1), "use a smaller mesh or coalition")
    grid = np.linspace(0.0, 1.0, mesh)
    width = 1.0 / (mesh - 1)
    cells = np.array(list(combinations_with_replacement(range(mesh - 2, -1, -1), size)), dtype=np.intp)
    cells = cells.reshape(-1, size)
    # orderings of a multiset: N! / prod(multiplicity!)
    mult = np.full(cells.shape[0], float(math.factorial(size)))
    run = np.ones(cells.shape[0])
    for i in range(1, size):
        same = cells[:, i] == cells[:, i - 1]
        run = np.where(same, run + 1.0, 1.0)
        mult /= np.where(same, run, 1.0)
    weight = mult * width ** size
    ntop = np.sum(cells == cells[:, :1], axis=1)
    k = np.arange(size + 1)
    t = np.minimum(k[None, :], ntop[:, None]).astype(float)
    top = grid[cells[:, 0]][:, None] + width * t / (t + 1.0)
    top[:, 0] = np.nan
    return JointCells(size=size, grid=grid, cells=cells, weight=weight, top=top)


def _base_terms(size: int, q: np.ndarray):
    """``alpha`` without its ``-2n max(q, m)`` term and ``beta``, for ``k = 0..N``: arrays (len(q), N + 1)."""
    n = size + 1
    k = np.arange(size + 1, dtype=float)
    drop = np.where(k == 1, -1.0, k - 2.0)
    stake_drop = np.where(k == 1, 0.0, k - 1.0)
    qq = q[:, None]
    a = qq * drop + (k - n - 1.0) * (1.0 - qq) + 2.0 * n
    b = qq * stake_drop + (1.0 - qq) * k
    a[:, 0] = (1.0 - q) * (n - 1.0)
    b[:, 0] = q
    return a, b


def rule_payoffs(cells: JointCells, rule) -> tuple[np.ndarray, np.ndarray]:
    """Player 1's stage payoff and the stakes multiplier against one joint rule, for every mesh threshold.

    Parameters
    ----------
    cells : JointCells
    rule : array_like of int, shape (C,)
        The number of holders in each cell (the highest ``k`` members hold).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``alpha`` and ``beta``, each of shape (M,) (player 1's thresholds ``cells.grid``).
    """
    k = np.asarray(rule, dtype=np.intp)
    if k.shape != (cells.count,) or np.any(k < 0) or np.any(k > cells.size):
        raise GutsInputError(f"a rule must give 0..{cells.size} holders for each of the {cells.count} cells; "
                             f"got shape {k.shape}")
    q = cells.grid
    n = cells.size + 1
    mass = np.bincount(k, weights=cells.weight, minlength=cells.size + 1)
    a0, b0 = _base_terms(cells.size, q)
    A = a0 @ mass
    B = b0 @ mass
    hold = k > 0
    e = cells.top[np.flatnonzero(hold), k[hold]]
    w = cells.weight[hold]
    order = np.argsort(e)
    e, w = e[order], w[order]
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cew = np.concatenate([[0.0], np.cumsum(w * e)])
    i = np.searchsorted(e, q, side="right")  # holders' cells with e <= q
    S = q * cw[i] + (cew[-1] - cew[i])      # sum of w * max(q, e)
    return A - 2.0 * n * S, B


def bloc_rule(cells: JointCells, index: int) -> np.ndarray:
    """The rule of a bloc at threshold ``grid[index]``: the members whose cell is above it hold."""
    return np.sum(cells.cells >= int(index), axis=1).astype(np.intp)


def _cell_costs(cells: JointCells, x: np.ndarray, v: float) -> np.ndarray:
    """``cost[c, k] = weight_c * sum_q x_q (alpha + v beta)(q; c, k)``: player 1's payoff per cell and choice."""
    I = np.flatnonzero(x > 0)
    q, xs = cells.grid[I], x[I]
    n = cells.size + 1
    a0, b0 = _base_terms(cells.size, q)
    lin = xs @ (a0 + v * b0)  # (N + 1,)
    cost = np.broadcast_to(lin, (cells.count, cells.size + 1)).copy()
    for qi, xi in zip(q, xs):
        cost[:, 1:] -= 2.0 * n * xi * np.maximum(qi, cells.top[:, 1:])
    return cost * cells.weight[:, None]


def best_rule(cells: JointCells, x, v: float) -> tuple[np.ndarray, float]:
    """The coalition's best joint rule against player 1's mixed ``x`` in the stage game ``A + B v``.

    Returns the rule (one ``k`` per cell) and player 1's payoff ``x (A + B v)`` against it,
    the least over every rule (it is a sum over cells of a choice per cell).
    """
    x = np.asarray(x, dtype=float)
    cost = _cell_costs(cells, x, float(v))
    k = np.argmin(cost, axis=1)
    return k.astype(np.intp), float(np.sum(cost[np.arange(cells.count), k]))


def _margin_all(cells: JointCells, x: np.ndarray, v: float) -> tuple[float, float]:
    """``f(v) = min over every rule of x A + (x B - 1) v`` and a bound on its rounding error."""
    cost = _cell_costs(cells, x, v)
    low = np.min(cost, axis=1)
    f = float(np.sum(low)) - v
    # pairwise summation over C cells, M products per entry: a bound on the computed sum's error
    scale = float(np.sum(np.abs(low))) + abs(v) + 2.0 * (cells.size + 1) * (1.0 + abs(v))
    err = (math.log2(max(cells.count, 2)) + cells.grid.size + 8) * np.finfo(float).eps * scale
    return f, max(CERT_ROUNDING * (1.0 + abs(v)), err)


def certify_player1_rules(cells: JointCells, x, v_start: float = -1.0, cap: float | None = None) -> StrategyBound:
    """Theorem 1.2 for player 1's mixed threshold strategy ``x`` against *every* joint rule.

    ``f(v) = min_rules [x A + (x B - 1) v]`` is a sum over cells of a least choice, minus ``v``:
    concave and piecewise linear.  If ``f(v_start) > 0``, its root ``v^*`` is found by Newton
    steps from the right (each step the root of the minimising rule's line, which bounds ``f``
    from above) and a point ``w <= v^*`` where the computed ``f(w)`` exceeds its rounding bound is
    certified: ``f >= 0`` on ``[v_start, w]`` by concavity, so repeating ``x`` forces ``w``.

    Parameters
    ----------
    cells : JointCells
    x : array_like, shape (M,)
        Player 1's mixed strategy over ``cells.grid``.
    v_start : float
        Player 1's termination value (-1).
    cap : float, optional
        What the coalition forfeits by leaving (``N``): no larger value is certified.
    """
    x = np.asarray(x, dtype=float)
    if x.shape != cells.grid.shape or np.any(x < 0) or abs(x.sum() - 1.0) > PROBABILITY_SUM_TOL:
        raise GutsInputError(f"x must be a probability vector over the {cells.grid.size} mesh thresholds")
    cap = float(cells.size if cap is None else cap)
    eps, r0 = _margin_all(cells, x, v_start)
    if not eps > r0:
        return StrategyBound(False, float(v_start), math.nan, eps,
                           f"f(v_*) = {eps:.3e} is not > 0 at v_* = {v_start}: the strategy does not improve "
                           "on the termination value against every joint rule")
    f_cap, r_cap = _margin_all(cells, x, cap)
    if f_cap > r_cap:
        return StrategyBound(True, float(v_start), cap, eps, "f > 0 up to the cap (Theorem 1.2)")
    v = cap
    for _ in range(10_000):
        k, _ = best_rule(cells, x, v)
        a, b = _rule_line(cells, x, k)
        if not b < 1.0:
            break
        z = a / (1.0 - b)
        if not z < v:
            break
        v = max(z, float(v_start))
    # the root is about v; step back until the computed margin clears its rounding bound
    for step in (1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3):
        w = v - step * (1.0 + abs(v))
        if w <= v_start:
            break
        f, r = _margin_all(cells, x, w)
        if f > r:
            return StrategyBound(True, float(v_start), float(w), eps,
                               "f(v_*) > 0 and f(v^*) > 0 against every joint rule (Theorem 1.2)")
    return StrategyBound(True, float(v_start), float(v_start), eps, "f(v_*) > 0 only: v^* = v_*")


def _rule_line(cells: JointCells, x: np.ndarray, rule: np.ndarray) -> tuple[float, float]:
    """``(x A_r, x B_r)`` for one rule."""
    A, B = rule_payoffs(cells, rule)
    return float(x @ A), float(x @ B)


def _solve_communication(size, mesh, tol, max_rounds, t0) -> Solution:
    cells = joint_cells(size, mesh)
    M = cells.grid.size
    rules = [bloc_rule(cells, j) for j in range(M)]
    cols = [rule_payoffs(cells, r) for r in rules]
    seen = {r.tobytes() for r in rules}
    rounds = 0
    both = None
    for rounds in range(1, max_rounds + 1):
        A = np.column_stack([c[0] for c in cols])
        B = np.column_stack([c[1] for c in cols])
        both = solve_both_sides(DenseStage(A, B), -1.0, -float(size), certify_result=True, solver="lp",
                                method="newton", tol=tol, warn=False)
        x = both.row.row_strategy
        added = 0
        for v in dict.fromkeys((both.row.value, -both.col.value)):  # player 1's value, then the coalition's
            k, val = best_rule(cells, x, v)
            key = k.tobytes()
            if val < v - PRICING_TOL * (1.0 + abs(v)) and key not in seen:
                seen.add(key)
                rules.append(k)
                cols.append(rule_payoffs(cells, k))
                added += 1
        if not added:
            break
    x = both.row.row_strategy
    lo = certify_player1_rules(cells, x, -1.0, cap=float(size))
    c_lo = lo.v_certified if lo.valid else math.nan
    c_hi = both.certified_upper
    y = both.col.row_strategy
    supp = np.flatnonzero(y > SUPPORT_TOL)
    width = c_hi - c_lo
    converged = bool(both.converged and lo.valid and math.isfinite(width) and width <= TARGET_WIDTH)
    return Solution.of(RegimeResult(
        size=size, mesh=M, regime="communication", player1_value=both.row.value, coalition_value=both.col.value,
        lower=both.row.value, upper=-both.col.value, certified_lower=c_lo, certified_upper=c_hi,
        player1_strategy=support(x, lambda i: float(round(cells.grid[i], 12))),
        coalition_strategy={int(j): float(y[j]) for j in supp}, converged=converged, num_iter=rounds,
        seconds=time.perf_counter() - t0, method="column generation over joint rules (lp/newton)",
        coalition_rules=np.array([rules[j] for j in supp]),
    ))


# ---------------------------------------------------------------------------------------
# Independent: best-response search over product profiles
# ---------------------------------------------------------------------------------------
def _product(strategies):
    """Support profiles (K, N) and weights (K,) of a product of per-member ``(thresholds, probs)``."""
    profiles = np.zeros((1, 0))
    weights = np.ones(1)
    for t, p in strategies:
        profiles = np.concatenate([np.repeat(profiles, t.size, axis=0),
                                   np.tile(t, profiles.shape[0])[:, None]], axis=1)
        weights = np.repeat(weights, t.size) * np.tile(p, weights.size)
    return profiles, weights


def _member_stage(grid, strategies, i):
    """Player 1 (rows) against member ``i``'s thresholds (columns), the others' mixtures fixed."""
    others = [s for j, s in enumerate(strategies) if j != i]
    prof, w = _product(others)
    M, K = grid.size, prof.shape[0]
    full = np.concatenate([np.repeat(grid, K)[:, None], np.tile(prof, (M, 1))], axis=1)  # (M * K, N)
    A = _alpha_matrix(grid, full).reshape(M, M, K) @ w
    B = _beta_matrix(grid, full).reshape(M, M, K) @ w
    return DenseStage(A, B)


def _profile_value(grid, strategies, size, tol):
    """The product profile's value (coalition from -N, fixed mixture), both sides certified."""
    prof, w = _product(strategies)
    stage = GutsStage(grid, prof)
    A, B = stage.dense()
    one = DenseStage((A @ w)[:, None], (B @ w)[:, None])
    with warnings.catch_warnings():  # a poor start profile may not enter: its value is then -N, uncertified
        warnings.simplefilter("ignore", ConvergenceWarning)
        both = solve_both_sides(one, -1.0, -float(size), certify_result=True, solver="lp", method="newton",
                                tol=tol, warn=False)
    cert = _certify(stage.transpose(), w, -float(size), CERT_ROUNDING)
    return both, cert


def _sparse(grid, y):
    I = np.flatnonzero(y > SUPPORT_TOL)
    p = y[I] / y[I].sum()
    return grid[I], p


def _search(grid, size, start, tol, max_updates):
    """Round-robin member updates from ``start``; returns (strategies, coalition value, updates)."""
    strategies = list(start)
    both, cert = _profile_value(grid, strategies, size, tol)
    value = cert.v_certified if cert.valid else -math.inf
    updates = 0
    improved = True
    while improved and updates < max_updates:
        improved = False
        for i in range(size):
            if updates >= max_updates:
                break
            with warnings.catch_warnings():  # from a poor profile the coalition may not enter: not certified
                warnings.simplefilter("ignore", ConvergenceWarning)
                res = solve_both_sides(_member_stage(grid, strategies, i), -1.0, -float(size), certify_result=True,
                                       solver="lp", method="newton", tol=tol, warn=False)
            updates += 1
            # the member's certificate is the product profile's: the others' mixtures are in the stage
            c = res.certificate_upper
            v = c.v_certified if c.valid else -math.inf
            if v > value + SEARCH_TOL:
                strategies = list(strategies)
                strategies[i] = _sparse(grid, res.col.row_strategy)
                value, improved = v, True
    return strategies, value, updates


def _starts(grid, size, cor: CoalitionResult, random_starts, rng):
    starts = []
    prof = np.array(list(cor.coalition_strategy.keys()), dtype=float).reshape(-1, size)
    w = np.array(list(cor.coalition_strategy.values()), dtype=float)
    w = w / w.sum()
    P = np.sort(prof, axis=1)
    margins = []
    for i in range(size):  # member i plays the i-th lowest threshold of the correlated profile
        vals, inv = np.unique(P[:, i], return_inverse=True)
        margins.append((vals, np.bincount(inv, weights=w)))
    starts.append(margins)
    for p in P:
        starts.append([(np.array([t]), np.ones(1)) for t in p])
    p_star = symmetric_equilibrium(size + 1)
    j = int(np.argmin(np.abs(grid - p_star)))
    starts.append([(grid[j:j + 1], np.ones(1)) for _ in range(size)])
    for _ in range(random_starts):
        starts.append([(grid.copy(), rng.dirichlet(np.ones(grid.size))) for _ in range(size)])
    return starts


def _solve_independent(size, mesh, tol, max_updates, random_starts, rng, t0, cor) -> Solution:
    grid = np.linspace(0.0, 1.0, mesh)
    best = None
    updates = 0
    for start in _starts(grid, size, cor, random_starts, rng):
        strategies, value, u = _search(grid, size, start, tol, max_updates)
        updates += u
        if best is None or value > best[1]:
            best = (strategies, value)
    strategies, value = best
    both, cert = _profile_value(grid, strategies, size, tol)
    found = cert.v_certified if cert.valid else math.nan
    c_lo = cor.certified_lower            # player 1 against the correlated coalition
    c_hi = -found                          # what the profile found concedes at most
    width = c_hi - c_lo
    converged = bool(cert.valid and math.isfinite(width) and width <= TARGET_WIDTH)
    return Solution.of(RegimeResult(
        size=size, mesh=mesh, regime="independent", player1_value=both.row.value,
        coalition_value=both.col.value, lower=both.row.value, upper=-both.col.value,
        certified_lower=c_lo, certified_upper=c_hi,
        player1_strategy=support(both.row.row_strategy, lambda i: float(round(grid[i], 12))),
        coalition_strategy={i: {float(round(t, 12)): float(p) for t, p in zip(*s)} for i, s in enumerate(strategies)},
        converged=converged, num_iter=updates, seconds=time.perf_counter() - t0,
        method="member-by-member max-min updates (lp/newton)", correlated=cor,
    ))


# ---------------------------------------------------------------------------------------
def solve_coalition_regime(size: int, regime: str = "correlated", mesh: int = 101, structure: str = "full",
                           tol: float = FIXED_POINT_TOL, max_iterations: int = 2_000, max_updates: int = 200,
                           random_starts: int = 0, random_state=0) -> Solution:
    """Solve the 1 v. N recursive Guts game in one team regime, with a certified bracket.

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    regime : {"communication", "correlated", "independent"}
        What the coalition's members share: their cards (communication), a joint threshold
        profile drawn before the deal (correlated: TMECor, the paper's game) or nothing
        (independent).
    mesh : int
        Number of uniform mesh points (>= 2; the paper's Table 1 uses 101).
    structure : {"full", "pseudo-bloc", "bloc", "product"}
        The correlated coalition's strategy space (:func:`~guts.games.guts.coalition.solve_coalition`);
        ``"full"`` (every joint profile) is the correlated regime, ``"pseudo-bloc"`` the
        paper's restriction (the same value for N <= 4 at mesh 101).
    tol : float
        Fixed-point tolerance.
    max_iterations : int
        Column-generation rounds of the communication regime (at most
        :data:`~guts.engine.tolerances.MAX_ITERATIONS`).
    max_updates : int
        Member updates of the independent search, per start.
    random_starts : int
        Extra random starts of the independent search (Dirichlet mixtures, ``random_state``).
    random_state : int or numpy.random.Generator
        Seed of the random starts.

    Returns
    -------
    RegimeResult
        ``coalition_lower``, ``coalition_upper``: the certified bracket of the coalition's
        max-min value (communication and correlated: width ~1e-11; independent: the found
        product profile's certified value and the correlated upper end).
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1, MAX_SIZE)
    regime = check_choice("regime", regime, REGIMES)
    if isinstance(mesh, bool) or not isinstance(mesh, (int, np.integer)):
        raise GutsInputError(f"mesh {mesh!r}; accepted: a number of uniform mesh points (an integer >= 2)")
    mesh = check_int("mesh", mesh, 2)
    tol = check_positive_float("tol", tol, maximum=MAX_FIXED_POINT_TOL)
    max_iterations = check_int("max_iterations", max_iterations, 1, MAX_ITERATIONS)
    max_updates = check_int("max_updates", max_updates, 1, MAX_ITERATIONS)
    random_starts = check_int("random_starts", random_starts, 0, MAX_RANDOM_STARTS)
    rng = check_random_state("random_state", random_state)
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng.randint(2**31) if isinstance(rng, np.random.RandomState) else rng)
    if regime == "communication":
        return _solve_communication(size, mesh, tol, max_iterations, t0)
    cor = solve_coalition(size, mesh=mesh, structure=structure, solver="oracle", method="newton", tol=tol)
    if regime == "independent":
        return _solve_independent(size, mesh, tol, max_updates, random_starts, rng, t0, cor)
    return Solution.of(RegimeResult(
        size=size, mesh=cor.mesh, regime="correlated", player1_value=cor.player1_value,
        coalition_value=cor.coalition_value, lower=cor.lower, upper=cor.upper,
        certified_lower=cor.certified_lower, certified_upper=cor.certified_upper,
        player1_strategy=cor.player1_strategy, coalition_strategy=cor.coalition_strategy,
        converged=cor.converged, num_iter=cor.num_iter, seconds=time.perf_counter() - t0,
        method=f"solve_coalition(structure={structure!r}, solver='oracle')", correlated=cor,
    ))

