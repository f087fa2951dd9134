"""Lazy package attributes (PEP 562): ``import guts.games.holdem`` costs nothing until a
name is used, so a command or a script loads only what it needs (cold start)."""
from __future__ import annotations

import importlib

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: dict):
    """``(__getattr__, __dir__)`` for a package whose names live in submodules.

    ``exports`` maps each public name to the submodule (relative, e.g. ``".tree"``) that
    defines it. The first access imports that submodule and caches the name in the
    package's namespace, so later accesses cost a dict lookup.
    """
    mod_globals = importlib.import_module(package).__dict__

    def __getattr__(name):
        try:
            sub = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(sub, package), name)
        mod_globals[name] = value
        return value

    def __dir__():
        return sorted(set(mod_globals) | set(exports))

    return __getattr__, __dir__
