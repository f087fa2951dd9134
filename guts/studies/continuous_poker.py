"""Continuous poker artefacts (Spears 2025) under ``results/continuous_poker/``.

* ``figure1_strategies.png`` (+ ``.csv``): bet function x -> s and call function s -> c(s)
  for (L, U) from lenient (0, 10) to restricted (0.5, 1) (the paper's Figure 1);
* ``figure2_von_neumann_payoff.png``, ``figure3_newman_payoff.png``: the bettor's payoff
  over the (x, y) square at equilibrium (the paper's Figures 2-3);
* ``figure4_limit_value.png`` (+ ``limit_value.csv``): the value of limit poker over
  (L, U) -- new: the paper does not compute it;
* ``lp_convergence.csv`` / ``.png``: the discretised game (M hands, K sizes) solved by
  the engine's sequence-form LP against the closed-form value, with fitted rates.

Every file gets a ``.meta.json`` beside it (:mod:`guts.studies.output`); writes are atomic.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from guts.errors import SolverError
from guts.games.continuous_poker import limit_poker, limit_value, newman, von_neumann
from guts.studies.output import AUTO, ensure_output_dir, plan_output, publish, save_figure, write_csv, write_meta

__all__ = ["FIGURE1_LIMITS", "write_figures", "run_lp_convergence", "fit_rates", "DEFAULT_OUT"]

DEFAULT_OUT = "results/continuous_poker"
#: (L, U) of Figure 1, lenient to restricted (the paper's endpoints (0, 10) and (0.5, 1))
FIGURE1_LIMITS = ((0.0, 10.0), (0.0, 2.0), (0.25, 1.5), (0.5, 1.0))
#: LP convergence defaults: (L, U) pairs, meshes M and size counts K
LP_LIMITS = ((0.5, 1.0), (0.25, 2.0), (1.0, 1.0))
LP_MESHES = (20, 40, 80, 160, 320, 640, 1280, 2000)
LP_SIZES = (3, 5, 9, 17, 33)
#: largest M * M * K solved in the default study (the certificate's game grows like M^2 K); to
#: 2 000 hands per player since the caller's prefix-sum LP (``discrete._caller_lp``), in about
#: the time the study took to 320 hands before
LP_MAX_WORK = 2000 * 2000 * 3
#: The full LP-convergence run (the committed results/continuous_poker/lp_convergence.csv).
LP_FULL_RUN = {"limits": [list(x) for x in LP_LIMITS], "meshes": list(LP_MESHES), "sizes": list(LP_SIZES),
               "max_work": LP_MAX_WORK}


def _strategy_curves(L, U, n=801):
    g = limit_poker(L, U)
    x = np.linspace(0.0, 1.0, n)
    s = np.linspace(L, U, n)
    return g, x, g.bet_size(x), s, g.c(s)


def figure1(limits=FIGURE1_LIMITS):
    """Spears Figure 1: bet and call functions, one panel per (L, U). Returns (fig, DataFrame)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(limits), figsize=(3.6 * len(limits), 3.6))
    rows = []
    for ax, (L, U) in zip(np.atleast_1d(axes), limits):
        g, x, bx, s, cs = _strategy_curves(L, U)
        ax.fill_betweenx(s, cs, 1.0, color="tab:orange", alpha=0.18, lw=0, label="caller calls")
        ax.plot(cs, s, color="tab:orange", lw=1.5, label="call threshold c(s)")
        # the bet function is discontinuous at x2 and x3 (check region): plot piecewise
        bet = np.where(bx > 0, bx, np.nan)
        ax.plot(x, bet, color="tab:blue", lw=1.8, label="bet size S(x)")
        ax.plot(x, np.where(bx > 0, np.nan, 0.0), color="tab:blue", lw=1.8, ls=":")
        ax.set_title(f"L = {L:g}, U = {U:g}   V = {g.value:.5f}", fontsize=9)
        ax.set_xlabel("hand strength")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, U * 1.05)
        rows += [{"L": L, "U": U, "kind": "bet", "hand": a, "size": b} for a, b in zip(x, bx)]
        rows += [{"L": L, "U": U, "kind": "call", "hand": a, "size": b} for a, b in zip(cs, s)]
    np.atleast_1d(axes)[0].set_ylabel("bet size (fraction of the pot)")
    np.atleast_1d(axes)[0].legend(fontsize=7, loc="upper center")
    fig.suptitle("Limit continuous poker: bettor's bet function and caller's call function", fontsize=10)
    fig.tight_layout()
    return fig, pd.DataFrame(rows)


def payoff_square(game, n=601):
    """Bettor's equilibrium payoff on an n x n grid of cell midpoints (x columns, y rows)."""
    t = (np.arange(n) + 0.5) / n
    X, Y = np.meshgrid(t, t)
    return t, game.payoff(X, Y)


def figure_payoff(game, title):
    """Spears Figures 2-3: the payoff over the (x, y) square; its mean is the value."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    t, P = payoff_square(game)
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    lim = float(min(np.nanmax(np.abs(P)), 3.0))
    im = ax.imshow(np.clip(P, -lim, lim), origin="lower", extent=(0, 1, 0, 1), cmap="RdBu",
                   norm=TwoSlopeNorm(0.0, -lim, lim), interpolation="nearest")
    fig.colorbar(im, ax=ax, label="bettor's payoff (pot 1)" + (" (clipped at ±3)" if lim == 3.0 else ""))
    ax.set_xlabel("bettor's hand x")
    ax.set_ylabel("caller's hand y")
    ax.set_title(f"{title}\nvalue {game.value:.6f}; grid mean {np.mean(P):.6f}", fontsize=9)
    fig.tight_layout()
    return fig, float(np.mean(P))


def value_map(n=121, l_max=3.0, u_max=6.0):
    """V(L, U) on a grid (L <= U, U > 0), as a long DataFrame."""
    Ls = np.linspace(0.0, l_max, n)
    Us = np.linspace(0.0, u_max, n)[1:]
    LL, UU = np.meshgrid(Ls, Us)
    ok = LL <= UU + 1e-12
    V = np.full(LL.shape, np.nan)
    V[ok] = limit_value(LL[ok], UU[ok])
    return pd.DataFrame({"L": LL.ravel(), "U": UU.ravel(), "value": V.ravel()}).dropna()


def figure4(df):
    """The value of limit poker over (L, U), and slices (von Neumann diagonal, L = 0)."""
    import matplotlib.pyplot as plt

    piv = df.pivot(index="U", columns="L", values="value")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10.5, 4.2))
    cs = ax1.contourf(piv.columns, piv.index, piv.values * 14, levels=np.linspace(0.0, 1.0, 21), cmap="viridis")
    ax1.contour(piv.columns, piv.index, piv.values * 14, levels=[0.5, 0.7, 0.8, 0.9, 0.95, 0.99], colors="w",
                linewidths=0.6)
    fig.colorbar(cs, ax=ax1, label="V(L, U) / (1/14)  (Newman's value = 1)")
    ax1.plot([0, piv.columns.max()], [0, piv.columns.max()], "k--", lw=0.8)
    ax1.set_xlabel("minimum bet L")
    ax1.set_ylabel("maximum bet U")
    ax1.set_title("Value of limit continuous poker (pot 1)", fontsize=9)
    B = np.linspace(1e-3, 10, 500)
    ax2.plot(B, [von_neumann(b).value for b in B], label="L = U = B (von Neumann)")
    ax2.plot(B, limit_value(0.0 * B, B), label="L = 0, U = B")
    ax2.plot(B, limit_value(B / 2, B), label="L = U/2, U = B")
    Bh = B[B >= 0.5]
    ax2.plot(Bh, limit_value(0.5 + 0.0 * Bh, Bh), label="L = 0.5, U = B")
    ax2.axhline(newman().value, color="k", ls="--", lw=0.8, label="Newman 1/14")
    ax2.set_xlabel("B")
    ax2.set_ylabel("value")
    ax2.legend(fontsize=7)
    ax2.set_title("Slices", fontsize=9)
    fig.tight_layout()
    return fig


def write_figures(out=DEFAULT_OUT, echo=None):
    """Write Figures 1-4 (PNG), their data (CSV) and ``.meta.json`` files into ``out``."""
    import matplotlib.pyplot as plt

    out = ensure_output_dir(out)
    written = []
    with publish(out, "figures"):
        fig, df = figure1()
        written.append(save_figure(fig, out / "figure1_strategies.png", dpi=110))
        plt.close(fig)
        write_csv(df.iloc[::4], out / "figure1_strategies.csv", float_format="%.10g")
        write_meta(out / "figure1_strategies.csv", {"limits": FIGURE1_LIMITS, "points": "every 4th of 801"})
        write_meta(out / "figure1_strategies.png", {"limits": FIGURE1_LIMITS})  # under "also" of the CSV's
        for name, game, title in (("figure2_von_neumann_payoff.png", von_neumann(1.0), "von Neumann poker, B = 1"),
                                  ("figure3_newman_payoff.png", newman(), "Newman (no-limit) poker")):
            fig, mean = figure_payoff(game, title)
            written.append(save_figure(fig, out / name, dpi=110))
            plt.close(fig)
            write_meta(out / name, {"game": title, "grid": 601}, value=game.value, grid_mean=mean)
        df = value_map()
        write_csv(df, out / "limit_value.csv", float_format="%.12g")
        write_meta(out / "limit_value.csv", {"L": "0..3 (121 points)", "U": "0.05..6 (120 points)", "L <= U": True,
                                             "formula": "A5/(2 A4)"})
        fig = figure4(df)
        written.append(save_figure(fig, out / "figure4_limit_value.png", dpi=110))
        plt.close(fig)
        write_meta(out / "figure4_limit_value.png", {"source": "limit_value.csv"})
    if echo:
        for p in written:
            echo(f"wrote {p}")
    return written


#: Largest mesh (or size count) the fitted model is asked for; beyond it (a fitted rate near 0,
#: e.g. on meshes where the LP is already exact) the model's answer is "none": -1.
MODEL_NEED_MAX = 10**9


def _model_need(log_a: float, rate: float, target: float, offset: int = 0) -> int:
    """Smallest integer ``n`` with ``a (n - offset)^-rate <= target``, computed on logarithms
    (no overflow); -1 when the fitted rate is not positive or ``n`` exceeds MODEL_NEED_MAX."""
    if not (np.isfinite(log_a) and np.isfinite(rate) and rate > 0):
        return -1
    log_n = (log_a - np.log(target)) / rate
    if log_n > np.log(MODEL_NEED_MAX):
        return -1
    return int(np.ceil(offset + np.exp(log_n)))


def fit_rates(df: pd.DataFrame, target: float = 1e-4) -> pd.DataFrame:
    """Fit |error| ~ a M^-p + b (K - 1)^-q per (L, U) (least squares on the logarithm).

    Also: the cheapest measured (M, K) (smallest M^2 K) with |error| <= ``target``, and the
    model's: the smallest M with a M^-p <= target/2 and K with b (K - 1)^-q <= target/2.
    For L = U (one size) only the M term is fitted.
    """
    from scipy.optimize import least_squares

    rows = []
    for (L, U), g in df.groupby(["L", "U"]):
        M = g["M"].to_numpy(float)
        K = g["K"].to_numpy(float)
        y = np.log(g["error"].abs().to_numpy())
        one_size = bool(np.all(K == 1))
        if one_size:
            def model(th):
                return th[0] - th[1] * np.log(M)
            th0 = [0.0, 2.0]
        else:
            def model(th):
                return np.logaddexp(th[0] - th[1] * np.log(M), th[2] - th[3] * np.log(K - 1.0))
            th0 = [0.0, 2.0, 0.0, 2.0]
        fit = least_squares(lambda th: model(th) - y, th0)
        th = fit.x
        a, p = float(np.exp(th[0])), float(th[1])
        b, q = (float(np.exp(th[2])), float(th[3])) if not one_size else (0.0, float("nan"))
        m_need = _model_need(th[0], p, target / (1 if one_size else 2))
        k_need = 1 if one_size else _model_need(th[2], q, target / 2, offset=1)
        ok = g[g["error"].abs() <= target]
        best = ok.sort_values("work").iloc[0] if len(ok) else None
        rows.append({"L": L, "U": U, "a": a, "rate_M": p, "b": b, "rate_K": q,
                     "rms_log_residual": float(np.sqrt(np.mean(fit.fun ** 2))),
                     "model_M_for_target": m_need, "model_K_for_target": k_need,
                     "measured_M_for_target": int(best["M"]) if best is not None else -1,
                     "measured_K_for_target": int(best["K"]) if best is not None else -1,
                     "target": target})
    return pd.DataFrame(rows)


def lp_point(item) -> dict:
    """One row of :func:`run_lp_convergence`: the discretised LP at ``item = (L, U, M, K)``.

    Module-level so that a sweep can pickle it (and cache its rows).
    """
    from guts.games.continuous_poker.discrete import solve_discretised

    L, U, M, K = item
    r = solve_discretised(L, U, M, K)
    if not r.converged:
        raise SolverError(f"LP certificate failed at L={L}, U={U}, M={M}, K={K}")  # pragma: no cover
    return {"L": L, "U": U, "M": M, "K": r.sizes, "work": M * M * r.sizes, "lp_value": r.value,
            "closed_form_value": r.closed_form_value, "error": r.error,
            "exploitability": r.exploitability, "seconds": r.seconds}


def run_lp_convergence(limits=LP_LIMITS, meshes=LP_MESHES, sizes=LP_SIZES, max_work=LP_MAX_WORK,
                       out=AUTO, echo=None, progress=True, jobs: int = 1, backend: str | None = None,
                       scheduler: str | None = None, cache=None):
    """Solve the discretised game on a grid of (M, K) for each (L, U) and write the table.

    Returns ``(table, rates)``.  Pairs with M^2 K > ``max_work`` are skipped (LP size).
    ``jobs``, ``backend``, ``scheduler``, ``cache``: see :func:`guts.studies.sweep.run_sweep`
    (rows in grid order whatever the backend; ``cache="default"`` is ``results/.cache``, or
    ``<out>/.cache``).
    """
    from guts.studies.sweep import check_backend, default_cache, run_sweep

    check_backend(backend, scheduler)
    params = {"limits": [list(x) for x in limits], "meshes": list(meshes), "sizes": list(sizes), "max_work": max_work}
    plan = None
    if out is AUTO or out == DEFAULT_OUT:  # the committed folder: only the full run writes there
        plan = plan_output("continuous_poker", AUTO, params, LP_FULL_RUN, targets=[], echo=echo)
        out = ensure_output_dir(plan.folder / "continuous_poker") if plan.full else plan.folder
    elif out is not None:
        plan = plan_output("continuous_poker", out, params, LP_FULL_RUN,
                           targets=["lp_convergence.csv", "lp_rates.csv", "lp_convergence.png"])
        out = plan.folder
    cache = default_cache(cache, (Path("results") if out is None else Path(out)) / ".cache")
    items = [(L, U, M, K) for (L, U) in limits for M in meshes for K in (sizes if L < U else (1,))
             if M * M * K <= max_work]
    t0 = time.perf_counter()
    rows = run_sweep(lp_point, items, jobs=jobs, progress=progress, desc="discretised LPs", backend=backend,
                     scheduler=scheduler, cache=cache)
    if echo:
        for r in rows:
            echo(f"L={r['L']:g} U={r['U']:g} M={r['M']:4d} K={r['K']:3d}  LP {r['lp_value']:.10f}  "
                 f"closed {r['closed_form_value']:.10f}  error {r['error']:+.3e}  "
                 f"expl {r['exploitability']:.1e}  {r['seconds']:6.2f}s")
    df = pd.DataFrame(rows)
    rates = fit_rates(df)
    if out is not None:
        with publish(out, "lp_convergence", parameters=params, **(plan.meta() if plan is not None else {})):
            target = out / "lp_convergence.csv"
            write_csv(df, target, float_format="%.15g")
            write_meta(target, {"limits": limits, "meshes": meshes, "sizes": sizes, "max_work": max_work}, plan=plan,
                       wall_seconds=time.perf_counter() - t0, rates=rates.to_dict(orient="records"))
            write_csv(rates, out / "lp_rates.csv", float_format="%.6g")
            write_meta(out / "lp_rates.csv", {"source": "lp_convergence.csv",
                                              "fit": "|error| ~ a M^-rate_M + b (K-1)^-rate_K, least squares in log"})
            import matplotlib.pyplot as plt

            fig = figure_convergence(df)
            save_figure(fig, out / "lp_convergence.png", dpi=110)
            plt.close(fig)
            write_meta(out / "lp_convergence.png", {"source": "lp_convergence.csv"})
    return df, rates   # also with out=None (it returned None then)


def figure_convergence(df):
    """|LP value - closed-form value| against M (one line per K), one panel per (L, U)."""
    import matplotlib.pyplot as plt

    groups = list(df.groupby(["L", "U"]))
    fig, axes = plt.subplots(1, len(groups), figsize=(5.2 * len(groups), 4.0), squeeze=False)
    for ax, ((L, U), g) in zip(axes[0], groups):
        for K, gk in g.groupby("K"):
            gk = gk.sort_values("M")
            ax.loglog(gk["M"], gk["error"].abs(), "o-", ms=3, lw=1, label=f"K = {K}")
        M = np.array([g["M"].min(), g["M"].max()], float)
        ax.loglog(M, 1.0 / M**2 * float(np.median(g["error"].abs() * g["M"] ** 2)), "k--", lw=0.8, label="~ M^-2")
        ax.axhline(1e-4, color="grey", lw=0.6, ls=":")
        meshes = sorted(g["M"].unique())
        ax.set_xticks(meshes)
        ax.set_xticklabels([str(m) for m in meshes])
        ax.minorticks_off()
        ax.set_xlabel("hands M")
        ax.set_ylabel("|LP value - closed-form value|")
        ax.set_title(f"L = {L:g}, U = {U:g}", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


