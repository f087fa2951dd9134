"""Any engine game as an OpenSpiel game: :func:`to_openspiel_game`.

:func:`~.openspiel.from_openspiel` brings OpenSpiel games in; this module takes the other
direction, for games OpenSpiel does not have (three-player Mercer hold'em, a Gambit
``.efg`` file read by :func:`~.efg.read_efg`, any hand-built public tree): it writes the
engine game as an OpenSpiel Python game (Lanctot et al., *OpenSpiel: A Framework for
Reinforcement Learning in Games*, 2019; the ``pyspiel.Game`` / ``pyspiel.State``
subclasses of its ``python/games``), registered with ``pyspiel.register_game``, and
returns it with the :class:`~.openspiel.OpenSpielLink` that
:func:`~.openspiel.to_openspiel_policy` needs, so that any solution's policy is scored by
OpenSpiel's own algorithms (``exploitability.nash_conv``,
``expected_game_score.policy_value``).

The game played is exactly the engine game:

* a :class:`~.tree.PublicTreeGame`: the root chance node deals (one outcome per deal of
  positive probability, the action id being the deal's index), then the public tree:
  chance nodes (the outcomes of positive probability at that deal), decisions (the
  mover's actions, ids ``0 .. k - 1`` in the engine's order) and terminals (the payoffs
  at that deal).  Player p's information state string is
  ``"player=p type=<his type label> history=<public history>"``, so OpenSpiel's
  information sets are exactly the engine's (public history, type);
* an :class:`~.explicit.ExplicitGame`: its tree as it is, the information state string
  ``"player=p infoset=<the information-set key>"``.

Size.  OpenSpiel's Python algorithms (``TabularPolicy``, the best response of
``exploitability``) walk every history, a Python state object each, at some 10^4
histories a second; :func:`to_openspiel_game` therefore refuses games above
``max_histories`` (public node, deal) pairs, :data:`MAX_EXPORT_HISTORIES` by default.
"""
from __future__ import annotations

import functools
import numbers

import numpy as np

from ...errors import GutsInputError
from .explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal
from .openspiel import OpenSpielLink
from .tree import Chance, Decision, PublicTreeGame, Terminal
from .tree import require_full_game

__all__ = ["to_openspiel_game", "MAX_EXPORT_HISTORIES"]

#: Default budget of :func:`to_openspiel_game`: (public node, deal) pairs of the engine game
#: (the OpenSpiel game's histories, up to the deal node and the zero-probability branches).
#: OpenSpiel's ``exploitability.nash_conv`` on the exported game walks all of them a few times
#: in Python, about 10^4 pairs a second: a few minutes at this size (docs/keep_and_resume.md, "Exports").
MAX_EXPORT_HISTORIES = 1_000_000

_DECISION, _CHANCE, _TERMINAL = 0, 1, 2


class _Flat:
    """The engine tree expanded per path into flat lists indexed by node (node 0 the root).

    ``kind[i]``; ``player[i]`` (decisions, else -1); ``children[i]``; ``labels[i]`` (action /
    outcome labels, as strings for ``action_to_string``); ``probs[i]`` (chance: one row of
    probabilities per outcome, a float or an array over deals); ``payoff[i]`` (terminals:
    array ``(n, D)``); ``key[i]`` (decisions: the strategy key, the public history or the
    information-set label); ``hist[i]`` (the labels from the root).
    """

    def __init__(self, game):
        self.kind, self.player, self.children, self.labels = [], [], [], []
        self.probs, self.payoff, self.key, self.hist = [], [], [], []
        self.max_actions, self.max_outcomes, self.max_moves = 1, 1, 0
        explicit = isinstance(game, ExplicitGame)
        D = game.deals.num_deals
        dec, cha, ter = ((ExplicitDecision, ExplicitChance, ExplicitTerminal) if explicit
                         else (Decision, Chance, Terminal))
        stack = [(game.root, (), 0, None, 0)]         # node, history, moves so far, parent slot, child position
        while stack:
            node, hist, moves, parent, pos = stack.pop()
            i = len(self.kind)
            if parent is not None:
                self.children[parent][pos] = i
            if isinstance(node, dec):
                labs = list(node.actions)
                self._add(_DECISION, node.player, labs, None, None, node.infoset if explicit else hist, hist)
                self.max_actions = max(self.max_actions, len(labs))
                self.max_moves = max(self.max_moves, moves + 1)
                stack.extend((node.actions[lab], hist + (lab,), moves + 1, i, a)
                             for a, lab in reversed(list(enumerate(labs))))
            elif isinstance(node, cha):
                labs = list(node.outcomes)
                probs = [pair[0] if np.ndim(pair[0]) else float(pair[0]) for pair in node.outcomes.values()]
                self._add(_CHANCE, -1, labs, probs, None, None, hist)
                self.max_outcomes = max(self.max_outcomes, len(labs))
                stack.extend((node.outcomes[lab][1], hist + (lab,), moves, i, a)
                             for a, lab in reversed(list(enumerate(labs))))
            elif isinstance(node, ter):
                pay = node.payoffs[:, None] if explicit else node.payoff(D)
                self._add(_TERMINAL, -1, [], None, np.broadcast_to(pay, (game.num_players, D)), None, hist)
            else:                                           # the game's constructor checked the tree
                raise GutsInputError(f"node at history {hist!r} is a {type(node).__name__}; "
                                     "accepted: the node classes of the game's form")

    def _add(self, kind, player, labels, probs, payoff, key, hist):
        self.kind.append(kind)
        self.player.append(int(player))
        self.children.append([0] * len(labels))
        self.labels.append([str(lab) for lab in labels])
        self.probs.append(probs)
        self.payoff.append(payoff)
        self.key.append(key)
        self.hist.append(hist)


def _histories(game) -> int:
    """(public node, deal) pairs of the engine game: the OpenSpiel game's histories, up to the
    root deal node and the branches of probability zero, which the export leaves out."""
    return int(game.size.node_deal_pairs)


def to_openspiel_game(game, *, name: str | None = None, max_histories: int = MAX_EXPORT_HISTORIES):
    """The engine game ``game`` as an OpenSpiel (Python) game, with its strategy link.

    Parameters
    ----------
    game : PublicTreeGame or ExplicitGame
        Any engine game (built by a family, by hand, or read by :func:`~.efg.read_efg`).
    name : str, optional
        The short name the game is registered under (``pyspiel.load_game(name)`` then
        builds it again); default ``"guts_"`` + the first 16 hex digits of the game's
        fingerprint (:func:`~.fingerprint.game_fingerprint`).  Registering a name again
        replaces the earlier game of that name.
    max_histories : int
        Refuse games with more (public node, deal) pairs than this (one ``GutsInputError``
        line): OpenSpiel's Python algorithms walk every history.

    Returns
    -------
    (pyspiel.Game, OpenSpielLink)
        The game and the correspondence of its information states with ``game``'s
        strategy rows (also ``os_game.guts_link``, on every instance, those of
        ``pyspiel.load_game(name)`` too), so that
        ``to_openspiel_policy(game, strategies, os_game)`` (or
        ``solution.to_openspiel_policy(game, os_game)``) is the OpenSpiel
        ``TabularPolicy`` of any strategy profile of ``game``.

    Examples
    --------
    >>> from guts.engine.extensive import cfr_plus, nash_conv, to_openspiel_game, to_openspiel_policy
    >>> from guts.games.toy import kuhn_poker                       # doctest: +SKIP
    >>> g = kuhn_poker(); r = cfr_plus(g, max_iterations=200)       # doctest: +SKIP
    >>> os_game, link = to_openspiel_game(g)                        # doctest: +SKIP
    >>> from open_spiel.python.algorithms import exploitability     # doctest: +SKIP
    >>> pol = to_openspiel_policy(g, r.strategies, os_game, link=link)   # doctest: +SKIP
    >>> abs(exploitability.nash_conv(os_game, pol) - nash_conv(g, r.strategies)) < 1e-9  # doctest: +SKIP
    True
    """
    require_full_game(game, "the OpenSpiel export")
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise GutsInputError("to_openspiel_game needs OpenSpiel: pip install open_spiel") from None
    if not isinstance(game, (PublicTreeGame, ExplicitGame)):
        raise GutsInputError(f"game must be a PublicTreeGame or an ExplicitGame; got {type(game).__name__}")
    if isinstance(max_histories, bool) or not isinstance(max_histories, (numbers.Integral, np.integer)) \
            or max_histories < 1:
        raise GutsInputError(f"max_histories must be an integer >= 1; got {max_histories!r}")
    size = _histories(game)
    if size > max_histories:
        raise GutsInputError(
            f"the game {game.name or 'tree'} has {size:,} (public node, deal) pairs, over "
            f"max_histories={int(max_histories):,}; accepted: games within max_histories (OpenSpiel's "
            "Python algorithms walk every history: raise it only with time to spare)")
    if name is None:
        from .fingerprint import game_fingerprint

        name = "guts_" + game_fingerprint(game)["sha256"][:16]
    if not isinstance(name, str) or not name.strip() or any(c in name for c in "(),= \t\n"):
        raise GutsInputError(f"name must be a non-empty string without spaces, parentheses, commas or '='; "
                             f"got {name!r}")
    flat = _Flat(game)
    link_infosets, infostring = _link_tables(game, flat)
    n, deals = game.num_players, game.deals
    explicit = isinstance(game, ExplicitGame)
    live = [int(d) for d in np.flatnonzero(deals.prob > 0)]
    tl = deals.type_labels
    deal_names = ["deal " + "|".join(str(tl[p][deals.info[p, d]]) for p in range(n)) for d in range(deals.num_deals)]
    pays = [pay for pay, k in zip(flat.payoff, flat.kind) if k == _TERMINAL]
    lo = float(min(float(np.min(pay[:, live])) for pay in pays))
    hi = float(max(float(np.max(pay[:, live])) for pay in pays))
    U = pyspiel.GameType.Utility
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"guts export of {game.name or 'an engine game'}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=U.ZERO_SUM if game.zero_sum else U.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=flat.max_actions,
        max_chance_outcomes=max(flat.max_outcomes, 1 if explicit else deals.num_deals),
        num_players=n, min_utility=lo, max_utility=hi, utility_sum=0.0 if game.zero_sum else None,
        max_game_length=max(flat.max_moves, 1))
    table = _Table(flat, deals, live, deal_names, infostring, explicit)

    class ExportedGame(pyspiel.Game):
        """An engine game exported by :func:`to_openspiel_game`."""

        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})
            self.guts_table = table
            self.guts_link = OpenSpielLink(self, link_infosets, link_actions)

        def new_initial_state(self):
            return _state_class()(self, table)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _InfoStateObserver()

    link_actions = {(p, key): tuple(range(len(labs))) for p in range(n) for key, labs in game.action_labels(p).items()}
    pyspiel.register_game(game_type, ExportedGame)
    os_game = ExportedGame()
    return os_game, os_game.guts_link


def _link_tables(game, flat):
    """``infosets[string] = (player, key, type)`` of every decision row, and ``infostring[node]``:
    the node's strings by type (a tuple; one entry in the explicit form)."""
    infosets, infostring = {}, [None] * len(flat.kind)
    explicit = isinstance(game, ExplicitGame)
    tl = game.deals.type_labels
    for i, k in enumerate(flat.kind):
        if k != _DECISION:
            continue
        p, key = flat.player[i], flat.key[i]
        if explicit:
            strings = (f"player={p} infoset={key!r}",)
        else:
            strings = tuple(f"player={p} type={lab!r} history={key!r}" for lab in tl[p])
        for t, s in enumerate(strings):
            if infosets.setdefault(s, (p, key, t)) != (p, key, t):
                raise GutsInputError(f"information state {s!r} names two information sets of the game; "
                                     "accepted: labels whose repr tells them apart")
        infostring[i] = strings
    return infosets, infostring


class _Table:
    """What every state of one exported game reads (shared, never copied: states hold ints)."""

    def __init__(self, flat, deals, live, deal_names, infostring, explicit):
        self.flat, self.deals, self.explicit = flat, deals, explicit
        self.deal_outcomes = [(d, float(deals.prob[d])) for d in live]
        self.deal_names = deal_names
        self.infostring = infostring

    def __deepcopy__(self, memo):
        """Shared by every state of the game: OpenSpiel's ``clone`` deep-copies a Python state's
        attributes, which must not copy the game's tables."""
        return self

    def outcomes(self, node, deal):
        """(action, probability) of the positive-probability outcomes of a chance node at ``deal``."""
        out = []
        for a, pr in enumerate(self.flat.probs[node]):
            q = float(pr) if np.ndim(pr) == 0 else float(pr[deal])
            if q > 0:
                out.append((a, q))
        return out


@functools.cache
def _state_class():
    import pyspiel

    class ExportedState(pyspiel.State):
        """A history of an exported game: the deal (-1 before it) and the engine node (ints only,
        so OpenSpiel's clone, a deep copy of the attributes, stays cheap)."""

        def __init__(self, os_game, table=None):
            super().__init__(os_game)
            self._t = table if table is not None else os_game.guts_table
            self._deal = 0 if self._t.explicit else -1
            self._node = 0

        def _kind(self):
            return _CHANCE if self._deal < 0 else self._t.flat.kind[self._node]

        def current_player(self):
            k = self._kind()
            if k == _TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            if k == _CHANCE:
                return pyspiel.PlayerId.CHANCE
            return self._t.flat.player[self._node]

        def _legal_actions(self, player):
            return list(range(len(self._t.flat.children[self._node])))

        def chance_outcomes(self):
            if self._deal < 0:
                return list(self._t.deal_outcomes)
            return self._t.outcomes(self._node, self._deal)

        def _apply_action(self, action):
            if self._deal < 0:
                self._deal = int(action)
            else:
                self._node = self._t.flat.children[self._node][int(action)]

        def _action_to_string(self, player, action):
            if self._deal < 0:
                return self._t.deal_names[int(action)]
            return self._t.flat.labels[self._node][int(action)]

        def is_terminal(self):
            return self._deal >= 0 and self._t.flat.kind[self._node] == _TERMINAL

        def returns(self):
            if not self.is_terminal():
                return [0.0] * self._t.deals.num_players
            return [float(x) for x in self._t.flat.payoff[self._node][:, self._deal]]

        def information_string(self, player):
            """At the player's own decision the engine's information set; elsewhere, in a public
            tree, the same (type, public history) form (he has seen every public move), and
            in the explicit form the node (OpenSpiel's algorithms ask only the mover)."""
            t = self._t
            if self._deal < 0:
                return f"player={player} (before the deal)"
            if t.flat.kind[self._node] == _DECISION and t.flat.player[self._node] == player:
                strings = t.infostring[self._node]
                return strings[0] if t.explicit else strings[int(t.deals.info[player, self._deal])]
            if t.explicit:
                return f"player={player} node={self._node}"
            lab = t.deals.type_labels[player][int(t.deals.info[player, self._deal])]
            return f"player={player} type={lab!r} history={t.flat.hist[self._node]!r}"

        def __str__(self):
            if self._deal < 0:
                return "(deal)"
            return f"{self._t.deal_names[self._deal]} node {self._node}"

    return ExportedState


class _InfoStateObserver:
    """OpenSpiel's observer protocol (``string_from``): the information state string; no tensor."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.information_string(player)

