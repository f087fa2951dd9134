"""``guts figures``: Figures 1 and 2 of Buck et al. (2022), §5, into fig1_components.png, fig2_blend.png.

    guts figures [--mesh 101] [--out results]
"""
from __future__ import annotations

from guts.cli.options import add_mesh, add_out, out_folder

HELP = "Figures 1 and 2 (Buck et al. 2022, §5): the 1 v. 2 coalition's components and blend"


def add_subparser(subparsers):
    p = subparsers.add_parser("figures", help=HELP, description=HELP)
    add_mesh(p)
    add_out(p, "figures_1_2")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.games.guts.coalition import format_profile
    from guts.studies.figures_1_2 import run as run_figures

    s = run_figures(mesh=args.mesh, out=out_folder(args), echo=print)
    print(f"1 v. 2 at mesh {s['mesh']}: coalition value W = {s['coalition_value']:.10f}")
    print("A (bloc):", ", ".join(f"({format_profile(p)}) {w:.4f}" for p, w in s["component_A"]),
          "| B:", ", ".join(f"({format_profile(p)}) {w:.4f}" for p, w in s["component_B"]))
    print(f"player 1 best responses on the mesh: {s['player1_best_responses_mesh']}; "
          f"min of the blend on the mesh {s['blend_min_on_mesh']:.10f}, "
          f"off the mesh {s['blend_min_continuum']:.10f} at {s['argmin_continuum']:g}")
    return 0
