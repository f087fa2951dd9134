"""``guts mercer``: Mercer hold'em (Ullman 2015): solve a variant, print the tree sizes.

    guts mercer solve smh --players 2 --method lp
    guts mercer solve mmh --players 3 --target 1e-3                 # pcfr+ to exploitability 1e-3
    guts mercer solve mmh --players 3 --method cfr+ --target 0.005 --collusion strong --team 1,2
    guts mercer solve smh --players 3 --bets 8      # consistent with the printed 3P-SMH values
    guts mercer sizes
    guts mercer study values [--out results/mercer]   # one artefact of results/mercer/
    guts mercer solve smh --players 3 --collusion correlated --team 1,2   # the team regimes
    guts mercer regimes [--variants smh,mmh] [--out results]   # results/mercer_regimes.csv
"""
from __future__ import annotations

import argparse

from guts._validate import available_cores
from guts.cli.options import (add_lp_method, certificate_text, verdict, add_out, add_quiet, add_sweep, int_arg,
                              number_arg, out_folder, path_arg, sweep_args)

#: Mirrors guts.games.poker.mercer.solve.METHODS / COLLUSION (kept here: the cli imports games lazily).
METHODS = ("lp", "pcfr+", "cfr+", "dcfr", "fp", "fp-realisation")
COLLUSION = ("weak", "strong", "strong-separate", "correlated", "independent")
#: The collusions solved as team games with a certified bracket of the team's max-min value.
TEAM_COLLUSION = ("strong", "correlated", "independent")
#: Mirror guts.studies.mercer.ARTEFACTS / SWEPT (tests/games/poker/test_tree_count.py checks them):
#: importing the study (pandas, numba) took 0.7 s of every ``guts mercer solve``, even one the
#: tree-size pre-flight refuses at once.
ARTEFACTS = ("beyond", "collusion_epsilon", "collusion_methods", "program_fp", "sizes", "table7", "tables",
             "values")
SWEPT = ("values", "tables", "table7", "collusion_epsilon", "collusion_methods", "beyond", "program_fp")

HELP = "Mercer hold'em (Ullman 2015): solve SMH / MMH with 2 or 3 players, with collusion"


#: ``--target`` range: below 1e-8 the iterative methods' certificate (floating-point
#: best-response values of order 1) cannot certify it (``--target 1e-300`` ran forever);
#: above 10 chips it certifies nothing (the antes and bets are a few chips).
MIN_EPSILON, MAX_EPSILON = 1e-8, 10.0
#: ``--max-iterations``: at least 1 (0 used to mean "the default" silently), at most 1e9.
MAX_ITERATIONS = 10**9
#: ``--time-limit``: at most a week, in seconds.
MAX_TIME_LIMIT = 7 * 24 * 3600.0

def _team(text: str):
    """``--team``: two distinct seats of three, e.g. ``0,1`` (the game module re-checks)."""
    try:
        parts = tuple(int(x) for x in str(text).split(","))
    except ValueError:
        parts = ()
    if len(parts) != 2 or len(set(parts)) != 2 or not all(0 <= q <= 2 for q in parts):
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: two distinct seats of 0, 1, 2, e.g. 0,1")
    return parts


def _bets(text: str):
    """``--bets``: allowed bet sizes, positive and distinct, e.g. ``4`` or ``4,8``."""
    try:
        sizes = tuple(float(x) for x in str(text).split(","))
    except ValueError:
        sizes = ()
    if not sizes or any(not (b > 0 and b < float("inf")) for b in sizes) or len(set(sizes)) != len(sizes):
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: distinct positive chip amounts, e.g. 4 or 4,8")
    return sizes


def add_subparser(subparsers):
    p = subparsers.add_parser("mercer", help=HELP, description=HELP)
    sub = p.add_subparsers(dest="mercer_command", metavar="ACTION", parser_class=type(p))
    sub.required = True
    s = sub.add_parser("solve", help="solve one variant and print values and exploitability",
                       description="Solve SMH or MMH (Ullman 2015, §4) exactly (LP) or by predictive CFR+ / "
                                   "CFR+ / DCFR / Ullman's fictitious play; print every seat's value and the "
                                   "certificate: exploitability (the mean of the players' best-response "
                                   "gains) with NashConv (their sum) beside it.")
    s.add_argument("variant", help="smh or mmh")
    s.add_argument("--players", type=int_arg("players", 2, 3), default=2, help="2 or 3 (default 2)")
    s.add_argument("--method", choices=METHODS, type=str.lower, default=None,
                   help="lp (exact; two-player zero-sum games: 2 players, or 3 with strong collusion), "
                        "pcfr+ (predictive CFR+ with adaptive certificate checks, the fastest certified "
                        "iterative method: 3P-MMH with a check in half the iterations of cfr+), cfr+, dcfr, "
                        "fp (the fictitious play of Ullman's 2015 program rjullman/poker-nasheq, "
                        "exactly: behaviour averages, its iteration count) or fp-realisation (classical "
                        "fictitious play, mixed-strategy average) (default: lp when exact, else pcfr+)")
    s.add_argument("--target", dest="target",
                   type=number_arg("target", float, MIN_EPSILON, maximum=MAX_EPSILON), default=None,
                   help="exploitability target of pcfr+, cfr+ and dcfr (the mean of the players' "
                        "best-response gains: NashConv / players), regret bound of fp and fp-realisation, "
                        "as guts solve-game's --target (default: the thesis's 0.01 as a NashConv, i.e. "
                        "exploitability 0.01 / players, for pcfr+, cfr+ and dcfr; 0.01 for fp and "
                        "fp-realisation)")
    # the old name, now with the meaning of --target (exploitability); kept so that old command lines run
    s.add_argument("--epsilon", dest="target", type=number_arg("target", float, MIN_EPSILON, maximum=MAX_EPSILON),
                   help=argparse.SUPPRESS)
    s.add_argument("--collusion", choices=COLLUSION, type=str.lower, default=None,
                   help="3 players only. weak: the colluders pool their payoffs (a three-player game; "
                        "NashConv bounds one player's gain from deviating, not the colluders' joint "
                        "gain); strong: they also see each other's hands and are solved as ONE player, "
                        "a two-player zero-sum team-vs-victim game (any method; the certificate "
                        "brackets the team's max-min value); strong-separate: strong information with "
                        "the colluders as separate players (a three-player Nash equilibrium; its value "
                        "is not the team's); correlated: the colluders, each seeing only his own hand, "
                        "agree on a joint plan before the deal (TMECor, column generation, certified "
                        "bracket); independent: each plays his own strategy (team-maxmin, local search, "
                        "bracketed by the correlated value) (default: no collusion)")
    s.add_argument("--team", type=_team, default=None,
                   help="the two colluding seats, counted from 0 in betting order (seat 0 acts "
                        "first), e.g. 0,1 or 1,2 (default: none; required with --collusion)")
    s.add_argument("--check", action="store_true", help="allow checking (beyond the paper; default: no check, as the paper)")
    s.add_argument("--betting", default="fixed", help="fixed (the paper's) or limit (call/raise) (default: fixed)")
    s.add_argument("--bets", type=_bets, default=(4.0,),
                   help="allowed bet sizes in chips, e.g. 4,8; the paper's is 4; with 8 the 3P-SMH "
                        "values are consistent with its printed ones (default: 4)")
    s.add_argument("--max-iterations", type=int_arg("max-iterations", 1, MAX_ITERATIONS), default=None,
                   help="iteration cap (cfr+, dcfr, fp, fp-realisation; default: the method's own)")
    s.add_argument("--time-limit", type=number_arg("time-limit", float, 0.0, strict=True, maximum=MAX_TIME_LIMIT),
                   default=None, help="seconds (cfr+, dcfr, fp, fp-realisation; default: no limit)")
    add_lp_method(s, "the LP (--method lp)")
    add_quiet(s)
    s.add_argument("--threads", type=int_arg("threads", 1, available_cores()), default=None,
                   help="threads of the CFR and best-response kernels (default: CFR measures one and all "
                        "cores as it runs and keeps the faster; the result does not depend on it)")
    s.set_defaults(func=run_solve)
    z = sub.add_parser("sizes", help="tree sizes of SMH / MMH with 2 and 3 players",
                       description="Public states, information sets and deals of the four variants.")
    z.set_defaults(func=run_sizes)
    a = sub.add_parser("study", help="write one artefact of results/mercer/ (sizes, values, tables, ...)",
                       description="Compute one artefact of the Mercer hold'em study and write it (CSV/PNG "
                                   "with a .meta.json) under --out.")
    a.add_argument("artefact", choices=ARTEFACTS, help="the artefact")
    a.add_argument("--out", type=path_arg, default="results/mercer", help="output folder (default results/mercer)")
    add_sweep(a, "local processes (artefacts " + ", ".join(SWEPT) + ")", cache=True, unit="solves",
              cache_default="OUT/.cache")
    add_quiet(a)
    a.set_defaults(func=run_study)
    g = sub.add_parser("regimes", help="three-player SMH / MMH collusion in the communication, correlated and "
                                       "independent regimes, with the prices (results/mercer_regimes.csv)",
                       description="Solve the colluders' max-min value in every seating of three-player SMH and "
                                   "MMH in three regimes (communication = strong collusion, correlated, "
                                   "independent), each with a certified bracket, and write "
                                   "mercer_regimes.csv and mercer_regimes.prices.csv.")
    g.add_argument("--variants", type=_variants, default=("smh", "mmh"),
                   help="comma-separated: smh, mmh; MMH's correlated and independent rows are bounds, see "
                        "docs/mercer.md (default: smh,mmh)")
    add_out(g, "mercer_regimes")
    g.add_argument("--no-cache", action="store_true",
                   help="solve every case again (default: reuse finished cases from results/.cache/mercer_regimes)")
    add_quiet(g)
    g.set_defaults(func=run_regimes)
    return p


def _variants(text: str):
    """``--variants``: smh, mmh or both, comma-separated."""
    parts = tuple(dict.fromkeys(x.strip().lower() for x in str(text).split(",") if x.strip()))
    if not parts or any(v not in ("smh", "mmh") for v in parts):
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: smh, mmh or smh,mmh")
    return parts


def run_regimes(args) -> int:
    import sys
    import time

    import pandas as pd

    from guts.studies.mercer_regimes import run

    t0 = time.perf_counter()
    df, pr = run(variants=args.variants, out=out_folder(args), progress=not args.quiet,
                 echo=lambda m: print(m, file=sys.stderr), cache=None if args.no_cache else "default")
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_rows", 200):
        print(df.to_string(index=False))
        print()
        print(pr.to_string(index=False))
    print(f"wall time {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


def run_study(args) -> int:
    import sys
    import time

    import pandas as pd

    from guts.errors import GutsInputError
    from guts.studies.mercer import ARTEFACTS, CACHED, SWEPT

    kw = {}
    if args.artefact in SWEPT:
        kw = dict(sweep_args(args), progress=not args.quiet)
        if args.artefact not in CACHED:
            if args.cache:
                raise GutsInputError(f"--cache with artefact {args.artefact!r} (its solves are not cached); "
                                     f"accepted: {', '.join(CACHED)}")
            kw.pop("cache")
    elif args.jobs != 1 or args.backend or args.scheduler:
        raise GutsInputError(f"artefact {args.artefact!r} is not a sweep (--jobs, --backend, --scheduler); "
                             f"accepted: {', '.join(SWEPT)}")
    t0 = time.perf_counter()
    df = ARTEFACTS[args.artefact](args.out, **kw)
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_rows", 200):
        print(df.to_string(index=False))
    print(f"wall time {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


def run_solve(args) -> int:
    import warnings

    from guts.errors import ConvergenceWarning
    from guts.games.poker.mercer import solve
    from guts.games.poker.mercer.solve import failure_text

    method = args.method
    if method is None:
        method = "lp" if (args.players == 2 or (args.collusion or "").lower() in TEAM_COLLUSION) else "pcfr+"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # reported below instead
        r = solve(args.variant, players=args.players, method=method, target=args.target,
                  collusion=args.collusion, team=args.team, max_iterations=args.max_iterations,
                  time_limit=args.time_limit, check=args.check, betting=args.betting,
                  bets=args.bets, progress=not args.quiet, threads=args.threads,
                  lp_method=getattr(args, "lp_method", "auto"))
    name = f"{r.players}P-{r.variant.upper()}"
    if r.collusion:
        name += f", {r.collusion} collusion of seats {r.team[0]},{r.team[1]}"
    if r.collusion in ("correlated", "independent"):
        aim = f", target bracket width {r.target:g}"
    elif r.target is None:
        aim = " (exact)"
    elif r.method in ("fp", "fp-realisation"):
        aim = f", target every player's regret < {r.target:g}"
    else:
        aim = f", target exploitability {r.target:g} (NashConv {r.target * r.stats.players:g})"
    print(f"{name}: method {r.method}{aim}")
    print("values per seat   " + "  ".join(f"{v:+.6f}" for v in r.values))
    if r.collusion == "strong":
        print(f"team value        {r.team_value:+.6f}   team max-min value in "
              f"[{r.certified_lower:+.6f}, {r.certified_upper:+.6f}]")
    elif r.collusion in ("correlated", "independent"):
        print(f"team value        {r.team_value:+.6f}   team max-min value ({r.collusion}) in "
              f"[{r.certified_lower:+.6f}, {r.certified_upper:+.6f}], width "
              f"{max(r.certified_upper - r.certified_lower, 0.0):.3e}")
        status, code = verdict(r.converged)
        if r.collusion == "independent" and not r.converged:
            # no target can be set for a local search (the independent value is NP-hard): its bracket holds
            status, code = "local search done: the bracket above is what holds", 0
        elif not r.converged:
            status = (f"not certified: bracket width {max(r.certified_upper - r.certified_lower, 0.0):.3e} "
                      f"above the target {r.target:g}")
        print(f"solver            {r.method}, {r.num_iter} iterations; solve {r.seconds:.2f} s, build "
              f"{r.build_seconds:.2f} s; {status} (target width {r.target:g})")
        print(f"note              {r.note}")
        return code
    elif r.collusion:
        # weak / strong-separate: the colluders are two players of a three-player game, so no one
        # maximises their joint payoff; the number is their summed payoff at the returned profile,
        # not the team's max-min value (which only the team regimes, solved as such, bracket)
        regime = "--collusion strong" if r.collusion == "strong-separate" else "--collusion correlated / independent"
        print(f"colluders' sum    {r.team_value:+.6f}   the two colluders' summed payoff at this profile (a payoff, "
              f"not the team's max-min value: they do not maximise it as one player; that value: {regime})")
    print(f"exploitability    {certificate_text(r.exploitability)} (NashConv {certificate_text(r.nash_conv)})   "
          f"max regret (Ullman's epsilon) {r.max_regret:.3e}")
    s = r.stats
    print(f"tree              {s.public_states} public states, {_infoset_text(r)}, {s.deals} deals")
    # the wording and exit code of every command (guts solve-game's): certified 0, not certified 1
    status, code = verdict(r.converged)
    if not r.converged:
        status = "not certified: " + failure_text(r.method, r.target, r.exploitability, r.nash_conv, r.max_regret)
    print(f"iterations        {r.num_iter}; solve {r.seconds:.2f} s, build {r.build_seconds:.2f} s; {status}")
    if r.note:
        print(f"note              {r.note}")
    return code


def _infoset_text(r) -> str:
    """``"N information sets (a/b/c per seat)"`` (guts solve-game's format): the total over all
    players of the solved game and each one's; a merged strong-collusion team is one player, so
    there the split is per player, the team's and the victim's."""
    s = r.stats
    per = tuple(int(x) for x in s.info_sets_per_player)
    if len(per) < 2 or sum(per) != s.info_sets:
        return f"{s.info_sets} information sets (all seats together)"
    split = "/".join(map(str, per))
    if r.collusion == "strong":
        team = r.built.seat_player[r.team[0]]
        roles = "/".join(f"team of seats {r.team[0]},{r.team[1]}" if q == team else "victim"
                         for q in range(len(per)))
        return f"{s.info_sets} information sets ({split} per player: {roles})"
    return f"{s.info_sets} information sets ({split} per seat)"


def run_sizes(args) -> int:
    from guts.games.poker.mercer import build_game, variant_rules

    # information sets: the total over all seats, then each seat's (first seat first)
    print(f"{'variant':10s} {'public states':>13s} {'decisions':>9s} {'info sets (all seats)':>21s} "
          f"{'per seat':>16s} {'deals':>6s} {'thesis tree nodes':>17s}")
    for v in ("smh", "mmh"):
        for n in (2, 3):
            s = build_game(variant_rules(v, n), count_full_tree=True).stats
            per = "/".join(str(int(x)) for x in s.info_sets_per_player)
            print(f"{n}P-{v.upper():6s} {s.public_states:13d} {s.decision_nodes:9d} {s.info_sets:21d} "
                  f"{per:>16s} {s.deals:6d} {s.full_tree_nodes:17d}")
    return 0
