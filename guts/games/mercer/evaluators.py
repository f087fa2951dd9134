import importlib, sys; sys.modules[__name__] = importlib.import_module("guts.games.poker.evaluators")  # alias, see __init__
