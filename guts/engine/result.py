"""The one result protocol of every solver and every family's solve.

A study or the command line reads any solution the same way, whatever the family or
the method::

    r = solve_something(...)
    r.value, r.values          # first player's value; every player's value
    r.strategies               # one entry per player (the family's format)
    r.certificate.kind         # "interval", "duality_gap", "exploitability", "nash_conv", "max_regret"
    r.certificate.holds(1e-9)  # the certificate meets this target
    r.converged, r.num_iter, r.seconds, r.method

:class:`Result` is the base class that says so; every family's result class extends it
(its own fields stay, the protocol's missing names are properties).  :class:`Solution` is
the concrete frozen dataclass for a solve that has nothing of its own to add.

The certificate certifies the reported value or strategies (DESIGN.md, "Numerics never fail
silently"): an ``interval`` is a rigorous ``[lower, upper]`` bracket of the value (Theorem 1.2
of Buck, Lee, Platnick, Wheeler, Zumbrun 2022); a ``duality_gap`` is ``upper - lower`` of a
matrix game's strategies (each bounds the value); ``exploitability`` and ``nash_conv`` are the
mean and the sum of every player's best-response gain (Lanctot et al. 2017's NashConv);
``max_regret`` is the largest single player's gain (the epsilon of an epsilon-equilibrium).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from guts.errors import GutsInputError

__all__ = ["Result", "Solution", "ResultCertificate", "KINDS", "PROTOCOL", "interval", "duality_gap_certificate",
           "exploitability_certificate", "max_regret_certificate", "check_result"]

#: The kinds of certificate, each with the number that :meth:`ResultCertificate.holds` compares.
KINDS = ("interval", "duality_gap", "exploitability", "nash_conv", "max_regret")

#: The names every result answers to.
PROTOCOL = ("value", "values", "strategies", "certificate", "converged", "num_iter", "seconds", "method")

_NAN = math.nan


@dataclass(frozen=True)
class ResultCertificate:
    """What certifies a solution, with its kind named.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`; says which number :attr:`measure` is.
    lower, upper : float
        ``interval``: a rigorous bracket of the (first player's) value; ``duality_gap``:
        what the row strategy guarantees and what the column strategy concedes.
    gap : float
        ``upper - lower`` (``duality_gap`` and ``interval``).
    exploitability, nash_conv, max_regret : float
        Mean, sum and largest of the players' best-response gains, where known
        (``nan`` otherwise).
    """

    kind: str
    lower: float = _NAN
    upper: float = _NAN
    gap: float = _NAN
    exploitability: float = _NAN
    nash_conv: float = _NAN
    max_regret: float = _NAN

    def __post_init__(self):
        if self.kind not in KINDS:
            raise GutsInputError(f"certificate kind {self.kind!r}; accepted: {', '.join(KINDS)}")

    @property
    def measure(self) -> float:
        """The number the certificate's kind is about (width, gap, exploitability, NashConv, max regret)."""
        if self.kind in ("interval", "duality_gap"):
            return float(self.upper - self.lower)
        return float(getattr(self, self.kind))

    def holds(self, target: float) -> bool:
        """``True`` when :attr:`measure` is finite and ``<= target`` (a nan measure never holds)."""
        m = self.measure
        return bool(math.isfinite(m) and m <= target)

    def __format__(self, spec: str) -> str:
        # a best-response gain is >= 0; rounding can compute -1e-17: shown as 0, the number beside it
        m, spec = self.measure, spec or ".3g"
        if m < 0:
            return f"{self.kind} {format(0.0, spec)} (rounding: computed {m:.1e})"
        return f"{self.kind} {format(m, spec)}"


def interval(lower: float, upper: float) -> ResultCertificate:
    """A rigorous bracket ``[lower, upper]`` of the value (``nan`` ends: not certified)."""
    return ResultCertificate("interval", lower=float(lower), upper=float(upper), gap=float(upper) - float(lower))


def duality_gap_certificate(lower: float, upper: float) -> ResultCertificate:
    """A matrix game's strategies guarantee ``lower`` and concede ``upper``."""
    return ResultCertificate("duality_gap", lower=float(lower), upper=float(upper), gap=float(upper) - float(lower))


def exploitability_certificate(gains, kind: str | None = None) -> ResultCertificate:
    """From every player's best-response gain: ``exploitability`` for two players, else ``nash_conv``."""
    g = np.asarray(gains, dtype=float).ravel()
    if kind is None:
        kind = "exploitability" if g.size == 2 else "nash_conv"
    total = float(g.sum()) if g.size else _NAN
    return ResultCertificate(kind, exploitability=total / g.size if g.size else _NAN, nash_conv=total,
                       max_regret=float(g.max()) if g.size else _NAN)


def max_regret_certificate(gains) -> ResultCertificate:
    """The largest single player's gain is what is certified (an epsilon-equilibrium)."""
    return exploitability_certificate(gains, kind="max_regret")


class Result:
    """Base class of every solution: the names of :data:`PROTOCOL` mean the same everywhere.

    ``value``
        the first player's (row player's, player 1's, Alice's) expected payoff;
    ``values``
        one entry per player (or per side of a coalition or team game);
    ``strategies``
        one entry per player, in the family's format;
    ``certificate``
        a :class:`ResultCertificate`; ``converged`` is ``True`` only when it holds at the
        solver's target;
    ``num_iter``, ``seconds``, ``method``
        iterations, wall time and the method used.

    Subclasses are frozen dataclasses with their own fields; the protocol's names that are
    not fields are properties.  :meth:`summary` is the one row a study writes.
    """

    __slots__ = ()

    def summary(self) -> dict[str, Any]:
        """``value``, the certificate (kind and measure), ``converged``, ``num_iter``, ``seconds``, ``method``."""
        c = self.certificate
        return {"value": float(self.value), "certificate": c.kind, "certificate_measure": c.measure,
                "converged": bool(self.converged), "num_iter": int(self.num_iter),
                "seconds": float(self.seconds), "method": str(self.method)}

    def save(self, path, *, game=None, budget=None):
        """Keep this result in one portable file (:func:`guts.engine.persist.save_result`):
        a NumPy ``.npz`` with its protocol fields, its certificate, per-information-set
        strategies as arrays and a JSON header; written atomically. Read it back with
        :func:`guts.load_solution`. Returns the path."""
        from .persist import save_result

        return save_result(self, path, game=game, budget=budget)


@dataclass(frozen=True, kw_only=True)
class Solution(Result):
    """A result with the protocol's fields and nothing else (for a solve with no extra output)."""

    value: float
    values: tuple
    strategies: tuple = field(repr=False)
    certificate: ResultCertificate
    converged: bool
    num_iter: int = 0
    seconds: float = 0.0
    method: str = ""


def check_result(result) -> list[str]:
    """The protocol names ``result`` lacks or gets wrong (empty when it complies)."""
    bad = [name for name in PROTOCOL if not hasattr(result, name)]
    if bad:
        return [f"missing {name}" for name in bad]
    if not isinstance(result, Result):
        bad.append("not a guts.engine.result.Result")
    if not isinstance(result.certificate, ResultCertificate):
        bad.append(f"certificate is a {type(result.certificate).__name__}, not a ResultCertificate")
    if len(np.atleast_1d(np.asarray(result.values, dtype=float))) < 1:
        bad.append("values is empty")
    if result.converged and not result.certificate.holds(math.inf):
        bad.append("converged but the certificate's measure is not finite")
    return bad
