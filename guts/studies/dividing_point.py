"""Hundal and Reitzen, US patent 6,129,631 reproduced: the four games for P = 1..10, the mesh refinement
against the engine's LP, the order read from the LP, and the printed equations checked.

Writes, under ``<out>/dividing_point/`` (each with a ``.meta.json``):

* ``sweep.csv``      -- game, pot, every dividing point, value (exact and float), continuum
  certificate, and the LP value of the mesh game at ``lp_mesh`` with the difference;
* ``intervals.csv``  -- the strategies on the hand axis (player, component, lo, hi, plan);
* ``refinement.csv``, ``refinement_rates.csv``, ``mesh_refinement.png`` -- |LP value(M) -
  dividing-point value| over M, and the fitted rate per game;
* ``ordering.csv``   -- the order read from the LP at several meshes: certified?, the
  patent's order recovered (same E1 up to renaming)?, the repairs and moves applied;
* ``verdicts.csv``   -- game c for P = 0.1..100 (the patent's order where it holds, else the
  order read from the LP, certified) and the extended games read at every mesh 80..400;
* ``printed_equations.csv`` -- each printed equation against the derivation;
* ``strategies.png`` -- the strategies on the hand axis for P = 1..10.
"""
from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd

from guts.games.dividing_point import GAME_NAMES, patent_layout, patent_rules, solve_patent_game
from guts.games.dividing_point.discrete import solve_mesh
from guts.games.dividing_point.infer import READ_FORMULATION, infer_and_solve, same_polynomial
from guts.games.dividing_point.printed import compare_all
from functools import partial

from guts.studies.output import AUTO, ensure_output_dir, plan_output, publish, save_figure, write_csv
from guts.studies.output import write_meta as _write_meta
from guts.studies.sweep import check_backend, run_sweep

__all__ = ["sweep", "refinement", "fit_rates", "ordering", "verdicts", "printed_table", "plot_strategies", "plot_refinement",
           "run"]

SUBDIR = "dividing_point"

#: Meshes of the refinement study (P = 3).  To 2 000 hands per player since the prefix-sum
#: mesh LP (:mod:`guts.games.dividing_point.mesh_lp`): the whole study then takes about the
#: time the sequence form took to 400 (``docs/performance.md``, "Mesh LPs").
REFINEMENT_MESHES = (25, 50, 100, 200, 400, 1000, 2000)


def sweep_point(item) -> tuple:
    """One ``(game, pot, lp_mesh)`` of :func:`sweep`: its row and its interval rows
    (module-level: a sweep pickles it)."""
    g, pot, lp_mesh = item
    r = solve_patent_game(g, pot)
    lp = solve_mesh(patent_rules(g), pot, lp_mesh) if lp_mesh else None
    row = {"game": g, "pot": pot, "value": r.value, "value_exact": r.value_exact,
           "converged": r.converged, "certificate": r.max_gain, "order_ok": r.order_ok,
           "lp_mesh": lp_mesh, "lp_value": lp.value if lp else np.nan,
           "lp_minus_value": (lp.value - r.value) if lp else np.nan,
           "points": json.dumps({k: round(v, 12) for k, v in r.points.items()}),
           "exact_points": json.dumps(r.exact_points)}
    ivs = [{"game": g, "pot": pot, "player": f"P{player + 1}", "component": comp, "lo": lo, "hi": hi, "plan": plan}
           for player, part in enumerate(r.intervals) for comp, lo, hi, plan in part]
    return row, ivs


def sweep(games=GAME_NAMES, pots=range(1, 11), lp_mesh: int = 200, jobs: int = 1, backend: str | None = None,
          scheduler: str | None = None, progress: bool = False):
    """Every game at every pot: the points, the value, the certificate and the LP check.

    ``jobs``, ``backend``, ``scheduler``: see :func:`guts.studies.sweep.run_sweep` (rows in
    the order game, pot whatever the backend)."""
    out = run_sweep(sweep_point, [(g, pot, lp_mesh) for g in games for pot in pots], jobs=jobs, progress=progress,
                    desc="dividing points", backend=backend, scheduler=scheduler)
    return pd.DataFrame([row for row, _ in out]), pd.DataFrame([iv for _, ivs in out for iv in ivs])


def refinement_rows(item) -> list:
    """The rows of :func:`refinement` for one ``(game, pot, meshes)`` (module-level: a sweep pickles it)."""
    g, pot, meshes = item
    exact = solve_patent_game(g, pot).value
    rows = []
    for M in meshes:
        t0 = time.perf_counter()
        lp = solve_mesh(patent_rules(g), pot, M)
        rows.append({"game": g, "pot": pot, "mesh": M, "value": exact, "lp_value": lp.value,
                     "diff": lp.value - exact, "lp_exploitability": lp.exploitability,
                     "seconds": time.perf_counter() - t0})
    return rows


def refinement(games=GAME_NAMES, pot=3, meshes=REFINEMENT_MESHES, jobs: int = 1, backend: str | None = None,
               scheduler: str | None = None, progress: bool = False):
    """|value of the mesh game (LP) - dividing-point value| for each mesh (one sweep point per game)."""
    out = run_sweep(refinement_rows, [(g, pot, tuple(meshes)) for g in games], jobs=jobs, progress=progress,
                    desc="mesh refinement", backend=backend, scheduler=scheduler)
    return pd.DataFrame([row for rows in out for row in rows])


def fit_rates(ref: pd.DataFrame, min_mesh: int = 50) -> pd.DataFrame:
    """Least-squares slope ``r`` of ``log|diff|`` on ``log(1/M)`` per game (``|diff| ~ C M^-r``)
    and the constant ``max |diff| M^2`` of a second-order envelope."""
    out = []
    for g, d in ref[ref["mesh"] >= min_mesh].groupby("game"):
        y = np.log(np.abs(d["diff"].to_numpy()))
        x = np.log(1.0 / d["mesh"].to_numpy())
        out.append({"game": g, "rate": float(np.polyfit(x, y, 1)[0]),
                    "envelope_M2": float(np.max(np.abs(d["diff"]) * d["mesh"] ** 2))})
    return pd.DataFrame(out)


def ordering(games=GAME_NAMES, pots=(1, 3, 10), meshes=(100, 150, 200)):
    """The order read from the LP on each mesh, certified, and compared with the patent's."""
    rows = []
    for g in games:
        rules = patent_rules(g)
        for pot in pots:
            for M in meshes:
                t0 = time.perf_counter()
                try:  # the reading at this one mesh (no further meshes): is it mesh-sensitive?
                    io = infer_and_solve(rules, pot, M, game=g, meshes=())
                except Exception as exc:  # recorded, not hidden: the row says why
                    rows.append({"game": g, "pot": pot, "mesh": M, "certified": False, "patent_order": False,
                                 "same_E1": False, "value": np.nan, "certificate": np.nan, "steps": str(exc),
                                 "order": "", "seconds": time.perf_counter() - t0})
                    continue
                shape, _, same = same_polynomial(rules, patent_layout(g), io.layout)
                rows.append({"game": g, "pot": pot, "mesh": M, "certified": io.result.converged,
                             "patent_order": bool(shape), "same_E1": bool(same), "value": io.result.value,
                             "certificate": io.result.max_gain, "steps": " ; ".join(io.steps),
                             "order": io.layout.describe().replace("\n", " / "),
                             "seconds": time.perf_counter() - t0})
    return pd.DataFrame(rows)


#: The games beyond the patent's whose order inference was mesh-sensitive (third raise;
#: check-raise with three raises), at P = 3.
EXTENDED_GAMES = {
    "three raises": dict(raise_cap=3),
    "check-raise, three raises": dict(raise_cap=3, check_raise=True),
}


def verdicts(pots=(0.1, 0.3, 1, 3, 10, 60, 100), extended_meshes=tuple(range(80, 401, 40)), extended_pot=3):
    """Game c over a range of pots (the patent's order where it holds, else the order read
    from the LP), and the extended games read at each mesh alone and with further meshes."""
    from guts.errors import SolverError
    from guts.games.dividing_point import BettingRules
    from guts.games.dividing_point.patent import patent_order_interval

    rows = []
    lo, hi = patent_order_interval("c")
    for pot in pots:
        t0 = time.perf_counter()
        r = solve_patent_game("c", pot, warn=False)
        rows.append({"game": "c", "pot": pot, "mesh": 120 if r.extra else 0, "mesh_used": r.extra.get("mesh", 0),
                     "order": r.extra.get("order", "patent"), "certified": r.converged,
                     "certified_at_this_mesh": np.nan, "value": r.value, "certificate": r.max_gain,
                     "why_not": "" if r.converged else "not certified",
                     "note": f"patent's order holds for {lo:.4g} <= P <= {hi:.4g}",
                     "seconds": time.perf_counter() - t0})
    for name, kw in EXTENDED_GAMES.items():
        rules = BettingRules(name=name, **kw)
        for M in extended_meshes:
            t0 = time.perf_counter()
            sol = solve_mesh(rules, extended_pot, M, formulation=READ_FORMULATION)  # the vertex orders are read from
            why = ""
            try:
                io = infer_and_solve(rules, extended_pot, M, sol=sol, game=name, meshes=())
                alone = True
            except SolverError as exc:
                alone, why = False, str(exc).split("; ", 1)[-1]
                try:
                    io = infer_and_solve(rules, extended_pot, M, sol=sol, game=name)
                except SolverError as exc2:
                    io, why = None, str(exc2)
            rows.append({"game": name, "pot": extended_pot, "mesh": M, "mesh_used": 0 if io is None else io.mesh,
                         "order": "read from the LP", "certified": io is not None and io.result.converged,
                         "certified_at_this_mesh": alone, "value": io.result.value if io else np.nan,
                         "certificate": io.result.max_gain if io else np.nan, "why_not": why,
                         "note": "", "seconds": time.perf_counter() - t0})
    return pd.DataFrame(rows)


def printed_table(random_state: int = 0) -> pd.DataFrame:
    """Each printed equation: verdict, b1/B1 case slips, printed - derived."""
    return pd.DataFrame([{"label": c.label, "game": c.game, "verdict": c.verdict, "case_slips": c.case_slips,
                          "printed_minus_derived": c.difference, "note": c.note}
                         for c in compare_all(random_state)])


#: One colour per plan (folds grey, passes blue, calls green, bets and raises warm).
PLAN_COLORS = {
    "fold": "#d9d9d9", "pass-fold": "#bdbdbd", "bet-fold": "#fdd0a2", "raise-fold": "#fcbba1",
    "pass-raise-fold": "#dadaeb",
    "pass": "#9ecae1", "pass-call": "#4292c6", "call": "#74c476", "bet-call": "#238b45",
    "raise-call": "#cb181d", "pass-raise-call": "#6a51a3",
    "bet": "#fd8d3c", "bet-reraise": "#a63603",
}


def plot_strategies(ivs: pd.DataFrame, games=GAME_NAMES):
    """One panel per game: each player's plans on the hand axis, one row per pot and first decision."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(games), figsize=(4.4 * len(games), 6.0), squeeze=False)
    seen = {}
    for ax, g in zip(axes[0], games):
        d = ivs[ivs.game == g]
        rows = []
        for pot in sorted(d.pot.unique()):
            for (player, comp), part in d[d.pot == pot].groupby(["player", "component"], sort=False):
                rows.append((pot, player, comp, part))
        labels = []
        for k, (pot, player, comp, part) in enumerate(rows):
            for _, iv in part.iterrows():
                color = PLAN_COLORS.get(iv.plan, "#969696")
                seen[iv.plan] = color
                ax.barh(k, iv.hi - iv.lo, left=iv.lo, color=color, edgecolor="white", linewidth=0.3)
            where = "" if comp == "root" else f" after {comp}"
            labels.append(f"P={pot:g} {player}{where}")
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(labels, fontsize=5)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("hand strength")
        ax.set_title(f"game {g}")
    order = [p for p in PLAN_COLORS if p in seen] + [p for p in seen if p not in PLAN_COLORS]
    handles = [plt.Rectangle((0, 0), 1, 1, color=seen[p]) for p in order]
    fig.legend(handles, order, loc="lower center", ncol=min(len(order), 7), fontsize=7)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def plot_refinement(ref: pd.DataFrame, rates: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    for g, d in ref.groupby("game"):
        r = rates.set_index("game").loc[g, "rate"]
        ax.loglog(d["mesh"], np.abs(d["diff"]), "o-", label=f"game {g} (rate {r:.2f})")
    M = np.array(sorted(ref["mesh"].unique()), dtype=float)
    ax.loglog(M, 0.3 / M**2, "k--", lw=0.8, label="M^-2")
    from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator

    ax.xaxis.set_major_locator(FixedLocator(M))  # one label per mesh solved, no overlapping minor labels
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("hands per player M (D = M^2 deals)")
    ax.set_ylabel("|LP value - dividing-point value|")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


FULL_RUN = {"pots": list(range(1, 11)), "lp_mesh": 200, "meshes": list(REFINEMENT_MESHES),
            "order_meshes": [100, 150, 200], "order_pots": [1, 3, 10], "games": list(GAME_NAMES)}
TARGETS = ("sweep.csv", "intervals.csv", "strategies.png", "refinement.csv", "refinement_rates.csv",
           "mesh_refinement.png", "ordering.csv", "verdicts.csv", "printed_equations.csv")


def run(out=AUTO, pots=range(1, 11), lp_mesh: int = 200, meshes=REFINEMENT_MESHES,
        order_meshes=(100, 150, 200), order_pots=(1, 3, 10), games=GAME_NAMES, echo=None, jobs: int = 1,
        backend: str | None = None, scheduler: str | None = None, progress: bool = False) -> dict:
    """Write every artefact of the study into ``<out>/dividing_point/``; return a summary.

    ``out``: see :func:`guts.studies.output.plan_output` (the full run, :data:`FULL_RUN`,
    regenerates ``results/dividing_point/``; any other run goes to ``results/runs/...``).
    ``jobs``, ``backend``, ``scheduler``, ``progress``: the P = 1..10 sweep and the mesh
    refinement through :func:`guts.studies.sweep.run_sweep` (same rows whatever the backend).
    """
    check_backend(backend, scheduler)
    fan = dict(jobs=jobs, backend=backend, scheduler=scheduler, progress=progress)
    run_params = {"pots": list(pots), "lp_mesh": lp_mesh, "meshes": list(meshes),
                  "order_meshes": list(order_meshes), "order_pots": list(order_pots), "games": list(games)}
    plan = plan_output("dividing_point", out, run_params, FULL_RUN, targets=[f"{SUBDIR}/{t}" for t in TARGETS],
                       echo=echo)
    out_dir = ensure_output_dir(plan.folder / SUBDIR)
    write_meta = partial(_write_meta, plan=plan)
    with publish(out_dir, "dividing_point", parameters=run_params, **plan.meta()):
        pots = list(pots)
        sw, ivs = sweep(games, pots, lp_mesh, **fan)
        params = {"games": list(games), "pots": pots, "lp_mesh": lp_mesh}
        write_csv(sw, out_dir / "sweep.csv")
        write_meta(out_dir / "sweep.csv", params,
                   value="P1's expected net per game, ante included (the patent's E1)")
        write_csv(ivs, out_dir / "intervals.csv")
        write_meta(out_dir / "intervals.csv", params)
        fig = plot_strategies(ivs, games)
        save_figure(fig, out_dir / "strategies.png")
        write_meta(out_dir / "strategies.png", params, data="intervals.csv")

        ref = refinement(games, 3, meshes, **fan)
        rates = fit_rates(ref)
        rparams = {"games": list(games), "pot": 3, "meshes": list(meshes)}
        write_csv(ref, out_dir / "refinement.csv")
        write_meta(out_dir / "refinement.csv", rparams)
        write_csv(rates, out_dir / "refinement_rates.csv")
        write_meta(out_dir / "refinement_rates.csv", dict(rparams, min_mesh=50), data="refinement.csv")
        save_figure(plot_refinement(ref, rates), out_dir / "mesh_refinement.png")
        write_meta(out_dir / "mesh_refinement.png", rparams, data="refinement.csv")

        orders = ordering(games, order_pots, order_meshes)
        write_csv(orders, out_dir / "ordering.csv")
        write_meta(out_dir / "ordering.csv", {"games": list(games), "pots": list(order_pots),
                                              "meshes": list(order_meshes)})

        vd = verdicts()
        write_csv(vd, out_dir / "verdicts.csv")
        write_meta(out_dir / "verdicts.csv", {"pots": [0.1, 0.3, 1, 3, 10, 60, 100],
                                              "extended_meshes": list(range(80, 401, 40)), "extended_pot": 3})

        pr = printed_table()
        write_csv(pr, out_dir / "printed_equations.csv")
        write_meta(out_dir / "printed_equations.csv", {"random_state": 0})
        return {"sweep": sw, "refinement": ref, "rates": rates, "ordering": orders, "verdicts": vd, "printed": pr}
