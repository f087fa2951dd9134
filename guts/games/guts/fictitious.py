"""n-player fictitious play for one round of continuous Guts on a threshold mesh.

Paper §5.2 and Appendix B.1.  Every player's pure strategies are the thresholds of a
mesh; at each step every player simultaneously plays a best response to the
product of the other players' empirical mixtures (Brown's fictitious play (B.1),
n-player version).  Progress is measured by the n-player duality gap (B.4)

    g = Σ_j max_z φ_j(z, p_{-j}) >= Σ_j φ_j(p) = 0,

zero exactly at a Nash equilibrium of the zero-sum n-player game (φ_j = α_j, §3).
The paper observes convergence to the symmetric equilibrium ``p* = 2^{-1/(n-1)}``
(1/√2 for three players, Proposition 3.3), also when players 2 and 3 pool their
winnings (each of them then maximises φ_2 + φ_3): both are run here through
``pools``.

Implementation notes
--------------------
The payoff tensor ``U[i][a_1, ..., a_n] = α_i`` is built once from the closed form
(:func:`guts.games.guts.payoffs.alpha_all`).  A player's payoff vector against the others'
empirical *counts* is the tensor contracted with those counts; after a step every
count vector gains one unit vector, so the contraction is updated by the
2^(n-1) - 1 cross terms (each O(M^(n-1))) instead of being recomputed (O(M^n)),
and recomputed exactly every ``refresh`` steps to stop rounding drift.

Examples
--------
>>> from guts.games.guts.fictitious import fictitious_play
>>> r = fictitious_play(3, mesh=21, iterations=2000, random_state=0, warn=False)
>>> bool(r.gap[-1] < r.gap[9])                # the duality gap (B.4) falls
True
>>> [round(float(t), 2) for t in r.mean_thresholds[-1]]   # 1/sqrt(2) = 0.707; mesh step 0.05
[0.7, 0.7, 0.7]
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from guts._validate import (GutsInputError, check_choice, check_int, check_positive_float, check_random_state,
                            check_thresholds)
from guts.games.guts.strategies import resolve_grid
from guts.engine.result import Certificate, Details, Solution
from guts.engine.progress import progress_bar
from guts.engine.tolerances import MAX_ITERATIONS
from guts.errors import ConvergenceWarning
from guts.games.guts.payoffs import alpha_all, symmetric_equilibrium

__all__ = ["payoff_tensor", "best_response", "FictitiousPlayResult", "fictitious_play"]

MAX_TENSOR_ENTRIES = 30_000_000  # n * M^n floats held at once (240 MB)
#: Most players: 21 * 2**21 exceeds MAX_TENSOR_ENTRIES even on the smallest mesh (M = 2), and
#: checking ``n * M**n`` for a huge n would itself build a huge integer.
MAX_PLAYERS = 20
TIE_BREAKS = ("first", "random")


def payoff_tensor(players: int, mesh) -> np.ndarray:
    """Every player's expected immediate return on the mesh: ``U[i][a_1, ..., a_n]``.

    Parameters
    ----------
    players : int
        n >= 2.
    mesh : int or array_like
        Number of uniform thresholds or the thresholds themselves (shared by all).

    Returns
    -------
    numpy.ndarray, shape (n, M, ..., M)
        ``U[i]`` is α_i (§3) with player j's threshold index on axis j.  Zero-sum:
        ``U.sum(axis=0) == 0`` up to rounding.
    """
    n = check_int("players", players, 2, MAX_PLAYERS)
    g = resolve_grid(mesh)
    M = g.size
    if n * M**n > MAX_TENSOR_ENTRIES:
        raise GutsInputError(
            f"the payoff tensor of {n} players on {M} thresholds has {n * M**n} entries; "
            f"at most {MAX_TENSOR_ENTRIES} are supported (use a smaller mesh)"
        )
    idx = np.indices((M,) * n).reshape(n, -1).T  # (M^n, n), C order
    values = alpha_all(g[idx])  # (M^n, n)
    return np.moveaxis(values.reshape((M,) * n + (n,)), -1, 0).copy()


def _own_first(T: np.ndarray, i: int) -> np.ndarray:
    """Move player i's axis to the front; the other players keep their order."""
    return np.ascontiguousarray(np.moveaxis(T, i, 0))


def _contract(T: np.ndarray, others: list) -> np.ndarray:
    """Contract an own-axis-first tensor with one entry per other player.

    ``others[k]`` is an int (that player plays this pure strategy) or a vector
    (weights over its strategies).  Pure indices are applied first, as a view, so
    that the contractions run on the smallest possible tensor.
    """
    index = (slice(None),) + tuple(int(o) if isinstance(o, (int, np.integer)) else slice(None) for o in others)
    out = T[index]
    for o in reversed(others):  # remaining axes keep their order: contract the last first
        if not isinstance(o, (int, np.integer)):
            out = out @ o
    return out


def best_response(U_i: np.ndarray, player: int, mixtures, tie_tol: float = 1e-12) -> np.ndarray:
    """Player ``player``'s payoff-maximising mesh indices against the others' mixtures.

    Parameters
    ----------
    U_i : numpy.ndarray, shape (M, ..., M)
        The player's payoff tensor (e.g. ``payoff_tensor(n, mesh)[player]``).
    player : int
        Which axis is the player's own.
    mixtures : sequence of array_like
        One probability vector per player (the player's own entry is ignored).
    tie_tol : float
        Strategies within ``tie_tol * (1 + |max|)`` of the best are all returned.

    Returns
    -------
    numpy.ndarray
        Sorted indices of the best responses.
    """
    n = U_i.ndim
    player = check_int("player", player, 0, n - 1)
    if len(mixtures) != n:
        raise GutsInputError(f"need {n} mixtures (one per player); got {len(mixtures)}")
    T = _own_first(U_i, player)
    others = [np.asarray(mixtures[j], dtype=float) for j in range(n) if j != player]
    u = _contract(T, others)
    return np.flatnonzero(u >= u.max() - tie_tol * (1.0 + abs(u.max())))


@dataclass(frozen=True)
class FictitiousPlayResult(Details):
    """Outcome of n-player fictitious play on a threshold mesh.

    Attributes
    ----------
    players : int
        Number of players n.
    grid : numpy.ndarray
        The thresholds (mesh).
    pools : tuple of tuple of int
        Players who maximise a pooled payoff (``((0,), (1,), (2,))``: everybody for
        himself; ``((0,), (1, 2))``: players 2 and 3 pool their winnings).
    mixtures : numpy.ndarray, shape (n, M)
        Final empirical mixtures (frequencies of play).
    gap : numpy.ndarray, shape (num_iter + 1,)
        Duality gap (B.4) of the original game at the empirical mixtures after
        0, 1, ..., num_iter best-response steps (entry 0: the initial profile).
    pool_gap : numpy.ndarray
        Σ_j [max_z ψ_j(z, p_-j) - ψ_j(p)] for the objectives ψ_j actually maximised
        (the pooled payoffs); equals ``gap`` when nobody pools.
    mean_thresholds : numpy.ndarray, shape (num_iter + 1, n)
        Mean threshold of every player's empirical mixture.
    played : numpy.ndarray, shape (num_iter + 1, n)
        Mesh index played by every player at every step (row 0: the initial profile).
    payoffs : numpy.ndarray, shape (n,)
        φ_j at the final mixtures (sums to 0).
    num_iter : int
    converged : bool
        ``gap[-1] <= tol``.
    tol : float
    tie_break : str
    seed : int or None
        The integer seed if one was given.
    seconds : float
        Wall time.

    The :class:`~guts.engine.result.Result` protocol: ``values = payoffs``, ``strategies =
    mixtures``, ``certificate`` the NashConv (duality gap (B.4)) ``gap[-1]``.
    """

    players: int
    grid: np.ndarray = field(repr=False)
    pools: tuple
    mixtures: np.ndarray = field(repr=False)
    gap: np.ndarray = field(repr=False)
    pool_gap: np.ndarray = field(repr=False)
    mean_thresholds: np.ndarray = field(repr=False)
    played: np.ndarray = field(repr=False)
    payoffs: np.ndarray
    num_iter: int
    converged: bool
    tol: float
    tie_break: str
    seed: int | None

    seconds: float = float("nan")

    value = property(lambda self: float(self.payoffs[0]), doc="Player 1's payoff φ_1 at the final mixtures.")
    values = property(lambda self: self.payoffs, doc="φ_j at the final mixtures.")
    strategies = property(lambda self: tuple(self.mixtures), doc="The final empirical mixtures, one per player.")
    method = "fictitious_play"

    @property
    def certificate(self) -> Certificate:
        """NashConv of the final mixtures: the n-player duality gap (B.4), ``gap[-1]``."""
        return Certificate("nash_conv", nash_conv=float(self.gap[-1]),
                                 exploitability=float(self.gap[-1]) / self.players)

    @property
    def final_gap(self) -> float:
        return float(self.gap[-1])

    @property
    def mesh(self) -> int:
        return int(self.grid.size)

    def mass_near(self, target: float | None = None, steps: float = 2.0) -> np.ndarray:
        """Each player's empirical probability within ``steps`` mesh steps of ``target``.

        ``target`` defaults to the symmetric equilibrium ``2^{-1/(n-1)}``.
        """
        target = symmetric_equilibrium(self.players) if target is None else float(target)
        h = float(np.max(np.diff(self.grid)))
        near = np.abs(self.grid - target) <= steps * h + 1e-12
        return self.mixtures[:, near].sum(axis=1)


def _pools(pools, n: int) -> tuple:
    if pools is None:
        return tuple((i,) for i in range(n))
    try:
        groups = [tuple(int(i) for i in g) for g in pools]
    except (TypeError, ValueError):
        raise GutsInputError(f"pools must be groups of player indices 0..{n - 1}; got {pools!r}") from None
    flat = sorted(i for g in groups for i in g)
    if flat != list(range(n)) or any(len(g) == 0 for g in groups):
        raise GutsInputError(f"pools must partition the players 0..{n - 1}; got {pools!r}")
    return tuple(tuple(sorted(g)) for g in groups)


def fictitious_play(players: int = 3, mesh=101, iterations: int = 20_000, pools=None, initial=None,
                    tie_break: str = "first", random_state=None, tol: float = 1e-3,
                    refresh: int = 500, tensor: np.ndarray | None = None, warn: bool = True,
                    progress: bool = False) -> Solution:
    """Simultaneous n-player fictitious play for one round of Guts (§5.2, (B.1), (B.4)).

    Parameters
    ----------
    players : int
        Number of players n >= 2.
    mesh : int or array_like
        Thresholds available to every player (number of uniform points or values).
    iterations : int
        Best-response steps after the initial profile.
    pools : sequence of sequences of int, optional
        Partition of the players (0-based) into groups that maximise the sum of
        their members' payoffs; each member still picks its own threshold.  Default:
        every player alone.  ``[(0,), (1, 2)]`` is the paper's "players 2 and 3 pool
        their winnings".
    initial : sequence of float, optional
        Initial thresholds (snapped to the nearest mesh point); drawn uniformly from
        the mesh with ``random_state`` if omitted.
    tie_break : {"first", "random"}
        Among equally good responses take the lowest threshold, or draw one with
        ``random_state``.
    random_state : int or numpy.random.Generator, optional
        Used for the initial profile (if not given) and random tie-breaking.
    tol : float
        ``converged`` means the final duality gap (B.4) is at most ``tol``.
    refresh : int
        Recompute the contractions exactly every ``refresh`` steps.
    tensor : numpy.ndarray, optional
        A precomputed :func:`payoff_tensor` for this ``players`` and mesh.
    warn : bool
        Emit :class:`guts.ConvergenceWarning` if the gap ends above ``tol``.

    Returns
    -------
    FictitiousPlayResult
    """
    t0 = time.perf_counter()
    n = check_int("players", players, 2, MAX_PLAYERS)
    g = resolve_grid(mesh)
    M = g.size
    iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
    refresh = check_int("refresh", refresh, 1)
    tol = check_positive_float("tol", tol)
    check_choice("tie_break", tie_break, TIE_BREAKS)
    random_state = check_random_state("random_state", random_state)
    groups = _pools(pools, n)
    seed = int(random_state) if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool) else None
    rng = np.random.default_rng(random_state)
    if tensor is None:
        U = payoff_tensor(n, g)
    else:
        U = np.asarray(tensor, dtype=float)
        if U.shape != (n,) + (M,) * n:
            raise GutsInputError(f"tensor must have shape {(n,) + (M,) * n}; got {U.shape}")
    pool_of = {i: grp for grp in groups for i in grp}
    pooled = any(len(grp) > 1 for grp in groups)
    # own-axis-first tensors: original payoff and the objective actually maximised
    T_orig = [_own_first(U[i], i) for i in range(n)]
    T_obj = [_own_first(U[list(pool_of[i])].sum(axis=0), i) for i in range(n)] if pooled else T_orig

    if initial is None:
        a = rng.integers(0, M, size=n)
    else:
        init = check_thresholds("initial", initial).ravel()
        if init.size != n:
            raise GutsInputError(f"initial needs {n} thresholds; got {init.size}")
        a = np.array([int(np.argmin(np.abs(g - v))) for v in init])
    counts = np.zeros((n, M))
    counts[np.arange(n), a] = 1.0
    t = 1  # plays so far per player
    subsets = [S for r in range(1, n) for S in combinations(range(n - 1), r)]
    others_of = [[j for j in range(n) if j != i] for i in range(n)]

    def exact(Ts):
        return [_contract(Ts[i], [counts[j] for j in others_of[i]]) for i in range(n)]

    S_orig = exact(T_orig)
    S_obj = exact(T_obj) if pooled else S_orig
    gap = np.empty(iterations + 1)
    pool_gap = np.empty(iterations + 1)
    means = np.empty((iterations + 1, n))
    played = np.empty((iterations + 1, n), dtype=np.int32)
    played[0] = a

    def measure(k):
        norm = float(t) ** (n - 1)
        x = counts / t
        u = [S_orig[i] / norm for i in range(n)]
        gap[k] = sum(float(ui.max()) for ui in u)  # (B.4)
        if pooled:
            w = [S_obj[i] / norm for i in range(n)]
            pool_gap[k] = sum(float(w[i].max() - x[i] @ w[i]) for i in range(n))
        else:
            pool_gap[k] = sum(float(u[i].max() - x[i] @ u[i]) for i in range(n))
        means[k] = x @ g
        return [S_obj[i] / norm for i in range(n)]

    obj = measure(0)
    bar = progress_bar(enabled=progress, total=iterations, desc=f"fictitious play, {n} players", mininterval=0.5)
    for k in range(1, iterations + 1):
        if k % 250 == 0:
            bar.update(250)
            bar.set_postfix(gap=f"{gap[k - 1]:.2e}", refresh=False)
        # simultaneous best responses to the empirical mixtures (B.1)
        for i in range(n):
            v = obj[i]
            best = float(v.max())
            cand = np.flatnonzero(v >= best - 1e-12 * (1.0 + abs(best)))
            a[i] = cand[0] if tie_break == "first" or cand.size == 1 else rng.choice(cand)
        played[k] = a
        if k % refresh == 0:
            counts[np.arange(n), a] += 1.0
            t += 1
            S_orig = exact(T_orig)
            S_obj = exact(T_obj) if pooled else S_orig
        else:
            for Ts, Ss in ((T_orig, S_orig), (T_obj, S_obj)) if pooled else ((T_orig, S_orig),):
                for i in range(n):
                    oth = others_of[i]
                    add = 0.0
                    for S in subsets:  # cross terms of Π_j (c_j + e_{a_j})
                        add = add + _contract(Ts[i], [int(a[oth[p]]) if p in S else counts[oth[p]]
                                                      for p in range(n - 1)])
                    Ss[i] = Ss[i] + add
            counts[np.arange(n), a] += 1.0
            t += 1
        obj = measure(k)
    bar.close()
    x = counts / t
    payoffs = np.array([float(x[i] @ (S_orig[i] / float(t) ** (n - 1))) for i in range(n)])
    converged = bool(gap[-1] <= tol)
    if warn and not converged:
        warnings.warn(f"fictitious play: duality gap (B.4) {gap[-1]:.3e} > tol {tol:.1e} after {iterations} "
                      "steps", ConvergenceWarning, stacklevel=2)
    return Solution.of(FictitiousPlayResult(
        players=n, grid=g, pools=groups, mixtures=x, gap=gap, pool_gap=pool_gap, mean_thresholds=means,
        played=played, payoffs=payoffs, num_iter=iterations, converged=converged, tol=tol,
        tie_break=tie_break, seed=seed, seconds=time.perf_counter() - t0,
    ))
