"""The game on a mesh of hands, solved exactly by the engine's sequence-form LP.

Each player's hand is one of ``M`` equally likely values ``(i + 1/2) / M`` (midpoints),
independently: ``D = M^2`` deals; equal hands split a showdown pot.  The public betting
tree is the one :mod:`.rules` derives.  As ``M`` grows the value tends to the continuum
value of the dividing-point solution; the LP's strategy also gives every player's plan
on each mesh type, from which :mod:`.infer` reads the order of the dividing points.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from guts._validate import check_int
from guts.engine.result import Certificate, Details, Solution
from .mesh_lp import MAX_MESH, MESH_BYTES, _aggressiveness, engine_history, mesh_hands, mesh_memory_estimate
from .rules import P, BettingRules, GameStructure, TerminalNode, derive

__all__ = ["mesh_hands", "discretised_game", "engine_history", "plan_probabilities", "MeshSolution",
           "solve_mesh", "mesh_strategy_from_intervals", "FORMULATIONS",
           "MESH_BYTES", "mesh_memory_estimate"]


def discretised_game(rules: BettingRules, pot, mesh: int, perturbation: float = 0.0):
    """The :class:`guts.engine.extensive.PublicTreeGame` of ``rules`` on an ``M``-point mesh.

    Payoffs are returns (net gains, ante included), so the game value is the patent's E1.

    ``perturbation = eps > 0`` adds ``eps * (a1 (x - 1/2) - a2 (y - 1/2))`` to P1's payoff
    (and its negative to P2's) at every terminal, ``a_i`` the aggressiveness of player i's
    sequence (fold 0, pass 1, call 2, bet or raise 3 per action): a supermodular tie-break
    that steers the LP, among the many equilibria of games with whole intervals of
    indifference, to one where more aggressive plans go with better hands.  It is only a
    selection device: every solution is then certified on the *unperturbed* game.
    """
    from guts.engine.extensive import Decision, PublicTreeGame, Terminal
    from guts.engine.extensive.building import fold_terminal, uniform_mesh

    from .method import exact_pot

    p = float(exact_pot(pot))
    mesh = check_int("mesh", mesh, 2)
    structure = derive(rules)
    labels = tuple(f"{h:.6g}" for h in mesh_hands(mesh))
    deals, share = uniform_mesh(mesh, labels)  # one share table for every showdown terminal
    info = deals.info
    D = mesh * mesh

    def num(x):
        return float(sp.sympify(x).subs(P, p))

    hands = mesh_hands(mesh)
    tilt = (np.stack([hands[info[0]] - 0.5, -(hands[info[0]] - 0.5)]),
            np.stack([-(hands[info[1]] - 0.5), hands[info[1]] - 0.5]))

    def build(node):
        if isinstance(node, TerminalNode):
            contrib = np.array([num(c) for c in node.contrib])
            if perturbation:
                if node.folder is None:
                    pay = contrib.sum() * share - contrib[:, None]
                else:
                    w = 1 - node.folder
                    pay = np.repeat(-contrib[:, None], D, axis=1)
                    pay[w] = contrib.sum() - contrib[w]
                for p_ in (0, 1):
                    pay = pay + perturbation * _aggressiveness(node.sequence(p_)) * tilt[p_]
                return Terminal(pay)
            if node.folder is None:
                return Terminal.showdown(contrib, share)
            return fold_terminal(contrib, winner=1 - node.folder)
        return Decision(node.player, {a: build(ch) for a, ch in node.actions.items()})

    return PublicTreeGame(build(structure.root), deals, 2, name=f"{rules.name} P={pot} M={mesh}")


def plan_probabilities(structure: GameStructure, strategies, player: int, component) -> dict:
    """``{plan name: array (M,)}``: probability that each mesh type follows each plan.

    The engine gives behaviour ``strategies[player][history]`` (types x actions); a plan's
    probability is the product of its choices' probabilities (reduced strategies).
    """
    out = {}
    for plan in structure.plans[(player, component)]:
        prob = None
        for h, a in plan.choices:
            node = structure.decisions[h]
            col = list(node.actions).index(a)
            beh = np.asarray(strategies[player][engine_history(h)])[:, col]
            prob = beh.copy() if prob is None else prob * beh
        out[plan.name] = prob
    return out


@dataclass(frozen=True)
class MeshSolution(Details):
    """The LP solution of the mesh game.

    ``value``: P1's expected return (the LP's); ``exploitability`` of the LP strategies
    (engine's certificate); ``plan_probs[(player, component)] = {plan: (M,)}``;
    ``converged`` and ``num_iter``: the engine LP's.
    """

    rules: BettingRules
    pot: float
    mesh: int
    value: float
    exploitability: float
    plan_probs: dict
    strategies: tuple
    seconds: float
    converged: bool = False
    num_iter: int = 0
    formulation: str = "prefix-sum"

    values = property(lambda self: (self.value, -self.value), doc="``(value, -value)``: P1, P2.")
    method = "lp"

    @property
    def certificate(self) -> Certificate:
        """The exploitability of the LP strategies in the (unperturbed) mesh game."""
        return Certificate("exploitability", exploitability=float(self.exploitability),
                                 nash_conv=2.0 * float(self.exploitability))


#: Formulations of the mesh LP accepted by :func:`solve_mesh`.
FORMULATIONS = ("prefix-sum", "sequence-form")

def solve_mesh(rules: BettingRules, pot, mesh: int, perturbation: float = 0.0,
               formulation: str = "prefix-sum") -> Solution:
    """Solve the mesh game by LP and certify the solution with the engine's best response.

    ``formulation="prefix-sum"`` (default): the LP of :mod:`.mesh_lp`, the sequence form
    with prefix sums over the opponent's hands (O(M) non-zeros per sequence; 12-31x faster
    at 400 hands on the patent's games, ``benchmarks/mesh_lp.py``), P2's mirror LP if the
    first pair does not certify.  ``"sequence-form"``: the engine's
    :func:`guts.engine.extensive.solve_lp` of :func:`discretised_game` (O(M^2) non-zeros),
    the formulation used before.  Same game, same LP value; the two may return different
    optimal vertices where the game has several equilibria.

    The reported ``value`` and ``exploitability`` are always the engine's evaluation of the
    returned strategies in the *unperturbed* mesh game (with ``perturbation > 0``, see
    :func:`discretised_game`, the LP solves the perturbed game); ``converged`` is the
    engine's certificate (exploitability ``<= LP_CERT_TOL`` times the payoff scale).
    """
    import time

    from guts._validate import check_choice, check_memory

    formulation = check_choice("formulation", formulation, FORMULATIONS)
    mesh = check_int("mesh", mesh, 2, MAX_MESH)
    check_memory(f"the {mesh}-hand mesh game", mesh_memory_estimate(rules, mesh, formulation), "use a smaller mesh")
    from guts.engine.extensive import expected_values, nash_conv  # after the checks: numba's import is slow
    t0 = time.perf_counter()
    structure = derive(rules)
    if formulation == "sequence-form":
        from guts.engine.extensive import solve_lp

        game = discretised_game(rules, pot, mesh, perturbation)
        # a vertex (crossover after the interior-point method): the order of the dividing
        # points is read from it (:mod:`.infer`); an interior optimum mixes several orders
        res = solve_lp(game, crossover=True)
        strategies, nit = tuple(res.strategies), int(res.num_iter)
        value, expl, converged = float(res.value), float(res.exploitability), bool(res.converged)
        if perturbation:
            plain = discretised_game(rules, pot, mesh)
            value = float(expected_values(plain, strategies)[0])
            expl = float(nash_conv(plain, strategies)) / 2.0
    else:
        from guts.engine.tolerances import LP_CERT_TOL

        from .mesh_lp import solve_mesh_plans

        plain = discretised_game(rules, pot, mesh)
        # the LP's certificate: in the game it solved (the perturbed one, as the sequence form's)
        solved = discretised_game(rules, pot, mesh, perturbation) if perturbation else plain
        bound = LP_CERT_TOL * solved.compiled.payoff_scale
        nit = 0
        for side in (0, 1):                # P1's LP; if its pair does not certify, P2's (the mirror)
            lp = solve_mesh_plans(rules, pot, mesh, perturbation, side=side)
            strategies, nit = lp.strategies, nit + lp.num_iter
            lp_expl = float(nash_conv(solved, strategies)) / 2.0
            converged = lp_expl <= bound
            if converged:
                break
        value = float(expected_values(plain, strategies)[0])
        expl = float(nash_conv(plain, strategies)) / 2.0 if perturbation else lp_expl
        if not converged:
            import warnings

            from guts.errors import ConvergenceWarning

            warnings.warn(f"prefix-sum mesh LP: exploitability of the returned pair {lp_expl:.3g} exceeds the "
                          f"certificate bound {bound:.3g}", ConvergenceWarning, stacklevel=2)
    probs = {}
    for p in (0, 1):
        for comp in structure.components[p]:
            probs[(p, comp)] = plan_probabilities(structure, strategies, p, comp)
    return Solution.of(MeshSolution(rules=rules, pot=float(pot), mesh=int(mesh), value=value,
                        exploitability=expl, plan_probs=probs,
                        strategies=tuple(strategies), seconds=time.perf_counter() - t0,
                        converged=converged, num_iter=nit, formulation=formulation))


def mesh_strategy_from_intervals(structure: GameStructure, strategy, mesh: int):
    """Behaviour strategies (engine format) of an interval strategy played on the mesh.

    A type plays the plan of the interval holding its hand value; decision nodes a plan
    does not reach get the uniform distribution (they are never played).
    """
    hands = mesh_hands(mesh)
    strategies = ({}, {})
    for h, node in structure.decisions.items():
        strategies[node.player][engine_history(h)] = np.full((mesh, len(node.actions)), 1.0 / len(node.actions))
    for (p, comp), (breaks, plans) in strategy.parts.items():
        idx = np.clip(np.searchsorted(breaks, hands, side="right") - 1, 0, len(plans) - 1)
        for t, k in enumerate(idx):
            for h, a in plans[k].choices:
                node = structure.decisions[h]
                row = np.zeros(len(node.actions))
                row[list(node.actions).index(a)] = 1.0
                strategies[p][engine_history(h)][t] = row
    return strategies
