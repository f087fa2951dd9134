"""Liar's Dice values (OpenSpiel's rules) into ``results/liars_dice.csv``.

One row per game ``(dice of player 0, dice of player 1, faces)``: the value for player 0 as a
float, the exact value as a fraction where the LP's rational reconstruction is verified by exact
best responses (:func:`guts.games.liars_dice.solve`), the certified bracket, the time and the
method.  Games whose sequence-form LP is out of reach (by :func:`guts.games.liars_dice.size`:
more than ``LP_MAX_NONZEROS`` payoff non-zeros or more memory than ``LP_MEMORY_LIMIT``) are
solved by CFR+ (Tammelin, *Solving Large Imperfect Information Games Using CFR+*, 2014) for a
fixed number of iterations; their bracket ``[-BR_1, BR_0]`` comes from the best responses to
the average strategies.

    python experiments/liars_dice_table.py                      # the full table (~7 min on a loaded 2-core machine)
    python experiments/liars_dice_table.py --cases 1v1:2-6      # a partial run, to results/runs/...

Each case is cached (``results/.cache/liars_dice``) as soon as it is done, so the table can be
built case by case and an interrupted run resumes.
"""
from __future__ import annotations

import time
import warnings
from pathlib import Path

import pandas as pd

from guts.engine.tolerances import LP_MEMORY_LIMIT
from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.liars_dice import liars_dice, size, solve
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta
from guts.studies.sweep import default_cache, run_sweep

__all__ = ["DEFAULT_CASES", "parse_cases", "solve_case", "run", "LP_MAX_NONZEROS", "CFR_ITERATIONS",
           "COLUMNS", "DEFAULT_CACHE"]

#: The full table: every 1 v 1 game to 6 faces, two dice against one to 4 faces (both seatings),
#: 2 v 2 to 3 faces, exactly; 2 v 1 and 1 v 2 with 6 faces by CFR+ (their LP is out of reach).
DEFAULT_CASES = "1v1:2-6,2v1:2-4,1v2:2-4,2v2:2-3,2v1:6,1v2:6"
#: Largest sequence-form LP (payoff non-zeros) solved by ``method="auto"``: 1 v 1 with 6 faces has
#: 1.5e5 (seconds); 2 v 1 with 5 faces 2.5e6 (interior point, minutes); 2 v 1 with 6 faces 3.3e7
#: (an estimated 11.6 GiB, beyond this machine).
LP_MAX_NONZEROS = 1_000_000
#: CFR+ iterations of a game beyond the LP (2 v 1, 6 faces: ~0.28 s each on a shared 2-core machine;
#: 3000 close the bracket to below 1e-4, 150 left 6e-3).
CFR_ITERATIONS = 3000
#: Where finished cases are kept (``cache="default"``).
DEFAULT_CACHE = Path("results") / ".cache" / "liars_dice"

COLUMNS = {
    "dice": "dice of player 0 v dice of player 1",
    "faces": "faces per die (the highest is wild)",
    "value": "player 0's value (float; the LP's, or CFR+'s average strategies')",
    "exact_value": "player 0's value as a fraction, verified by exact best responses (empty: not reached)",
    "lower": "certified lower bound of the value (exact bracket as floats, or -BR_1 of CFR+'s average)",
    "upper": "certified upper bound of the value (BR_0)",
    "exploitability": "of the float strategies (mean best-response gain)",
    "seconds": "solve time (LP or CFR+), excluding the exact certificate and the tree build",
    "exact_seconds": "rational reconstruction and exact best responses",
    "build_seconds": "building the game",
    "method": "lp (sequence-form LP + exact certificate) or cfr+",
    "iterations": "LP: HiGHS iterations; CFR+: iterations",
    "infosets": "information sets of both players (OpenSpiel's count)",
    "lp_nonzeros": "payoff non-zeros of the sequence-form LP",
    "lp_gib": "the LP's estimated memory (GiB, the engine's calibrated estimate)",
}


def _range(text, what):
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-"))
            return list(range(a, b + 1))
        return [int(text)]
    except ValueError:
        raise GutsInputError(f"{what} {text!r} must be an integer or a range a-b") from None


def parse_cases(text) -> list:
    """``"1v1:2-6,2v1:6:cfr+"`` -> ``[(1, 1, 2, "auto"), ..., (2, 1, 6, "cfr+")]``.

    Each case is ``<d0>v<d1>:<faces or a-b>[:method]`` with method ``auto`` (default: the LP
    when it is within ``LP_MAX_NONZEROS`` and ``LP_MEMORY_LIMIT``, else CFR+), ``lp`` or ``cfr+``.
    """
    if isinstance(text, (list, tuple)):
        return [tuple(c) for c in text]
    out = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        bits = part.split(":")
        if len(bits) not in (2, 3) or "v" not in bits[0].lower():
            raise GutsInputError(f"cases must look like '1v1:2-6' or '2v1:6:cfr+'; got {part!r}")
        try:
            d0, d1 = (int(x) for x in bits[0].lower().split("v"))
        except ValueError:
            raise GutsInputError(f"cases must look like '1v1:2-6' or '2v1:6:cfr+'; got {part!r}") from None
        method = bits[2] if len(bits) == 3 else "auto"
        if method not in ("auto", "lp", "cfr+"):
            raise GutsInputError(f"case {part!r}: method {method!r}; accepted: auto, lp, cfr+")
        for f in _range(bits[1], "faces"):
            size((d0, d1), f)            # validates dice and faces
            out.append((d0, d1, f, method))
    if not out:
        raise GutsInputError(f"no cases in {text!r}")
    return out


def solve_case(case, cfr_iterations: int = CFR_ITERATIONS) -> dict:
    """One row of the table for ``case = (d0, d1, faces, method)`` (module-level: cached by the sweep)."""
    d0, d1, faces, method = case
    s = size((d0, d1), faces)
    if method == "auto":
        method = "lp" if s.lp_nonzeros <= LP_MAX_NONZEROS and s.lp_bytes <= LP_MEMORY_LIMIT else "cfr+"
    t0 = time.perf_counter()
    game = liars_dice((d0, d1), faces)
    build = time.perf_counter() - t0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # the bracket says how far CFR+ got
        if method == "lp":
            r = solve((d0, d1), faces, game=game)
        else:
            r = solve((d0, d1), faces, game=game, method="cfr+", max_iterations=cfr_iterations)
    return {"dice": f"{d0}v{d1}", "faces": faces, "value": float(r.value),
            "exact_value": "" if r.exact_value is None else str(r.exact_value),
            "lower": float(r.lower), "upper": float(r.upper), "exploitability": float(r.exploitability),
            "seconds": float(r.seconds), "exact_seconds": float(r.exact_seconds), "build_seconds": build,
            "method": method, "iterations": int(r.num_iter), "infosets": int(sum(s.infosets)),
            "lp_nonzeros": int(s.lp_nonzeros), "lp_gib": s.lp_bytes / 2**30}


def _case_row(item):
    case, iters = item
    return solve_case(tuple(case), iters)


def run(cases=DEFAULT_CASES, out=AUTO, cfr_iterations: int = CFR_ITERATIONS, progress: bool = True, echo=None,
        cache="default") -> pd.DataFrame:
    """Solve every case and write ``liars_dice.csv`` (+ ``.meta.json``, one published set) into ``out``.

    Parameters
    ----------
    cases : str or list
        See :func:`parse_cases`.
    out : AUTO, path or None
        :func:`guts.studies.output.plan_output` (the full default run writes ``results/``).
    cfr_iterations : int
        CFR+ iterations of the games beyond the LP.
    cache : "default", path or None
        Finished cases (:func:`guts.studies.sweep.run_sweep`); ``"default"`` is ``DEFAULT_CACHE``.
    """
    items = parse_cases(cases)
    params = {"cases": [list(c) for c in items], "cfr_iterations": int(cfr_iterations)}
    full = {"cases": [list(c) for c in parse_cases(DEFAULT_CASES)], "cfr_iterations": CFR_ITERATIONS}
    plan = plan_output("liars_dice", out, params, full, targets=["liars_dice.csv"], echo=echo)
    cache = default_cache(cache, DEFAULT_CACHE)
    rows = run_sweep(_case_row, [(list(c), int(cfr_iterations)) for c in items], progress=progress,
                     desc="liars_dice", cache=cache)
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    if plan.folder is not None:
        target = plan.folder / "liars_dice.csv"
        with publish(plan, parameters=params):
            write_csv(df, target, float_format="%.12g")
            write_meta(target, plan=plan, parameters=params, columns=COLUMNS,
                       lp_max_nonzeros=LP_MAX_NONZEROS, lp_memory_limit=LP_MEMORY_LIMIT,
                       rules="OpenSpiel liars_dice (bidding_rule reset-face, highest face wild)")
    return df
