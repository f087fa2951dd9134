"""Large coalitions: meshes that follow the thresholds and the 1 v. N game for N up to hundreds.

Paper §5 solves the pseudo-bloc game for N <= 15 on a uniform mesh of 101 points and
extrapolates the value curve to N -> infinity.  The thresholds that matter crowd
towards 1 as N grows: the symmetric equilibrium is ``p* = 2^(-1/N)`` (Proposition
3.3), so ``1 - p* ~ log(2)/N``, and at N = 15 the bloc threshold is already 0.94.
A uniform mesh of 101 points then has only a handful of points where the
strategies live.  This module

* builds threshold meshes uniform in the scaled coordinate ``s = N (1 - p)`` on a
  log scale (:func:`threshold_mesh`), so the relative resolution near the
  equilibrium thresholds is the same for every N;
* solves the pseudo-bloc game with :class:`PseudoBlocStage`, which stores a
  coalition profile ``(p_2, p_3, ..., p_3)`` as two mesh indices and evaluates
  α in O(1) per entry (instead of an (M^2, N) profile array and O(N) per entry),
  so meshes of a thousand points at N = 200 are cheap under the double oracle;
* checks convergence by solving on two meshes (:func:`solve_large_n` with
  ``points`` and ``2 * points - 1`` ...) and reporting the difference;
* is swept over N by :mod:`guts.studies.large_n` into ``results/large_n.csv``.

The fixed point and the Theorem 1.2 certificates are those of
:mod:`guts.engine.recursive`, exactly as in :func:`guts.solve_coalition`; on a common
mesh both give the same value (tested).

Examples
--------
>>> from guts.games.guts.large_n import solve_pseudo_bloc, threshold_mesh
>>> g = threshold_mesh(2, 101, kind="uniform")
>>> r = solve_pseudo_bloc(2, g)
>>> round(r.coalition_value, 4)      # the paper's Table 1 at mesh 101 prints 0.0132
0.0132
"""
from guts.games.guts.large_n.bracket import ValueBracket, bracket_value
from guts.games.guts.large_n.mesh import MESH_KINDS, threshold_mesh
from guts.games.guts.large_n.refine import LargeNValue, solve_large_n
from guts.games.guts.large_n.solve import HELD_WARNING_WIDTH, LargeNResult, solve_pseudo_bloc
from guts.games.guts.pseudo_bloc import PseudoBlocStage, pseudo_bloc_alpha, pseudo_bloc_beta

__all__ = [
    "MESH_KINDS",
    "threshold_mesh",
    "pseudo_bloc_alpha",
    "pseudo_bloc_beta",
    "PseudoBlocStage",
    "LargeNResult",
    "solve_pseudo_bloc",
    "ValueBracket",
    "bracket_value",
    "LargeNValue",
    "solve_large_n",
    "HELD_WARNING_WIDTH",
]
