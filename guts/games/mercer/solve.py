"""Solve Mercer hold'em: exact LP, CFR+ and the thesis's fictitious play (Ullman 2015, §2, §4, §5).

The thesis's stopping rule (§2.2, Algorithm 1): a profile is an *ε-equilibrium* when every
player's regret -- what a best response gains over his current strategy, the others fixed
-- is below ε, i.e. ``max_p gain_p < ε``. The engine reports ``nash_conv = sum_p gain_p``
and ``exploitability = nash_conv / n``. Since ``max_p gain_p <= nash_conv <= n max_p
gain_p``, CFR+ here stops at ``nash_conv <= ε`` (so the thesis's criterion holds too, with
room to spare), fictitious play stops at the thesis's own criterion, and every result reports
all three numbers (``max_regret``, ``nash_conv``, ``exploitability``).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_choice, check_int, check_positive_float
from guts.errors import ConvergenceWarning, GutsInputError

from .builder import BuiltGame, Collusion, TreeStats, build_game, check_team
from .rules import VARIANTS, variant_rules

__all__ = ["solve", "MercerResult", "METHODS", "DEFAULT_EPSILON", "seat_strategies", "br_gains"]

METHODS = ("lp", "cfr+", "fp")
#: The thesis's target (§3.4: "finding a 0.01-equilibrium").
DEFAULT_EPSILON = 0.01
#: Iteration caps (a run that hits one warns with ConvergenceWarning).
MAX_ITER_CFR = 200_000
MAX_ITER_FP = 200_000


@dataclass(frozen=True)
class MercerResult:
    """A solved Mercer game.

    Attributes
    ----------
    values : ndarray (players,)
        Expected net chips per hand for every seat, first seat first.
    value : float
        ``values[0]``.
    exploitability, nash_conv : float
        Of the returned profile in the solved game (engine definitions: NashConv = sum
        over players of the best-response gain, exploitability = NashConv / players).
    max_regret : float
        The thesis's ε: the largest best-response gain of one player.
    gains : ndarray
        Best-response gain of every player of the solved game.
    strategies : tuple of dict
        Engine strategies of the solved game (a merged strong-collusion team is one player,
        see ``built.seat_player``).
    converged : bool
    num_iter : int
    seconds : float
        Solve time (tree building excluded; see ``build_seconds``).
    """

    variant: str
    players: int
    method: str
    values: np.ndarray
    value: float
    exploitability: float
    nash_conv: float
    max_regret: float
    gains: np.ndarray
    strategies: tuple = field(repr=False)
    converged: bool
    num_iter: int
    seconds: float
    build_seconds: float
    epsilon: float | None
    collusion: str | None
    team: tuple | None
    stats: TreeStats = field(repr=False)
    built: BuiltGame = field(repr=False)
    history: tuple = field(default=(), repr=False)


def br_gains(game, strategies, *, threads=None) -> tuple:
    """(values, best-response gains) of every player of ``game`` (float64, ``threads`` numba
    threads: default all cores)."""
    from guts.engine.extensive import best_response, expected_values

    ev = expected_values(game, strategies, threads=threads)
    gains = np.array([best_response(game, strategies, p, threads=threads).value - ev[p]
                      for p in range(game.num_players)])
    return ev, np.maximum(gains, 0.0)


def seat_values(built: BuiltGame, values: np.ndarray) -> np.ndarray:
    """Per-seat values; a merged team's value is split evenly between its seats (§5)."""
    owner = np.asarray(built.seat_player) if built.seat_player else np.arange(len(values))
    counts = np.bincount(owner, minlength=len(values))
    return np.array([values[owner[s]] / counts[owner[s]] for s in range(len(owner))])


def seat_strategies(built: BuiltGame, strategies) -> tuple:
    """Strategies per seat: for a merged team, each colluder's part of the team strategy."""
    if not built.seat_player or len(set(built.seat_player)) == len(built.seat_player):
        return tuple(strategies)
    return tuple(strategies[q] for q in built.seat_player)


def _validate(variant, players, method, epsilon, collusion, team):
    if not isinstance(variant, str):
        raise GutsInputError(f"unknown variant {variant!r}; accepted: 'smh', 'mmh'")
    variant = check_choice("variant", variant.lower(), VARIANTS)
    players = check_int("players", players, 2, 3)
    method = check_choice("method", str(method).lower(), METHODS)
    if epsilon is not None:
        epsilon = check_positive_float("epsilon", epsilon)
    if collusion is not None:
        collusion = check_choice("collusion", str(collusion).lower(), ("weak", "strong"))
        if players != 3:
            raise GutsInputError(f"collusion needs 3 players (two colluders and a victim); got players={players}")
        if team is None:
            raise GutsInputError("collusion needs a team of two distinct seats of three, e.g. team=(0, 1)")
        team = check_team(team, players)
    elif team is not None:
        raise GutsInputError("team is given but collusion is not ('weak' or 'strong')")
    if method == "lp":
        if not (players == 2 or collusion == "strong"):
            raise GutsInputError(
                "method 'lp' needs a two-player zero-sum game: 2 players, or 3 with strong collusion "
                f"(the team is then one player); got players={players}, collusion={collusion!r}")
        if epsilon is not None:
            raise GutsInputError("epsilon applies to 'cfr+' and 'fp'; the LP is exact")
    return variant, players, method, epsilon, collusion, team


def solve(variant: str = "smh", players: int = 2, method: str = "lp", epsilon: float | None = None,
          collusion: str | None = None, team=None, *, max_iterations: int | None = None,
          time_limit: float | None = None, progress: bool = False, threads=None,
          cfr_options: dict | None = None, **rule_options) -> MercerResult:
    """Solve a Mercer hold'em variant.

    Parameters
    ----------
    variant : {"smh", "mmh"}
        Standard (one pre-flop orbit) or Multiround (two orbits before and after the
        flop) Mercer hold'em (§4.2).
    players : {2, 3}
    method : {"lp", "cfr+", "fp"}
        ``"lp"``: sequence-form LP (exact; 2 players, or 3 with strong collusion, the team
        being one player); ``"cfr+"``: CFR+ until NashConv <= epsilon; ``"fp"``: the thesis's
        fictitious play (Algorithm 1) until every player's regret < epsilon.
    epsilon : float, optional
        Target for the iterative methods (default 0.01, the thesis's).
    collusion : {"weak", "strong"}, optional
        §5: weak = the team's payoffs pooled and split evenly; strong = also each
        colluder sees both colluders' hands.
    team : pair of seats, optional
        The colluders (two distinct seats of three).
    max_iterations, time_limit : optional
        Caps for the iterative methods.
    threads : int, optional
        Threads of the CFR and best-response kernels (default: all cores); the result does
        not depend on it.
    cfr_options : dict, optional
        Extra options of :func:`guts.engine.extensive.cfr_plus` for ``"cfr+"``, e.g.
        ``dict(variant="pcfr+", check="adaptive")`` (the study's choice for large games).
    **rule_options
        Passed to the rules (``check``, ``bets``, ``betting``, ``deck``, ``evaluator``).

    Returns
    -------
    MercerResult

    Examples
    --------
    >>> r = solve("smh", players=2, method="lp")
    >>> round(float(r.values[0]), 4), round(float(r.values[1]), 4)
    (-0.1042, 0.1042)
    """
    variant, players, method, epsilon, collusion, team = _validate(
        variant, players, method, epsilon, collusion, team)
    from guts.engine import extensive as E

    t0 = time.perf_counter()
    rules = variant_rules(variant, players, **rule_options)
    coll = Collusion(team, collusion) if collusion else None
    built = build_game(rules, coll, merge_team=(method == "lp" and collusion == "strong"))
    game = built.game
    build_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    history = ()
    if method == "lp":
        res = E.solve_lp(game)
        eps = None
    elif method == "cfr+":
        eps = DEFAULT_EPSILON if epsilon is None else epsilon
        res = E.cfr_plus(game, iterations=max_iterations or MAX_ITER_CFR,
                         target_exploitability=eps / game.num_players, time_limit=time_limit,
                         progress=progress, threads=threads, **(cfr_options or {}))
    else:
        eps = DEFAULT_EPSILON if epsilon is None else epsilon
        kwargs = dict(epsilon=eps, max_iterations=max_iterations or MAX_ITER_FP, progress=progress)
        if time_limit is not None:
            kwargs["time_limit"] = time_limit
        res = E.fictitious_play(game, **kwargs)
    seconds = time.perf_counter() - t1
    history = tuple(getattr(res, "history", ()) or ())
    ev, gains = br_gains(game, res.strategies, threads=threads)
    nc = float(gains.sum())
    converged = bool(res.converged)
    if method == "cfr+" and nc > eps * (1 + 1e-9):
        converged = False
    if method == "fp" and gains.max() >= eps:
        converged = False
    if not converged:
        warnings.warn(f"{method} on {game.name} stopped at NashConv {nc:.3g} (target epsilon {eps})",
                      ConvergenceWarning, stacklevel=2)
    values = seat_values(built, ev)
    return MercerResult(
        variant=variant, players=players, method=method, values=values, value=float(values[0]),
        exploitability=nc / game.num_players, nash_conv=nc, max_regret=float(gains.max()), gains=gains,
        strategies=tuple(res.strategies), converged=converged, num_iter=int(res.num_iter),
        seconds=seconds, build_seconds=build_seconds, epsilon=eps, collusion=collusion, team=team,
        stats=built.stats, built=built, history=history)
