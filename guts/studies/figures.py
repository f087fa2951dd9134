"""Figures 1 and 2 of the paper (§5) and the fictitious-play figure (§5.2).

Figures 1–2 plot, against player 1's threshold ``p_1*``, the total expected return
of players 2–3 in the 1 v. 2 game when they play their optimal (fixed-point)
strategy — a blend of a *bloc* component A and a *pseudo-bloc* component B
``(0, p_3)`` — and when they play each component alone.

"Total expected return" is taken at the fixed point of the recursive game: the
coalition's payoff in the stage game ``-A + B W`` (its immediate return plus the
stakes carried to the next round times the coalition's value ``W``),

    R(q) = Σ_j y_j [ -α_1(q, profile_j) + β(q, profile_j) · W ],

which is the coalition's total expected return when player 1 deviates to ``q`` for
one round and optimal play resumes afterwards.  For the optimal blend ``R(q) >= W``
for every ``q`` on player 1's mesh, with equality exactly at player 1's best
responses — which is what Figure 2 shows ("player 1's best response ... loses to
both").  (The stationary total ``a/(1 - b)`` of repeating both strategies forever is
not usable here: ``β > 1`` for small ``q`` against B, so the stakes grow without
bound.)

All plotting uses the Agg backend through the object-oriented API (no pyplot
state), so it runs headless.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from guts._validate import GutsInputError, check_thresholds
from guts.games.guts.strategies import BLOC_STEPS, classify_components, mesh_step
from guts.games.guts.coalition import CoalitionResult, format_profile
from guts.games.guts.payoffs import alpha_matrix, beta_matrix

__all__ = [
    "split_components",
    "coalition_returns",
    "best_responses",
    "plot_components",
    "plot_blend",
    "plot_fictitious_play",
]


def split_components(result: CoalitionResult):
    """Split the coalition's optimal strategy into bloc (A) and non-bloc (B) parts.

    A component ``(p_2, p_3, ..., p_3)`` is *bloc* when its free member is within
    1.5 mesh steps of the others (on a mesh the continuous bloc threshold is often
    straddled by two neighbouring points, e.g. ``(0.67, 0.68)`` at mesh 101), the
    rule of :func:`guts.studies.table1.table1_row`; every other component goes to B.

    Returns
    -------
    dict
        ``{"A": [(profile, weight), ...], "B": [...], "weight_A": float,
        "weight_B": float}`` with weights summing to 1 within each part list's
        total (``weight_A + weight_B == 1``).
    """
    if not isinstance(getattr(result, "details", None), CoalitionResult):
        raise GutsInputError("split_components needs a CoalitionResult from guts.solve_coalition")
    kinds = classify_components(result.coalition_components(), BLOC_STEPS * mesh_step(result.coalition_profiles))
    A, B = kinds["bloc"], kinds["pseudo-bloc"] + kinds["other"]
    wA = float(sum(w for _, w in A))
    wB = float(sum(w for _, w in B))
    return {"A": A, "B": B, "weight_A": wA, "weight_B": wB}


def _returns(q: np.ndarray, comps, W: float) -> np.ndarray:
    """Σ_j y_j (-α_1 + β W) over a (normalised) list of components."""
    if not comps:
        return np.full(q.size, math.nan)
    prof = np.array([p for p, _ in comps], dtype=float)
    w = np.array([x for _, x in comps], dtype=float)
    w = w / w.sum()
    return (-alpha_matrix(q, prof) + beta_matrix(q, prof) * W) @ w


def coalition_returns(result: CoalitionResult, thresholds=None) -> pd.DataFrame:
    """The curves of Figures 1–2: the coalition's total expected return per ``p_1*``.

    Parameters
    ----------
    result : CoalitionResult
        A solved 1 v. N game (the paper's figures: N = 2, mesh 101).
    thresholds : array_like, optional
        Player 1's thresholds to evaluate (default: 1001 points on [0, 1], which
        contain the mesh-101 points).

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold``, ``A`` (bloc component alone), ``B`` (non-bloc
        component alone), ``blend`` (the optimal strategy, ``w_A A + w_B B``) and
        ``on_mesh`` (the threshold is one of player 1's mesh points).
    """
    q = np.linspace(0.0, 1.0, 1001) if thresholds is None else check_thresholds("thresholds", thresholds).ravel()
    parts = split_components(result)
    W = float(result.coalition_value)
    a = _returns(q, parts["A"], W)
    b = _returns(q, parts["B"], W)
    blend = _returns(q, result.coalition_components(), W)
    grid = np.asarray(result.player1_grid)
    on_mesh = np.min(np.abs(q[:, None] - grid[None, :]), axis=1) <= 1e-9
    return pd.DataFrame({"threshold": q, "A": a, "B": b, "blend": blend, "on_mesh": on_mesh})


def best_responses(result: CoalitionResult, tol: float = 1e-9) -> np.ndarray:
    """Player 1's best responses on the mesh to the coalition's optimal blend.

    The thresholds of player 1's mesh minimising the coalition's return ``R(q)``
    (within ``tol``); at the fixed point their minimum is the coalition value ``W``.
    """
    grid = np.asarray(result.player1_grid)
    r = _returns(grid, result.coalition_components(), float(result.coalition_value))
    return grid[r <= r.min() + tol]


def _label(comps) -> str:
    return ", ".join(f"({format_profile(p).replace('/', ', ')}) {w:.2f}" for p, w in comps)


def plot_components(data: pd.DataFrame, result: CoalitionResult, best=None) -> Figure:
    """Figure 1: total expected return of players 2–3 vs ``p_1*`` for components A and B."""
    parts = split_components(result)
    best = best_responses(result) if best is None else np.asarray(best)
    fig = Figure(figsize=(7, 4.5), dpi=120)
    ax = fig.add_subplot()
    ax.plot(data.threshold, data.A, label=f"A, bloc: {_label(parts['A'])}", color="tab:blue")
    ax.plot(data.threshold, data.B, label=f"B, pseudo-bloc: {_label(parts['B'])}", color="tab:orange")
    _mark(ax, best, result)
    ax.set_xlabel(r"player 1 threshold $p_1^*$")
    ax.set_ylabel("total expected return of players 2–3")
    ax.set_title(f"Figure 1: components A and B (1 v. {result.size}, mesh {result.mesh})")
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def plot_blend(data: pd.DataFrame, result: CoalitionResult, best=None) -> Figure:
    """Figure 2: the same for the optimal blend ``w_A A + w_B B``; it never drops below ``W``."""
    parts = split_components(result)
    best = best_responses(result) if best is None else np.asarray(best)
    fig = Figure(figsize=(7, 4.5), dpi=120)
    ax = fig.add_subplot()
    ax.plot(data.threshold, data.blend, color="tab:green",
            label=f"blend {parts['weight_A']:.3f} A + {parts['weight_B']:.3f} B")
    _mark(ax, best, result)
    ax.set_xlabel(r"player 1 threshold $p_1^*$")
    ax.set_ylabel("total expected return of players 2–3")
    ax.set_title(f"Figure 2: blended strategy A/B (1 v. {result.size}, mesh {result.mesh})")
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    # zoom on the minimum: the blend touches W exactly at player 1's best responses
    centre = float(np.mean(best))
    near = (data.threshold >= centre - 0.06) & (data.threshold <= centre + 0.06)
    ins = ax.inset_axes([0.07, 0.3, 0.42, 0.45], zorder=5)
    ins.plot(data.threshold[near], data.blend[near], color="tab:green")
    mesh_pts = data[near & data.on_mesh]
    ins.plot(mesh_pts.threshold, mesh_pts.blend, ".", color="tab:green", ms=3)
    ins.axhline(float(result.coalition_value), color="grey", lw=0.8, ls=":")
    for b in best:
        ins.axvline(b, color="tab:red", lw=0.9, ls="--")
    lo = float(result.coalition_value)
    top = float(data.blend[near].max())
    ins.set_ylim(lo - 0.1 * (top - lo), top)
    ins.tick_params(labelsize=6)
    ins.set_title("near the minimum (dots: mesh)", fontsize=7)
    fig.tight_layout()
    return fig


def _mark(ax, best, result):
    W = float(result.coalition_value)
    ax.axhline(W, color="grey", lw=0.8, ls=":", label=f"coalition value W = {W:.5f}")
    for k, b in enumerate(best):
        ax.axvline(b, color="tab:red", lw=0.9, ls="--",
                   label=("player 1 best response " + ", ".join(f"{x:g}" for x in best)) if k == 0 else None)


def plot_fictitious_play(runs: dict, target: float | None = None) -> Figure:
    """Duality gap (B.4) and strategies over fictitious-play iterations (§5.2).

    Parameters
    ----------
    runs : dict
        ``{label: FictitiousPlayResult}`` (e.g. independent and pooled players).
    target : float, optional
        The symmetric equilibrium to mark (default ``2^{-1/(n-1)}``).
    """
    from guts.games.guts.payoffs import symmetric_equilibrium

    if not runs:
        raise GutsInputError("plot_fictitious_play needs at least one run")
    fig = Figure(figsize=(12, 4), dpi=110)
    ax_gap, ax_mean, ax_mix = fig.subplots(1, 3)
    styles = ["-", "--", ":", "-."]
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown"]
    for k, (label, r) in enumerate(runs.items()):
        it = np.arange(r.gap.size)
        ls = styles[k % len(styles)]
        ax_gap.loglog(it[1:], r.gap[1:], ls, color=colors[k % len(colors)], label=f"{label}: gap (B.4)")
        if not np.allclose(r.pool_gap, r.gap):
            ax_gap.loglog(it[1:], r.pool_gap[1:], ls, color=colors[k % len(colors)], alpha=0.5,
                          label=f"{label}: pooled-payoff regret")
        for i in range(r.players):
            ax_mean.semilogx(it[1:], r.mean_thresholds[1:, i], ls, color=colors[i % len(colors)],
                             label=f"{label}: player {i + 1}")
            ax_mix.plot(r.grid, r.mixtures[i], ls, color=colors[i % len(colors)], drawstyle="steps-mid",
                        label=f"{label}: player {i + 1}")
        t = symmetric_equilibrium(r.players) if target is None else float(target)
    ax_mean.axhline(t, color="grey", lw=0.8, ls=":", label=f"symmetric equilibrium {t:.4f}")
    ax_mix.axvline(t, color="grey", lw=0.8, ls=":")
    ax_gap.set_xlabel("iteration")
    ax_gap.set_ylabel("duality gap")
    ax_gap.set_title("n-player duality gap (B.4)")
    ax_mean.set_xlabel("iteration")
    ax_mean.set_ylabel("mean threshold of empirical mixture")
    ax_mean.set_title("strategies over iterations")
    ax_mix.set_xlabel("threshold")
    ax_mix.set_ylabel("empirical probability")
    ax_mix.set_title("final empirical mixtures")
    ax_mix.set_xlim(max(0.0, t - 0.15), min(1.0, t + 0.15))
    for ax in (ax_gap, ax_mean, ax_mix):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    return fig
