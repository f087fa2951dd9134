"""The compiled flat form of a :class:`~.tree.PublicTreeGame`, used by every solver.

Layout (all integer arrays numpy):

* Public nodes in depth-first order with ``kind`` (0 decision, 1 chance, 2 terminal),
  ``parent`` and ``history``.
* Per player ``p`` a :class:`PlayerTree`: his decision nodes and *sequences* (a
  sequence = (own decision node, action); 0 is the empty sequence).  Decisions are
  numbered level by level (level = number of own earlier decisions on the path), sorted
  within a level by parent sequence, and each decision's action sequences are
  contiguous.  A behaviour strategy is then one array ``B`` of shape ``(S_p + 1, T_p)``
  (row 0 = 1), and

  - top-down reach (realisation weights) per level: ``R[lo:hi] = R[par[lo:hi]] * B[lo:hi]``;
  - bottom-up values per level: ``np.add.reduceat`` over the action blocks, then over
    the decisions sharing a parent sequence.

  so a pass costs a few numpy calls per level, whatever the number of types.
* Terminals: per terminal its sequence for every player, its chance context and an
  affine payoff ``offset[p] + scale * table[tid][p, d]``; tables are the distinct payoff
  tables of the game (one copy each, never one per terminal; constant payoffs use
  ``scale = 0``).  Terminals are sorted by table and split in chunks of at most
  ``CHUNK_ELEMS`` terminal x deal entries: one vectorised pass per chunk over all deals.
* Chance contexts: the product of deal probability and public chance probabilities on
  the path is ``scal[z] * ctx[vid[z], d]``: scalar probabilities multiply ``scal``, array
  probabilities create a new row of ``ctx`` (deduplicated by the identity of the arrays,
  so a flop distribution shared by many chance nodes gives one row per context).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ...errors import GutsInputError
from .nodes import PROB_TOL, ZERO_SUM_TOL, Chance, Decision, Terminal, _label_str

#: Maximum terminal x deal entries processed in one vectorised block (memory bound:
#: a few float64 arrays of this size live at once, ~16 MB each).
CHUNK_ELEMS = 1 << 21

DECISION, CHANCE, TERMINAL = 0, 1, 2


@dataclass
class PlayerTree:
    """One player's decisions and sequences (see the module docstring)."""

    num_types: int
    num_seqs: int                 # S + 1 (with the empty sequence 0)
    dec_node: np.ndarray          # (H,) public node index of each decision
    dec_first: np.ndarray         # (H,) first action sequence
    dec_num_actions: np.ndarray   # (H,)
    dec_parent: np.ndarray        # (H,) parent sequence
    seq_dec: np.ndarray           # (S+1,) decision of each sequence (-1 for 0)
    seq_parent: np.ndarray        # (S+1,) parent sequence of each sequence's decision (-1 for 0)
    histories: list               # (H,) history tuples
    action_labels: list           # (H,) tuples of labels
    levels: list                  # [(dlo, dhi, slo, shi, uniq_parents, parent_starts, block_starts)]
    index: dict                   # history -> decision index
    # type orbits of a quotient by a symmetry group (Decision.orbits): sequence s's values
    # are averaged over the orbits of partition seq_sym[s] (-1: none); partition k lists its
    # types orbit by orbit in sym_order[k], orbit c being sym_order[k, sym_start[k, c]:sym_start[k, c + 1]]
    seq_sym: np.ndarray | None = None       # (S+1,) int64
    sym_order: np.ndarray | None = None     # (K, T) int64
    sym_start: np.ndarray | None = None     # (K, T+1) int64 (padded)
    sym_ncls: np.ndarray | None = None      # (K,) int64

    @property
    def num_decisions(self) -> int:
        return int(self.dec_node.size)


@dataclass
class TerminalChunk:
    z: np.ndarray          # (nz,) terminal indices
    tid: np.ndarray        # (nz,) table index
    single_table: int      # table index if all terminals share it, else -1
    vid: np.ndarray        # (nz,) context row
    scal: np.ndarray       # (nz,) scalar chance factor
    seq: np.ndarray        # (n, nz) sequence of each player
    offset: np.ndarray     # (n, nz)
    scale: np.ndarray      # (nz,)
    num_seqs: tuple        # S_p + 1 per player
    _scatter: list | None = None

    @property
    def scatter(self) -> list:
        """Per player csr (S_p+1, nz): terminal -> its sequence. Built on first use (the
        numpy reference pass): its index pointer has S_p + 1 entries per chunk, which for
        a large game summed over hundreds of chunks would dominate memory."""
        if self._scatter is None:
            nz = self.z.size
            self._scatter = [
                sp.csr_matrix((np.ones(nz), (self.seq[p], np.arange(nz))), shape=(S1, nz))
                for p, S1 in enumerate(self.num_seqs)
            ]
        return self._scatter


@dataclass
class CompiledGame:
    num_players: int
    num_deals: int
    prob: np.ndarray          # (D,)
    info: np.ndarray          # (n, D)
    num_types: tuple
    kind: np.ndarray          # (N,)
    parent: np.ndarray        # (N,)  (node histories are not kept: see :func:`assemble`)
    players: list             # PlayerTree per player
    ctx: np.ndarray           # (n_ctx, D): deal prob x array chance probabilities
    tables: list              # distinct tables (n, D)
    term_node: np.ndarray     # (Z,)
    term_seq: np.ndarray      # (n, Z)
    term_vid: np.ndarray      # (Z,)
    term_scal: np.ndarray     # (Z,)
    term_tid: np.ndarray      # (Z,) table index (-1: constant)
    term_offset: np.ndarray   # (n, Z)
    term_scale: np.ndarray    # (Z,)
    perm: list                # per player: deals sorted by his type
    type_starts: list         # per player: reduceat starts in perm order (present types)
    type_present: list        # per player: indices of the types that occur in some deal
    zero_sum: bool
    payoff_scale: float
    _chunks: list | None = None
    #: a quotient by a symmetry group (orbit averaging, chance multiplicities): only the
    #: solvers built on the public-tree passes (CFR family, best response) accept it
    quotient: bool = False

    @property
    def chunks(self) -> list:
        """TerminalChunk list of the numpy reference pass and the sequence-form LP, built on
        first use (the numba kernels do not need these copies of the terminal arrays)."""
        if self._chunks is None:
            self._chunks = _build_chunks(self)
        return self._chunks

    @property
    def num_nodes(self) -> int:
        return int(self.kind.size)

    @property
    def num_terminals(self) -> int:
        return int(self.term_node.size)

    @property
    def num_ctx(self) -> int:
        return int(self.ctx.shape[0])


class _Checked:
    """Per-array validation cache (keyed by id; the arrays stay referenced by the tree)."""

    def __init__(self):
        self.done = {}


def compile_game(root, deals, n: int) -> CompiledGame:
    D = deals.num_deals
    prob = deals.prob
    pos = prob > 0

    kinds, parents = [], []
    # per player: decision records (node, parent_temp_seq, temp_first, na, history, labels)
    drec = [[] for _ in range(n)]
    temp_next = [1] * n
    temp_dec = [dict() for _ in range(n)]  # temp seq -> record index

    ctx_rows = [prob]
    ctx_key = {}
    dsym = [[] for _ in range(n)]          # per decision record: its orbit partition (-1 none)
    partitions = [dict() for _ in range(n)]    # id(orbits array) -> (partition id, array)
    quotient = False
    checked_chance = {}
    table_index = {}
    tables = []
    table_info = []  # (min colsum, max colsum, max abs) over positive-prob deals

    t_node, t_seq, t_vid, t_scal, t_tid, t_off, t_scale = [], [], [], [], [], [], []
    payoff_scale = 0.0
    zero_sum = True

    # iterative DFS; stack items: (node, history, parent, seqs tuple, vid, scal)
    stack = [(root, (), -1, (0,) * n, 0, 1.0)]
    while stack:
        node, hist, par, seqs, vid, scal = stack.pop()
        idx = len(kinds)
        parents.append(par)
        if isinstance(node, Decision):
            kinds.append(DECISION)
            p = node.player
            if not 0 <= p < n:
                raise GutsInputError(
                    f"decision node at history {_label_str(hist)}: player {p} out of range "
                    f"0..{n - 1}"
                )
            labels = tuple(node.actions)
            na = len(labels)
            first = temp_next[p]
            temp_next[p] += na
            rec = len(drec[p])
            drec[p].append((idx, seqs[p], first, na, hist, labels))
            orb = node.orbits
            if orb is None:
                dsym[p].append(-1)
            else:
                got = partitions[p].get(id(orb))
                if got is None:
                    arr = np.asarray(orb)
                    if arr.shape != (deals.num_types[p],) or not np.issubdtype(arr.dtype, np.integer):
                        raise GutsInputError(
                            f"decision node at history {_label_str(hist)}: orbits must be an int array "
                            f"over player {p}'s {deals.num_types[p]} types; got {arr.dtype} {arr.shape}")
                    got = partitions[p][id(orb)] = (len(partitions[p]), orb)
                dsym[p].append(got[0])
                quotient = True
            for a in range(na):
                temp_dec[p][first + a] = rec
            children = []
            for a, lab in enumerate(labels):
                s2 = seqs[:p] + (first + a,) + seqs[p + 1:]
                children.append((node.actions[lab], hist + (lab,), idx, s2, vid, scal))
            stack.extend(reversed(children))
        elif isinstance(node, Chance):
            kinds.append(CHANCE)
            total = np.zeros(D)
            children = []
            mult = node.multiplicity or {}
            quotient = quotient or bool(mult)
            for lab, (pr, child) in node.outcomes.items():
                k = mult.get(lab, 1)
                if isinstance(pr, float):
                    if not np.isfinite(pr) or pr < 0:
                        raise GutsInputError(
                            f"chance node at history {_label_str(hist)}: outcome {lab!r} has "
                            f"probability {pr!r} (must be finite and >= 0)"
                        )
                    total += pr
                    children.append((child, hist + (lab,), idx, seqs, vid, scal * pr * k))
                else:
                    key = id(pr)
                    if key not in checked_chance:
                        if pr.shape != (D,):
                            raise GutsInputError(
                                f"chance node at history {_label_str(hist)}: outcome {lab!r} "
                                f"probabilities must be a scalar or shape (D={D},); got {pr.shape}"
                            )
                        bad = ~np.isfinite(pr) | (pr < 0)
                        if bad.any():
                            raise GutsInputError(
                                f"chance node at history {_label_str(hist)}: outcome {lab!r} has "
                                f"probability {float(pr[bad][0])!r} (must be finite and >= 0)"
                            )
                        checked_chance[key] = pr  # keep referenced
                    total += pr
                    ck = (vid, key, k)
                    v2 = ctx_key.get(ck)
                    if v2 is None:
                        v2 = len(ctx_rows)
                        ctx_rows.append(ctx_rows[vid] * pr if k == 1 else ctx_rows[vid] * (pr * k))
                        ctx_key[ck] = v2
                    children.append((child, hist + (lab,), idx, seqs, v2, scal))
            # a quotient's representatives carry part of the probability (at most all of it)
            err = (np.maximum(total - 1.0, 0.0) if mult else np.abs(total - 1.0))[pos]
            if err.size and err.max() > PROB_TOL:
                d = int(np.flatnonzero(pos)[np.argmax(err)])
                raise GutsInputError(
                    f"chance node at history {_label_str(hist)}: outcome probabilities sum to "
                    f"{float(total[d])!r} at deal {d} (must sum to 1"
                    + (", at most 1 with multiplicities)" if mult else ")")
                )
            stack.extend(reversed(children))
        elif isinstance(node, Terminal):
            kinds.append(TERMINAL)
            off = node.offset
            if off.shape != (n,):
                raise GutsInputError(
                    f"terminal at history {_label_str(hist)}: payoff must have shape "
                    f"({n},) or ({n}, D={D}); got offsets of shape {off.shape}"
                )
            if not np.all(np.isfinite(off)) or not np.isfinite(node.scale):
                raise GutsInputError(
                    f"terminal at history {_label_str(hist)}: payoff contains NaN or inf"
                )
            if node.table is None or node.scale == 0.0:
                tid = -1
                lo = hi = 0.0
                mx = 0.0
            else:
                key = id(node.table)
                tid = table_index.get(key)
                if tid is None:
                    tab = node.table
                    if tab.shape != (n, D):
                        raise GutsInputError(
                            f"terminal at history {_label_str(hist)}: payoff table must have "
                            f"shape ({n}, D={D}); got {tab.shape}"
                        )
                    if not np.all(np.isfinite(tab)):
                        raise GutsInputError(
                            f"terminal at history {_label_str(hist)}: payoff contains NaN or inf"
                        )
                    tid = len(tables)
                    table_index[key] = tid
                    tables.append(tab)
                    tp = tab[:, pos]
                    cs = tp.sum(axis=0)
                    table_info.append((float(cs.min()), float(cs.max()), float(np.abs(tp).max())))
                lo, hi, mx = table_info[tid]
            sc = float(node.scale) if tid >= 0 else 0.0
            # zero-sum: sum_p payoff = sum(offset) + scale * colsum(table): linear in colsum
            s_off = float(off.sum())
            dev = max(abs(s_off + sc * lo), abs(s_off + sc * hi))
            mag = float(np.abs(off).max()) + abs(sc) * mx
            payoff_scale = max(payoff_scale, mag)
            if dev > ZERO_SUM_TOL * max(mag, 1.0):
                zero_sum = False
            t_node.append(idx)
            t_seq.append(seqs)
            t_vid.append(vid)
            t_scal.append(scal)
            t_tid.append(tid)
            t_off.append(off)
            t_scale.append(sc)
        else:
            raise GutsInputError(
                f"node at history {_label_str(hist)} is a {type(node).__name__}; expected "
                "Decision, Chance or Terminal"
            )

    if not t_node:
        raise GutsInputError("the game tree has no terminal node")
    return assemble(n, deals, kinds=kinds, parents=parents, drec=drec,
                    temp_next=temp_next, temp_dec=temp_dec, ctx_rows=ctx_rows, tables=tables,
                    terminals=Terminals(t_node, t_seq, t_vid, t_scal, t_tid, t_off, t_scale),
                    zero_sum=zero_sum, payoff_scale=payoff_scale,
                    symmetry=(dsym, [list(d.values()) for d in partitions]) if quotient else None)


@dataclass
class Terminals:
    """Per terminal (discovery order): node id, per-player sequence, context row, scalar,
    table id, per-player offset and table scale (the arguments ``t_*`` of :func:`assemble`)."""

    node: list
    seq: list
    vid: list
    scal: list
    tid: list
    off: list
    scale: list


def assemble(n, deals, *, kinds, parents, drec, temp_next, temp_dec, ctx_rows, tables,
             terminals: Terminals, zero_sum, payoff_scale, histories=None, symmetry=None):
    """Number sequences level by level and build the flat arrays (shared by the public
    tree compiler and the explicit-tree compiler).

    ``drec[p]`` = player p's decision records (node, parent temp sequence, first temp
    sequence, number of actions, key, action labels) in discovery order (a parent
    sequence is always discovered before its children); ``temp_dec[p]`` maps a temp
    sequence to its record. ``symmetry`` (a quotient): ``(dsym, partitions)``, per player the
    orbit partition of every decision record (-1 none) and the partitions' ``(id, orbit
    labels)``. ``histories`` (every node's history) is accepted and not kept:
    only decisions' keys are needed, and a tuple per terminal was the largest Python object
    of a big game (3P-MMH with a check: 45 MB).
    """
    t_node, t_seq, t_vid, t_scal, t_tid, t_off, t_scale = (
        terminals.node, terminals.seq, terminals.vid, terminals.scal, terminals.tid, terminals.off, terminals.scale)
    D = deals.num_deals
    prob = deals.prob
    info = deals.info
    # ---- per-player sequence numbering (level order) ----
    players = []
    temp_to_final = []
    for p in range(n):
        recs = drec[p]
        level = np.zeros(len(recs), dtype=np.int64)
        for r, (_, ptemp, _, _, _, _) in enumerate(recs):
            level[r] = 0 if ptemp == 0 else level[temp_dec[p][ptemp]] + 1
        t2f = np.zeros(temp_next[p], dtype=np.int64)
        order = []
        levels = []
        nxt = 1
        maxlev = int(level.max()) + 1 if len(recs) else 0
        by_level = [[] for _ in range(maxlev)]
        for r in range(len(recs)):
            by_level[level[r]].append(r)
        for L in range(maxlev):
            rs = sorted(by_level[L], key=lambda r: (t2f[recs[r][1]], r))
            dlo, slo = len(order), nxt
            for r in rs:
                _, _, tfirst, na, _, _ = recs[r]
                t2f[tfirst:tfirst + na] = np.arange(nxt, nxt + na)
                nxt += na
                order.append(r)
            levels.append([dlo, len(order), slo, nxt])
        H = len(order)
        dec_node = np.array([recs[r][0] for r in order], dtype=np.int64)
        dec_na = np.array([recs[r][3] for r in order], dtype=np.int64)
        dec_first = np.array([t2f[recs[r][2]] for r in order], dtype=np.int64)
        dec_parent = np.array([t2f[recs[r][1]] for r in order], dtype=np.int64)
        S1 = nxt
        seq_dec = np.full(S1, -1, dtype=np.int64)
        seq_parent = np.full(S1, -1, dtype=np.int64)
        if H:
            seq_dec[1:] = np.repeat(np.arange(H), dec_na)
            seq_parent[1:] = dec_parent[seq_dec[1:]]
        lev = []
        for dlo, dhi, slo, shi in levels:
            pars = dec_parent[dlo:dhi]
            uniq, starts = np.unique(pars, return_index=True)  # sorted within level
            lev.append((dlo, dhi, slo, shi, uniq, starts, dec_first[dlo:dhi] - slo))
        hists = [recs[r][4] for r in order]
        sym = _orbit_arrays(symmetry, p, order, dec_first, dec_na, S1, deals.num_types[p])
        players.append(
            PlayerTree(
                num_types=deals.num_types[p],
                num_seqs=S1,
                dec_node=dec_node,
                dec_first=dec_first,
                dec_num_actions=dec_na,
                dec_parent=dec_parent,
                seq_dec=seq_dec,
                seq_parent=seq_parent,
                histories=hists,
                action_labels=[recs[r][5] for r in order],
                levels=lev,
                index={h: i for i, h in enumerate(hists)},
                **sym,
            )
        )
        temp_to_final.append(t2f)

    Z = len(t_node)
    term_seq = np.array(t_seq, dtype=np.int64).T.reshape(n, Z)
    for p in range(n):
        term_seq[p] = temp_to_final[p][term_seq[p]]
    term_tid = np.array(t_tid, dtype=np.int64)
    term_vid = np.array(t_vid, dtype=np.int64)
    term_scal = np.array(t_scal, dtype=float)
    term_off = np.array(t_off, dtype=float).T.reshape(n, Z)
    term_scale = np.array(t_scale, dtype=float)
    ctx = np.array(ctx_rows) if len(ctx_rows) > 1 else prob[None, :]

    # constant terminals point at table 0 with scale 0 (a zero table if there is none)
    if not tables:
        tables.append(np.zeros((n, D)))

    perm, type_starts, type_present = [], [], []
    for p in range(n):
        pr = np.argsort(info[p], kind="stable")
        perm.append(pr)
        T = deals.num_types[p]
        counts = np.bincount(info[p], minlength=T)
        present = counts > 0
        type_present.append(np.flatnonzero(present))
        # reduceat starts of the present types only (an empty segment would repeat a value)
        type_starts.append((np.cumsum(counts) - counts)[present])

    return CompiledGame(
        num_players=n,
        num_deals=D,
        prob=prob,
        info=info,
        num_types=deals.num_types,
        kind=np.array(kinds, dtype=np.int8),
        parent=np.array(parents, dtype=np.int64),
        players=players,
        ctx=ctx,
        tables=tables,
        term_node=np.array(t_node, dtype=np.int64),
        term_seq=term_seq,
        term_vid=term_vid,
        term_scal=term_scal,
        term_tid=term_tid,
        term_offset=term_off,
        term_scale=term_scale,
        perm=perm,
        type_starts=type_starts,
        type_present=type_present,
        zero_sum=bool(zero_sum),
        payoff_scale=max(payoff_scale, np.finfo(float).tiny),
        quotient=symmetry is not None,
    )


def _orbit_arrays(symmetry, p, order, dec_first, dec_na, S1, T) -> dict:
    """Player p's ``seq_sym`` / ``sym_order`` / ``sym_start`` / ``sym_ncls`` (empty dict: none).
    A partition whose orbits are all single types is dropped (averaging would not change a value)."""
    if symmetry is None:
        return {}
    dsym, partitions = symmetry
    orders, starts, ncls, remap = [], [], [], {}
    for pid, labels in partitions[p]:
        lab = np.asarray(labels, dtype=np.int64)
        uniq, inv, cnt = np.unique(lab, return_inverse=True, return_counts=True)
        if cnt.max() <= 1:
            continue
        remap[pid] = len(orders)
        orders.append(np.argsort(inv, kind="stable").astype(np.int64))
        st = np.zeros(T + 1, dtype=np.int64)
        st[1:uniq.size + 1] = np.cumsum(cnt)
        starts.append(st)
        ncls.append(uniq.size)
    seq_sym = np.full(S1, -1, dtype=np.int64)
    for i, r in enumerate(order):
        k = remap.get(dsym[p][r], -1)
        if k >= 0:
            seq_sym[dec_first[i]:dec_first[i] + dec_na[i]] = k
    if not orders:
        return {}
    return dict(seq_sym=seq_sym, sym_order=np.array(orders), sym_start=np.array(starts),
                sym_ncls=np.array(ncls, dtype=np.int64))


def _build_chunks(cg) -> list:
    """Terminals sorted by table, at most CHUNK_ELEMS terminal x deal entries per chunk."""
    n, D, Z = cg.num_players, cg.num_deals, cg.num_terminals
    term_tid, term_vid, term_scal = cg.term_tid, cg.term_vid, cg.term_scal
    term_seq, term_off, term_scale = cg.term_seq, cg.term_offset, cg.term_scale
    tid_eff = np.where(term_tid < 0, 0, term_tid)
    players = cg.players
    order = np.argsort(term_tid, kind="stable")
    per = max(1, CHUNK_ELEMS // max(D, 1))
    chunks = []
    start = 0
    while start < Z:
        stop = min(Z, start + per)
        zs = order[start:stop]
        tids = term_tid[zs]
        real = np.unique(tids[tids >= 0])
        # constants have scale 0, so any table serves them: one real table -> broadcast
        single = int(real[0]) if real.size == 1 else (0 if real.size == 0 else -1)
        chunks.append(
            TerminalChunk(
                z=zs,
                tid=tid_eff[zs],
                single_table=single,
                vid=term_vid[zs],
                scal=term_scal[zs],
                seq=term_seq[:, zs],
                offset=term_off[:, zs],
                scale=term_scale[zs],
                num_seqs=tuple(players[p].num_seqs for p in range(n)),
            )
        )
        start = stop

    return chunks
