"""One vocabulary for the knobs every family shares.

=====================  =====================================================================
``players``            number of players of a game or method (fictitious play on a Guts mesh,
                       ``kuhn_poker``); was ``n_players``
``mesh``               discretisation: points of the threshold / hand mesh (was ``points``,
                       ``hands``)
``iterations``         the exact number of steps of a method that always runs them all
                       (fictitious play on a Guts mesh, nashpy's fictitious play)
``max_iterations``     iteration cap of a method that stops early (CFR+, fictitious play on a
                       tree, the fixed point, the double oracle, refinement rounds); was
                       ``iterations`` (CFR+), ``max_iter``, ``max_rounds``
``target``             stopping target of an iterative equilibrium method, in the units of
                       its result's ``certificate`` (the method stops once
                       ``result.certificate.holds(target)``): exploitability for CFR+,
                       max regret for fictitious play on a tree, NashConv for Mercer's CFR+;
                       was ``target_exploitability``, ``epsilon``
``tol``                numerical tolerance of an exact method (LP duality gap, fixed-point
                       residual, interval width) and the acceptance gap of a fixed-length one
``random_state``       everything random (an int or a ``numpy.random.Generator``); was ``seed``
``progress``           a flag: ``True`` shows a tqdm bar on stderr (:mod:`guts.engine.progress`);
                       a per-iteration function is ``callback``
warnings               methods warn :class:`guts.errors.ConvergenceWarning` when not certified;
                       callers filter with :func:`warnings.catch_warnings`
=====================  =====================================================================

The table is the source of ``docs/engine.md``'s table (a test compares them).
"""
from __future__ import annotations



__all__ = ["VOCABULARY"]

#: canonical name -> the old names it replaced (no longer accepted: a call with one fails with
#: Python's ``TypeError`` naming the unexpected keyword)
VOCABULARY = {
    "players": ("n_players",),
    "mesh": ("points", "hands"),
    "iterations": (),
    "max_iterations": ("iterations", "max_iter", "max_rounds"),
    "target": ("target_exploitability", "epsilon"),
    "tol": (),
    "random_state": ("seed",),
    "progress": (),
    "callback": ("progress",),
}
