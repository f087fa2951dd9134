"""The 1 v. N pseudo-bloc recursive game without a mesh: :func:`solve_continuum`
(see :mod:`guts.games.guts.continuum`).
"""
from __future__ import annotations

from guts.games.guts.result import OneVsCoalition
from guts.engine.tolerances import MAX_GAP_TOL, MAX_ITERATIONS

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize

from guts._validate import check_int, check_positive_float, check_thresholds
from guts.engine.recursive import certificate_problem, fixed_point
from guts.engine.tolerances import SUPPORT_TOL
from guts.errors import ConvergenceWarning
from guts.games.guts.payoffs import alpha_matrix, beta_matrix
from guts.games.guts.pseudo_bloc import pseudo_bloc
from guts.games.guts.stage import GutsStage
from guts.games.guts.strategies import mesh
from guts.games.guts.continuum.best_response import coalition_best_response, player1_best_response
from guts.games.guts.continuum.certificates import ContinuumCertificate, certify_coalition, certify_player1
from guts.games.guts.continuum.equilibrium import _polish_equilibrium
from guts.games.guts.continuum.oracle import _double_oracle, _initial_sets
from guts.engine.result import Solution


@dataclass(frozen=True)
class ContinuumResult(OneVsCoalition):
    """The 1 v. N pseudo-bloc recursive game without a mesh.

    Attributes
    ----------
    size : int
        Coalition size N.
    player1_value : float
        Player 1's value from ``V_0 = -1``: the fixed point (:func:`guts.engine.recursive.fixed_point`)
        of a finite game holding the reported equilibrium (the mesh-21 game plus the
        polished support; else the double oracle's generated game).
    coalition_value : float
        The coalition's value from ``W_0 = -N`` on the same finite game (Table 1's
        "opponent value"; ``= -player1_value`` when the game has a value).
    gap : float
        At the reported strategies' fixed point V: player 1's exact best response to the
        coalition's strategy minus the coalition's best response (branch and bound,
        best value found; its rigorous bound is within 1e-11) to player 1's.  The
        continuum round value ``T(V)`` and ``V`` lie in an interval of this width.
    error_estimate : float
        ``gap / (1 - slope)``: distance of ``player1_value`` to the continuum fixed point
        (linearised; the certified interval is the rigorous statement).
    slope : float
        ``x^T B y`` at the fixed point (Danskin slope of T, < 1).
    player1_threshold : float
        Player 1's optimal threshold.  Player 1's payoff is concave in q, so the mean of
        the double oracle's mixture does at least as well against every profile (Jensen);
        it is the strategy certified below.
    player1_strategy : dict
        ``{player1_threshold: 1.0}``.
    coalition_strategy : dict
        ``{(a, b): probability}``: profile ``(a, b, ..., b)`` (``a`` = player 2's free
        threshold, ``b`` = the common one; ``b`` is 0 and meaningless for N = 1).
    certified_lower, certified_upper : float
        Rigorous bounds of player 1's continuum value (Theorem 1.2 against every
        opponent strategy; ``nan`` if a certificate failed).
    certificate_lower, certificate_upper : ContinuumCertificate
    converged : bool
        The double oracle met ``tol`` and both fixed points converged.
    polished : bool
        The double oracle's equilibrium was refined by :func:`_polish_equilibrium`
        (Newton on ``(q, V)`` with each support profile re-solved as a stationary
        point) and accepted because its continuum gap is smaller.  Strategies are then
        accurate to about 1e-12; otherwise only to about ``sqrt(tol)`` (the value is
        stationary in them).
    num_iter : int
        Double-oracle rounds.
    num_thresholds, num_profiles : int
        Sizes of the generated finite game.
    seconds : float
    """

    size: int
    player1_value: float
    coalition_value: float
    gap: float
    error_estimate: float
    slope: float
    player1_threshold: float
    player1_strategy: dict
    coalition_strategy: dict
    certified_lower: float
    certified_upper: float
    converged: bool
    polished: bool
    num_iter: int
    num_thresholds: int
    num_profiles: int
    seconds: float
    certificate_lower: ContinuumCertificate = field(repr=False)
    certificate_upper: ContinuumCertificate = field(repr=False)


    @property
    def method(self) -> str:
        """Continuum double oracle with Newton polishing (the :class:`~guts.engine.result.Result` protocol)."""
        return "continuum-oracle"

    def components(self):
        """Coalition support ``[((a, b), probability), ...]``, heaviest first."""
        return sorted(self.coalition_strategy.items(), key=lambda kv: -kv[1])


def solve_continuum(size: int, tol: float = 1e-10, init_mesh: int = 21, max_iterations: int = 200,
                    certify_result: bool = True) -> Solution:
    """Value and optimal strategies of the 1 v. N pseudo-bloc recursive game on [0, 1].

    Parameters
    ----------
    size : int
        Coalition size N >= 1.
    tol : float
        Stop the double oracle when the continuum best responses improve on the
        restricted fixed point by at most ``tol`` in total (``gap <= tol``); below
        about 1e-11 rounding dominates.
    init_mesh : int
        Mesh of the starting solution (its supports seed the generated sets).
    max_iterations : int
        Double-oracle rounds allowed; exceeding them warns (ConvergenceWarning).
    certify_result : bool
        Apply Theorem 1.2 in the continuum to both strategies (about a second).

    Returns
    -------
    ContinuumResult

    Notes
    -----
    See the module docstring.  Each round solves the finite recursive game on the
    generated sets by :func:`guts.engine.recursive.fixed_point` (Newton, from ``V_0 = -1``),
    then adds player 1's exact best response and the coalition's branch-and-bound
    best response at its fixed point.
    """
    t0 = time.perf_counter()
    size = check_int("size", size, 1)
    tol = check_positive_float("tol", tol, maximum=MAX_GAP_TOL)
    init_mesh = check_int("init_mesh", init_mesh, 2)
    max_rounds = check_int("max_iterations", max_iterations, 1, MAX_ITERATIONS)
    fp = dict(solver="lp", method="newton", tol=1e-13, check_above=False)

    def solve(stage):
        r = fixed_point(stage, v0=-1.0, cap=float(size), **fp)
        return r.value, r.value, r.row_strategy, r.col_strategy, r

    Q, pairs = _initial_sets(size, init_mesh)
    st = _double_oracle(size, Q, pairs, solve, tol, max_rounds, bb_tol=max(tol / 10, 1e-11))
    p1 = st.extra
    profiles = pseudo_bloc(size, st.pairs[:, 0], st.pairs[:, 1])
    stage = GutsStage(st.thresholds, profiles)
    co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **fp)
    gap = st.upper - st.lower
    converged = st.converged and p1.converged and co.converged
    if not converged:
        warnings.warn(f"continuum 1 v. {size}: double oracle stopped after {st.rounds} rounds with gap "
                      f"{gap:.3e} (tol {tol:.1e})", ConvergenceWarning, stacklevel=2)
    # Player 1's payoff is concave in q: the mean of the mixture does at least as well (Jensen).
    q_star = float(st.x @ st.thresholds)
    y = co.row_strategy
    J = np.flatnonzero(y > SUPPORT_TOL)
    V, pts, weights = p1.value, [tuple(map(float, st.pairs[j])) for j in J], y[J] / y[J].sum()
    slope = p1.slope
    polished = False
    pol = _polish_equilibrium(size, q_star, V, _distinct(pts, weights))
    if pol is not None:
        q2, V2, pts2, w2 = pol
        P2 = pseudo_bloc(size, [p[0] for p in pts2], [p[1] for p in pts2])
        upper2 = player1_best_response(P2, w2, V2)[1]
        lower2 = coalition_best_response(size, [q2], [1.0], V2, tol=1e-11).value
        if upper2 - lower2 <= gap:  # keep whichever equilibrium is more accurate in the continuum
            q_star, V, pts, weights, gap, polished = q2, V2, pts2, w2, upper2 - lower2, True
            slope = float(weights @ beta_matrix([q_star], P2)[0])
            # both sides' values again, from -1 and from -N, on a well-separated finite game
            # holding the polished support (an equilibrium of every game containing it):
            # the mesh-21 game plus the support
            grid = mesh(21)
            A0, B0 = np.meshgrid(grid, grid, indexing="ij")
            pairs_all = np.unique(np.vstack([np.column_stack([A0.ravel(), B0.ravel() if size > 1 else 0 * B0.ravel()]),
                                             np.array(pts2)]), axis=0)
            stage = GutsStage(np.union1d(grid, [q_star]), pseudo_bloc(size, pairs_all[:, 0], pairs_all[:, 1]))
            p1 = fixed_point(stage, v0=-1.0, cap=float(size), **fp)
            co = fixed_point(stage.transpose(), v0=-float(size), cap=1.0, **fp)
            converged = converged and p1.converged and co.converged
    profiles_y = pseudo_bloc(size, [p[0] for p in pts], [p[1] for p in pts])
    if certify_result:
        cert_lo = certify_player1(size, [q_star], [1.0], v_target=V)
        cert_hi = certify_coalition(size, profiles_y, weights, v_target=-V)
    else:
        cert_lo = ContinuumCertificate("player1", False, -1.0, math.nan, math.nan, False, "not computed")
        cert_hi = ContinuumCertificate("coalition", False, -float(size), math.nan, math.nan, False, "not computed")
    c_lo = cert_lo.v_certified if cert_lo.valid else math.nan
    c_hi = -cert_hi.v_certified if cert_hi.valid else math.nan
    if converged and certify_result:
        # the value reported must lie in its own certified interval (not just the oracle's gap)
        problem = certificate_problem(p1.value, -co.value, c_lo, c_hi)
        if problem:
            converged = False
            warnings.warn(f"continuum 1 v. {size}: not certified: {problem}", ConvergenceWarning, stacklevel=2)
    return Solution.of(ContinuumResult(
        size=size, player1_value=p1.value, coalition_value=co.value, gap=gap,
        error_estimate=gap / (1.0 - slope) if slope < 1 else math.inf, slope=slope,
        player1_threshold=q_star, player1_strategy={q_star: 1.0},
        coalition_strategy={p: float(w) for p, w in zip(pts, weights)},
        certified_lower=c_lo, certified_upper=c_hi,
        converged=converged, polished=polished, num_iter=st.rounds, num_thresholds=st.thresholds.size,
        num_profiles=st.pairs.shape[0], seconds=time.perf_counter() - t0,
        certificate_lower=cert_lo, certificate_upper=cert_hi,
    ))


def _distinct(points, weights, atol=1e-3):
    """Support points with near-duplicates (within ``atol``) merged into the heavier one."""
    keep = []
    for k in np.argsort(-np.asarray(weights)):
        if all(max(abs(points[k][0] - p[0]), abs(points[k][1] - p[1])) > atol for p in keep):
            keep.append(points[k])
    return keep


def full_coalition_response(size: int, threshold: float, V: float, starts: int = 20, random_state=0):
    """Best response of an *unrestricted* coalition (independent thresholds) to a pure q.

    Minimises ``α(q; p_2..p_{N+1}) + V β`` over ``[0, 1]^N`` by L-BFGS-B from
    ``starts`` uniform random profiles plus the structured ones ``(0^k, t^(N-k))``.
    A multi-start *local* search: it can show that a non-pseudo-bloc profile does
    better, never prove that none does (no certificate).

    Parameters
    ----------
    size : int
    threshold : float
        Player 1's threshold q.
    V : float
    starts : int
        Random starting profiles.
    random_state : int or numpy.random.Generator

    Returns
    -------
    (value, profile)
        The smallest payoff found and its (sorted) profile.
    """
    size = check_int("size", size, 1)
    q = float(check_thresholds("threshold", threshold))
    starts = check_int("starts", starts, 0)
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)

    def fun(p):
        P = np.clip(p, 0.0, 1.0)[None, :]
        return float(alpha_matrix([q], P)[0, 0] + V * beta_matrix([q], P)[0, 0])

    x0 = [rng.uniform(size=size) for _ in range(starts)]
    for t in (0.5 * (1 + q), q, 0.5 * q):
        x0 += [np.r_[np.zeros(k), np.full(size - k, t)] for k in range(size)]
    best, arg = math.inf, None
    for s0 in x0:
        res = minimize(fun, s0, method="L-BFGS-B", bounds=[(0.0, 1.0)] * size)
        if res.fun < best:
            best, arg = float(res.fun), np.sort(np.clip(res.x, 0.0, 1.0))
    return best, arg
