"""The team belief DAG of a two-member team, solved by regret minimisation.

In a public-tree game, a distribution over the team's joint pure plans is a flow on a
directed acyclic graph (Zhang, Farina and Sandholm, *Team belief DAG: generalizing the
sequence form to team games for fast computation of correlated team max-min equilibria
via regret minimization*, ICML 2023): its nodes are the public nodes together with the
pair ``(S_1, S_2)`` of the sets of each member's types that the plan brings there.  At a
decision of member ``i`` the flow of ``(S_1, S_2)`` is split between the actions by a
*prescription* (which of the types in ``S_i`` take which action); chance and the adversary
pass it on to every child.  Here a decision with ``k`` actions is a chain of ``k - 1``
binary splits (the types ``P`` of ``S_i`` that take action ``a``, the rest ``S_i - P`` going
on to the later actions), the same chain as the exact best response's dynamic programme
(:class:`.team._PublicStateDP`), whose best response certifies the upper end here.

Every flow is a distribution over joint pure plans (draw a split at every node of the
graph from the flow's conditional split, independently: a pure plan reaches each node by
at most one path, so a node is reached with its flow), and every distribution gives a
flow; the team's payoff is linear in the flow at the terminals.  The correlated (TMECor)
value is therefore the value of a two-player zero-sum game between this graph and the
adversary's sequence form, which a regret minimiser solves: discounted CFR by default (Brown
and Sandholm, *Solving imperfect-information games via discounted regret minimization*,
2019), CFR+ (Tammelin 2014) as an option; regret matching at every ``(node, split, S_i,
S_other)`` over the subsets ``P`` of ``S_i``, the adversary's regrets on his own sequence
tree, alternating updates.  The bracket is exact from the averages: ``lower`` what the
average flow earns against the adversary's exact best response, ``upper`` what the team's
exact best response (the dynamic programme) earns against the adversary's average plan.

Each public node keeps only the types of each member that can still reach a terminal
below it (Leduc's board card removes one), so its arrays have ``2^n_1 x 2^n_2`` cells for
the ``n_i`` live types; a split holds ``3^n_i 2^n_other`` regrets.
"""
from __future__ import annotations

import time

import numpy as np

from ..._validate import check_memory
from ..driver import drive
from . import _kernels as K
from ._fused import njit
from .strategies import _realisation, normalise_blocks, uniform_flat

__all__ = ["BeliefDAG", "CorrelationDevice", "dag_size", "run_belief_dag"]

#: Iterations between two certificates of :func:`run_belief_dag` (a certificate costs about
#: one iteration: the adversary's and the team's exact best responses).
_CHECK_EVERY = 50
#: Where a certificate costs more than this many iterations (the exact best response of a game
#: with more types than the graph's, :class:`BeliefDAG`'s ``certify``), certificates are spaced
#: so that they take at most a fifth of the time.
_CHECK_COST_SHARE = 4.0


@njit(cache=True, nogil=True)
def _submask_offsets(n):
    """``off[S]``: where the pairs ``(S, P subset of S)`` of ``S`` start (``3^n`` in all)."""
    off = np.empty(2 ** n + 1, dtype=np.int64)
    off[0] = 0
    for S in range(2 ** n):
        c = 0
        x = S
        while x:
            x &= x - 1
            c += 1
        off[S + 1] = off[S] + (1 << c)
    return off


@njit(cache=True, nogil=True)
def _value_update(Va, Wb, reg, off, out, q, fp, fn, plus):
    """One binary split, bottom-up: ``out[S] = sum_P sigma[S, P] (Va[P] + Wb[S - P])`` under
    regret matching on ``reg`` (uniform where no regret is positive), then the regrets
    ``reg[S, P] = d reg[S, P] + Va[P] + Wb[S - P] - out[S]``, ``d = fp`` where the old regret is
    positive, else ``fn`` (discounted CFR), floored at 0 when ``plus`` (CFR+).  Columns: the
    other member's sets.  ``q``: scratch of ``Va``'s shape."""
    nS, R = Va.shape
    tot = np.empty(R)
    for S in range(nS):
        o = off[S]
        k = 0
        P = S
        for r in range(R):
            tot[r] = 0.0
        while True:
            Q = S ^ P
            for r in range(R):
                v = Va[P, r] + Wb[Q, r]
                q[k, r] = v
                x = reg[o + k, r]
                if x > 0.0:
                    tot[r] += x
            k += 1
            if P == 0:
                break
            P = (P - 1) & S
        for r in range(R):
            w = 0.0
            if tot[r] > 0.0:
                for j in range(k):
                    x = reg[o + j, r]
                    if x > 0.0:
                        w += x * q[j, r]
                w /= tot[r]
            else:
                for j in range(k):
                    w += q[j, r]
                w /= k
            out[S, r] = w
            for j in range(k):
                x = reg[o + j, r]
                x = x * (fp if x > 0.0 else fn) + q[j, r] - w
                reg[o + j, r] = 0.0 if plus and x < 0.0 else x


@njit(cache=True, nogil=True)
def _flow_split(X, reg, off, Xa, rest, G, w):
    """One binary split, top-down: the flow ``X[S]`` goes to ``Xa[P]`` (action) and
    ``rest[S - P]`` (the later actions) in the proportions of regret matching+ on ``reg``
    (``Xa``, ``rest`` zeroed by the caller); where ``w > 0``, ``w`` times the flow of each pair
    ``(S, P)`` is added to ``G`` (``reg``'s shape: the average flow of the splits)."""
    nS, R = X.shape
    for S in range(nS):
        o = off[S]
        m = off[S + 1] - o
        for r in range(R):
            f = X[S, r]
            if f == 0.0:
                continue
            tot = 0.0
            for j in range(m):
                x = reg[o + j, r]
                if x > 0.0:
                    tot += x
            P = S
            for j in range(m):
                if tot > 0.0:
                    x = reg[o + j, r]
                    g = f * x / tot if x > 0.0 else 0.0
                else:
                    g = f / m
                if g != 0.0:
                    Xa[P, r] += g
                    rest[S ^ P, r] += g
                    if w > 0.0:
                        G[o + j, r] += w * g
                if P == 0:
                    break
                P = (P - 1) & S


#: ``(alpha, beta, gamma, floor)`` of the regret minimisers: regrets discounted by
#: ``t^alpha / (t^alpha + 1)`` where positive and ``t^beta / (t^beta + 1)`` where not (unless
#: floored at 0, CFR+), iterate ``t`` weighted ``t^gamma`` in the averages.
_VARIANTS = {"cfr+": (0.0, 0.0, 1.0, True), "cfr+quadratic": (0.0, 0.0, 2.0, True),
             "dcfr": (1.5, 0.0, 2.0, False)}


def _indicator(n):
    """(2^n, n): row S holds the indicator of the set S."""
    return ((np.arange(2 ** n)[:, None] >> np.arange(n)[None, :]) & 1).astype(float)


def _live(tm, dp):
    """Per member, the (num_nodes, T) mask of the types with a chance-weighted terminal below."""
    cg = tm.cg
    live = []
    for m, T in zip(tm.team, dp.T):
        L = np.zeros((cg.num_nodes, T), dtype=bool)
        L[cg.term_node[tm.ent.z], cg.info[m][tm.ent.d]] = True
        for nd in range(cg.num_nodes - 1, 0, -1):
            L[int(cg.parent[nd])] |= L[nd]
        live.append(L)
    return live


def dag_size(tm, dp) -> int:
    """Regrets of the belief DAG of ``tm``'s two members: the sum over their decisions and
    binary splits of ``3^n_i 2^n_other`` (live types)."""
    return _regrets(dp, [L.sum(axis=1) for L in _live(tm, dp)])


def _regrets(dp, n) -> int:
    """``sum (k - 1) 3^n_i 2^n_other`` over the members' decisions (``n[i][node]`` live types)."""
    return int(sum((len(dp.children[node]) - 1) * 3 ** int(n[i][node]) * 2 ** int(n[1 - i][node])
                   for node, (i, _h) in dp.owner.items()))


class BeliefDAG:
    """Regret minimisation on the team belief DAG against the adversary's sequence form (two
    members): the state object of the package's iteration driver.

    ``tm`` is the solver's :class:`.team._Team`, ``dp`` its exact best response
    (:class:`.team._PublicStateDP`), ``variant`` a key of :data:`_VARIANTS` (``"dcfr"``,
    ``"cfr+"``, ``"cfr+quadratic"``).  :meth:`step` runs iterations; :meth:`certificate`
    certifies the averages and keeps the best bracket in :attr:`best`.  ``certify``, optional:
    ``(tm, dp, maps)`` of a game with the same terminals, deals and adversary in which member
    ``i``'s type ``t`` is seen as ``maps[i][t]`` by this graph's game (types merged): its
    bracket is certified there (the flow is a distribution over the finer game's plans that
    ignore what the merge hides) and the marginals are given per finer type.
    """

    def __init__(self, tm, dp, variant: str = "dcfr", certify=None):
        if len(tm.team) != 2:
            raise ValueError("the belief DAG is built for two-member teams")
        cg = tm.cg
        self.tm, self.dp, self.cg = tm, dp, cg
        # where the bracket is certified: the same game, or (``certify = (tm, dp, type
        # maps)``) the game whose members see finer types than the graph's (same terminals,
        # deals and adversary), so that the graph's flow is a distribution there too
        self.certify = certify
        # (alpha, beta, gamma, floor at 0): CFR+ and discounted CFR (Brown and Sandholm 2019)
        self.alpha, self.beta, self.gamma, self.plus = _VARIANTS[variant]
        N = cg.num_nodes
        live = _live(tm, dp)
        self.lists = [[np.flatnonzero(L[nd]) for nd in range(N)] for L in live]
        self.n = [np.array([len(x) for x in lst]) for lst in self.lists]
        self.ind = {k: _indicator(k) for k in set(np.concatenate(self.n).tolist()) | {0}}
        self.off = {k: _submask_offsets(k) for k in self.ind}
        # edge maps parent -> child (None where the live types are the same)
        self.edge = {}
        for nd in range(1, N):
            p = int(cg.parent[nd])
            maps = []
            same = True
            for i in range(2):
                lp, lc = self.lists[i][p], self.lists[i][nd]
                if len(lp) == len(lc):
                    maps.append(None)
                    continue
                same = False
                pos = np.searchsorted(lc, lp)
                bit = np.where((pos < len(lc)) & (lc[np.minimum(pos, len(lc) - 1)] == lp), 1 << pos, 0)
                maps.append((self.ind[len(lp)] @ bit).astype(np.int64))
            if not same:
                m0 = maps[0] if maps[0] is not None else np.arange(2 ** len(self.lists[0][p]))
                m1 = maps[1] if maps[1] is not None else np.arange(2 ** len(self.lists[1][p]))
                self.edge[nd] = m0[:, None] * (2 ** len(self.lists[1][nd])) + m1[None, :]
        # three numbers a regret: the regret, the average flow of its split pair and the copy of
        # that average kept with the best lower end (the distribution it certifies)
        size = _regrets(dp, self.n)
        check_memory(f"the team belief DAG ({size} regrets)", 3 * 8 * size,
                     hint="accepted: a smaller game, or member_types= merging types no payoff tells apart")
        # regrets: per member decision node, one array per binary split
        self.reg = {}
        for node, (i, _h) in dp.owner.items():
            ni, no = int(self.n[i][node]), int(self.n[1 - i][node])
            self.reg[node] = [np.zeros((3 ** ni, 2 ** no)) for _ in range(len(dp.children[node]) - 1)]
        # the average flow of every split (its pairs (S, P) as the regrets'), one flat array in
        # the order of the member decisions, with a view per split: the distribution over joint
        # plans that :class:`CorrelationDevice` draws from
        self.avg_flat = np.zeros(size)
        self.avg_split, at = {}, 0
        for node in sorted(self.reg):
            self.avg_split[node] = []
            for r in self.reg[node]:
                self.avg_split[node].append(self.avg_flat[at:at + r.size].reshape(r.shape))
                at += r.size
        self._no_split = np.zeros((1, 1))
        # terminals grouped by their live-type pattern: batched subset sums
        groups = {}
        for z, nd in enumerate(cg.term_node):
            key = (tuple(self.lists[0][int(nd)]), tuple(self.lists[1][int(nd)]))
            groups.setdefault(key, []).append(z)
        self.groups = [(np.array(l0, dtype=np.int64), np.array(l1, dtype=np.int64), np.array(zs))
                       for (l0, l1), zs in groups.items()]
        self.term_node = np.asarray(cg.term_node)
        # the adversary
        self.pa = tm.pa
        self.Badv = uniform_flat(self.pa)
        self.reg_adv = np.zeros_like(self.Badv)
        self.Y = _realisation(self.pa, self.Badv)
        self.marg = [np.zeros((pt.num_seqs, pt.num_types)) for pt in tm.pts]
        for M in self.marg:
            M[0] = 1.0
        self.avg_marg = [np.zeros_like(M) for M in self.marg]
        self.avg_w = np.zeros(tm.wt.size)           # sum of t^gamma * team reach per entry
        self.avg_Y = np.zeros_like(self.Y)
        self.weight = 0.0
        self.iteration = 0
        self.best = dict(lower=-np.inf, upper=np.inf)
        self.step_seconds = self.certificate_seconds = 0.0
        self.team_w = self._team_reach(self._flows())

    # -- one pass of each side
    def _gather(self, V, nd):
        e = self.edge.get(nd)
        return V if e is None else V.ravel()[e]

    def _terminal_values(self, Y):
        tm, dp, cg = self.tm, self.dp, self.cg
        c = tm.wt * Y.ravel()[tm.ent.idx[tm.adv]]
        J = int(np.prod(dp.jshape))
        C = np.bincount(dp.term_joint, weights=c, minlength=cg.num_terminals * J).reshape((-1,) + dp.jshape)
        out = {}
        for l0, l1, zs in self.groups:
            Cz = C[zs][:, l0][:, :, l1]
            V = np.einsum("sa,zab,rb->zsr", self.ind[len(l0)], Cz, self.ind[len(l1)], optimize=True)
            for k, z in enumerate(zs):
                out[int(self.term_node[z])] = V[k]
        return out

    def _team_update(self, Y):
        """Bottom-up values of the team's current DAG strategy against ``Y`` and the CFR+
        regret update; returns the root value (the team's payoff before the update)."""
        dp, cg = self.dp, self.cg
        V = self._terminal_values(Y)
        for node in range(cg.num_nodes - 1, -1, -1):
            if node in V:
                continue
            kids = dp.children[node]
            if node in dp.owner:
                i, _h = dp.owner[node]
                ni = int(self.n[i][node])
                off = self.off[ni]
                Vc = [self._gather(V.pop(k), k) for k in kids]
                if i == 1:
                    Vc = [np.ascontiguousarray(v.T) for v in Vc]
                W = np.ascontiguousarray(Vc[-1])
                regs = self.reg[node]
                for a in range(len(kids) - 2, -1, -1):
                    out = np.empty_like(W)
                    q = np.empty((2 ** ni, W.shape[1]))
                    _value_update(np.ascontiguousarray(Vc[a]), W, regs[a], off, out, q, *self._discount)
                    W = out
                V[node] = W.T if i == 1 else W
            else:
                W = None
                for k in kids:
                    v = self._gather(V.pop(k), k)
                    W = v.copy() if W is None else W + v
                V[node] = W
        root = V[0]
        return float(root[-1, -1])

    def _flows(self, marg=None, w=0.0):
        """Top-down flows of the current DAG strategy: ``{terminal node: X}``; the members'
        marginal realisation plans into ``marg`` (one (S+1, T) array per member) if given, and
        ``w`` times each split's flow into :attr:`avg_split` where ``w > 0``."""
        dp, cg = self.dp, self.cg
        X = {0: np.zeros((2 ** int(self.n[0][0]), 2 ** int(self.n[1][0])))}
        X[0][-1, -1] = 1.0
        term = {}
        for node in range(cg.num_nodes):
            x = X.pop(node)
            kids = dp.children[node]
            if not kids:
                term[node] = x
                continue
            if node in dp.owner:
                i, _h = dp.owner[node]
                ni = int(self.n[i][node])
                off = self.off[ni]
                rest = np.ascontiguousarray(x.T if i == 1 else x)
                outs = []
                for a in range(len(kids) - 1):
                    xa = np.zeros_like(rest)
                    nxt = np.zeros_like(rest)
                    _flow_split(rest, self.reg[node][a], off, xa, nxt,
                                self.avg_split[node][a] if w > 0.0 else self._no_split, w)
                    outs.append(xa)
                    rest = nxt
                outs.append(rest)
                if marg is not None:          # the member's realisation weight of each action, per live type
                    h = dp.owner[node][1]
                    first = int(self.tm.pts[i].dec_first[h])
                    ind = self.ind[ni]
                    for a, o in enumerate(outs):
                        marg[i][first + a, self.lists[i][node]] = ind.T @ o.sum(axis=1)
                if i == 1:
                    outs = [o.T for o in outs]
            else:
                outs = [x] * len(kids)
            for k, o in zip(kids, outs):
                e = self.edge.get(k)
                if e is None:
                    X[k] = np.ascontiguousarray(o)
                else:
                    shape = (2 ** int(self.n[0][k]), 2 ** int(self.n[1][k]))
                    X[k] = np.bincount(e.ravel(), weights=o.ravel(), minlength=shape[0] * shape[1]).reshape(shape)
        return term

    def _team_reach(self, term):
        """The team's reach per (terminal, deal) entry: the flow of the sets holding both types."""
        tm, dp, cg = self.tm, self.dp, self.cg
        J = int(np.prod(dp.jshape))
        R = np.zeros((cg.num_terminals,) + dp.jshape)
        for l0, l1, zs in self.groups:
            Xs = np.stack([term[int(self.term_node[z])] for z in zs])
            r = np.einsum("sa,zsr,rb->zab", self.ind[len(l0)], Xs, self.ind[len(l1)], optimize=True)
            R[np.ix_(zs, l0, l1)] = r
        return R.reshape(-1)[dp.term_joint] if J else np.zeros(tm.wt.size)

    def _adversary_update(self, team_w):
        pa = self.pa
        G = self.tm.adversary_gain(team_w)
        V, Vdec = K.backup_mean(pa, np.ascontiguousarray(G), self.Badv)
        delta = V[1:] - Vdec[pa.seq_dec[1:]]
        fp, fn, plus = self._discount
        reg = self.reg_adv[1:]
        reg *= np.where(reg > 0.0, fp, fn)
        reg += delta
        if plus:
            np.maximum(reg, 0.0, out=reg)
        self.Badv = normalise_blocks(pa, np.maximum(self.reg_adv, 0.0))
        self.Y = _realisation(pa, self.Badv)

    def plan(self, limit: int) -> int:
        """One iteration a step (an iteration is a fraction of a second): the driver's time
        limit is then tested after every iteration."""
        return 1

    def step(self, count: int = 1) -> None:
        """``count`` iterations of alternating CFR+ (team, then adversary), linear averages."""
        started = time.perf_counter()
        self._step(count)
        self.step_seconds = (time.perf_counter() - started) / max(count, 1)

    def _step(self, count):
        for _ in range(count):
            t = self.iteration + 1
            if self.plus:
                self._discount = (1.0, 1.0, True)
            else:
                ta, tb = float(t) ** self.alpha, float(t) ** self.beta
                self._discount = (ta / (ta + 1.0), tb / (tb + 1.0), False)
            w = float(t) ** self.gamma
            self._team_update(self.Y)
            self.team_w = self._team_reach(self._flows(self.marg, w))
            self.avg_w += w * self.team_w
            for A, M in zip(self.avg_marg, self.marg):
                A += w * M
            self._adversary_update(self.team_w)
            self.avg_Y += w * self.Y
            self.weight += w
            self.iteration = t

    # -- the certificate
    def average(self):
        """``(team reach per entry, adversary realisation plan, members' marginal realisation
        plans)`` of the averages."""
        if self.weight <= 0.0:
            return self.team_w, self.Y, self.marg
        return self.avg_w / self.weight, self.avg_Y / self.weight, [A / self.weight for A in self.avg_marg]

    def certificate(self) -> float:
        """Width of the best certified bracket so far (:attr:`best`): the average flow's
        guarantee (what it earns against the adversary's exact best response) and the team's
        exact best response to the adversary's average plan, each kept where best."""
        started = time.perf_counter()
        w, Y, marg = self.average()
        tm, dp = self.tm, self.dp
        if self.certify is not None:
            tm, dp, maps = self.certify
            marg = [M[:, m] for M, m in zip(marg, maps)]
        lower, _ = tm.guarantee(w)
        _plans, upper, _ = dp.best_response(Y)
        if lower > self.best["lower"]:
            self.best.update(lower=float(lower), team_w=w, marginals=marg,
                             split=self.avg_flat / self.weight if self.weight > 0.0 else None)
        if upper < self.best["upper"]:
            self.best.update(upper=float(upper), Y=Y)
        self.certificate_seconds = time.perf_counter() - started
        return self.best["upper"] - self.best["lower"]

    def next_check(self, history) -> int:
        """Certificates at iterations 10, 25, 50 and then every ``_CHECK_EVERY``, or further
        apart where a certificate costs more than ``_CHECK_EVERY / _CHECK_COST_SHARE``
        iterations (then every ``_CHECK_COST_SHARE`` certificates' worth of iterations)."""
        t = history[-1][0]
        first = next((c for c in (10, 25) if c > t), None)
        if first is not None:
            return first
        every = _CHECK_EVERY
        if self.step_seconds > 0.0:
            every = max(every, int(np.ceil(_CHECK_COST_SHARE * self.certificate_seconds / self.step_seconds)))
        return t + every if every > _CHECK_EVERY else (t // _CHECK_EVERY + 1) * _CHECK_EVERY


@njit(cache=True, nogil=True)
def _walk_plan(G, sample, u, kid_ptr, kids, own_i, own_h, split_ptr, gbase, gcols, n0, n1, offs, live_ptr, live,
               ebase, E, act0, act1, used):
    """One joint pure plan, top-down from the root: at every state it reaches, each binary split
    takes the pair ``(S, P)`` with the most flow in ``G`` (``sample`` False) or one drawn from
    the flow's conditional split with the uniform ``u[k]`` of the ``k``-th split visited
    (``sample`` True).  Writes the members' actions per (decision, type) into ``act0`` /
    ``act1`` and the flat indices of ``G`` the plan used into ``used``; returns how many."""
    N = kid_ptr.size - 1
    stack_n = np.empty(N, dtype=np.int64)
    stack_s = np.empty((N, 2), dtype=np.int64)
    stack_n[0] = 0
    stack_s[0, 0] = 2 ** n0[0] - 1
    stack_s[0, 1] = 2 ** n1[0] - 1
    top = 1
    nu = 0
    while top > 0:
        top -= 1
        node = stack_n[top]
        s0 = stack_s[top, 0]
        s1 = stack_s[top, 1]
        i = own_i[node]
        k0, k1 = kid_ptr[node], kid_ptr[node + 1]
        rest = s0 if i == 0 else s1
        oth = s1 if i == 0 else s0
        for a in range(k1 - k0):
            kid = kids[k0 + a]
            c0, c1 = s0, s1
            if i >= 0:                                  # a member's decision: split ``rest``
                if a < k1 - k0 - 1:
                    sp = split_ptr[node] + a
                    cols = gcols[sp]
                    ni = n0[node] if i == 0 else n1[node]
                    o = offs[ni, rest]
                    m = offs[ni, rest + 1] - o
                    row = gbase[sp] + o * cols + oth     # entry j (the j-th submask P) at row + j * cols
                    j = 0
                    if sample:
                        tot = 0.0
                        for q in range(m):
                            tot += max(G[row + q * cols], 0.0)
                        target = u[nu] * tot
                        acc = 0.0
                        for q in range(m):
                            acc += max(G[row + q * cols], 0.0)
                            j = q
                            if acc > target:
                                break
                    else:
                        best = G[row]
                        for q in range(1, m):
                            if G[row + q * cols] > best:
                                best, j = G[row + q * cols], q
                    used[nu] = row + j * cols
                    nu += 1
                    P = rest
                    for _ in range(j):
                        P = (P - 1) & rest
                    rest ^= P
                else:
                    P = rest
                ni = n0[node] if i == 0 else n1[node]
                lo = live_ptr[i, node]
                for b in range(ni):
                    if P >> b & 1:
                        if i == 0:
                            act0[own_h[node], live[lo + b]] = a
                        else:
                            act1[own_h[node], live[lo + b]] = a
                c0, c1 = (P, oth) if i == 0 else (oth, P)
            stack_n[top] = kid
            if ebase[kid] < 0:
                stack_s[top, 0] = c0
                stack_s[top, 1] = c1
            else:                                       # the child's live types: its own indexing
                v = E[ebase[kid] + c0 * 2 ** (n1[node]) + c1]
                stack_s[top, 0] = v // 2 ** n1[kid]
                stack_s[top, 1] = v % 2 ** n1[kid]
            top += 1
    return nu


class CorrelationDevice:
    """The team's correlated strategy of a belief-DAG solve: the distribution over joint pure
    plans that the average flow of the graph is, drawn before the deal (Celli and Gatti's
    ex-ante coordination).

    The flow is kept as the average flow of every split (the pairs ``(S, P)`` of each member
    decision's binary splits, per set of the other member): ``split``, laid out as the graph's
    :attr:`BeliefDAG.avg_flat`; a joint plan is drawn top-down,
    one split at every state the plan reaches, from the flow's conditional split at that
    state.  A pure plan reaches each public node in one state, so a state is reached with
    probability equal to its flow: the draws are distributed exactly as the flow (Zhang,
    Farina and Sandholm 2023, section 4).  ``convert`` turns the members' action arrays into
    what :meth:`sample` and :meth:`support` return (the solver passes the members' pure
    behaviour strategies ``{history: (T, A)}``); ``maps[i][t]``: the graph's type of member
    ``i``'s type ``t`` where the graph merged types.
    """

    def __init__(self, dag: BeliefDAG, split: np.ndarray, convert, maps=None):
        self.convert = convert
        self.maps = maps
        dp, N = dag.dp, dag.cg.num_nodes
        self.kid_ptr = np.zeros(N + 1, dtype=np.int64)
        self.kid_ptr[1:] = np.cumsum([len(dp.children[nd]) for nd in range(N)])
        self.kids = np.array([k for nd in range(N) for k in dp.children[nd]], dtype=np.int64)
        self.own_i = np.full(N, -1, dtype=np.int64)
        self.own_h = np.zeros(N, dtype=np.int64)
        self.split_ptr = np.zeros(N, dtype=np.int64)
        arrays = []                                     # the graph's views, in the flat array's order
        for node in sorted(dp.owner):
            self.own_i[node], self.own_h[node] = dp.owner[node]
            self.split_ptr[node] = len(arrays)
            arrays.extend(dag.avg_split[node])
        self.gcols = np.array([g.shape[1] for g in arrays], dtype=np.int64)
        self.gbase = np.zeros(len(arrays), dtype=np.int64)
        self.gbase[1:] = np.cumsum([g.size for g in arrays])[:-1]
        self.G = split
        self.n0, self.n1 = (np.asarray(x, dtype=np.int64) for x in dag.n)
        top = max(int(self.n0.max()), int(self.n1.max()))
        self.offs = np.zeros((top + 1, 2 ** top + 1), dtype=np.int64)
        for k in range(top + 1):
            self.offs[k, :2 ** k + 1] = _submask_offsets(k)
        self.live_ptr = np.zeros((2, N), dtype=np.int64)
        lives, at = [], 0
        for i in range(2):
            for nd in range(N):
                self.live_ptr[i, nd] = at
                lives.append(dag.lists[i][nd])
                at += len(lives[-1])
        self.live = np.concatenate(lives).astype(np.int64)
        self.ebase = np.full(N, -1, dtype=np.int64)
        edges, at = [], 0
        for kid, e in dag.edge.items():
            self.ebase[kid] = at
            edges.append(np.asarray(e, dtype=np.int64).ravel())
            at += edges[-1].size
        self.E = np.concatenate(edges) if edges else np.zeros(0, dtype=np.int64)
        self.shapes = [(pt.num_decisions, pt.num_types) for pt in dag.tm.pts]
        self.num_splits = len(arrays)

    def _walk(self, G, u=None):
        """The members' action arrays of one joint plan (drawn with the uniforms ``u``, else the
        heaviest splits) and the flat indices of ``G`` it used."""
        act = [np.zeros(shape, dtype=np.int64) for shape in self.shapes]
        used = np.empty(self.num_splits, dtype=np.int64)
        k = _walk_plan(G, u is not None, np.zeros(1) if u is None else u, self.kid_ptr, self.kids, self.own_i,
                       self.own_h, self.split_ptr, self.gbase, self.gcols, self.n0, self.n1, self.offs,
                       self.live_ptr, self.live, self.ebase, self.E, act[0], act[1], used)
        if self.maps is not None:                       # the finer types play their class's action
            act = [A[:, m] for A, m in zip(act, self.maps)]
        return act, used[:k]

    def sample(self, random_state=None):
        """One joint pure plan drawn from the distribution (what :attr:`convert` makes of it:
        one pure behaviour strategy per member)."""
        u = np.random.default_rng(random_state).random(max(self.num_splits, 1))
        return self.convert(self._walk(self.G, u)[0])

    def support(self, *, mass_tol: float = 1e-9, max_plans: int = 10_000):
        """The distribution as a list of weighted joint pure plans, greedily (as a flow is
        split into paths): follow the split with the largest remaining flow at every state,
        weigh the plan by the smallest of these flows, subtract it along the plan (each plan
        empties at least one entry).  Exact on small graphs; the average of many iterations
        spreads over many plans on large ones (three-player Leduc: thousands for 99.9 %).

        Returns ``(support, mass)``: ``(weight, plans)`` pairs, heaviest first, until the
        weights sum to ``1 - mass_tol`` or ``max_plans`` of them, and the weights' sum."""
        G = self.G.copy()
        out, mass = [], 0.0
        while len(out) < max_plans and 1.0 - mass > mass_tol:
            act, used = self._walk(G)
            lam = float(G[used].min()) if used.size else 1.0 - mass
            if not lam > 0.0:                           # what remains is rounding
                break
            G[used] -= lam
            out.append((lam, self.convert(act)))
            mass += lam
        out.sort(key=lambda x: -x[0])
        return out, mass


def run_belief_dag(tm, dp, *, target: float, max_iterations: int, deadline: float | None, progress: bool,
                   variant: str = "dcfr", certify=None, convert=None) -> dict:
    """Discounted CFR on the belief DAG under the one driver (:func:`guts.engine.driver.drive`)
    until the certified bracket is at most ``target`` wide, ``max_iterations`` or the
    ``deadline`` (:func:`time.perf_counter`).

    Returns :attr:`BeliefDAG.best` (``lower`` and ``upper``, ``Y`` the adversary plan of
    ``upper``, ``team_w`` the team's reach per entry of the distribution of ``lower`` and
    ``marginals`` its members' marginal realisation plans, ``device`` its
    :class:`CorrelationDevice` where ``convert`` is given, else None) and ``num_iter``.
    ``certify``: see :class:`BeliefDAG` (the bracket, the marginals and the device's plans are
    then the finer game's)."""
    dag = BeliefDAG(tm, dp, variant=variant, certify=certify)
    now = time.perf_counter()
    drive(dag, max_iterations=max_iterations, target=target, check_schedule=dag.next_check,
          first_check=min(10, max_iterations), final_check=True, progress=progress, desc="team belief DAG",
          measure="bracket", started=now, time_limit=None if deadline is None else max(deadline - now, 0.0))
    best = dict(dag.best)
    split = best.pop("split", None)
    best["device"] = None if convert is None or split is None else CorrelationDevice(
        dag, split, convert, maps=None if certify is None else certify[2])
    return dict(best, num_iter=dag.iteration)
