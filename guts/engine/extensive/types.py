"""Type names of the extensive-form engine's public functions.

``Game``: anything the solvers take, a :class:`~.tree.PublicTreeGame` or an
:class:`~.explicit.ExplicitGame` (both derive from ``tree._GameBase``: ``compiled``,
``deals``, ``num_players``, ``zero_sum``, ``name``).  ``Strategy``: one player's behaviour,
``{history: array (num_types, num_actions)}``.  ``Profile``: one ``Strategy`` per player.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence, Union

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - names for the annotations only
    from .explicit import ExplicitGame
    from .tree import PublicTreeGame

__all__ = ["Game", "Strategy", "Profile"]

Game = Union["PublicTreeGame", "ExplicitGame"]
Strategy = Mapping[tuple, np.ndarray]
Profile = Sequence[Strategy]
