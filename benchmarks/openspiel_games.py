"""Imported games: our solvers against OpenSpiel's C++ CFR+ and pygambit's LP, one run.

    PYTHONPATH=. python benchmarks/openspiel_games.py [--out results/benchmarks] [--quick]

Writes ``<out>/openspiel_games.csv`` (+ ``.meta.json``) and prints Markdown tables.

1. ``race``: games imported by ``from_openspiel`` (Kuhn 3 players, Leduc, Liar's Dice with
   3-sided dice, a ``universal_poker`` limit game with 5 ranks): OpenSpiel's C++
   ``pyspiel.CFRPlusSolver`` to NashConv / n <= target (its ``pyspiel.nash_conv`` checked
   every k iterations; only its ``evaluate_and_update_policy`` time counted) against our
   ``cfr_plus`` (CFR+ and DCFR; our checks every k iterations included).  Ours is timed
   *cold* (a fresh process: imports done, numba compiling or loading its on-disk cache
   during the first call included) and *warm* (the same call again in that process).
   The numba cache is the ``compile_cache`` column: ``default`` (whatever numba's default cache
   holds: filled by earlier runs of the same code, else empty); with ``--cold-cache``, each variant runs first in
   a fresh process whose ``NUMBA_CACHE_DIR`` is a new empty folder (``empty``: a true first
   compile), then in a second fresh process on that folder, now filled (``filled``).
   ``cpu_seconds`` / ``cpu_speedup_vs_openspiel``: the same with the processes' CPU time (all
   their threads), the fairer ratio on a shared, loaded machine, where the wall times mostly
   measure the wait for a core.
   ``openspiel_nash_conv`` is OpenSpiel's NashConv of our final policy (converted with
   ``to_openspiel_policy``).  The import time (``from_openspiel``) is reported apart.
2. ``lp``: the sequence-form LP of ``.efg`` files of growing size (written by
   ``write_efg``): ours (``read_efg`` + ``solve_lp``) against pygambit's ``lp_solve``
   (floating point), each pygambit solve in a subprocess with a 60 s limit; the largest
   file it solves in time is the last row with a pygambit time.  Our LP time is in this
   process after the race section (numba kernels of the certificate already compiled,
   except on the first row) and includes reading the file.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402

UNIVERSAL = ("universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,raiseSize=2 4,"
             "firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks={ranks},numHoleCards=1,"
             "numBoardCards=0 1,stack=100 100)")
GAMES = [("kuhn_poker(players=3)", 1e-3), ("leduc_poker", 1e-3), ("liars_dice(dice_sides=3)", 1e-3),
         (UNIVERSAL.format(ranks=5), 1e-3)]


def openspiel_race(name, target, k, max_iterations):
    import pyspiel

    osg = pyspiel.load_game(name)
    n = osg.num_players()
    solver = pyspiel.CFRPlusSolver(osg)
    t_iter = c_iter = 0.0
    it, expl = 0, np.inf
    while it < max_iterations:
        t, c = time.perf_counter(), time.process_time()
        solver.evaluate_and_update_policy()
        t_iter += time.perf_counter() - t
        c_iter += time.process_time() - c
        it += 1
        if it % k == 0:
            expl = pyspiel.nash_conv(osg, solver.average_policy()) / n
            if expl <= target:
                break
    return dict(solver="OpenSpiel CFRPlusSolver (C++)", iterations=it, seconds=t_iter, cpu_seconds=c_iter,
                exploitability=expl, openspiel_nash_conv=expl * n)


_OURS = r"""
import json, sys, time, warnings
sys.path.insert(0, {root!r})
import pyspiel
from open_spiel.python.algorithms import exploitability as E
from guts.engine.extensive import cfr_plus, from_openspiel, to_openspiel_policy
osg = pyspiel.load_game({name!r})
t = time.perf_counter(); g = from_openspiel(osg); t_import = time.perf_counter() - t
out = []
for variant in ({variant!r},):
    for temp in ("cold", "warm"):
        t, c = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = cfr_plus(g, variant=variant, target={target!r}, report_every={k!r},
                         max_iterations={max_iterations!r})
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        nc = E.nash_conv(osg, to_openspiel_policy(g, r.strategies)) if temp == "warm" else float("nan")
        out.append(dict(solver=f"guts cfr_plus variant={{variant}} ({{temp}})", iterations=r.num_iter,
                        seconds=wall, cpu_seconds=cpu, exploitability=r.exploitability, openspiel_nash_conv=nc,
                        import_seconds=t_import, form=type(g).__name__))
print(json.dumps(out))
"""


def ours_race(name, target, k, max_iterations, cold_cache=False):
    """One fresh process per variant, so that each variant's first call is really cold; with
    ``cold_cache``, two per variant: numba's cache folder new and empty, then filled by the first."""
    rows = []
    for variant in ("cfr+", "dcfr"):
        code = _OURS.format(root=str(ROOT), name=name, target=target, k=k, max_iterations=max_iterations,
                            variant=variant)
        with tempfile.TemporaryDirectory() as cache:
            for state in (("empty", "filled") if cold_cache else ("default",)):
                env = dict(os.environ, NUMBA_CACHE_DIR=cache) if cold_cache else None
                res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
                if res.returncode:
                    raise RuntimeError(f"our {variant} run failed:\n{res.stderr}")
                got = json.loads(res.stdout.strip().splitlines()[-1])
                for r in got:
                    r["compile_cache"] = state
                    if cold_cache:
                        r["solver"] = r["solver"].replace(")", f", compile cache {state})")
                rows += got
    return rows


_GAMBIT = r"""
import sys, time, pygambit as gbt
G = gbt.read_efg({path!r})
t = time.perf_counter()
eq = gbt.nash.lp_solve(G, rational=False).equilibria[0]
print(time.perf_counter() - t, float(eq.payoff(list(G.players)[0])))
"""


def lp_rows(folder, quick):
    from guts.engine.extensive import from_openspiel, read_efg, solve_lp, write_efg

    small = UNIVERSAL.format(ranks=2).replace("maxRaises=2 2", "maxRaises=1 1")
    names = ["kuhn_poker", "liars_dice(dice_sides=3)", small, "leduc_poker", UNIVERSAL.format(ranks=4)]
    if not quick:
        names += [UNIVERSAL.format(ranks=5), UNIVERSAL.format(ranks=6)]
    rows = []
    for name in names:
        path = Path(folder) / "efg_lp_game.efg"
        write_efg(from_openspiel(name), path)
        nodes = sum(1 for line in open(path) if line.strip()[:1] in ("c", "p", "t"))
        t = time.perf_counter()
        g = read_efg(path)
        r = solve_lp(g)
        ours = time.perf_counter() - t
        t = time.perf_counter()
        try:
            res = subprocess.run([sys.executable, "-c", _GAMBIT.format(path=str(path))], capture_output=True,
                                 text=True, timeout=60, check=True)
            gt, gv = map(float, res.stdout.split())
        except subprocess.TimeoutExpired:
            gt, gv = float("nan"), float("nan")
        gwall = time.perf_counter() - t        # incl. interpreter start and reading the file
        rows.append(dict(section="lp", game=name, efg_nodes=nodes, solver="guts read_efg + solve_lp",
                         seconds=ours, value=r.value, exploitability=r.exploitability,
                         pygambit_seconds=gt, pygambit_wall_seconds=gwall, pygambit_value=gv))
        os.unlink(path)
        if np.isnan(gt):
            break                      # pygambit could not solve it within 60 s: larger ones neither
    return rows


def markdown(df):
    cols = list(df.columns)
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        out.append("| " + " | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in r) + " |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="smaller LP section")
    ap.add_argument("--check-every", type=int, default=10)
    ap.add_argument("--max-iterations", type=int, default=20000)
    ap.add_argument("--cold-cache", action="store_true",
                    help="also time our first call with an empty numba cache (a true first compile)")
    ap.add_argument("--only", default=None, metavar="NAME",
                    help="race only the games whose name contains NAME, no LP section; writes "
                         "openspiel_games_NAME.csv")
    args = ap.parse_args(argv)
    out = ensure_output_dir(args.out)
    load = os.getloadavg()
    rows = []
    for name, target in GAMES:
        if args.only is not None and args.only not in name:
            continue
        os_row = openspiel_race(name, target, args.check_every, args.max_iterations)
        rows.append(dict(section="race", game=name, target=target, **os_row))
        for r in ours_race(name, target, args.check_every, args.max_iterations, args.cold_cache):
            r["speedup_vs_openspiel"] = os_row["seconds"] / r["seconds"]
            r["cpu_speedup_vs_openspiel"] = os_row["cpu_seconds"] / r["cpu_seconds"]
            rows.append(dict(section="race", game=name, target=target, **r))
    if args.only is None:
        rows += lp_rows(out, args.quick)
    df = pd.DataFrame(rows)
    target = Path(out) / ("openspiel_games.csv" if args.only is None
                          else f"openspiel_games_{args.only}.csv")
    write_csv(df, target)
    write_meta(target, dict(quick=args.quick, check_every=args.check_every, max_iterations=args.max_iterations,
                            cold_cache=args.cold_cache, only=args.only),
               loadavg_before=list(load), loadavg_after=list(os.getloadavg()))
    race = df[df.section == "race"][["game", "solver", "iterations", "seconds", "exploitability",
                                     "openspiel_nash_conv", "speedup_vs_openspiel", "cpu_seconds",
                                     "cpu_speedup_vs_openspiel", "import_seconds"]]
    race = race.assign(game=race.game.str.replace(r"universal_poker\(.*numRanks=(\d+).*", r"universal_poker limit, \1 ranks", regex=True))
    print(markdown(race))
    print()
    lp = df[df.section == "lp"].reindex(columns=["game", "efg_nodes", "seconds", "value", "exploitability",
                                                  "pygambit_seconds", "pygambit_value"])
    print(markdown(lp.assign(game=lp.game.str.replace(r"universal_poker\(.*numRanks=(\d+).*", r"universal_poker limit, \1 ranks", regex=True))))
    print(f"\nload average before/after: {load} / {os.getloadavg()}")


if __name__ == "__main__":
    main()
