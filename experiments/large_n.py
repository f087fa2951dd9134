"""Coalition values for large N (pseudo-bloc, thresholds in [0, 1]) into results/large_n.csv.

Thin script over the library; same options as ``guts curve`` (see ``--help``):

    python experiments/large_n.py --jobs 2                      # N = 1..30 and up to 100000
    python experiments/large_n.py --sizes 1-15,200 --jobs 2
    python experiments/large_n.py --backend dask --scheduler tcp://127.0.0.1:8786

Each size is solved on a mesh uniform in log N(1 - p), refined around the strategies
until two certificates with continuous best responses bracket the value to 1e-9.
Finished sizes are cached in results/.cache, so an interrupted run resumes.
"""
import sys

from guts.cli import main

if __name__ == "__main__":
    sys.exit(main(["curve", *sys.argv[1:]]))
