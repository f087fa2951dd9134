"""``guts continuum``: the 1 v. N game without a mesh (continuum limit) and mesh refinement toward it."""
from __future__ import annotations

from guts.cli.options import add_jobs, add_out, add_quiet, add_sizes, number_arg

HELP = "the 1 v. N game without a mesh (continuum limit) and mesh refinement"
DEFAULT_MESHES = "21,51,101,201,401,801"


def add_subparser(subparsers):
    p = subparsers.add_parser("continuum", help=HELP, description=HELP)
    add_sizes(p)
    add_sizes(p, DEFAULT_MESHES, option="--meshes", minimum=2,
              help=f"meshes for the refinement study (default {DEFAULT_MESHES})")
    p.add_argument("--no-refinement", action="store_true", help="only the continuum table, no mesh refinement")
    p.add_argument("--tol", type=number_arg("tol", float, 0.0, strict=True), default=1e-10,
                   help="double-oracle gap tolerance (default 1e-10)")
    add_jobs(p, "parallel processes for the refinement")
    add_out(p)
    add_quiet(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.continuum import run_continuum_study

    run_continuum_study(sizes=args.sizes, meshes=args.meshes, tol=args.tol, jobs=args.jobs, out=args.out,
                        progress=not args.quiet, refinement=not args.no_refinement, echo=print)
    out = args.out.rstrip("/")
    print(f"wrote {out}/continuum.csv" + ("" if args.no_refinement else
                                           f", {out}/mesh_refinement.csv, {out}/mesh_refinement.png"))
    return 0
