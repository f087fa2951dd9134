"""Suit isomorphism: the sequence-form LP of the quotient against the full game's, in one run.

    PYTHONPATH=. python benchmarks/isomorphism.py [--out results/benchmarks] [--big]

Writes ``<out>/isomorphism.csv`` (+ ``.meta.json``: the parameters and the command): per game
the counts before and after (:class:`guts.games.poker.isomorphism.IsomorphismStats`), the
seconds to build the full game and the quotient, the LP seconds of each and their ratio, both
values, the full game's exploitability of the expanded quotient strategy, and ``load``
(``os.getloadavg()[0]`` before the row: the machine may be shared).  The default games take
seconds on two cores; ``--big`` adds three-suit Rhode Island (its full LP: minutes).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guts.engine.extensive import exploitability, solve_lp  # noqa: E402
from guts.games.poker import build_poker, read_poker  # noqa: E402
from guts.games.poker.isomorphism import suit_quotient  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402

LEDUC3 = "\n".join(["GAMEDEF", "limit", "numPlayers = 2", "numRounds = 2", "blind = 1 1", "raiseSize = 2 4",
                    "firstPlayer = 1 1", "maxRaises = 2 2", "numSuits = 3", "numRanks = 3", "numHoleCards = 1",
                    "numBoardCards = 0 1", "END GAMEDEF", ""])
MERCER_SUITED = """players = 2
betting = "fixed"
evaluator = "mercer"
[deck]
ranks = 3
suits = 2
copies = 1
[[rounds]]
ante = 1
hole_cards = 2
bets = [4]
orbits = 1
[[rounds]]
board_cards = 2
"""


def rhode_island(ranks, suits, max_raises=1):
    from dataclasses import replace

    spec = replace(read_poker("rhode_island"), ranks=ranks, suits=suits)
    return replace(spec, rounds=tuple(replace(r, max_raises=max_raises) for r in spec.rounds))


def games(big: bool):
    out = [("leduc (3 ranks x 2 suits)", read_poker("leduc.game")),
           ("leduc (3 ranks x 3 suits)", read_poker(LEDUC3)),
           ("mercer SMH (suitless deck)", read_poker("mercer_smh")),
           ("mercer SMH rules, 3 ranks x 2 suits", read_poker(MERCER_SUITED)),
           ("rhode island (3 ranks x 2 suits, 1 raise)", rhode_island(3, 2))]
    if big:
        out.append(("rhode island (3 ranks x 3 suits, 1 raise)", rhode_island(3, 3)))
    return out


def measure(name, spec) -> dict:
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    full = build_poker(spec)
    t1 = time.perf_counter()
    q = suit_quotient(full)
    t2 = time.perf_counter()
    rq = solve_lp(q.game)
    t3 = time.perf_counter()
    rf = solve_lp(full)
    t4 = time.perf_counter()
    s = q.stats
    return {"game": name, "group_order": s.group_order,
            "info_sets_full": sum(s.info_sets_full), "info_sets_quotient": sum(s.info_sets_quotient),
            "deal_histories_full": s.deal_histories_full, "deal_histories_quotient": s.deal_histories_quotient,
            "terminal_deals_full": s.terminal_deals_full, "terminals_quotient": s.terminals_quotient,
            "build_full_s": t1 - t0, "build_quotient_s": t2 - t1, "lp_quotient_s": t3 - t2, "lp_full_s": t4 - t3,
            "lp_speedup": (t4 - t3) / (t3 - t2), "value_quotient": rq.value, "value_full": rf.value,
            "quotient_exploitability": rq.exploitability,
            "full_exploitability_of_expanded": exploitability(full, q.expand(rq.strategies)), "load": load}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--big", action="store_true")
    args = ap.parse_args(argv)
    solve_lp(build_poker(read_poker("leduc.game")))     # compile the kernels outside the timings
    rows = [measure(name, spec) for name, spec in games(args.big)]
    df = pd.DataFrame(rows)
    target = ensure_output_dir(args.out) / "isomorphism.csv"
    write_csv(df, target)
    write_meta(target, {"big": args.big, "games": [name for name, _ in games(args.big)]})
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
