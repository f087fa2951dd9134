"""The marauding guts-bot (paper §5.1): player 1 against the coalition's optimal mixture.

The bot seats you (player 1) at an n = N + 1 player table of continuous Guts against a
coalition of N players (P2..P{N+1}) that plays the optimal pseudo-bloc mixture of
:func:`guts.solve_coalition` (Table 1).  This module holds the game engine; the
``guts play`` / ``guts simulate`` commands are in :mod:`guts.cli._bot`, reading a Table 1 CSV
with :func:`guts.studies.bot.load_bot_strategy`.

Rules and money (paper §3, played with real chips)
--------------------------------------------------
A *game* starts with every player paying an ante of 1 into the pot (pot ``n``).  Each
*hand* deals every player an independent uniform hand on [0, 1]; each player holds or
drops (the coalition's members hold when the hand exceeds their threshold).  With ``h``
holders:

* ``h = 0``: redeal, the pot stays;
* ``h = 1``: the holder takes the pot and the game ends;
* ``h >= 2``: the best holder takes the pot ``P``; every other holder pays ``P`` into
  a new pot, which is therefore ``(h - 1) P`` ("stakes multiplied by h - 1").

Every payment moves chips between players and the pot, so ``sum(balances) + pot = 0``
after every hand and the balances of a finished game sum to zero.  These real-money
returns telescope to the paper's accounting (ante paid on termination): with stakes
``s = P / n`` the "virtual" position ``chips + s`` of a player changes by exactly the
paper's immediate return (best holder ``(n + h - 2) s``, other holders
``(h - n - 2) s``, droppers ``(h - 2) s``; a lone holder ``(n - 1) s``, droppers
``-s``), and the ante is the starting ``-1``.  So a player's chips at the end of a game
are the paper's total return of that game.

When the mixtures are drawn
---------------------------
Both mixed strategies are *redrawn independently before every hand* (stationary
strategies, as in the fixed-point game ``V = Value(A + B V)`` of §1 and Theorem 1.2,
whose strategies are repeated every round).  With player 1 mixing by ``x`` and the
coalition by ``y`` every hand, a game's expected total return ``W`` satisfies
``W = x A y + (x B y) W``, so

    W(x, y) = x A y / (1 - x B y)        (finite when x B y < 1).

At the fixed-point strategies ``x (A + B V) y = V``, hence ``W = V``: player 1's mean
return per game equals ``player1_value`` of :func:`guts.solve_coalition`.  For a pure
threshold ``q`` of player 1 :func:`stationary_value` gives ``W(q, y)``, the exact oracle
of the simulations.

Why every hand and not every game: the per-hand mixture is the strategy that
Theorem 1.2 certifies for the coalition (repeated every round, it holds player 1 to at
most ``V`` whatever player 1 does, adaptively or not: the bot is "in the long run
unbeatable", §5.1).  Fixing one pure profile for a whole game would still give ``V``
against player 1's optimal mixture (each profile ``j`` of the support is a best reply to
``x`` in ``A + B V``, so ``W(x, j) = V``), but not against other play: for N = 2 a
player 1 holding above 0.14 or less against the pseudo-bloc profile (0, 0.86) has an
expected stakes multiplier ``β >= 1``, so the stakes of that game no longer shrink.

Randomness
----------
Every random draw comes from an explicit :class:`numpy.random.Generator`.  In
:class:`GutsTable` the cards and the coalition's profiles come from one child stream
and player 1's automatic mixed play from another, so the cards you are dealt never
depend on how you play (the same seed deals the same hands to a cautious and to a
reckless player).

Examples
--------
>>> from guts.games.guts.bot import bot_strategy, simulate
>>> s = bot_strategy(1, mesh=21)
>>> abs(s.value) < 1e-9                         # 2-player guts is fair (Proposition 3.3)
True
>>> r = simulate(s, games=20_000, random_state=0)
>>> r.ci_low <= r.exact <= r.ci_high, r.max_zero_sum_error == 0.0
(True, True)
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from guts._validate import GutsInputError, check_choice, check_int, check_thresholds
from guts.games.guts.coalition import format_profile, solve_coalition
from guts.errors import ConvergenceWarning
from guts.games.guts.payoffs import alpha_matrix, beta_matrix

__all__ = [
    "BotStrategy",
    "bot_strategy",
    "parse_support",
    "stationary_value",
    "multiplier_moments",
    "Settlement",
    "settle",
    "Deal",
    "HandResult",
    "GutsTable",
    "GameRecords",
    "play_games",
    "SimulationResult",
    "simulate",
]

# Largest coalition the bot will solve on the spot (the pseudo-bloc stage game has
# mesh^2 columns whatever N; N only enters the O(N^2) payoff formula).
MAX_OPPONENTS = 60
# A mixture's stakes are finite only when the expected multiplier x B y is below 1.
BETA_MARGIN = 1e-12
# Games simulated per vectorised batch (bounds memory at about batch * n * 8 bytes).
BATCH = 100_000


# ---------------------------------------------------------------------------
# The coalition's strategy (and player 1's optimal one), from the package.
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class BotStrategy:
    """The fixed-point mixtures the bot plays, with the value they give.

    Attributes
    ----------
    size : int
        Coalition size N; the table has ``n = N + 1`` players.
    mesh : int
        Number of mesh points of the solved discretization (paper: 101).
    structure : str
        Coalition strategy space (``"pseudo-bloc"``, paper §5).
    profiles : numpy.ndarray, shape (K, N)
        The coalition's pure profiles ``(p_2, ..., p_{N+1})`` in its support.
    weights : numpy.ndarray, shape (K,)
        Their probabilities (sum 1).
    player1_thresholds, player1_weights : numpy.ndarray
        Player 1's optimal fixed-point mixture.
    value : float
        Player 1's value per game, ``player1_value`` of :func:`guts.solve_coalition`
        (minus Table 1's "opponent value").
    certified_lower, certified_upper : float
        Theorem 1.2 interval for the value (``nan`` when not available).
    source : str
        Where the strategy came from (the call, or the CSV file).
    """

    size: int
    mesh: int
    structure: str
    profiles: np.ndarray
    weights: np.ndarray
    player1_thresholds: np.ndarray
    player1_weights: np.ndarray
    value: float
    certified_lower: float
    certified_upper: float
    source: str

    @property
    def n(self) -> int:
        """Players at the table, ``N + 1``."""
        return self.size + 1

    def components(self):
        """``[(format_profile(profile), probability), ...]``, heaviest first."""
        order = np.argsort(-self.weights, kind="stable")
        return [(format_profile(self.profiles[k]), float(self.weights[k])) for k in order]

    def player1_components(self):
        """``[(threshold, probability), ...]`` of player 1's optimal mixture, heaviest first."""
        order = np.argsort(-self.player1_weights, kind="stable")
        return [(float(self.player1_thresholds[k]), float(self.player1_weights[k])) for k in order]


def _support_arrays(strategy: dict, width: int):
    keys = list(strategy)
    probs = np.array([strategy[k] for k in keys], dtype=float)
    arr = np.array([np.atleast_1d(np.asarray(k, dtype=float)) for k in keys]).reshape(len(keys), width)
    return arr, probs / probs.sum()


def bot_strategy(size: int, mesh: int = 101, solver: str = "oracle", structure: str = "pseudo-bloc") -> BotStrategy:
    """Solve the 1 v. N game now and return the mixtures the bot plays (paper §5, Table 1).

    Parameters
    ----------
    size : int
        Coalition size N, ``1 <= N <= MAX_OPPONENTS``.
    mesh : int
        Mesh points on [0, 1] (>= 2; the paper and the bot of §5.1 use 101).
    solver : {"oracle", "lp", "fp"}
        Inner solver of :func:`guts.solve_coalition`; the double oracle is exact and
        takes well under a second at mesh 101.
    structure : {"pseudo-bloc", "bloc"}
        Coalition strategy space.

    Returns
    -------
    BotStrategy

    Warns
    -----
    ConvergenceWarning
        If the fixed point did not converge from both sides.
    """
    size = check_int("opponents", size, 1, MAX_OPPONENTS)
    mesh = check_int("mesh", mesh, 2, 1001)
    check_choice("structure", structure, ("pseudo-bloc", "bloc"))
    r = solve_coalition(size=size, mesh=mesh, structure=structure, solver=solver)
    if not r.converged or abs(r.lower - r.upper) > 1e-8:
        warnings.warn(f"1 v. {size} at mesh {mesh}: fixed point not converged (lower {r.lower}, upper {r.upper})",
                      ConvergenceWarning, stacklevel=2)
    profiles, weights = _support_arrays(r.coalition_strategy, size)
    p1, p1w = _support_arrays(r.player1_strategy, 1)
    return BotStrategy(
        size=size, mesh=r.mesh, structure=structure, profiles=profiles, weights=weights,
        player1_thresholds=p1.ravel(), player1_weights=p1w, value=float(r.player1_value),
        certified_lower=float(r.certified_lower), certified_upper=float(r.certified_upper),
        source=f'guts.solve_coalition(size={size}, mesh={mesh}, structure="{structure}", solver="{solver}")',
    )


def parse_support(text: str, width: int):
    """Parse a support string of :func:`guts.games.guts.coalition.table1_row` into arrays.

    ``"0.67/0.68:0.880328 0/0.86:0.119672"`` lists ``profile:probability`` items; a
    profile joins thresholds with ``/`` and ``a*k`` stands for ``k`` players at ``a``
    (:func:`guts.games.guts.coalition.format_profile`).  Probabilities are renormalised (the CSV
    rounds them to 6 decimals).

    >>> prof, w = parse_support("0.67/0.68*2:0.880328 0/0.86*2:0.119672", 3)
    >>> prof.tolist(), round(float(w.sum()), 12)
    ([[0.67, 0.68, 0.68], [0.0, 0.86, 0.86]], 1.0)
    """
    if not isinstance(text, str) or not text.strip():
        raise GutsInputError(f"empty strategy support {text!r}")
    profiles, probs = [], []
    for item in text.split():
        prof, sep, prob = item.rpartition(":")
        if not sep:
            raise GutsInputError(f"support item {item!r} is not 'profile:probability'")
        values = []
        for part in prof.split("/"):
            val, star, count = part.partition("*")
            try:
                values += [float(val)] * (int(count) if star else 1)
                p = float(prob)
            except ValueError:
                raise GutsInputError(f"cannot read support item {item!r}") from None
        if len(values) != width:
            raise GutsInputError(f"support item {item!r} has {len(values)} thresholds, expected {width}")
        profiles.append(values)
        probs.append(p)
    arr = check_thresholds("support thresholds", profiles)
    w = np.array(probs)
    if np.any(~np.isfinite(w)) or np.any(w < 0) or abs(w.sum() - 1.0) > 1e-4:
        raise GutsInputError(f"support probabilities must be >= 0 and sum to 1; got {w.tolist()}")
    return arr, w / w.sum()


# ---------------------------------------------------------------------------
# Exact values of stationary play (the oracle of the simulations).
# ---------------------------------------------------------------------------
def _player1_mixture(strategy: BotStrategy, player1):
    """``(thresholds, weights, label)`` for ``player1`` = None (optimal mixture) or a threshold."""
    if player1 is None or (isinstance(player1, str) and player1 in ("opt", "optimal")):
        label = "its optimal mixture " + " ".join(f"{t:g}:{w:.4f}" for t, w in strategy.player1_components())
        return strategy.player1_thresholds, strategy.player1_weights, label
    if isinstance(player1, str):
        raise GutsInputError(f"player 1 must play a threshold in [0, 1] or 'optimal'; got {player1!r}")
    q = check_thresholds("player 1 threshold", player1).ravel()
    if q.size != 1:
        raise GutsInputError(f"player 1 threshold must be one number; got {q.size}")
    return q, np.ones(1), f"the pure threshold {q[0]:g} (hold when the hand exceeds it)"


def _stationary_ab(strategy: BotStrategy, thresholds, weights):
    x = np.asarray(weights, dtype=float)
    A = alpha_matrix(thresholds, strategy.profiles)
    B = beta_matrix(thresholds, strategy.profiles)
    return float(x @ A @ strategy.weights), float(x @ B @ strategy.weights)


def stationary_value(strategy: BotStrategy, player1=None) -> float:
    """Player 1's exact expected return per game when both mixtures are redrawn every hand.

    ``W(x, y) = x A y / (1 - x B y)`` with the one-hand payoff ``A = α`` and stakes
    multiplier ``B = β`` of :mod:`guts.games.guts.payoffs` (paper §3): the expected return of the
    repeated stationary game.  ``player1`` is ``None`` (the optimal mixture; then
    ``W = V``, the fixed-point value) or one threshold.  Returns ``nan`` when
    ``x B y >= 1`` (the expected stakes grow without bound: no finite mean).
    """
    q, x, _ = _player1_mixture(strategy, player1)
    a, b = _stationary_ab(strategy, q, x)
    if b >= 1.0 - BETA_MARGIN:
        return math.nan
    return a / (1.0 - b)


def _holder_pmf(thresholds: np.ndarray) -> np.ndarray:
    """Distribution of the number of holders, thresholds ``(..., n)`` → ``(..., n + 1)``."""
    t = np.asarray(thresholds, dtype=float)
    pmf = np.zeros(t.shape[:-1] + (t.shape[-1] + 1,))
    pmf[..., 0] = 1.0
    for i in range(t.shape[-1]):  # Poisson-binomial convolution, one player at a time
        hold = (1.0 - t[..., i])[..., None]
        pmf = pmf * (1.0 - hold) + np.concatenate([np.zeros_like(hold), pmf[..., :-1]], axis=-1) * hold
    return pmf


def multiplier_moments(strategy: BotStrategy, player1=None) -> tuple[float, float]:
    """First and second moment of one hand's stakes multiplier under stationary play.

    The multiplier is 1 on a redeal, 0 when one player holds and ``h - 1`` when
    ``h >= 2`` hold, so its mean is ``β`` (paper §3).  When the second moment ``γ`` is
    below 1 the stakes after ``k`` hands have ``E[s_k^2] = γ^k`` and a game's return,
    bounded by ``2 n Σ_k s_k``, has finite variance (Minkowski): the normal
    confidence interval of :func:`simulate` is then valid.

    Returns
    -------
    (beta, gamma) : tuple of float
    """
    q, x, _ = _player1_mixture(strategy, player1)
    prof = strategy.profiles
    t = np.concatenate([np.repeat(q, prof.shape[0])[:, None], np.tile(prof, (q.size, 1))], axis=1)
    pmf = _holder_pmf(t)
    h = np.arange(pmf.shape[-1])
    mult = np.where(h == 0, 1.0, np.where(h == 1, 0.0, h - 1.0))
    w = np.outer(x, strategy.weights).ravel()
    return float(w @ (pmf @ mult)), float(w @ (pmf @ mult**2))


# ---------------------------------------------------------------------------
# One hand's money (shared by the interactive table and the simulator).
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Settlement:
    """Money of one hand for ``G`` tables at once.

    Attributes
    ----------
    payments : numpy.ndarray, shape (G, n)
        Chips each player receives (+) or pays (-) this hand.
    new_pot : numpy.ndarray, shape (G,)
        The pot after the hand (0 when the game ended).
    holders : numpy.ndarray of int, shape (G,)
        Number of holders ``h``.
    winner : numpy.ndarray of int, shape (G,)
        Seat of the best holder, -1 on a redeal.
    done : numpy.ndarray of bool, shape (G,)
        The game ended (exactly one holder).
    """

    payments: np.ndarray
    new_pot: np.ndarray
    holders: np.ndarray
    winner: np.ndarray
    done: np.ndarray


def settle(hands, holds, pot) -> Settlement:
    """Settle one hand of continuous Guts for ``G`` tables (paper §3 rules, real chips).

    Parameters
    ----------
    hands : array_like, shape (G, n)
        The hands dealt (uniform on [0, 1]; ties have probability 0 and go to the
        lowest seat).
    holds : array_like of bool, shape (G, n)
        Who holds.
    pot : array_like, shape (G,)
        The pot before the hand.

    Returns
    -------
    Settlement
        ``payments.sum(axis=1) + new_pot - pot == 0`` on every table.
    """
    hands = np.atleast_2d(np.asarray(hands, dtype=float))
    holds = np.atleast_2d(np.asarray(holds, dtype=bool))
    pot = np.atleast_1d(np.asarray(pot, dtype=float))
    if hands.shape != holds.shape or pot.shape != hands.shape[:1]:
        raise GutsInputError(f"settle: hands {hands.shape}, holds {holds.shape} and pot {pot.shape} do not match")
    G, n = hands.shape
    h = holds.sum(axis=1)
    winner = np.where(h > 0, np.argmax(np.where(holds, hands, -np.inf), axis=1), -1)
    rows = np.arange(G)
    payments = np.where(holds, -pot[:, None], 0.0)  # every holder matches the pot ...
    won = h > 0
    payments[rows[won], winner[won]] = pot[won]       # ... except the best, who takes it
    new_pot = np.where(h == 0, pot, np.where(h == 1, 0.0, (h - 1) * pot))
    return Settlement(payments=payments, new_pot=new_pot, holders=h, winner=winner, done=h == 1)


# ---------------------------------------------------------------------------
# The interactive table.
# ---------------------------------------------------------------------------
def _generator(random_state) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is not None:
        check_int("seed", random_state, 0)
    return np.random.default_rng(random_state)


@dataclass(frozen=True, eq=False)
class Deal:
    """One hand dealt, before player 1 decides.

    ``hands[0]`` is player 1's hand; ``thresholds[1:]`` the coalition's profile drawn
    for this hand and ``holds[1:]`` its decisions (``holds[0]`` is undecided).
    """

    game: int
    hand: int
    new_game: bool
    pot: float
    profile_index: int
    thresholds: np.ndarray
    hands: np.ndarray
    coalition_holds: np.ndarray


@dataclass(frozen=True, eq=False)
class HandResult:
    """A settled hand: the deal, everyone's decision and the money."""

    deal: Deal
    holds: np.ndarray
    holders: int
    winner: int
    payments: np.ndarray
    pot_before: float
    pot_after: float
    game_over: bool
    game_balances: np.ndarray
    balances: np.ndarray


class GutsTable:
    """A session of continuous Guts: player 1 (seat 0) against the bot's coalition.

    Parameters
    ----------
    strategy : BotStrategy
    random_state : int, numpy.random.Generator or None
        Seed of the session: the cards and the coalition's draws use one child
        stream, player 1's automatic optimal play another.

    Notes
    -----
    ``balances`` are the session's chips per seat (antes and payments included);
    ``sum(balances) + pot == 0`` at all times.  ``results`` lists player 1's net of
    every finished game.
    """

    def __init__(self, strategy: BotStrategy, random_state=None):
        self.strategy = strategy
        deal_rng, p1_rng = _generator(random_state).spawn(2)
        self._deal_rng = deal_rng
        self._p1_rng = p1_rng
        n = strategy.n
        self.balances = np.zeros(n)
        self.game_balances = np.zeros(n)
        self.pot = 0.0
        self.games_started = 0
        self.hands_played = 0
        self.hand_in_game = 0
        self.results: list[float] = []
        self._deal: Deal | None = None

    @property
    def in_game(self) -> bool:
        """A game is running (its pot is on the table)."""
        return self.pot > 0

    def deal(self) -> Deal:
        """Deal the next hand, starting a new game (antes of 1) if none is running."""
        if self._deal is not None:
            raise GutsInputError("the previous hand has not been resolved; accepted: deal, then resolve, then deal")
        s = self.strategy
        new_game = not self.in_game
        if new_game:
            self.games_started += 1
            self.hand_in_game = 0
            self.game_balances = np.full(s.n, -1.0)
            self.balances = self.balances - 1.0
            self.pot = float(s.n)
        k = int(self._deal_rng.choice(s.weights.size, p=s.weights))
        hands = self._deal_rng.random(s.n)
        thresholds = np.concatenate([[np.nan], s.profiles[k]])
        self.hand_in_game += 1
        self._deal = Deal(game=self.games_started, hand=self.hand_in_game, new_game=new_game, pot=self.pot,
                          profile_index=k, thresholds=thresholds, hands=hands,
                          coalition_holds=hands[1:] > s.profiles[k])
        return self._deal

    def optimal_threshold(self) -> float:
        """A threshold drawn from player 1's optimal mixture (redrawn every hand)."""
        s = self.strategy
        return float(s.player1_thresholds[self._p1_rng.choice(s.player1_weights.size, p=s.player1_weights)])

    def resolve(self, hold: bool) -> HandResult:
        """Settle the dealt hand with player 1 holding (``True``) or dropping."""
        d = self._deal
        if d is None:
            raise GutsInputError("no hand has been dealt; accepted: deal before resolving")
        holds = np.concatenate([[bool(hold)], d.coalition_holds])
        st = settle(d.hands[None], holds[None], [self.pot])
        pay = st.payments[0]
        game_balances = self.game_balances + pay
        balances = self.balances + pay
        pot_after = float(st.new_pot[0])
        done = bool(st.done[0])
        # commit the new state together
        self.game_balances, self.balances, self.pot = game_balances, balances, pot_after
        self.hands_played += 1
        self._deal = None
        if done:
            self.results.append(float(game_balances[0]))
        return HandResult(deal=d, holds=holds, holders=int(st.holders[0]), winner=int(st.winner[0]), payments=pay,
                          pot_before=d.pot, pot_after=pot_after, game_over=done,
                          game_balances=game_balances.copy(), balances=balances.copy())


# ---------------------------------------------------------------------------
# Many games at once.
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class GameRecords:
    """Outcome of :func:`play_games`.

    Attributes
    ----------
    balances : numpy.ndarray, shape (G, n)
        Every player's chips at the end of each game (antes included).
    pot : numpy.ndarray, shape (G,)
        Pot left on the table (0 for finished games).
    hands : numpy.ndarray of int, shape (G,)
        Hands played in each game.
    largest_pot : numpy.ndarray, shape (G,)
        Largest pot contested in each game.
    finished : numpy.ndarray of bool, shape (G,)
    """

    balances: np.ndarray
    pot: np.ndarray
    hands: np.ndarray
    largest_pot: np.ndarray
    finished: np.ndarray


def play_games(strategy: BotStrategy, games: int, player1=None, random_state=None,
               max_hands: int = 10_000) -> GameRecords:
    """Play ``games`` independent games, vectorised over games (one numpy step per hand).

    Every hand redraws the coalition's profile from its mixture and player 1's
    threshold from ``player1`` (``None``: the optimal mixture; or one threshold), deals
    uniform hands and settles them with :func:`settle`.  Games still running after
    ``max_hands`` hands are returned with ``finished = False``.
    """
    games = check_int("games", games, 1)
    max_hands = check_int("max_hands", max_hands, 1)
    rng = _generator(random_state)
    q, x, _ = _player1_mixture(strategy, player1)
    n, prof, w = strategy.n, strategy.profiles, strategy.weights
    balances = np.full((games, n), -1.0)   # antes
    pot = np.full(games, float(n))
    hands = np.zeros(games, dtype=np.int64)
    largest = pot.copy()
    active = np.arange(games)
    for _ in range(max_hands):
        if active.size == 0:
            break
        m = active.size
        thr = np.empty((m, n))
        thr[:, 1:] = prof[rng.choice(w.size, size=m, p=w)] if w.size > 1 else prof[0]
        thr[:, 0] = q[rng.choice(x.size, size=m, p=x)] if x.size > 1 else q[0]
        u = rng.random((m, n))
        st = settle(u, u > thr, pot[active])
        balances[active] += st.payments
        largest[active] = np.maximum(largest[active], pot[active])
        pot[active] = st.new_pot
        hands[active] += 1
        active = active[~st.done]
    finished = np.ones(games, dtype=bool)
    finished[active] = False
    return GameRecords(balances=balances, pot=pot, hands=hands, largest_pot=largest, finished=finished)


@dataclass(frozen=True)
class SimulationResult:
    """Player 1's mean return per game against the bot, with a confidence interval.

    Attributes
    ----------
    games : int
        Finished games (the sample).
    unfinished : int
        Games cut at ``max_hands`` (left out, with a :class:`ConvergenceWarning`).
    mean, std, stderr : float
        Sample mean, standard deviation and standard error of player 1's return.
    ci_low, ci_high, confidence : float
        Normal-approximation confidence interval ``mean ± z * stderr``.
    exact : float
        :func:`stationary_value` of the strategies played (``nan`` when infinite).
    value : float
        The game value ``V`` (player 1's fixed-point value).
    z : float
        ``(mean - exact) / stderr``.
    contains : bool
        ``ci_low <= exact <= ci_high``.
    beta, gamma : float
        First and second moment of the per-hand stakes multiplier; ``gamma < 1``
        guarantees a finite variance (:func:`multiplier_moments`).
    hands : int
        Hands played in all games; ``mean_hands`` per game; ``longest_game``.
    largest_pot : float
    max_zero_sum_error : float
        ``max |Σ balances + pot|`` over all games (0: the money is exactly zero-sum).
    player1 : str
        What player 1 played.
    """

    games: int
    unfinished: int
    mean: float
    std: float
    stderr: float
    ci_low: float
    ci_high: float
    confidence: float
    exact: float
    value: float
    z: float
    contains: bool
    beta: float
    gamma: float
    hands: int
    mean_hands: float
    longest_game: int
    largest_pot: float
    max_zero_sum_error: float
    player1: str
    returns: np.ndarray = field(repr=False, compare=False)


def simulate(strategy: BotStrategy, games: int = 100_000, player1=None, random_state=0,
             confidence: float = 0.95, max_hands: int = 10_000) -> SimulationResult:
    """Player 1's mean return per game over ``games`` simulated games (paper §5.1).

    Parameters
    ----------
    strategy : BotStrategy
    games : int
        Number of games (>= 2).
    player1 : None, "optimal" or float
        Player 1's play: its optimal mixture (redrawn every hand) or a fixed threshold.
    random_state : int or numpy.random.Generator
    confidence : float
        Level of the normal-approximation interval (0 < confidence < 1).
    max_hands : int
        Safety cut on the length of one game.

    Returns
    -------
    SimulationResult
        With ``exact`` the oracle :func:`stationary_value`: for the optimal mixture it
        is the game value ``V`` (module docstring).
    """
    from scipy.stats import norm

    games = check_int("games", games, 2)
    if not (isinstance(confidence, (int, float)) and 0.0 < confidence < 1.0):
        raise GutsInputError(f"confidence must be in (0, 1); got {confidence!r}")
    rng = _generator(random_state)
    _, _, label = _player1_mixture(strategy, player1)
    parts = []
    for start in range(0, games, BATCH):
        parts.append(play_games(strategy, min(BATCH, games - start), player1, rng, max_hands))
    fin = np.concatenate([p.finished for p in parts])
    bal = np.concatenate([p.balances[:, 0] for p in parts])[fin]
    zero_sum = max(float(np.max(np.abs(p.balances.sum(axis=1) + p.pot))) for p in parts)
    hands = np.concatenate([p.hands for p in parts])
    unfinished = int((~fin).sum())
    if unfinished:
        warnings.warn(f"{unfinished} of {games} games were still running after {max_hands} hands and were left out",
                      ConvergenceWarning, stacklevel=2)
    if bal.size < 2:
        raise GutsInputError("fewer than 2 games finished; nothing to estimate")
    mean, std = float(bal.mean()), float(bal.std(ddof=1))
    se = std / math.sqrt(bal.size)
    zc = float(norm.ppf(0.5 + confidence / 2))
    exact = stationary_value(strategy, player1)
    beta, gamma = multiplier_moments(strategy, player1)
    lo, hi = mean - zc * se, mean + zc * se
    return SimulationResult(
        games=int(bal.size), unfinished=unfinished, mean=mean, std=std, stderr=se, ci_low=lo, ci_high=hi,
        confidence=float(confidence), exact=exact, value=strategy.value,
        z=(mean - exact) / se if se > 0 else math.nan, contains=bool(lo <= exact <= hi),
        beta=beta, gamma=gamma, hands=int(hands.sum()), mean_hands=float(hands.mean()),
        longest_game=int(hands.max()), largest_pot=float(max(p.largest_pot.max() for p in parts)),
        max_zero_sum_error=zero_sum, player1=label, returns=bal,
    )
