"""One sub-package per game family; games import the engine, never each other."""
