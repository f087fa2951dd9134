"""``guts holdem``: the heads-up hold'em raise game of an online note.

    guts holdem equities [--threads 2] [--check]      regenerate the exact equity table
    guts holdem solve --max-raise 40 [--reraise 5,10,20,40,80,160] [--out DIR]
    guts holdem raise-game [--max-raise 40]           the R = 40 artefacts of results/holdem/
    guts holdem reraise [--raises 4,6,9,13,20,30]     Bob re-raises, against the game without
    guts holdem equity-summaries                      equity summaries of the cached table
"""
from __future__ import annotations

import argparse

from guts.cli.options import add_sweep, certificate_text, int_arg, path_arg, sweep_args, verdict

#: Largest raise size (the same bound as :data:`guts.games.holdem.raise_game.MAX_RAISE`, kept
#: here so that building the parser does not import the solver).
MAX_RAISE = 1000

HELP = "heads-up hold'em raise game (the hold'em note): exact equities and the one-LP solution"


def _sizes_arg(text):
    from guts.errors import GutsInputError
    from guts.studies.holdem import parse_sizes_list

    try:
        vals = parse_sizes_list(text)
    except GutsInputError:
        vals = None
    if vals is None or any(v > MAX_RAISE for v in vals) or len(vals) > MAX_RAISE:
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: comma-separated integers 2..{MAX_RAISE}, "
                                         "e.g. 4,8,16") from None
    return vals


def add_subparser(subparsers):
    p = subparsers.add_parser("holdem", help=HELP, description=HELP)
    sub = p.add_subparsers(dest="holdem_command", metavar="SUBCOMMAND", parser_class=type(p))
    sub.required = True
    e = sub.add_parser("equities", help="regenerate the exact 169 x 169 preflop equity table (package data)",
                       description="Enumerate every board for every pair of the 169 classes (card removal "
                                   "exact) and write the cached table with its sha256 checksum.")
    e.add_argument("--threads", type=int_arg("threads", 1), default=1, help="numba threads (default 1)")
    e.add_argument("--out", type=path_arg, default=None, help="table path (default: the package's data/equity_table.npz)")
    e.add_argument("--check", action="store_true",
                   help="only compare the regenerated table with the cached checksum; write nothing")
    e.set_defaults(func=run_equities)
    s = sub.add_parser("solve", help="solve the raise game; print value, action frequencies, time; write results",
                       description="Alice folds, calls or raises by 2..R; Bob calls or folds (or re-raises by "
                                   "--reraise sizes, then Alice calls or folds). Exact LP, certified by the "
                                   "engine's best response.")
    s.add_argument("--max-raise", type=int_arg("max-raise", 2, MAX_RAISE), required=True, help="largest raise R (>= 2)")
    s.add_argument("--reraise", type=_sizes_arg, default=(), help="Bob's re-raise sizes, e.g. 5,10,20 (default none)")
    s.add_argument("--method", choices=["auto", "lp", "oracle", "engine"], default="auto",
                   help="structured LP, raise-size generation, or the engine's sequence-form LP (default auto)")
    s.add_argument("--out", type=path_arg, default=None,
                   help="output folder (default: a fresh results/runs/holdem-solve-<time>/; the committed "
                        "results/holdem/ artefacts come from `guts holdem raise-game` and `reraise`)")
    s.add_argument("--no-write", action="store_true", help="print only")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=run_solve)
    from guts.studies.holdem import DEFAULT_OUT, SEED_RAISES, SEED_RERAISES

    g = sub.add_parser("raise-game", help="the raise game's artefacts (strategies, plots, comparison with "
                       "the note's figures) into results/holdem/",
                       description="Solve the raise game and write its artefacts.")
    g.add_argument("--max-raise", type=int_arg("max-raise", 2, MAX_RAISE), default=40, help="largest raise R (>= 2)")
    g.add_argument("--method", choices=["auto", "lp", "oracle", "engine"], default="auto",
                   help="structured LP, raise-size generation, or the engine's sequence-form LP")
    g.add_argument("--out", type=path_arg, default=str(DEFAULT_OUT), help="output folder")
    g.set_defaults(func=run_raise_game)
    r = sub.add_parser("reraise", help="Bob re-raises: value and Alice's strategy into results/holdem/",
                       description="Solve the game where Bob may re-raise and the same game without.")
    x = r.add_mutually_exclusive_group()
    x.add_argument("--raises", type=_sizes_arg, default=",".join(map(str, SEED_RAISES)), help="Alice's raise sizes")
    x.add_argument("--max-raise", type=int_arg("max-raise", 2, MAX_RAISE), default=None,
                   help="Alice raises 2..R instead of --raises (default: use --raises)")
    r.add_argument("--reraise", type=_sizes_arg, default=",".join(map(str, SEED_RERAISES)), help="Bob's re-raise sizes")
    r.add_argument("--out", type=path_arg, default=str(DEFAULT_OUT), help="output folder")
    add_sweep(r, "local processes (2: both games at once)")
    r.set_defaults(func=run_reraise)
    q = sub.add_parser("equity-summaries", help="equity summaries of the cached exact table into results/holdem/",
                       description="Summarise the cached 169 x 169 equity table (against a random hand; matrix).")
    q.add_argument("--out", type=path_arg, default=str(DEFAULT_OUT), help="output folder")
    q.set_defaults(func=run_equity_summaries)
    return p


def run_raise_game(args) -> int:
    from guts.studies.holdem import raise_game_study, source_comparison

    paths, r = raise_game_study(args.max_raise, args.out, args.method)
    print(f"value {r.value:.12f} chips/hand, exploitability {certificate_text(r.exploitability, '.2e')} ({r.certified_by}), "
          f"{r.seconds:.1f} s")
    if args.max_raise == 40:
        print(source_comparison(r).to_string(index=False))
    for p in paths:
        print(f"wrote {p}")
    return 0


def run_reraise(args) -> int:
    import time

    from guts.studies.holdem import reraise_study

    t0 = time.perf_counter()
    raises = tuple(range(2, args.max_raise + 1)) if args.max_raise else args.raises
    paths, base, rr = reraise_study(raises, args.reraise, args.out, **sweep_args(args))
    print(f"without re-raise: value {base.value:.12f}; with: {rr.value:.12f} "
          f"(exploitability {certificate_text(rr.exploitability, '.2e')}); {time.perf_counter() - t0:.1f} s")
    for p in paths:
        print(f"wrote {p}")
    return 0


def run_equity_summaries(args) -> int:
    from guts.studies.holdem import equity_study

    for p in equity_study(args.out):
        print(f"wrote {p}")
    return 0


def run_equities(args) -> int:
    from guts.games.holdem.equities import (DEFAULT_TABLE_PATH, _checksum_path, compute_equity_table, table_checksum,
                                          write_equity_table)

    path = args.out or DEFAULT_TABLE_PATH
    table = compute_equity_table(threads=args.threads, progress=True)
    digest = table_checksum(table.win, table.tie, table.pairs)
    ck = _checksum_path(__import__("pathlib").Path(path))
    old = ck.read_text().split()[0] if ck.exists() and ck.read_text().split() else None
    print(f"sha256 {digest}" + ("" if old is None else ("  (matches the cached table)" if old == digest
                                                          else "  (DIFFERS from the cached checksum)")))
    if args.check:
        return 0 if old == digest else 1
    write_equity_table(table, path)
    print(f"wrote {path} and its checksum ({table.seconds:.1f} s)")
    return 0


def run_solve(args) -> int:
    from guts.engine.progress import elapsed_bar
    from guts.games.holdem import solve_raise_game

    with elapsed_bar(f"solving the raise game (R = {args.max_raise})", enabled=not args.quiet):
        r = solve_raise_game(max_raise=args.max_raise, reraises=args.reraise, method=args.method,
                             progress=not args.quiet)
    freq = r.action_frequencies()
    print(f"raise game: Alice raises 2..{args.max_raise}"
          + (f", Bob re-raises {list(r.reraises)}" if r.reraises else ", Bob calls or folds"))
    print(f"value             {r.value:.12f} chips per hand (Alice; small blind 1, big blind 2)")
    print(f"certificate       exploitability {certificate_text(r.exploitability, '.2e')} ({r.certified_by} best response)")
    print(f"method            {r.method}; {r.seconds:.2f} s")
    print(f"Alice             fold {freq[0]:.4f}  call {freq[1]:.4f}  raise {freq[2:].sum():.4f}")
    top = sorted(((f, a) for a, f in zip(r.actions[2:], freq[2:]) if f > 1e-4), reverse=True)[:10]
    print("  raises          " + "  ".join(f"{a} {f:.4f}" for f, a in top))
    if not args.no_write:
        from guts.studies.holdem import write_solution

        from guts.studies.output import run_folder

        stem = f"solve_R{args.max_raise}" + (f"_rr{'-'.join(map(str, r.reraises))}" if r.reraises else "")
        out = args.out if args.out is not None else run_folder("holdem-solve")
        for p in write_solution(r, out, stem):
            print(f"wrote {p}")
    status, code = verdict(r.converged)
    print(f"status            {status}")
    return code
