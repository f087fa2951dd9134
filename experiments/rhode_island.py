"""Rhode Island hold'em's value with its certified bracket into results/rhode_island.csv.

Solved on the suit quotient of the public tree by DCFR; the solve resumes from its checkpoint
(results/.cache/rhode_island.ckpt), so each call narrows the bracket:

    python experiments/rhode_island.py                        # 85 minutes of solving (the committed run)
    python experiments/rhode_island.py --time-limit 600       # 10 minutes more
"""
import argparse
import sys

from guts.cli.guard import guarded
from guts.studies import rhode_island as study


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--time-limit", type=float, default=study.TIME_LIMIT,
                   help="seconds of solving in this call (default: %(default)s)")
    p.add_argument("--out", default=None, help="output folder (default: results/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)

    def work():
        df = study.run(out=study.AUTO if args.out is None else args.out, time_limit=args.time_limit,
                       progress=not args.quiet, echo=print)
        print(df.to_string(index=False))

    code, _ = guarded("experiments/rhode_island.py", work)
    return code


if __name__ == "__main__":
    sys.exit(main())
