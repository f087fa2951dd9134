"""``guts poker dividing-point GAME --pot P``: the patent's games by the dividing-point method.

Prints the dividing points (exact where the system was solved in rationals), P1's value
per game (net, ante included) and the certificate: the largest best-response gain of
either player on the continuum.  ``--lp-mesh M`` also solves the M-hand mesh game by
its prefix-sum LP (:mod:`guts.games.dividing_point.mesh_lp`), certified by the engine's
best response, and prints its value; ``--infer`` reads the order from that LP solution
instead of using the patent's and says whether it is the patent's.  When the patent's
printed order does not certify at the pot asked for (it certifies only on an interval of
P), one line says what failed -- the stationary point breaks the printed order, or keeps it
but is not an equilibrium -- with the best-response gain of the profile its points describe,
and the order is read from the mesh LP and certified; when that certified equilibrium has
the patent-order stationary point's dividing points, only interleaved differently, the
line says so and the points are printed with the patent's names.

Exit code 0 when the solution is a certified equilibrium, 1 otherwise, 2 on bad input.
"""
from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from guts.cli.options import add_quiet, int_arg
from guts.errors import GutsInputError

HELP = "the patent's betting games (Hundal and Reitzen, US patent 6,129,631) by the dividing-point method: points, value, certificate"
GAMES = ("a", "b", "c", "d")


#: Pots accepted by ``--pot``: the continuum certificate (largest best-response gain, in
#: floating point) still resolves an equilibrium to 1e-10 on game a from 1e-6 to 1e6 (measured:
#: gain 3e-11 at 1e6, 1.5e-8 at 1e9; 1e12 and beyond raised SolverError, 1e400 OverflowError).
MIN_POT, MAX_POT = Fraction(1, 10**6), Fraction(10**6)
POT_ACCEPTED = f"a number in [{float(MIN_POT):g}, {float(MAX_POT):g}], e.g. 3, 5/2 or 2.5"


def parse_pot(text) -> Fraction:
    """``--pot``: an exact positive number (``3``, ``5/2``, ``2.5``) as a Fraction, for exact arithmetic.

    Checked when the command runs (``GutsInputError``, same one-line format as the parser's errors).
    """
    t = str(text).strip()
    if len(t) > 40:  # Fraction("1e999999999") would build a billion-digit integer
        raise GutsInputError(f"--pot {t[:20]}...; accepted: {POT_ACCEPTED}")
    try:
        if "/" not in t:  # decimal forms: range first, so 1e999999999 is not expanded exactly
            f = float(t)
            if not float(MIN_POT) <= f <= float(MAX_POT):
                raise GutsInputError(f"--pot {t}; accepted: {POT_ACCEPTED}")
        v = Fraction(t)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise GutsInputError(f"--pot {t!r}; accepted: {POT_ACCEPTED}") from None
    if not MIN_POT <= v <= MAX_POT:
        raise GutsInputError(f"--pot {t}; accepted: {POT_ACCEPTED}")
    return v


def lp_mesh_arg(text):
    """``--lp-mesh``: 0 (none) or a mesh of at least 2 hands."""
    v = int_arg("lp-mesh", 0)(text)
    if v == 1:
        raise argparse.ArgumentTypeError("1; accepted: 0 (no LP) or integers >= 2")
    return v


def add_subparser(poker_subparsers):
    """Add ``dividing-point`` to the ``poker`` group's subparsers."""
    p = poker_subparsers.add_parser("dividing-point", help=HELP, description=HELP)
    p.add_argument("game", choices=GAMES,
                   help="a: no raising (FIG. 6); b: raising, no check-raise (FIGS. 10A-B); "
                        "c: check-raise (FIGS. 23A-C); d: pot limit (FIG. 27)")
    p.add_argument("--pot", default="1", metavar="P", help="total ante P > 0, exact (e.g. 3 or 5/2)")
    p.add_argument("--lp-mesh", type=lp_mesh_arg, default=0, metavar="M",
                   help="also solve the M-hands-per-player mesh game by LP, certified by the engine (0: no)")
    p.add_argument("--infer", action="store_true", help="read the order from the LP (needs --lp-mesh, "
                   "default 120) instead of the patent's")
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def _stage(args, text: str) -> None:
    """One line per long stage on stderr (a mesh LP, the order inference), unless --quiet."""
    if not args.quiet:
        print(f"guts poker dividing-point: {text} ...", file=sys.stderr, flush=True)


def run(args) -> int:
    from guts.games.dividing_point import patent_layout, patent_rules, solve_patent_game
    from guts.games.dividing_point.discrete import solve_mesh
    from guts.games.dividing_point.infer import infer_and_solve, same_polynomial

    pot = parse_pot(args.pot)
    mesh = args.lp_mesh or (120 if args.infer else 0)
    if mesh:  # measured peak memory of the LP used (M^2 deals; see discrete.MESH_BYTES)
        from guts._validate import check_memory
        from guts.games.dividing_point.discrete import mesh_memory_estimate

        check_memory(f"the --lp-mesh {mesh} game",
                     mesh_memory_estimate(patent_rules(args.game), mesh,
                                          "sequence-form" if args.infer else "prefix-sum"),
                     "use a smaller --lp-mesh")
    rules = patent_rules(args.game)
    lp = None
    if args.infer:
        mesh = args.lp_mesh or 120
        _stage(args, f"reading the order from the {mesh}-hand mesh LP (other meshes if it does not certify)")
        io = infer_and_solve(rules, pot, mesh, game=args.game)
        r = io.result
        shape, renaming, same = same_polynomial(rules, patent_layout(args.game), io.layout)
        print(f"order read from the LP at M = {mesh}: "
              + ("the patent's (same E1 up to renaming)" if same else "differs from the patent's"))
        for step in io.steps:
            print(f"  repair/convention: {step}")
        names = {k: renaming.get(k, k) for k in r.points} if shape else {k: k for k in r.points}
        lp_value = io.lp_value
    else:
        r = solve_patent_game(args.game, pot, warn=False, order="patent")
        names = {k: k for k in r.points}
        if not r.converged:  # the printed order holds only on an interval of P: say so, then infer
            from guts.games.dividing_point.patent import PATENT_FIGURES, patent_order_interval

            _stage(args, "the printed order does not certify at this pot: computing its interval of P and "
                         "reading the order from the mesh LP")
            lo, hi = patent_order_interval(args.game)
            if args.lp_mesh:  # the order is read from the sequence form's vertex (infer.READ_FORMULATION)
                from guts._validate import check_memory
                from guts.games.dividing_point.discrete import mesh_memory_estimate

                check_memory(f"reading the order from the --lp-mesh {args.lp_mesh} game",
                             mesh_memory_estimate(rules, args.lp_mesh, "sequence-form"), "use a smaller --lp-mesh")
            r = solve_patent_game(args.game, pot, warn=False, mesh=args.lp_mesh or 120)
            same = r.extra["same_points_as_patent"]
            print(f"the patent's printed order ({PATENT_FIGURES[args.game]}) certifies only for "
                  f"{lo:.4g} <= P <= {hi:.4g}; at P = {pot}: {r.extra['patent_failure']}. Below: the order "
                  f"read from the {r.extra['mesh']}-hand mesh LP, solved exactly and certified (as --infer)"
                  + (f"; its {len(r.points)} dividing points are the patent-order stationary point's "
                     "(patent's names), interleaved differently" if same else ""))
            names = {k: (r.extra["patent_names"].get(k, k) if same else k) for k in r.points}
            lp_value = None
        if args.lp_mesh:
            _stage(args, f"solving the {args.lp_mesh}-hand mesh game by LP")
            lp = solve_mesh(rules, pot, args.lp_mesh)
        lp_value = lp.value if lp else None
    print(f"game {args.game}: {rules.name}, P = {pot}")
    print("\n".join(" ".join(names.get(t, t) for t in line.split(" ")) for line in r.layout.splitlines()))
    width = max(len(v) for v in names.values())
    for k, v in sorted(r.points.items(), key=lambda kv: kv[1]):
        exact = r.exact_points.get(k, "")
        print(f"  {names[k]:<{width}}  {v:.6f}" + (f"  = {exact}" if exact and "/" in exact else ""))
    print(f"value (P1's net per game, ante included)  {r.value:.10f}"
          + (f"  = {r.value_exact}" if r.value_exact else ""))
    print(f"certificate (largest best-response gain on the continuum)  {r.max_gain:.3g}  "
          f"[order respected: {r.order_ok}; equilibrium: {r.converged}]")
    if lp_value is not None:
        m = args.lp_mesh or 120
        print(f"LP value of the {m}x{m}-deal mesh game  {lp_value:.10f}  (difference {lp_value - r.value:+.3g})")
    return 0 if r.converged else 1
