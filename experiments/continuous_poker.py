"""Continuous poker (seed 000) into results/continuous_poker/.

Figures 1-4 (bet/call functions, payoff squares, the value of limit poker over (L, U))
and the convergence of the discretised game's LP value to the closed-form value:

    python experiments/continuous_poker.py                 # everything (the LP grid to 2 000 hands: ~40 s)
    python experiments/continuous_poker.py --figures-only
    python experiments/continuous_poker.py --meshes 20,40,80 --sizes 3,5,9
    python experiments/continuous_poker.py --lp-only --jobs 2          # or --backend dask --scheduler ADDRESS
"""
import argparse
import sys

from guts.cli.guard import guarded
from guts.cli.options import add_sweep, sweep_args
from guts.studies import continuous_poker as study


def _ints(text):
    return tuple(int(t) for t in text.split(",") if t.strip())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=study.DEFAULT_OUT,
                   help="output folder (default: %(default)s; LP runs other than the full one go to a fresh "
                        "results/runs/continuous_poker-<time>/ unless --out is given)")
    p.add_argument("--meshes", type=_ints, default=study.LP_MESHES, help="hands M, comma-separated")
    p.add_argument("--sizes", type=_ints, default=study.LP_SIZES, help="size counts K, comma-separated")
    p.add_argument("--max-work", type=int, default=study.LP_MAX_WORK, help="skip (M, K) with M*M*K above this")
    p.add_argument("--figures-only", action="store_true")
    p.add_argument("--lp-only", action="store_true")
    p.add_argument("--quiet", action="store_true")
    add_sweep(p, cache=True, unit="LP points", cache_default="OUT/.cache")
    args = p.parse_args(argv)

    def work():
        if not args.lp_only:
            study.write_figures(args.out, echo=print)
        if not args.figures_only:
            _, rates = study.run_lp_convergence(meshes=args.meshes, sizes=args.sizes, max_work=args.max_work,
                                                out=args.out, echo=print, progress=not args.quiet,
                                                **sweep_args(args))
            print(rates.to_string(index=False))

    code, _ = guarded("experiments/continuous_poker.py", work)
    return code


if __name__ == "__main__":
    sys.exit(main())
