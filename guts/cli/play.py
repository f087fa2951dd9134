"""``guts play``: the marauding guts-bot of paper §5.1, interactively.

Seats you as player 1 against a coalition of N playing the optimal pseudo-bloc mixture
(solved on the spot, or read from a Table 1 CSV with ``--table``).  The engine is
:mod:`guts.games.guts.bot`; ``guts simulate`` plays many games non-interactively.

Exit codes: 0 after a normal end (``q``, end of input, hand limit reached), 130
after Ctrl-C (a summary is printed in every case), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import signal
import sys

import numpy as np

from guts.cli._bot import add_bot_options, amount as _amount, chips as _chips, player1_arg, strategy_from_args
from guts.cli.options import int_arg
from guts.games.guts.bot import GutsTable

HELP = "play player 1 against the guts-bot's optimal coalition (paper §5.1)"
PROMPT_KEYS = "[h]old / [d]rop / [a]uto Q K / [q]uit / ?"
AUTO_DEFAULT_HANDS = 10
WIDE = 6  # coalitions larger than this are shown as a total


def add_subparser(subparsers):
    p = subparsers.add_parser("play", help=HELP, description=HELP)
    add_bot_options(p, "fresh", "the dealt hands (fresh: a new seed, printed so you can replay the session)")
    p.add_argument("--hands", type=int_arg("hands", 1), default=None,
                   help=f"stop after this many hands (default: until you quit; with --auto: {AUTO_DEFAULT_HANDS})")
    p.add_argument("--auto", type=player1_arg, default=None, metavar="Q",
                   help="no questions: play threshold Q (or 'optimal') automatically for --hands hands "
                        "(default: interactive)")
    p.set_defaults(func=run)
    return p


def _names(n):
    return ["you"] + [f"P{i}" for i in range(2, n + 1)]


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


class _Quit(Exception):
    pass


def _parse_auto(tokens):
    """``a [Q] [K]`` → (Q or 'optimal', K); raises ValueError with the reason."""
    q, k = "optimal", AUTO_DEFAULT_HANDS
    if len(tokens) > 2:
        raise ValueError("auto takes at most a threshold and a number of hands, e.g. 'a 0.7 20'")
    if tokens:
        try:
            q = player1_arg(tokens[0])
        except argparse.ArgumentTypeError:  # at the prompt: a sentence, not the command-line format
            raise ValueError(f"a threshold must be in [0, 1] (or 'opt'); got {tokens[0]!r}") from None
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


def run(args) -> int:
    s = strategy_from_args(args)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    out = print
    table = GutsTable(s, random_state=seed)
    limit = args.hands if args.hands is not None else (AUTO_DEFAULT_HANDS if args.auto is not None else None)
    auto_q, auto_left = (args.auto, limit) if args.auto is not None else (None, 0)
    read = sys.stdin.readline
    if sys.stdin.isatty():
        # Ctrl-C at the prompt leaves with a summary even when a parent (nohup, a script's
        # background job) started us with SIGINT ignored, which Python would otherwise keep
        signal.signal(signal.SIGINT, signal.default_int_handler)
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
