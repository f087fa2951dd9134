"""m v. n teams in (m + n)-player continuous Guts (paper §1.2 and §5, "2 v. 2").

Team 1 (players 1..m) plays the rows, team 2 (players m+1..m+n) the columns; each
team picks one threshold profile of its members per pure strategy, from a
structured set (:mod:`guts.games.guts.strategies`: ``"full"`` multisets, ``"pseudo-bloc"``,
``"bloc"`` or ``"product"``).  Each team is paid the sum of its members'
immediate returns α_i (§3) — team 2's is minus team 1's since the round is
zero-sum — and the stakes multiplier β of the whole table is shared.  The
recursive game is solved from both sides like the 1 v. N game
(:func:`guts.games.guts.coalition.solve_coalition`): team 1 from ``V_0 = -m`` (it forfeits m
antes) and team 2 from ``W_0 = -n``.

For ``m = 1`` this is exactly the 1 v. N game; for ``m = n`` with the same
structure on both sides the payoff matrix is antisymmetric (swap the teams), so the
game is fair: value 0 (the paper's 2 v. 2 finding at mesh 21).

Examples
--------
>>> from guts.games.guts.teams import solve_teams
>>> from guts import solve_coalition
>>> r = solve_teams(1, 2, mesh=21, structure="full", solver="oracle")
>>> c = solve_coalition(2, mesh=21, structure="full", solver="oracle")
>>> abs(r.team2_value - c.coalition_value) < 1e-10      # 1 v. 2 teams = the 1 v. 2 coalition game
True
>>> r = solve_teams(2, 2, mesh=11, structure="full", solver="oracle")
>>> abs(r.team1_value) < 1e-9 and abs(r.team2_value) < 1e-9    # fair by symmetry
True
"""
from __future__ import annotations

from guts.engine.tolerances import MAX_FIXED_POINT_TOL

import time
from dataclasses import dataclass, field

import numpy as np

from guts._validate import (GutsInputError, check_choice, check_int, check_memory, check_positive_float,
                            check_thresholds)
from guts.games.guts.strategies import (STRUCTURES, check_recursive_grid, coalition_profiles, count_profiles,
                                        resolve_grid)
from guts.games.guts.payoffs import _alpha
from guts.engine.recursive import (METHODS, SOLVERS, StrategyBound, CertifiedInterval, FixedPointResult,
                                   solve_both_sides, support)
from guts.engine.tolerances import FIXED_POINT_TOL
from guts.engine.stage import LazyStage
from guts.engine.result import Solution

__all__ = ["TeamStage", "TeamResult", "team_stage", "team_payoff_matrix", "solve_teams"]
# rows x columns x players held in memory at once while building a block of A
_BLOCK_ENTRIES = 2_000_000


def _team_alpha(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Σ_{i in team 1} α_i for every (row profile, column profile) pair.

    ``rows`` is (R, m), ``cols`` is (C, n); returns (R, C).  Member i's α depends on
    its own threshold and the multiset of all other thresholds (§3 closed form).
    """
    R, m = rows.shape
    C, n = cols.shape
    out = np.zeros((R, C))
    per_row = max(1, _BLOCK_ENTRIES // max(1, C * (m + n)))
    for start in range(0, R, per_row):
        r = rows[start:start + per_row]  # (r, m)
        b = r.shape[0]
        for i in range(m):
            own = np.broadcast_to(r[:, i:i + 1], (b, C))
            mates = np.delete(r, i, axis=1)  # (b, m-1)
            others = np.concatenate(
                [np.broadcast_to(mates[:, None, :], (b, C, m - 1)), np.broadcast_to(cols[None], (b, C, n))],
                axis=2,
            )
            out[start:start + b] += _alpha(own, others)
    return out


def _team_beta(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """β of the whole table, β = Σ(1 - p) - 1 + 2 Π p (§3), for every pair: (R, C)."""
    s1 = np.sum(1.0 - rows, axis=1)
    s2 = np.sum(1.0 - cols, axis=1)
    p1 = np.prod(rows, axis=1)
    p2 = np.prod(cols, axis=1)
    return s1[:, None] + s2[None, :] - 1.0 + 2.0 * p1[:, None] * p2[None, :]


def team_payoff_matrix(rows, cols):
    """One round of team 1 (row profiles) against team 2 (column profiles).

    Parameters
    ----------
    rows : array_like, shape (R, m)
        Team 1's threshold profiles.
    cols : array_like, shape (C, n)
        Team 2's threshold profiles.

    Returns
    -------
    (A, B) : numpy.ndarray, each (R, C)
        ``A`` = team 1's expected immediate return Σ_{i<=m} α_i (team 2 gets ``-A``);
        ``B`` = expected stakes multiplier β of the m + n player round.
    """
    r = check_thresholds("team 1 profiles", rows)
    c = check_thresholds("team 2 profiles", cols)
    if r.ndim != 2 or c.ndim != 2:
        raise GutsInputError(f"team profiles must have shape (count, size); got {r.shape} and {c.shape}")
    return _team_alpha(r, c), _team_beta(r, c)


class TeamStage(LazyStage):
    """Team 1 (rows: profiles) against team 2 (columns: profiles); lazy, cached.

    Rows and columns are computed on demand so that the double oracle touches only
    the strategies it generates; ``dense()`` builds the whole matrix once.
    """

    def __init__(self, team1_profiles, team2_profiles):
        self.team1_profiles = check_thresholds("team 1 profiles", team1_profiles)
        self.team2_profiles = check_thresholds("team 2 profiles", team2_profiles)
        if self.team1_profiles.ndim != 2 or self.team2_profiles.ndim != 2:
            raise GutsInputError("team profiles must have shape (count, size)")
        super().__init__((self.team1_profiles.shape[0], self.team2_profiles.shape[0]))

    def _block(self, I, J):  # profiles checked once, in __init__
        r, c = self.team1_profiles[I], self.team2_profiles[J]
        return _team_alpha(r, c), _team_beta(r, c)


def _structures(structure) -> tuple[str, str]:
    if isinstance(structure, str):
        s = check_choice("structure", structure, STRUCTURES)
        return s, s
    try:
        s1, s2 = structure
    except (TypeError, ValueError):
        raise GutsInputError(
            f"structure must be one of {', '.join(map(repr, STRUCTURES))} or a pair of them; got {structure!r}"
        ) from None
    return check_choice("structure", s1, STRUCTURES), check_choice("structure", s2, STRUCTURES)


def team_stage(m: int, n: int, mesh=21, structure="full") -> TeamStage:
    """The one-round m v. n game (rows: team 1's profiles, columns: team 2's).

    ``structure`` is one name of :data:`guts.games.guts.strategies.STRUCTURES` for both teams
    or a pair ``(team 1, team 2)``; ``mesh`` a number of uniform points or explicit
    thresholds shared by every player.
    """
    m = check_int("m", m, 1)
    n = check_int("n", n, 1)
    s1, s2 = _structures(structure)
    g = resolve_grid(mesh)
    return TeamStage(coalition_profiles(m, g, s1), coalition_profiles(n, g, s2))


@dataclass(frozen=True)
class TeamResult(CertifiedInterval):
    """Solution of the m v. n team recursive game.

    Attributes
    ----------
    m, n : int
        Team sizes (team 1 plays the rows).
    mesh : int
        Number of thresholds per player.
    structure : tuple of str
        Strategy structure of team 1 and team 2.
    solver, method : str
    team1_value : float
        Total value team 1 forces, iterating from ``V_0 = -m`` (``lower``).
    team2_value : float
        Total value team 2 forces, iterating from ``W_0 = -n`` (``upper = -team2_value``).
    lower, upper : float
        Team 1's value from below and from above; equal when the game has a value.
    team1_strategy, team2_strategy : dict
        ``{profile: probability}`` at each side's fixed point.
    converged : bool
        Both fixed points converged.
    num_iter : int
        Outer iterations, both sides.
    team1, team2 : FixedPointResult
    certificate_lower, certificate_upper : StrategyBound
        Theorem 1.2 for team 1's strategy (from -m) and team 2's (from -n).
    certified_lower, certified_upper : float
        Rigorous interval for team 1's value of the discretized game (nan if a
        certificate failed).
    num_solves : int
    seconds : float
    grid : numpy.ndarray
    team1_profiles, team2_profiles : numpy.ndarray
    """

    m: int
    n: int
    mesh: int
    structure: tuple
    solver: str
    method: str
    team1_value: float
    team2_value: float
    lower: float
    upper: float
    team1_strategy: dict
    team2_strategy: dict
    converged: bool
    num_iter: int
    team1: FixedPointResult = field(repr=False)
    team2: FixedPointResult = field(repr=False)
    certificate_lower: StrategyBound = field(repr=False)
    certificate_upper: StrategyBound = field(repr=False)
    certified_lower: float
    certified_upper: float
    num_solves: int
    seconds: float
    grid: np.ndarray = field(repr=False)
    team1_profiles: np.ndarray = field(repr=False)
    team2_profiles: np.ndarray = field(repr=False)

    @property
    def value(self) -> float:
        """Team 1's value (the :class:`~guts.engine.result.Result` protocol)."""
        return self.team1_value

    @property
    def values(self) -> tuple:
        """``(team1_value, team2_value)``: what each side forces from its own termination value."""
        return (self.team1_value, self.team2_value)

    @property
    def strategies(self) -> tuple:
        """``(team1_strategy, team2_strategy)``."""
        return (self.team1_strategy, self.team2_strategy)

    @property
    def has_value(self) -> bool:
        """Both sides meet (``|lower - upper| <= 1e-9``): the game has a value (§1)."""
        return abs(self.lower - self.upper) <= 1e-9


    def components(self, team: int = 1):
        """A team's support as ``[(profile, probability), ...]``, heaviest first."""
        check_choice("team", team, (1, 2))
        strat = self.team1_strategy if team == 1 else self.team2_strategy
        return sorted(strat.items(), key=lambda kv: -kv[1])


#: Resident bytes per team strategy of the double oracle's solve (both teams' profiles, their
#: index tuples while built, the best-response sweeps): 3 v. 3, "full", mesh 161 (708 k
#: strategies a team) held 1.3 GB; so mesh 401 (10.8 M a team) is refused at once instead of
#: growing past 6 GB.
TEAM_BYTES_PER_PROFILE = 800
AUTO_DENSE_LIMIT = 2_000_000  # solver="auto": dense LP up to this many matrix entries, else double oracle


def solve_teams(m: int, n: int, mesh=21, structure="full", solver: str = "auto", method: str = "newton",
                tol: float = FIXED_POINT_TOL, max_iterations: int = 10_000, fp_iterations: int = 10_000,
                random_state=None, certify_result: bool = True) -> Solution:
    """Solve the m v. n team recursive Guts game (paper §1.2, §5).

    Parameters
    ----------
    m, n : int
        Sizes of team 1 (rows) and team 2 (columns), each >= 1; m + n players.
    mesh : int or array_like
        Thresholds available to every player: a number of uniform points (the
        paper's 2 v. 2 uses 21) or explicit thresholds in [0, 1].
    structure : str or (str, str)
        Team strategy spaces (:data:`guts.games.guts.strategies.STRUCTURES`), one for both or
        one per team.  ``"full"`` (independent members, multisets) is exact.
    solver : {"auto", "lp", "fp", "oracle"}
        Inner matrix-game solver: dense LP (HiGHS), fictitious play, or double oracle
        (exact, and the only practical one for large games).  ``"auto"``: ``"lp"`` up
        to ``AUTO_DENSE_LIMIT`` matrix entries, ``"oracle"`` beyond.
    method : {"newton", "iterate"}
    tol, max_iterations, fp_iterations, random_state
        As in :func:`guts.engine.recursive.fixed_point`.
    certify_result : bool
        Compute Theorem 1.2 certificates for both teams' strategies.

    Returns
    -------
    TeamResult
    """
    t0 = time.perf_counter()
    m = check_int("m", m, 1)
    n = check_int("n", n, 1)
    check_choice("solver", solver, ("auto",) + SOLVERS)
    check_choice("method", method, METHODS)
    check_positive_float("tol", tol, maximum=MAX_FIXED_POINT_TOL)
    s1, s2 = _structures(structure)
    g = check_recursive_grid(resolve_grid(mesh))
    cells = count_profiles(m, g.size, s1) * count_profiles(n, g.size, s2)
    if solver == "auto":
        solver = "lp" if cells <= AUTO_DENSE_LIMIT else "oracle"
    if solver != "oracle":
        if cells > 50_000_000:
            raise GutsInputError(f"the dense {m} v. {n} matrix would have {cells} entries; use solver='oracle'")
    c1, c2 = count_profiles(m, g.size, s1), count_profiles(n, g.size, s2)
    check_memory(f"the {m} v. {n} team game ({s1} / {s2}, mesh {g.size}: {c1:,} and {c2:,} team strategies)",
                 TEAM_BYTES_PER_PROFILE * (c1 + c2), "use a smaller mesh or the pseudo-bloc structure")
    stage = TeamStage(coalition_profiles(m, g, s1), coalition_profiles(n, g, s2))
    # team 1 from -m, team 2 from -n; each capped at what the other team forfeits by leaving
    both = solve_both_sides(stage, -float(m), -float(n), certify_result=certify_result, solver=solver,
                            method=method, tol=tol, max_iterations=max_iterations, fp_iterations=fp_iterations,
                            random_state=random_state)
    t1, t2 = both.row, both.col
    p1, p2 = stage.team1_profiles, stage.team2_profiles
    x, y = t1.row_strategy, t2.row_strategy
    strat1 = support(x, lambda i: tuple(float(round(v, 12)) for v in p1[i]))
    strat2 = support(y, lambda j: tuple(float(round(v, 12)) for v in p2[j]))
    return Solution.of(TeamResult(
        m=m, n=n, mesh=g.size, structure=(s1, s2), solver=solver, method=method,
        team1_value=t1.value, team2_value=t2.value, lower=t1.value, upper=-t2.value,
        team1_strategy=strat1, team2_strategy=strat2, converged=both.converged, num_iter=both.num_iter,
        team1=t1, team2=t2, certificate_lower=both.certificate_lower, certificate_upper=both.certificate_upper,
        certified_lower=both.certified_lower, certified_upper=both.certified_upper,
        num_solves=both.num_solves, seconds=time.perf_counter() - t0,
        grid=g, team1_profiles=p1, team2_profiles=p2,
    ))
