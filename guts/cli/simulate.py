"""``guts simulate``: many games against the guts-bot; player 1's mean return against the game value."""
from __future__ import annotations

import numpy as np

from guts.cli._bot import add_bot_options, amount as _amount, player1_arg, strategy_from_args
from guts.cli.options import int_arg
from guts.games.guts.bot import simulate

HELP = "simulate many games against the guts-bot: mean return vs the game value"


def add_subparser(subparsers):
    p = subparsers.add_parser("simulate", help=HELP, description=HELP)
    add_bot_options(p, 0, "the simulated games")
    p.add_argument("--games", type=int_arg("games", 2, 10**9), default=200_000, help="games to play")
    p.add_argument("--player1", type=player1_arg, default="optimal", metavar="Q",
                   help="player 1's threshold in [0, 1], or 'optimal' (its fixed-point mixture)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    s = strategy_from_args(args)
    player1 = None if args.player1 == "optimal" else args.player1
    n = s.n
    print(f"guts-bot simulation: player 1 against a coalition of {s.size} ({n} players), "
          f"the optimal {s.structure} mixture of {s.source}, mesh {s.mesh}")
    print("coalition mixture (redrawn every hand): " + ", ".join(f"{p}:{w:.4f}" for p, w in s.components()))
    print(f"game value for player 1: V = {s.value:+.9f} per game")
    r = simulate(s, games=args.games, player1=player1, random_state=args.seed)
    print(f"player 1 plays {r.player1}" + (", redrawn every hand" if player1 is None else ""))
    print(f"games {r.games:,} (seed {args.seed}), hands {r.hands:,} ({r.mean_hands:.3f} per game, "
          f"longest {r.longest_game}), largest pot {_amount(r.largest_pot)}")
    print(f"player 1 mean return per game  {r.mean:+.5f}   {100 * r.confidence:g}% CI "
          f"[{r.ci_low:+.5f}, {r.ci_high:+.5f}]   (sd {r.std:.3f}, se {r.stderr:.5f})")
    if np.isfinite(r.exact):
        print(f"exact expected return          {r.exact:+.5f}   z = {r.z:+.2f}: "
              f"{'inside' if r.contains else 'OUTSIDE'} the interval")
    else:
        print(f"exact expected return          none: the expected stakes multiplier is {r.beta:.3f} >= 1")
    print(f"stakes multiplier per hand: mean {r.beta:.4f}, second moment {r.gamma:.4f} "
          f"({'< 1: finite variance, the interval is valid' if r.gamma < 1 else '>= 1: the variance may be infinite'})")
    print(f"money zero-sum in every game: max |sum of balances + pot| = {r.max_zero_sum_error:g}")
    if r.unfinished:
        print(f"{r.unfinished} games still running after 10000 hands were left out")
    return 0
