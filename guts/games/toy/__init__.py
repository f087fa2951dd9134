"""Toy extensive-form games built in the engine's public-tree form: Kuhn and Leduc poker."""
from .kuhn import kuhn_poker
from .leduc import LEDUC_CARDS, leduc_poker

__all__ = ["kuhn_poker", "leduc_poker", "LEDUC_CARDS"]
