"""Mercer hold'em study (Ullman 2015): tree sizes, values, strategy tables, collusion payoffs
(Table 7), the value of collusion as a function of epsilon, strong collusion by every method,
and variants beyond the paper.

Every ``run_*`` function computes one artefact and writes it under ``out`` (CSV, and PNG
for figures) with a ``.meta.json`` beside it; ``guts mercer study <artefact>`` (:mod:`guts.cli.mercer`)
is their command line, called by the thin ``experiments/mercer_*.py`` scripts.

The artefacts made of independent solves (:data:`SWEPT`: every one but sizes) run them through :func:`guts.studies.sweep.run_sweep`: ``jobs``
local processes or a Dask cluster (``backend="dask", scheduler=ADDRESS``), rows in the
sequential order whatever the backend, finished points kept in ``cache`` (``"default"``:
``<out>/.cache``) so an interrupted run resumes.

Targets: :func:`guts.games.poker.mercer.solve`'s ``target`` is exploitability (NashConv /
players of the solved game) for the CFR methods and every player's regret for fictitious
play. Each ``run_*`` function names the kind of its own ``target`` in its docstring; the
constants below are those of the committed ``results/mercer/`` files (the same solves: a
three-player solve once asked NashConv <= 1e-3 now asks exploitability <= 1e-3 / 3). The
CSV ``epsilon`` columns keep what they always held: the NashConv bound of a CFR row (its
exploitability target x players), the regret bound of a fictitious-play row.
"""
from __future__ import annotations

import contextlib
import os
import time
import warnings

import numpy as np
import pandas as pd

from guts.engine.extensive import expected_values
from guts.errors import ConvergenceWarning
from guts.games.poker.mercer import Collusion, build_game, variant_rules
from guts.games.poker.mercer.paper import PAPER_TABLE7, PAPER_TABLE7_ERROR, PAPER_TABLES, PAPER_VALUES
from guts.games.poker.mercer.solve import br_gains, solve
from guts.games.poker.mercer.tables import add_equilibrium_ranges, table_frame
from guts.studies.mercer_fp import run_program_fp
from guts.studies.output import ensure_output_dir, peak_rss_mb, publish, save_figure, write_csv, write_meta
from guts.studies.sweep import check_backend, default_cache, run_sweep

__all__ = ["run_sizes", "run_values", "run_tables", "run_table7", "table7_rows", "run_collusion_epsilon", "plot_collusion_epsilon",
           "run_collusion_methods", "run_beyond", "to_pooled_strategies", "ARTEFACTS", "SWEPT", "CACHED"]

#: Exploitability target of the three-player equilibria behind the strategy tables and Table 7
#: (NashConv 1e-3: the solves of the committed tables).
TABLE_TARGET = 1e-3 / 3
#: Weak collusion (three players, not zero-sum): CFR+ and DCFR plateau near NashConv 1e-3 on
#: 3P-MMH (measured: 1.4e-3 and 1.1e-3 after 70 s, ~5 000 iterations), so weak-collusion
#: solves stop at this exploitability target instead (NashConv 2e-3, as the committed
#: results); every row reports the NashConv it reached.
WEAK_TARGET = 2e-3 / 3
#: Safety cap of one iterative solve in the study (seconds); a capped solve is reported
#: with converged=False and its NashConv.
SOLVE_TIME_LIMIT = 600.0
#: The thesis's ε (§3.4): every player's regret below it. Fictitious play stops there; CFR
#: solves of the artefacts that compare with the thesis stop at NashConv <= it (exploitability
#: ``SEED_EPSILON / players``, :func:`_cfr_target`).
SEED_EPSILON = 0.01
TEAMS = ((0, 1), (0, 2), (1, 2))


@contextlib.contextmanager
def _quiet():
    """Iterative solves report their certificates in the tables; no warning spam."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


def _sweep(func, items, desc, out, jobs, backend, scheduler, cache, progress) -> list:
    """``run_sweep`` with the study's defaults (``cache="default"``: ``<out>/.cache``)."""
    cache = default_cache(cache, None if out is None else out / ".cache")
    return run_sweep(func, items, jobs=jobs, progress=progress, desc=desc, backend=backend,
                     scheduler=scheduler, cache=cache)


def _flat(lists) -> list:
    return [row for rows in lists for row in rows]


def _cfr_target(epsilon, players):
    """The exploitability target of a CFR solve whose NashConv must be at most ``epsilon`` (the
    thesis's ε), in a solved game of ``players`` players (2 for a merged strong-collusion team)."""
    return None if epsilon is None else epsilon / players


def _thesis_target(method, epsilon, players):
    """``solve``'s target for the thesis's ε: every player's regret < ε for fictitious play,
    NashConv <= ε for the CFR methods, nothing for the LP."""
    if method == "lp" or epsilon is None:
        return None
    return epsilon if method in ("fp", "fp-realisation") else _cfr_target(epsilon, players)


def _merged(target):
    """The exploitability target of the merged (two-player) strong-collusion team game at the
    NashConv of a three-player exploitability ``target`` (the committed Table 7's solves)."""
    return (target * 3) / 2


def _epsilon_column(r):
    """The CSV ``epsilon`` column of a result: the NashConv bound of a CFR run (exploitability
    target x players of the solved game), the regret bound of fictitious play, none for the LP."""
    if r.target is None or r.method in ("fp", "fp-realisation") or r.collusion in ("correlated", "independent"):
        return r.target
    return r.target * r.stats.players


# ----------------------------------------------------------------------------- sizes
def run_sizes(out="results/mercer") -> pd.DataFrame:
    """Tree sizes of the four variants (and of the collusion games): public states,
    information sets, deals (type tuples), share tables, and the thesis's explicit tree."""
    out = ensure_output_dir(out)
    rows = []
    for v in ("smh", "mmh"):
        for n in (2, 3):
            cases = [("none", None, False)]
            if n == 3:
                cases += [("weak (0,1)", Collusion((0, 1), "weak"), False),
                          ("strong-separate (0,1)", Collusion((0, 1), "strong"), False),
                          ("strong (0,1), team as one player", Collusion((0, 1), "strong"), True)]
            for label, coll, merged in cases:
                t0 = time.perf_counter()
                b = build_game(variant_rules(v, n), coll, merge_team=merged, count_full_tree=(coll is None))
                s = b.stats
                rows.append(dict(variant=f"{n}P-{v.upper()}", collusion=label, players=s.players,
                                 public_states=s.public_states, decision_nodes=s.decision_nodes,
                                 chance_nodes=s.chance_nodes, terminals=s.terminals, deals=s.deals,
                                 types="/".join(map(str, s.types)), info_sets=s.info_sets,
                                 share_tables=s.share_tables,
                                 thesis_tree_nodes=s.full_tree_nodes if s.full_tree_nodes >= 0 else None,
                                 build_seconds=time.perf_counter() - t0))
    df = pd.DataFrame(rows)
    with publish(out, "sizes"):
        write_csv(df, out / "sizes.csv")
        write_meta(out / "sizes.csv", {"variants": ["smh", "mmh"], "players": [2, 3]},
                   note="thesis_tree_nodes: nodes of the thesis's explicit tree (every card deal expanded) "
                        "= sum over public nodes of the deals reaching them; the thesis reports ~5 million "
                        "for 3P-MMH")
    return df


# ----------------------------------------------------------------------------- values
def _result_row(r, paper=None, note=""):
    row = dict(variant=f"{r.players}P-{r.variant.upper()}", method=r.method,
               collusion=r.collusion or "none", team=",".join(map(str, r.team)) if r.team else "",
               epsilon=_epsilon_column(r), exploitability=r.exploitability, nash_conv=r.nash_conv,
               max_regret=r.max_regret, converged=r.converged, iterations=r.num_iter,
               solve_seconds=r.seconds, note=note)
    for s in range(3):
        row[f"value_{s}"] = float(r.values[s]) if s < len(r.values) else np.nan
        row[f"paper_{s}"] = paper[s] if paper is not None and s < len(paper) else np.nan
    return row


def values_items(target=SEED_EPSILON) -> list:
    """The solves of :func:`run_values`, in row order: ``(variant, players, method, target of
    solve, rule options, note)``; ``target``: the thesis's ε, see :func:`run_values`."""
    items = []
    for v in ("smh", "mmh"):
        for n in (2, 3):
            # "fp": the program's rule (Ullman 2015); "fp-realisation": classical fictitious play
            methods = (["lp"] if n == 2 else []) + ["cfr+", "fp", "fp-realisation"]
            items += [(v, n, m, _thesis_target(m, target, n), {}, "") for m in methods]
            if n == 3:
                items.append((v, n, "cfr+", TABLE_TARGET, {}, "tight"))
    items.append(("smh", 3, "cfr+", TABLE_TARGET, {"bets": (8.0,)}, "bet 8 instead of 4"))
    items.append(("smh", 2, "lp", None, {"bets": (8.0,)}, "bet 8 instead of 4"))
    return items


def values_row(item) -> dict:
    """One row of :func:`run_values` (module-level: a sweep pickles it)."""
    v, n, m, eps, opts, note = item
    with _quiet():
        r = solve(v, n, m, target=eps, **opts)
    return _result_row(r, PAPER_VALUES.get((v, n)), note)


def run_values(out="results/mercer", target=SEED_EPSILON, jobs: int = 1, backend: str | None = None,
               scheduler: str | None = None, cache=None, progress: bool = True) -> pd.DataFrame:
    """Every variant by every applicable method, beside the thesis's values (§4.2, §4.3).

    ``target`` is the thesis's ε, a regret bound: fictitious play runs until every player's
    regret < target, CFR+ until NashConv <= target (exploitability target / players); the
    "tight" rows stop at exploitability ``TABLE_TARGET``.

    Also 3P-SMH with a bet of 8: the printed 3P-SMH figures (-0.29, 0.008, 0.282) are
    consistent with that bet size (the middle seat within about 0.01), not with the stated
    bet of 4.  ``jobs``, ``backend``, ``scheduler``, ``cache``, ``progress``: see the module."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    rows = _sweep(values_row, values_items(target), "mercer values", out, jobs, backend, scheduler, cache, progress)
    df = pd.DataFrame(rows)
    with publish(out, "values"):
        write_csv(df, out / "values.csv")
        write_meta(out / "values.csv", {"epsilon": target, "tight_target": TABLE_TARGET},
                   note="values in chips per hand per seat (first seat first); exploitability = mean of "
                        "the best-response gains, nash_conv = their sum, max_regret = the thesis's epsilon "
                        "criterion; epsilon: NashConv bound of a CFR row, regret bound of a fictitious-play "
                        "row")
    return df


# ----------------------------------------------------------------------------- tables
def tables_items(target) -> list:
    """The solves the tables read: ``((variant, players, collusion, method), solve keywords)``;
    ``target``: exploitability of the three-player CFR+ solves (fictitious play: the thesis's ε)."""
    items = []
    for v in ("smh", "mmh"):
        items.append(((v, 2, None, "lp"), dict(variant=v, players=2, method="lp")))
        items.append(((v, 2, None, "fp"), dict(variant=v, players=2, method="fp", target=SEED_EPSILON)))
    # the weak floor of each kind: WEAK_TARGET (exploitability) for CFR+, NashConv 2e-3 for fp's regret
    for m, eps, weak in (("cfr+", target, WEAK_TARGET), ("fp", SEED_EPSILON, WEAK_TARGET * 3)):
        items.append((("mmh", 3, None, m), dict(variant="mmh", players=3, method=m, target=eps,
                                                time_limit=SOLVE_TIME_LIMIT)))
        items.append((("mmh", 3, "weak", m), dict(variant="mmh", players=3, method=m, target=max(eps, weak),
                                                  collusion="weak", team=(0, 1), time_limit=SOLVE_TIME_LIMIT)))
    return items


def tables_solution(item):
    """One solve of :func:`tables_items` (module-level: a sweep pickles it)."""
    _, kw = item
    kw = dict(kw)
    with _quiet():
        return solve(kw.pop("variant"), kw.pop("players"), kw.pop("method"), **kw)


def _solutions_for_tables(target, jobs=1, backend=None, scheduler=None, progress=False):
    """{(variant, players, collusion, method): result} for every game the tables read (whole
    results with their games: not cached)."""
    items = tables_items(target)
    res = _sweep(tables_solution, items, "table solves", None, jobs, backend, scheduler, None, progress)
    return {key: r for (key, _), r in zip(items, res)}


def run_tables(out="results/mercer", target=TABLE_TARGET, jobs: int = 1, backend: str | None = None,
               scheduler: str | None = None, progress: bool = True) -> pd.DataFrame:
    """Tables 1-6 and 8 (bet percentages by holding, position, history), ours beside the
    thesis's. Two players: the exact LP equilibrium (and the thesis's fictitious play);
    three players: CFR+ to exploitability <= ``target`` (an exploitability; the default is
    NashConv 1e-3) and fictitious play to the thesis's 0.01 (every player's regret).
    ``jobs``, ``backend``, ``scheduler``, ``progress``: see the module (one point per solve; the
    solves return whole games, so no cache)."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    sols = _solutions_for_tables(target, jobs, backend, scheduler, progress)
    frames = []
    for name, spec in PAPER_TABLES.items():
        for (v, n, coll, m), r in sols.items():
            if v == spec["variant"] and n == spec["players"] and coll == spec.get("collusion"):
                df = table_frame(name, r.built, r.strategies, method=m)
                if m == "lp":      # the range of every first-decision figure over all equilibria
                    df = add_equilibrium_ranges(df, r.built, r.values)
                df["nash_conv"] = r.nash_conv
                frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    with publish(out, "tables"):
        write_csv(df, out / "tables.csv")
        write_meta(out / "tables.csv", {"target_3p": target, "target_weak": WEAK_TARGET, "fp_epsilon": SEED_EPSILON},
                   note="ours/paper: probability (%) of betting 4; reach = probability that the "
                        "information set is reached (deal and history) under the profile; eq_min/eq_max "
                        "(2P, first decisions): range over all exact equilibria")
    return df


# ----------------------------------------------------------------------------- table 7
def to_pooled_strategies(merged_built, merged_strategies, pooled_game) -> tuple:
    """Seat strategies for the engine's pooled game from a merged-team solution."""
    mg = merged_built.game
    out = []
    for s in range(pooled_game.num_players):
        q = merged_built.seat_player[s]
        src_labels = {lab: t for t, lab in enumerate(mg.deals.type_labels[q])}
        rows = [src_labels[lab] for lab in pooled_game.deals.type_labels[s]]
        out.append({h: merged_strategies[q][h][rows] for h in pooled_game.decision_histories(s)})
    return tuple(out)


def _pooled(v, kind, team):
    return build_game(variant_rules(v, 3), Collusion(team, kind)).game


def _collusion_solution(v, kind, team, target):
    """Collusion equilibrium as seat strategies of the pooled game, with its NashConv.

    ``target``: exploitability of the three-player game. Strong: ``solve(collusion="strong")``,
    the team as one player (two-player zero-sum team-vs-victim game) solved by CFR+ to the
    same NashConv (3 ``target``) in that game, so the team's value is certified within it;
    its strategy is then played seat by seat in the pooled game. Weak: CFR+ on the
    three-player pooled game (NashConv bounds unilateral deviations only)."""
    with _quiet():
        if kind == "strong":
            res = solve(v, 3, "cfr+", target=_merged(target), collusion="strong", team=team,
                        time_limit=SOLVE_TIME_LIMIT)
            game = _pooled(v, kind, team)
            return game, to_pooled_strategies(res.built, res.strategies, game), res.nash_conv
        res = solve(v, 3, "cfr+", target=max(target, WEAK_TARGET), collusion=kind, team=team,
                    time_limit=SOLVE_TIME_LIMIT)
        return res.built.game, res.strategies, res.nash_conv


def table7_rows(variant, target=TABLE_TARGET) -> list:
    """One row per (kind, scenario, team) of a three-player variant (see :func:`run_table7`;
    ``target``: exploitability of the three-player CFR+ solves).

    Seats are also named cyclically from the victim, as the thesis's dealer rotation does:
    A = the victim, B = the seat after A, C = the seat after B."""
    with _quiet():
        base = solve(variant, 3, "cfr+", target=target, time_limit=SOLVE_TIME_LIMIT)
    game0, strat0 = base.built.game, base.strategies
    rows = []
    for kind in ("strong", "weak"):
        for team in TEAMS:
            victim = next(s for s in range(3) if s not in team)
            gc, sc, nc = _collusion_solution(variant, kind, team, target)
            profiles = {
                "public": (gc, sc),
                "private": (gc, tuple(strat0[s] if s == victim else sc[s] for s in range(3))),
                "suspicious": (game0, tuple(sc[s] if s == victim else strat0[s] for s in range(3))),
                "none": (game0, strat0),
            }
            for scen, (g, st) in profiles.items():
                ev, gains = br_gains(g, st)
                row = dict(variant=f"3P-{variant.upper()}", kind=kind, scenario=scen,
                           team=f"{team[0]},{team[1]}", victim=victim,
                           value_0=ev[0], value_1=ev[1], value_2=ev[2])
                for k, name in enumerate("ABC"):
                    row[f"value_{name}"] = ev[(victim + k) % 3]
                row.update(victim_value=ev[victim], colluder_value=ev[list(team)].mean(),
                           nash_conv=float(gains.sum()),
                           solve_nash_conv=nc if scen != "none" else base.nash_conv)
                rows.append(row)
    return rows


def table7_point(item) -> list:
    """:func:`table7_rows` of one ``(variant, target)`` (module-level: a sweep pickles it)."""
    return table7_rows(*item)


def run_table7(out="results/mercer", variants=("mmh", "smh"), target=TABLE_TARGET, jobs: int = 1,
               backend: str | None = None, scheduler: str | None = None, cache=None,
               progress: bool = True) -> pd.DataFrame:
    """Table 7: payoffs with collusion, strong and weak, public / private / suspicious,
    for every seating of the victim, and their average over seatings (the thesis rotates the
    dealer). Public: all play the collusion equilibrium; private: colluders play it, the
    victim the no-collusion equilibrium; suspicious: nobody colludes (no-collusion game),
    the victim plays his collusion-equilibrium strategy (§5).

    The thesis prints Table 7 for 3P-MMH; 3P-SMH is computed too because the printed
    weak-collusion column (x 1e-3) has the size of the 3P-SMH effect, not of 3P-MMH's.
    ``nash_conv`` of a private or suspicious profile is large by construction (one side
    plays a strategy of the other game); ``solve_nash_conv`` certifies the solves.
    ``target``: exploitability of the three-player CFR+ solves (the merged strong-collusion
    team game is solved to the same NashConv; weak collusion to at least ``WEAK_TARGET``).
    ``jobs``, ``backend``, ``scheduler``, ``cache``, ``progress``: see the module (one point per variant)."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    df = pd.DataFrame(_flat(_sweep(table7_point, [(v, target) for v in variants], "table 7", out, jobs, backend,
                                   scheduler, cache, progress)))
    # the thesis's layout: A = victim, B and C the next seats, averaged over the three seatings
    avg = (df.groupby(["variant", "kind", "scenario"], sort=False)
           .agg(value_A=("value_A", "mean"), value_B=("value_B", "mean"), value_C=("value_C", "mean"),
                nash_conv=("nash_conv", "max"), solve_nash_conv=("solve_nash_conv", "max")).reset_index())
    for k, col in enumerate("ABC"):
        avg[f"paper_{col}"] = [PAPER_TABLE7.get((kd, sc), (np.nan,) * 3)[k] if v == "3P-MMH" else np.nan
                               for v, kd, sc in zip(avg.variant, avg.kind, avg.scenario)]
    with publish(out, "table7"):
        params = {"variants": list(variants), "target": target, "target_weak": WEAK_TARGET}
        write_csv(df, out / "table7_seatings.csv")
        write_meta(out / "table7_seatings.csv", params)
        write_csv(avg, out / "table7.csv")
        write_meta(out / "table7.csv", params,
                   note=f"averages over the three seatings; A = victim, B, C = the next seats; "
                        f"paper columns: the thesis's Table 7 (3P-MMH), its stated error {PAPER_TABLE7_ERROR}")
    return avg


# ----------------------------------------------------------------------------- collusion vs epsilon
def collusion_epsilon_rows(item) -> list:
    """The rows of :func:`run_collusion_epsilon` at one ``(variant, target)`` (module-level:
    a sweep pickles it; ``target``: exploitability of the three-player games)."""
    variant, target = item
    rows = []
    with _quiet():
        base = solve(variant, 3, "cfr+", target=target)
        for kind in ("weak", "strong"):
            if kind == "weak" and target < WEAK_TARGET:
                continue        # below what CFR reaches on the weak game (WEAK_TARGET)
            vals, ncs = [], []
            for team in TEAMS:
                victim = next(s for s in range(3) if s not in team)
                g, st, nc = _collusion_solution(variant, kind, team, target)
                ev = expected_values(g, st)
                vals.append(ev[victim] - base.values[victim])
                ncs.append(nc)
            # the committed column: the NashConv bound of the solves (3 x the exploitability target)
            rows.append(dict(kind=kind, epsilon=target * 3, victim_loss=-float(np.mean(vals)),
                             error=float(np.max(ncs) + base.nash_conv),
                             nash_conv_collusion=float(np.max(ncs)), nash_conv_base=base.nash_conv))
    return rows


#: The exploitability targets of :func:`run_collusion_epsilon` (NashConv 0.1 ... 0.001: the
#: committed artefact's points, its ``epsilon`` column).
COLLUSION_TARGETS = tuple(e / 3 for e in (0.1, 0.03, 0.01, 0.003, 0.001))


def run_collusion_epsilon(out="results/mercer", variant="mmh", targets=COLLUSION_TARGETS,
                          jobs: int = 1, backend: str | None = None, scheduler: str | None = None, cache=None,
                          progress: bool = True):
    """The value of collusion to the colluders (victim's loss against the no-collusion
    game, averaged over the three seatings) as a function of the target, with error bars from
    NashConv (not from "the margin of error of our fictitious play").  ``targets``:
    exploitability targets of the three-player CFR+ solves (the CSV's ``epsilon`` column is
    their NashConv bound, 3 x target; the merged strong-collusion team game is solved to the
    same NashConv).  ``jobs``, ``backend``, ``scheduler``, ``cache``, ``progress``: see the
    module (one point per target)."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    rows = _flat(_sweep(collusion_epsilon_rows, [(variant, t) for t in targets], "collusion vs epsilon", out,
                        jobs, backend, scheduler, cache, progress))
    df = pd.DataFrame(rows)
    with publish(out, "collusion_epsilon"):
        write_csv(df, out / "collusion_epsilon.csv")
        write_meta(out / "collusion_epsilon.csv", {"variant": variant, "targets": list(targets),
                                                   "target_weak_min": WEAK_TARGET},
                   note="epsilon: NashConv bound of the solves (3 x the exploitability target); victim_loss: "
                        "victim's value without collusion minus with collusion (public), mean over seatings; "
                        "error: NashConv of the collusion solve + of the base solve")
        import matplotlib.pyplot as plt

        fig = plot_collusion_epsilon(df, variant)
        save_figure(fig, out / "collusion_epsilon.png")
        plt.close(fig)
    return df


def plot_collusion_epsilon(df: pd.DataFrame, variant: str = "mmh"):
    """The victim's loss to strong and weak collusion against ε, NashConv error bars
    (``results/mercer/collusion_epsilon.csv`` -> ``collusion_epsilon.png``)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for kind, mk in (("strong", "o"), ("weak", "s")):
        d = df[df.kind == kind]
        ax.errorbar(d.epsilon, d.victim_loss, yerr=d.error, marker=mk, capsize=3, label=f"{kind} collusion")
    ax.axhline(0.0, color="k", lw=0.5)
    ax.set_xscale("log")
    ax.set_xlabel("epsilon (NashConv target)")
    ax.set_ylabel("victim's loss to collusion (chips / hand)")
    ax.set_title(f"3P-{variant.upper()}: value of collusion vs epsilon")
    ax.legend()
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- strong collusion by every method
def collusion_methods_rows(item) -> list:
    """The rows of :func:`run_collusion_methods` for one ``(variant, team, target)``
    (module-level: a sweep pickles it; ``target``: the thesis's ε, see :func:`run_collusion_methods`)."""
    from guts.games.poker.mercer.solve import METHODS

    v, team, target = item
    victim = next(s for s in range(3) if s not in team)
    rows = []
    with _quiet():
        exact = solve(v, 3, "lp", collusion="strong", team=team)
        # the committed artefact compares the paper's and the classical methods (pcfr+ is the
        # package's default beyond them, compared in the beyond artefact)
        runs = [("strong", m) for m in METHODS if m != "pcfr+"] + [("strong-separate", "cfr+")]
        for kind, m in runs:
            # the merged strong team game has 2 players, the strong-separate game 3
            r = exact if (kind, m) == ("strong", "lp") else solve(
                v, 3, m, target=_thesis_target(m, target, 2 if kind == "strong" else 3), collusion=kind, team=team,
                time_limit=SOLVE_TIME_LIMIT)
            if kind == "strong":
                within = r.certified_lower - 1e-9 <= exact.team_value <= r.certified_upper + 1e-9
            else:
                within = abs(r.team_value - exact.team_value) <= r.nash_conv + 1e-9
            rows.append(dict(variant=f"3P-{v.upper()}", team=f"{team[0]},{team[1]}", victim=victim,
                             collusion=kind, method=m, epsilon=_epsilon_column(r),
                             victim_value=float(r.values[victim]), team_value=r.team_value,
                             certified_lower=r.certified_lower, certified_upper=r.certified_upper,
                             lp_team_value=exact.team_value, nash_conv=r.nash_conv,
                             within_certificate=bool(within), converged=r.converged,
                             iterations=r.num_iter, solve_seconds=r.seconds))
    return rows


def run_collusion_methods(out="results/mercer", variants=("smh", "mmh"), target=SEED_EPSILON, jobs: int = 1,
                          backend: str | None = None, scheduler: str | None = None, cache=None,
                          progress: bool = True) -> pd.DataFrame:
    """Strong collusion (§5) as the team game by every method, for every seating.

    ``collusion="strong"``: the colluders are one player against the victim (two-player
    zero-sum), so every method's result brackets the team's max-min value,
    ``certified_lower <= V_team <= certified_upper`` (width = NashConv of the merged game);
    ``within_certificate`` checks that bracket against the exact merged-team LP. The
    separate-colluder equilibrium (``collusion="strong-separate"``, CFR+, a three-player
    Nash equilibrium) is listed beside it: its NashConv bounds unilateral deviations only,
    and ``within_certificate`` there asks whether its team value happens to lie within its
    NashConv of the team's.  ``target`` is the thesis's ε, a regret bound: fictitious play
    runs until every player's regret < target, CFR+ and DCFR until NashConv <= target
    (exploitability target / players of the solved game).  ``jobs``, ``backend``, ``scheduler``, ``cache``, ``progress``:
    see the module (one point per variant and seating)."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    items = [(v, team, target) for v in variants for team in TEAMS]
    rows = _flat(_sweep(collusion_methods_rows, items, "strong collusion", out, jobs, backend, scheduler, cache,
                        progress))
    df = pd.DataFrame(rows)
    with publish(out, "collusion_methods"):
        write_csv(df, out / "collusion_methods.csv")
        write_meta(out / "collusion_methods.csv", {"variants": list(variants), "epsilon": target},
                   load_average_end=[round(x, 2) for x in os.getloadavg()],
                   note="strong = the team as one player (two-player zero-sum team-vs-victim game): "
                        "[certified_lower, certified_upper] brackets the team's max-min value, "
                        "within_certificate = the exact merged-team LP value lies in it; strong-separate = "
                        "the colluders as separate players of the three-player pooled game (a Nash "
                        "equilibrium, NashConv bounds unilateral deviations only; its value is not the "
                        "team's), within_certificate = |team_value - LP| <= its NashConv")
    return df


# ----------------------------------------------------------------------------- beyond the paper

BEYOND = (
    # (label, variant, players, rule options)
    ("paper (fixed bet 4, no check)", "smh", 2, {}),
    ("fixed, check allowed", "smh", 2, dict(check=True)),
    ("fixed, bets 4 or 8", "smh", 2, dict(bets=(4.0, 8.0))),
    ("limit (call / raise 4)", "smh", 2, dict(betting="limit")),
    ("limit, check allowed", "smh", 2, dict(betting="limit", check=True)),
    ("limit, raise 4 or 8", "smh", 2, dict(betting="limit", bets=(4.0, 8.0))),
    ("paper (fixed bet 4, no check)", "mmh", 2, {}),
    ("fixed, check allowed", "mmh", 2, dict(check=True)),
    ("fixed, bets 4 or 8", "mmh", 2, dict(bets=(4.0, 8.0))),
    ("limit (call / raise 4)", "mmh", 2, dict(betting="limit")),
    ("limit, check allowed", "mmh", 2, dict(betting="limit", check=True)),
    ("limit, raise 4 or 8", "mmh", 2, dict(betting="limit", bets=(4.0, 8.0))),
    ("paper (fixed bet 4, no check)", "smh", 3, {}),
    ("limit, check allowed", "smh", 3, dict(betting="limit", check=True)),
    ("limit, raise 4 or 8", "smh", 3, dict(betting="limit", bets=(4.0, 8.0))),
    ("fixed, check allowed", "mmh", 3, dict(check=True)),
    ("limit (call / raise 4)", "mmh", 3, dict(betting="limit")),
)


#: Two-player games are solved exactly (sequence-form LP) when the LP fits in memory and
#: in time, both judged BEFORE it is built: its memory estimate
#: (:func:`guts.engine.extensive.lp.lp_memory_estimate`) within :func:`guts._validate.memory_budget`
#: and the engine's ``LP_MEMORY_LIMIT``, and at most ``BEYOND_LP_MAX_NONZEROS`` payoff
#: non-zeros (2P-MMH with a check, 1.6e6 non-zeros: minutes by the interior-point method;
#: 2P-MMH raise 4 or 8, 6.1e6: the interior-point method had not converged after
#: ISSUE21_MINUTES minutes, see docs/performance.md).  Others: CFR to exploitability <=
#: BEYOND_TARGET_2P (NashConv 1e-3, the committed solves), the value then bracketed by the
#: best-response gains.
BEYOND_LP_MAX_NONZEROS = 2_000_000
BEYOND_TARGET_2P = 1e-3 / 2
#: Exploitability target of the three-player games beyond the paper (NashConv 0.01, the
#: thesis's ε: the committed solves).
BEYOND_TARGET = SEED_EPSILON / 3
#: CFR options of the iterative solves beyond the paper: predictive CFR+ with adaptive
#: best-response checks (about half the iterations of CFR+ on 3P-MMH with a check,
#: and a check pass only every few dozen iterations). Certificates are unchanged: NashConv of
#: the returned average, in float64.
BEYOND_CFR = dict(variant="pcfr+", check="adaptive")


def beyond_uses_lp(game) -> bool:
    """Whether :func:`run_beyond` solves this two-player game by the sequence-form LP: its
    memory estimate fits the budget and its payoff matrix is small enough to solve in
    minutes (``BEYOND_LP_MAX_NONZEROS``); decided from the compiled tree, nothing built."""
    from guts._validate import memory_budget
    from guts.engine.extensive.lp import lp_memory_estimate
    from guts.engine.tolerances import LP_MEMORY_LIMIT

    nnz, need = lp_memory_estimate(game)
    return nnz <= BEYOND_LP_MAX_NONZEROS and need <= min(memory_budget(), LP_MEMORY_LIMIT)


def beyond_row(item) -> dict:
    """One row of :func:`run_beyond`: ``item = (label, variant, players, rule options,
    target)`` (module-level: a sweep pickles it; ``target``: exploitability of the three-player
    games)."""
    label, v, n, opts, target = item
    with _quiet():
        exact = n == 2 and beyond_uses_lp(build_game(variant_rules(v, n, **opts)).game)
        m = "lp" if exact else "cfr+"
        eps = None if exact else (BEYOND_TARGET_2P if n == 2 else target)
        r = solve(v, n, m, target=eps, time_limit=None if exact else SOLVE_TIME_LIMIT,
                  cfr_options=None if exact else BEYOND_CFR, **opts)
    row = _result_row(r, note=label)
    row.update(public_states=r.stats.public_states, info_sets=r.stats.info_sets,
               build_seconds=r.build_seconds, peak_rss_mb=peak_rss_mb())
    if n == 2:     # zero-sum: u0 - gain_1 <= V <= u0 + gain_0, whatever the method
        row.update(value_lower=float(r.values[0] - r.gains[1]),
                   value_upper=float(r.values[0] + r.gains[0]))
    return row


def run_beyond(out="results/mercer", target=BEYOND_TARGET, cases=BEYOND, jobs: int = 1, backend: str | None = None,
               scheduler: str | None = None, cache=None, progress: bool = True) -> pd.DataFrame:
    """A check option and more bet sizes (the thesis's tree overflowed 32 GB when a check
    was added to MMH): sizes, values and certificates (for two players, the bracket
    ``value_lower <= V <= value_upper`` of the game value).  ``target``: exploitability of the
    three-player CFR solves (two-player games the LP does not take: ``BEYOND_TARGET_2P``).  ``jobs``, ``backend``,
    ``scheduler``, ``cache``, ``progress``: see the module (one point per case)."""
    check_backend(backend, scheduler)
    out = ensure_output_dir(out)
    rows = _sweep(beyond_row, [(label, v, n, opts, target) for label, v, n, opts in cases], "beyond the paper", out,
                  jobs, backend, scheduler, cache, progress)
    df = pd.DataFrame(rows)
    with publish(out, "beyond"):
        write_csv(df, out / "beyond.csv")
        write_meta(out / "beyond.csv", {"target": target, "target_2p": BEYOND_TARGET_2P,
                                        "lp_max_nonzeros": BEYOND_LP_MAX_NONZEROS, "cfr": BEYOND_CFR},
                   note="fixed = the thesis's model (each player puts in one allowed amount or folds, "
                        "nobody has to match); with a free check, checking guarantees every player his "
                        "showdown equity, so the 2P value is exactly 0; limit = call/raise (module "
                        "guts.games.poker.rules); peak_rss_mb: this process's peak resident memory "
                        "after the row's solve (monotone over the rows of one process; with jobs > 1, of "
                        "the worker that solved it); a solve capped by "
                        "SOLVE_TIME_LIMIT has converged=False and reports the NashConv it reached")
    return df


# ----------------------------------------------------------------------------- artefacts by name
ARTEFACTS = {
    "sizes": run_sizes,
    "values": run_values,
    "tables": run_tables,
    "table7": run_table7,
    "collusion_epsilon": run_collusion_epsilon,
    "collusion_methods": run_collusion_methods,
    "beyond": run_beyond,
    "program_fp": run_program_fp,
}
#: The artefacts made of independent solves, run through :func:`guts.studies.sweep.run_sweep`.
SWEPT = ("values", "tables", "table7", "collusion_epsilon", "collusion_methods", "beyond", "program_fp")
#: The swept artefacts whose points (rows) are cached.
CACHED = tuple(a for a in SWEPT if a != "tables")
