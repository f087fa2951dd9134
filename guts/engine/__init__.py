"""Game-agnostic solvers: matrix games, the recursive fixed point and its certificates,
extensive-form games. Never imports :mod:`guts.games` or :mod:`guts.studies`."""
