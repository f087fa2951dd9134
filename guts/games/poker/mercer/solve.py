"""Solve Mercer hold'em: exact LP, CFR+ / DCFR and fictitious play (Ullman 2015, §2, §4, §5).

Two fictitious plays (:func:`guts.engine.extensive.fictitious_play`): ``method="fp"`` is the
thesis's own program (``rjullman/poker-nasheq``) exactly -- behaviour averaged per
information set with weight 1/(t+1), the uniform start counted, ties to the program's child
order (bets, check, fold; :func:`program_action_priority`), its stopping test and iteration
count (3P-MMH to 0.01: 3 600 iterations, the count of §3.4); ``method="fp-realisation"`` is
classical fictitious play (mixed-strategy average, weight 1/t), the better algorithm (3P-MMH
to 0.01 in 1 925 iterations).

The thesis's stopping rule (§2.2, Algorithm 1): a profile is an *ε-equilibrium* when every
player's regret -- what a best response gains over his current strategy, the others fixed
-- is below ε, i.e. ``max_p gain_p < ε``. The engine reports ``nash_conv = sum_p gain_p``
and ``exploitability = nash_conv / n``. Since ``max_p gain_p <= nash_conv <= n max_p
gain_p``, CFR+ here stops at ``nash_conv <= ε`` (so the thesis's criterion holds too, with
room to spare), fictitious play stops at the thesis's own criterion, and every result reports
all three numbers (``max_regret``, ``nash_conv``, ``exploitability``).

Collusion (§5) has three meanings here, each with the certificate of the game actually solved:

* ``"strong"`` -- the colluders share their hands and their payoffs, so they are ONE player
  (the team) who sees both hands and receives both payoffs; against the victim this is a
  two-player zero-sum game, solved by every method. Its value, the team's max-min value, is
  unique; NashConv of the merged game (team's gain + victim's gain) brackets it:
  ``team_value - gain_victim <= V_team <= team_value + gain_team``.
* ``"strong-separate"`` -- the same information and payoffs, but the colluders kept as two
  separate players of a three-player game (the pooled game of :func:`pool`): an epsilon-Nash
  equilibrium certified by the three-player NashConv, which bounds only *unilateral*
  deviations. Such equilibria are not unique and need not be team-optimal (3P-MMH, seats
  0 and 2 colluding: CFR+ to NashConv 0.01 leaves the victim -0.011 where the team's
  max-min value holds him to -0.304), so its value is NOT the team's value.
* ``"weak"`` -- pooled payoffs, private hands: a three-player game; its NashConv bounds what
  any ONE player (either colluder alone, or the victim) gains by deviating; it does not bound
  what the two colluders gain by deviating together, nor the spread of values over the
  (non-unique) equilibria.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import check_choice, check_int, check_positive_float
from guts.engine.result import Result, ResultCertificate
from guts.errors import ConvergenceWarning, GutsInputError

from ..builder import BuiltGame, Collusion, TreeStats, build_game, check_team
from ..rules import VARIANTS, variant_rules

__all__ = ["solve", "MercerResult", "METHODS", "COLLUSION", "DEFAULT_EPSILON", "seat_strategies",
           "br_gains", "program_action_priority"]

METHODS = ("lp", "pcfr+", "cfr+", "dcfr", "fp", "fp-realisation")
#: ``"pcfr+"``: predictive CFR+ with adaptive best-response checks (the fastest certified
#: iterative method measured on 3P-MMH with a check: 75 iterations against plain CFR+'s 150).
PCFR_OPTIONS = dict(variant="pcfr+", check="adaptive")
#: method -> averaging rule of the engine's fictitious play
FP_AVERAGING = {"fp": "behavioural", "fp-realisation": "realisation"}
#: Accepted ``collusion`` values (see the module docstring).
COLLUSION = ("weak", "strong", "strong-separate")
#: What each certificate bounds (``MercerResult.note``).
NOTES = {
    None: "",
    "strong": ("strong collusion solved as the team game: the colluders are one player who sees both "
               "hands (two-player zero-sum, team vs victim); nash_conv is the merged game's, and "
               "[certified_lower, certified_upper] brackets the team's max-min value"),
    "strong-separate": ("strong collusion with the colluders as separate players: a three-player Nash "
                        "equilibrium (nash_conv bounds unilateral deviations only); its values are NOT the "
                        "team's max-min value (use collusion='strong')"),
    "weak": ("weak collusion: a three-player game with pooled payoffs; nash_conv bounds what one player "
             "(a colluder alone or the victim) gains by deviating, not what the two colluders gain by "
             "deviating together"),
}
#: The thesis's target (§3.4: "finding a 0.01-equilibrium").
DEFAULT_EPSILON = 0.01
#: Iteration caps (a run that hits one warns with ConvergenceWarning).
MAX_ITER_CFR = 200_000
MAX_ITER_FP = 200_000


@dataclass(frozen=True)
class MercerResult(Result):
    """A solved Mercer game.

    Attributes
    ----------
    values : ndarray (players,)
        Expected net chips per hand for every seat, first seat first (a strong team's value
        split evenly between its two seats, §5).
    value : float
        ``values[0]``.
    exploitability, nash_conv : float
        Of the returned profile in the solved game (engine definitions: NashConv = sum
        over players of the best-response gain, exploitability = NashConv / players). With
        ``collusion="strong"`` the solved game is the merged two-player team game.
    max_regret : float
        The thesis's ε: the largest best-response gain of one player.
    gains : ndarray
        Best-response gain of every player of the solved game.
    strategies : tuple of dict
        Engine strategies of the solved game (a merged strong-collusion team is one player,
        see ``built.seat_player``).
    converged : bool
        The method's target holds for the certificate above (LP: exploitability within
        ``LP_CERT_TOL``; cfr+/dcfr: ``nash_conv <= epsilon``; fp, fp-realisation:
        ``max_regret < epsilon``).
    num_iter : int
        Iterations of the method; for ``"fp"`` the count the thesis's program prints (its
        stopping test held at the profile before the last average, see
        :func:`guts.engine.extensive.fictitious_play`).
    seconds : float
        Solve time (tree building excluded; see ``build_seconds``).
    regrets : ndarray (num_iter + 1, players) or None
        Fictitious play: every player's regret of the profile at each iteration (rows
        0..num_iter-1 of ``"fp"`` are, as their max per row, the program's printed lines).
    team_value : float or None
        With collusion: the colluders' total (both seats' values summed).
    certified_lower, certified_upper : float
        Two-player zero-sum solved games only (2 players, or ``collusion="strong"``): the
        bracket ``u - gain_opponent <= V <= u + gain_own`` of the game value V of the first
        seat (2 players) or of the team's max-min value (strong collusion; compare with
        ``team_value``). NaN otherwise: a three-player equilibrium certifies no value.
    note : str
        What the certificate bounds (collusion only).

    ``certificate`` (the :class:`~guts.engine.result.Result` protocol) names what the method's
    target measures: the LP's exploitability, CFR+'s / DCFR's NashConv, fictitious play's
    max regret.
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
    team_value: float | None = None
    certified_lower: float = float("nan")
    certified_upper: float = float("nan")
    note: str = ""
    regrets: np.ndarray | None = field(default=None, repr=False)

    @property
    def budget(self) -> dict:
        """What was solved, as ``save`` keeps it: the rules (deck, rounds, evaluator), the
        collusion, the team, the method and its target (:mod:`guts.games.poker.mercer.persist`
        rebuilds the game from it)."""
        from .persist import solved_budget

        return solved_budget(self)

    @property
    def certificate(self) -> ResultCertificate:
        kind = {"lp": "exploitability", "cfr+": "nash_conv", "dcfr": "nash_conv", "fp": "max_regret",
                "fp-realisation": "max_regret"}.get(
            self.method, "nash_conv")
        return ResultCertificate(kind, exploitability=float(self.exploitability), nash_conv=float(self.nash_conv),
                                 max_regret=float(self.max_regret))


def program_action_priority(label: str) -> int:
    """The program's child order at a decision (``PokerGame.buildActionNode``): the bets in
    the order of the rules, then the check (added last to the bets), then the fold; its best
    response takes the first best child, so a tie goes to the smallest key."""
    return {"f": 2, "k": 1}.get(label, 0)


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
        epsilon = check_positive_float("target", epsilon, maximum=10.0)
        if epsilon < 1e-8:  # NashConv in floating point cannot certify less (1e-300 ran forever)
            raise GutsInputError(f"target (epsilon) must be a number in [1e-08, 10]; got {epsilon!r}")
    if collusion is not None:
        collusion = check_choice("collusion", str(collusion).lower(), COLLUSION)
        if players != 3:
            raise GutsInputError(f"collusion needs 3 players (two colluders and a victim); got players={players}")
        if team is None:
            raise GutsInputError("collusion needs a team of two distinct seats of three, e.g. team=(0, 1)")
        team = check_team(team, players)
    elif team is not None:
        raise GutsInputError("team is given but collusion is not; accepted collusion: 'weak', 'strong', "
                             "'strong-separate'")
    if method == "lp":
        if not (players == 2 or collusion == "strong"):
            raise GutsInputError(
                "method 'lp' needs a two-player zero-sum game: 2 players, or 3 with strong collusion "
                f"(the team is then one player); got players={players}, collusion={collusion!r}")
        if epsilon is not None:
            raise GutsInputError("target applies to 'cfr+', 'dcfr', 'fp' and 'fp-realisation'; the LP is exact")
    return variant, players, method, epsilon, collusion, team


def solve(variant: str = "smh", players: int = 2, method: str = "lp", target: float | None = None,
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
    method : {"lp", "pcfr+", "cfr+", "dcfr", "fp", "fp-realisation"}
        ``"lp"``: sequence-form LP (exact; two-player zero-sum games only: 2 players, or 3
        with ``collusion="strong"``); ``"pcfr+"``: predictive CFR+ (Farina, Kroer and Sandholm,
        "Faster game solving via predictive Blackwell approachability", 2021) with adaptive
        best-response checks, until NashConv <= target; ``"cfr+"`` / ``"dcfr"``: CFR+ / discounted CFR until
        NashConv <= epsilon; ``"fp"``: the thesis's program's fictitious play (behaviour
        average; module docstring) and ``"fp-realisation"``: classical fictitious play
        (mixed-strategy average), both until every player's regret < epsilon. ``num_iter``
        counts each rule's own iterations (for ``"fp"`` the program's count) and ``regrets``
        holds every player's regret at every iteration.
    target : float, optional
        Stopping target of the iterative methods (default 0.01, the thesis's ε, §3.4): NashConv
        for ``"cfr+"`` / ``"dcfr"``, every player's regret for ``"fp"`` / ``"fp-realisation"``
        (the result's ``certificate`` names which).  Was ``epsilon`` (``MercerResult.epsilon``
        keeps the value used).
    collusion : {"weak", "strong", "strong-separate"}, optional
        §5. ``"weak"``: the colluders' payoffs are pooled and split evenly, each still
        sees only his own hand (a three-player game; NashConv bounds each single player's
        gain from deviating, not the two colluders' joint gain). ``"strong"``: they also
        see each other's hands, and are solved as what they then are, ONE player (the team)
        against the victim: a two-player zero-sum game, by every method; ``values`` give
        each colluder half the team's value, ``nash_conv`` is the merged game's and
        ``[certified_lower, certified_upper]`` brackets the team's max-min value.
        ``"strong-separate"``: the same information and payoffs with the colluders as two
        separate players (a three-player Nash equilibrium, certified by its NashConv; such
        equilibria are not unique and their value is not the team's max-min value).
    team : pair of seats, optional
        The colluders: two distinct seats of 0, 1, 2 (seats counted from 0 in betting
        order, seat 0 first to act).
    max_iterations, time_limit : optional
        Caps for the iterative methods.
    threads : int, optional
        Threads of the CFR, fictitious-play and best-response kernels (default: measured,
        see :func:`guts.engine.extensive.cfr_plus`); the result does not depend on it.
    cfr_options : dict, optional
        Extra options of :func:`guts.engine.extensive.cfr_plus` for ``"cfr+"`` / ``"dcfr"``,
        e.g. ``dict(variant="pcfr+", check="adaptive")`` (the study's choice beyond the paper;
        it overrides the method's variant).
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
    >>> r = solve("smh", players=3, method="lp", collusion="strong", team=(1, 2))
    >>> round(r.team_value, 4), r.stats.players
    (0.1993, 2)
    """
    variant, players, method, epsilon, collusion, team = _validate(
        variant, players, method, target, collusion, team)
    if max_iterations is not None:  # 0 must not mean "the default" (``max_iterations or ...`` below)
        max_iterations = check_int("max_iterations", max_iterations, 1, 10**9)
    from guts.engine import extensive as E

    t0 = time.perf_counter()
    rules = variant_rules(variant, players, **rule_options)
    # "strong-separate" is the strong information structure on the pooled 3-player game
    coll = Collusion(team, "strong" if collusion == "strong-separate" else collusion) if collusion else None
    built = build_game(rules, coll, merge_team=(collusion == "strong"))
    game = built.game
    build_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    eps = None if method == "lp" else (DEFAULT_EPSILON if epsilon is None else epsilon)
    if method == "lp":
        res = E.solve_lp(game)
    elif method in ("pcfr+", "cfr+", "dcfr"):
        # the engine's target is exploitability = NashConv / players
        base = dict(PCFR_OPTIONS) if method == "pcfr+" else {"variant": method}
        opts = {**base, **(cfr_options or {})}     # cfr_options may name the variant
        res = E.cfr_plus(game, max_iterations=max_iterations or MAX_ITER_CFR,
                         target=eps / game.num_players, time_limit=time_limit,
                         progress=progress, threads=threads, **opts)
    else:
        kwargs = dict(target=eps, max_iterations=max_iterations or MAX_ITER_FP, progress=progress,
                      averaging=FP_AVERAGING[method])
        if method == "fp":
            kwargs["action_priority"] = program_action_priority
        if time_limit is not None:
            kwargs["time_limit"] = time_limit
        res = E.fictitious_play(game, threads=threads, **kwargs)
    seconds = time.perf_counter() - t1
    history = tuple(getattr(res, "history", ()) or ())
    # the certificate: best responses in the game actually solved (merged for "strong"), as the
    # engine returned them with the strategies (no second evaluation)
    ev = np.asarray(res.values, dtype=float)
    gains = np.maximum(np.asarray(res.br_values, dtype=float) - ev, 0.0)
    nc = float(gains.sum())
    converged = bool(res.converged)
    if method in ("pcfr+", "cfr+", "dcfr") and nc > eps * (1 + 1e-9):
        converged = False
    if method in FP_AVERAGING and gains.max() >= eps:
        converged = False
    if not converged:
        target = "exact" if eps is None else f"target epsilon {eps}"
        warnings.warn(f"{method} on {game.name} stopped at NashConv {nc:.3g} ({target}); not certified",
                      ConvergenceWarning, stacklevel=2)
    values = seat_values(built, ev)
    lower = upper = float("nan")
    if game.num_players == 2:
        # zero-sum: u_q - gain_opponent <= V_q <= u_q + gain_q (q = the team, or seat 0)
        q = built.seat_player[team[0]] if collusion == "strong" else 0
        lower, upper = float(ev[q] - gains[1 - q]), float(ev[q] + gains[q])
    team_value = float(values[list(team)].sum()) if collusion else None
    return MercerResult(
        variant=variant, players=players, method=method, values=values, value=float(values[0]),
        exploitability=nc / game.num_players, nash_conv=nc, max_regret=float(gains.max()), gains=gains,
        strategies=tuple(res.strategies), converged=converged, num_iter=int(res.num_iter),
        seconds=seconds, build_seconds=build_seconds, epsilon=eps, collusion=collusion, team=team,
        stats=built.stats, built=built, history=history, team_value=team_value,
        certified_lower=lower, certified_upper=upper, note=NOTES[collusion],
        regrets=getattr(res, "regrets", None))
