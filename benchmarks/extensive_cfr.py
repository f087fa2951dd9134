"""Extensive-form engine against OpenSpiel, measured in one run on this machine.

    PYTHONPATH=. python benchmarks/extensive_cfr.py [--quick] [--out results/benchmarks] [--check-every 10]

Writes ``<out>/extensive.csv`` (+ ``.meta.json``) and prints a Markdown
table (pasted into docs/engine.md).  Sections:

1. ``leduc_race``: Leduc hold'em, CFR+ to exploitability <= 1e-3.  OpenSpiel's C++
   ``pyspiel.CFRPlusSolver`` (its exploitability, ``pyspiel.exploitability`` of
   ``average_policy()``, checked every k iterations) against ``cfr_plus`` (CFR+ and DCFR,
   exploitability checked every k iterations by our best-response pass).  OpenSpiel's
   time counts ONLY its ``evaluate_and_update_policy`` calls (its checks excluded); ours
   counts everything, checks included: the ratio is conservative.  The final
   exploitability of our policy is also measured by OpenSpiel (converted policy).
2. ``leduc_lp``: the exact sequence-form LP on Leduc (HiGHS), with its certificate;
   ``raise_lp``: the LP of a synthetic one-street raise game shaped like seed 001's
   (169 hand classes, 40 raise sizes): wall and CPU seconds.
3. ``scale``: time per CFR+ iteration and memory for poker-shaped games of growing size
   (Leduc rules with larger decks and 3 players): (public node x deal) pairs from 1e5
   to ~4e7 (the last one has the size of seed 004's 3-player Mercer hold'em: ~3e3
   deals, ~1e4 public nodes).  Memory: bytes of the compiled flat form and the peak of
   numpy allocations (tracemalloc) during the iterations.
4. ``to_target``: the Mercer-size game, CFR+ and DCFR to exploitability <= 0.01
   (NashConv / 3), checks every 25 iterations included.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guts.engine.extensive import cfr_plus, solve_lp  # noqa: E402
from guts.engine.extensive._kernels import values_and_br  # noqa: E402
from guts.engine.extensive.strategies import uniform_flat  # noqa: E402
from guts.games.toy import leduc_poker  # noqa: E402
from guts.engine.extensive import openspiel_link, to_openspiel_policy  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402

TARGET = 1e-3


def openspiel_policy(game, strategies, osg):
    """Our Leduc strategies as an OpenSpiel TabularPolicy (information-state strings)."""
    cards = game.deals.type_labels[0]
    link = openspiel_link(game, osg, deal_types=lambda dealt: dealt,
                          label=lambda state, a: cards[a] if state.is_chance_node() else "fcr"[a])
    return to_openspiel_policy(game, strategies, osg, link=link)


def leduc_race(k, max_iterations):
    import pyspiel

    osg = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(osg)
    t_iter = t_eval = 0.0
    it = 0
    expl = np.inf
    while it < max_iterations:
        t = time.perf_counter()
        solver.evaluate_and_update_policy()
        t_iter += time.perf_counter() - t
        it += 1
        if it % k == 0:
            t = time.perf_counter()
            expl = pyspiel.exploitability(osg, solver.average_policy())
            t_eval += time.perf_counter() - t
            if expl <= TARGET:
                break
    rows = [dict(section="leduc_race", game="leduc_poker", solver="OpenSpiel CFRPlusSolver (C++)",
                 iterations=it, seconds=t_iter, seconds_with_checks=t_iter + t_eval,
                 exploitability=expl, openspiel_exploitability=expl,
                 seconds_per_iteration=t_iter / it, speedup_vs_openspiel=1.0)]
    game = leduc_poker()
    cfr_plus(game, max_iterations=3)  # numba JIT compile outside the timing
    for variant in ("cfr+", "dcfr"):
        r = cfr_plus(game, target=TARGET, report_every=k, variant=variant,
                     max_iterations=max_iterations)
        from open_spiel.python.algorithms import exploitability as os_exploitability

        os_expl = os_exploitability.exploitability(osg, openspiel_policy(game, r.strategies, osg))
        rows.append(dict(section="leduc_race", game="leduc_poker", solver=f"guts cfr_plus variant={variant}",
                         iterations=r.num_iter, seconds=r.seconds, seconds_with_checks=r.seconds,
                         exploitability=r.exploitability, openspiel_exploitability=os_expl,
                         seconds_per_iteration=r.seconds / r.num_iter,
                         speedup_vs_openspiel=t_iter / r.seconds))
    return rows


def leduc_lp():
    game = leduc_poker()
    r = solve_lp(game)
    return [dict(section="leduc_lp", game="leduc_poker", solver="guts solve_lp (HiGHS)",
                 iterations=r.num_iter, seconds=r.seconds, seconds_with_checks=r.seconds,
                 exploitability=r.exploitability, value=r.value)]


def raise_game(types, sizes, seed=0):
    """Synthetic one-street raise game shaped like seed 001's (169 hand classes): the
    first player folds (-0.5) or raises one of ``sizes`` amounts, the second folds or
    calls; random deal weights and a random antisymmetric equity table (shared)."""
    from guts.engine.extensive import Deals, Decision, PublicTreeGame, Terminal

    rng = np.random.default_rng(seed)
    t1, t2 = np.meshgrid(np.arange(types), np.arange(types), indexing="ij")
    w = rng.random(types * types) + 0.1
    eq = rng.random((types, types))
    eq = (eq + 1 - eq.T) / 2
    np.fill_diagonal(eq, 0.5)
    share = np.stack([eq.ravel(), 1 - eq.ravel()])
    acts = {"f": Terminal([-0.5, 0.5])}
    for s in np.linspace(1, 100, sizes):
        acts[f"r{s:.2f}"] = Decision(1, {"f": Terminal([1.0, -1.0]),
                                         "c": Terminal.showdown([1 + s, 1 + s], share)})
    return PublicTreeGame(Decision(0, acts), Deals(w / w.sum(), np.stack([t1.ravel(), t2.ravel()])), 2,
                          name=f"raise game {types} types x {sizes} sizes")


def raise_lp(types, sizes):
    from guts.engine.extensive.lp import sequence_form

    game = raise_game(types, sizes)
    nnz = sequence_form(game)[0].nnz
    t = time.process_time()
    r = solve_lp(game)
    cpu = time.process_time() - t
    return [dict(section="raise_lp", game=game.name, solver="guts solve_lp (HiGHS, auto)",
                 iterations=r.num_iter, seconds=r.seconds, seconds_with_checks=r.seconds, cpu_seconds=cpu,
                 exploitability=r.exploitability, value=r.value, lp_nonzeros=nnz)]


def compiled_bytes(cg):
    total = 0
    for v in vars(cg).values():
        if isinstance(v, np.ndarray):
            total += v.nbytes
    total += sum(t.nbytes for t in cg.tables)
    for pt in cg.players:
        total += sum(v.nbytes for v in vars(pt).values() if isinstance(v, np.ndarray))
    for c in cg.chunks:
        total += sum(v.nbytes for v in vars(c).values() if isinstance(v, np.ndarray))
        total += sum(m.data.nbytes + m.indices.nbytes + m.indptr.nbytes for m in c.scatter)
    fused = getattr(cg, "_fused", None) or {}          # the numba kernel's permuted copies
    for v in fused.values():
        if isinstance(v, np.ndarray):
            total += v.nbytes
    for per in fused.get("per", []):
        total += sum(v.nbytes for v in per.values())
    return total


def scale_row(label, make, iterations):
    t = time.perf_counter()
    game = make()
    build = time.perf_counter() - t
    cg = game.compiled
    cfr_plus(game, max_iterations=1, report_every=1)                     # caches + JIT
    t = time.perf_counter()
    cfr_plus(game, max_iterations=iterations, report_every=10 ** 9)      # one final check only
    total = time.perf_counter() - t
    flat = [uniform_flat(pt) for pt in cg.players]
    checks = []
    for _ in range(3):
        t = time.perf_counter()
        values_and_br(cg, flat)       # what one exploitability check costs
        checks.append(time.perf_counter() - t)
    check = float(np.median(checks))
    per_iter = max(total - check, 0.0) / iterations
    tracemalloc.start()
    cfr_plus(game, max_iterations=2, report_every=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return dict(section="scale", game=label, solver="guts cfr_plus variant=cfr+",
                iterations=iterations, seconds=total, seconds_per_iteration=per_iter,
                seconds_per_check=check, build_seconds=build,
                players=game.num_players, deals=cg.num_deals, public_nodes=cg.num_nodes,
                terminals=cg.num_terminals, node_deal_pairs=cg.num_nodes * cg.num_deals,
                infosets=int(sum(p.num_decisions * p.num_types for p in cg.players)),
                compiled_mb=compiled_bytes(cg) / 2 ** 20, peak_numpy_mb=peak / 2 ** 20)


def markdown(df):
    """Markdown table without the optional ``tabulate`` dependency."""
    def fmt(v):
        if isinstance(v, (float, np.floating)):
            return "" if np.isnan(v) else f"{v:.4g}"
        return str(v)

    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def to_target(label, make, target, k):
    """Wall time of CFR+ and DCFR to exploitability <= target (checks every k included)."""
    game = make()
    cfr_plus(game, max_iterations=1)
    rows = []
    for variant in ("cfr+", "dcfr"):
        r = cfr_plus(game, target=target, report_every=k, variant=variant,
                     max_iterations=100_000)
        rows.append(dict(section="to_target", game=label, solver=f"guts cfr_plus variant={variant}",
                         iterations=r.num_iter, seconds=r.seconds, seconds_with_checks=r.seconds,
                         exploitability=r.exploitability, target=target,
                         seconds_per_iteration=r.seconds / r.num_iter))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller scale section (CI smoke run)")
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--check-every", type=int, default=10, help="k: iterations between exploitability checks")
    ap.add_argument("--max-iterations", type=int, default=20000)
    args = ap.parse_args(argv)
    out = ensure_output_dir(args.out)
    rows = []
    rows += leduc_race(args.check_every, args.max_iterations)
    rows += leduc_lp()
    rows += raise_lp(40, 10) if args.quick else raise_lp(169, 40)
    games = [
        ("leduc 2p, 12 cards", lambda: leduc_poker(2, ranks=6), 50),
        ("leduc 2p, 20 cards", lambda: leduc_poker(2, ranks=5, suits=4), 20),
        ("leduc 3p, 8 cards", lambda: leduc_poker(3), 10),
    ]
    if not args.quick:
        games.append(("leduc 3p, 15 cards (Mercer-size)", lambda: leduc_poker(3, ranks=5, suits=3), 5))
    for label, make, iters in games:
        rows.append(scale_row(label, make, iters))
    if not args.quick:
        rows += to_target("leduc 3p, 15 cards (Mercer-size)", lambda: leduc_poker(3, ranks=5, suits=3), 0.01, 25)
    df = pd.DataFrame(rows)
    target = Path(out) / "extensive.csv"
    write_csv(df, target)
    meta = write_meta(target, dict(quick=args.quick, check_every=args.check_every, target=TARGET,
                                   max_iterations=args.max_iterations))
    for path in (target, meta):      # mkstemp creates 0600 files; results are shared (0644)
        os.chmod(path, 0o644)
    race = df[df.section.isin(["leduc_race", "leduc_lp", "raise_lp"])][["section", "game", "solver", "iterations", "seconds", "seconds_with_checks",
                                      "exploitability", "openspiel_exploitability", "speedup_vs_openspiel"]]
    print(markdown(race))
    print()
    tt = df[df.section == "to_target"]
    if len(tt):
        print(markdown(tt[["game", "solver", "iterations", "seconds", "exploitability"]]))
        print()
    sc = df[df.section == "scale"][["game", "players", "deals", "public_nodes", "node_deal_pairs", "infosets",
                                    "seconds_per_iteration", "seconds_per_check", "compiled_mb", "peak_numpy_mb"]]
    print(markdown(sc))


if __name__ == "__main__":
    main()
