"""Family-specific panels of the strategy explorer (:mod:`guts.studies.view`), and solutions
read back with the game their family rebuilds.

A panel is a small JSON document that the page draws above the public tree:

* ``grid`` -- hold'em (:mod:`guts.games.holdem`): the usual 13 x 13 chart of the 169
  pre-flop classes (pairs on the diagonal, suited hands above it, offsuit below), every cell
  coloured by the probability of the chosen action, one chart per decision of a player whose
  types are the 169 classes;
* ``table`` -- Mercer hold'em (:mod:`guts.games.poker.mercer`, Ullman 2015): every seat's
  bet frequency (the probability of its aggressive actions: bets and raises) per hand class,
  at each decision where the seat acts for the first time in the first betting round;
* ``steps`` -- continuous guts (:mod:`guts.games.guts`, paper §5): the probability of holding
  as a function of the card value x, ``P(hold | x) = sum of the weights of the thresholds
  below x`` (a player holds when his hand exceeds his threshold), for player 1 and for every
  coalition member (1 v. N), or for every member of both teams (m v. n);
* ``bands`` -- continuous poker (:mod:`guts.games.continuous_poker`, Spears 2025): the
  bettor's check / bet regions and the caller's call regions on [0, 1] of a discretised LP
  solution, beside the closed-form equilibrium's regions and call thresholds c(s).

Probabilities go into the page in units of ``1 / PROB_UNITS`` (four decimals), as the
strategy tables do.  :func:`load_for_view` reads a solution file and rebuilds its game from
what the file records (the family loaders of ``guts.games.<family>.persist``), so that
``guts view SOLUTION`` needs no ``--game`` for these families.
"""
from __future__ import annotations

import os
import re

import numpy as np

from guts.errors import GutsInputError


__all__ = ["family_panels", "holdem_panels", "mercer_panels", "guts_panels", "continuous_poker_panels",
           "load_for_view", "MAX_GRIDS", "FAMILY_LOADERS"]

#: Probabilities are written into the page as integers in units of ``1 / PROB_UNITS``
#: (four decimals; :mod:`guts.studies.view` reads this constant from here).
PROB_UNITS = 10_000
#: Hold'em charts drawn at most (the first decisions in breadth-first order).
MAX_GRIDS = 8
#: Labels of the passive actions of the poker builder (fold, check, call): every other
#: action of a Mercer decision is a bet or a raise.
PASSIVE = ("f", "k", "c")
#: Mercer games are named ``2P-SMH``, ``3P-MMH`` and so on (:func:`guts.games.poker.rules.variant_rules`).
MERCER_NAME = re.compile(r"^\dP-[A-Z]+")
#: A strongly colluding team merged into one player: ``3P-SMH-team(1, 2)``.
TEAM_NAME = re.compile(r"-team\((\d+), (\d+)\)")
#: Root actions of a discretised continuous-poker game (:func:`guts.games.continuous_poker.discrete.discretised_game`).
BET_LABEL = re.compile(r"^bet(\d+):(.+)$")
#: The most caller bands (bet sizes) drawn.
MAX_SIZE_BANDS = 5


def _units(a) -> list:
    return np.rint(np.clip(np.asarray(a, dtype=float), 0.0, 1.0) * PROB_UNITS).astype(np.int64).ravel().tolist()


def _dict_strategies(solution):
    s = getattr(solution, "strategies", None)
    if isinstance(s, (tuple, list)) and s and all(isinstance(sp, dict) for sp in s):
        return tuple(s)
    return None


def _where(h) -> str:
    return "the root" if not h else " \u00b7 ".join(str(x) for x in h)


def _type_labels(game, p) -> tuple:
    labels = getattr(game.deals, "type_labels", None)
    return tuple(str(x) for x in labels[p]) if labels is not None else tuple(str(t) for t in range(game.num_types[p]))


# ---------------------------------------------------------------------------- hold'em
def holdem_panels(solution, game) -> list:
    """13 x 13 charts of every decision (up to :data:`MAX_GRIDS`) of a player whose types are
    the 169 pre-flop classes (:data:`guts.games.holdem.cards.CLASS_LABELS`)."""
    from guts.games.holdem.cards import CLASS_LABELS

    strategies = _dict_strategies(solution)
    if strategies is None or game is None:
        return []
    out = []
    decisions = [(len(h), p, h) for p in range(game.num_players) if _type_labels(game, p) == CLASS_LABELS
                 for h in strategies[p] if isinstance(h, tuple)]
    for _, p, h in sorted(decisions, key=lambda d: (d[0], d[1], [str(x) for x in d[2]]))[:MAX_GRIDS]:
        s = np.asarray(strategies[p][h], dtype=float)
        acts = [str(a) for a in game.action_labels(p)[h]]
        cols = [s[:, k] for k in range(len(acts))]
        raises = [k for k, a in enumerate(acts) if a.startswith("r")]
        default = acts.index("c") if "c" in acts else len(acts) - 1
        if len(raises) > 1:
            acts.append("any raise")
            cols.append(s[:, raises].sum(axis=1))
            default = len(acts) - 1
        elif raises:
            default = raises[0]
        out.append({"kind": "grid", "title": f"Hold'em chart: player {p} at {_where(h)}",
                    "note": "169 pre-flop classes: pairs on the diagonal, suited above it, offsuit below; "
                            "colour and number: the probability of the chosen action",
                    "player": p, "history": [str(x) for x in h], "labels": list(CLASS_LABELS), "actions": acts,
                    "probs": [_units(c) for c in cols], "default": default})
    return out


# ---------------------------------------------------------------------------- Mercer
def _first_round_openings(strategies):
    """Per player, the decisions where he acts for the first time in the first betting round:
    histories every proper prefix of which is a decision (no chance event above) and none of
    them his own."""
    owner = {}
    for p, sp in enumerate(strategies):
        for h in sp:
            if isinstance(h, tuple):
                owner[h] = p
    out = [[] for _ in strategies]
    for h, p in owner.items():
        prefixes = [h[:k] for k in range(len(h))]
        if all(q in owner for q in prefixes) and all(owner[q] != p for q in prefixes):
            out[p].append(h)
    return [sorted(hs, key=lambda h: (len(h), [str(x) for x in h])) for hs in out]


def bet_frequency(strategy, actions) -> np.ndarray:
    """Probability of the aggressive actions (every label but fold ``f``, check ``k`` and call
    ``c``) per type of one decision."""
    s = np.asarray(strategy, dtype=float)
    agg = [k for k, a in enumerate(actions) if str(a) not in PASSIVE]
    return s[:, agg].sum(axis=1) if agg else np.zeros(s.shape[0])


def _mercer_seats(name: str, n: int) -> list:
    """Who each player of a Mercer game is: ``seat s``, or the merged team of a strong collusion
    (a game named ``...-team(a, b)``: its players are the team's lower seat and the others, in order)."""
    m = TEAM_NAME.search(name)
    if not m:
        return [f"seat {p}" for p in range(n)]
    team = (int(m.group(1)), int(m.group(2)))
    seats = sorted({min(team)} | {s for s in range(n + 1) if s not in team})
    return [f"the team (seats {team[0]} and {team[1]})" if s == min(team) else f"seat {s}" for s in seats[:n]]


def mercer_panels(solution, game, *, force: bool = False) -> list:
    """One ``table`` per seat: bet frequency per hand class at each of the seat's first
    decisions of the first betting round (``force``: whatever the game's name)."""
    strategies = _dict_strategies(solution)
    if strategies is None or game is None:
        return []
    if not force and not MERCER_NAME.match(str(getattr(game, "name", ""))):
        return []
    out = []
    who = _mercer_seats(str(getattr(game, "name", "")), game.num_players)
    for p, hs in enumerate(_first_round_openings(strategies)):
        if not hs:
            continue
        labels = game.action_labels(p)
        freq = np.column_stack([bet_frequency(strategies[p][h], labels[h]) for h in hs])
        cols = ["opening" if not h else " ".join(str(x) for x in h) for h in hs]
        out.append({"kind": "table", "title": f"Mercer: bet frequencies of {who[p]} (first betting round)",
                    "note": "probability of betting or raising (any size) per hand, at each decision where "
                            "the seat acts first in the round; columns: the actions before it",
                    "player": p, "corner": "hand \\ before", "rows": list(_type_labels(game, p)), "cols": cols,
                    "histories": [[str(x) for x in h] for h in hs], "vals": _units(freq)})
    return out


# ---------------------------------------------------------------------------- guts
def _side_lines(name, strategy) -> list:
    """``steps`` lines of one side: a dict ``{threshold: p}`` is one line, a dict
    ``{(p_1, ..., p_N): p}`` one line per member (its marginal law of thresholds)."""
    items = [(k, float(np.asarray(v, dtype=float))) for k, v in strategy.items()]
    if all(isinstance(k, (int, float, np.floating)) and not isinstance(k, bool) for k, _ in items):
        return [{"name": name, "at": [float(k) for k, _ in items], "w": [w for _, w in items]}]
    if not all(isinstance(k, tuple) and k and all(isinstance(x, (int, float, np.floating)) for x in k)
               for k, _ in items):
        return []
    size = {len(k) for k, _ in items}
    if len(size) != 1:
        return []
    lines = []
    for m in range(size.pop()):
        law = {}
        for k, w in items:
            law[float(k[m])] = law.get(float(k[m]), 0.0) + w
        at = sorted(law)
        lines.append({"name": f"{name}, member {m + 1}", "at": at, "w": [law[t] for t in at]})
    return lines


def guts_panels(solution) -> list:
    """The hold probability of every player of a 1 v. N (or team) guts solution as a function of
    the card value (a ``steps`` panel: player 1 and each coalition member)."""
    s = getattr(solution, "strategies", None)
    if not (isinstance(s, (tuple, list)) and len(s) == 2 and all(isinstance(x, dict) and x for x in s)):
        return []
    names = ("player 1", "coalition") if not isinstance(next(iter(s[0])), tuple) else ("team 1", "team 2")
    lines = _side_lines(names[0], s[0]) + _side_lines(names[1], s[1])
    if not lines or any(not (0.0 <= t <= 1.0) for ln in lines for t in ln["at"]):
        return []
    return [{"kind": "steps", "title": "Guts: probability of holding as a function of the card value",
             "note": "a player holds when his hand x exceeds his threshold: P(hold | x) is the weight of the "
                     "thresholds below x; the table lists each line's thresholds and weights",
             "xlabel": "card value x", "atlabel": "threshold", "lines": lines, "players": list(names)}]


# ---------------------------------------------------------------------------- continuous poker
def _runs(values):
    """``(start, stop, value)`` of the runs of equal consecutive values."""
    out, k = [], 0
    while k < len(values):
        j = k
        while j + 1 < len(values) and values[j + 1] == values[k]:
            j += 1
        out.append((k, j + 1, values[k]))
        k = j + 1
    return out


def _bet_grid(sizes):
    """``(L, U)`` of the discretised game's sizes (its grid drops a size 0: the step tells)."""
    lo, hi = sizes[0], sizes[-1]
    if len(sizes) > 1:
        step = (hi - lo) / (len(sizes) - 1)
        if abs(lo - step) <= 1e-5 * max(1.0, hi):        # linspace(0, U, K) without its 0
            lo = 0.0
    return lo, hi


def continuous_poker_panels(solution, game) -> list:
    """The bettor's and the caller's regions on [0, 1] of a discretised continuous-poker
    solution (a ``bands`` panel), with the closed form's (Spears 2025) beside them."""
    strategies = _dict_strategies(solution)
    if strategies is None or game is None or game.num_players != 2 or () not in strategies[0]:
        return []
    root = [str(a) for a in game.action_labels(0)[()]]
    if not root or root[0] != "check" or len(root) < 2 or not all(BET_LABEL.match(a) for a in root[1:]):
        return []
    sizes = [float(BET_LABEL.match(a).group(2)) for a in root[1:]]
    s = np.asarray(strategies[0][()], dtype=float)
    M = s.shape[0]
    act = np.argmax(s, axis=1)
    checks = np.nonzero(act == 0)[0]
    mid = float(np.median(checks)) if checks.size else M / 2.0
    rows = []
    segs = []
    for a, b, k in _runs(act.tolist()):
        what = "check" if k == 0 else f"bet {sizes[k - 1]:g}"
        cls = "check" if k == 0 else ("bluff" if b - 1 < mid else "value")
        segs.append([a / M, b / M, what, cls])
    rows.append({"name": f"bettor, LP ({M} hands, most likely action)", "segs": segs})
    from guts.games.continuous_poker import limit_poker, von_neumann

    lo, hi = _bet_grid(sizes)
    closed = von_neumann(hi) if len(sizes) == 1 else limit_poker(lo, hi)
    segs = []
    for r in closed.regions:
        if r.hi - r.lo <= 0:
            continue
        what = "check" if r.role == "check" else (f"{r.role} {r.bet:g}" if r.bet is not None else
                                                   f"{r.role}, size varies")
        segs.append([float(r.lo), float(r.hi), what, r.role if r.role in ("check", "bluff", "value") else "bet"])
    rows.append({"name": f"bettor, closed form ({closed.name})", "segs": segs})
    picks = np.unique(np.linspace(0, len(sizes) - 1, min(len(sizes), MAX_SIZE_BANDS)).round().astype(int))
    thresholds = []
    for k in picks:
        lab = root[k + 1]
        call = np.asarray(strategies[1][(lab,)], dtype=float)[:, 1]
        calls = (call > 0.5).tolist()
        rows.append({"name": f"caller facing {sizes[k]:g}, LP (call prob. > 1/2)",
                     "segs": [[a / M, b / M, "call" if c else "fold", "call" if c else "fold"]
                              for a, b, c in _runs(calls)]})
        c = float(closed.c(sizes[k]))
        thresholds.append(c)
        rows.append({"name": f"caller facing {sizes[k]:g}, closed form", "segs": [
            seg for seg in ([0.0, c, "fold", "fold"], [c, 1.0, "call", "call"]) if seg[1] > seg[0]]})
    return [{"kind": "bands", "title": "Continuous poker: bet and call regions on [0, 1]",
             "note": f"bet sizes in [{lo:g}, {hi:g}] (fractions of the pot); closed form: Spears, Limit "
                     "Continuous Poker (2025); a region of the LP is the hands' most likely action",
             "xlabel": "hand", "rows": rows, "sizes": [sizes[k] for k in picks], "c": thresholds}]


# ---------------------------------------------------------------------------- dispatch
def family_panels(solution, game=None) -> list:
    """Every family panel that fits ``solution`` (and ``game``): hold'em charts, Mercer bet
    frequencies, continuous-poker regions, guts thresholds; ``[]`` when none does."""
    if game is None:
        return guts_panels(solution)
    return holdem_panels(solution, game) + mercer_panels(solution, game) + continuous_poker_panels(solution, game)


def _load_mercer(path, verify):
    from guts.games.poker.mercer.persist import load_mercer

    return load_mercer(path, verify=verify)


def _load_raise_game(path, verify):
    from guts.games.holdem.persist import load_raise_game

    return load_raise_game(path, verify=verify)


def _load_discretised(path, verify):
    from guts.games.continuous_poker.persist import load_discretised

    return load_discretised(path, verify=verify)


def _load_coalition(path, verify):
    from guts.games.guts.persist import load_coalition

    return load_coalition(path, verify=verify)


def _load_teams(path, verify):
    from guts.games.guts.persist import load_teams

    return load_teams(path, verify=verify)


#: Result class -> the function reading such a file back with its (rebuilt) game (static,
#: deferred imports: a family is imported only when one of its files is read).
FAMILY_LOADERS = {
    "guts.games.poker.mercer.solve.MercerResult": _load_mercer,
    "guts.games.holdem.raise_game.RaiseGameResult": _load_raise_game,
    "guts.games.continuous_poker.discrete.DiscretisedSolution": _load_discretised,
    "guts.games.guts.coalition.CoalitionResult": _load_coalition,
    "guts.games.guts.teams.TeamResult": _load_teams,
}


def load_for_view(path, game=None, *, verify: bool = True) -> tuple:
    """``(solution, game, title)`` of a solution file, its certificate checked against the game.

    With ``game`` (an extensive-form game), :func:`guts.engine.extensive.persist.load_solution`;
    without, the file's family rebuilds the game from what the file records
    (:data:`FAMILY_LOADERS`; ``game`` is then ``None`` for a family whose solution is not of
    an extensive-form game, e.g. a guts coalition).  ``title`` is the page's default title
    (``None``: the game's name and the method).
    """
    from guts.engine.extensive.persist import load_solution
    from guts.engine.persist import SOLUTION_FORMAT, from_json, read_container

    if game is not None:
        return load_solution(path, game=game, verify=verify), game, None
    meta, _ = read_container(path, SOLUTION_FORMAT)
    cls = str(meta.get("result", {}).get("class", ""))
    target = FAMILY_LOADERS.get(cls)
    if target is None:
        families = ", ".join(sorted(c.rsplit(".", 1)[-1] for c in FAMILY_LOADERS))
        raise GutsInputError(f"{os.fspath(path)!r} holds a {cls.rsplit('.', 1)[-1] or 'solution'} whose game the "
                             f"file does not record; accepted: --game GAME (the game solved), or a file of "
                             f"{families}")
    solution, game = target(path, verify)
    title = None
    if game is None:
        f = {k: from_json(v["json"]) for k, v in meta["result"]["fields"].items() if "json" in v}
        sides = f"{f.get('m')} v. {f.get('n')} guts teams" if "m" in f else f"1 v. {f.get('size')} guts"
        structure = f.get("structure")
        structure = "/".join(structure) if isinstance(structure, tuple) else structure
        title = f"{sides} ({structure}, mesh {f.get('mesh')}): {solution.method} solution"
    return solution, game, title
