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
and ``exploitability = nash_conv / n`` (the mean of the players' best-response gains).
``target`` means what it means everywhere in the package: the CFR methods (``"pcfr+"``,
``"cfr+"``, ``"dcfr"``) stop at ``exploitability <= target``, i.e. ``nash_conv <= n target``
(for 3 players exploitability is NashConv / 3); fictitious play stops at the thesis's own criterion, every
player's regret ``< target`` (the regret bound of ``guts solve-game --method fp``). Since
``max_p gain_p <= nash_conv <= n max_p gain_p``, the default target of the CFR methods,
``DEFAULT_EPSILON / n`` (NashConv <= the thesis's 0.01), meets the thesis's criterion with
room to spare. Every result reports all three numbers (``max_regret``, ``nash_conv``,
``exploitability``).

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
  0 and 2 colluding: CFR+ to NashConv 0.01 stops after 160 iterations with the victim at
  -0.027, where the team's max-min value holds him to -0.304; the three-player CFR+ average
  need not converge, so that figure moves with the iteration count), so its value, the
  colluders' summed payoff at the returned profile, is NOT the team's value.
* ``"weak"`` -- pooled payoffs, private hands: a three-player game; its NashConv bounds what
  any ONE player (either colluder alone, or the victim) gains by deviating; it does not bound
  what the two colluders gain by deviating together, nor the spread of values over the
  (non-unique) equilibria.

Beside ``"strong"`` (the communication regime of a team game), two more team regimes of the
two colluders against the victim, solved by :func:`guts.engine.extensive.solve_team` on the
three-player game (the colluders maximise their joint payoff; the victim minimises it):

* ``"correlated"`` -- before the deal the colluders draw a joint pure plan from an agreed
  distribution, then each plays it seeing only his own hand (TMECor: Celli and Gatti,
  *Computational results for extensive-form adversarial team games*, 2018; Farina, Celli,
  Gatti and Sandholm, *Ex ante coordination and collusion in zero-sum multi-player
  extensive-form games*, 2018): column generation, the bracket certified by exact best
  responses on both sides;
* ``"independent"`` -- each colluder plays his own behaviour strategy, no correlation
  (team-maxmin equilibrium: von Stengel and Koller, *Team-maxmin equilibria*, 1997): a
  local search, bracketed by the certified guarantee of the profile found and the correlated
  upper end.

Always strong (communication) >= correlated >= independent for the team's max-min value.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import available_cores, check_choice, check_int, check_positive_float, check_random_state
from guts.engine.result import Certificate, Details, Solution
from guts.errors import ConvergenceWarning, GutsInputError

from ..builder import BuiltGame, Collusion, TreeStats, build_game, check_team, seat_values
from ..rules import VARIANTS, variant_rules

__all__ = ["solve", "solve_regimes", "MercerResult", "METHODS", "COLLUSION", "TEAM_REGIMES", "DEFAULT_EPSILON",
           "CFR_METHODS", "default_target", "failure_text", "seat_strategies",
           "br_gains", "program_action_priority"]

METHODS = ("lp", "pcfr+", "cfr+", "dcfr", "fp", "fp-realisation")
#: The CFR methods: their ``target`` is exploitability (NashConv / players of the solved game).
CFR_METHODS = ("pcfr+", "cfr+", "dcfr")
#: ``"pcfr+"``: predictive CFR+ with adaptive best-response checks (the fastest certified
#: iterative method measured on 3P-MMH with a check: 75 iterations against plain CFR+'s 150).
PCFR_OPTIONS = dict(variant="pcfr+", check="adaptive")
#: method -> averaging rule of the engine's fictitious play
FP_AVERAGING = {"fp": "behavioural", "fp-realisation": "realisation"}
#: Accepted ``collusion`` values (see the module docstring).
COLLUSION = ("weak", "strong", "strong-separate", "correlated", "independent")
#: The team regimes solved by :func:`guts.engine.extensive.solve_team` (``"strong"`` is the third,
#: communication); they pick their own solvers (column generation, local search).
TEAM_REGIMES = ("correlated", "independent")
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
    "correlated": ("correlated collusion (TMECor): the colluders draw a joint pure plan before the deal and "
                   "play it seeing only their own hands; [certified_lower, certified_upper] brackets the team's "
                   "max-min value in this regime (exact best responses on both sides)"),
    "independent": ("independent collusion (team-maxmin): each colluder plays his own behaviour strategy; "
                    "certified_lower is what the profile found guarantees against the victim's best response, "
                    "certified_upper the correlated regime's upper end (the regime's value is NP-hard: the bracket "
                    "closes only when the local search reaches the correlated value)"),
}
#: The thesis's ε (§3.4: "finding a 0.01-equilibrium"): every player's regret below it. The
#: default target is this for fictitious play and ``DEFAULT_EPSILON / players`` (exploitability,
#: i.e. NashConv <= 0.01) for the CFR methods (:func:`default_target`).
DEFAULT_EPSILON = 0.01
#: Iteration caps (a run that hits one warns with ConvergenceWarning).
MAX_ITER_CFR = 200_000
MAX_ITER_FP = 200_000


@dataclass(frozen=True)
class MercerResult(Details):
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
        over players of the best-response gain, exploitability = NashConv / players, the mean
        gain). With ``collusion="strong"`` the solved game is the merged two-player team game.
    max_regret : float
        The thesis's ε: the largest best-response gain of one player.
    gains : ndarray
        Best-response gain of every player of the solved game.
    strategies : tuple of dict
        Engine strategies of the solved game (a merged strong-collusion team is one player,
        see ``built.seat_player``).
    converged : bool
        The method's target holds for the certificate above (LP: exploitability within
        ``LP_CERT_TOL``; pcfr+/cfr+/dcfr: ``exploitability <= target``; fp, fp-realisation:
        ``max_regret < target``).
    num_iter : int
        Iterations of the method; for ``"fp"`` the count the thesis's program prints (its
        stopping test held at the profile before the last average, see
        :func:`guts.engine.extensive.fictitious_play`).
    seconds : float
        Solve time (tree building excluded; see ``build_seconds``).
    epsilon : float or None
        The target the run stopped at (also read as ``target``): exploitability for
        pcfr+/cfr+/dcfr, every player's regret for fp/fp-realisation, the bracket width for the
        team regimes; None for the LP (exact).
    regrets : ndarray (num_iter + 1, players) or None
        Fictitious play: every player's regret of the profile at each iteration (rows
        0..num_iter-1 of ``"fp"`` are, as their max per row, the program's printed lines).
    team_value : float or None
        With collusion: the colluders' total (both seats' values summed). With ``"strong"``,
        ``"correlated"`` and ``"independent"`` it is the team's payoff at the returned profile,
        whose max-min value ``[certified_lower, certified_upper]`` brackets (the LP: that value);
        with ``"weak"`` and ``"strong-separate"`` (the colluders as two players of a
        three-player game, no one maximising their sum) it is only their summed payoff at the
        returned profile, not a max-min value.
    certified_lower, certified_upper : float
        Two-player zero-sum solved games (2 players, or ``collusion="strong"``): the
        bracket ``u - gain_opponent <= V <= u + gain_own`` of the game value V of the first
        seat (2 players) or of the team's max-min value (strong collusion; compare with
        ``team_value``). ``collusion="correlated"`` / ``"independent"``: the bracket of the
        team's max-min value in that regime (:class:`~guts.engine.extensive.TeamResult`'s
        ``lower``, ``upper``). NaN otherwise: a three-player equilibrium certifies no value.
    note : str
        What the certificate bounds (collusion only).
    team_result : TeamResult or None
        ``collusion="correlated"`` / ``"independent"``: the engine's result (the correlated
        distribution over joint pure plans in ``support``, the victim's strategy). With these
        regimes ``values`` are every seat's own expected payoff (not split evenly),
        ``gains`` = (``certified_upper - team_value``, ``team_value - certified_lower``) and
        ``nash_conv`` = the bracket's width.

    ``certificate`` (the :class:`~guts.engine.result.Result` protocol) names what the method's
    target measures: exploitability for the LP and the CFR methods, max regret for fictitious
    play, the bracket (``"interval"``) for the team regimes; every kind carries all three
    numbers.
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
    team_result: object = field(default=None, repr=False)

    @property
    def budget(self) -> dict:
        """What was solved, as ``save`` keeps it: the rules (deck, rounds, evaluator), the
        collusion, the team, the method and its target (:mod:`guts.games.poker.mercer.persist`
        rebuilds the game from it)."""
        from .persist import solved_budget

        return solved_budget(self)

    @property
    def target(self) -> float | None:
        """The target the run stopped at (the ``epsilon`` field; see the class docstring)."""
        return self.epsilon

    @property
    def certificate(self) -> Certificate:
        if self.collusion in TEAM_REGIMES:
            return Certificate("interval", lower=float(self.certified_lower), upper=float(self.certified_upper),
                                     gap=float(self.certified_upper - self.certified_lower))
        kind = "max_regret" if self.method in FP_AVERAGING else "exploitability"
        return Certificate(kind, exploitability=float(self.exploitability), nash_conv=float(self.nash_conv),
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


def seat_strategies(built: BuiltGame, strategies) -> tuple:
    """Strategies per seat: for a merged team, each colluder's part of the team strategy."""
    if not built.seat_player or len(set(built.seat_player)) == len(built.seat_player):
        return tuple(strategies)
    return tuple(strategies[q] for q in built.seat_player)


def default_target(method: str, players: int) -> float | None:
    """The target ``solve`` uses when none is given: None for the LP (exact), the thesis's ε
    (``DEFAULT_EPSILON``, every player's regret) for fictitious play, and exploitability
    ``DEFAULT_EPSILON / players`` for the CFR methods (NashConv <= the thesis's ε; ``players``
    of the solved game: 2 for a merged strong-collusion team)."""
    if method == "lp":
        return None
    return DEFAULT_EPSILON / players if method in CFR_METHODS else DEFAULT_EPSILON


def _validate(variant, players, method, epsilon, collusion, team):
    if not isinstance(variant, str):
        raise GutsInputError(f"unknown variant {variant!r}; accepted: 'smh', 'mmh'")
    variant = check_choice("variant", variant.lower(), VARIANTS)
    players = check_int("players", players, 2, 3)
    method = check_choice("method", str(method).lower(), METHODS)
    if epsilon is not None:
        epsilon = check_positive_float("target", epsilon, maximum=10.0)
        if epsilon < 1e-8:  # best-response gains in floating point cannot certify less (1e-300 ran forever)
            raise GutsInputError(f"target must be a number in [1e-08, 10]; got {epsilon!r}")
    if collusion is not None:
        collusion = check_choice("collusion", str(collusion).lower(), COLLUSION)
        if players != 3:
            raise GutsInputError(f"collusion needs 3 players (two colluders and a victim); got players={players}")
        if team is None:
            raise GutsInputError("collusion needs a team of two distinct seats of three, e.g. team=(0, 1)")
        team = check_team(team, players)
    elif team is not None:
        raise GutsInputError("team is given but collusion is not; accepted collusion: "
                             + ", ".join(repr(c) for c in COLLUSION))
    if collusion in TEAM_REGIMES:
        if method != "lp":
            raise GutsInputError(
                f"method {method!r} does not apply to collusion={collusion!r} (the regime picks its own solver: "
                "column generation over LPs with exact best responses); accepted: method='lp' (the default)")
        return variant, players, method, epsilon, collusion, team
    if method == "lp":
        if not (players == 2 or collusion == "strong"):
            raise GutsInputError(
                "method 'lp' needs a two-player zero-sum game: 2 players, or 3 with strong collusion "
                f"(the team is then one player); got players={players}, collusion={collusion!r}")
        if epsilon is not None:
            raise GutsInputError("target applies to 'pcfr+', 'cfr+', 'dcfr', 'fp' and 'fp-realisation'; the LP is "
                                 "exact")
    return variant, players, method, epsilon, collusion, team


def solve(variant: str = "smh", players: int = 2, method: str = "lp", target: float | None = None,
          collusion: str | None = None, team=None, *, max_iterations: int | None = None,
          time_limit: float | None = None, progress: bool = False, threads=None,
          cfr_options: dict | None = None, lp_method: str = "auto", **rule_options) -> Solution:
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
        best-response checks (the fastest certified iterative method here: 3P-MMH with a check
        in half the iterations of CFR+), ``"cfr+"`` / ``"dcfr"``: CFR+ / discounted CFR, all
        three until exploitability <= target; ``"fp"``: the thesis's program's fictitious play
        (behaviour average; module docstring) and ``"fp-realisation"``: classical fictitious
        play (mixed-strategy average), both until every player's regret < target. ``num_iter``
        counts each rule's own iterations (for ``"fp"`` the program's count) and ``regrets``
        holds every player's regret at every iteration.
    target : float, optional
        Stopping target of the iterative methods: exploitability (NashConv / players of the
        solved game, the mean best-response gain) for ``"pcfr+"`` / ``"cfr+"`` / ``"dcfr"``,
        every player's regret for ``"fp"`` / ``"fp-realisation"`` (the result's ``certificate``
        names which). Default (:func:`default_target`): the thesis's ε = 0.01 (§3.4) as a
        NashConv, i.e. exploitability 0.01 / players, for the CFR methods, and 0.01 for
        fictitious play. For 3 players an exploitability target t is NashConv 3 t.
        ``MercerResult.epsilon`` (also ``.target``) keeps the value used.
    collusion : {"weak", "strong", "strong-separate", "correlated", "independent"}, optional
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
        ``"correlated"`` / ``"independent"``: the team's max-min value when the colluders
        (each seeing only his own hand) correlate on a joint plan before the deal, or play
        independent behaviour strategies (:func:`guts.engine.extensive.solve_team` on the
        three-player game; module docstring); ``method`` stays ``"lp"`` (the regime picks its
        solver), ``target`` is the bracket width at which the correlated column generation
        stops (default ``TEAM_TARGET``, 1e-9), ``max_iterations`` its iteration cap and
        ``time_limit`` its seconds; ``[certified_lower, certified_upper]`` brackets the
        regime's value and ``team_result`` holds the engine's result.
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
    lp_method : {"auto", "simplex", "ipm"}
        The LP's algorithm (``method="lp"`` only): HiGHS's dual simplex, its interior-point
        method, or by the LP's size (:func:`guts.engine.extensive.lp.choose_lp_method`).
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
    if time_limit is not None:      # checked here: the LP and the regimes would otherwise carry it unread
        time_limit = check_positive_float("time_limit", time_limit)
    if threads is not None:
        threads = check_int("threads", threads, 1, available_cores())
    from guts.engine import extensive as E
    from guts.engine.highs import LP_METHOD_CHOICES

    lp_method = check_choice("lp_method", lp_method, LP_METHOD_CHOICES)
    if lp_method != "auto" and method != "lp":
        raise GutsInputError(f"lp_method {lp_method!r} chooses the LP's algorithm; method {method!r} solves no LP; "
                             "accepted: method 'lp' with lp_method, or lp_method 'auto'")

    t0 = time.perf_counter()
    rules = variant_rules(variant, players, **rule_options)
    if collusion in TEAM_REGIMES:
        if lp_method != "auto":
            raise GutsInputError(f"lp_method {lp_method!r} does not apply to collusion={collusion!r} (its LPs are "
                                 "the column generation's own); accepted: lp_method 'auto'")
        built = build_game(rules)          # the plain three-player game: private hands, own payoffs
        return _solve_regime(built, variant, collusion, team, target=epsilon, max_iterations=max_iterations,
                             time_limit=time_limit, progress=progress, build_seconds=time.perf_counter() - t0)
    # "strong-separate" is the strong information structure on the pooled 3-player game
    coll = Collusion(team, "strong" if collusion == "strong-separate" else collusion) if collusion else None
    built = build_game(rules, coll, merge_team=(collusion == "strong"))
    game = built.game
    build_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    n = game.num_players
    eps = default_target(method, n) if epsilon is None else epsilon
    if epsilon is not None and eps is not None:
        # every iterative method starts from the uniform strategies: a target they already meet (their
        # exploitability for the CFR methods; their NashConv, and so every player's regret, for fictitious
        # play) would be met by any strategies and certify nothing
        start_nc = float(E.nash_conv(game, E.uniform_strategy(game)))
        start, kind = (start_nc / n, "exploitability") if method in CFR_METHODS else (start_nc, "NashConv")
        if eps >= start:
            raise GutsInputError(f"target {eps:g} is met by the uniform strategies the {method} run starts from "
                                 f"({kind} {start:.4g} on {game.name}), so it would certify nothing; "
                                 f"accepted: a target below {start:.4g}")
    if method == "lp":
        res = E.solve_lp(game, method=lp_method)
    elif method in CFR_METHODS:
        # the engine's target is exploitability = NashConv / players, as ours
        base = dict(PCFR_OPTIONS) if method == "pcfr+" else {"variant": method}
        opts = {**base, **(cfr_options or {})}     # cfr_options may name the variant
        res = E.cfr_plus(game, max_iterations=max_iterations or MAX_ITER_CFR,
                         target=eps, time_limit=time_limit,
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
    if method in CFR_METHODS and nc / n > eps * (1 + 1e-9):
        converged = False
    if method in FP_AVERAGING and gains.max() >= eps:
        converged = False
    if not converged:
        warnings.warn(f"{method} on {game.name}: not certified: {failure_text(method, eps, nc / n, nc, gains.max())}",
                      ConvergenceWarning, stacklevel=2)
    values = seat_values(built, ev)
    lower = upper = float("nan")
    if game.num_players == 2:
        # zero-sum: u_q - gain_opponent <= V_q <= u_q + gain_q (q = the team, or seat 0)
        q = built.seat_player[team[0]] if collusion == "strong" else 0
        lower, upper = float(ev[q] - gains[1 - q]), float(ev[q] + gains[q])
    team_value = float(values[list(team)].sum()) if collusion else None
    return Solution.of(MercerResult(
        variant=variant, players=players, method=method, values=values, value=float(values[0]),
        exploitability=nc / n, nash_conv=nc, max_regret=float(gains.max()), gains=gains,
        strategies=tuple(res.strategies), converged=converged, num_iter=int(res.num_iter),
        seconds=seconds, build_seconds=build_seconds, epsilon=eps, collusion=collusion, team=team,
        stats=built.stats, built=built, history=history, team_value=team_value,
        certified_lower=lower, certified_upper=upper, note=NOTES[collusion],
        regrets=getattr(res, "regrets", None)))


def failure_text(method: str, target, exploitability: float, nash_conv: float, max_regret: float) -> str:
    """What failed when a run is not certified: its certificate against its target."""
    if target is None:
        return (f"exploitability {exploitability:.3e} (NashConv {nash_conv:.3e}) above the LP's certificate "
                "tolerance")
    if method in FP_AVERAGING:
        return f"max regret {max_regret:.3e} not below the target {target:g} (NashConv {nash_conv:.3e})"
    return f"exploitability {exploitability:.3e} (NashConv {nash_conv:.3e}) above the target {target:g}"


def _solve_regime(built: BuiltGame, variant: str, regime: str, team: tuple, *, target=None, max_iterations=None,
                  time_limit=None, progress=False, build_seconds=0.0, random_state=0,
                  correlated=None) -> Solution:
    """The team's max-min value of ``built`` (the plain three-player game) in ``regime``, as a MercerResult."""
    from guts.engine.extensive import solve_team
    from guts.engine.tolerances import TEAM_TARGET

    tr = solve_team(built.game, team, regime, target=target, max_iterations=max_iterations, time_limit=time_limit,
                    progress=progress, random_state=random_state,
                    correlated=correlated if regime == "independent" else None)
    values = np.asarray(tr.values, dtype=float)
    lower, upper = float(tr.lower), float(tr.upper)
    value = float(tr.value)
    # the two sides of the bracket: what a team best response (or the correlated upper end) adds
    # to the value, and what the victim's best response takes from it
    gains = np.maximum(np.array([upper - value, value - lower]), 0.0)
    width = max(upper - lower, 0.0)
    if not tr.converged:
        warnings.warn(f"{regime} collusion of seats {team} on {built.game.name}: bracket [{lower:.6g}, {upper:.6g}] "
                      f"(width {upper - lower:.3g}) wider than the target {_team_target(target, TEAM_TARGET):.3g}",
                      ConvergenceWarning, stacklevel=3)
    return Solution.of(MercerResult(
        variant=variant, players=3, method=tr.method, values=values, value=float(values[0]),
        exploitability=width / 2, nash_conv=width, max_regret=float(gains.max()), gains=gains,
        strategies=tuple(tr.strategies), converged=bool(tr.converged), num_iter=int(tr.num_iter),
        seconds=float(tr.seconds), build_seconds=float(build_seconds), epsilon=_team_target(target, TEAM_TARGET),
        collusion=regime, team=tuple(team), stats=built.stats, built=built, team_value=value,
        certified_lower=lower, certified_upper=upper, note=NOTES[regime], team_result=tr))


def _team_target(target, default) -> float:
    """The bracket width aimed at: ``target``, else the engine's default."""
    return float(default if target is None else target)


def solve_regimes(variant: str = "smh", team=(1, 2), *, target: float | None = None,
                  max_iterations: int | None = None, time_limit: float | None = None, progress: bool = False,
                  random_state: int = 0, **rule_options) -> dict:
    """The colluders' max-min value in the three team regimes, on one three-player game.

    Parameters
    ----------
    variant : {"smh", "mmh"}
    team : pair of seats
        The two colluders (the third seat is the victim).
    target, max_iterations, time_limit : optional
        Of the correlated column generation (and, ``time_limit``, of the independent local
        search too): see :func:`solve`.
    random_state : int
        Seeds the random starts of the independent local search.
    **rule_options
        Passed to the rules, as in :func:`solve`.

    Returns
    -------
    dict
        ``{"communication": ..., "correlated": ..., "independent": ...}`` of :class:`MercerResult`:
        communication is ``collusion="strong"`` (the merged team, exact LP); the independent
        local search starts from the correlated result (its support and upper end), so that
        the correlated game is solved once.

    Notes
    -----
    Always communication >= correlated >= independent (Celli and Gatti, *Computational
    results for extensive-form adversarial team games*, 2018); each result's
    ``[certified_lower, certified_upper]`` brackets its own regime's value.
    """
    variant, players, _m, target, _c, team = _validate(variant, 3, "lp", target, "correlated", team)
    if max_iterations is not None:
        max_iterations = check_int("max_iterations", max_iterations, 1, 10**9)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    random_state = check_random_state("random_state", random_state)
    com = solve(variant, 3, "lp", collusion="strong", team=team, **rule_options)
    t0 = time.perf_counter()
    built = build_game(variant_rules(variant, 3, **rule_options))
    build_seconds = time.perf_counter() - t0
    kw = dict(target=target, max_iterations=max_iterations, time_limit=time_limit, progress=progress,
              build_seconds=build_seconds, random_state=random_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)     # each result's bracket says how far it got
        cor = _solve_regime(built, variant, "correlated", team, **kw)
        ind = _solve_regime(built, variant, "independent", team, correlated=cor.team_result, **kw)
    return {"communication": com, "correlated": cor, "independent": ind}
