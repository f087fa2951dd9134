"""The continuum limit of the 1 v. N pseudo-bloc game: no mesh.

Paper §1 (value map (1.4)–(1.6)), Theorem 1.2 (§2.1), §3 (payoffs) and §5 (the
pseudo-bloc coalition).  Player 1 picks a threshold ``q`` in [0, 1]; the coalition
of N picks a pseudo-bloc profile ``(a, b, ..., b)`` with ``(a, b)`` in [0, 1]^2 (just
``a`` for N = 1).  The stage payoff is ``α(q; a, b..b) + V β(q; a, b..b)``.

Structure used (proved in the docstrings below, checked in the tests)
---------------------------------------------------------------------
* **Player 1's payoff is concave in q.**  ``∂α/∂q = n - 1 + 2Π - 2n Π_j max(p_j, q)``
  is non-increasing and β is affine in q.  Player 1's best response to a finite
  coalition mixture is therefore the root of a monotone piecewise polynomial
  (found on its piece to machine precision), and by Jensen a mixture of thresholds
  is weakly dominated by its mean: player 1's continuum strategy can be taken pure.
* **The coalition's payoff has monotone partial derivatives.**  With ``n = N + 1``,
  ``∂α/∂p_j = -1 + 2q Π_{k≠j} p_k + 2n ∫_q^{max(p_j, q)} Π_{k≠j} max(p_k, x) dx`` and
  ``∂β/∂p_j = -1 + 2 Π_{i≠j} p_i`` are non-decreasing in every threshold.  Over a box
  ``[a0, a1] x [b0, b1]`` the gradient therefore lies between its values at the two
  extreme corners, which gives a rigorous lower bound of the payoff on the box
  (mean-value theorem; α is C^1).  A branch and bound over boxes turns the
  coalition's two-dimensional best response into a *certified* global minimum.

Algorithm
---------
1. *Double oracle around the recursive game.*  The finite game ``GutsStage(Q, P)`` on
   the thresholds ``Q`` and profiles ``P`` generated so far is solved by
   :func:`guts.engine.recursive.fixed_point` (Newton, from ``V_0 = -1``); at its fixed point
   ``V`` both continuum best responses are computed and added, until they improve on
   ``V`` by at most ``tol`` in total.  Starting sets: the supports of the mesh-21
   solution.
2. *Polish.*  The double oracle leaves player 1 mixing neighbouring thresholds and
   the coalition's profiles accurate only to about ``sqrt(tol)`` (the value is
   stationary in them).  With the support known -- one bloc profile ``(t, t..t)`` and
   one pseudo-bloc profile ``(0, b..b)`` for every N >= 2 -- a 2 x 2 Newton system in
   ``(q, V)`` (each profile a stationary best response worth ``V``) gives the
   equilibrium to rounding; the coalition's weights follow from player 1's
   indifference.  It is kept only if its continuum gap is smaller.
3. *Certify.*  Theorem 1.2 in the continuum: player 1's pure threshold against
   *every* profile in [0, 1]^2 (branch and bound), the coalition's mixture against
   *every* q (exact), each from its own termination value (-1, -N).  This gives a
   rigorous interval for the value, floating-point error included (bounded entry by
   entry relative to the terms of the closed forms, :mod:`.rounding`: ~1e-14 near the
   equilibrium for every N), about 1e-10 wide.  :func:`guts.games.guts.large_n.bracket_value`
   certifies the large-N mesh solutions with the same two functions.

Examples
--------
>>> from guts.games.guts.continuum import solve_continuum
>>> r = solve_continuum(1)
>>> abs(r.player1_value) < 1e-9, r.player1_strategy      # 2-player Guts: fair, p* = 1/2
(True, {0.5: 1.0})
"""
from guts.games.guts.continuum.best_response import (BoxMinimum, coalition_best_response, player1_best_response,
                                                     player1_best_response_pseudo_bloc)
from guts.games.guts.continuum.certificates import (ContinuumCertificate, certify_coalition,
                                                    certify_coalition_pseudo_bloc, certify_player1)
from guts.games.guts.continuum.equilibrium import BLOC_ATOL
from guts.games.guts.continuum.oracle import StageValue, stage_value
from guts.games.guts.continuum.solve import ContinuumResult, full_coalition_response, solve_continuum
from guts.games.guts.pseudo_bloc import pseudo_bloc, stage_gradient, stage_payoff

__all__ = [
    "ContinuumResult",
    "BoxMinimum",
    "ContinuumCertificate",
    "BLOC_ATOL",
    "pseudo_bloc",
    "stage_payoff",
    "stage_gradient",
    "player1_best_response",
    "player1_best_response_pseudo_bloc",
    "coalition_best_response",
    "StageValue",
    "stage_value",
    "certify_player1",
    "certify_coalition",
    "certify_coalition_pseudo_bloc",
    "solve_continuum",
    "full_coalition_response",
]
