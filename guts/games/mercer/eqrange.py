import importlib, sys; sys.modules[__name__] = importlib.import_module("guts.games.poker.mercer.eqrange")  # alias, see __init__
