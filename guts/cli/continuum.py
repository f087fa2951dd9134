"""``guts continuum``: the 1 v. N game without a mesh (continuum limit) and mesh refinement toward it."""
from __future__ import annotations

from guts.engine.tolerances import MAX_GAP_TOL
from guts.cli.options import add_sizes, add_study_options, number_arg, study_args
from guts.studies.continuum import DEFAULT_MESHES as _MESHES, MAX_CONTINUUM_SIZE

HELP = "the 1 v. N game without a mesh (continuum limit) and mesh refinement"
DEFAULT_MESHES = ",".join(map(str, _MESHES))


def add_subparser(subparsers):
    p = subparsers.add_parser("continuum", help=HELP, description=HELP)
    add_sizes(p, maximum=MAX_CONTINUUM_SIZE)
    add_sizes(p, DEFAULT_MESHES, option="--meshes", minimum=2, help="meshes M for the refinement study, e.g. 21,51,101")
    p.add_argument("--no-refinement", action="store_true", help="only the continuum table, no mesh refinement")
    p.add_argument("--tol", type=number_arg("tol", float, 0.0, strict=True, maximum=MAX_GAP_TOL), default=1e-10,
                   help="double-oracle gap tolerance")
    add_study_options(p, "continuum", what="parallel processes")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from guts.studies.continuum import run_continuum_study

    from guts.cli.table1 import not_certified_exit

    cont, ref, _ = run_continuum_study(sizes=args.sizes, meshes=args.meshes, tol=args.tol,
                                       refinement=not args.no_refinement, **study_args(args))
    return not_certified_exit(args._prog, cont["N"], cont["converged"])
