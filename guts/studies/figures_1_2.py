"""Figures 1 and 2 of the paper (§5): returns of players 2-3 against player 1's threshold.

Solves the 1 v. 2 game (paper: mesh 101, pseudo-bloc coalition; identical to the
full game for N = 2), splits the coalition's optimal strategy into its bloc
component A and its pseudo-bloc component B ``(0, p_3)``, and plots the coalition's
total expected return at the fixed point, ``-α_1 + β W`` (see :mod:`guts.studies.figures`),
against player 1's threshold for A, B (Figure 1) and for the optimal blend (Figure
2), marking player 1's best responses.  Writes results/fig1_components.png,
results/fig2_blend.png and the curves in results/figures_1_2.csv.

    python experiments/figures_1_2.py [--mesh 101] [--out results]
"""
from __future__ import annotations


from guts import solve_coalition
from guts.studies.figures import best_responses, coalition_returns, plot_blend, plot_components, split_components
from functools import partial

from guts.studies.output import AUTO, plan_output, publish, save_figure, write_csv, write_meta as _write_meta


def run(mesh: int = 101, size: int = 2, out=AUTO, echo=None) -> dict:
    """Solve, compute the curves, write the two figures and the data; return a summary.

    ``out``: see :func:`guts.studies.output.plan_output` (mesh 101, N = 2 regenerate ``results/``).
    """
    plan = plan_output("figures_1_2", out, {"mesh": mesh, "size": size}, {"mesh": 101, "size": 2},
                       targets=["figures_1_2.csv", "fig1_components.png", "fig2_blend.png"], echo=echo)
    out_dir = plan.folder
    write_meta = partial(_write_meta, plan=plan)
    r = solve_coalition(size, mesh, structure="pseudo-bloc", solver="oracle")
    data = coalition_returns(r)
    best = best_responses(r)
    parts = split_components(r)
    on_mesh = data[data.on_mesh]
    summary = {
        "size": size, "mesh": mesh, "coalition_value": r.coalition_value,
        "player1_value": r.player1_value,
        "component_A": [[list(p), w] for p, w in parts["A"]],
        "component_B": [[list(p), w] for p, w in parts["B"]],
        "weight_A": parts["weight_A"], "weight_B": parts["weight_B"],
        "player1_strategy": {str(k): v for k, v in r.player1_strategy.items()},
        "player1_best_responses_mesh": [float(b) for b in best],
        "blend_min_on_mesh": float(on_mesh.blend.min()),
        "blend_min_continuum": float(data.blend.min()),
        "argmin_continuum": float(data.threshold[data.blend.idxmin()]),
        "curve": "coalition return -alpha_1 + beta * W at the fixed point W = coalition_value",
    }
    with publish(plan, parameters={"mesh": mesh, "size": size}):
        write_csv(data, out_dir / "figures_1_2.csv")
        write_meta(out_dir / "figures_1_2.csv", {"size": size, "mesh": mesh, "structure": "pseudo-bloc",
                                                 "solver": "oracle"}, summary=summary)
        for name, fig in (("fig1_components.png", plot_components(data, r, best)),
                          ("fig2_blend.png", plot_blend(data, r, best))):
            save_figure(fig, out_dir / name)
            write_meta(out_dir / name, {"size": size, "mesh": mesh, "structure": "pseudo-bloc", "solver": "oracle"},
                       data="figures_1_2.csv")
    return summary
