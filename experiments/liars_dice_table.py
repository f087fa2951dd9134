"""Liar's Dice values (OpenSpiel's rules) into results/liars_dice.csv.

Exact values where the sequence-form LP reaches (verified by exact best responses in rational
arithmetic), CFR+ brackets beyond:

    python experiments/liars_dice_table.py                          # the full table (~30 min on a shared 2-core machine)
    python experiments/liars_dice_table.py --cases 1v1:2-6          # a partial run (results/runs/...)
    python experiments/liars_dice_table.py --cases 2v1:6 --cfr-iterations 300 --out /tmp/ld
"""
import argparse
import sys

from guts.cli.guard import guarded
from guts.studies import liars_dice as study


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", default=study.DEFAULT_CASES,
                   help="games <d0>v<d1>:<faces or a-b>[:auto|lp|cfr+], comma-separated (default: %(default)s)")
    p.add_argument("--cfr-iterations", type=int, default=study.CFR_ITERATIONS,
                   help="CFR+ iterations of the games beyond the LP (default: %(default)s)")
    p.add_argument("--out", default=None,
                   help="output folder (default: results/ for the full default run, else a fresh results/runs/...)")
    p.add_argument("--no-cache", action="store_true", help=f"do not read or write {study.DEFAULT_CACHE}")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)

    def work():
        df = study.run(args.cases, out=study.AUTO if args.out is None else args.out,
                       cfr_iterations=args.cfr_iterations, progress=not args.quiet, echo=print,
                       cache=None if args.no_cache else "default")
        print(df[["dice", "faces", "value", "exact_value", "lower", "upper", "seconds", "method"]].to_string(index=False))

    code, _ = guarded("experiments/liars_dice_table.py", work)
    return code


if __name__ == "__main__":
    sys.exit(main())
