"""Mercer hold'em collusion in three team regimes, with the prices of communication and correlation.

Two colluders against the victim in three-player Standard and Multiround Mercer hold'em
(Ullman, *Simulating Fictitious Play in Simplified Poker Variants*, 2015), every seating; the
colluders' max-min value (their joint expected payoff per hand, the victim minimising it) when

* they see each other's hands (``communication``: Ullman's strong collusion, the merged team,
  exact sequence-form LP);
* they agree on a joint plan before the deal and then see only their own hands
  (``correlated``, TMECor: Celli and Gatti, *Computational results for extensive-form
  adversarial team games*, 2018; column generation with exact best responses);
* each plays his own behaviour strategy (``independent``, the team-maxmin equilibrium of von
  Stengel and Koller, *Team-maxmin equilibria*, 1997; a local search).

Every row is a certified bracket ``[lower, upper]`` of its regime's value.  Into
``results/mercer_regimes.csv`` (one row per variant x seating x regime) and
``results/mercer_regimes.prices.csv`` (one row per variant x seating: the prices).

Multiround Mercer hold'em is beyond the correlated column generation here (the exact team best
response is a mixed-integer LP over 15 hand types per colluder and 2.3 million
(terminal, deal) pairs; the public-state dynamic programme would need arrays over 2^30 pairs
of hand sets): its first pricing problem did not finish in 10 minutes on a loaded 2-core
machine.  Its rows are therefore the certified bounds available within minutes
(``MMH_METHOD``): ``communication`` exact (LP), and for ``correlated`` and ``independent``
the bracket ``[guarantee of an independent profile, relaxation bound]``.  Below, the best
profile of the independent local search (coordinate ascent by the members' sequence-form LPs,
1.6 s each, from uniform, from the colluders' weak-collusion strategies (predictive CFR+ on the
game with pooled payoffs) and from random starts, ``MMH_SEARCH_SECONDS`` per seating), whose
guarantee against the victim's exact best response is a lower bound of the independent value,
hence of the correlated one.  Above, the sequence-pair relaxation with the colluders
communicating after the flop (:func:`guts.engine.extensive.correlated_upper_bound` with
``communicate_after=1``: pairs of the colluders' sequences before the flop, their merged plan
after it), certified from its LP's duals, or the communication value where that is lower.

    python -m guts mercer regimes                      # both variants (~30 min on 2 loaded cores)
    python -m guts mercer regimes --variants smh --out /tmp/x
"""
from __future__ import annotations

import time
import warnings
from pathlib import Path

import pandas as pd

from guts.errors import ConvergenceWarning, GutsInputError
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta
from guts.studies.sweep import default_cache, run_sweep

__all__ = ["VARIANTS", "TEAMS", "REGIMES", "CERTIFIED_WIDTH", "MMH_METHOD", "MMH_WEAK_TARGET",
           "MMH_SEARCH_SECONDS", "MMH_RANDOM_STARTS", "COLUMNS",
           "PRICE_COLUMNS", "DEFAULT_CACHE", "solve_case", "prices", "run"]

VARIANTS = ("smh", "mmh")
#: Every seating of the two colluders (the victim is the third seat).
TEAMS = ((0, 1), (0, 2), (1, 2))
REGIMES = ("communication", "correlated", "independent")
#: A value counts as certified when its bracket is at most this wide.
CERTIFIED_WIDTH = 1e-4
#: How each variant's correlated and independent rows are obtained (module docstring).
MMH_METHOD = "bounds"
#: Exploitability target of the weak-collusion solve whose colluder strategies start MMH's local
#: search (NashConv 0.01 in the three-player game).
MMH_WEAK_TARGET = 0.01 / 3
#: Seconds of MMH's independent local search per seating (after its weak-collusion start), and its
#: random starts (seeded 0).
MMH_SEARCH_SECONDS = 240.0
MMH_RANDOM_STARTS = 4
#: Finished cases (``cache="default"``).
DEFAULT_CACHE = Path("results") / ".cache" / "mercer_regimes"

COLUMNS = {
    "variant": "smh or mmh (three players, the thesis's rules: fixed bets of 4, no check)",
    "team": "the two colluding seats (counted from 0 in betting order)",
    "victim": "the third seat",
    "regime": "communication (strong collusion, merged team), correlated (TMECor), independent (team-maxmin)",
    "value": ("the colluders' joint value per hand returned by the solver (communication, correlated: the "
              "solved value; independent: what the profile found guarantees); empty where nothing was solved"),
    "lower": "certified lower end of the regime's max-min value",
    "upper": "certified upper end of the regime's max-min value",
    "width": "upper - lower",
    "certified": f"width <= {CERTIFIED_WIDTH:g}",
    "seconds": "solve time of the row (the independent row: its local search only)",
    "method": ("lp (merged-team LP); column-generation (exact best responses, MILP pricing); coordinate-ascent "
               "(local search; SMH from the correlated support, MMH from uniform, the weak-collusion strategies "
               "and random starts); bounds (MMH's correlated row: lower, the local search's guarantee; upper, "
               "the pair relaxation with communication after the flop, certified from its duals)"),
    "iterations": "column-generation iterations, LPs of the local search, or HiGHS iterations",
}
PRICE_COLUMNS = {
    "variant": COLUMNS["variant"], "team": COLUMNS["team"], "victim": COLUMNS["victim"],
    "communication_minus_correlated_lower": "certified lower end of value(communication) - value(correlated)",
    "communication_minus_correlated_upper": "certified upper end of the same difference",
    "correlated_minus_independent_lower": "certified lower end of value(correlated) - value(independent) (>= 0)",
    "correlated_minus_independent_upper": "certified upper end of the same difference",
    "price_of_communication_lower": ("lower end of value(communication) / value(correlated), where both "
                                     "brackets are positive (else empty)"),
    "price_of_communication_upper": "upper end of the same ratio",
    "price_of_correlation_lower": ("lower end of value(correlated) / value(independent), where both brackets are "
                                   "positive (else empty)"),
    "price_of_correlation_upper": "upper end of the same ratio",
}


def _team_text(team) -> str:
    return f"{team[0]},{team[1]}"


def _row(variant, team, regime, value, lower, upper, seconds, method, iterations) -> dict:
    victim = next(s for s in range(3) if s not in team)
    width = max(upper - lower, 0.0)      # a bracket closed to rounding can have lower - upper ~ 1e-15
    return {"variant": variant, "team": _team_text(team), "victim": victim, "regime": regime,
            "value": None if value is None else float(value), "lower": float(lower), "upper": float(upper),
            "width": float(width), "certified": bool(width <= CERTIFIED_WIDTH), "seconds": float(seconds),
            "method": method, "iterations": int(iterations)}


def _weak_start(variant, team) -> tuple:
    """The colluders' strategies of the weak-collusion solve (predictive CFR+ on the game with
    pooled payoffs): a start of the independent local search."""
    from guts.games.poker.mercer import solve

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        weak = solve(variant, 3, "pcfr+", target=MMH_WEAK_TARGET, collusion="weak", team=team)
    return tuple(weak.strategies[s] for s in team)


def _mmh_rows(variant, team) -> list:
    """MMH's rows: communication exact (the merged-team LP); the independent value bracketed by the
    local search's best profile (from uniform, the weak-collusion strategies and random starts) and
    the communication value; the correlated value by the same bracket (module docstring)."""
    from guts.engine.extensive import correlated_upper_bound, solve_team
    from guts.games.poker.mercer import build_game, variant_rules

    plain = build_game(variant_rules(variant, 3)).game
    com = solve_team(plain, team, "communication")
    t0 = time.perf_counter()
    start = _weak_start(variant, team)
    ind = solve_team(plain, team, "independent", communication=com, starts=[start],
                     time_limit=MMH_SEARCH_SECONDS, random_starts=MMH_RANDOM_STARTS, random_state=0)
    sec = time.perf_counter() - t0
    bound = correlated_upper_bound(plain, team, communicate_after=1)
    up = min(float(com.upper), float(bound["upper"]))
    return [_row(variant, team, "communication", com.value, com.lower, com.upper, com.seconds, "lp", com.num_iter),
            _row(variant, team, "correlated", None, ind.lower, up, sec + bound["seconds"], MMH_METHOD, 0),
            _row(variant, team, "independent", ind.value, ind.lower, min(float(ind.upper), up), sec,
                 "coordinate-ascent", ind.num_iter)]


def solve_case(case) -> list:
    """The three rows of one ``case = (variant, team)`` (module-level: cached by the sweep)."""
    from guts.games.poker.mercer.solve import solve_regimes

    variant, team = case[0], tuple(int(q) for q in case[1])
    if variant == "mmh":
        return _mmh_rows(variant, team)
    res = solve_regimes(variant, team)
    com, cor, ind = res["communication"], res["correlated"], res["independent"]
    # a product of behaviour strategies is a correlated strategy: the independent guarantee is a
    # lower bound of the correlated value too; correlated <= communication bounds from above
    cor_low = max(cor.certified_lower, ind.certified_lower)
    cor_up = min(cor.certified_upper, com.certified_upper)
    ind_up = min(ind.certified_upper, cor_up)
    return [_row(variant, team, "communication", com.team_value, com.certified_lower, com.certified_upper,
                 com.seconds, "lp", com.num_iter),
            _row(variant, team, "correlated", cor.team_value, cor_low, cor_up, cor.seconds, cor.method, cor.num_iter),
            _row(variant, team, "independent", ind.team_value, ind.certified_lower, ind_up, ind.seconds, ind.method,
                 ind.num_iter)]


def _ratio(lo_a, hi_a, lo_b, hi_b):
    """Bracket of a / b >= 1 for a >= b with a in [lo_a, hi_a], b in [lo_b, hi_b], both positive;
    (nan, nan) otherwise."""
    if not (lo_a > 0 and lo_b > 0):
        return float("nan"), float("nan")
    lo = max(lo_a / hi_b, 1.0)
    return lo, max(hi_a / lo_b, lo)


def _difference(lo_a, hi_a, lo_b, hi_b):
    """Bracket of a - b >= 0 for a >= b with a in [lo_a, hi_a], b in [lo_b, hi_b]."""
    lo = max(lo_a - hi_b, 0.0)
    return lo, max(hi_a - lo_b, lo)


def _tidy(df: pd.DataFrame) -> pd.DataFrame:
    """Width and the certified flag from the brackets (one rule for fresh and cached rows)."""
    df = df.copy()
    df["width"] = (df["upper"] - df["lower"]).clip(lower=0.0)
    df["certified"] = df["width"] <= CERTIFIED_WIDTH
    return df


def prices(df: pd.DataFrame) -> pd.DataFrame:
    """The prices of communication and correlation per (variant, seating), as certified brackets.

    Celli and Gatti (2018) measure the inefficiency of a weaker regime as a ratio of team
    values, value(communication) / value(correlated) and value(correlated) / value(independent),
    meaningful for positive values; poker values can be negative or zero, so the differences
    (communication - correlated, correlated - independent) are given for every seating and the
    ratios only where both brackets are positive.  Each is bracketed from the two values'
    certified brackets (interval arithmetic), using that both are at least 1 (differences at
    least 0): communication >= correlated >= independent.
    """
    out = []
    for (variant, team), g in df.groupby(["variant", "team"], sort=False):
        by = {r.regime: r for r in g.itertuples()}
        com, cor, ind = by["communication"], by["correlated"], by["independent"]
        pc = _ratio(com.lower, com.upper, cor.lower, cor.upper)
        pr = _ratio(cor.lower, cor.upper, ind.lower, ind.upper)
        dc = _difference(com.lower, com.upper, cor.lower, cor.upper)
        dr = _difference(cor.lower, cor.upper, ind.lower, ind.upper)
        out.append({"variant": variant, "team": team, "victim": int(com.victim),
                    "communication_minus_correlated_lower": dc[0], "communication_minus_correlated_upper": dc[1],
                    "correlated_minus_independent_lower": dr[0], "correlated_minus_independent_upper": dr[1],
                    "price_of_communication_lower": pc[0], "price_of_communication_upper": pc[1],
                    "price_of_correlation_lower": pr[0], "price_of_correlation_upper": pr[1]})
    return pd.DataFrame(out, columns=list(PRICE_COLUMNS))


def _check_variants(variants) -> list:
    if isinstance(variants, str):
        variants = [v.strip() for v in variants.split(",") if v.strip()]
    out = []
    for v in variants:
        if v not in VARIANTS:
            raise GutsInputError(f"unknown variant {v!r}; accepted: {', '.join(VARIANTS)}")
        if v not in out:
            out.append(v)
    if not out:
        raise GutsInputError("no variant given; accepted: smh, mmh (comma-separated)")
    return out


def run(variants=VARIANTS, out=AUTO, progress: bool = True, echo=None, cache="default") -> tuple:
    """Solve every (variant, seating) in the three regimes and write the two tables into ``out``.

    Parameters
    ----------
    variants : sequence of {"smh", "mmh"} or comma-separated str
    out : AUTO, path or None
        :func:`guts.studies.output.plan_output` (the full default run writes ``results/``).
    cache : "default", path or None
        Finished cases (:func:`guts.studies.sweep.run_sweep`); ``"default"`` is ``DEFAULT_CACHE``.

    Returns
    -------
    (DataFrame, DataFrame)
        The regimes table and the prices table.
    """
    variants = _check_variants(variants)
    params = {"variants": variants, "teams": [list(t) for t in TEAMS], "certified_width": CERTIFIED_WIDTH,
              "mmh_method": MMH_METHOD, "mmh_weak_target": MMH_WEAK_TARGET,
              "mmh_search_seconds": MMH_SEARCH_SECONDS, "mmh_random_starts": MMH_RANDOM_STARTS}
    full = {**params, "variants": list(VARIANTS)}
    plan = plan_output("mercer_regimes", out, params, full,
                       targets=["mercer_regimes.csv", "mercer_regimes.prices.csv"], echo=echo)
    cache = default_cache(cache, DEFAULT_CACHE)
    items = [[v, list(t)] for v in variants for t in TEAMS]
    rows = [r for case in run_sweep(solve_case, items, progress=progress, desc="mercer_regimes", cache=cache)
            for r in case]
    df = _tidy(pd.DataFrame(rows, columns=list(COLUMNS)))
    pr = prices(df)
    if plan.folder is not None:
        target, ptarget = plan.folder / "mercer_regimes.csv", plan.folder / "mercer_regimes.prices.csv"
        with publish(plan, parameters=params):
            write_csv(df, target, float_format="%.12g")
            write_meta(target, plan=plan, parameters=params, columns=COLUMNS,
                       rules="Ullman (2015) SMH / MMH, three players, fixed bets of 4, no check")
            write_csv(pr, ptarget, float_format="%.12g")
            write_meta(ptarget, plan=plan, parameters=params, columns=PRICE_COLUMNS,
                       definition=("differences for every seating; ratios (Celli and Gatti 2018) only where "
                                   "both brackets are positive; brackets by interval arithmetic"))
    return df, pr
