"""The strategy explorer's pages (``guts view``): size, writing time and first render in headless Chromium.

    PYTHONPATH=. python benchmarks/view_pages.py [--out results/benchmarks] [--big] [--mmh] [--repeat 2]
    PYTHONPATH=. python benchmarks/view_pages.py --only-mmh      # the 3P-MMH page alone: <out>/view_pages_mmh.csv
    PYTHONPATH=. python benchmarks/view_pages.py --shots docs/img   # the family views' screenshots of docs/view.md

Writes ``<out>/view_pages.csv`` (+ ``.meta.json``): one row per page with the game, its
information sets (decision nodes x the mover's types), the page's bytes, the seconds
:func:`guts.studies.view.write_view` took, and, per Chromium run (``--dump-dom``), the page's
own first-render time (``data-ms``: parse the embedded JSON, index the tree, draw the root)
and the time from opening the file to the end of that render (``data-since-start``).
Pages: Leduc poker solved by the LP; three-player Leduc with four ranks after 20 CFR+
iterations; with ``--big``, three-player Leduc with 13 ranks and three raises under uniform
random strategies (1.45 million information sets: a page, not a solve, is measured); with
``--mmh`` (or ``--only-mmh``), three-player Multiround Mercer hold'em with a check (Ullman
2015's 3P-MMH with the check option: 2 561 760 information sets) under random strategies,
with its Mercer bet-frequency panels (a solve of that game takes minutes: the page is what is
measured, and it does not depend on the strategies' quality).
``load`` is ``os.getloadavg()[0]`` before the row (the machine may be shared).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guts.engine.extensive import cfr_plus, solve_lp  # noqa: E402
from guts.engine.result import Certificate  # noqa: E402
from guts.games.toy import leduc_poker  # noqa: E402
from guts.studies.output import ensure_output_dir, write_csv, write_meta  # noqa: E402
from guts.studies.view import write_view  # noqa: E402

TIMING = re.compile(r'id="timing" data-ms="([\d.]+)" data-since-start="([\d.]+)"')


def random_profile(game, seed: int = 0):
    """Random behaviour strategies with the result's protocol (what a page shows does not depend on
    their quality)."""
    rng = np.random.default_rng(seed)
    strategies = tuple({h: rng.dirichlet(np.ones(len(a)), size=game.num_types[p])
                        for h, a in game.action_labels(p).items()} for p in range(game.num_players))
    nan = math.nan
    cert = Certificate(kind="exploitability", lower=nan, upper=nan, gap=nan, exploitability=nan,
                             nash_conv=nan, max_regret=nan)
    return SimpleNamespace(strategies=strategies, values=(nan,) * game.num_players, certificate=cert,
                           method="random", num_iter=0, converged=False)


def pages(big: bool, mmh: bool = False, only_mmh: bool = False):
    if only_mmh:
        yield from _mmh()
        return
    g = leduc_poker()
    yield "leduc LP", g, (lambda g=g: solve_lp(g))
    g3 = leduc_poker(players=3, ranks=4)
    yield "leduc3 ranks=4, 20 CFR+ iterations", g3, (lambda: cfr_plus(g3, max_iterations=20))
    if mmh:
        yield from _mmh()
    if big:
        gb = leduc_poker(players=3, ranks=13, max_raises=3)
        yield "leduc3 ranks=13 max_raises=3, random strategies", gb, (lambda: random_profile(gb))


#: The family views of docs/view.md: (file name, window height, solve).
def _family_solves():
    from guts import solve_coalition
    from guts.games.continuous_poker.discrete import solve_discretised
    from guts.games.holdem import solve_raise_game
    from guts.games.poker.mercer import solve

    return [("view_mercer.png", 760, lambda: solve("smh", players=2, method="lp")),
            ("view_holdem.png", 900, lambda: solve_raise_game(raises=[2, 4, 8])),
            ("view_continuous.png", 640, lambda: solve_discretised(0.5, 1.0, mesh=40, sizes=3)),
            ("view_guts.png", 560, lambda: solve_coalition(size=2, mesh=51))]


def screenshots(folder, browser):
    """Save, read back (:func:`guts.studies.view_families.load_for_view`) and view each family's
    solution, and screenshot its page into ``folder`` (a 64-colour PNG: small files for the docs)."""
    from PIL import Image

    from guts.studies.view_families import load_for_view

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, height, solve in _family_solves():
            stem = Path(tmp) / Path(name).stem
            solution, game, title = load_for_view(solve().save(stem.with_suffix(".npz")))
            page = write_view(solution, game, stem.with_suffix(".html"), title=title)
            raw = stem.with_suffix(".png")
            subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
                            f"--user-data-dir={Path(tmp) / 'profile'}", f"--window-size=1000,{height}",
                            f"--screenshot={raw}", page.as_uri()], capture_output=True, timeout=300, check=True)
            Image.open(raw).convert("RGB").quantize(64).save(folder / name, optimize=True)
            print(folder / name, (folder / name).stat().st_size, "bytes", flush=True)


def _mmh():
    from guts.games.poker.mercer import build_game, variant_rules

    g = build_game(variant_rules("mmh", 3, check=True)).game
    yield "3P-MMH with a check, random strategies", g, (lambda: random_profile(g))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--big", action="store_true", help="also the 1.45-million-information-set page (~20 MB)")
    ap.add_argument("--mmh", action="store_true", help="also the 2.56-million-information-set 3P-MMH page (~40 MB)")
    ap.add_argument("--only-mmh", action="store_true", help="the 3P-MMH page alone")
    ap.add_argument("--repeat", type=int, default=2, help="Chromium runs per page")
    ap.add_argument("--shots", default=None, metavar="FOLDER",
                    help="write the family views' screenshots (view_*.png) into FOLDER instead")
    args = ap.parse_args(argv)
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    if browser is None:
        sys.exit("view_pages: chromium is not installed (apt-get install chromium)")
    if args.shots:
        screenshots(args.shots, browser)
        return
    out = ensure_output_dir(args.out)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, game, solve in pages(args.big, args.mmh, args.only_mmh):
            solution = solve()
            infosets = sum(len(game.decision_histories(p)) * game.num_types[p] for p in range(game.num_players))
            load = os.getloadavg()[0]
            t = time.perf_counter()
            page = write_view(solution, game, Path(tmp) / "page.html")
            write_s = time.perf_counter() - t
            for run in range(args.repeat):
                t = time.perf_counter()
                dom = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox",
                                      f"--user-data-dir={Path(tmp) / 'profile'}", "--dump-dom", page.as_uri()],
                                     capture_output=True, text=True, timeout=600, check=True).stdout
                wall = time.perf_counter() - t
                m = TIMING.search(dom)
                rows.append(dict(page=name, infosets=infosets, bytes=page.stat().st_size, write_seconds=write_s,
                                 run=run, first_render_ms=float(m.group(1)) if m else math.nan,
                                 since_open_ms=float(m.group(2)) if m else math.nan, chromium_seconds=wall,
                                 load=load))
                print(rows[-1], flush=True)
    target = out / ("view_pages_mmh.csv" if args.only_mmh else "view_pages.csv")
    write_csv(pd.DataFrame(rows), target)
    write_meta(target, vars(args))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
