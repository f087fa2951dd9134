"""Adversarial team games: a team of seats against one adversary, in three regimes.

The team maximises the sum of its members' payoffs; the adversary (the one remaining
seat) minimises it, and the game being zero-sum, the adversary's payoff is minus the
team's.  The team's max-min value depends on how its members may coordinate:

``"communication"`` (TMECom)
    The members see each other's private types and talk during play.  In a public-tree
    game every action is public, so the team is ONE player whose type is the joint of its
    members' types: the two-player zero-sum game of the merged team against the adversary
    (:func:`merged_game`), solved exactly by the sequence-form LP (Koller, Megiddo and von
    Stengel, *Efficient computation of equilibria for extensive two-person games*, 1996).
``"correlated"`` (TMECor)
    Before the deal the members draw a joint pure plan (one pure behaviour strategy per
    member, over the member's own information sets = (public decision node, own type))
    from a distribution they agree on, then play without communicating (Celli and Gatti,
    *Computational results for extensive-form adversarial team games*, 2018; Farina,
    Celli, Gatti and Sandholm, *Ex ante coordination and collusion in zero-sum
    multi-player extensive-form games*, 2018).  Solved exactly by column generation: a
    restricted master LP over the joint plans found so far against the adversary's
    sequence-form strategy, and as pricing an exact team best response to the adversary's
    strategy: in a public-tree game a dynamic programme over public states
    (``_PublicStateDP``), otherwise (or with ``method="column-generation-milp"``, the
    plain column generation) a mixed-integer LP, binary realisation plans per member with
    the product of the members' sequences linearised; a plain tree pass for a one-member
    team.  ``"column-generation"`` also smooths the pricing point (Wentges 1997), with the
    weight adapted at every column (Pessoa, Sadykov, Uchoa and Vanderbeck 2018).
    ``"column-generation-local"`` prices by a local search and bounds the value from
    above by the sequence-pair relaxation (:mod:`.team_relaxation`): a certified bracket
    for games whose exact best response is out of reach.  ``"belief-dag"`` runs discounted
    CFR on the team belief DAG (:mod:`.team_dag`), the distribution a flow over the public
    nodes and the sets of the members' types that reach them: a certified bracket that
    narrows with the iterations, for games with many public decisions.
``"independent"`` (TME)
    Each member plays its own behaviour strategy, without correlation (von Stengel and
    Koller, *Team-maxmin equilibria*, 1997).  The problem is not convex; the solver
    returns the best profile found by a local search (see :func:`solve_team`) and brackets
    the value between that profile's certified guarantee and the correlated value.

Always ``communication >= correlated >= independent`` for the team.

The certificate of every regime is an ``interval`` ``[lower, upper]`` of the team's
max-min value in that regime: ``lower`` = what the returned team strategy earns against
the adversary's exact best response (computed by a pass over the adversary's sequence
tree), ``upper`` = what an exact team best response earns against the returned adversary
strategy (communication, correlated) or the correlated upper bound (independent).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..._validate import check_choice, check_int, check_positive_float
from ...errors import ConvergenceWarning, GutsInputError, SolverError
from ..highs import add_cols_and_resolve, make_lp, milp, run, sequence_form_maxmin
from ..progress import progress_bar
from ..result import Certificate, Details, Solution, interval
from ..tolerances import (MAX_ITERATIONS, TEAM_DAG_MIN_DECISIONS, TEAM_DAG_REGRETS, TEAM_DP_STATES,
                          TEAM_IMPROVEMENT_TOL, TEAM_MILP_PRODUCTS,
                          TEAM_RELAXATION_MAX_PAIRS, TEAM_RELAXATION_PAIRS, TEAM_SUPPORT_TOL,
                          TEAM_TARGET)
from ._compiled import CHANCE
from ._fused import njit
from .lp import _constraints, solve_lp
from .pool import check_seats
from .strategies import _check_game, _realisation, from_flat, normalise_blocks, to_flat, uniform_flat
from .team_dag import dag_size, run_belief_dag
from .team_relaxation import pair_relaxation, pair_size
from .tree import Chance, Deals, Decision, PublicTreeGame, Terminal

__all__ = ["solve_team", "merged_game", "TeamResult", "TEAM_REGIMES", "TEAM_METHODS"]

#: The regimes of :func:`solve_team`.
TEAM_REGIMES = ("communication", "correlated", "independent")
#: The methods of each regime (the first is the default).
TEAM_METHODS = {
    "communication": ("lp",),
    "correlated": ("column-generation", "column-generation-milp", "column-generation-local", "belief-dag"),
    "independent": ("coordinate-ascent",),
}
#: Smoothing of the correlated column generation (``method="column-generation"``): the pricing
#: adversary strategy is ``alpha`` times the stability centre (the pricing point with the lowest
#: team best-response value so far) plus ``1 - alpha`` times the master's (Wentges, *Weighted
#: Dantzig-Wolfe decomposition for linear mixed-integer programming*, 1997); a column that does
#: not beat the master at the master's own strategy is kept and the master's strategy is priced
#: too.  ``alpha`` starts at ``_SMOOTHING`` and adapts (Pessoa, Sadykov, Uchoa and Vanderbeck,
#: *Automation and combination of linear-programming based stabilization techniques in column
#: generation*, 2018): down by ``_SMOOTHING_STEP`` when the team's best response at the smoothed
#: point is worth less towards the master's strategy, else ``_SMOOTHING_STEP`` of the way up to
#: ``_SMOOTHING_MAX``.  Fixed weights suit one game each: three-player Leduc (3 ranks, seat 0 the
#: adversary) had the lower bound 0.32 after 120 s at 0.5 and 0.43 at 0.95 (after 100 columns,
#: 0.36 at 0.95 and -0.07 at 0.99), while three-player Kuhn with 8 ranks (all seats) took 103
#: best responses at 0.5 and 225 at 0.95; adapted, Leduc had 0.42 after 120 s and Kuhn took 123.
_SMOOTHING = 0.5
_SMOOTHING_STEP = 0.1
_SMOOTHING_MAX = 0.99
#: Default iteration caps: column-generation iterations (correlated; none under a time limit),
#: rounds of the local search per start (independent).
_MAX_ITER = {"correlated": 1000, "independent": 200}
#: Rounds of the local-search pricing (``method="column-generation-local"``) per start.
_LOCAL_ROUNDS = 50
#: Joint plans the local-search pricing adds per column-generation iteration at most (the
#: best local optima of its starts that improve on the master).
_LOCAL_COLUMNS = 4
#: Starts of the local-search pricing taken from the master's support (heaviest first), random
#: starts per pricing, and random starts of a second try when no start beats the master.
_LOCAL_SUPPORT_STARTS = 4
_LOCAL_RANDOM_STARTS = 4
_LOCAL_ESCALATION = 32


@dataclass(frozen=True, kw_only=True)
class TeamResult(Details):
    """The team's max-min value in one regime, with its certified bracket.

    Attributes
    ----------
    value : float
        The team's joint expected payoff under the returned team strategy against the
        returned adversary strategy (inside the bracket).
    values : tuple of float
        Every seat's expected payoff under the same pair (the team's entries sum to
        ``value``, the adversary's is ``-value``).
    strategies : tuple
        One entry per seat.  The adversary: a behaviour strategy ``{history: (T, A)}``.
        Team members: ``"independent"``: a behaviour strategy; ``"correlated"``: a tuple of
        pure behaviour strategies, the member's plan in each joint plan of ``support``;
        ``"communication"``: the merged team's behaviour strategy in :attr:`merged_game`
        (rows = joint types of the team), the same object for every member.
    certificate : Certificate
        ``interval`` ``[lower, upper]`` of the team's max-min value in ``regime``.
    converged : bool
        ``upper - lower <= target``.
    num_iter : int
        Column-generation iterations (correlated), LPs solved by the local search
        (independent), HiGHS iterations (communication).
    regime, team, adversary
        What was solved.
    support : tuple of (float, tuple of dict)
        Correlated regime: the distribution over joint pure plans, ``(weight, plans)`` with
        ``plans[i]`` the pure behaviour strategy of ``team[i]`` (one action per row; at
        decision points the plan does not reach, the first action); empty otherwise.
    merged_game : PublicTreeGame or None
        Communication regime: the two-player game of the merged team (seat 0) against the
        adversary (seat 1).
    device : CorrelationDevice or None
        Correlated regime by the belief DAG: the certified distribution over joint pure plans
        (:class:`~guts.engine.extensive.team_dag.CorrelationDevice`, the average flow of the
        graph); ``device.sample(random_state)`` draws a joint plan (one pure behaviour
        strategy per member, in ``team``'s order) exactly from it, ``device.support()``
        lists weighted joint plans (complete on small graphs).

        .. versionadded:: 0.1
    """

    value: float
    values: tuple
    strategies: tuple = field(repr=False)
    certificate: Certificate
    converged: bool
    num_iter: int = 0
    seconds: float = 0.0
    method: str = ""
    regime: str = ""
    team: tuple = ()
    adversary: int = -1
    support: tuple = field(default=(), repr=False)
    merged_game: object = field(default=None, repr=False)
    device: object = field(default=None, repr=False)

    @property
    def lower(self) -> float:
        """The certified lower end of the team's max-min value."""
        return self.certificate.lower

    @property
    def upper(self) -> float:
        """The certified upper end of the team's max-min value."""
        return self.certificate.upper


# ----------------------------------------------------------------------- arguments
def _check_team(cg, team):
    n = cg.num_players
    seats = check_seats(team, n)
    if len(seats) != n - 1:
        raise GutsInputError(
            f"team must hold every seat but one (the adversary) of this {n}-player game; got team={seats!r} "
            f"({n - len(seats)} adversary seats); accepted: {n - 1} distinct seats in [0, {n - 1}]")
    adv = next(p for p in range(n) if p not in seats)
    return tuple(sorted(seats)), adv


# ----------------------------------------------------------------------- sequence trees
def _best_plan(pt, G):
    """max over pure plans x of sum(G * x): ``(value, pure realisation plan (S+1, T))``.

    ``G`` (S+1, T) is linear gain per (sequence, type).  Backward induction over the
    player's decisions, per type (a best response in the sequence form)."""
    V = np.array(G, dtype=float, copy=True)
    T = V.shape[1]
    B = np.zeros_like(V)
    B[0] = 1.0
    for (dlo, dhi, slo, shi, _u, _s, bstarts) in reversed(pt.levels):
        block = V[slo:shi]
        mx = np.maximum.reduceat(block, bstarts, axis=0)                     # (H_l, T)
        dec = pt.seq_dec[slo:shi] - dlo
        pos = np.where(block >= mx[dec], np.arange(shi - slo)[:, None], shi - slo)
        first = np.minimum.reduceat(pos, bstarts, axis=0)                     # (H_l, T)
        B[slo + first, np.broadcast_to(np.arange(T), first.shape)] = 1.0
        np.add.at(V, pt.dec_parent[dlo:dhi], mx)
    return float(V[0].sum()), _realisation(pt, B)


def _behaviour(pt, X):
    """Behaviour strategy (S+1, T) of the realisation plan ``X`` (unreached: uniform)."""
    return normalise_blocks(pt, X)


def _flat_of(game, player, strategy):
    """Flat behaviour (S+1, T) of ``player``'s ``{history: (T, A)}``."""
    pt = game.compiled.players[player]
    B = np.empty((pt.num_seqs, pt.num_types))
    B[0] = 1.0
    for i, h in enumerate(pt.histories):
        f = int(pt.dec_first[i])
        B[f:f + int(pt.dec_num_actions[i])] = np.asarray(strategy[h], dtype=float).T
    return B


def _dict_strategy(game, player, B):
    """``{history: (T, A)}`` of the flat behaviour ``B`` of ``player``."""
    cg = game.compiled
    flat = [B if q == player else uniform_flat(cg.players[q]) for q in range(cg.num_players)]
    return from_flat(game, flat)[player]


# ----------------------------------------------------------------------- terminal x deal entries
@dataclass
class _Entries:
    """Every (terminal, deal) pair with positive chance weight: its weight ``w``, the
    payoff of every seat ``u`` (n, E), and per player the flat index ``seq * T + type``
    of the player's sequence and type there (``idx`` (n, E))."""

    z: np.ndarray
    d: np.ndarray
    w: np.ndarray
    u: np.ndarray
    idx: np.ndarray


def _entries(cg) -> _Entries:
    n = cg.num_players
    zs, ds, ws, us = [], [], [], []
    tables = np.stack(cg.tables)                      # (number of tables, n, D)
    for c in cg.chunks:
        W = cg.ctx[c.vid] * c.scal[:, None]
        r, col = np.nonzero(W)
        zs.append(c.z[r])
        ds.append(col)
        ws.append(W[r, col])
        u = c.offset[:, r] + c.scale[r][None, :] * tables[c.tid[r], :, col].T
        us.append(u)
    z = np.concatenate(zs)
    d = np.concatenate(ds)
    idx = np.stack([cg.term_seq[p][z] * cg.players[p].num_types + cg.info[p][d] for p in range(n)])
    return _Entries(z=z, d=d, w=np.concatenate(ws), u=np.concatenate(us, axis=1), idx=idx)


class _Team:
    """The data shared by the correlated and independent solvers."""

    def __init__(self, game, team, adv, pricing="auto"):
        cg = game.compiled
        self.game, self.cg, self.team, self.adv = game, cg, team, adv
        self.ent = _entries(cg)
        self.wt = self.ent.w * self.ent.u[list(team)].sum(axis=0)     # weight x team payoff
        self.pa = cg.players[adv]
        self.Na = self.pa.num_seqs * self.pa.num_types
        self.F, self.f = _constraints(self.pa)
        self.pts = [cg.players[m] for m in team]
        self.N = [pt.num_seqs * pt.num_types for pt in self.pts]
        self.EE = [_constraints(pt) for pt in self.pts]
        keys, inv = np.unique(self.ent.idx[list(team)], axis=1, return_inverse=True)
        self.keys, self.key_of = keys, np.asarray(inv).reshape(-1)
        self.dp = None
        if pricing == "local" and len(team) > 1:
            self.pricing = "local"
            return
        if (pricing == "auto" and len(team) > 1 and isinstance(game, PublicTreeGame)
                and _PublicStateDP.states(self) <= TEAM_DP_STATES):
            self.dp = _PublicStateDP(self)
        self.pricing = "dp" if self.dp is not None else ("tree" if len(team) == 1 else "milp")

    # -- values
    def team_reach(self, plans):
        """Product over members of their realisation weight at every entry."""
        r = np.ones(self.wt.size)
        for i, m in enumerate(self.team):
            r = r * plans[i].ravel()[self.ent.idx[m]]
        return r

    def adversary_gain(self, team_weight):
        """Adversary's payoff per (sequence, type) against team reach weights (per entry)."""
        g = np.bincount(self.ent.idx[self.adv], weights=-self.wt * team_weight, minlength=self.Na)
        return g.reshape(self.pa.num_seqs, self.pa.num_types)

    def guarantee(self, team_weight):
        """Team value against the adversary's exact best response: ``(value, adversary plan)``."""
        v, Y = _best_plan(self.pa, self.adversary_gain(team_weight))
        return -v, Y

    def seat_values(self, team_weight, Y):
        w = self.ent.w * team_weight * Y.ravel()[self.ent.idx[self.adv]]
        return self.ent.u @ w

    # -- team best response to an adversary realisation plan Y
    def best_response(self, Y, time_limit=None):
        """Exact team best response to ``Y``: ``(plans, value, upper bound)``."""
        if self.dp is not None:
            return self.dp.best_response(Y)
        c = self.wt * Y.ravel()[self.ent.idx[self.adv]]
        if len(self.team) == 1:
            pt = self.pts[0]
            G = np.bincount(self.ent.idx[self.team[0]], weights=c, minlength=self.N[0])
            v, X = _best_plan(pt, G.reshape(pt.num_seqs, pt.num_types))
            return (X,), v, v
        ck = np.bincount(self.key_of, weights=c, minlength=self.keys.shape[1])
        return self._milp(ck, time_limit)

    def local_best_response(self, Y, starts, max_rounds: int = _LOCAL_ROUNDS):
        """Joint pure plans that no single member can improve against ``Y`` (a local search;
        the exact team best response is NP-hard).

        From each start ``(plans, first)`` (``plans`` one realisation plan per member, pure
        or not), the members in turn, from ``first`` on, replace their plan by a best
        response to ``Y`` with the others fixed (one pass over the member's sequence tree);
        a start ends when every member has answered the others' pure plans and a round
        changed nothing.  Returns ``[(plans, value)]`` per start, ``value`` the exact payoff
        of the pure joint plan against ``Y``."""
        c = self.wt * Y.ravel()[self.ent.idx[self.adv]]
        ck = np.bincount(self.key_of, weights=c, minlength=self.keys.shape[1])
        m = len(self.team)
        out = []
        for plans, first in starts:
            X = list(plans)
            pure = [False] * m
            val, still, i = -np.inf, 0, first % m
            for _step in range(max_rounds * m):
                coef = ck.copy()
                for j in range(m):
                    if j != i:
                        coef *= X[j].ravel()[self.keys[j]]
                pt = self.pts[i]
                G = np.bincount(self.keys[i], weights=coef, minlength=self.N[i])
                v, X[i] = _best_plan(pt, G.reshape(pt.num_seqs, pt.num_types))
                pure[i] = True
                if all(pure):
                    if v > val + TEAM_IMPROVEMENT_TOL:
                        val, still = v, 0
                    else:
                        still += 1
                        if still >= m:
                            break
                i = (i + 1) % m
            out.append((tuple(X), float(np.dot(ck, self._key_reach(X)))))
        return out

    def milp_size(self) -> str:
        """The size of the best-response MILP, in words (its binaries and product columns)."""
        return f"{int(sum(self.N)):,} binary and {int(self.keys.shape[1]):,} product columns"

    def _milp(self, ck, time_limit):
        """max sum_k ck[k] prod_i x_i[key_i(k)] over binary realisation plans x_i.

        Product r_k of binaries, linearised: r_k <= x_i[key_i] for every member when
        ck > 0, r_k >= sum_i x_i[key_i] - (m - 1) when ck < 0 (r_k in [0, 1])."""
        m = len(self.team)
        keep = np.flatnonzero(ck != 0.0)
        cpos, keys = ck[keep], self.keys[:, keep]
        K = keep.size
        offs = np.concatenate([[0], np.cumsum(self.N)])
        nx = int(offs[-1])
        ncol = nx + K
        blocks_r, blocks_c, blocks_v, lo, hi = [], [], [], [], []
        nrow = 0
        for i, (E, e) in enumerate(self.EE):
            Ec = E.tocoo()
            blocks_r.append(Ec.row + nrow)
            blocks_c.append(Ec.col + offs[i])
            blocks_v.append(Ec.data)
            lo.append(e)
            hi.append(e)
            nrow += E.shape[0]
        pos = np.flatnonzero(cpos > 0)
        for i in range(m):                       # r_k - x_i[key] <= 0
            rows = nrow + np.arange(pos.size)
            blocks_r += [rows, rows]
            blocks_c += [nx + pos, offs[i] + keys[i, pos]]
            blocks_v += [np.ones(pos.size), -np.ones(pos.size)]
            lo.append(np.full(pos.size, -np.inf))
            hi.append(np.zeros(pos.size))
            nrow += pos.size
        neg = np.flatnonzero(cpos < 0)           # r_k - sum_i x_i[key] >= -(m - 1)
        rows = nrow + np.arange(neg.size)
        blocks_r.append(rows)
        blocks_c.append(nx + neg)
        blocks_v.append(np.ones(neg.size))
        for i in range(m):
            blocks_r.append(rows)
            blocks_c.append(offs[i] + keys[i, neg])
            blocks_v.append(-np.ones(neg.size))
        lo.append(np.full(neg.size, -(m - 1.0)))
        hi.append(np.full(neg.size, np.inf))
        nrow += neg.size
        M = sp.csr_matrix((np.concatenate(blocks_v), (np.concatenate(blocks_r), np.concatenate(blocks_c))),
                          shape=(nrow, ncol))
        cost = np.concatenate([np.zeros(nx), cpos])
        integer = np.concatenate([np.ones(nx, dtype=bool), np.zeros(K, dtype=bool)])
        x, _obj, bound, _opt = milp(cost, np.zeros(ncol), np.ones(ncol), M, np.concatenate(lo), np.concatenate(hi),
                                    integer, maximize=True, what="team best-response MILP", time_limit=time_limit)
        if x is None:
            return None, -np.inf, bound
        plans = []
        for i, pt in enumerate(self.pts):
            xi = np.round(x[offs[i]:offs[i + 1]]).reshape(pt.num_seqs, pt.num_types)
            # a pure behaviour strategy from the rounded plan (exact 0/1 realisation)
            plans.append(_realisation(pt, _pure_behaviour(pt, xi)))
        plans = tuple(plans)
        ck_val = float(np.dot(ck, self._key_reach(plans)))
        return plans, ck_val, max(bound, ck_val)

    def _key_reach(self, plans):
        r = np.ones(self.keys.shape[1])
        for i, X in enumerate(plans):
            r = r * X.ravel()[self.keys[i]]
        return r


@njit(cache=True, nogil=True)
def _split_max(Va, Wb, out):
    """``out[S] = max over P subset of S of Va[P] + Wb[S ^ P]`` (per column; the maximiser is
    found afterwards, only where the plan needs it: :func:`_split_arg`)."""
    nS, R = Va.shape
    for S in range(nS):
        for r in range(R):
            out[S, r] = Va[S, r] + Wb[0, r]
        P = S
        while P > 0:
            P = (P - 1) & S
            Q = S ^ P
            for r in range(R):
                out[S, r] = max(out[S, r], Va[P, r] + Wb[Q, r])


@njit(cache=True, nogil=True)
def _subset_sums(A, out):
    """``out[S] = sum over t in S of A[t]`` for every subset ``S`` of the rows of ``A``."""
    out[0] = 0.0
    for S in range(1, out.shape[0]):
        t = 0
        while not (S >> t) & 1:
            t += 1
        for r in range(A.shape[1]):
            out[S, r] = out[S ^ (1 << t), r] + A[t, r]


@njit(cache=True, nogil=True)
def _split_arg(va, wb, S):
    """The first P subset of S (S itself, then the subsets in decreasing order) that maximises
    ``va[P] + wb[S ^ P]``."""
    best, arg = va[S] + wb[0], S
    P = S
    while P > 0:
        P = (P - 1) & S
        v = va[P] + wb[S ^ P]
        if v > best:
            best, arg = v, P
    return arg


class _PublicStateDP:
    """Exact team best response in a public-tree game by dynamic programming over public
    states (the common-information approach of Nayyar, Mahajan and Teneketzis,
    *Decentralized stochastic control with partial history sharing: a common information
    approach*, 2013; the team belief DAG of Zhang, Farina and Sandholm, *Team belief DAG:
    generalizing the sequence form to team games*, 2023).

    Against a fixed adversary, a joint pure plan leaves at every public node, for each
    member, the SET of his types that reach it.  The value of a subtree is a function of
    these sets, ``V[node][S_1, ..., S_k]`` (an array over the ``2^T_i`` subsets of each
    member's types), computed bottom-up: at a terminal ``sum_{t in S} C_z[t]``; at a
    chance or adversary node the sum over the children; at a decision of member ``i`` the
    max over the splits of ``S_i`` between the actions (a max-plus subset convolution,
    ``3^T_i`` pairs per split).  The value at the root with every set full is the team's
    best-response value, exactly (no tolerance); the plan is read back top-down, the
    maximising split recomputed only at the sets the plan reaches.  Cost and memory grow
    with ``prod_i 2^T_i`` (refused above ``max_states``: the MILP prices instead).
    """

    def __init__(self, tm):
        cg = tm.cg
        self.tm = tm
        self.T = [pt.num_types for pt in tm.pts]
        N = cg.num_nodes
        self.children = [[] for _ in range(N)]
        for i in range(1, N):
            self.children[int(cg.parent[i])].append(i)
        self.owner = {}                              # node -> (member index, decision index)
        for i, pt in enumerate(tm.pts):
            for h, node in enumerate(pt.dec_node):
                self.owner[int(node)] = (i, h)
        self.term_of = {int(nd): z for z, nd in enumerate(cg.term_node)}
        # subset indicator matrices and the (S, P subset of S) pairs of each type count
        self.ind = [((np.arange(2 ** T)[:, None] >> np.arange(T)[None, :]) & 1).astype(float) for T in self.T]
        self.jshape = tuple(self.T)
        jt = np.ravel_multi_index(tuple(cg.info[m][tm.ent.d] for m in tm.team), self.jshape)
        self.term_joint = tm.ent.z * int(np.prod(self.jshape)) + jt

    @staticmethod
    def states(tm) -> int:
        return int(np.prod([2.0 ** pt.num_types for pt in tm.pts]))

    def _terminal(self, Cz):
        if len(self.ind) == 2:                        # subset sums over member 1's types, then member 0's
            T0, T1 = self.T
            B = np.empty((2 ** T1, T0))
            _subset_sums(np.ascontiguousarray(Cz.T), B)
            V = np.empty((2 ** T0, 2 ** T1))
            _subset_sums(np.ascontiguousarray(B.T), V)
            return V
        V = Cz
        for i, ind in enumerate(self.ind):           # contract type axis i with its subset indicators
            V = np.moveaxis(np.tensordot(ind, V, axes=([1], [i])), 0, i)
        return V

    def _split(self, i, Va, Wb):
        """max over P subset of S of Va[P] + Wb[S minus P], along member i's axis."""
        if Va.ndim == 2:                              # two members: member i's axis first, rows contiguous
            if i == 1:
                Va, Wb = Va.T, Wb.T
            mx = np.empty(Va.shape)
            _split_max(np.ascontiguousarray(Va), np.ascontiguousarray(Wb), mx)
            return mx.T if i == 1 else mx
        a = np.ascontiguousarray(np.moveaxis(Va, i, 0))
        shape = a.shape
        a = a.reshape(shape[0], -1)
        b = np.ascontiguousarray(np.moveaxis(Wb, i, 0)).reshape(shape[0], -1)
        mx = np.empty_like(a)
        _split_max(a, b, mx)
        return np.moveaxis(mx.reshape(shape), 0, i)

    def best_response(self, Y):
        tm, cg = self.tm, self.tm.cg
        c = tm.wt * Y.ravel()[tm.ent.idx[tm.adv]]
        J = int(np.prod(self.jshape))
        C = np.bincount(self.term_joint, weights=c, minlength=cg.num_terminals * J).reshape((-1,) + self.jshape)
        V = {}
        splits = {}
        for node in range(cg.num_nodes - 1, -1, -1):
            kids = self.children[node]
            if node in self.term_of:
                V[node] = self._terminal(C[self.term_of[node]])
            elif node in self.owner:
                i, _h = self.owner[node]
                W = V.pop(kids[-1])
                args = []
                for a in range(len(kids) - 2, -1, -1):
                    Va = V.pop(kids[a])
                    args.append((Va, W))
                    W = self._split(i, Va, W)
                V[node] = W
                splits[node] = args[::-1]            # splits[node][a]: the two sides of action a's split
            else:
                W = V.pop(kids[0])
                for k in kids[1:]:
                    W = W + V.pop(k)
                V[node] = W
        full = tuple(2 ** T - 1 for T in self.T)
        value = float(V[0][full])
        # read the plan back: at each member decision the split of the reaching sets
        act = [np.zeros((pt.num_decisions, pt.num_types), dtype=np.int64) for pt in tm.pts]
        stack = [(0, full)]
        while stack:
            node, st = stack.pop()
            kids = self.children[node]
            if node in self.owner:
                i, h = self.owner[node]
                rest = st[i]
                for a, kid in enumerate(kids):
                    if a < len(kids) - 1:
                        Va, Wb = splits[node][a]
                        at = st[:i] + (slice(None),) + st[i + 1:]
                        P = int(_split_arg(np.ascontiguousarray(Va[at]), np.ascontiguousarray(Wb[at]), rest))
                        rest_next = rest ^ P
                        st_a = st[:i] + (P,) + st[i + 1:]
                        st = st[:i] + (rest_next,) + st[i + 1:]
                        rest = rest_next
                    else:
                        P = rest
                        st_a = st[:i] + (P,) + st[i + 1:]
                    for t in range(self.T[i]):
                        if P >> t & 1:
                            act[i][h, t] = a
                    stack.append((kid, st_a))
            else:
                stack.extend((k, st) for k in kids)
        return tuple(_realisation(pt, _pure_flat(pt, act[i])) for i, pt in enumerate(tm.pts)), value, value


def _pure_flat(pt, act):
    """Flat pure behaviour (S+1, T) playing action ``act[h, t]`` at decision ``h`` with type ``t``."""
    B = np.zeros((pt.num_seqs, pt.num_types))
    B[0] = 1.0
    if pt.num_decisions:
        B[pt.dec_first[:, None] + act, np.arange(pt.num_types)[None, :]] = 1.0
    return B


def _pure_behaviour(pt, X):
    """A pure behaviour strategy agreeing with the 0/1 plan ``X`` where it reaches; the
    first action elsewhere."""
    B = np.zeros_like(X)
    B[0] = 1.0
    if pt.num_decisions == 0:
        return B
    body = X[1:]
    best = np.zeros((pt.num_decisions, X.shape[1]), dtype=np.int64)
    # first action with the largest weight in each block
    for i in range(pt.num_decisions):
        f, na = int(pt.dec_first[i]), int(pt.dec_num_actions[i])
        best[i] = np.argmax(body[f - 1:f - 1 + na], axis=0)
    B[pt.dec_first[:, None] + best, np.arange(X.shape[1])[None, :]] = 1.0
    return B


# ----------------------------------------------------------------------- communication
def _first_chance(tm):
    """1 when the public tree has a chance node (the relaxation with communication below the
    first public chance event is then smaller than the whole one), else None."""
    return 1 if np.any(tm.cg.kind == CHANCE) else None


def merged_game(game, team) -> PublicTreeGame:
    """The two-player zero-sum game of the merged ``team`` (seat 0) against the adversary
    (seat 1, the one other seat): same public tree and deals, the team's type is the
    joint of its members' types (labels ``"a|b"``), payoffs (team total, adversary).

    Its value for seat 0 is the team's max-min value with communication (TMECom) of a
    public-tree game, where every action is public."""
    if not isinstance(game, PublicTreeGame):
        raise GutsInputError(
            f"the communication regime needs a PublicTreeGame (private types, public actions); got "
            f"{type(game).__name__}; accepted: a PublicTreeGame, or regime='correlated' / 'independent'")
    team, adv = _check_team(game.compiled, team)
    n = game.num_players
    Mx = np.zeros((2, n))
    Mx[0, list(team)] = 1.0
    Mx[1, adv] = 1.0
    tables, memo = {}, {}

    def table(t):
        k = id(t)
        if k not in tables:
            tables[k] = (Mx @ t, t)
        return tables[k][0]

    stack = [game.root]
    while stack:                       # post-order without recursion (deep trees)
        node = stack.pop()
        if id(node) in memo:
            continue
        if isinstance(node, Decision):
            kids = [c for c in node.actions.values() if id(c) not in memo]
        elif isinstance(node, Chance):
            kids = [c for _, c in node.outcomes.values() if id(c) not in memo]
        else:
            kids = []
        if kids:
            stack.append(node)
            stack.extend(kids)
            continue
        if isinstance(node, Terminal):
            new = Terminal(Mx @ node.offset) if node.table is None else Terminal.affine(
                table(node.table), Mx @ node.offset, node.scale)
        elif isinstance(node, Decision):
            new = Decision(0 if node.player in team else 1, {a: memo[id(c)][0] for a, c in node.actions.items()})
        elif isinstance(node, Chance):
            new = Chance({o: (pr, memo[id(c)][0]) for o, (pr, c) in node.outcomes.items()})
        else:
            raise GutsInputError(f"unexpected node {node!r}")
        memo[id(node)] = (new, node)
    root = memo[id(game.root)][0]
    deals = game.deals
    joint, inv = np.unique(deals.info[list(team)].T, axis=0, return_inverse=True)
    inv = np.asarray(inv).reshape(-1)
    jl = tuple("|".join(str(deals.type_labels[m][joint[j, i]]) for i, m in enumerate(team))
               for j in range(joint.shape[0]))
    info = np.stack([inv, deals.info[adv]])
    merged = Deals(deals.prob, info, (jl, deals.type_labels[adv]))
    return PublicTreeGame(root, merged, 2, name=f"merged({game.name}, team={team})")


def _communication(game, team, adv):
    mg = merged_game(game, team)
    r = solve_lp(mg)
    lower, upper = -float(r.br_values[1]), float(r.br_values[0])
    # every seat's payoff: the merged game's terminals are the original's, in the same order
    cg, mc = game.compiled, mg.compiled
    if not np.array_equal(cg.term_node, mc.term_node):
        raise RuntimeError("the merged game's terminals do not follow the original's")
    ent = _entries(cg)
    flat = to_flat(mg, r.strategies)
    X, Y = (_realisation(mc.players[p], flat[p]).ravel() for p in (0, 1))
    jt = mc.info[0][ent.d]
    xi = mc.term_seq[0][ent.z] * mc.players[0].num_types + jt
    yi = mc.term_seq[1][ent.z] * mc.players[1].num_types + mc.info[1][ent.d]
    values = ent.u @ (ent.w * X[xi] * Y[yi])
    strategies = tuple(r.strategies[1] if p == adv else r.strategies[0] for p in range(game.num_players))
    return dict(value=float(values[list(team)].sum()), values=tuple(float(v) for v in values),
                strategies=strategies, lower=lower, upper=upper, num_iter=int(r.num_iter), merged_game=mg)


# ----------------------------------------------------------------------- correlated
_PRIMAL_SIMPLEX = 4     # HiGHS's simplex_strategy for the primal simplex


class _Master:
    """The restricted master LP, ``max_lambda min_y sum_k lambda_k A_k y`` over the
    distributions ``lambda`` on the columns so far and the adversary's plans ``y``, with the
    inner minimum dualised (``max f^T v  s.t.  F^T v - sum_k lambda_k A_k <= 0``,
    ``sum_k lambda_k = 1``).  One HiGHS model for the whole column generation: a new column
    keeps the previous basis primal feasible, so the primal simplex re-solves from it
    (on three-player Leduc 0.3 s per column at 50 columns, 1 s at 250, where solving each
    master afresh cost 1 to 3 s from 50 columns on)."""

    def __init__(self, tm, rows):
        self.Na = tm.Na
        F = sp.csr_matrix(tm.F)
        m2 = F.shape[0]
        rows = np.atleast_2d(np.asarray(rows, dtype=float))
        k = rows.shape[0]
        M = sp.vstack([sp.hstack([sp.csc_matrix(-rows.T), F.T]),
                       sp.hstack([sp.csr_matrix(np.ones((1, k))), sp.csr_matrix((1, m2))])], format="csc")
        cost = np.concatenate([np.zeros(k), -np.asarray(tm.f, dtype=float)])
        lower = np.concatenate([np.zeros(k), np.full(m2, -np.inf)])
        upper = np.full(k + m2, np.inf)
        row_lower = np.concatenate([np.full(self.Na, -np.inf), [1.0]])
        row_upper = np.concatenate([np.zeros(self.Na), [1.0]])
        self.h, _ = run(make_lp(cost, lower, upper, M, row_lower, row_upper), "team master LP", solver="simplex")
        self.h.setOptionValue("simplex_strategy", _PRIMAL_SIMPLEX)
        self.cols = list(range(k))
        self.next_col = k + m2

    def add(self, rows):
        """Add the columns ``rows`` (payoff rows of new joint plans) and re-solve once."""
        if len(rows) == 0:
            return
        rows = np.atleast_2d(np.asarray(rows, dtype=float))
        index, values, starts = [], [], []
        for row in rows:
            nz = np.flatnonzero(row)
            starts.append(sum(len(i) for i in index))
            index += [nz, [self.Na]]
            values += [-np.asarray(row)[nz], [1.0]]
        k = len(rows)
        add_cols_and_resolve(self.h, "team master LP", np.zeros(k), np.zeros(k), np.full(k, np.inf), starts,
                             np.concatenate(index), np.concatenate(values))
        self.cols += range(self.next_col, self.next_col + k)
        self.next_col += k

    def solution(self):
        """``(lambda, y, value)``: the distribution, the adversary plan (the duals), the value."""
        sol = self.h.getSolution()
        lam = np.clip(np.asarray(sol.col_value)[self.cols], 0.0, None)
        y = np.clip(-np.asarray(sol.row_dual)[:self.Na], 0.0, None)
        return lam / lam.sum(), y, -float(self.h.getInfo().objective_function_value)


def _is_pure(plans) -> bool:
    """Whether every plan of the profile is 0/1 (to ``TEAM_SUPPORT_TOL``)."""
    return all(float(np.max(np.minimum(np.abs(p), np.abs(1.0 - p)), initial=0.0)) <= TEAM_SUPPORT_TOL
               for p in (np.asarray(q, dtype=float) for q in plans))


def _plans_key(plans) -> bytes:
    """A hashable key of a profile of realisation plans (compact for pure plans)."""
    if _is_pure(plans):
        return b"".join(np.rint(np.asarray(p, dtype=float)).astype(np.int8).tobytes() for p in plans)
    return b"m" + b"".join(np.asarray(p, dtype=np.float64).tobytes() for p in plans)


def _random_plans(tm, rng):
    """One random behaviour strategy per member (Dirichlet(1) per information set), as plans."""
    return tuple(_realisation(pt, normalise_blocks(pt, rng.gamma(1.0, size=(pt.num_seqs, pt.num_types))))
                 for pt in tm.pts)


def _correlated(tm, *, target, max_iterations, deadline, progress, smoothing=0.0, bound_Y=None, bound=None,
                rng=None, seeds=()):
    """Column generation; ``bound`` = ``(upper, Y)``, an upper bound certified at the
    adversary plan ``Y`` (the pair relaxation's, with the local-search pricing, whose values
    bound nothing); ``seeds``: profiles of member realisation plans (pure or not) that enter
    the master as columns from the start (a product of behaviour strategies is a correlated
    strategy, so the master's value starts at their best guarantee)."""
    pa = tm.pa
    shape = (pa.num_seqs, pa.num_types)
    plans_list, rows, keyset = [], [], {}
    pending = []                               # the columns found in this iteration, added together
    best = dict(upper=np.inf, Y=None, centre_upper=np.inf, centre_Y=None)
    if bound is not None:
        best["upper"], best["Y"] = bound
    local = tm.pricing == "local"
    master_state = dict(lam=np.zeros(0), keep=np.zeros(0, dtype=np.int64), value=-np.inf)

    def column(plans):
        """``(new, row)``: the joint plan's payoff row against every adversary (sequence, type)."""
        key = _plans_key(plans)
        if key in keyset:
            return False, rows[keyset[key]]
        keyset[key] = len(plans_list)
        plans_list.append(plans)
        rows.append(np.bincount(tm.ent.idx[tm.adv], weights=tm.wt * tm.team_reach(plans), minlength=tm.Na))
        pending.append(rows[-1])
        return True, rows[-1]

    def remaining():
        return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)

    def local_price(Yp, num_random=_LOCAL_RANDOM_STARTS):
        """Local optima of the team's best response to ``Yp`` from the master's support, its
        marginals, every member answering the others' uniform plans and ``num_random``
        random profiles; those that beat the master's value (all, before the master
        exists), best first.  When none does, once more from ``_LOCAL_ESCALATION`` random
        profiles."""
        uni = [_realisation(pt, uniform_flat(pt)) for pt in tm.pts]
        m = len(tm.team)
        starts = [(tuple(uni), i) for i in range(m)]
        starts += [(_random_plans(tm, rng), k % m) for k in range(num_random)]
        lam, keep = master_state["lam"], master_state["keep"]
        if keep.size:
            heavy = keep[np.argsort(-lam[keep], kind="stable")][:_LOCAL_SUPPORT_STARTS]
            starts += [(plans_list[j], i) for j in heavy for i in range(m)]
            marg = tuple(sum(lam[j] * plans_list[j][i] for j in keep) / lam[keep].sum() for i in range(m))
            starts += [(marg, i) for i in range(m)]
        found = sorted(tm.local_best_response(Yp, starts), key=lambda pv: -pv[1])
        out, seen = [], set()
        for plans, v in found:
            key = _plans_key(plans)
            if key in seen or v <= master_state["value"] + TEAM_IMPROVEMENT_TOL:
                continue
            seen.add(key)
            out.append(plans)
            if len(out) >= _LOCAL_COLUMNS:
                break
        if not out and master_state["keep"].size and num_random < _LOCAL_ESCALATION:
            return local_price(Yp, _LOCAL_ESCALATION)
        return out or [found[0][0]]

    def price(Yp, centre=True):
        """The team's exact best response to ``Yp``; its value is an upper bound."""
        if local:
            return local_price(Yp)
        plans, _, up = tm.best_response(Yp, remaining())
        if up < best["upper"]:
            best["upper"], best["Y"] = up, Yp
        if centre and up < best["centre_upper"]:
            best["centre_upper"], best["centre_Y"] = up, Yp
        return [] if plans is None else [plans]

    found = price(_realisation(pa, uniform_flat(pa)))
    if not found:
        raise SolverError(f"the team's first best response (a mixed-integer LP, {tm.milp_size()}) found no "
                          f"plan within the time limit, so there is no bracket to report; accepted: a longer "
                          f"time limit, or a smaller game")
    for plans in list(seeds) + list(found):
        column(plans)
    if bound_Y is not None:                    # an adversary plan for the upper bound (and a column)
        for plans in price(bound_Y, False):   # not a centre: smoothing towards it slows the master
            column(plans)
    master = _Master(tm, pending)
    pending.clear()
    alpha = smoothing
    best_lower, best_lam, best_lam_plans = -np.inf, None, None
    it = 0
    bar = progress_bar(total=max_iterations if max_iterations < MAX_ITERATIONS else None, enabled=progress,
                       desc="team column generation")
    try:
        while it < max_iterations:
            it += 1
            lam, y, v_master = master.solution()
            keep = np.flatnonzero(lam > TEAM_SUPPORT_TOL)
            master_state.update(lam=lam, keep=keep, value=v_master)
            lam_k = lam[keep] / lam[keep].sum()
            gain = lam_k @ np.asarray([rows[j] for j in keep])        # the team's payoff per adversary (seq, type)
            low, _ = _best_plan(pa, -gain.reshape(shape))
            if -low > best_lower:
                best_lower, best_lam, best_lam_plans = -low, lam_k, [plans_list[j] for j in keep]
            Y = _realisation(pa, _behaviour(pa, y.reshape(shape)))
            found = False
            priced_Y = smoothing == 0.0
            if smoothing > 0.0:
                # in-out smoothing: price a point between the stability centre and the master's
                # adversary strategy; a column that does not beat the master at the master's own
                # strategy (a misprice) is kept, and the master's strategy is priced too
                Yc = best["centre_Y"]
                Ys = Y if alpha == 0.0 else alpha * Yc + (1.0 - alpha) * Y
                for plans in price(Ys)[:1]:
                    new, r = column(plans)
                    found |= new
                    priced_Y = alpha > 0.0 and (not new or float(r @ Y.ravel()) <= float(gain @ Y.ravel())
                                                + TEAM_IMPROVEMENT_TOL)
                    # the subgradient at the smoothed point: when the team's best response
                    # there is worth less towards the master's point, smooth less
                    if float(r @ (Y - Yc).ravel()) < 0.0:
                        alpha = max(0.0, alpha - _SMOOTHING_STEP)
                    else:
                        alpha = min(_SMOOTHING_MAX, alpha + _SMOOTHING_STEP * (1.0 - alpha))
            if priced_Y:
                for plans in price(Y):
                    found |= column(plans)[0]
            bar.update(1)
            bar.set_postfix(gap=f"{best['upper'] - best_lower:.2e}", plans=len(plans_list))
            if best["upper"] - best_lower <= target:
                break
            if not found:
                break                       # no new column: the restricted master is the best it can do
            if deadline is not None and time.perf_counter() > deadline:
                break
            master.add(pending)
            pending.clear()
    finally:
        bar.close()
    weight = sum(w * tm.team_reach(p) for w, p in zip(best_lam, best_lam_plans))
    lower, Ybr = tm.guarantee(weight)
    vals = tm.seat_values(weight, best["Y"])
    return dict(lam=best_lam, plans=best_lam_plans, lower=lower, upper=best["upper"], Y=best["Y"],
                values=vals, num_iter=it, adversary_br=Ybr)


# ----------------------------------------------------------------------- independent
def _member_lp(tm, Xs, i):
    """Member ``i``'s max-min plan against the adversary, the other members fixed at ``Xs``."""
    coef = tm.wt.copy()
    for j, m in enumerate(tm.team):
        if j != i:
            coef = coef * Xs[j].ravel()[tm.ent.idx[m]]
    mi = tm.team[i]
    A = sp.csr_matrix((coef, (tm.ent.idx[mi], tm.ent.idx[tm.adv])), shape=(tm.N[i], tm.Na))
    E, e = tm.EE[i]
    x, _y, _v, _ = sequence_form_maxmin(A, E, e, tm.F, tm.f)
    pt = tm.pts[i]
    return _realisation(pt, _behaviour(pt, x.reshape(pt.num_seqs, pt.num_types)))


def _independent(tm, starts_list, *, max_rounds, deadline, progress):
    best = (-np.inf, None)
    nlp = 0
    bar = progress_bar(total=len(starts_list), enabled=progress, desc="team local search")
    try:
        for Xs in starts_list:
            Xs = list(Xs)
            val, _ = tm.guarantee(tm.team_reach(Xs))
            for _round in range(max_rounds):
                improved = False
                for i in range(len(tm.team)):
                    cand = Xs[:i] + [_member_lp(tm, Xs, i)] + Xs[i + 1:]
                    nlp += 1
                    cv, _ = tm.guarantee(tm.team_reach(cand))
                    if cv > val + TEAM_IMPROVEMENT_TOL:
                        Xs, val, improved = cand, cv, True
                if not improved or (deadline is not None and time.perf_counter() > deadline):
                    break
            if val > best[0]:
                best = (val, tuple(Xs))
            bar.update(1)
            if deadline is not None and time.perf_counter() > deadline:
                break
    finally:
        bar.close()
    return best[0], best[1], nlp


def _starts(tm, corr, num_random, rng, given=()):
    """Uniform; the caller's ``given`` profiles; the members' marginals of the correlated
    distribution; the joint plans of its support (heaviest first); ``num_random`` random
    behaviour strategies."""
    out = [tuple(_realisation(pt, uniform_flat(pt)) for pt in tm.pts)]
    out += list(given)
    lam, plans = corr["lam"], corr["plans"]
    if len(plans):
        out.append(tuple(sum(w * p[i] for w, p in zip(lam, plans)) for i in range(len(tm.team))))
    for j in np.argsort(-lam, kind="stable"):
        out.append(tuple(plans[j]))
    for _ in range(num_random):
        s = []
        for pt in tm.pts:
            raw = rng.gamma(1.0, size=(pt.num_seqs, pt.num_types))
            s.append(_realisation(pt, normalise_blocks(pt, raw)))
        out.append(tuple(s))
    return out


def _given_starts(game, tm, starts):
    """The realisation plans of the caller's starting profiles (validated)."""
    if starts is None:
        return ()
    out = []
    for k, prof in enumerate(starts):
        if not isinstance(prof, (tuple, list)) or len(prof) != len(tm.team):
            raise GutsInputError(f"starts[{k}] must hold one behaviour strategy per team member "
                                 f"({len(tm.team)} for team {tm.team!r}); got {type(prof).__name__}")
        try:
            out.append(tuple(_realisation(tm.pts[i], _flat_of(game, m, prof[i])) for i, m in enumerate(tm.team)))
        except (KeyError, ValueError, TypeError) as e:
            raise GutsInputError(f"starts[{k}] is not a behaviour strategy of the team members {tm.team!r} "
                                 f"({{history: (types, actions)}} per member): {e}") from None
    return tuple(out)


# ----------------------------------------------------------------------- entry point
def _merge_types(game, tm, member_types):
    """``(_Team of the game whose members see only their types' classes, class of every
    type per member)``, validated."""
    if not isinstance(member_types, dict) or not member_types:
        raise GutsInputError(f"member_types must be a dict {{seat: classes}}; got {member_types!r}")
    d = game.deals
    info = d.info.copy()
    maps = []
    for i, m in enumerate(tm.team):
        T = tm.pts[i].num_types
        c = member_types.get(m, range(T))
        try:
            c = np.asarray(list(c))
        except TypeError:
            raise GutsInputError(f"member_types[{m}] must be a sequence of {T} class indices; got {c!r}") from None
        if (c.shape != (T,) or not np.issubdtype(c.dtype, np.integer) or c.min() < 0
                or np.unique(c).size != c.max() + 1):
            raise GutsInputError(f"member_types[{m}] must give each of the seat's {T} types a class, the "
                                 f"classes numbered 0, 1, ... without gaps; got {member_types.get(m)!r}")
        maps.append(c.astype(np.int64))
        info[m] = c[d.info[m]]
    extra = sorted(set(member_types) - set(tm.team))
    if extra:
        raise GutsInputError(f"member_types names seats {extra} outside the team {tm.team!r}")
    merged = PublicTreeGame(game.root, Deals(d.prob, info), game.num_players, name=f"{game.name} (types merged)")
    tmc = _Team(merged, tm.team, tm.adv)
    if tmc.dp is None or not (np.array_equal(tmc.ent.z, tm.ent.z) and np.array_equal(tmc.ent.d, tm.ent.d)):
        raise RuntimeError("the game with merged types does not have the original's terminals and deals")
    return tmc, maps


def correlated_upper_bound(game, team, *, communicate_after: int | None = None, solver: str | None = None,
                           time_limit: float | None = None) -> dict:
    """A certified upper bound on a two-member team's correlated (TMECor) value: the
    sequence-pair relaxation (:func:`.team_relaxation.pair_relaxation`), whole or with the
    members communicating below the ``communicate_after``-th public chance event.

    Parameters
    ----------
    game : PublicTreeGame
        A zero-sum game of three seats or more whose team has two members.
    team : sequence of int
        The two team seats (every seat but the adversary's).
    communicate_after : int, optional
        ``None``: the whole relaxation (pairs of member sequences everywhere); ``k``: pairs
        above the ``k``-th public chance event and the merged team's plan below it (a much
        smaller LP, a looser bound; ``0`` is the communication value).
    solver : {"hipo", "ipm", "simplex"}, optional
        HiGHS's algorithm (default HiPO where installed, else IPX).
    time_limit : float, optional
        Seconds for HiGHS (a dual solution found by then still certifies a bound).

    Returns
    -------
    dict
        ``upper`` (the certified bound), ``lp_value`` (HiGHS's objective), ``pairs``,
        ``merged`` (the LP's columns), ``seconds``, ``adversary`` (the adversary's seat).

    Examples
    --------
    >>> from guts.games.toy import kuhn_poker
    >>> b = correlated_upper_bound(kuhn_poker(3, ranks=4), (1, 2))
    >>> round(b["upper"], 6)          # the correlated value itself here (5/132)
    0.037879
    """
    cg = _check_game(game)
    if not isinstance(game, PublicTreeGame):
        raise GutsInputError(f"correlated_upper_bound needs a PublicTreeGame; got {type(game).__name__}")
    if not game.zero_sum:
        raise GutsInputError("correlated_upper_bound needs a zero-sum game (payoffs must sum to 0 at every terminal)")
    team, adv = _check_team(cg, team)
    if len(team) != 2:
        raise GutsInputError(f"correlated_upper_bound needs a two-member team; got team={team!r}")
    if communicate_after is not None:
        communicate_after = check_int("communicate_after", communicate_after, 0, 10**6)
    if solver is not None:
        solver = check_choice("solver", solver, ("hipo", "ipm", "simplex"))
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    out = pair_relaxation(_Team(game, team, adv, pricing="local"), communicate_after=communicate_after,
                          solver=solver, time_limit=time_limit)
    out.pop("Y")
    out["adversary"] = adv
    return out


def solve_team(game, team, regime: str, *, method: str | None = None, target: float | None = None,
               max_iterations: int | None = None, time_limit: float | None = None, progress: bool = False,
               random_state=0, random_starts: int = 8, correlated: Solution | None = None,
               communication: Solution | None = None, starts=None, member_types=None) -> Solution:
    """The team's max-min value and strategies in one coordination regime.

    Parameters
    ----------
    game : PublicTreeGame or ExplicitGame
        Zero-sum, ``n >= 2`` seats.
    team : sequence of int
        The seats that maximise their joint payoff: every seat but one.  The one other
        seat is the adversary; several adversary seats are refused (how they would
        coordinate is a regime of its own).
    regime : {"communication", "correlated", "independent"}
        See the module docstring.  ``"communication"`` needs a PublicTreeGame.
    method : str, optional
        ``"lp"`` (communication: sequence-form LP of :func:`merged_game`);
        ``"column-generation"`` (correlated: priced by the dynamic programme over public
        states where the game is a PublicTreeGame with at most ``TEAM_DP_STATES``
        products of ``2^types``, else by the MILP; adaptive Wentges smoothing; by default,
        a two-member team whose MILP would have more than ``TEAM_MILP_PRODUCTS`` product
        columns gets ``"column-generation-local"`` instead, and the result says so) or
        ``"column-generation-milp"`` (correlated, plain: MILP pricing, no smoothing);
        ``"column-generation-local"`` (correlated, for games whose exact team best response
        is out of reach: priced by a local search, alternating member best responses
        (:meth:`_Team.local_best_response`), the upper end the certified bound of the
        sequence-pair relaxation LP (:mod:`~guts.engine.extensive.team_relaxation`) or the
        communication value, whichever is lower; a bracket, not an exact value);
        ``"belief-dag"`` (correlated, two-member teams in a public-tree game whose dynamic
        programme fits: discounted CFR on the team belief DAG, :mod:`.team_dag`; a bracket
        that narrows with the iterations; the default where the DAG holds at most
        ``TEAM_DAG_REGRETS`` regrets and the members have at least ``TEAM_DAG_MIN_DECISIONS``
        public decision nodes, e.g. three-player Leduc with 3 ranks; the result's member
        strategies are their marginals, its ``support`` is empty and its ``device`` draws
        the joint plans of the certified distribution);
        ``"coordinate-ascent"`` (independent).
    target : float, optional
        Width of the certified bracket at which ``converged`` holds and column generation
        stops (default ``TEAM_TARGET`` = 1e-9).
    max_iterations : int, optional
        Column-generation iterations (correlated, and the correlated solve that the
        independent regime starts from; default 1000, and no cap when ``time_limit`` is
        given).  The local search of the independent regime stops a start after 200 rounds
        at most.
    time_limit : float, optional
        Seconds; the solver stops with the bracket it has (``converged`` False when wider
        than ``target``).
    progress : bool
        A progress bar on stderr.
    random_state : int or numpy Generator
        Seeds the random starts of the independent regime and of the local-search pricing.
    random_starts : int
        Random starts of the independent regime (default 8).
    correlated : TeamResult, optional
        Independent regime: the correlated regime's result for the same game and team
        (its support gives starts, its upper end the bracket's), instead of solving it
        again.
    communication : TeamResult, optional
        Independent regime, without ``correlated``: the communication regime's result for
        the same game and team.  The correlated regime is then not solved (for games whose
        exact team best response is out of reach); the bracket's upper end is the
        communication value, which bounds the correlated one.
    starts : sequence of profiles, optional
        Each a tuple with one behaviour strategy ``{history: (T, A)}`` per team member (in
        ``team``'s order), e.g. the members' strategies of another solve.  Independent
        regime: further starts of the local search.  Correlated regime: columns of the
        master from the start (a product of behaviour strategies is a distribution over
        joint pure plans), so that the lower end is at least their best guarantee; such a
        column appears in ``support`` as its members' behaviour strategies, not 0/1 plans.
    member_types : dict, optional
        Belief DAG only (correlated and independent regimes of a two-member team in a
        PublicTreeGame): ``{seat: classes}``, ``classes[t]`` the class of the member's type
        ``t`` (integers from 0), e.g. a card's rank where its suit never changes a payoff.
        The graph is built over the classes (``2^classes`` sets instead of ``2^types``), so
        the members play plans that see only the class; the bracket is still certified in
        ``game`` itself (the adversary's exact best response there, and the team's exact best
        response over all of its plans, which see the full types), so a merge that loses
        value shows as a bracket that does not close.

    .. versionchanged:: 0.1
       ``member_types``, the belief DAG over classes of the members' types.
       ``method="belief-dag"``, the default correlated method where the team belief DAG fits
       and the game has many public decisions.
       ``starts`` in the correlated regime.
       ``communication`` and ``starts``; ``method="column-generation-local"``; the default
       column generation also prices the sequence-pair relaxation's adversary plan when
       the relaxation has at most ``TEAM_RELAXATION_PAIRS`` pairs.

    Returns
    -------
    TeamResult
        ``certificate`` = ``interval`` ``[lower, upper]`` of the team's max-min value.

    Notes
    -----
    Independent regime (a local search; the value is NP-hard to compute): the correlated
    regime is solved first (its upper end bounds the independent value, since a product
    of behaviour strategies is a distribution over joint pure plans by Kuhn's theorem),
    unless ``communication`` is given (then the communication value is the upper end).
    Starts: every member uniform; the caller's ``starts``; every member playing its
    marginal of the correlated distribution (its realisation plan averaged over the
    support); each joint pure plan of the support; ``random_starts`` random behaviour
    profiles (``random_state``).  From
    each start, coordinate ascent: each member in turn replaces its strategy by its
    max-min strategy against the adversary with the other members fixed (a two-player
    sequence-form LP: the others are part of chance), accepted when the certified value
    rises by more than ``TEAM_IMPROVEMENT_TOL``; a start ends after a round without
    improvement.  The best profile's certified value is ``lower``; ``upper`` is the
    correlated upper end.  With a one-member team the marginal start is the correlated
    optimum itself (Kuhn's theorem), so the bracket closes.
    """
    t0 = time.perf_counter()
    cg = _check_game(game)
    regime = check_choice("regime", regime, TEAM_REGIMES)
    if cg.num_players < 2:
        raise GutsInputError(f"a team game needs at least 2 seats; the game has {cg.num_players}")
    if not game.zero_sum:
        raise GutsInputError("solve_team needs a zero-sum game (payoffs must sum to 0 at every terminal)")
    team, adv = _check_team(cg, team)
    default_method = method is None
    method = TEAM_METHODS[regime][0] if method is None else check_choice("method", method, TEAM_METHODS[regime])
    target = TEAM_TARGET if target is None else check_positive_float("target", target, allow_zero=True)
    span = 2.0 * len(team) * float(cg.payoff_scale)   # the team's total payoff lies within +-len(team) * scale
    if target > span:
        raise GutsInputError(f"target {target:g} is wider than the team's payoff range {span:g} (each member's "
                             f"payoffs within +-{float(cg.payoff_scale):g}), so any bracket would meet it; "
                             f"accepted: a target in [0, {span:g}]")
    if time_limit is not None:
        time_limit = check_positive_float("time_limit", time_limit)
    if max_iterations is None:                     # a time limit governs alone
        max_iterations = _MAX_ITER["correlated"] if time_limit is None else MAX_ITERATIONS
    else:
        max_iterations = check_int("max_iterations", max_iterations, 1, MAX_ITERATIONS)
    rounds = _MAX_ITER["independent"]
    random_starts = check_int("random_starts", random_starts, 0)
    if isinstance(random_state, np.random.Generator):
        rng = random_state
    else:
        rng = np.random.default_rng(check_int("random_state", random_state, 0))
    deadline = None if time_limit is None else t0 + time_limit
    n = cg.num_players
    common = dict(method=method, regime=regime, team=team, adversary=adv)

    if regime == "communication":
        out = _communication(game, team, adv)
        cert = interval(out["lower"], out["upper"])
        return Solution.of(TeamResult(value=out["value"], values=out["values"], strategies=out["strategies"], certificate=cert,
                          converged=cert.holds(target), num_iter=out["num_iter"], seconds=time.perf_counter() - t0,
                          merged_game=out["merged_game"], **common))

    tm = _Team(game, team, adv, pricing={"column-generation-milp": "milp",
                                         "column-generation-local": "local"}.get(method, "auto"))
    if (default_method and regime != "communication" and tm.pricing == "milp" and len(team) == 2
            and tm.keys.shape[1] > TEAM_MILP_PRODUCTS):
        # no exact pricing within reach: the local search and the pair relaxation's bracket
        tm = _Team(game, team, adv, pricing="local")
        if regime == "correlated":
            method = common["method"] = "column-generation-local"
    use_dag = method == "belief-dag"
    if use_dag and (tm.dp is None or len(team) != 2):
        raise GutsInputError(
            f"method 'belief-dag' needs a public-tree game and a two-member team whose types fit the dynamic "
            f"programme (at most {TEAM_DP_STATES} products of 2^types); got a {len(team)}-member team"
            + ("" if isinstance(game, PublicTreeGame) else f" in a {type(game).__name__}")
            + "; accepted: another method of the correlated regime")
    if (default_method and regime in ("correlated", "independent") and tm.dp is not None and len(team) == 2
            and (member_types is not None
                 or sum(pt.num_decisions for pt in tm.pts) >= TEAM_DAG_MIN_DECISIONS
                 and dag_size(tm, tm.dp) <= TEAM_DAG_REGRETS)):
        # many public decisions: the belief DAG's regret minimisation narrows the bracket far
        # faster than column generation, whose master rises by less and less
        use_dag = True
        if regime == "correlated":
            method = common["method"] = "belief-dag"
    coarse = None
    if member_types is not None:
        if not use_dag:
            raise GutsInputError(f"member_types needs the belief DAG (method 'belief-dag' in the correlated or "
                                 f"independent regime); got method {method!r}, regime {regime!r}")
        coarse = _merge_types(game, tm, member_types)
    pa = tm.pa
    given = _given_starts(game, tm, starts)
    if correlated is None and communication is not None and regime == "independent":
        if (not isinstance(getattr(communication, "details", None), TeamResult)
                or communication.regime != "communication" or communication.team != team
                or communication.adversary != adv):
            raise GutsInputError(f"communication must be solve_team's communication-regime result for team "
                                 f"{team!r}; got {type(communication).__name__}")
        corr = dict(lam=np.zeros(0), plans=(), upper=communication.upper, num_iter=0)
    elif correlated is not None and regime == "independent":
        if (not isinstance(getattr(correlated, "details", None), TeamResult) or correlated.regime != "correlated" or correlated.team != team
                or correlated.adversary != adv):
            raise GutsInputError(
                f"correlated must be solve_team's correlated-regime result for team {team!r}; got "
                f"{type(correlated).__name__}" + (f" (regime {correlated.regime!r}, team {correlated.team!r})"
                                                  if isinstance(getattr(correlated, "details", None), TeamResult)
                                                  else ""))
        if correlated.method == "belief-dag":      # no support: its members' marginals are a start
            pairs = [(1.0, tuple(correlated.strategies[m] for m in team))]
        else:
            pairs = correlated.support
        plans = tuple(tuple(_realisation(tm.pts[i], _flat_of(game, m, pl[i])) for i, m in enumerate(team))
                      for _, pl in pairs)
        corr = dict(lam=np.array([w for w, _ in pairs]), plans=plans, upper=correlated.upper, num_iter=0)
    elif use_dag:
        tmg, certify = (tm, None) if coarse is None else (coarse[0], (tm, tm.dp, coarse[1]))
        corr = run_belief_dag(tmg, tmg.dp, target=target, max_iterations=max_iterations, deadline=deadline,
                              progress=progress, certify=certify,
                              convert=lambda acts: tuple(_dict_strategy(game, m, _pure_flat(tm.pts[i], acts[i]))
                                                         for i, m in enumerate(team)))
        # the members' marginals, a start of the independent regime's local search
        corr.update(lam=np.ones(1), plans=(tuple(corr["marginals"]),),
                    values=tm.seat_values(corr["team_w"], corr["Y"]))
    else:
        bound_Y, bound = None, None
        if regime == "correlated" and tm.pricing in ("dp", "local") and isinstance(game, PublicTreeGame):
            # the adversary's communication-optimal plan: its exact team best response is an
            # upper bound at or below the communication value from the start
            comm = _communication(game, team, adv)
            bound_Y = _realisation(pa, _flat_of(game, adv, comm["strategies"][adv]))
            bound = (comm["upper"], bound_Y)
        pairs = pair_size(tm) if regime == "correlated" and len(team) == 2 else 0
        full = pairs and (tm.pricing == "local" and pairs <= TEAM_RELAXATION_MAX_PAIRS
                          or tm.pricing == "dp" and pairs <= TEAM_RELAXATION_PAIRS)
        # too many pairs for the whole game: pairs above the first public chance event (the
        # flop, Leduc's board card), the merged team below it (a looser, much smaller LP)
        after = None if full or not pairs or tm.pricing not in ("dp", "local") else _first_chance(tm)
        if full or after is not None:
            # the pair relaxation: a certified upper bound below the communication value,
            # and its adversary plan a pricing point
            try:
                rel = pair_relaxation(tm, communicate_after=after, time_limit=None if deadline is None
                                      else max(deadline - time.perf_counter(), 1.0))
            except SolverError as e:           # no dual solution in time: the communication bound stays
                if bound is None:
                    raise
                warnings.warn(f"{e}; the upper end is the communication value", ConvergenceWarning, stacklevel=2)
            else:
                bound_Y = rel["Y"]
                if bound is None or rel["upper"] < bound[0]:
                    bound = (rel["upper"], rel["Y"])
        local = tm.pricing == "local"
        corr = _correlated(tm, target=target, max_iterations=max_iterations, deadline=deadline,
                           progress=progress,
                           smoothing=0.0 if method in ("column-generation-milp", "column-generation-local") else _SMOOTHING,
                           bound_Y=bound_Y, bound=bound if local else None, rng=rng, seeds=given)
    if regime == "correlated" and use_dag:
        strategies = tuple(_dict_strategy(game, adv, _behaviour(pa, corr["Y"])) if p == adv else
                           _dict_strategy(game, p, _behaviour(tm.pts[team.index(p)], corr["marginals"][team.index(p)]))
                           for p in range(n))
        vals = corr["values"]
        cert = interval(corr["lower"], corr["upper"])
        if not cert.holds(target):
            warnings.warn(f"the belief DAG's certified bracket [{corr['lower']:.6g}, {corr['upper']:.6g}] is "
                          f"{corr['upper'] - corr['lower']:.3g} wide after {corr['num_iter']} iterations, above the "
                          f"target {target:g}; accepted: a wider target, more iterations or a longer time limit",
                          ConvergenceWarning, stacklevel=2)
        return Solution.of(TeamResult(value=float(vals[list(team)].sum()), values=tuple(float(v) for v in vals),
                          strategies=strategies, certificate=cert, converged=cert.holds(target),
                          num_iter=corr["num_iter"], seconds=time.perf_counter() - t0, device=corr["device"],
                          **common))
    if regime == "correlated":
        adv_strategy = _dict_strategy(game, adv, _behaviour(pa, corr["Y"]))
        support = []
        member_plans = [[] for _ in team]
        for w, plans in zip(corr["lam"], corr["plans"]):
            to_behaviour = _pure_behaviour if _is_pure(plans) else _behaviour    # a seed: behaviour strategies
            dicts = tuple(_dict_strategy(game, m, to_behaviour(tm.pts[i], plans[i])) for i, m in enumerate(team))
            support.append((float(w), dicts))
            for i in range(len(team)):
                member_plans[i].append(dicts[i])
        strategies = tuple(adv_strategy if p == adv else tuple(member_plans[team.index(p)]) for p in range(n))
        vals = corr["values"]
        cert = interval(corr["lower"], corr["upper"])
        return Solution.of(TeamResult(value=float(vals[list(team)].sum()), values=tuple(float(v) for v in vals),
                          strategies=strategies, certificate=cert, converged=cert.holds(target),
                          num_iter=corr["num_iter"], seconds=time.perf_counter() - t0, support=tuple(support), **common))

    starts_list = _starts(tm, corr, random_starts, rng, given)
    low, Xs, nlp = _independent(tm, starts_list, max_rounds=rounds, deadline=deadline, progress=progress)
    weight = tm.team_reach(Xs)
    _, Ybr = tm.guarantee(weight)
    vals = tm.seat_values(weight, Ybr)
    strategies = tuple(_dict_strategy(game, adv, _behaviour(pa, Ybr)) if p == adv else
                       _dict_strategy(game, p, _behaviour(tm.pts[team.index(p)], Xs[team.index(p)]))
                       for p in range(n))
    upper = max(corr["upper"], low)
    cert = interval(low, upper)
    return Solution.of(TeamResult(value=float(vals[list(team)].sum()), values=tuple(float(v) for v in vals),
                      strategies=strategies, certificate=cert, converged=cert.holds(target),
                      num_iter=corr["num_iter"] + nlp, seconds=time.perf_counter() - t0, **common))

