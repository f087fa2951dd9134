"""Hundal and Reitzen, US patent 6,129,631 (2000): the four games for P = 1..10, LP mesh refinement, the order read
from the LP and the printed equations checked, into results/dividing_point/.

Thin script over :mod:`guts.studies.dividing_point`:

    python experiments/dividing_point.py [--out results] [--lp-mesh 200] [--meshes 25,50,100,200,400,1000,2000]
"""
import argparse
import sys

from guts.cli.guard import guarded
from guts.cli.options import add_quiet, add_sweep, sweep_args


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=None, help="output folder, OUT/dividing_point/ is written (default: results/ for "
                   "the full run, else a fresh results/runs/dividing_point-<time>/)")
    p.add_argument("--lp-mesh", type=int, default=200, help="mesh of the LP check in the P = 1..10 sweep")
    p.add_argument("--meshes", default="25,50,100,200,400,1000,2000", help="meshes of the refinement study (P = 3)")
    p.add_argument("--order-meshes", default="100,150,200", help="meshes at which the order is read from the LP")
    p.add_argument("--order-pots", default="1,3,10", help="pots at which the order is read from the LP")
    add_sweep(p, "local processes (the P = 1..10 sweep and the refinement)")
    add_quiet(p)
    args = p.parse_args(argv)

    def go():
        from guts.studies.dividing_point import run
        from guts.studies.output import AUTO

        s = run(out=AUTO if args.out is None else args.out, lp_mesh=args.lp_mesh, meshes=tuple(int(m) for m in args.meshes.split(",")),
                order_meshes=tuple(int(m) for m in args.order_meshes.split(",")),
                order_pots=tuple(float(x) if "." in x else int(x) for x in args.order_pots.split(",")), echo=print,
                progress=not args.quiet, **sweep_args(args))
        print(s["rates"].to_string(index=False))
        o = s["ordering"]
        print(o.groupby("game")[["certified", "same_E1"]].mean().to_string())
        v = s["verdicts"]
        print(v[["game", "pot", "mesh", "mesh_used", "order", "certified", "certified_at_this_mesh", "value"]].to_string(index=False))
        print(s["printed"]["verdict"].value_counts().to_string())
        return 0

    code, result = guarded("experiments/dividing_point.py", go)
    return code or result


if __name__ == "__main__":
    sys.exit(main())
