"""``guts play`` and ``guts simulate``: the marauding guts-bot of paper §5.1.

``guts play`` seats you as player 1 against a coalition of N playing the optimal
pseudo-bloc mixture (solved on the spot, or read from a Table 1 CSV with
``--table``); ``guts simulate`` plays many games non-interactively and compares
player 1's mean return per game with the exact value.  The engine is
:mod:`guts.bot`.

Exit codes: 0 after a normal end (``q``, end of input, hand limit reached), 130
after Ctrl-C (a summary is printed in every case), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from ._validate import GutsInputError
from .bot import MAX_OPPONENTS, GutsTable, bot_strategy, load_bot_strategy, simulate
from .cli_args import int_arg

PROMPT_KEYS = "[h]old / [d]rop / [a]uto Q K / [q]uit / ?"
AUTO_DEFAULT_HANDS = 10
WIDE = 6  # coalitions larger than this are shown as a total


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------
def _player1_arg(text):
    """A threshold in [0, 1] or 'optimal'/'opt'."""
    if text.strip().lower() in ("opt", "optimal"):
        return "optimal"
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a threshold in [0, 1] or 'optimal'; got {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"a threshold must be in [0, 1]; got {text!r}")
    return v


def _common(p, seed_default, seed_help):
    p.add_argument("--opponents", "-N", type=int_arg("opponents", 1, MAX_OPPONENTS), default=2,
                   help=f"coalition size N (1..{MAX_OPPONENTS}; default 2): you play a table of N + 1")
    p.add_argument("--mesh", type=int_arg("mesh", 2, 1001), default=None,
                   help="mesh points of the solved game (default 101, as the paper's bot)")
    p.add_argument("--table", default=None, metavar="CSV",
                   help="read the strategies from a Table 1 CSV (e.g. results/table1.csv) instead of solving")
    p.add_argument("--seed", type=int_arg("seed", 0), default=seed_default, help=seed_help)


def _strategy(args):
    if args.table is not None:
        if args.mesh is not None:
            raise GutsInputError("give either --table (its own mesh) or --mesh, not both")
        return load_bot_strategy(args.table, args.opponents)
    return bot_strategy(args.opponents, mesh=args.mesh or 101)


def add_arguments_play(p):
    _common(p, None, "seed of the session (integer >= 0; default: a fresh one, printed so you can replay)")
    p.add_argument("--hands", type=int_arg("hands", 1), default=None,
                   help=f"stop after this many hands (with --auto: default {AUTO_DEFAULT_HANDS})")
    p.add_argument("--auto", type=_player1_arg, default=None, metavar="Q",
                   help="no questions: play threshold Q (or 'optimal') automatically for --hands hands")


def add_arguments_simulate(p):
    _common(p, 0, "random state (integer >= 0; default 0)")
    p.add_argument("--games", type=int_arg("games", 2), default=200_000, help="games to play (default 200000)")
    p.add_argument("--player1", type=_player1_arg, default="optimal", metavar="Q",
                   help="player 1's threshold in [0, 1], or 'optimal' (its fixed-point mixture; default)")


# ---------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------
def _names(n):
    return ["you"] + [f"P{i}" for i in range(2, n + 1)]


def _chips(x) -> str:
    """Chips are integers (antes 1, pots multiplied by integers); print them so."""
    return f"{x:+,.0f}" if abs(x - round(x)) < 1e-9 else f"{x:+,.4f}"


def _amount(x) -> str:
    return _chips(x)[1:] if x >= 0 else _chips(x)


def _balances(table: GutsTable) -> str:
    b = table.balances
    names = _names(b.size)
    if b.size - 1 <= WIDE:
        parts = [f"{nm} {_chips(v)}" for nm, v in zip(names, b)]
    else:
        parts = [f"you {_chips(b[0])}", f"coalition P2..P{b.size} total {_chips(b[1:].sum())}"]
    return " | ".join(parts) + f" | pot {_amount(table.pot)}"


def _list(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _header(s, seed, out):
    n = s.n
    members = f"P2..P{n}" if s.size > 1 else "P2"
    out(f"guts-bot: you are player 1 against a coalition of {s.size} ({members}), {n}-player continuous guts.")
    out(f"The coalition plays the optimal {s.structure} mixture of {s.source},")
    out(f"mesh {s.mesh}, redrawn before every hand (thresholds of {members}; a*k = k players at a):")
    for prof, w in s.components():
        out(f"    hold above {prof:<22} with probability {w:.4f}")
    cert = ""
    if np.isfinite(s.certified_lower) and np.isfinite(s.certified_upper):
        cert = f" (Theorem 1.2 certificate: an interval of width {s.certified_upper - s.certified_lower:.1e})"
    out(f"Value of the game for you: V = {s.value:+.6f} per game{cert}.")
    out("Rules (paper §3): each game everyone antes 1; hands are uniform on [0, 1]. One holder takes the")
    out("pot and the game ends; with h >= 2 holders the best hand takes the pot and every other holder")
    out("matches it (the pot grows h - 1 times); if everybody drops, redeal.")
    out(f"Seed {seed} (replay this session with --seed {seed}).")


def _help(s, out):
    out("  h / hold    hold this hand          d / drop   drop it")
    out("  a Q K       play threshold Q (0..1, or 'opt' = your optimal mixture) automatically for K hands")
    out(f"              (K defaults to {AUTO_DEFAULT_HANDS}); Q alone: 'a 0.7'")
    out("  q / quit    leave with a summary (end of input and Ctrl-C do the same)")
    hint = " ".join(f"{t:g} (prob {w:.2f})" for t, w in s.player1_components())
    out(f"  hint: your optimal play holds above {hint}, redrawn each hand.")


def _describe_hand(r, out):
    names = _names(r.holds.size)
    d = r.deal
    shown = []
    for i in range(1, r.holds.size):
        shown.append(f"{names[i]} holds {d.hands[i]:.4f}" if r.holds[i] else f"{names[i]} drops")
    if r.holds.size - 1 > WIDE:
        held = [names[i] for i in range(1, r.holds.size) if r.holds[i]]
        shown = [f"{len(held)} of {r.holds.size - 1} hold" + (": " + ", ".join(
            f"{names[i]} {d.hands[i]:.4f}" for i in range(1, r.holds.size) if r.holds[i]) if held else "")]
    out("  " + ", ".join(shown))
    pot = r.pot_before
    if r.holders == 0:
        out(f"  everybody dropped: redeal, the pot stays {_amount(pot)}")
    elif r.holders == 1:
        who = "you hold alone and take" if r.winner == 0 else f"{names[r.winner]} holds alone and takes"
        out(f"  {who} the pot of {_amount(pot)}: game over")
        out(f"  game {d.game} result for you: {_chips(r.game_balances[0])}")
    else:
        losers = [names[i] for i in range(r.holds.size) if r.holds[i] and i != r.winner]
        verb = "match" if len(losers) > 1 or losers[0] == "you" else "matches"
        best = "you have" if r.winner == 0 else f"{names[r.winner]} has"
        take = "take" if r.winner == 0 else "takes"
        each = " each" if len(losers) > 1 else ""
        out(f"  {best} the best hand ({d.hands[r.winner]:.4f}) and {take} the pot of {_amount(pot)}; "
            f"{_list(losers)} {verb} it ({_amount(pot)}{each}): new pot {_amount(r.pot_after)}")


def _summary(table: GutsTable, s, seed, out):
    res = np.asarray(table.results)
    g = res.size
    h = table.hands_played
    out(f"Session summary (seed {seed}): {h} hand{'s' if h != 1 else ''}, "
        f"{g} game{'s' if g != 1 else ''} finished.")
    if g:
        out(f"  your net over finished games: {_chips(res.sum())} (mean {res.mean():+.4f} per game; "
            f"value of the game for you V = {s.value:+.6f} per game)")
    if table.in_game:
        out(f"  game {table.games_started} unfinished: the pot of {_amount(table.pot)} is left on the table "
            f"(your chips in this game {_chips(table.game_balances[0])})")
    out(f"  balances: {_balances(table)}")


# ---------------------------------------------------------------------------
# guts play
# ---------------------------------------------------------------------------
class _Quit(Exception):
    pass


def _parse_auto(tokens):
    """``a [Q] [K]`` → (Q or 'optimal', K); raises ValueError with the reason."""
    q, k = "optimal", AUTO_DEFAULT_HANDS
    if len(tokens) > 2:
        raise ValueError("auto takes at most a threshold and a number of hands, e.g. 'a 0.7 20'")
    if tokens:
        try:
            q = _player1_arg(tokens[0])
        except argparse.ArgumentTypeError as exc:
            raise ValueError(str(exc)) from None
    if len(tokens) == 2:
        try:
            k = int(tokens[1])
        except ValueError:
            raise ValueError(f"the number of hands must be an integer >= 1; got {tokens[1]!r}") from None
        if k < 1:
            raise ValueError(f"the number of hands must be an integer >= 1; got {k}")
    return q, k


def _ask(s, out, read):
    """Read until a valid answer: True (hold), False (drop) or ('auto', Q, K)."""
    while True:
        sys.stdout.write(f"  hold or drop? {PROMPT_KEYS} ")
        sys.stdout.flush()
        line = read()
        if line == "":
            raise EOFError
        words = line.strip().lower().split()
        if not words:
            out("  please answer h (hold) or d (drop); ? for help")
            continue
        cmd = words[0]
        if cmd in ("h", "hold") and len(words) == 1:
            return True
        if cmd in ("d", "drop") and len(words) == 1:
            return False
        if cmd in ("q", "quit", "exit") and len(words) == 1:
            raise _Quit
        if cmd in ("?", "help") and len(words) == 1:
            _help(s, out)
            continue
        if cmd in ("a", "auto"):
            try:
                q, k = _parse_auto(words[1:])
            except ValueError as exc:
                out(f"  {exc}")
                continue
            return ("auto", q, k)
        out(f"  not understood: {line.strip()!r}; please answer h (hold), d (drop), a Q K, q or ?")


def run_play(args) -> int:
    s = _strategy(args)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    out = print
    table = GutsTable(s, random_state=seed)
    limit = args.hands if args.hands is not None else (AUTO_DEFAULT_HANDS if args.auto is not None else None)
    auto_q, auto_left = (args.auto, limit) if args.auto is not None else (None, 0)
    read = sys.stdin.readline
    _header(s, seed, out)
    if auto_q is None:
        out("Type h to hold, d to drop, a Q K to play threshold Q for K hands, q to quit, ? for help.")
    code = 0
    try:
        while limit is None or table.hands_played < limit:
            d = table.deal()
            if d.new_game:
                out(f"\nGame {d.game}: everyone antes 1, pot {_amount(d.pot)}. "
                    f"Balances: {_balances(table)}")
            out(f"Game {d.game}, hand {d.hand}: pot {_amount(d.pot)}. Your hand: {d.hands[0]:.4f}")
            if auto_left <= 0:
                answer = _ask(s, out, read)
                if isinstance(answer, tuple):
                    _, auto_q, auto_left = answer
            if auto_left > 0:
                q = table.optimal_threshold() if auto_q == "optimal" else auto_q
                hold = bool(d.hands[0] > q)
                tag = "optimal, " if auto_q == "optimal" else ""
                out(f"  auto ({tag}hold above {q:g}): {'hold' if hold else 'drop'}")
                auto_left -= 1
            else:
                hold = answer
            r = table.resolve(hold)
            _describe_hand(r, out)
            out(f"  balances: {_balances(table)}")
    except _Quit:
        out("")
    except EOFError:
        out("\n(end of input)")
    except KeyboardInterrupt:
        out("\n(interrupted)")
        code = 130
    _summary(table, s, seed, out)
    sys.stdout.flush()
    return code


# ---------------------------------------------------------------------------
# guts simulate
# ---------------------------------------------------------------------------
def run_simulate(args) -> int:
    s = _strategy(args)
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
