"""The continuum limit of the 1 v. N pseudo-bloc game into results/.

Writes results/continuum.csv (N = 1..15: value without a mesh, certified interval,
strategies), results/mesh_refinement.csv and results/mesh_refinement.png (mesh values
M = 21..801 converging to it).  Thin script over the library; same options as
``guts continuum`` (see ``--help``):

    python experiments/continuum.py --sizes 1-15 --meshes 21,51,101,201,401,801
"""
import sys

from guts.cli import main

if __name__ == "__main__":
    sys.exit(main(["continuum", *sys.argv[1:]]))
