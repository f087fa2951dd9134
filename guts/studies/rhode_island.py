"""Rhode Island hold'em's value, certified, into ``results/rhode_island.csv``.

Rhode Island hold'em (Shi and Littman, *Abstraction methods for game theoretic poker*, 2001;
the rules of Gilpin and Sandholm, *Lossless abstraction of imperfect information games*,
J. ACM 2007, shipped as ``rhode_island.toml``) is solved on the suit quotient of its public
tree (:mod:`guts.games.poker.public_quotient`: 336 thousand public nodes against the full
game's 2.7 million, 6.7 million information sets against 54 million), by CFR's discounted
variant (DCFR, Brown and Sandholm, *Solving imperfect-information games via discounted regret
minimization*, AAAI 2019) with the two-player showdown pass of :mod:`guts.engine.extensive._showdown`.
The bracket ``[-BR_1, BR_0]`` of the first player's value comes from the exact best responses
to the average strategies, computed on the quotient, which equal the full game's.

The solve keeps a checkpoint (``results/.cache/rhode_island.ckpt``) and resumes from it, so a
longer bracket is a second call:

    python experiments/rhode_island.py                             # 85 minutes (the committed run)
    python experiments/rhode_island.py --time-limit 600            # 10 minutes more
"""
from __future__ import annotations

import time
import warnings
from pathlib import Path

import pandas as pd

from guts.engine.extensive import cfr_plus
from guts.errors import ConvergenceWarning
from guts.games.poker import build_poker, read_poker
from guts.games.poker.build import count_poker
from guts.studies.output import AUTO, plan_output, publish, write_csv, write_meta

__all__ = ["run", "solve", "COLUMNS", "DEFAULT_CHECKPOINT", "VARIANT", "TIME_LIMIT", "ANTE"]

#: The schedule: DCFR took the fewest iterations to 1e-3 and 1e-5 on Leduc and 3P-MMH
#: (docs/performance.md, "CFR hyperparameter schedules").
VARIANT = "dcfr"
#: Seconds of solving per call (the checkpoint carries the solve over calls): the committed
#: run's 85 minutes (a bracket of 2.3e-5 antes; 1e-4 antes after about 43 minutes at load 3-4).
TIME_LIMIT = 5100.0
#: Iterations between two exploitability checks (a check costs about two iterations).
REPORT_EVERY = 50
#: Where the solver's state is kept between calls.
DEFAULT_CHECKPOINT = Path("results") / ".cache" / "rhode_island.ckpt"
#: The ante of the rules (chips): the bracket's width is also given in antes.
ANTE = 5.0

COLUMNS = {
    "value": "player 1's value (chips) of the average strategies",
    "lower": "certified lower bound of the game's value (-BR of player 2 to player 1's average)",
    "upper": "certified upper bound (BR of player 1 to player 2's average)",
    "width_chips": "upper - lower (chips)",
    "width_antes": "upper - lower in antes (5 chips)",
    "iterations": "DCFR iterations since the start of the solve (over every resumed call)",
    "seconds": "solving seconds since the start (over every call; checks included)",
    "build_seconds": "building the quotient (this call)",
    "public_nodes": "public nodes of the quotient",
    "infosets": "information sets of the quotient (both players)",
    "full_public_nodes": "public nodes of the full game (counted, not built)",
    "variant": "the CFR variant",
}


def solve(*, time_limit: float = TIME_LIMIT, variant: str = VARIANT, checkpoint=DEFAULT_CHECKPOINT,
          report_every: int = REPORT_EVERY, progress: bool = False, spec=None):
    """(solution, quotient game, build seconds): the quotient solved for ``time_limit`` more
    seconds, from ``checkpoint`` if it exists (then written back). ``spec``: another
    description (a smaller deck, for tests); default the shipped ``rhode_island``."""
    t0 = time.perf_counter()
    q = build_poker(read_poker("rhode_island") if spec is None else spec, isomorphism="public")
    build = time.perf_counter() - t0
    ck = Path(checkpoint) if checkpoint is not None else None
    if ck is not None:
        ck.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)      # no target: the bracket is the answer
        r = cfr_plus(q, variant=variant, time_limit=time_limit, max_iterations=10**6,
                     report_every=report_every, progress=progress, checkpoint=ck, checkpoint_every=300,
                     resume=ck if ck is not None and ck.exists() else None)
    return r, q, build


def run(out=AUTO, *, time_limit: float = TIME_LIMIT, variant: str = VARIANT, checkpoint=DEFAULT_CHECKPOINT,
        progress: bool = True, echo=None, spec=None) -> pd.DataFrame:
    """Solve (resuming ``checkpoint``) and write ``rhode_island.csv`` + meta and the checks'
    history ``rhode_island_history.csv`` into ``out``. ``spec``: as :func:`solve`."""
    params = {"variant": variant, "deck": "52 cards" if spec is None else f"{spec.ranks} ranks x {spec.suits} suits"}
    plan = plan_output("rhode_island", out, params, {"variant": VARIANT, "deck": "52 cards"},
                       targets=["rhode_island.csv", "rhode_island_history.csv"], echo=echo)
    r, q, build = solve(time_limit=time_limit, variant=variant, checkpoint=checkpoint, progress=progress, spec=spec)
    br = r.details.br_values
    lower, upper = -float(br[1]), float(br[0])
    cg = q.compiled
    row = {
        "value": float(r.value), "lower": lower, "upper": upper, "width_chips": upper - lower,
        "width_antes": (upper - lower) / ANTE, "iterations": int(r.num_iter), "seconds": float(r.seconds),
        "build_seconds": build, "public_nodes": int(cg.num_nodes),
        "infosets": int(sum(pt.num_decisions * pt.num_types for pt in cg.players)),
        "full_public_nodes": int(count_poker(q.poker_spec).public_states),
        "variant": variant,
    }
    df = pd.DataFrame([row], columns=list(COLUMNS))
    hist = pd.DataFrame(list(r.details.history), columns=["iteration", "exploitability", "seconds"])
    if plan.folder is not None:
        target = plan.folder / "rhode_island.csv"
        with publish(plan, parameters=params):
            write_csv(df, target, float_format="%.10g")
            write_meta(target, plan=plan, parameters=params, columns=COLUMNS, time_limit_this_call=time_limit,
                       rules="guts/games/poker/descriptions/rhode_island.toml (Gilpin and Sandholm 2007)")
            h = plan.folder / "rhode_island_history.csv"
            write_csv(hist, h, float_format="%.10g")
            write_meta(h, plan=plan, parameters=params,
                       columns={"iteration": "DCFR iteration", "exploitability": "NashConv / 2 of the average (chips)",
                                "seconds": "solving seconds since the start"})
    return df
