"""1 v. N guts solutions kept on disk and read back with their certificate re-checked.

A :class:`~guts.games.guts.coalition.CoalitionResult` (and an m v. n
:class:`~guts.games.guts.teams.TeamResult`, :func:`load_teams`) is saved by the engine's format
(``result.save(path)``, :mod:`guts.engine.persist`: one ``.npz`` of arrays and a JSON header,
no pickle): the two strategies (player 1's ``{threshold: probability}``, the coalition's
``{(p_2, ..., p_{N+1}): probability}``), player 1's mesh, the coalition's profiles and the
certified interval.  :func:`load_coalition` rebuilds the stage game from the mesh and the
profiles (:class:`guts.games.guts.stage.GutsStage`) and recomputes Theorem 1.2 for both
strategies (Buck, Lee, Platnick, Wheeler and Zumbrun 2022; :func:`guts.engine.recursive.certify`):
player 1's repeated strategy from ``V_0 = -1`` and the coalition's from ``W_0 = -N`` must
certify the recorded interval ``[certified_lower, certified_upper]`` again.
"""
from __future__ import annotations

import math
import os

import numpy as np

from guts.engine.persist import SOLUTION_FORMAT, from_json, read_container
from guts.engine.tolerances import RELOAD_CERT_TOL
from guts.errors import GutsInputError

__all__ = ["load_coalition", "load_teams", "KEY_DECIMALS"]

_CLASS = "guts.games.guts.coalition.CoalitionResult"
_TEAMS = "guts.games.guts.teams.TeamResult"
#: Decimals of the thresholds in the strategies' keys (:func:`guts.games.guts.coalition.solve_coalition`).
KEY_DECIMALS = 12


def _vector(strategy, keys, what, name):
    index = {k: i for i, k in enumerate(keys)}
    x = np.zeros(len(keys))
    for k, p in strategy.items():
        i = index.get(k)
        if i is None:
            raise GutsInputError(f"{name!r}: {what} {k!r} is not one of the recorded stage game's; accepted: a file "
                                 "written by CoalitionResult.save")
        x[i] = float(np.asarray(p, dtype=float))
    total = x.sum()
    if not (np.all(x >= 0) and total > 0):
        raise GutsInputError(f"{name!r}: {what} probabilities are not a distribution")
    return x / total          # the strategies keep their support (weights above SUPPORT_TOL)


def load_coalition(path, *, verify: bool = True) -> tuple:
    """``(solution, None)``: a 1 v. N guts solution file, its certificate re-checked.

    Parameters
    ----------
    path : str or Path
        A file written by ``CoalitionResult.save``.
    verify : bool
        Recompute Theorem 1.2 for both strategies on the rebuilt stage game and refuse the
        file unless both certify and the certified ends equal the recorded ones within
        :data:`guts.engine.tolerances.RELOAD_CERT_TOL` times the coalition size (the payoff scale).

    Returns
    -------
    (Solution, None)
        The solution (:func:`guts.load_solution`: ``certificate`` the recorded interval); no
        extensive-form game.
    """
    from guts.engine.extensive.persist import load_solution

    from .stage import GutsStage

    name = os.fspath(path)
    meta, arrays = read_container(path, SOLUTION_FORMAT)
    fields = meta.get("result", {}).get("fields", {})
    if meta.get("result", {}).get("class") != _CLASS or not {"size", "player1_grid", "coalition_profiles"} <= set(fields):
        raise GutsInputError(f"{name!r} is not a 1 v. N guts solution; accepted: a file written by "
                             "CoalitionResult.save")
    solution = load_solution(path)
    if not verify:
        return solution, None
    size = int(from_json(fields["size"]["json"]))
    grid = np.asarray(arrays[fields["player1_grid"]["array"]], dtype=float)
    profiles = np.asarray(arrays[fields["coalition_profiles"]["array"]], dtype=float)
    stage = GutsStage(grid, profiles)
    p1, co = solution.strategies
    x = _vector(p1, [float(round(g, KEY_DECIMALS)) for g in grid], "threshold", name)
    y = _vector(co, [tuple(float(round(v, KEY_DECIMALS)) for v in row) for row in profiles], "profile", name)
    _recheck(name, stage, x, y, 1.0, float(size), solution, f"1 v. {size}")
    return solution, None


def _recheck(name, stage, x, y, m, n, solution, what) -> None:
    """Theorem 1.2 for row strategy ``x`` from ``-m`` and column strategy ``y`` from ``-n``: the
    certified ends must be the solution's (one ``GutsInputError`` line otherwise)."""
    from guts.engine.recursive import certify

    lo = certify(stage, strategy=x, v_start=-m)
    hi = certify(stage.transpose(), strategy=y, v_start=-n)
    got = (lo.v_certified if lo.valid else math.nan, -hi.v_certified if hi.valid else math.nan)
    saved = (float(solution.certificate.lower), float(solution.certificate.upper))
    tol = RELOAD_CERT_TOL * max(1.0, m, n)
    bad = [f"{end} {s!r} in the file, {g!r} recomputed" for end, s, g in zip(("lower end", "upper end"), saved, got)
           if not (math.isnan(s) and math.isnan(g)) and not abs(s - g) <= tol]
    if bad:
        raise GutsInputError(f"{name!r}: the Theorem 1.2 certificate does not hold for the recorded {what} game "
                             f"({', '.join(bad)}, tolerance {tol:.3g}); accepted: a solution whose certificate the "
                             "stage game confirms")


def load_teams(path, *, verify: bool = True) -> tuple:
    """``(solution, None)``: an m v. n guts team solution file (``TeamResult.save``), its
    certificate re-checked as :func:`load_coalition` does (team 1 from ``-m``, team 2 from ``-n``)."""
    from guts.engine.extensive.persist import load_solution

    from .teams import TeamStage

    name = os.fspath(path)
    meta, arrays = read_container(path, SOLUTION_FORMAT)
    fields = meta.get("result", {}).get("fields", {})
    if meta.get("result", {}).get("class") != _TEAMS or not {"m", "n", "team1_profiles", "team2_profiles"} <= set(fields):
        raise GutsInputError(f"{name!r} is not an m v. n guts team solution; accepted: a file written by "
                             "TeamResult.save")
    solution = load_solution(path)
    if not verify:
        return solution, None
    m, n = int(from_json(fields["m"]["json"])), int(from_json(fields["n"]["json"]))
    p1 = np.asarray(arrays[fields["team1_profiles"]["array"]], dtype=float)
    p2 = np.asarray(arrays[fields["team2_profiles"]["array"]], dtype=float)
    s1, s2 = solution.strategies
    x = _vector(s1, [tuple(float(round(v, KEY_DECIMALS)) for v in row) for row in p1], "team 1 profile", name)
    y = _vector(s2, [tuple(float(round(v, KEY_DECIMALS)) for v in row) for row in p2], "team 2 profile", name)
    _recheck(name, TeamStage(p1, p2), x, y, float(m), float(n), solution, f"{m} v. {n}")
    return solution, None
