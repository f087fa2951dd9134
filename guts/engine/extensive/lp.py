"""Exact two-player zero-sum solution: the sequence-form LP (Koller, Megiddo & von Stengel 1996).

Player 1's realisation plan ``x`` lives on his sequences x types (a sequence = own
decision node + action, plus the empty sequence); ``E x = e`` says that at every
information set (h, t) the realisation weights of the actions sum to the weight of the
parent sequence (``x[empty, t] = 1`` for every type).  Same for player 2 (``F y = f``).
With the sparse payoff matrix ``A`` (deal, chance and payoff products at the terminals),

    max_{x, v}  f^T v    s.t.   F^T v - A^T x <= 0,   E x = e,   x >= 0,

is player 1's maxmin problem (inner min_y x^T A y dualised); player 2's minimax plan
``y`` is the dual of the inequality rows.  The mirror LP (player 2's) is solved instead
when it has fewer inequality rows (they are one per opponent sequence x type).  Solved by HiGHS through
:func:`guts.engine.highs.sequence_form_maxmin`; the status is checked.  ``method="auto"`` picks by
the payoff non-zeros and rows (:func:`choose_lp_method`): the dual simplex on small or sparse
LPs, the interior-point method on the others, whose interior solution is certified as it is: crossover to a vertex
(which the certificate does not need) only when it fails (2P-MMH with a check, 1.6e6 non-zeros, in
about two minutes).  Certificate: the exploitability of the
returned behaviour pair computed by the independent best-response pass
(:mod:`.evaluate`), required ``<= LP_CERT_TOL * payoff scale``.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp

from ..._validate import check_choice, check_positive_float
from ...errors import ConvergenceWarning, GutsInputError, SolverError
from ..highs import LP_METHOD_HIGHS, hipo_available, sequence_form_maxmin
from ..tolerances import (LP_BYTES_BASE, LP_BYTES_PER_NONZERO, LP_BYTES_PER_ROW, LP_CERT_TOL,
                          LP_HIPO_BYTES_PER_NONZERO, LP_HIPO_BYTES_PER_ROW, LP_IPM_BYTES_PER_NONZERO,
                          LP_HIPO_NNZ, LP_IPM_ANY_NNZ, LP_IPM_BYTES_PER_ROW, LP_IPM_NNZ, LP_IPM_NNZ_PER_ROW,
                          LP_MEMORY_LIMIT, LP_TOL,
                          ZERO_SUM_TOL)
from . import _kernels as K
from .fingerprint import remember_game
from ..result import Solution
from .result import ExtensiveResult
from .strategies import _check_game, from_flat, normalise_blocks
from .types import Game
from .tree import require_full_game

__all__ = ["solve_sequence_form_lp", "solve_lp", "LP_TOL", "LP_CERT_TOL", "LP_IPM_NNZ",
           "sequence_form", "lp_memory_estimate", "lp_method", "LP_METHODS", "constant_sum", "choose_lp_method"]

#: The ``method`` values of :func:`solve_sequence_form_lp`: the named algorithms
#: (:data:`guts.engine.highs.LP_METHOD_CHOICES`) and HiGHS's own names.
LP_METHODS = ("auto", "simplex", "ipm", "highs", "highs-ds", "highs-ipm", "highs-hipo")
_IPMS = ("highs-ipm", "highs-hipo")


def choose_lp_method(nonzeros: int, rows: int, *, hipo: bool = False) -> str:
    """The algorithm ``method="auto"`` picks for a sequence-form LP with ``nonzeros`` payoff
    non-zeros and ``rows`` rows and columns (both players' sequence x type counts).

    ``"ipm"`` (HiGHS's interior-point method IPX) above ``LP_IPM_NNZ`` non-zeros when they are
    at least ``LP_IPM_NNZ_PER_ROW`` per row, and above ``LP_IPM_ANY_NNZ`` in any case; ``"hipo"``
    instead above ``LP_HIPO_NNZ`` when ``hipo`` (HiPO installed); else ``"simplex"`` (the
    dual simplex).  The thresholds are measured (``benchmarks/lp_method.py``; see
    :mod:`guts.engine.tolerances`).
    """
    out = []
    for name, v in (("nonzeros", nonzeros), ("rows", rows)):
        try:
            iv = int(v)
        except (TypeError, ValueError):
            iv = -1
        if iv < 0 or isinstance(v, bool) or iv != v:
            raise GutsInputError(f"{name} must be an integer >= 0; got {v!r}")
        out.append(iv)
    nonzeros, rows = out
    if nonzeros <= LP_IPM_NNZ or (nonzeros <= LP_IPM_ANY_NNZ and nonzeros < LP_IPM_NNZ_PER_ROW * rows):
        return "simplex"
    return "hipo" if hipo and nonzeros > LP_HIPO_NNZ else "ipm"


def _check_method(method):
    method = check_choice("method", method, LP_METHODS)
    method = LP_METHOD_HIGHS.get(method, method)
    if method == "highs-hipo" and not hipo_available():
        raise GutsInputError(
            "method='highs-hipo' needs HiGHS's HiPO solver, which this highspy lacks; accepted: "
            "install it with pip install 'guts[hipo]' (highspy with the matching highspy-extras), "
            "or method='auto' / 'highs-ipm'")
    return method

# LP_TOL (HiGHS feasibility tolerance), LP_CERT_TOL (certificate) and LP_IPM_NNZ live
# in guts.engine.tolerances; re-exported here for compatibility.


def _constraints(pt):
    """Sparse (E, e) of one player's realisation-plan polytope over (sequence, type)."""
    T = pt.num_types
    S1 = pt.num_seqs
    H = pt.num_decisions
    tt = np.arange(T)
    rows = [tt]
    cols = [tt]                      # x[0, t]
    vals = [np.ones(T)]
    if H:
        s = np.arange(1, S1)
        i = pt.seq_dec[1:]
        rows.append((T + i[:, None] * T + tt[None, :]).ravel())
        cols.append((s[:, None] * T + tt[None, :]).ravel())
        vals.append(np.ones(s.size * T))
        ii = np.arange(H)
        rows.append((T + ii[:, None] * T + tt[None, :]).ravel())
        cols.append((pt.dec_parent[:, None] * T + tt[None, :]).ravel())
        vals.append(-np.ones(H * T))
    m = T + H * T
    E = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(m, S1 * T))
    e = np.zeros(m)
    e[:T] = 1.0
    return E, e


def _terminal_payoffs(cg, c, player):
    """Payoffs of ``player`` at the terminals of chunk ``c``, array ``(terminals, deals)``."""
    if c.single_table >= 0:
        U = c.scale[:, None] * cg.tables[c.single_table][player][None, :]
    else:
        U = c.scale[:, None] * np.stack([t[player] for t in cg.tables])[c.tid]
    return U + c.offset[player][:, None]


def _constant_sum(cg):
    """The constant ``c`` when the two players' payoffs sum to ``c`` at every terminal that
    chance can reach (to ``ZERO_SUM_TOL`` of the payoff scale), else None."""
    lo, hi = np.inf, -np.inf
    for c in cg.chunks:
        reach = (cg.ctx[c.vid] * c.scal[:, None]) != 0
        if reach.any():
            tot = (_terminal_payoffs(cg, c, 0) + _terminal_payoffs(cg, c, 1))[reach]
            lo, hi = min(lo, float(tot.min())), max(hi, float(tot.max()))
    if not np.isfinite(lo) or hi - lo > ZERO_SUM_TOL * max(cg.payoff_scale, 1.0):
        return None
    return 0.5 * (lo + hi)


def constant_sum(game: Game):
    """``c`` when ``game`` is a two-player constant-sum game (payoffs summing to ``c`` at every
    terminal chance can reach, to ``ZERO_SUM_TOL`` of the payoff scale; ``0.0`` for a
    zero-sum game), else None."""
    cg = _check_game(game)
    if cg.num_players != 2:
        return None
    if game.zero_sum:
        return 0.0
    return _constant_sum(cg)


def sequence_form(game: Game, player: int = 0, shift: float = 0.0):
    """Sparse sequence-form data ``(A, E, e, F, f)``; ``A`` = payoffs of ``player`` minus ``shift``.

    Row index of ``A`` = ``seq_1 * T_1 + type_1``, column = ``seq_2 * T_2 + type_2``.
    ``shift`` = c/2 turns a constant-sum game (payoffs summing to c) into a zero-sum one.
    """
    require_full_game(game, "the sequence-form LP")
    cg = _check_game(game)
    if cg.num_players != 2:
        raise GutsInputError(f"the sequence form here is for 2 players; the game has {cg.num_players}")
    p0, p1 = cg.players
    T0, T1 = p0.num_types, p1.num_types
    info0, info1 = cg.info[0], cg.info[1]
    r_all, c_all, v_all = [], [], []
    for c in cg.chunks:
        W = cg.ctx[c.vid] * c.scal[:, None]
        U = _terminal_payoffs(cg, c, player)
        if shift:
            U = U - float(shift)
        W *= U
        nzr, nzc = np.nonzero(W)
        r_all.append(c.seq[0][nzr] * T0 + info0[nzc])
        c_all.append(c.seq[1][nzr] * T1 + info1[nzc])
        v_all.append(W[nzr, nzc])
    A = sp.csr_matrix((np.concatenate(v_all), (np.concatenate(r_all), np.concatenate(c_all))),
                      shape=(p0.num_seqs * T0, p1.num_seqs * T1))
    A.sum_duplicates()
    E, e = _constraints(p0)
    F, f = _constraints(p1)
    return A, E, e, F, f


def _lp_size(cg) -> tuple[int, int]:
    """(upper bound on the payoff non-zeros, rows + columns of the LP) of a checked game."""
    reach = np.count_nonzero(cg.ctx, axis=1)
    nnz = int(sum(int(reach[c.vid].sum()) for c in cg.chunks))
    rows = sum(int(p.num_seqs) * int(p.num_types) for p in cg.players)
    return nnz, rows


def lp_method(game, method: str = "auto") -> str:
    """The HiGHS method that runs for ``game``: for ``method="auto"``, :func:`choose_lp_method`
    of the payoff matrix's non-zeros (bound of :func:`lp_memory_estimate`) and the LP's rows:
    the dual simplex (``"highs-ds"``) up to ``LP_IPM_NNZ`` (or while under ``LP_IPM_NNZ_PER_ROW``
    per row, up to ``LP_IPM_ANY_NNZ``), the interior-point method IPX (``"highs-ipm"``)
    above, and above ``LP_HIPO_NNZ`` HiPO (``"highs-hipo"``) where HiGHS has it
    (:func:`guts.engine.highs.hipo_available`); ``"simplex"`` / ``"ipm"``: ``"highs-ds"`` /
    ``"highs-ipm"``; HiGHS's names unchanged."""
    method = _check_method(method)
    if method != "auto":
        return method
    nnz, rows = _lp_size(_check_game(game))
    return LP_METHOD_HIGHS[choose_lp_method(nnz, rows, hipo=nnz > LP_HIPO_NNZ and hipo_available())]


def lp_memory_estimate(game, method: str = "auto") -> tuple[int, int]:
    """``(nonzeros, bytes)``: an upper bound on the payoff non-zeros of the sequence-form
    LP and the memory its solve needs above the built game, computed from the compiled
    tree WITHOUT building the LP.

    The bound counts, per terminal, the deals its chance context reaches (the entries of
    ``A`` before terminals with the same sequence pair are summed; on 2P Mercer hold'em
    it is within 3 % of ``A.nnz``); bytes = ``LP_BYTES_BASE`` plus, for the HiGHS method
    :func:`lp_method` chooses, bytes per non-zero and per row and column (both players'
    sequence x type counts) -- ``LP_BYTES_PER_NONZERO`` / ``LP_BYTES_PER_ROW`` for the
    simplex, ``LP_IPM_BYTES_PER_NONZERO`` / ``LP_IPM_BYTES_PER_ROW`` for the
    interior-point method, calibrated against the measured peak resident memory
    (``benchmarks/lp_memory.py``, ``results/benchmarks/lp_memory.csv``).
    """
    method = lp_method(game, method)
    nnz, rows = _lp_size(_check_game(game))
    if method == "highs-hipo":
        per_nnz, per_row = LP_HIPO_BYTES_PER_NONZERO, LP_HIPO_BYTES_PER_ROW
    elif method == "highs-ipm":
        per_nnz, per_row = LP_IPM_BYTES_PER_NONZERO, LP_IPM_BYTES_PER_ROW
    else:
        per_nnz, per_row = LP_BYTES_PER_NONZERO, LP_BYTES_PER_ROW
    return nnz, LP_BYTES_BASE + nnz * per_nnz + rows * per_row


def _maxmin(A, E, e, F, f, tol, method="highs", time_limit=None, crossover=True, value_bound=None):
    """Solve max_x min_y x^T A y over the two plan polytopes; returns (x, y, value, nit)."""
    return sequence_form_maxmin(A, E, e, F, f, tol, method, time_limit, crossover=crossover,
                                value_bound=value_bound)


def solve_sequence_form_lp(game: Game, *, tol: float = LP_TOL, method: str = "auto",
                           time_limit: float | None = None,
                           memory_limit: float | None = LP_MEMORY_LIMIT,
                           crossover: bool | None = None) -> Solution:
    """Exact equilibrium of a two-player zero-sum (or constant-sum) game by the sequence-form LP.

    Parameters
    ----------
    game : PublicTreeGame
        Two players, zero-sum (``game.zero_sum``) or constant-sum: payoffs summing to one
        constant ``c`` at every terminal chance can reach (to ``ZERO_SUM_TOL`` of the
        payoff scale, :func:`constant_sum`).  A constant-sum game is solved as the
        zero-sum game ``u0 - c/2``, ``u1 - c/2`` (same equilibria: a constant added to a
        player's payoffs changes no best response), and the values are reported for the
        original payoffs, ``value0 + c/2`` and ``value1 + c/2``; the exploitability is the
        same for both games.
    tol : float
        HiGHS primal and dual feasibility tolerance.
    method : {"auto", "simplex", "ipm", "highs", "highs-ds", "highs-ipm", "highs-hipo"}
        HiGHS algorithm: ``"simplex"`` (= ``"highs-ds"``) its dual simplex, ``"ipm"``
        (= ``"highs-ipm"``) its interior-point method IPX (``"highs"`` lets HiGHS choose, i.e.
        the simplex; ``"highs-hipo"`` HiPO, its direct-factorisation interior-point method,
        installed by ``pip install "guts[hipo]"``).  ``"auto"`` (:func:`choose_lp_method`): an
        interior-point method (HiPO where available above ``LP_HIPO_NNZ``, else IPX) when the
        payoff matrix has more than ``LP_IPM_NNZ`` non-zeros, ``LP_IPM_NNZ_PER_ROW`` or more
        per row (more than ``LP_IPM_ANY_NNZ``: any), else the dual simplex.  Games
        whose payoff blocks are dense over many types (a one-street raise game with 169 x 169
        hand classes and 40 raise sizes: 2.3e6 non-zeros) solve ~5x faster with the IPM than
        with the simplex.  Every method is held to the same certificate (the exploitability below).
    time_limit : float, optional
        HiGHS time limit in seconds (SolverError when reached).
    crossover : bool or None
        With the interior-point method: crossover to a vertex.  ``None`` (default): the
        IPM's interior solution first (crossover costs time and the certificate needs
        no vertex), crossover only if that solution fails the certificate.
    memory_limit : float or None
        Bytes the LP may use (default 4 GiB); the estimate :func:`lp_memory_estimate` (for
        the method that will run) is checked BEFORE the LP is built.  ``None``: no check.

    Returns
    -------
    Solution
        Its details an :class:`~guts.engine.extensive.result.ExtensiveResult`.
        ``value`` = first player's payoff; ``exploitability`` / ``nash_conv`` of the
        returned pair by the best-response pass (the certificate); ``converged`` when it
        is ``<= LP_CERT_TOL`` times the payoff scale (otherwise ConvergenceWarning).

    Raises
    ------
    GutsInputError
        Not two players, or not constant-sum, or the LP's memory estimate exceeds
        ``memory_limit`` (nothing is built).
    SolverError
        HiGHS reports anything but optimal.
    """
    require_full_game(game, "the sequence-form LP")
    cg = _check_game(game)
    if cg.num_players != 2:
        raise GutsInputError(f"solve_lp needs a 2-player game; got {cg.num_players} players")
    shift = 0.0
    if not game.zero_sum:
        total = _constant_sum(cg)
        if total is None:
            raise GutsInputError("solve_lp needs a zero-sum or constant-sum game (the payoffs must sum to 0, "
                                 "or to one constant, at every terminal); accepted: such a game, or cfr_plus")
        shift = 0.5 * total
    try:
        tol = float(tol)
    except (TypeError, ValueError):
        raise GutsInputError(f"tol must be a positive number; got {tol!r}") from None
    if not (1e-13 <= tol <= 1e-3):
        raise GutsInputError(f"tol must be in [1e-13, 1e-3]; got {tol!r}")
    method = _check_method(method)
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    if memory_limit is not None:
        memory_limit = check_positive_float("memory_limit", memory_limit)
        nnz, need = lp_memory_estimate(game, method)
        if need > memory_limit:
            raise GutsInputError(
                f"the sequence-form LP of {getattr(game, 'name', 'this game') or 'this game'} would need "
                f"about {need / 2**30:.2f} GiB ({nnz} payoff non-zeros); accepted: memory_limit >= that "
                f"(now {memory_limit / 2**30:.2f} GiB), or an iterative method (CFR+)")
    method = lp_method(game, method)
    t0 = time.perf_counter()
    A, E, e, F, f = sequence_form(game, 0, shift)
    p0, p1 = cg.players
    if crossover is None:
        crossover = method not in _IPMS
    # solve the side with fewer inequality rows (one per opponent sequence x type); the
    # other player's plan comes from the duals
    first = 0 if A.shape[1] <= A.shape[0] else 1
    # HiPO needs the free subtree values bounded (see sequence_form_maxmin): the largest
    # payoff bounds them at the optimum (with twice that bound, HiPO had not finished 2P
    # Mercer hold'em with raises 4 or 8 after 20 minutes and 3.1 GB; with it, 11 minutes)
    vb = max(1.0, cg.payoff_scale) if method == "highs-hipo" else None

    def side(which, cross):
        if which == 0:
            return _maxmin(A, E, e, F, f, tol, method, time_limit, cross, vb)
        y_, x_, v_, n_ = _maxmin(-A.T.tocsr(), F, f, E, e, tol, method, time_limit, cross, vb)
        return x_, y_, v_, n_

    def certify(x_, y_):
        fl = [normalise_blocks(p0, x_.reshape(p0.num_seqs, p0.num_types)),
              normalise_blocks(p1, y_.reshape(p1.num_seqs, p1.num_types))]
        ev_, br_, _ = K.values_and_br(cg, fl)
        return fl, ev_, br_, float(np.sum(br_ - ev_))

    bound = LP_CERT_TOL * cg.payoff_scale
    try:
        x, y, _, nit = side(first, crossover)
    except SolverError as exc:
        if crossover or "time limit" in str(exc).lower():
            raise
        x, y, _, nit = side(first, True)        # IPX without crossover gave up: with it
        crossover = True
    flat, ev, br, nc = certify(x, y)
    if nc / 2 > bound and not crossover:
        # the interior point is not precise enough: to a vertex (crossover)
        x, y, _, nit2 = side(first, True)
        nit += nit2
        crossover = True
        flat, ev, br, nc = certify(x, y)
    if nc / 2 > bound:
        # the duals fail the certificate: the other player's plan from his own LP
        x2, y2, _, nit2 = side(1 - first, crossover)
        nit += nit2
        if first == 0:
            y = y2
        else:
            x = x2
        flat, ev, br, nc = certify(x, y)
    converged = nc / 2 <= bound
    if not converged:
        warnings.warn(
            f"sequence-form LP: exploitability of the returned pair {nc / 2:.3g} exceeds the "
            f"certificate bound {bound:.3g}", ConvergenceWarning, stacklevel=2)
    return remember_game(Solution.of(ExtensiveResult(
        value=float(ev[0]), values=ev, strategies=from_flat(game, flat), exploitability=nc / 2,
        nash_conv=nc, converged=bool(converged), num_iter=nit, history=(),
        seconds=time.perf_counter() - t0, method="lp", br_values=br)), game)


#: The former name of :func:`solve_sequence_form_lp` (kept for compatibility).
solve_lp = solve_sequence_form_lp
