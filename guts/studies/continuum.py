"""The continuum study: the 1 v. N pseudo-bloc game without a mesh, and mesh refinement toward it.

:func:`run_continuum_study` (``guts continuum``, ``experiments/continuum.py``) writes
``continuum.csv`` (N, continuum value, certified interval, strategies),
``mesh_refinement.csv`` (mesh value against the continuum value, and what the mesh
strategies force in the continuum) and ``mesh_refinement.png``, each with a
``.meta.json``, atomically.
"""
from __future__ import annotations

from guts.engine.tolerances import MAX_GAP_TOL

import math
import time

import numpy as np
import pandas as pd

from guts.games.guts.coalition import solve_coalition
from guts.games.guts.strategies import classify_components
from guts.games.guts.continuum import (BLOC_ATOL, certify_coalition, certify_player1, full_coalition_response,
                                       solve_continuum)
from guts._validate import GutsInputError, check_int, check_jobs, check_positive_float
from guts.games.guts.coalition import check_coalition_memory
from guts.studies.output import AUTO, plan_output, publish, save_figure, write_csv, write_meta
from guts.studies.sweep import check_backend, run_sweep

#: The full default run (``guts continuum``): the committed continuum.csv and mesh_refinement.csv.
DEFAULT_MESHES = (21, 51, 101, 201, 401, 801)
FULL_RUN = {"sizes": list(range(1, 16)), "meshes": list(DEFAULT_MESHES), "tol": 1e-10}


def continuum_row(size: int, tol: float = 1e-10) -> dict:
    """One row of ``results/continuum.csv``: value, strategies, certificate of the 1 v. N continuum game.

    Coalition components with ``|a - b| <= BLOC_ATOL`` are *bloc* (every member at
    ``b``), the others *pseudo-bloc* (player 2 at ``a``, the rest at ``b``).
    ``full_coalition_gain`` is how much an unrestricted coalition profile found by
    :func:`full_coalition_response` improves on the value against player 1's
    threshold (<= 0 up to rounding: none found; not a certificate).
    """
    r = solve_continuum(size, tol=tol)
    full_value, full_profile = full_coalition_response(size, r.player1_threshold, r.player1_value)
    comps = r.components()
    # for N = 1 the pair is (a, 0) with b meaningless: the one member is a bloc of one
    kinds = classify_components(comps, lambda ab: math.inf if size == 1 else BLOC_ATOL)
    bloc, pseudo = kinds["bloc"], kinds["pseudo-bloc"]
    nan = math.nan

    def fmt(ab):
        return f"{ab[0]:.10f}" if size == 1 else f"({ab[0]:.10f},{ab[1]:.10f})"

    return {
        "N": size,
        "value": r.coalition_value,
        "player1_value": r.player1_value,
        "certified_lower": r.certified_lower,
        "certified_upper": r.certified_upper,
        "certified_width": r.certified_width,
        "gap": r.gap,
        "error_estimate": r.error_estimate,
        "player1_threshold": r.player1_threshold,
        "bloc_threshold": (bloc[0][0][0] if size == 1 else bloc[0][0][1]) if bloc else nan,
        "bloc_weight": float(sum(w for _, w in bloc)),
        "pseudo_bloc_free": pseudo[0][0][0] if pseudo else nan,
        "pseudo_bloc_threshold": pseudo[0][0][1] if pseudo else nan,
        "pseudo_bloc_weight": float(sum(w for _, w in pseudo)),
        "coalition_support": " ".join(f"{fmt(ab)}:{w:.10f}" for ab, w in comps),
        "full_coalition_gain": r.player1_value - full_value,
        "full_coalition_profile": " ".join(f"{v:.6f}" for v in full_profile),
        "epsilon": r.certificate_lower.epsilon,
        "certified_rigorous": bool(r.certificate_lower.rigorous and r.certificate_upper.rigorous),
        "slope": r.slope,
        "num_iter": r.num_iter,
        "polished": r.polished,
        "converged": r.converged,
        "status": "certified" if r.converged else "not certified",
        "seconds": r.seconds,
    }


def refinement_row(size: int, mesh: int, continuum_value: float) -> dict:
    """One row of ``results/mesh_refinement.csv``: the mesh game against the continuum.

    Values are the coalition's (Table 1's "opponent value").  Besides the mesh value,
    both mesh strategies are certified *in the continuum* (Theorem 1.2 against every
    opponent threshold): ``coalition_forces`` is what the coalition's mesh strategy
    forces, ``player1_concedes`` what player 1's mesh strategy concedes at most.
    Whatever the mesh, ``coalition_forces <= continuum value <= player1_concedes``.
    """
    t0 = time.perf_counter()
    r = solve_coalition(size, mesh=mesh, solver="oracle", certify_result=False)
    x, y = r.player1.row_strategy, r.coalition.row_strategy
    I, J = x > 0, y > 0
    c1 = certify_player1(size, r.player1_grid[I], x[I], v_target=r.player1_value)
    c2 = certify_coalition(size, r.coalition_profiles[J], y[J], v_target=r.coalition_value)
    return {
        "N": size,
        "mesh": int(mesh),
        "value": r.coalition_value,
        "continuum_value": continuum_value,
        "diff": continuum_value - r.coalition_value,
        "coalition_forces": c2.v_certified if c2.valid else math.nan,
        "player1_concedes": -c1.v_certified if c1.valid else math.nan,
        # both fixed points stopped (the mesh solve runs without its own certificates, so its
        # ``converged`` is False; the continuum certificates above are this row's)
        "converged": bool(r.player1.converged and r.coalition.converged),
        "seconds": time.perf_counter() - t0,
    }


def _continuum_item(item):
    return continuum_row(*item)


def _refinement_item(item):
    return refinement_row(*item)


#: |diff| at or below this counts as exact (N = 1: every mesh containing 1/2 is exact).
EXACT_DIFF = 1e-12
#: The successive observed orders are called asymptotic when all are positive and their spread
#: (largest minus smallest) is at most this.
ASYMPTOTIC_SPREAD = 0.5


def successive_orders(meshes, diffs) -> np.ndarray:
    """Observed order between successive meshes: ``p = log(|d_M| / |d_M'|) / log(h_M / h_M')``,
    ``h = 1/(M - 1)``, for each consecutive pair ``M < M'`` (``nan`` where a |diff| is exact)."""
    m = np.asarray(meshes, dtype=float)
    d = np.abs(np.asarray(diffs, dtype=float))
    h = 1.0 / (m - 1.0)
    ok = (d[:-1] > EXACT_DIFF) & (d[1:] > EXACT_DIFF)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.log(d[:-1] / d[1:]) / np.log(h[:-1] / h[1:])
    return np.where(ok, p, np.nan)


def refinement_rates(ref: pd.DataFrame, min_mesh: int = 51) -> pd.DataFrame:
    """Per N: the fitted slope ``rate``, the successive observed ``orders`` and whether they are asymptotic.

    ``rate``: least-squares slope ``r`` of ``log|diff|`` against ``log h`` over the meshes
    ``M >= min_mesh`` (``|diff| ~ C h^r``).  ``orders``: :func:`successive_orders` over all
    meshes, as text (one per consecutive pair).  ``asymptotic``: the orders over
    ``M >= min_mesh`` are at least two, all positive and within :data:`ASYMPTOTIC_SPREAD` of
    each other (the error behaves as one power of h); when not, ``rate`` is a fit through
    scatter, not an order of convergence.  ``regime``: ``"exact"`` (every |diff| over
    ``M >= min_mesh`` at most :data:`EXACT_DIFF`: no order to observe), ``"asymptotic"``,
    ``"not asymptotic"`` or ``"too few meshes"`` (fewer than two orders over ``M >= min_mesh``).
    ``envelope``: ``max |diff| (M - 1)^2`` over the meshes used, the constant C of the bound
    ``|diff| <= C h^2``.
    """
    rows = []
    for N, g in ref.sort_values("mesh").groupby("N"):
        orders = successive_orders(g["mesh"], g["diff"])
        late = orders[g["mesh"].to_numpy()[:-1] >= min_mesh]
        g = g[g["mesh"] >= min_mesh]
        d = g["diff"].abs().to_numpy()
        h = 1.0 / (g["mesh"].to_numpy() - 1.0)
        ok = d > EXACT_DIFF
        if ok.sum() >= 2:
            r = float(np.polyfit(np.log(h[ok]), np.log(d[ok]), 1)[0])
        else:
            r = float("nan")
        fin = late[np.isfinite(late)]
        asymptotic = bool(fin.size >= 2 and np.all(fin > 0) and np.ptp(fin) <= ASYMPTOTIC_SPREAD)
        regime = ("exact" if np.all(d <= EXACT_DIFF) else "asymptotic" if asymptotic
                  else "too few meshes" if fin.size < 2 else "not asymptotic")
        rows.append({"N": int(N), "rate": r, "envelope": float(np.max(d / h**2)),
                     "orders": " ".join(f"{x:.2f}" for x in orders), "asymptotic": asymptotic, "regime": regime})
    return pd.DataFrame(rows)


def pooled_rate(ref: pd.DataFrame, min_mesh: int = 51) -> float:
    """One exponent ``r`` for all N: least squares of ``log|diff|`` on ``log h`` with a constant per N."""
    d = ref[(ref["mesh"] >= min_mesh) & (ref["diff"].abs() > 1e-12)].copy()
    d["lx"] = np.log(1.0 / (d["mesh"] - 1.0))
    d["ly"] = np.log(d["diff"].abs())
    dx = d["lx"] - d.groupby("N")["lx"].transform("mean")
    dy = d["ly"] - d.groupby("N")["ly"].transform("mean")
    return float((dx * dy).sum() / (dx * dx).sum()) if (dx * dx).sum() > 0 else float("nan")


#: The coalition sizes drawn in colour (with a legend) in the mesh-refinement figure; the
#: others are drawn as thin grey lines, so that every coloured line can be told apart.
HIGHLIGHT_SIZES = (2, 3, 5, 8, 15)


def plot_mesh_refinement(ref: pd.DataFrame, rates: pd.DataFrame):
    """The mesh-refinement figure: |continuum - mesh| and the certified bracket against M.

    ``ref`` is ``results/mesh_refinement.csv``; ``rates`` the per-N fitted rates (the
    ``envelope`` column gives the median constant C of the C h^2 guide line).
    """
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    Ns = sorted(ref["N"].unique())
    shown = [N for N in Ns if N in HIGHLIGHT_SIZES] or Ns[:len(HIGHLIGHT_SIZES)]
    colours = plt.get_cmap("tab10")
    markers = "osD^v<>"
    for N in Ns:
        g = ref[ref["N"] == N].sort_values("mesh")
        if (g["diff"].abs() <= 1e-12).all():
            continue
        if N in shown:
            k = shown.index(N)
            style = dict(color=colours(k), marker=markers[k % len(markers)], ms=4, lw=1.2, label=f"N = {N}")
        else:
            style = dict(color="0.75", lw=0.7, zorder=0)
        ax1.loglog(g["mesh"], g["diff"].abs(), **style)
        ax2.loglog(g["mesh"], g["player1_concedes"] - g["coalition_forces"], **style)
    ax1.plot([], [], color="0.75", lw=0.7, label="other N")
    M = np.array([ref["mesh"].min(), ref["mesh"].max()], dtype=float)
    ref_c = float(np.median(rates["envelope"])) if len(rates) else 1.0
    ax1.loglog(M, ref_c / (M - 1) ** 2, "k--", lw=1, label=f"{ref_c:.0f} h² (median C)")
    meshes = sorted(ref["mesh"].unique())
    for ax in (ax1, ax2):
        ax.set_xticks(meshes)
        ax.set_xticklabels([str(m) for m in meshes])
        ax.minorticks_off()
        ax.set_xlabel("mesh points M")
    ax1.set_ylabel("|continuum value − mesh value|")
    ax1.set_title("Mesh value → continuum value (coalition's)")
    ax1.legend(fontsize=8)
    ax2.set_ylabel("width")
    ax2.set_title("Mesh strategies in the continuum:\nplayer 1 concedes − coalition forces")
    fig.tight_layout()
    return fig


#: Largest coalition size of the continuum solver: N = 50 converges and certifies in about a
#: minute (0.8 GB); N = 100 fails inside SciPy's optimiser (measured 2026-11-23).
MAX_CONTINUUM_SIZE = 50


def run_continuum_study(sizes=range(1, 16), meshes=DEFAULT_MESHES, tol: float = 1e-10,
                        jobs: int = 1, out=AUTO, progress: bool = True, refinement: bool = True, echo=None,
                        backend: str | None = None, scheduler: str | None = None):
    """Solve the continuum game for every N and (optionally) the meshes; write the results.

    Two stages, ``continuum`` (continuum.csv) and ``mesh_refinement`` (mesh_refinement.csv
    and .png), published as one set when both are done (:func:`guts.studies.output.publish`:
    the refinement's differences are taken against this run's continuum values, so the two
    files never come from different runs).  Ctrl-C or an error in either stage publishes
    nothing and leaves the previous set as it was.  ``out``: see
    :func:`guts.studies.output.plan_output` (the full run, :data:`FULL_RUN`, writes
    ``results/``; any other run a fresh ``results/runs/continuum-<time>/``).

    Returns
    -------
    (continuum, refinement, rates) : pandas.DataFrame, DataFrame or None, DataFrame or None
    """
    sizes = [check_int("size", s, 1, MAX_CONTINUUM_SIZE) for s in sizes]
    if not sizes:
        raise GutsInputError("sizes must not be empty")
    meshes = [check_int("mesh", m, 2) for m in meshes]
    if any(m < 3 for m in meshes):  # before any work: see guts.games.guts.strategies.check_recursive_grid
        raise GutsInputError(f"mesh {min(meshes)} is too small for the recursive game (thresholds 0 and 1 only: "
                             f"nothing can be certified); accepted: meshes of at least 3 points")
    tol = check_positive_float("tol", tol, maximum=MAX_GAP_TOL)
    check_jobs(jobs)
    check_backend(backend, scheduler)
    if refinement and meshes:  # pre-flight: the largest mesh game must fit before the first stage runs
        check_coalition_memory(max(sizes), max(meshes), "pseudo-bloc", "oracle")
    run_params = {"sizes": sizes, "tol": tol, "meshes": meshes}
    full = dict(FULL_RUN)
    targets = ["continuum.csv"]
    if refinement:
        targets += ["mesh_refinement.csv", "mesh_refinement.png"]
    else:  # the meshes are not used: only the continuum table is decided by this run
        run_params.pop("meshes")
        full.pop("meshes")
    plan = plan_output("continuum", out, run_params, full, targets=targets, echo=echo)
    with publish(plan, parameters=run_params, echo=echo):
        return _run_stages(sizes, meshes, tol, dict(jobs=jobs, backend=backend, scheduler=scheduler), plan,
                           progress, refinement, echo, [])


def _run_stages(sizes, meshes, tol, sweep, plan, progress, refinement, echo, stages):
    out_dir = plan.folder
    t0 = time.perf_counter()
    cont = pd.DataFrame(run_sweep(_continuum_item, [(N, tol) for N in sizes], progress=progress,
                                  desc="continuum", **sweep))
    wall_c = time.perf_counter() - t0
    if echo is not None:
        echo(f"{'N':>3} {'continuum value':>17} {'certified interval (coalition)':>36} {'q*':>10} "
             f"{'bloc b':>10} {'pseudo (a,b)':>16} {'w_pseudo':>8} {'sec':>6}")
        for _, r in cont.iterrows():
            echo(f"{int(r.N):>3} {r.value:>17.12f} [{-r.certified_upper:>16.12f},{-r.certified_lower:>16.12f}] "
                 f"{r.player1_threshold:>10.7f} {r.bloc_threshold:>10.7f} "
                 f"({r.pseudo_bloc_free:.1f},{r.pseudo_bloc_threshold:>9.7f}) {r.pseudo_bloc_weight:>8.5f} {r.seconds:>6.2f}")
    if out_dir is not None:
        target = out_dir / "continuum.csv"
        write_csv(cont, target, float_format="%.15g")
        stages.append("continuum")
        write_meta(target, {"sizes": sizes, "tol": tol}, plan=plan, wall_seconds=wall_c, stages_finished=list(stages))
    ref = rates = None
    if refinement:
        cvalue = dict(zip(cont["N"], cont["value"]))
        items = [(N, M, float(cvalue[N])) for N in sizes for M in meshes]
        t1 = time.perf_counter()
        ref = pd.DataFrame(run_sweep(_refinement_item, items, progress=progress, desc="mesh refinement",
                                     **sweep))
        wall_r = time.perf_counter() - t1
        rates = refinement_rates(ref)
        pooled = pooled_rate(ref)
        if echo is not None:
            ms = sorted(set(int(m) for m in meshes))
            pairs = ", ".join(f"{a}->{b}" for a, b in zip(ms, ms[1:]))
            echo("mesh refinement: diff = continuum - mesh value, h = 1/(M-1). p: observed order between "
                 "successive meshes M -> M', log(|diff_M| / |diff_M'|) / log(h_M / h_M'), for M -> M' = "
                 f"{pairs}; r: least-squares slope of log|diff| on log h over M >= 51; C = max |diff| (M-1)^2")
            for _, r in rates.iterrows():
                echo(f"  N={int(r.N):>2}  p = {r.orders:<32} r = {r.rate:5.2f}  C = {r.envelope:8.2f}  "
                     + {"exact": "exact on these meshes", "asymptotic": "asymptotic (p settled)",
                        "not asymptotic": "not asymptotic: p scatters",
                        "too few meshes": "too few meshes (M >= 51) to tell the regime"}[r.regime])
            echo(f"  all N (one constant per N): r = {pooled:.2f}")
            if (rates["regime"] == "not asymptotic").any():
                echo("  Where p scatters the meshes are not in the asymptotic regime: |diff| is not monotone in M "
                     "(it depends on where the optimal thresholds fall between mesh points), so r is a fit "
                     "through scatter, not an order of convergence; what the data show is the bound "
                     "|diff| <= C h^2 on these meshes.")
        if out_dir is not None:
            target = out_dir / "mesh_refinement.csv"
            import matplotlib.pyplot as plt

            fig = plot_mesh_refinement(ref, rates)
            save_figure(fig, out_dir / "mesh_refinement.png", dpi=130)
            plt.close(fig)
            write_csv(ref, target, float_format="%.15g")
            stages.append("mesh_refinement")
            write_meta(target, {"sizes": sizes, "meshes": meshes, "tol": tol, "jobs": sweep["jobs"]},
                       plan=plan, wall_seconds=wall_r, rates=rates.to_dict(orient="records"), pooled_rate=pooled,
                       stages_finished=list(stages))
    return cont, ref, rates
