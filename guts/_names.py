"""One vocabulary for the knobs every family shares, and the one helper that
accepts their old names with a :class:`DeprecationWarning`.

=====================  =====================================================================
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

import functools
import warnings

from guts.errors import GutsInputError

__all__ = ["VOCABULARY", "renamed"]

#: canonical name -> old names it replaces (the decorator's mappings must agree with it)
VOCABULARY = {
    "mesh": ("points", "hands"),
    "iterations": (),
    "max_iterations": ("iterations", "max_iter", "max_rounds"),
    "target": ("target_exploitability", "epsilon"),
    "tol": (),
    "random_state": ("seed",),
    "progress": (),
    "callback": ("progress",),
}


def renamed(**old_to_new: str):
    """Decorator: accept keyword ``old=`` for ``new=`` with a :class:`DeprecationWarning`.

    ``@renamed(max_iter="max_iterations")``; giving both names is an error.  An optional
    ``convert`` is not offered: a renamed knob keeps its meaning and units.
    """
    for old, new in old_to_new.items():
        if old not in VOCABULARY.get(new, ()):
            raise GutsInputError(f"{old!r} -> {new!r} is not a rename of guts._names.VOCABULARY")

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise GutsInputError(f"{func.__name__}: give {new}= only ({old}= is its old name); "
                                             f"got both")
                    warnings.warn(f"{func.__name__}: {old}= is deprecated, use {new}= (same meaning)",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        wrapper.renamed_parameters = dict(old_to_new)
        return wrapper

    return decorate
