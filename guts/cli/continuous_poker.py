"""``guts poker continuous``: continuous poker (von Neumann, Newman, limit) in closed form.

Prints the bettor's regions, c(s), b(s), v(s) at a few sizes and the value; ``--check M
K`` solves the discretised game (M hands, K sizes) by LP (the caller's prefix-sum form,
certified by the engine's best response) beside it, ``--certify`` runs the exact continuum best-response check.

    guts poker continuous --min-bet 0.5 --max-bet 1 --bet-sizes 0.5,0.75,1
    guts poker continuous --bet 1 --check 90 1
    guts poker continuous --no-limit --certify
"""
from __future__ import annotations

import argparse

from guts.cli.options import certificate_text, int_arg, number_arg
from guts.errors import GutsInputError
from guts.games.continuous_poker.closed_forms import MAX_BET

#: ``--certify`` certifies the closed form when no hand of either side gains more than this
#: by deviating (per unit of probability) and the closed-form value lies in the quadrature's
#: certified interval widened by it.
CERTIFY_GAIN_TOL = 1e-7

HELP = "continuous poker: von Neumann (--bet), Newman (--no-limit) or limit (--min-bet/--max-bet) in closed form"


def add_subparser(poker_subparsers):
    """Add ``continuous`` to the ``guts poker`` group's subparsers; sets ``func``."""
    p = poker_subparsers.add_parser("continuous", help=HELP, description=HELP)
    p.add_argument("--min-bet", type=number_arg("min-bet", float, 0.0, maximum=MAX_BET), default=None, metavar="L",
                   help="minimum bet, fraction of the pot (default: 0.5; with only --max-bet U: 0.5)")
    p.add_argument("--max-bet", type=number_arg("max-bet", float, 0.0, strict=True, maximum=MAX_BET), default=None, metavar="U",
                   help="maximum bet, fraction of the pot (default: 1; with only --min-bet L: max(1, L))")
    p.add_argument("--bet", type=number_arg("bet", float, 0.0, strict=True, maximum=MAX_BET), default=None, metavar="B",
                   help="von Neumann's game: the one bet size B (default: none, the limit game)")
    p.add_argument("--no-limit", action="store_true", help="Newman's no-limit game")
    p.add_argument("--bet-sizes", dest="bet_sizes", type=str, default=None, metavar="S1,S2,...",
                   help="comma-separated bet sizes at which to print c, b, v (default: 5 across [L, U])")
    # --sizes means coalition sizes everywhere else in guts; kept here, hidden, for old command lines
    p.add_argument("--sizes", dest="bet_sizes", type=str, default=None, help=argparse.SUPPRESS)
    p.add_argument("--check", nargs=2, type=int_arg("check M/K", 1), metavar=("M", "K"), default=None,
                   help="also solve the discretised game (M hands, K sizes) by LP, certified by the engine (default: no)")
    p.add_argument("--certify", action="store_true",
                   help="also run the exact continuum best-response check (largest gains, bounds)")
    p.set_defaults(func=run)
    return p


def _game(args):
    from guts.games.continuous_poker import limit_poker, newman, von_neumann

    limit_given = args.min_bet is not None or args.max_bet is not None
    chosen = sum([args.bet is not None, bool(args.no_limit), limit_given])
    if chosen > 1:
        given = [o for o, on in (("--bet", args.bet is not None), ("--no-limit", bool(args.no_limit)),
                                 ("--min-bet/--max-bet", limit_given)) if on]
        raise GutsInputError(f"game options {' and '.join(given)} together; accepted: one of --bet B, --no-limit, "
                             "or --min-bet L/--max-bet U")
    if args.bet is not None:
        return von_neumann(args.bet)
    if args.no_limit:
        return newman()
    L = 0.5 if args.min_bet is None else args.min_bet
    U = 1.0 if args.max_bet is None else args.max_bet
    if args.max_bet is None and args.min_bet is not None:
        U = max(1.0, L)
    return limit_poker(L, U)


def run(args) -> int:
    game = _game(args)
    sizes = None
    if args.bet_sizes:
        try:
            sizes = [float(t) for t in args.bet_sizes.split(",") if t.strip()]
        except ValueError:
            raise GutsInputError(f"--bet-sizes {args.bet_sizes!r}; accepted: comma-separated numbers in "
                                 "[L, U]") from None
        game.c(sizes)  # validates: GutsInputError naming the size outside [L, U]
    if args.check is not None and game.max_bet == float("inf"):
        raise GutsInputError("--check with an unbounded bet (--no-limit); accepted: a finite maximum bet "
                             "(the discretised game has K sizes in [L, U])")
    print(game.summary(sizes))
    code = 0
    if args.certify:
        from guts.games.continuous_poker.bestresponse import check_equilibrium

        r = check_equilibrium(game)
        print(f"continuum best responses: largest gain of a bettor hand {r.max_bettor_gain:.2e}, "
              f"of a caller hand facing a size {r.max_caller_gain:.2e}")
        print(f"  integrated gains: bettor {r.bettor_gain:.2e}, caller {r.caller_gain:.2e}; "
              f"value by quadrature {r.value:.12f} in [{r.certified_lower:.12f}, {r.certified_upper:.12f}]")
        problem = certify_problem(r)
        print(f"status: {'not certified: ' + problem if problem else 'certified'}")
        code = 1 if problem else 0
    if args.check is not None:
        from guts.games.continuous_poker.discrete import solve_discretised

        M, K = args.check
        r = solve_discretised(game.min_bet, game.max_bet, M, K)
        form = {"lp-caller": "caller's prefix-sum LP", "lp-direct": "bettor's prefix-sum LP"}.get(
            r.lp.method, "sequence-form LP")
        print(f"discretised game, M = {r.hands} hands, K = {r.sizes} sizes ({form}, "
              f"{r.seconds:.2f} s): value {r.value:.12f}, closed form {r.closed_form_value:.12f}, "
              f"difference {r.error:+.3e}, LP exploitability {certificate_text(r.exploitability, '.1e')}")
    return code


def certify_problem(r) -> str:
    """Why a :class:`~guts.games.continuous_poker.bestresponse.ContinuumCheck` does not certify ("" if it does)."""
    import math

    gains = (r.max_bettor_gain, r.max_caller_gain, r.bettor_gain, r.caller_gain, r.certified_lower,
             r.certified_upper, r.closed_form_value)
    if not all(math.isfinite(g) for g in gains):
        return "a best-response gain or bound is not finite"
    if max(r.max_bettor_gain, r.max_caller_gain) > CERTIFY_GAIN_TOL:
        return (f"a hand gains {max(r.max_bettor_gain, r.max_caller_gain):.2e} by deviating "
                f"(tolerance {CERTIFY_GAIN_TOL:g})")
    if not r.certified_lower - CERTIFY_GAIN_TOL <= r.closed_form_value <= r.certified_upper + CERTIFY_GAIN_TOL:
        return (f"closed-form value {r.closed_form_value:.12f} outside the certified interval "
                f"[{r.certified_lower:.12f}, {r.certified_upper:.12f}]")
    return ""
