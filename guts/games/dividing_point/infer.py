"""Infer the order of the dividing points from the LP's solution on a mesh.

The patent asks the user to *assume* an order (FIG. 9 step 930).  Here the exact LP
solution of the mesh game is read instead: every mesh type's plan probabilities give,
bottom to top, the sequence of plans on each player's axis and where it changes; the
changes, sorted, give the total order.  The method of :mod:`.method` is then run on
that order and certified; if its stationary point breaks the order at two neighbouring
points (a near-tie the mesh could not resolve), the two are swapped and it is re-solved.

Indifference blocks.  On some stretches of hands several plans pay the same *constant*
amount (e.g. P1's worst hands: bluff bet then fold, bluff bet then re-raise, or pass and
fold all lose every showdown they reach).  Any arrangement of those plans inside the
stretch, with the same masses, is an equilibrium, and a vertex of the LP may interleave
them.  Such stretches (consecutive types with the same set of >= 2 optimal plans) are
rearranged canonically: the plan also played just below stays at the bottom, the one
played just above at the top (except in the bottom block), and the others are stacked
with plans that never bet on top, then the most aggressive first action lowest, then the
least aggressive later actions lowest -- the patent's own convention in FIGS. 12 and 24
(bluff with the worst hands; bet-fold below bet-reraise below a bluff check-raise).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guts._validate import check_int
from guts.errors import GutsInputError, SolverError

from .discrete import MAX_MESH, MeshSolution, solve_mesh
from .layout import Layout, make_layout
from .method import DividingPointResult, solve_layout
from .rules import P, BettingRules, GameStructure, component_reached, derive, label

__all__ = ["TIE_TOL", "MASS_TOL", "mesh_plan_returns", "read_component", "infer_layout", "InferredOrder",
           "infer_and_solve", "same_polynomial"]

#: Two plans whose returns at a mesh type differ by less than this (times 1 + P) tie.
TIE_TOL = 1e-7
#: Plan probabilities below this (LP round-off) are ignored.
MASS_TOL = 1e-7
#: Positions and masses read from the LP are compared after rounding to this many decimals.
POSITION_DECIMALS = 9
#: How many neighbouring swaps to try when the stationary point breaks the inferred order.
MAX_SWAPS = 12

_AGGR = {"fold": 0, "pass": 1, "call": 2}


def _aggr(action: str) -> int:
    return _AGGR.get(action, 3)


def _stack_key(plan_name: str):
    """Bottom-to-top order inside an indifference block (the patent's FIGS. 12 and 24):
    plans that never bet or raise on top; the others with the most aggressive first action
    lowest, then the least aggressive later actions lowest."""
    acts = plan_name.split("-")
    passive = all(_aggr(a) < 3 for a in acts)
    return (passive, -_aggr(acts[0])) + tuple(_aggr(a) for a in acts[1:])


def mesh_plan_returns(structure: GameStructure, sol: MeshSolution, player: int, component) -> dict:
    """``{plan: (M,)}``: each mesh type's expected return from each plan against the other
    player's LP strategy (ties at equal hands split the pot)."""
    M = sol.mesh
    pot = sol.pot
    first = structure.rules.first
    other = 1 - player
    t = np.arange(M)
    higher = (t[:, None] > t[None, :]).astype(float)
    lower = (t[:, None] < t[None, :]).astype(float)
    out = {}
    for plan in structure.plans[(player, component)]:
        u = np.zeros(M)
        if player == first:
            comp = component_reached(structure, plan, other)
            opp = [(structure.plan(other, comp, n), q) for n, q in sol.plan_probs[(other, comp)].items()] \
                if comp is not None else [(None, np.ones(M))]
        else:
            root = structure.root.history
            opp = [(structure.plan(other, root, n), q) for n, q in sol.plan_probs[(other, root)].items()
                   if component_reached(structure, structure.plan(other, root, n), player) == component]
        for oplan, q in opp:
            term = structure.play(plan, oplan) if oplan is not None else structure.play(plan, plan)
            if term.folder is not None:
                r = float(term.return_to(player, 1 - term.folder).subs(P, pot))
                u += r * q.sum() / M
            else:
                amt = float(term.amount().subs(P, pot))
                u += amt * ((higher - lower) @ q) / M  # equal hands split: 0
        out[plan.name] = u
    return out


def _common(opt, k, e):
    out = opt[k]
    for j in range(k + 1, e + 1):
        out = out & opt[j]
    return out


def _last_run(entries):
    """The plan of the last run of entries worth at least one mesh type (or None)."""
    run_plan, run_mass = None, 0.0
    for i, m, _ in reversed(entries):
        if run_plan is None or i == run_plan:
            run_plan, run_mass = i, run_mass + m
            if run_mass >= 1.0 - MASS_TOL:
                return run_plan
        else:
            run_plan, run_mass = i, m
            if run_mass >= 1.0 - MASS_TOL:
                return run_plan
    return None


@dataclass
class _Seg:
    plan: str
    mass: float        # in units of the axis
    block: int | None  # index of the indifference block it was read from


@dataclass(frozen=True)
class _Block:
    start: int          # first mesh type
    stop: int           # last mesh type
    optimal: frozenset  # plan names optimal at every type of the block


def read_component(structure: GameStructure, sol: MeshSolution, player: int, component):
    """Read one component of the LP strategy: bottom-to-top segments and indifference blocks.

    Returns ``(segments, blocks)``; ``segments`` are ``_Seg(plan, mass, block)``.
    """
    M = sol.mesh
    probs = sol.plan_probs[(player, component)]
    names = list(probs)
    Q = np.array([np.clip(probs[n], 0.0, 1.0) for n in names])  # (plans, M)
    U = np.array([v for v in mesh_plan_returns(structure, sol, player, component).values()])
    tol = TIE_TOL * (1.0 + sol.pot)
    best = U.max(axis=0)
    opt = [frozenset(np.flatnonzero(U[:, k] >= best[k] - tol)) for k in range(M)]
    dom = Q.argmax(axis=0)
    used_at = [frozenset(np.flatnonzero(Q[:, k] > MASS_TOL)) for k in range(M)]
    entries = []  # (plan index, mass in types, block id)
    blocks = []
    k = 0
    while k < M:
        # an indifference block: the plans the LP uses over it are all optimal at every type
        e, used = k, set(used_at[k])
        if len(opt[k]) >= 2 and used <= opt[k]:
            while e + 1 < M:
                common = _common(opt, k, e + 1)
                if len(common) < 2 or not (used | used_at[e + 1]) <= common:
                    break
                e += 1
                used |= used_at[e]
        if e > k:  # an indifference block: restack what the LP plays in it canonically
            mass = Q[:, k:e + 1].sum(axis=1)
            below = _last_run(entries)  # the last plan played on a whole type or more
            above = int(dom[e + 1]) if e + 1 < M else None
            if k == 0:  # the bottom block: pure convention, no continuity pin
                below = above = None
            mid = sorted((i for i in used if i not in (below, above)), key=lambda i: _stack_key(names[i]))
            order = ([below] if below in used else []) + mid + ([above] if above in used and above != below else [])
            bid = len(blocks)
            blocks.append(_Block(k, e, frozenset(names[i] for i in _common(opt, k, e))))
            entries += [(i, mass[i], bid) for i in order]
        else:
            e = k
            prev = entries[-1][0] if entries else None
            nxt = int(dom[k + 1]) if k + 1 < M else None
            used = [i for i in range(len(names)) if Q[i, k] > MASS_TOL]
            used.sort(key=lambda i: (0 if i == prev else (2 if i == nxt else 1), _stack_key(names[i])))
            entries += [(i, Q[i, k], None) for i in used]
        k = e + 1
    segs = []
    for i, m, b in entries:
        if segs and segs[-1].plan == names[i]:
            segs[-1].mass += m
            if segs[-1].block is None:
                segs[-1].block = b
        else:
            segs.append(_Seg(names[i], float(m), b))
    total = sum(sg.mass for sg in segs)
    for sg in segs:
        sg.mass /= total
    return segs, blocks


def _point_names(player, component, n):
    tag = "P1" if player == 0 else "P2"
    comp = label(component).replace("-", "_")
    return [f"{tag}{'' if comp == 'root' else '_' + comp}_{k + 1}" for k in range(n)]


def _layout_from_segments(structure, comp_segs: dict):
    """Layout (points named by position) and the segments' cumulative positions."""
    segs_text, values = {}, {}
    for (p, comp), segs in comp_segs.items():
        plans = [sg.plan for sg in segs]
        names = _point_names(p, comp, len(plans) - 1)
        cum = np.cumsum([sg.mass for sg in segs])[:-1]
        text = plans[0]
        for nm, pl in zip(names, plans[1:]):
            text += f" | {nm} | {pl}"
        segs_text[(p, comp)] = text
        values.update({n: float(v) for n, v in zip(names, cum)})
    # positions are sums of LP probabilities: round before sorting so that last-bit noise (numpy's
    # SIMD sums depend on memory alignment) cannot reorder two points at the same position
    order = sorted(values, key=lambda n: round(values[n], POSITION_DECIMALS))
    return make_layout(structure, segs_text, order), values


def infer_layout(structure: GameStructure, sol: MeshSolution):
    """``(layout, lp_points)``: the order read from the LP solution, and where the LP puts each point."""
    comp_segs = {}
    for p in (0, 1):
        for comp in structure.components[p]:
            comp_segs[(p, comp)] = read_component(structure, sol, p, comp)[0]
    return _layout_from_segments(structure, comp_segs)


@dataclass(frozen=True)
class InferredOrder:
    """The order read from the LP, repaired and certified.

    ``layout``/``result``: the certified order and its solution; ``lp_points``: where the
    LP put each point of the order first read; ``steps``: the repairs and convention moves
    applied, each accepted only because the re-solved point certified.
    """

    layout: Layout
    lp_points: dict
    result: DividingPointResult
    steps: tuple
    mesh: int
    lp_value: float
    first_layout: Layout


def _merge(segs):
    out = []
    for sg in segs:
        if out and out[-1].plan == sg.plan:
            out[-1] = _Seg(sg.plan, out[-1].mass + sg.mass, out[-1].block if out[-1].block is not None else sg.block)
        else:
            out.append(_Seg(sg.plan, sg.mass, sg.block))
    return out


def _restack_bottom(segs, blocks, plan, mass):
    """Insert ``plan`` into the bottom indifference block (block 0 starting at type 0)."""
    bottom = [sg for sg in segs if sg.block == 0]
    rest = [sg for sg in segs if sg.block != 0]
    if not bottom:
        return None
    pool = {}
    for sg in bottom:
        pool[sg.plan] = pool.get(sg.plan, 0.0) + sg.mass
    pool[plan] = pool.get(plan, 0.0) + mass
    return _merge([_Seg(p, pool[p], 0) for p in sorted(pool, key=_stack_key)] + rest)


def _candidates(comp_segs, comp_blocks, mesh, keep_plans: bool = False):
    """Layout changes to try: tied segments moved to the bottom indifference block (the
    patent's convention: bluff with the worst hands), then tiny segments dropped (unless
    ``keep_plans``), then fragments of a plan that has another segment on the component
    dropped, smallest first."""
    drops, fragments, moves = [], [], []
    for key, segs in comp_segs.items():
        blocks = comp_blocks[key]
        counts = {}
        for sg in segs:
            counts[sg.plan] = counts.get(sg.plan, 0) + 1
        for i in sorted(range(len(segs)), key=lambda i: round(segs[i].mass, POSITION_DECIMALS)):
            if len(segs) < 2:
                break
            what = f"drop a {segs[i].mass * mesh:.2f}-type {segs[i].plan} segment at {label(key[1])}"
            new = _merge(segs[:i] + segs[i + 1:])
            if counts[segs[i].plan] > 1 and not (keep_plans and segs[i].block == 0):
                fragments.append((what, key, new))  # (the convention keeps the bottom block's bluffs)
            elif segs[i].mass < 2.0 / mesh and not keep_plans:
                drops.append((what, key, new))
        if not (blocks and blocks[0].start == 0):
            continue
        for i, sg in enumerate(segs):
            if sg.block not in (None, 0) and sg.plan in blocks[0].optimal:
                new = _restack_bottom(segs[:i] + segs[i + 1:], blocks, sg.plan, sg.mass)
                if new is not None:
                    moves.append((f"move {sg.plan} at {label(key[1])} to the bottom block", key, new))
    return moves + drops + fragments


class _Failed:
    """Stands for a layout whose stationarity equations have no solution."""

    converged = False
    order_ok = False
    certificate = float("inf")
    order_violations = ()


def _solve_or_fail(rules, layout, pot, values, game):
    try:
        return solve_layout(rules, layout, pot, start=values, game=game, warn=False)
    except SolverError:  # singular and inconsistent: no stationary point for this order
        return _Failed()


def _solve(rules, structure, comp_segs, pot, game):
    try:
        layout, values = _layout_from_segments(structure, comp_segs)
    except GutsInputError:
        return None, _Failed(), []
    res = _solve_or_fail(rules, layout, pot, values, game)
    swaps = []
    seen = {layout.order}
    for _ in range(MAX_SWAPS):
        if res.converged or res.order_ok or not res.order_violations:
            break
        a, b = res.order_violations[0]
        if "0" in (a, b) or "1" in (a, b):
            break
        seg = next((sg for sg in layout.segmentations if a in sg.points and b in sg.points), None)
        if seg is not None:
            # two points of one axis crossed: the plan between them has negative length in the
            # continuum (a sliver of the mesh LP) -- remove it, and the point left over
            new = _collapse(structure, layout, seg, a, b)
            if new is None or new.order in seen:
                break
            seen.add(new.order)
            res2 = _solve_or_fail(rules, new, pot, values, game)
            if not res2.converged:  # kept only when it certifies: otherwise the other repairs decide
                break
            layout, res = new, res2
            swaps.append(f"remove the {seg.plans[seg.points.index(a) + 1]} segment between {a} and {b}")
            continue
        trial_order = list(layout.order)
        i, j = trial_order.index(a), trial_order.index(b)
        trial_order[i], trial_order[j] = trial_order[j], trial_order[i]
        if tuple(trial_order) in seen:  # the swap would undo an earlier one
            break
        seen.add(tuple(trial_order))
        order = list(layout.order)
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]
        layout = make_layout(structure, {(s.player, s.component): _seg_text(s) for s in layout.segmentations}, order)
        res = _solve_or_fail(rules, layout, pot, values, game)
        swaps.append(f"swap {a} and {b}")
    return layout, res, swaps


def _collapse(structure, layout, seg, a, b):
    """``layout`` without the segment of ``seg`` between its points ``a`` and ``b``."""
    i = seg.points.index(a)
    plans = list(seg.plans)
    points = list(seg.points)
    del plans[i + 1]
    if plans[i] == plans[i + 1]:  # the neighbours are the same plan: they merge
        del plans[i + 1]
        gone = {a, b}
    else:
        gone = {b}
    points = [pt for pt in points if pt not in gone]
    if not points and len(plans) > 1:
        return None
    texts = {}
    for sg in layout.segmentations:
        if sg is seg:
            text = plans[0]
            for nm, pl in zip(points, plans[1:]):
                text += f" | {nm} | {pl}"
            texts[(sg.player, sg.component)] = text
        else:
            texts[(sg.player, sg.component)] = _seg_text(sg)
    try:
        return make_layout(structure, texts, [pt for pt in layout.order if pt not in gone])
    except GutsInputError:
        return None


#: Meshes tried, in this order after the one asked for, when the order read at one mesh
#: does not certify (a vertex of the mesh LP can resolve a near-tie or a sliver of a few
#: types either way; small pots need fine meshes because the bluffing regions scale
#: with P).
FALLBACK_MESHES = (80, 120, 160, 200, 300, 400)

#: The mesh LP the order is read from: the engine's sequence form.  The order is read
#: from ONE optimal vertex, and where the mesh game has intervals of indifference the
#: faster prefix-sum LP (:mod:`.mesh_lp`, same value) returns other vertices: game c at
#: P = 0.3 read at M = 80 certifies from the sequence form's vertex, not from the
#: prefix-sum one.  The recorded orders (``results/dividing_point/ordering.csv``) are
#: the sequence form's.
READ_FORMULATION = "sequence-form"
#: Fewest hands per player of a mesh the order is read at.
MIN_MESH = 8


def _why(res) -> str:
    """What failed, in words, for a layout's stationary point."""
    if isinstance(res, _Failed):
        return "the stationarity equations of the order read have no solution"
    if not res.order_ok:
        a, b = res.order_violations[0]
        return f"the stationary point breaks the order read ({a} > {b})"
    who = "P1" if res.gains[0] >= res.gains[1] else "P2"
    return (f"the stationary point respects the order read but is not an equilibrium "
            f"({who} gains {res.max_gain:.2g} by a best response on the continuum)")


def _rank(res) -> float:
    """The gain a repair must beat: the best-response gain of an order-respecting point, ``inf``
    for a point that breaks its order or an order with no stationary point (any order-respecting
    repair is progress)."""
    return res.max_gain if res.order_ok else float("inf")


class _NotCertified(Exception):
    pass


def _infer_at_mesh(rules, structure, pot, mesh, sol, game, convention, max_steps) -> InferredOrder:
    """One mesh: read the order from the LP solution, repair it, solve and certify."""
    if sol is None:
        sol = solve_mesh(rules, pot, mesh, formulation=READ_FORMULATION)
    comp_segs, comp_blocks = {}, {}
    for p in (0, 1):
        for comp in structure.components[p]:
            comp_segs[(p, comp)], comp_blocks[(p, comp)] = read_component(structure, sol, p, comp)
    first_layout, lp_points = _layout_from_segments(structure, comp_segs)
    layout, res, steps = _solve(rules, structure, comp_segs, pot, game)
    # repair: drop tiny segments / move tied ones while not certified
    for _ in range(max_steps):
        if res.converged:
            break
        for why, key, new in _candidates(comp_segs, comp_blocks, mesh):
            trial = dict(comp_segs)
            trial[key] = new
            lay2, res2, sw = _solve(rules, structure, trial, pot, game)
            simpler = lay2 is not None and layout is not None and len(lay2.order) < len(layout.order)
            if res2.converged or (res2.order_ok and (res2.max_gain < _rank(res)
                                                     or (simpler and res2.max_gain <= 10 * _rank(res)))):
                comp_segs, layout, res = trial, lay2, res2
                steps += [why] + sw
                break
        else:
            break
    if not res.converged:
        raise _NotCertified(_why(res))
    if convention:
        for _ in range(max_steps):
            for why, key, new in _candidates(comp_segs, comp_blocks, mesh, keep_plans=True):
                trial = dict(comp_segs)
                trial[key] = new
                lay2, res2, sw = _solve(rules, structure, trial, pot, game)
                if res2.converged:
                    comp_segs, layout, res = trial, lay2, res2
                    steps += [why + " (convention)"] + sw
                    break
            else:
                break
    return InferredOrder(layout=layout, lp_points=dict(lp_points), result=res, steps=tuple(steps),
                         mesh=mesh, lp_value=sol.value, first_layout=first_layout)


def infer_and_solve(rules: BettingRules, pot, mesh: int = 120, *, sol: MeshSolution | None = None,
                    game: str = "", convention: bool = True, max_steps: int = 8,
                    meshes=FALLBACK_MESHES, hints=()) -> InferredOrder:
    """Solve the mesh game by LP, read the order, repair it, solve and certify on the continuum.

    The order is read first at ``mesh`` (from ``sol`` when given).  A reading that does not
    certify is not the end: the orders of ``hints`` (layouts, e.g. one certified at a
    neighbouring pot) are tried at this pot, then the order is read again at each mesh of
    ``meshes`` in turn; the first certified order is returned (``mesh`` says where it was
    read).  Every answer is certified on the continuum, whichever mesh it came from, so the
    result does not depend on which vertex one mesh LP happened to return.

    Parameters
    ----------
    convention : bool
        After a certified order is found, also try dropping tiny segments and moving tied
        segments into the bottom indifference block (the patent's convention of bluffing
        with the worst hands); each change is kept only if the re-solved point still
        certifies.
    meshes : sequence of int
        Further meshes to read the order at, in order, if ``mesh`` fails (``()``: none).
    hints : sequence of Layout
        Orders to try before the further meshes.

    Raises
    ------
    SolverError
        If no certified equilibrium is found; the message says, for each mesh and hint,
        what failed (no solution, the order broken, or which player gains how much).
    """
    mesh = check_int("mesh", mesh, MIN_MESH, MAX_MESH)
    meshes = [check_int("meshes", m, MIN_MESH, MAX_MESH) for m in meshes]
    structure = derive(rules)
    failures = []
    try:
        return _infer_at_mesh(rules, structure, pot, mesh, sol, game, convention, max_steps)
    except _NotCertified as exc:
        failures.append(f"M = {mesh}: {exc}")
    for k, hint in enumerate(hints):
        res = _solve_or_fail(rules, hint, pot, None, game)
        if res.converged:
            return InferredOrder(layout=hint, lp_points={}, result=res, steps=(f"order of hint {k + 1}",),
                                 mesh=0, lp_value=float("nan"), first_layout=hint)
        failures.append(f"hint {k + 1}: {_why(res)}")
    for m in meshes:
        if m == mesh:
            continue
        try:
            io = _infer_at_mesh(rules, structure, pot, m, None, game, convention, max_steps)
        except _NotCertified as exc:
            failures.append(f"M = {m}: {exc}")
            continue
        return InferredOrder(layout=io.layout, lp_points=io.lp_points, result=io.result,
                             steps=(f"the order read at M = {mesh} did not certify; read at M = {m}",) + io.steps,
                             mesh=m, lp_value=io.lp_value, first_layout=io.first_layout)
    raise SolverError(
        f"{game or rules.name} at P = {pot}: no order read from the mesh LPs gives a certified "
        "equilibrium; " + "; ".join(failures)
    )


def _seg_text(seg):
    text = seg.plans[0]
    for nm, pl in zip(seg.points, seg.plans[1:]):
        text += f" | {nm} | {pl}"
    return text


def same_polynomial(rules: BettingRules, layout_a: Layout, layout_b: Layout):
    """Do two layouts describe the same strategies and give the same E1 up to renaming?

    Returns ``(same_shape, renaming, same_E1)``: ``same_shape`` when every component has the
    same plan sequence (then ``renaming`` maps ``layout_b``'s names to ``layout_a``'s), and
    ``same_E1`` when the expected-return polynomials coincide after renaming -- then the two
    orders differ only in pairs of points that never meet at a showdown.
    """
    import sympy as sp

    from .method import equations

    seg_a = {(s.player, s.component): s for s in layout_a.segmentations}
    seg_b = {(s.player, s.component): s for s in layout_b.segmentations}
    if set(seg_a) != set(seg_b) or any(seg_a[k].plans != seg_b[k].plans for k in seg_a):
        return False, {}, False
    ren = {}
    for k in seg_a:
        ren.update(dict(zip(seg_b[k].points, seg_a[k].points)))
    _, Ea, _ = equations(rules, layout_a)
    _, Eb, _ = equations(rules, layout_b)
    tmp = {sp.Symbol(n, real=True): sp.Symbol(ren[n] + "__tmp", real=True) for n in ren}
    Eb = Eb.subs(tmp, simultaneous=True)
    Eb = Eb.subs({sp.Symbol(v + "__tmp", real=True): sp.Symbol(v, real=True) for v in ren.values()})
    return True, ren, sp.expand(Ea - Eb) == 0
