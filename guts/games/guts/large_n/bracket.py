"""Continuous best responses: a bracket of the pseudo-bloc game's value with thresholds in
[0, 1] from a mesh solution (see :mod:`guts.games.guts.large_n`).
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_int
from guts.engine.recursive import Certificate, certify
from guts.games.guts.pseudo_bloc import PseudoBlocStage, minimize_on_box, pseudo_bloc_alpha, pseudo_bloc_beta
from guts.games.guts.strategies import mesh
from guts.games.guts.large_n.mesh import threshold_mesh
from guts.games.guts.large_n.solve import LargeNResult


@dataclass(frozen=True)
class ValueBracket:
    """The coalition's value of the *continuous* pseudo-bloc game, bracketed by two certificates.

    Attributes
    ----------
    lower : float
        The mesh solution's coalition strategy, repeated, forces at least this against
        every player-1 threshold in [0, 1] (Theorem 1.2 with player 1's continuous
        best response).
    upper : float
        Player 1's mesh strategy, repeated, holds the coalition to at most this
        against every pseudo-bloc profile ``(free, bloc)`` in [0, 1]^2.
    player1_response : float
        Player 1's best threshold against the coalition's strategy.
    coalition_response : tuple of float
        The coalition's best profile ``(free, bloc)`` against player 1's strategy.
    lower_certificate, upper_certificate : Certificate
        The two Theorem 1.2 certificates (coalition side, player 1 side).

    Notes
    -----
    The best responses are found by a global search on a dense grid that follows
    the thresholds (:func:`threshold_mesh`, plus a uniform grid and the solve's
    mesh) followed by a zoom around the best grid points; payoffs are C^1 in every
    threshold, so the zoom converges to the local optimum.  The bracket is
    rigorous up to that search (no interval arithmetic).
    """

    lower: float
    upper: float
    player1_response: float
    coalition_response: tuple
    lower_certificate: Certificate = field(repr=False)
    upper_certificate: Certificate = field(repr=False)

    @property
    def width(self) -> float:
        """``upper - lower`` (nan if a certificate failed)."""
        return self.upper - self.lower


def _zoom_min(f, center, lo, hi, points: int = 21, iterations: int = 45):
    """Minimise ``f`` (vectorised over a list of coordinate arrays) near ``center`` in a box.

    Each step evaluates a ``points^d`` grid over the box, recentres on the best
    point and halves the box (still at least 5 grid steps each side of the best
    point, so a smooth local minimum is never lost); 45 halvings take a unit box
    to ~3e-14.
    """
    c = np.array(center, dtype=float)
    lo0, hi0 = np.array(lo, dtype=float), np.array(hi, dtype=float)
    half = np.maximum(np.maximum(c - lo0, hi0 - c), 1e-300)
    best_x, best_f = c, float(f(*[np.array([v]) for v in c])[0])
    for _ in range(iterations):
        axes = [np.clip(np.linspace(ci - h, ci + h, points), l, u) for ci, h, l, u in zip(c, half, lo0, hi0)]
        mesh = np.meshgrid(*axes, indexing="ij")
        vals = f(*[m.ravel() for m in mesh])
        k = int(np.argmin(vals))
        if vals[k] < best_f:
            best_f, best_x = float(vals[k]), np.array([m.ravel()[k] for m in mesh])
        c = best_x
        half = half / 2.0
    # snap to the box's edges (e.g. the free member's threshold 0) within rounding
    best_x = np.where(np.abs(best_x - lo0) < 1e-13, lo0, np.where(np.abs(best_x - hi0) < 1e-13, hi0, best_x))
    return best_x, float(f(*[np.array([v]) for v in best_x])[0])


def _polish(f, z0) -> np.ndarray:
    """Local minimum of ``f(a, b)`` (vectorised) on [0, 1]^2 from ``z0``; returns the end point."""
    def obj(z):
        v = float(f(np.array([z[0]]), np.array([z[1]]))[0])
        return v if np.isfinite(v) else 1e6

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        z, _ = minimize_on_box(obj, z0, ftol=1e-16, gtol=1e-14, maxiter=2000, eps=1e-10)
    return z


def _ratio(a, b):
    """Value a repeated strategy forces against one opponent pure strategy (Theorem 1.2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b < 1.0, a / (1.0 - b), np.inf)


def _candidates(vals: np.ndarray, count: int) -> np.ndarray:
    """Flat indices of the ``count`` smallest entries (ties broken by position)."""
    flat = vals.ravel()
    count = min(count, flat.size)
    idx = np.argpartition(flat, count - 1)[:count]
    return idx[np.argsort(flat[idx], kind="stable")]


def _search_grid(size: int, points: int, uniform: int, extra) -> np.ndarray:
    return np.unique(np.concatenate([threshold_mesh(size, points), mesh(uniform),
                                     np.asarray(extra, dtype=float).ravel()]))


def bracket_value(result: LargeNResult, search_points: int = 4001, search_points_2d: int = 401,
                  starts: int = 6) -> ValueBracket:
    """Bracket the continuous pseudo-bloc game's value with the mesh solution's strategies.

    The mesh game restricts both sides to the mesh.  Each side's mesh strategy is
    certified (Theorem 1.2) against the opponent's *continuous* pure strategies:
    player 1's thresholds in [0, 1] (a 1-D search) and the coalition's profiles
    ``(free, bloc)`` in [0, 1]^2 (a 2-D search).  The certified value against one
    opponent pure strategy ``j`` is ``a_j / (1 - b_j)`` (``a = x A``, ``b = x B``), so
    each search minimises that ratio.

    Parameters
    ----------
    result : LargeNResult
        A mesh solution (:func:`solve_pseudo_bloc`).
    search_points, search_points_2d : int
        Scaled-mesh points of the 1-D and 2-D search grids (plus 1001 / 101 uniform
        points; the 1-D grid also contains the solve's mesh).
    starts : int
        Best grid points refined by the zoom.

    Returns
    -------
    ValueBracket
    """
    N = result.size
    search_points = check_int("search_points", search_points, 3)
    search_points_2d = check_int("search_points_2d", search_points_2d, 3)
    prof = np.array(list(result.coalition_strategy.keys()), dtype=float)
    w = np.array(list(result.coalition_strategy.values()), dtype=float)
    w = w / w.sum()
    qs = np.array(list(result.player1_strategy.keys()), dtype=float)
    x = np.array(list(result.player1_strategy.values()), dtype=float)
    x = x / x.sum()

    # Player 1's best threshold against the coalition's strategy w (coalition pays -α).
    def coal_ratio(q):
        q = np.asarray(q, dtype=float)[:, None]
        a = -(pseudo_bloc_alpha(q, prof[:, 0], prof[:, 1], N) @ w)
        b = pseudo_bloc_beta(q, prof[:, 0], prof[:, 1], N) @ w
        return _ratio(a, b)

    dense = _search_grid(N, search_points, 1001, result.grid)
    vals = coal_ratio(dense)
    polished = []
    for k in _candidates(vals, starts):
        lo_, hi_ = dense[max(k - 1, 0)], dense[min(k + 1, dense.size - 1)]
        xq, _ = _zoom_min(coal_ratio, [dense[k]], [lo_], [hi_])
        polished.append(float(xq[0]))
    rows = np.union1d(dense, polished)
    col_grid = np.unique(prof)
    st_lo = PseudoBlocStage(N, rows, col_grid)
    y = np.zeros(st_lo.shape[1])
    ia, ib = np.searchsorted(col_grid, prof[:, 0]), np.searchsorted(col_grid, prof[:, 1])
    np.add.at(y, ia if N == 1 else ia * col_grid.size + ib, w)
    cert_lo = certify(st_lo.transpose(), strategy=y, v_start=-float(N))
    p1_best = polished[int(np.argmin(coal_ratio(np.array(polished))))]

    # The coalition's best profile (free, bloc) against player 1's strategy x.
    def p1_ratio(a, b):
        a = np.asarray(a, dtype=float)[:, None]
        b = np.asarray(b, dtype=float)[:, None]
        return _ratio(pseudo_bloc_alpha(qs, a, b, N) @ x, pseudo_bloc_beta(qs, a, b, N) @ x)

    G = _search_grid(N, search_points_2d, 101, [])
    A2, B2 = np.meshgrid(G, G, indexing="ij")
    vals2 = p1_ratio(A2.ravel(), B2.ravel()).reshape(A2.shape)
    best2, co_best = math.inf, (math.nan, math.nan)
    extra = []
    found = []
    for k in _candidates(vals2, starts):
        i, j = np.unravel_index(k, vals2.shape)
        box_lo = [G[max(i - 1, 0)], G[max(j - 1, 0)]]
        box_hi = [G[min(i + 1, G.size - 1)], G[min(j + 1, G.size - 1)]]
        found.append(_zoom_min(p1_ratio, [G[i], G[j]], box_lo, box_hi)[0])
    # Bloc profiles lie in a narrow valley along the diagonal a = b, where an axis-aligned
    # zoom can stall away from the minimum: search the diagonal on its own too, and
    # polish every candidate with a quasi-Newton method that follows valleys.
    diag = p1_ratio(G, G)
    for k in _candidates(diag, max(starts // 2, 1)):
        t, _ = _zoom_min(lambda u: p1_ratio(u, u), [G[k]], [G[max(k - 1, 0)]], [G[min(k + 1, G.size - 1)]])
        found.append(np.array([t[0], t[0]]))
    for z in found:
        for cand in (z, _polish(p1_ratio, z)):
            fz = float(p1_ratio(cand[:1], cand[1:])[0])
            extra.extend(cand.tolist())
            if fz < best2:
                best2, co_best = fz, (float(cand[0]), float(cand[1]))
    st_hi = PseudoBlocStage(N, qs, np.union1d(G, extra))
    xv = np.zeros(st_hi.shape[0])
    xv[np.searchsorted(st_hi.row_thresholds, qs)] = x
    cert_hi = certify(st_hi, strategy=xv, v_start=-1.0)
    return ValueBracket(
        lower=cert_lo.v_certified if cert_lo.valid else math.nan,
        upper=-cert_hi.v_certified if cert_hi.valid else math.nan,
        player1_response=p1_best, coalition_response=co_best,
        lower_certificate=cert_lo, upper_certificate=cert_hi,
    )
