"""The engine's next order of magnitude: bigger games, both cores, cold starts.

    python benchmarks/engine_scale.py [--quick] [--full-baseline] [--out results/benchmarks]

Writes ``results/benchmarks/engine_scale.csv`` (+ ``.meta.json`` with the machine, its load
and the command). One row per measurement, each with the same-run ratio to today's code
where feasible:

* ``3P-MMH check``: three-player Multiround Mercer hold'em with a check (Mercer hold'em
  study, ``rjullman/poker-nasheq``; 515 k public states) to NashConv <= 0.01: time,
  iterations, peak resident memory, the NashConv recomputed in float64 on the returned
  average. The old algorithm (plain CFR+, float64, one thread, per-deal kernel, a
  best-response check every 10 iterations) is timed on a few iterations in the same run
  and extrapolated to the iterations it needs (``results/mercer/beyond.csv``: 150, i.e.
  165 passes); ``--full-baseline`` runs it to the target instead.
* ``3P-MMH call/raise``: the limit-betting variant to NashConv <= 0.01 (the old code did not
  converge in 600 s: ``results/mercer/beyond.csv``).
* ``threads``: time per CFR+ iteration with 1 and 2 threads and with the default
  (``threads=None``: measured as the solve runs) on Leduc, on 3P-MMH (no check) and on
  3P-MMH with a check (515 k public states), and the time of both 3P-MMH solves to NashConv
  <= 0.01; results bit-identical (checked). Leduc also in one process, 1 and 2 threads in
  turn for 40 s (min, 10th percentile and median over the calls), and beside a busy process;
  the round trip of a cache line between the two cores, second by second; and Leduc 1 -> 2
  threads by where the host put the two virtual CPUs (told by that round trip).
* ``cold start``: ``guts --help`` and ``import guts.games.<family>`` in fresh processes,
  against today's code (``git archive`` of :data:`BASELINE_REF`, the commit before the cold-start work,
  unpacked into a temporary folder); a first solve with an empty numba cache (cold) and the
  second one (warm).

``--only threads,cold`` re-measures those groups and replaces their rows in the CSV;
``--csv NAME`` writes ``<out>/NAME`` instead (``--only threads --csv engine_scale_threads_quiet.csv``:
the threads rows of a quiet-machine run, kept beside the main CSV).

Each solve runs in its own process, so its peak memory (``ru_maxrss``) is its own. The
machine is shared: every row records ``os.getloadavg()`` at its start.
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

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.01
#: Iterations and best-response passes of the old code to NashConv <= 0.01 on 3P-MMH with a
#: check (results/mercer/beyond.csv earlier: 150 iterations, a check every 10).
OLD_ITERATIONS_CHECK = 150
OLD_CHECK_EVERY = 10
#: The new solver's configuration (the Mercer study's; see docs/mercer.md).
NEW = dict(variant="pcfr+", check="adaptive")
#: Today's code for the cold-start comparison: the commit before the cold-start work.
BASELINE_REF = "0c36195"
#: The code before the thread tuner counted calls (it counted iterations; a small game's
#: chunked solve probed the other thread count every other call).
TUNER_BASELINE_REF = "051ac72"
GROUPS = ("check", "limit", "threads", "cold")


def _load():
    return round(os.getloadavg()[0], 2)


# ----------------------------------------------------------------------------- workers
def _game(spec):
    from guts.games.poker.mercer import build_game, variant_rules

    opts = {"check": dict(check=True), "limit": dict(betting="limit"), "paper": {}}[spec]
    t = time.perf_counter()
    g = build_game(variant_rules("mmh", 3, **opts)).game
    return g, time.perf_counter() - t


def _warm_up():
    """Compile the numba kernels on tiny games (timings are of the solve, not the JIT)."""
    import warnings

    from guts.engine.extensive import cfr_plus
    from guts.games.poker.mercer import build_game, variant_rules
    from guts.games.toy import leduc_poker

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for g in (leduc_poker(2), build_game(variant_rules("smh", 3)).game):
            for v in ("cfr+", "pcfr+"):
                cfr_plus(g, max_iterations=3, variant=v)


def worker_solve(spec, mode, time_limit):
    """Solve 3P-MMH ``spec`` to NashConv <= 0.01: mode "new" (defaults) or "old" (the
    pre-issue-21 algorithm), or "old-sample" (a few old iterations, extrapolated)."""
    import warnings

    from guts.engine.extensive import _kernels as K
    from guts.engine.extensive import cfr_plus, nash_conv
    from guts.studies.output import peak_rss_mb

    _warm_up()
    game, build = _game(spec)
    out = dict(build_seconds=build, load=_load())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "new":
            t = time.perf_counter()
            r = cfr_plus(game, target=TARGET / 3, time_limit=time_limit, **NEW)
            out.update(solve_seconds=time.perf_counter() - t, iterations=r.num_iter,
                       checks=len(r.history), converged=r.converged)
        else:
            K.USE_DENSE, K.PARALLEL = False, False
            if mode == "old":
                t = time.perf_counter()
                r = cfr_plus(game, target=TARGET / 3, time_limit=time_limit, threads=1)
                out.update(solve_seconds=time.perf_counter() - t, iterations=r.num_iter,
                           checks=len(r.history), converged=r.converged)
            else:
                k = 4
                t = time.perf_counter()
                r = cfr_plus(game, max_iterations=k, report_every=k, threads=1)   # k iterations + 1 check
                per = (time.perf_counter() - t) / (k + 1)
                passes = OLD_ITERATIONS_CHECK + OLD_ITERATIONS_CHECK // OLD_CHECK_EVERY
                out.update(solve_seconds=per * passes, iterations=OLD_ITERATIONS_CHECK,
                           checks=OLD_ITERATIONS_CHECK // OLD_CHECK_EVERY, converged=True,
                           extrapolated_from=k)
            K.USE_DENSE, K.PARALLEL = True, True
    t = time.perf_counter()
    out["nash_conv"] = nash_conv(game, r.strategies)          # float64, on the returned average
    out["certificate_seconds"] = time.perf_counter() - t
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def worker_threads(spec, iterations, solve=False):
    """Seconds per CFR+ iteration with 1 and 2 threads and with the default (best of 3,
    alternating); ``solve``: the time of the Mercer study's solve to NashConv <= 0.01 instead
    (predictive CFR+, adaptive checks; once per thread count on 3P-MMH with a check)."""
    import warnings

    import numpy as np

    from guts.engine.extensive import cfr_plus

    _warm_up()
    if spec == "leduc":
        from guts.games.toy import leduc_poker

        game = leduc_poker(2)
    else:
        game, _ = _game(spec)
    cfr_plus(game, max_iterations=2, report_every=2, threads=2)   # the float32/size-specific kernels
    cfr_plus(game, max_iterations=2, report_every=2, threads=1)
    load = _load()
    best = {1: np.inf, 2: np.inf, None: np.inf}
    cpu = {1: np.inf, 2: np.inf, None: np.inf}
    res = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(1 if solve and spec == "check" else 3):      # best of 3 unless a long solve
            for th in (1, 2, None):
                t = time.perf_counter()
                c = time.process_time()
                if solve:
                    res[th] = cfr_plus(game, target=TARGET / game.num_players, threads=th, **NEW)
                    k = 1
                else:
                    res[th] = cfr_plus(game, max_iterations=iterations, report_every=iterations, threads=th)
                    k = iterations
                best[th] = min(best[th], (time.perf_counter() - t) / k)
                cpu[th] = min(cpu[th], (time.process_time() - c) / k)
    same = all(np.array_equal(res[1].strategies[p][h], res[k].strategies[p][h])
               for k in (2, None) for p in range(game.num_players) for h in res[1].strategies[p])
    same = same and res[1].nash_conv == res[2].nash_conv == res[None].nash_conv
    return dict(seconds_1=best[1], seconds_2=best[2], seconds_auto=best[None], cpu_1=cpu[1], cpu_2=cpu[2],
                identical=bool(same), iterations=res[1].num_iter, nash_conv=res[1].nash_conv,
                load=load, load_end=_load())


def worker_small(iterations, repeats):
    """Leduc, seconds per CFR+ iteration: the iterations compiled whole (:mod:`guts.engine.
    extensive._whole`) with 1 and 2 threads and the default, and the level-by-level kernels
    they replace (this file's previous Leduc row) with 1 and 2 threads. The configurations
    are run in turn, ``repeats`` times (a shared machine's speed drifts over seconds: each
    configuration sees the same drift); min and median over the repeats."""
    import warnings

    import numpy as np

    from guts.engine.extensive import _whole, cfr_plus
    from guts.games.toy import leduc_poker

    game = leduc_poker(2)
    applicable = _whole.applicable
    configs = {"whole 1": (1, True), "whole 2": (2, True), "whole default": (None, True),
               "level 1": (1, False), "level 2": (2, False)}
    times = {k: [] for k in configs}
    res = {}
    load = _load()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, (th, whole) in configs.items():           # compile, first touches
            _whole.applicable = applicable if whole else (lambda cg: False)
            cfr_plus(game, max_iterations=20, report_every=20, threads=th)
        for _ in range(repeats):
            for k, (th, whole) in configs.items():
                _whole.applicable = applicable if whole else (lambda cg: False)
                t = time.perf_counter()
                res[k] = cfr_plus(game, max_iterations=iterations, report_every=iterations, threads=th)
                times[k].append((time.perf_counter() - t) / iterations)
    _whole.applicable = applicable
    r0 = res["whole 1"]
    same = all(np.array_equal(r0.strategies[p][h], r.strategies[p][h]) and r.nash_conv == r0.nash_conv
               for r in res.values() for p in range(2) for h in r0.strategies[p])
    return dict(min={k: min(v) for k, v in times.items()}, median={k: float(np.median(v)) for k, v in times.items()},
                identical=bool(same), iterations=iterations, nash_conv=r0.nash_conv, load=load, load_end=_load())


def worker_pinned(cpu, seconds):
    """One thread of Leduc CFR+ (compiled whole) pinned to ``cpu`` for ``seconds``: seconds per
    iteration of each 1 000-iteration slice (how steady one core is while the other works)."""
    from guts.engine.extensive import _kernels as K
    from guts.engine.extensive._threads import using_threads
    from guts.engine.extensive.cfr import _WholeState
    from guts.games.toy import leduc_poker

    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    cg = leduc_poker(2).compiled
    K.prepare(cg)
    out = []
    with using_threads(1):
        st = _WholeState(cg, "cfr+", 1.5, 0.0, 2.0)
        st.run(1, 1)
        t, end = 2, time.perf_counter() + seconds
        while time.perf_counter() < end:
            out.append(st.run(t, 1000) / 1000)
            t += 1000
    return out


def _leduc_states():
    """Two CFR+ solver states of Leduc compiled whole, one per thread count (1, 2), each
    compiled and first touched by one call on its own count (inside ``using_threads(2)``)."""
    from guts.engine.extensive import _kernels as K
    from guts.engine.extensive._threads import set_threads
    from guts.engine.extensive.cfr import _WholeState
    from guts.games.toy import leduc_poker

    cg = leduc_poker(2).compiled
    K.prepare(cg)
    states = {k: _WholeState(cg, "cfr+", 1.5, 0.0, 2.0) for k in (1, 2)}
    for k, st in states.items():
        set_threads(k)
        st.run(1, 1)
    return states


def _same_states(states) -> bool:
    """The two states' behaviour and average bit-equal."""
    import numpy as np

    return all(np.array_equal(a, b) for a, b in zip(states[1].Bt + states[1].AVG, states[2].Bt + states[2].AVG))


def worker_alternating(seconds, count):
    """Leduc with 1 and 2 threads in one process, calls of ``count`` iterations in turn for
    ``seconds``, each thread count on its own solver state (both run the same iterations):
    seconds per iteration of every call. This machine's cores slow down for 0.1-3 s at a
    time (docs/performance.md, "Both cores, fourth pass"); calls ~20 ms long, in turn, see
    the same stretches, and the minimum shows what the code does while both cores run at
    full speed."""
    import numpy as np

    from guts.engine.extensive._threads import set_threads, using_threads

    load = _load()
    with using_threads(2):
        states = _leduc_states()
        times = {k: [] for k in states}
        t, end = 2, time.perf_counter() + seconds
        while time.perf_counter() < end:
            for k, st in states.items():
                set_threads(k)
                times[k].append(st.run(t, count) / count)
            t += count
    q = {k: {f"p{v}": float(np.percentile(x, v)) for v in (0, 10, 50)} for k, x in times.items()}
    return dict(q=q, calls=len(times[1]), iterations=t - 1, identical=_same_states(states),
                barrier=bool(states[2].barrier_ok), load=load, load_end=_load())


def _bounce():
    """A parallel region whose two threads bounce a cache line ``n`` times (False, having
    done nothing, if they did not run at once)."""
    from numba import njit, prange

    from guts.engine.extensive import _atomics as A

    @njit(parallel=True)
    def bounce(ctl, flag, n):
        for b in prange(2):
            if A.start(ctl, 2):
                for i in range(n):
                    want = 2 * i + b
                    while A.atomic_load(flag, 0) != want:
                        A.spin_pause()
                    A.atomic_add(flag, 0, 1)
        return ctl[A.STATE] == 1

    return bounce


def _round_trip(bounce, ctl, flag, n):
    """Seconds per round trip of :func:`_bounce` over ``n`` (NaN if its threads did not run at once)."""
    from guts.engine.extensive import _atomics as A

    A.control(ctl)
    flag[:] = 0
    t = time.perf_counter()
    ran = bounce(ctl, flag, n)
    return (time.perf_counter() - t) / n if ran else float("nan")


def worker_roundtrip(seconds):
    """Round trips of a cache line between two threads of one parallel region (the
    barrier's and the reaches' way between the cores), median of each second for
    ``seconds``, in nanoseconds. Under a hypervisor the two virtual CPUs may sit on one
    physical core, on neighbouring cores or on distant ones, and move between them."""
    import math

    import numba
    import numpy as np

    from guts.engine.extensive import _atomics as A

    numba.set_num_threads(2)
    bounce = _bounce()
    ctl, flag = A.control(), np.zeros(16, np.int64)
    bounce(ctl, flag, 10)
    per_second, cur = [], []
    t0 = end = time.perf_counter()
    end += seconds
    while time.perf_counter() < end:
        r = _round_trip(bounce, ctl, flag, 5000)
        if not math.isnan(r):
            cur.append(r * 1e9)
        if time.perf_counter() - t0 >= 1.0 and cur:
            per_second.append(float(np.median(cur)))
            cur, t0 = [], time.perf_counter()
    return dict(per_second=per_second, load=_load())


def worker_placement(seconds, count):
    """Leduc with 1 and 2 threads in one process, calls of ``count`` iterations in turn (as
    :func:`worker_alternating`), each pair of calls between two round-trip measurements
    (:func:`_bounce`, 2 000 round trips): per pair, the round trips before and after (ns)
    and the seconds per iteration of 1 and 2 threads."""
    import numpy as np

    from guts.engine.extensive import _atomics as A
    from guts.engine.extensive._threads import set_threads, using_threads

    load = _load()
    pairs = []
    with using_threads(2):
        states = _leduc_states()
        set_threads(2)
        bounce = _bounce()
        ctl, flag = A.control(), np.zeros(16, np.int64)
        bounce(ctl, flag, 10)
        t, end = 2, time.perf_counter() + seconds
        while time.perf_counter() < end:
            set_threads(2)
            before = _round_trip(bounce, ctl, flag, 2000)
            sec = []
            for k, st in states.items():
                set_threads(k)
                sec.append(st.run(t, count) / count)
            set_threads(2)
            pairs.append([before * 1e9, _round_trip(bounce, ctl, flag, 2000) * 1e9, *sec])
            t += count
    return dict(pairs=pairs, identical=_same_states(states), barrier=bool(states[2].barrier_ok), load=load, load_end=_load())


def worker_busy(iterations, repeats):
    """Leduc beside one busy process (another job on the 2-core machine): seconds per
    iteration with 1 thread, 2 threads and the default (``threads=None``, the thread tuner),
    in turn, ``repeats`` times: the seconds per iteration of each solve. Run in the tree on
    ``PYTHONPATH``."""
    import warnings

    from guts.engine.extensive import cfr_plus
    from guts.games.toy import leduc_poker

    game = leduc_poker(2)
    configs = {"1": 1, "2": 2, "default": None}
    times = {k: [] for k in configs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for th in configs.values():            # compile (this tree's cache), first touches
            cfr_plus(game, max_iterations=20, report_every=20, threads=th)
        load = _load()
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            time.sleep(0.5)
            for _ in range(repeats):
                for k, th in configs.items():
                    t = time.perf_counter()
                    cfr_plus(game, max_iterations=iterations, report_every=iterations, threads=th)
                    times[k].append((time.perf_counter() - t) / iterations)
        finally:
            busy.kill()
            busy.wait()
    return dict(times=times, load=load, load_end=_load())


def _run_worker(kind, *args, env=None):
    p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps([kind, *args])],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"worker {kind} {args} failed:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- cold start
def _time_cmd(cmd, pythonpath, env_extra=None, repeat=5):
    env = dict(os.environ, PYTHONPATH=str(pythonpath), **(env_extra or {}))
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        # run from the tree's own folder: ``python -c`` / ``-m`` put the working folder first
        subprocess.run(cmd, env=env, capture_output=True, check=True, cwd=str(pythonpath))
        best = min(best, time.perf_counter() - t)
    return best


def cold_start_rows(old_tree):
    rows = []
    py = sys.executable
    cases = [("guts --help", [py, "-m", "guts", "--help"])]
    for fam in ("guts", "holdem", "poker.mercer", "toy", "continuous_poker", "dividing_point"):
        cases.append((f"import guts.games.{fam}", [py, "-c", f"import guts.games.{fam}"]))
    cases.append(("import guts", [py, "-c", "import guts"]))
    base = _time_cmd([py, "-c", "pass"], ROOT)
    for label, cmd in cases:
        load = _load()
        new = _time_cmd(cmd, ROOT)
        old = _time_cmd(cmd, old_tree) if old_tree else float("nan")
        rows.append(dict(benchmark="cold start", case=label, seconds=new, old_seconds=old,
                         ratio_old_over_new=old / new, python_startup_seconds=base, load=load))
    # numba cache: a first solve with an empty cache directory, then the same again
    # exploitability 0.0167: NashConv 0.05 for three players
    cmd = [py, "-m", "guts", "mercer", "solve", "mmh", "--players", "3", "--target", "0.0167"]
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache}
        load = _load()
        cold = _time_cmd(cmd, ROOT, env, repeat=1)
        warm = _time_cmd(cmd, ROOT, env, repeat=3)
        rows.append(dict(benchmark="cold start", case="guts mercer solve mmh --players 3 --target 0.0167: "
                         "empty numba cache (cold) vs filled (warm)", seconds=warm, old_seconds=cold,
                         ratio_old_over_new=cold / warm, python_startup_seconds=base, load=load,
                         note="old_seconds = cold (JIT compile), seconds = warm (cache hit)"))
    return rows


def _old_tree(tmp, ref=BASELINE_REF):
    """The package at commit ``ref`` unpacked into ``tmp`` (None if git is unavailable)."""
    try:
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "guts"], capture_output=True,
                              check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
    return Path(tmp)


# ----------------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--quick", action="store_true", help="skip the call/raise solve and the Mercer thread case")
    ap.add_argument("--full-baseline", action="store_true",
                    help="run the old algorithm on 3P-MMH with a check to the target (about 400 s on a quiet machine)")
    ap.add_argument("--time-limit", type=float, default=1800.0, help="per solve, seconds")
    ap.add_argument("--csv", default="engine_scale.csv", help="file name of the CSV in --out")
    ap.add_argument("--only", default=",".join(GROUPS),
                    help="comma-separated groups to (re)measure: " + ", ".join(GROUPS) + " (others kept from the CSV)")
    args = ap.parse_args(argv)
    if args.worker:
        kind, *wargs = json.loads(args.worker)
        fn = {"solve": worker_solve, "threads": worker_threads, "small": worker_small,
              "pinned": worker_pinned, "busy": worker_busy, "alternating": worker_alternating,
              "roundtrip": worker_roundtrip, "placement": worker_placement}[kind]
        print(json.dumps(fn(*wargs)))
        return 0

    import pandas as pd

    from guts.studies.output import ensure_output_dir

    out = ensure_output_dir(args.out)
    only = set(args.only.split(","))
    if not only <= set(GROUPS):
        ap.error(f"--only {args.only}; accepted: comma-separated {', '.join(GROUPS)}")
    rows = []
    group_of = {"3P-MMH check to NashConv 0.01": "check", "3P-MMH call/raise to NashConv 0.01": "limit",
                "threads: seconds per CFR+ iteration": "threads", "threads: seconds per solve": "threads",
                "threads: steadiness of a core": "threads", "threads: round trip between the cores": "threads",
                "cold start": "cold"}
    target_csv = out / args.csv
    if only != set(GROUPS) and target_csv.exists():
        old_df = pd.read_csv(target_csv)
        rows = [r for r in old_df.to_dict("records") if group_of.get(r["benchmark"]) not in only]

    def emit(row):
        rows.append(row)
        print(json.dumps(row), flush=True)

    # 3P-MMH with a check: new solver vs the old algorithm
    if "check" in only:
        _check_rows(args, emit)
    if "limit" in only:
        lim = _run_worker("solve", "limit", "new", args.time_limit)
        emit(dict(benchmark="3P-MMH call/raise to NashConv 0.01", case="new (pcfr+, adaptive checks, all threads)",
                  seconds=lim["solve_seconds"], old_seconds=float("nan"), iterations=lim["iterations"],
                  peak_rss_mb=lim["peak_rss_mb"], nash_conv=lim["nash_conv"], converged=lim["converged"],
                  build_seconds=lim["build_seconds"], load=lim["load"],
                  note="old code: NashConv 0.021 at its 600 s cap, not converged (results/mercer/beyond.csv)"))
    if "threads" in only:
        _leduc_rows(emit, repeats=5 if args.quick else 15)
        _alternating_row(emit, seconds=10.0 if args.quick else 40.0)
        _roundtrip_row(emit, seconds=10.0 if args.quick else 30.0)
        _placement_rows(emit, seconds=15.0 if args.quick else 60.0)
        _steadiness_row(emit, seconds=4.0 if args.quick else 10.0)
        cases = []
        if not args.quick:
            cases += [("paper", "3P-MMH (no check)", 200, False), ("check", "3P-MMH with a check", 4, False),
                      ("paper", "3P-MMH (no check) to NashConv 0.01", 0, True),
                      ("check", "3P-MMH with a check to NashConv 0.01", 0, True)]
        for spec, label, iters, solve in cases:
            th = _run_worker("threads", spec, iters, solve)
            emit(dict(benchmark="threads: seconds per solve" if solve else "threads: seconds per CFR+ iteration",
                      case=label, seconds=th["seconds_2"],
                      old_seconds=th["seconds_1"], ratio_old_over_new=th["seconds_1"] / th["seconds_2"],
                      auto_seconds=th["seconds_auto"], cpu_seconds=th["cpu_2"], old_cpu_seconds=th["cpu_1"],
                      iterations=th["iterations"], nash_conv=th["nash_conv"],
                      identical=th["identical"], load=th["load"], load_end=th["load_end"],
                      note=("old_seconds = 1 thread, seconds = 2 threads, auto_seconds = the default (ThreadTuner); "
                            + ("wall of the whole solve (pcfr+, adaptive checks)" if solve else
                               f"wall per iteration over {iters} iterations and one final best-response check")
                            + "; cpu_seconds: process CPU time likewise; identical: same strategies and NashConv")))
        # last: its busy process would be counted in the load average of the rows after it
        _busy_row(emit, iterations=4000 if args.quick else 10000, repeats=3 if args.quick else 5)
    if "cold" in only:
        with tempfile.TemporaryDirectory() as tmp:
            for row in cold_start_rows(_old_tree(tmp)):
                emit(row)
    _write(out, rows, args)
    return 0


def _steadiness_row(emit, seconds=10.0):
    """Leduc on one thread, alone and then beside a copy of itself on the other core (no shared
    data): how much a core slows while the other works (bounds what two threads in lockstep get)."""
    import numpy as np

    if (os.cpu_count() or 1) < 2 or not hasattr(os, "sched_setaffinity"):
        return
    load = _load()
    alone = _run_worker("pinned", 0, seconds)
    procs = [subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker",
                               json.dumps(["pinned", cpu, seconds])], stdout=subprocess.PIPE, text=True)
             for cpu in (0, 1)]
    paired = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    both = np.concatenate(paired)
    q = lambda x, v: float(np.percentile(x, v))      # noqa: E731
    emit(dict(benchmark="threads: steadiness of a core", case="Leduc, 1 thread, beside a copy on the other core",
              seconds=q(both, 50), old_seconds=q(alone, 50), ratio_old_over_new=q(alone, 50) / q(both, 50),
              p90_seconds=q(both, 90), old_p90_seconds=q(alone, 90), max_seconds=float(both.max()),
              old_max_seconds=float(max(alone)), load=load, load_end=_load(),
              note=f"seconds per iteration of 1000-iteration slices for {seconds:g} s, one process pinned to "
                   "each core (no shared data, no barrier): seconds/p90/max = median/90th percentile/max of "
                   "both; old_* = the same process alone on core 0"))


def _alternating_row(emit, seconds=40.0, count=500):
    """Leduc with 1 and 2 threads, calls in turn in one process (:func:`worker_alternating`)."""
    if (os.cpu_count() or 1) < 2:
        return
    a = _run_worker("alternating", seconds, count)
    one, two = a["q"]["1"], a["q"]["2"]
    emit(dict(benchmark="threads: seconds per CFR+ iteration", case="Leduc (2 players), calls in turn in one process",
              seconds=two["p0"], old_seconds=one["p0"], ratio_old_over_new=one["p0"] / two["p0"],
              p10_seconds=two["p10"], old_p10_seconds=one["p10"], ratio_of_p10=one["p10"] / two["p10"],
              median_seconds=two["p50"], median_old_seconds=one["p50"], iterations=a["iterations"],
              identical=a["identical"], load=a["load"], load_end=a["load_end"],
              note=(f"{a['calls']} calls of {count} iterations with 1 thread and with 2 (one parallel region a call), "
                    f"in turn for {seconds:g} s, each on its own solver state: seconds / old_seconds = the minimum "
                    "over the calls of 2 / 1 thread's seconds per iteration (the host's slow stretches, "
                    "docs/performance.md, hit both alike; the minimum is the code while both cores run at full "
                    "speed), p10_* the 10th percentile, median_* the median; identical: the two states' behaviour "
                    "and average bit-equal at the end" + ("" if a["barrier"] else "; the barrier was refused: 2 threads ran on one"))))


def _roundtrip_row(emit, seconds=30.0):
    """How far apart the two cores are, second by second (:func:`worker_roundtrip`)."""
    import numpy as np

    from guts.engine.extensive._threads import max_threads

    if (os.cpu_count() or 1) < 2 or max_threads() < 2:
        return
    r = _run_worker("roundtrip", seconds)
    if not r["per_second"]:
        return                  # the region's two threads never ran at once: nothing measured
    v = np.array(r["per_second"]) * 1e-9
    emit(dict(benchmark="threads: round trip between the cores", case="a cache line bounced between two threads",
              seconds=float(np.median(v)), min_seconds=float(v.min()), max_seconds=float(v.max()),
              p90_seconds=float(np.percentile(v, 90)), samples=int(v.size), load=r["load"],
              note=(f"median of each second's median round trip over {seconds:g} s (5 000 round trips a call): "
                    "seconds = their median, min/p90/max likewise; ~30 ns: the two virtual CPUs on one "
                    "physical core, ~60-110 ns: neighbouring cores, 300 ns and more: distant ones (every barrier "
                    "and every line of the reaches crosses this way)")))


#: Where the host puts the two virtual CPUs, told by the round trip of a cache line between
#: them (ns, [low, high)): ~30 ns is a shared L2 (the two hardware threads of one physical
#: core), 60-115 ns neighbouring cores, 300 ns and more distant ones (docs/performance.md,
#: "Both cores, fifth pass").
PLACEMENTS = (("one physical core", 0.0, 45.0), ("neighbouring cores", 45.0, 150.0),
              ("distant cores", 150.0, float("inf")))


def _placement_rows(emit, seconds=60.0, count=300):
    """Leduc 1 -> 2 threads by where the two virtual CPUs were (:func:`worker_placement`): one
    row per placement seen, from the pairs of calls whose round trips before and after fell
    in it."""
    import numpy as np

    from guts.engine.extensive._threads import max_threads

    if (os.cpu_count() or 1) < 2 or max_threads() < 2:
        return
    r = _run_worker("placement", seconds, count)
    a = np.array(r["pairs"], dtype=float).reshape(-1, 4)
    for name, lo, hi in PLACEMENTS:
        m = (a[:, 0] >= lo) & (a[:, 0] < hi) & (a[:, 1] >= lo) & (a[:, 1] < hi)
        if m.sum() < 10:
            continue
        one, two, rt = a[m, 2], a[m, 3], np.maximum(a[m, 0], a[m, 1])
        emit(dict(benchmark="threads: seconds per CFR+ iteration",
                  case=f"Leduc (2 players), calls in turn, the two virtual CPUs on {name}",
                  seconds=float(np.median(two)), old_seconds=float(np.median(one)),
                  ratio_old_over_new=float(np.median(one) / np.median(two)),
                  min_seconds=float(two.min()), min_old_seconds=float(one.min()),
                  round_trip_seconds=float(np.median(rt)) * 1e-9, calls=int(m.sum()), of_calls=len(a),
                  identical=r["identical"], load=r["load"], load_end=r["load_end"],
                  note=(f"{len(a)} pairs of calls of {count} iterations, 1 thread then 2, for {seconds:g} s, each "
                        "pair between two measurements of the round trip of a cache line between the region's "
                        f"two threads; this row: the {int(m.sum())} pairs whose round trips before and after were "
                        f"both in [{lo:g}, {hi:g}) ns ({name}); seconds / old_seconds = the median of 2 / 1 "
                        "thread's seconds per iteration, min_* their minimum, round_trip_seconds the median "
                        "round trip; identical: the two solver states bit-equal at the end"
                        + ("" if r["barrier"] else "; the barrier was refused: 2 threads ran on one"))))


def _busy_row(emit, iterations=10000, repeats=5):
    """Leduc beside a busy process: the default thread count, today's tuner against the one
    before it (:data:`TUNER_BASELINE_REF`, unpacked and run in the same run)."""
    import numpy as np

    if (os.cpu_count() or 1) < 2:
        return
    # today's tree and the old one in turn, a few solves each round: the host's slow phases
    # last minutes at times, and two workers one after the other could each get a different one
    rounds = max(1, repeats // 2)
    per = -(-repeats // rounds)
    new = {k: [] for k in ("1", "2", "default")}
    old = {k: [] for k in new}
    loads = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = _old_tree(tmp, TUNER_BASELINE_REF)
        for _ in range(rounds):
            a = _run_worker("busy", iterations, per)
            loads += [a["load"], a["load_end"]]
            for k in new:
                new[k] += a["times"][k]
            if tree is not None:
                b = _run_worker("busy", iterations, per, env=dict(os.environ, PYTHONPATH=str(tree)))
                for k in old:
                    old[k] += b["times"][k]
    med = {k: float(np.median(v)) for k, v in new.items()}
    omed = {k: float(np.median(v)) if v else float("nan") for k, v in old.items()}
    emit(dict(benchmark="threads: seconds per CFR+ iteration", case="Leduc beside a busy process, the default",
              seconds=med["default"], old_seconds=omed["default"], ratio_old_over_new=omed["default"] / med["default"],
              one_seconds=med["1"], two_seconds=med["2"], min_seconds=min(new["default"]),
              old_one_seconds=omed["1"], old_two_seconds=omed["2"],
              over_best=med["default"] / min(med["1"], med["2"]),
              old_over_best=omed["default"] / min(omed["1"], omed["2"]), iterations=iterations,
              load=loads[0], load_end=loads[-1],
              note=(f"one other process busy (python -c 'while True: pass') while {iterations}-iteration solves run "
                    f"with 1 thread, 2 threads and the default (threads=None) in turn, {per} times a round, "
                    f"{rounds} rounds, medians: seconds = the default (the thread tuner counting calls), "
                    f"old_seconds = the default of commit {TUNER_BASELINE_REF} (counting iterations: a chunked "
                    "solve probed every other call), run from its unpacked tree in the same rounds (today's, "
                    "then the old, each round); one_/two_seconds = 1 / 2 threads (old_*: the old tree); "
                    "over_best / old_over_best = the default over the better fixed count of the same tree")))


def _leduc_rows(emit, iterations=2000, repeats=15):
    sm = _run_worker("small", iterations, repeats)
    lo, med = sm["min"], sm["median"]
    common = dict(iterations=iterations, nash_conv=sm["nash_conv"], identical=sm["identical"], load=sm["load"],
                  load_end=sm["load_end"])
    how = (f"wall per iteration over {iterations} iterations and one final best-response check, min over "
           f"{repeats} runs of each configuration in turn (medians in median_*); identical: same strategies "
           "and NashConv in every configuration")
    emit(dict(benchmark="threads: seconds per CFR+ iteration", case="Leduc (2 players)", seconds=lo["whole 2"],
              old_seconds=lo["whole 1"], ratio_old_over_new=lo["whole 1"] / lo["whole 2"],
              auto_seconds=lo["whole default"], median_seconds=med["whole 2"], median_old_seconds=med["whole 1"],
              note="iterations compiled whole, one parallel region per call (threads at a spinning barrier): "
                   "old_seconds = 1 thread, seconds = 2 threads, auto_seconds = the default; " + how, **common))
    emit(dict(benchmark="threads: seconds per CFR+ iteration", case="Leduc (2 players), against the level kernels",
              seconds=lo["whole 2"], old_seconds=lo["level 1"], ratio_old_over_new=lo["level 1"] / lo["whole 2"],
              auto_seconds=lo["level 2"], median_seconds=med["whole 2"], median_old_seconds=med["level 1"],
              note="old_seconds = the level-by-level kernels that ran Leduc before (1 thread; auto_seconds: "
                   "the same with 2 threads), seconds = compiled whole with 2 threads; " + how, **common))


def _check_rows(args, emit):
    new = _run_worker("solve", "check", "new", args.time_limit)
    old = _run_worker("solve", "check", "old" if args.full_baseline else "old-sample", args.time_limit)
    emit(dict(benchmark="3P-MMH check to NashConv 0.01", case="new (pcfr+, adaptive checks, all threads)",
              seconds=new["solve_seconds"], old_seconds=old["solve_seconds"],
              ratio_old_over_new=old["solve_seconds"] / new["solve_seconds"], iterations=new["iterations"],
              old_iterations=old["iterations"], peak_rss_mb=new["peak_rss_mb"], old_peak_rss_mb=old["peak_rss_mb"],
              nash_conv=new["nash_conv"], old_nash_conv=old["nash_conv"] if args.full_baseline else None,
              converged=new["converged"], build_seconds=new["build_seconds"], load=new["load"],
              old_load=old["load"],
              note="old: plain CFR+ float64, 1 thread, per-deal kernel, check every 10" +
                   ("" if args.full_baseline else f"; timed on {old.get('extrapolated_from')} iterations + 1 check, "
                    f"extrapolated to {OLD_ITERATIONS_CHECK} iterations + {OLD_ITERATIONS_CHECK // OLD_CHECK_EVERY} checks")))


def _write(out, rows, args):
    import platform

    import pandas as pd

    from guts.studies.output import write_csv, write_meta

    df = pd.DataFrame(rows)
    write_csv(df, out / args.csv)
    write_meta(out / args.csv,
               {"quick": args.quick, "full_baseline": args.full_baseline, "target_nash_conv": TARGET,
                "new_solver": NEW, "time_limit": args.time_limit, "only": args.only,
                "baseline_ref": BASELINE_REF, **({"csv": args.csv} if args.csv != "engine_scale.csv" else {})},
               machine=dict(cpus=os.cpu_count(), processor=platform.processor() or platform.machine(),
                            python=platform.python_version()),
               load_at_end=list(os.getloadavg()),
               note="load: 1-minute load average at the start of each row (the machine is shared); "
                    "ratios are measured in one run (a row's two timings come from the same run)")


if __name__ == "__main__":
    sys.exit(main())
