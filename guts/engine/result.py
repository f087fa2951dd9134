"""The one result protocol of every solver and every family's solve.

A study or the command line reads any solution the same way, whatever the family or
the method::

    r = solve_something(...)
    r.value, r.values          # first player's value; every player's value
    r.strategies               # one entry per player (the family's format)
    r.certificate.kind         # "interval", "duality_gap", "exploitability", "nash_conv", "max_regret", "lower_bound"
    r.certificate.certifies    # one sentence: what the certificate's number is about
    r.certificate.holds(1e-9)  # the certificate meets this target
    r.converged, r.num_iter, r.seconds, r.method
    r.details                  # the family's own record; its names read through r

Every solver returns one type, :class:`Solution`, with one :class:`Certificate`; what a
family adds (a coalition's thresholds, a CFR run's history) is its :class:`Details` record.

The certificate certifies the reported value or strategies (DESIGN.md, "Numerics never fail
silently"): an ``interval`` is a rigorous ``[lower, upper]`` bracket of the value (Theorem 1.2
of Buck, Lee, Platnick, Wheeler, Zumbrun 2022); a ``duality_gap`` is ``upper - lower`` of a
matrix game's strategies (each bounds the value); ``exploitability`` and ``nash_conv`` are the
mean and the sum of every player's best-response gain (Lanctot et al. 2017's NashConv);
``max_regret`` is the largest single player's gain (the epsilon of an epsilon-equilibrium);
a ``lower_bound`` is a rigorous lower bound of the value that one side's strategy forces
(Theorem 1.2 from one side only), its measure how far the reported value lies above it.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from guts.errors import GutsInputError

__all__ = ["Details", "Solution", "Certificate", "KINDS", "PROTOCOL", "interval", "duality_gap_certificate",
           "exploitability_certificate", "max_regret_certificate", "lower_bound_certificate", "check_result",
           "CERTIFIES"]

#: The kinds of certificate, each with the number that :meth:`Certificate.holds` compares.
KINDS = ("interval", "duality_gap", "exploitability", "nash_conv", "max_regret", "lower_bound")

#: What each kind's number certifies (:attr:`Certificate.certifies`).
CERTIFIES = {
    "interval": "a rigorous bracket [lower, upper] of the first player's value (Theorem 1.2)",
    "duality_gap": "the row strategy guarantees lower, the column strategy concedes upper",
    "exploitability": "the mean of the two players' best-response gains against the strategies",
    "nash_conv": "the sum of every player's best-response gain against the strategies (NashConv)",
    "max_regret": "the largest single player's best-response gain (an epsilon-equilibrium)",
    "lower_bound": "a rigorous lower bound of the value that the first side's strategy forces (Theorem 1.2)",
}

#: The names every result answers to.
PROTOCOL = ("value", "values", "strategies", "certificate", "converged", "num_iter", "seconds", "method")

_NAN = math.nan


@dataclass(frozen=True)
class Certificate:
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
    def certifies(self) -> str:
        """One sentence: what :attr:`measure` is about."""
        return CERTIFIES[self.kind]

    @property
    def measure(self) -> float:
        """The number the certificate's kind is about (width, gap, exploitability, NashConv,
        max regret; for ``lower_bound`` the reported value less the bound, ``upper - lower``)."""
        if self.kind in ("interval", "duality_gap", "lower_bound"):
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


def interval(lower: float, upper: float) -> Certificate:
    """A rigorous bracket ``[lower, upper]`` of the value (``nan`` ends: not certified)."""
    return Certificate("interval", lower=float(lower), upper=float(upper), gap=float(upper) - float(lower))


def duality_gap_certificate(lower: float, upper: float) -> Certificate:
    """A matrix game's strategies guarantee ``lower`` and concede ``upper``."""
    return Certificate("duality_gap", lower=float(lower), upper=float(upper), gap=float(upper) - float(lower))


def exploitability_certificate(gains, kind: str | None = None) -> Certificate:
    """From every player's best-response gain: ``exploitability`` for two players, else ``nash_conv``."""
    g = np.asarray(gains, dtype=float).ravel()
    if kind is None:
        kind = "exploitability" if g.size == 2 else "nash_conv"
    total = float(g.sum()) if g.size else _NAN
    return Certificate(kind, exploitability=total / g.size if g.size else _NAN, nash_conv=total,
                       max_regret=float(g.max()) if g.size else _NAN)


def lower_bound_certificate(bound: float, value: float) -> Certificate:
    """``bound`` rigorously below the value; ``value`` the reported one (``upper`` here)."""
    return Certificate("lower_bound", lower=float(bound), upper=float(value), gap=float(value) - float(bound))


def max_regret_certificate(gains) -> Certificate:
    """The largest single player's gain is what is certified (an epsilon-equilibrium)."""
    return exploitability_certificate(gains, kind="max_regret")


class Details:
    """Base of a family's details record: what one kind of solve reports beyond the protocol.

    A details record (a frozen dataclass: :class:`~guts.games.guts.coalition.CoalitionResult`,
    :class:`~guts.engine.extensive.result.ExtensiveResult`, ...) names every protocol field
    (as a field or a property) so that :meth:`Solution.of` can read them, and keeps its
    family's own fields and methods.  It is never returned alone: a solver returns
    ``Solution.of(record)``, and the solution answers every name of the record as its own
    (``solution.player1_value`` is ``solution.details.player1_value``).
    """

    __slots__ = ()


@dataclass(frozen=True, kw_only=True)
class Solution:
    """What every solver of the package returns: one frozen type, the same names everywhere.

    Attributes
    ----------
    value : float
        The first player's (row player's, player 1's, Alice's) expected payoff.
    values : tuple
        One entry per player (or per side of a coalition or team game).
    strategies : tuple
        One entry per player, in the family's format.
    certificate : Certificate
        What certifies the value or the strategies, with its kind named.
    converged : bool
        ``True`` only when the certificate holds at the solver's target.
    num_iter : int
        Iterations of the method (0 for a direct solve).
    seconds : float
        Wall time of the solve.
    method : str
        The method used.
    details : Details or None
        The family's details record; every name it has is read through the solution
        (``solution.gains``, ``solution.components()``).

    Notes
    -----
    ``isinstance(solution.details, CoalitionResult)`` tells which kind of solve made it;
    :meth:`summary` is the one row a study writes; :meth:`save` keeps it in one file.

    .. versionchanged:: 0.1
       One type for every family; the family's own fields moved to :attr:`details`.
    """

    value: float
    values: tuple
    strategies: tuple = field(repr=False)
    certificate: Certificate
    converged: bool
    num_iter: int = 0
    seconds: float = 0.0
    method: str = ""
    details: Any = field(default=None, repr=False)

    @classmethod
    def of(cls, details) -> "Solution":
        """The solution of a details record (its protocol names read once, here)."""
        return cls(value=details.value, values=details.values, strategies=details.strategies,
                   certificate=details.certificate, converged=bool(details.converged),
                   num_iter=int(details.num_iter), seconds=float(details.seconds), method=str(details.method),
                   details=details)

    def __getattr__(self, name: str):
        # only reached when ``name`` is not a field: the family's record answers it
        if name.startswith("__"):
            raise AttributeError(name)
        details = self.__dict__.get("details")
        if details is None:
            raise AttributeError(f"this Solution has no {name!r} (it carries no details)")
        try:
            return getattr(details, name)
        except AttributeError:
            raise AttributeError(f"this Solution ({type(details).__name__}) has no {name!r}") from None

    def __dir__(self):
        extra = dir(self.details) if self.details is not None else []
        return sorted(set(object.__dir__(self)) | {n for n in extra if not n.startswith("_")})

    def replace(self, **changes) -> "Solution":
        """A copy with ``changes`` applied to the details record (protocol names re-read)."""
        if self.details is None:
            return dataclasses.replace(self, **changes)
        return Solution.of(dataclasses.replace(self.details, **changes))

    def summary(self) -> dict[str, Any]:
        """``value``, the certificate (kind and measure), ``converged``, ``num_iter``, ``seconds``,
        ``method``, and what the details record adds (its ``summary_fields()``, if any)."""
        c = self.certificate
        row = {"value": float(self.value), "certificate": c.kind, "certificate_measure": c.measure,
               "converged": bool(self.converged), "num_iter": int(self.num_iter),
               "seconds": float(self.seconds), "method": str(self.method)}
        extra = getattr(self.details, "summary_fields", None)
        if extra is not None:
            row.update(extra())
        return row

    def save(self, path, *, game=None, budget=None):
        """Keep this solution in one portable file (:func:`guts.engine.persist.save_result`):
        a NumPy ``.npz`` with its protocol fields, its certificate, per-information-set
        strategies as arrays and a JSON header; written atomically. Read it back with
        :func:`guts.load_solution`. Returns the path."""
        from .persist import save_result

        return save_result(self, path, game=game, budget=budget)


def check_result(result) -> list[str]:
    """The protocol names ``result`` lacks or gets wrong (empty when it complies)."""
    bad = [name for name in PROTOCOL if not hasattr(result, name)]
    if bad:
        return [f"missing {name}" for name in bad]
    if not isinstance(result, Solution):
        bad.append("not a guts.engine.result.Solution")
    if not isinstance(result.certificate, Certificate):
        bad.append(f"certificate is a {type(result.certificate).__name__}, not a Certificate")
    if len(np.atleast_1d(np.asarray(result.values, dtype=float))) < 1:
        bad.append("values is empty")
    if result.converged and not result.certificate.holds(math.inf):
        bad.append("converged but the certificate's measure is not finite")
    return bad
