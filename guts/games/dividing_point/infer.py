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
played just above at the top, and the others are stacked with the most aggressive first
action lowest, then the least aggressive later actions lowest -- the patent's own
convention in FIGS. 12 and 24 (bluff with the worst hands; bet-fold below bet-reraise).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guts._validate import check_int
from guts.errors import GutsInputError, SolverError

from .discrete import MeshSolution, solve_mesh
from .layout import Layout, make_layout
from .method import DividingPointResult, solve_layout
from .rules import P, BettingRules, GameStructure, TerminalNode, derive, label

__all__ = ["TIE_TOL", "MASS_TOL", "mesh_plan_returns", "infer_segments", "infer_layout", "InferredOrder",
           "infer_and_solve", "same_polynomial"]

#: Two plans whose returns at a mesh type differ by less than this (times 1 + P) tie.
TIE_TOL = 1e-7
#: Plan probabilities below this (LP round-off) are ignored.
MASS_TOL = 1e-7
#: How many neighbouring swaps to try when the stationary point breaks the inferred order.
MAX_SWAPS = 12

_AGGR = {"fold": 0, "pass": 1, "call": 2}


def _aggr(action: str) -> int:
    return _AGGR.get(action, 3)


def _stack_key(plan_name: str):
    acts = plan_name.split("-")
    return (-_aggr(acts[0]),) + tuple(_aggr(a) for a in acts[1:])


def _component_reached(structure, plan, other):
    node = structure.root
    while not isinstance(node, TerminalNode):
        if node.player == other:
            return node.history
        node = node.actions[plan.action_at(node.history)]
    return None


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
            comp = _component_reached(structure, plan, other)
            opp = [(structure.plan(other, comp, n), q) for n, q in sol.plan_probs[(other, comp)].items()] \
                if comp is not None else [(None, np.ones(M))]
        else:
            root = structure.root.history
            opp = [(structure.plan(other, root, n), q) for n, q in sol.plan_probs[(other, root)].items()
                   if _component_reached(structure, structure.plan(other, root, n), player) == component]
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


def infer_segments(structure: GameStructure, sol: MeshSolution, player: int, component):
    """Bottom-to-top ``[(plan, mass)]`` on one component (masses in units of the axis)."""
    M = sol.mesh
    probs = sol.plan_probs[(player, component)]
    names = list(probs)
    Q = np.array([np.clip(probs[n], 0.0, 1.0) for n in names])  # (plans, M)
    U = np.array([v for v in mesh_plan_returns(structure, sol, player, component).values()])
    tol = TIE_TOL * (1.0 + sol.pot)
    best = U.max(axis=0)
    opt = [frozenset(np.flatnonzero(U[:, k] >= best[k] - tol)) for k in range(M)]
    dom = Q.argmax(axis=0)
    entries = []  # (plan index, mass in types)
    k = 0
    while k < M:
        e = k
        if len(opt[k]) >= 2:
            while e + 1 < M and opt[e + 1] == opt[k]:
                e += 1
        if e > k:  # an indifference block of >= 2 types: restack canonically
            mass = Q[:, k:e + 1].sum(axis=1)
            used = [i for i in range(len(names)) if mass[i] > MASS_TOL]
            below = entries[-1][0] if entries else None
            above = int(dom[e + 1]) if e + 1 < M else None
            mid = sorted((i for i in used if i not in (below, above)), key=lambda i: _stack_key(names[i]))
            order = ([below] if below in used else []) + mid + ([above] if above in used and above != below else [])
            entries += [(i, mass[i]) for i in order]
        else:
            prev = entries[-1][0] if entries else None
            nxt = int(dom[k + 1]) if k + 1 < M else None
            used = [i for i in range(len(names)) if Q[i, k] > MASS_TOL]
            used.sort(key=lambda i: (0 if i == prev else (2 if i == nxt else 1), _stack_key(names[i])))
            entries += [(i, Q[i, k]) for i in used]
        k = e + 1
    merged = []
    for i, m in entries:
        if merged and merged[-1][0] == i:
            merged[-1][1] += m
        else:
            merged.append([i, m])
    total = sum(m for _, m in merged)
    return [(names[i], m / total) for i, m in merged]


def _point_names(player, component, n):
    tag = "P1" if player == 0 else "P2"
    comp = label(component).replace("-", "_")
    return [f"{tag}{'' if comp == 'root' else '_' + comp}_{k + 1}" for k in range(n)]


def infer_layout(structure: GameStructure, sol: MeshSolution):
    """``(layout, lp_points)``: the order read from the LP solution, and where the LP puts each point."""
    segs, values = {}, {}
    for p in (0, 1):
        for comp in structure.components[p]:
            runs = infer_segments(structure, sol, p, comp)
            plans = [r[0] for r in runs]
            names = _point_names(p, comp, len(plans) - 1)
            cum = np.cumsum([r[1] for r in runs])[:-1]
            text = plans[0]
            for nm, pl in zip(names, plans[1:]):
                text += f" | {nm} | {pl}"
            segs[(p, comp)] = text
            values.update(dict(zip(names, cum)))
    order = sorted(values, key=lambda n: values[n])
    return make_layout(structure, segs, order), values


@dataclass(frozen=True)
class InferredOrder:
    """The order read from the LP, the LP's estimate of each point and the certified solve."""

    layout: Layout
    lp_points: dict
    result: DividingPointResult
    swaps: tuple
    mesh: int
    lp_value: float


def infer_and_solve(rules: BettingRules, pot, mesh: int = 120, *, sol: MeshSolution | None = None,
                    game: str = "") -> InferredOrder:
    """Solve the mesh game by LP, infer the order, then solve and certify on the continuum.

    Raises
    ------
    SolverError
        If no certified equilibrium is reached after :data:`MAX_SWAPS` neighbour swaps.
    """
    mesh = check_int("mesh", mesh, 8)
    structure = derive(rules)
    if sol is None:
        sol = solve_mesh(rules, pot, mesh)
    layout, lp_points = infer_layout(structure, sol)
    swaps = []
    for _ in range(MAX_SWAPS + 1):
        res = solve_layout(rules, layout, pot, start=lp_points, game=game, warn=False)
        if res.converged or res.order_ok:
            break
        a, b = res.order_violations[0]
        if "0" in (a, b) or "1" in (a, b):
            break
        order = list(layout.order)
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]
        swaps.append((a, b))
        try:
            layout = make_layout(structure, {(s.player, s.component): _seg_text(s) for s in layout.segmentations},
                                 order)
        except GutsInputError:  # the swap contradicts a player's own sequence: give up
            break
    if not res.converged:
        raise SolverError(
            f"the order inferred from the LP at M = {mesh} gives no certified equilibrium "
            f"(order ok: {res.order_ok}, certificate {res.certificate:.3g}); try a finer mesh"
        )
    return InferredOrder(layout=layout, lp_points=dict(lp_points), result=res, swaps=tuple(swaps),
                         mesh=mesh, lp_value=sol.value)


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
    Eb = Eb.subs({sp.Symbol(n, real=True): sp.Symbol(ren[n] + "__tmp", real=True) for n in ren}, simultaneous=True)
    Eb = Eb.subs({sp.Symbol(v + "__tmp", real=True): sp.Symbol(v, real=True) for v in ren.values()})
    return True, ren, sp.expand(Ea - Eb) == 0
