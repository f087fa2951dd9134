"""Exact (rational) best responses and values of public-tree games, and the exact certificate
of a two-player zero-sum equilibrium found in floating point.

A sequence-form LP (Koller, Megiddo and von Stengel, *Efficient Computation of Equilibria for
Extensive Two-Person Games*, 1996) has rational data when the game has (deal and chance
probabilities, payoffs); its vertex solutions are rational, and so is the value.  An LP
solved in double precision gives them to ~1e-10.  :func:`certify_exact` turns that into a
proof:

1. *rational reconstruction*: every behaviour probability becomes the closest fraction with
   a bounded denominator (:meth:`fractions.Fraction.limit_denominator`, the continued-fraction
   convergents), and each row is renormalised exactly (``rationalise_strategies``; or the
   realisation weights are reconstructed and the behaviour is their exact ratio);
2. *verification*: the first player's rational strategy guarantees exactly
   ``lower = -BR_1(x)`` and the second's concedes exactly ``upper = BR_0(y)``, both by a best
   response in rational arithmetic (:func:`exact_best_response`: one walk over the public tree,
   the other players' reach per deal as fractions, a max per information set).

``lower <= value <= upper`` always holds (the bracket is rigorous, whatever the rounding);
when ``lower == upper`` the value is that fraction, exactly.

Rationals are read from the game's floats by :func:`to_fraction` (1/6 stored as 0.1666... is
1/6); a game whose probabilities are not such simple fractions takes ``deal_prob`` exactly.
A game may carry ``exact_deal_prob`` (a sequence of fractions), used when ``deal_prob`` is not
given.
"""
from __future__ import annotations

import numbers
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ...errors import GutsInputError
from ..tolerances import RATIONAL_INPUT_MAX_DENOMINATOR, RATIONAL_INPUT_REL, RATIONAL_MAX_DENOMINATORS
from .nodes import Chance, Decision, Terminal, _label_str
from .tree import PublicTreeGame, require_full_game
from .types import Game, Profile

__all__ = ["to_fraction", "rationalise_strategies", "exact_best_response", "exact_expected_values",
           "certify_exact", "ExactCertificate", "RationalStrategy"]

_ZERO = Fraction(0)
_ONE = Fraction(1)


def to_fraction(x, max_denominator: int = RATIONAL_INPUT_MAX_DENOMINATOR) -> Fraction:
    """``x`` as a fraction: the simplest one with denominator ``<= max_denominator`` when it is
    within ``RATIONAL_INPUT_REL`` (relative) of ``x``, else ``x``'s exact binary value.

    >>> to_fraction(1 / 6), to_fraction(0.5), to_fraction(-2.0)
    (Fraction(1, 6), Fraction(1, 2), Fraction(-2, 1))
    """
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, bool):
        return Fraction(int(x))
    xf = float(x)
    if not np.isfinite(xf):
        raise GutsInputError(f"cannot read {x!r} as a rational number; accepted: finite numbers")
    exact = Fraction(xf)
    simple = exact.limit_denominator(max_denominator)
    if abs(float(simple) - xf) <= RATIONAL_INPUT_REL * max(1.0, abs(xf)):
        return simple
    return exact


def _check_game(game):
    require_full_game(game, "exact (rational) arithmetic")
    if not isinstance(game, PublicTreeGame):
        raise GutsInputError(f"game must be a PublicTreeGame (public tree over private deals); got "
                             f"{type(game).__name__}")
    return game


def _deal_prob(game, deal_prob):
    D = game.deals.num_deals
    if deal_prob is None:
        deal_prob = getattr(game, "exact_deal_prob", None)
    if deal_prob is None:
        probs = [to_fraction(p) for p in game.deals.prob]
        if sum(probs) != 1:
            raise GutsInputError(
                f"the deal probabilities of {game.name or 'the game'} read as fractions sum to {sum(probs)}, not 1; "
                "accepted: pass deal_prob, the exact probabilities (fractions summing to 1)")
        return probs
    try:
        probs = [Fraction(p) for p in deal_prob]
    except (TypeError, ValueError):
        raise GutsInputError("deal_prob must be rational numbers (fractions.Fraction or int)") from None
    if len(probs) != D or any(p < 0 for p in probs) or sum(probs) != 1:
        raise GutsInputError(f"deal_prob must be {D} non-negative fractions summing to exactly 1; got "
                             f"{len(probs)} summing to {sum(probs)}")
    return probs


class _Payoffs:
    """Exact payoffs of terminals, converted once per distinct table."""

    def __init__(self, num_deals):
        self.D = num_deals
        self.tables = {}

    def __call__(self, node: Terminal, player: int):
        off = to_fraction(node.offset[player])
        if node.table is None or node.scale == 0.0:
            return None, off
        key = (id(node.table), player)
        col = self.tables.get(key)
        if col is None:
            col = [to_fraction(v) for v in node.table[player]]
            self.tables[key] = col
        return col, (off, to_fraction(node.scale))


def _rows(strategies, player, hist, num_types, num_actions):
    try:
        rows = strategies[player][hist]
    except (KeyError, IndexError, TypeError):
        raise GutsInputError(f"strategies[{player}] has no entry for the decision at history "
                             f"{_label_str(hist)}") from None
    if len(rows) != num_types or any(len(r) != num_actions for r in rows):
        raise GutsInputError(f"strategies[{player}][{_label_str(hist)}] must be {num_types} rows of "
                             f"{num_actions} probabilities")
    return rows


def _walk(game, strategies, responder, deal_prob, payoffs):
    """Recursive pass: the responder's value per type (best response) or, with ``responder``
    None, every player's expected value; ``strategies`` rational rows."""
    info = [list(map(int, row)) for row in game.deals.info]
    n = game.num_players
    width = game.num_types[responder] if responder is not None else n
    zero = [_ZERO] * width
    checked = set()

    def terminal(node, w):
        out = list(zero)
        players = [responder] if responder is not None else range(n)
        for p in players:
            col, aff = payoffs(node, p)
            if col is None:
                total = sum(w.values(), _ZERO) * aff
                if responder is None:
                    out[p] += total
                else:
                    for d, wd in w.items():
                        out[info[p][d]] += wd * aff
                continue
            off, scale = aff
            for d, wd in w.items():
                u = off + scale * col[d]
                if responder is None:
                    out[p] += wd * u
                else:
                    out[info[p][d]] += wd * u
        return out

    def rec(node, hist, w):
        if not w:
            return None
        if isinstance(node, Terminal):
            return terminal(node, w)
        if isinstance(node, Decision):
            p = node.player
            labels = list(node.actions)
            if p == responder:
                best = None
                for lab in labels:
                    v = rec(node.actions[lab], hist + (lab,), w)
                    if v is None:
                        v = zero
                    best = list(v) if best is None else [max(a, b) for a, b in zip(best, v)]
                return best
            rows = _rows(strategies, p, hist, game.num_types[p], len(labels))
            if hist not in checked:
                for t, r in enumerate(rows):
                    if any(x < 0 for x in r) or sum(r) != 1:
                        raise GutsInputError(f"strategies[{p}][{_label_str(hist)}] row {t} is not a probability "
                                             "vector in exact arithmetic (entries >= 0 summing to 1)")
                checked.add(hist)
            total = None
            ip = info[p]
            for a, lab in enumerate(labels):
                wa = {}
                for d, wd in w.items():
                    pr = rows[ip[d]][a]
                    if pr:
                        wa[d] = wd * pr
                v = rec(node.actions[lab], hist + (lab,), wa)
                if v is not None:
                    total = list(v) if total is None else [x + y for x, y in zip(total, v)]
            return total
        if isinstance(node, Chance):
            total = None
            for lab, (pr, child) in node.outcomes.items():
                if isinstance(pr, float):
                    f = to_fraction(pr)
                    wc = {d: wd * f for d, wd in w.items()} if f else {}
                else:
                    wc = {}
                    for d, wd in w.items():
                        f = to_fraction(pr[d])
                        if f:
                            wc[d] = wd * f
                v = rec(child, hist + (lab,), wc)
                if v is not None:
                    total = list(v) if total is None else [x + y for x, y in zip(total, v)]
            return total
        raise GutsInputError(f"node at history {_label_str(hist)} is a {type(node).__name__}")

    w0 = {d: p for d, p in enumerate(deal_prob) if p}
    out = rec(game.root, (), w0)
    return zero if out is None else out


def exact_best_response(game: Game, strategies: Profile, player: int, *, deal_prob=None) -> Fraction:
    """The value, exactly, of ``player``'s best response to the others' rational ``strategies``.

    Parameters
    ----------
    game : PublicTreeGame
    strategies : sequence of dict
        ``strategies[q][history]`` = ``num_types[q]`` rows of fractions (each row >= 0, summing
        to exactly 1), for every player ``q != player`` (``player``'s own entry is ignored), as
        :func:`rationalise_strategies` returns them.
    player : int
    deal_prob : sequence of Fraction, optional
        Exact deal probabilities (default: ``game.exact_deal_prob`` if the game has it, else
        the floats read by :func:`to_fraction`).

    Returns
    -------
    Fraction
        ``max`` over ``player``'s pure strategies of his expected payoff.
    """
    game = _check_game(game)
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < game.num_players:
        raise GutsInputError(f"player must be an integer in [0, {game.num_players - 1}]; got {player!r}")
    probs = _deal_prob(game, deal_prob)
    per_type = _walk(game, strategies, int(player), probs, _Payoffs(game.deals.num_deals))
    return sum(per_type, _ZERO)


def exact_expected_values(game: Game, strategies: Profile, *, deal_prob=None) -> tuple:
    """Every player's expected payoff, exactly, under the rational ``strategies``."""
    game = _check_game(game)
    probs = _deal_prob(game, deal_prob)
    return tuple(_walk(game, strategies, None, probs, _Payoffs(game.deals.num_deals)))


def _closest(x, max_denominator, cache):
    """The closest fraction to the float ``x > 0`` with denominator ``<= max_denominator`` (cached)."""
    f = cache.get(x)
    if f is None:
        f = Fraction(x).limit_denominator(max_denominator)
        cache[x] = f
    return f


def _round_row(row, max_denominator, cache):
    """A float probability row as fractions with bounded denominators, summing to exactly 1."""
    fr = [_closest(float(x), max_denominator, cache) if x > 0 else _ZERO for x in row]
    s = sum(fr, _ZERO)
    if s == 1:
        return tuple(fr)
    if s == 0:
        return tuple(Fraction(1, len(fr)) for _ in fr)
    k = max(range(len(fr)), key=lambda i: fr[i])
    rest = s - fr[k]
    if rest <= 1:
        fr[k] = 1 - rest
        return tuple(fr)
    return tuple(x / s for x in fr)


class RationalStrategy(Mapping):
    """One player's float behaviour strategy read as exact fractions, row block by row block on
    first access (a best response reads only the information sets it reaches).

    ``strategy[history]`` = tuple of ``num_types`` tuples of :class:`fractions.Fraction`, each
    summing to exactly 1 (see :func:`rationalise_strategies` for ``basis``).
    """

    def __init__(self, game, player, strategy, max_denominator, basis):
        self._floats = strategy
        self._labels = game.action_labels(player)
        self._q = int(max_denominator)
        self._basis = basis
        self._cache = {}
        self._rows = {}

    def __getitem__(self, hist):
        rows = self._rows.get(hist)
        if rows is None:
            arr = np.asarray(self._floats[hist], dtype=float)
            q, cache = self._q, self._cache
            if self._basis == "behaviour":
                rows = tuple(_round_row(row, q, cache) for row in arr)
            else:
                # own reach of each type: the product of his behaviour at his earlier decisions
                r = np.ones(arr.shape[0])
                for k in range(len(hist)):
                    labs = self._labels.get(hist[:k])
                    if labs is not None:
                        r = r * np.asarray(self._floats[hist[:k]], dtype=float)[:, labs.index(hist[k])]
                out = []
                for t in range(arr.shape[0]):
                    x = [_closest(float(v), q, cache) if v > 0 else _ZERO for v in r[t] * arr[t]]
                    tot = sum(x, _ZERO)
                    out.append(tuple(v / tot for v in x) if tot > 0 else _round_row(arr[t], q, cache))
                rows = tuple(out)
            self._rows[hist] = rows
        return rows

    def __iter__(self):
        return iter(self._floats)

    def __len__(self):
        return len(self._floats)


def rationalise_strategies(game: Game, strategies: Profile, max_denominator: int, *, basis: str = "behaviour") -> tuple:
    """Float behaviour ``strategies`` as exact rational ones (rows summing to exactly 1).

    Parameters
    ----------
    game : PublicTreeGame
    strategies : sequence of dict
        ``strategies[p][history]`` = array ``(num_types[p], num_actions)`` (a solver's output).
    max_denominator : int
        Bound on the denominators of the reconstructed numbers.
    basis : {"behaviour", "realisation"}
        ``"behaviour"``: each behaviour probability is rounded to the closest fraction of bounded
        denominator and the row's largest entry absorbs the rounding (1 minus the others).
        ``"realisation"``: the player's own realisation weights (products of his behaviour
        along the history) are rounded, and the behaviour is their exact ratio (rows of
        unreached information sets as in ``"behaviour"``): an LP vertex is rational in
        realisation weights, whose denominators may be smaller than the behaviour's.

    Returns
    -------
    tuple of RationalStrategy
        ``out[p][history]`` = tuple of ``num_types[p]`` tuples of :class:`fractions.Fraction`
        (computed on first access; ``dict(out[p])`` has them all).
    """
    game = _check_game(game)
    if basis not in ("behaviour", "realisation"):
        raise GutsInputError(f"unknown basis {basis!r}; accepted: 'behaviour', 'realisation'")
    if isinstance(max_denominator, bool) or not isinstance(max_denominator, (int, np.integer)) or max_denominator < 1:
        raise GutsInputError(f"max_denominator must be an integer >= 1; got {max_denominator!r}")
    if len(strategies) != game.num_players:
        raise GutsInputError(f"strategies must have one dict per player ({game.num_players}); got {len(strategies)}")
    return tuple(RationalStrategy(game, p, strategies[p], max_denominator, basis) for p in range(game.num_players))


@dataclass(frozen=True)
class ExactCertificate:
    """An exact bracket of a two-player zero-sum game's value from rational strategies.

    Attributes
    ----------
    lower, upper : Fraction
        ``strategies[0]`` guarantees the first player ``lower`` (exactly, against every
        strategy of the second); ``strategies[1]`` holds him to ``upper``.
    value : Fraction or None
        The game's value, ``lower`` when ``lower == upper``, else ``None``.
    max_denominators : tuple of int
        The denominator bounds (first and second player's strategy) of the strategies kept.
    bases : tuple of str
        The reconstruction (``"behaviour"`` or ``"realisation"``) of each kept strategy.
    strategies : tuple of dict
        The rational strategies that give ``lower`` and ``upper``.
    attempts : int
        Reconstructions tried; ``seconds``: time spent.
    """

    lower: Fraction
    upper: Fraction
    value: Fraction | None
    max_denominators: tuple
    bases: tuple
    strategies: tuple = field(repr=False)
    attempts: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        """``True`` when the bracket is a single rational: the value is known exactly."""
        return self.value is not None


def certify_exact(game: Game, strategies: Profile, *, deal_prob=None, max_denominators=RATIONAL_MAX_DENOMINATORS,
                  bases=("behaviour", "realisation")) -> ExactCertificate:
    """Exact value (or an exact bracket) of a two-player zero-sum game from float equilibrium strategies.

    For each denominator bound (in turn) and each reconstruction basis the strategies are made
    rational (:func:`rationalise_strategies`); the first player's strategy is scored by the
    second's exact best response (``lower``), the second's by the first's (``upper``).  The
    best of each side is kept, and the search stops as soon as ``lower == upper``.

    Parameters
    ----------
    game : PublicTreeGame
        Two players, zero-sum in exact arithmetic (checked on the payoffs met).
    strategies : sequence of dict
        Float behaviour strategies (e.g. ``solve_lp(game).strategies``).
    deal_prob : sequence of Fraction, optional
        See :func:`exact_best_response`.
    max_denominators : sequence of int
        Denominator bounds tried, smallest first.
    bases : sequence of str
        Reconstructions tried for each bound.

    Returns
    -------
    ExactCertificate
    """
    game = _check_game(game)
    if game.num_players != 2:
        raise GutsInputError(f"certify_exact needs a two-player game; got {game.num_players} players")
    t0 = time.perf_counter()
    probs = _deal_prob(game, deal_prob)
    payoffs = _ZeroSumPayoffs(game.deals.num_deals)
    bounds = tuple(max_denominators)
    if not bounds:
        raise GutsInputError("max_denominators must name at least one bound")
    best_lo = best_hi = None
    attempts = 0
    for q in bounds:
        for basis in bases:
            rs = rationalise_strategies(game, strategies, q, basis=basis)
            attempts += 1
            if best_lo is None or best_lo[0] != best_hi[0]:
                lo = -sum(_walk(game, rs, 1, probs, payoffs), _ZERO)
                if best_lo is None or lo > best_lo[0]:
                    best_lo = (lo, q, basis, rs[0])
                hi = sum(_walk(game, rs, 0, probs, payoffs), _ZERO)
                if best_hi is None or hi < best_hi[0]:
                    best_hi = (hi, q, basis, rs[1])
            if best_lo[0] == best_hi[0]:
                break
        if best_lo[0] == best_hi[0]:
            break
    lo, hi = best_lo[0], best_hi[0]
    return ExactCertificate(lower=lo, upper=hi, value=lo if lo == hi else None,
                            max_denominators=(best_lo[1], best_hi[1]), bases=(best_lo[2], best_hi[2]),
                            strategies=(best_lo[3], best_hi[3]), attempts=attempts,
                            seconds=time.perf_counter() - t0)


class _ZeroSumPayoffs(_Payoffs):
    """Exact payoffs that also check, table by table, that the two players' payoffs sum to 0."""

    def __call__(self, node: Terminal, player: int):
        key = ("zs", id(node))
        if key not in self.tables:
            a = super().__call__(node, 0)
            b = super().__call__(node, 1)
            ok = True
            if a[0] is None and b[0] is None:
                ok = a[1] + b[1] == 0
            else:
                for d in range(self.D):
                    ua = a[1] if a[0] is None else a[1][0] + a[1][1] * a[0][d]
                    ub = b[1] if b[0] is None else b[1][0] + b[1][1] * b[0][d]
                    if ua + ub != 0:
                        ok = False
                        break
            if not ok:
                raise GutsInputError("certify_exact needs a zero-sum game in exact arithmetic: a terminal's "
                                     "payoffs, read as fractions, do not sum to 0")
            self.tables[key] = True
        return super().__call__(node, player)
