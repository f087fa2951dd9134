"""The artefacts that write ``results/``: sweeps over result objects. Solvers never write files."""
