"""OpenSpiel games in and out: :func:`from_openspiel` and :func:`to_openspiel_policy`.

OpenSpiel (Lanctot et al., *OpenSpiel: A Framework for Reinforcement Learning in
Games*, 2019) is an optional extra: ``pyspiel`` is imported only inside these functions.

Two target forms:

* **explicit** (:class:`~.explicit.ExplicitGame`), for any finite sequential OpenSpiel
  game with explicit chance: the whole game tree, information sets keyed by OpenSpiel's
  ``information_state_string`` (perfect recall is checked by ``ExplicitGame``);
* **public tree** (:class:`~.tree.PublicTreeGame`), when the game is *poker-shaped*: the
  initial run of chance nodes deals private information (a player's type is his
  information state right after it), and afterwards every action and chance outcome is
  public.  Checked, not assumed: after the deal the public tree must have the same
  players and legal actions for every deal, and OpenSpiel's information states must be
  exactly the pairs (public history, type).  Kuhn, Leduc and ``universal_poker`` (limit
  betting) have this shape, and then the vectorised solvers work on whole type vectors.

Strategy keys.  Explicit form: ``strategies[p][information_state_string]`` = array
``(1, num_actions)``.  Public tree: ``strategies[p][public_history]`` = array
``(num_types[p], num_actions)``, a history being the tuple of action / chance labels
after the deal.  Action labels are OpenSpiel's ``action_to_string`` (the action id as
a string when those are not unique at a node).  Either way the imported game carries
``game.openspiel`` (:class:`OpenSpielLink`), which :func:`to_openspiel_policy` uses to
turn any strategy profile back into an OpenSpiel ``TabularPolicy``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._validate import check_choice
from ...errors import GutsInputError
from .explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal
from .tree import Chance, Deals, Decision, PublicTreeGame, Terminal

__all__ = ["from_openspiel", "to_openspiel_policy", "OpenSpielLink", "MAX_IMPORT_NODES", "MAX_OPENSPIEL_STATES",
           "estimate_tree_size"]

#: Default budget of OpenSpiel states (game-tree nodes) walked by :func:`from_openspiel`
#: (overridable with ``max_nodes``): games estimated far above it are refused before the
#: walk, and the walk stops with ``GutsInputError`` as soon as it is exceeded.  The walk
#: covers about 15 000 nodes a second (tic-tac-toe's 549 946 nodes took 36 s), so this budget
#: ends any import within a minute; it holds Liar's Dice with one six-sided die each (294 876
#: node-deal pairs) and every game of the benchmarks.
MAX_IMPORT_NODES = 400_000
#: Former name of :data:`MAX_IMPORT_NODES`.
MAX_OPENSPIEL_STATES = MAX_IMPORT_NODES
#: Random root-to-leaf paths of the pre-flight size estimate (:func:`estimate_tree_size`).
PREFLIGHT_PROBES = 32
#: The pre-flight refuses a game whose estimated size exceeds the budget by this factor
#: (the estimate is unbiased but noisy; the walk's own count catches the games in between).
PREFLIGHT_MARGIN = 10.0


@dataclass(frozen=True)
class OpenSpielLink:
    """How an imported game maps onto its OpenSpiel original.

    ``infosets[information_state_string] = (player, key, type)``: the strategy row
    ``strategies[player][key][type]``; ``actions[(player, key)]`` = the OpenSpiel action
    ids of the columns of that row.
    """

    game: object
    infosets: dict
    actions: dict


def _check_registered_name(pyspiel, text: str) -> None:
    """One ``GutsInputError`` line for a game name OpenSpiel does not register, with the closest
    registered names (``difflib``); the whole list is ``pyspiel.registered_names()``."""
    import difflib

    name = text.split("(", 1)[0].strip()
    names = list(pyspiel.registered_names())
    if name in names:
        return
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise GutsInputError(f"OpenSpiel has no game {name!r}{hint}; accepted: a name pyspiel.registered_names() "
                         f"lists ({len(names)} games), with its parameters, e.g. kuhn_poker(players=3)")


def _check_pyspiel_game(os_game):
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise GutsInputError("from_openspiel needs OpenSpiel: pip install open_spiel") from None
    if isinstance(os_game, str):
        _check_registered_name(pyspiel, os_game)  # before load_game, which prints every name on stderr
        try:
            os_game = pyspiel.load_game(os_game)
        except Exception as exc:  # pyspiel raises RuntimeError/SpielError on bad names
            # its message may list every registered game: keep the first line
            first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
            raise GutsInputError(f"OpenSpiel cannot load {os_game!r} ({first}); accepted: a name "
                                 "pyspiel.registered_names() lists, with its parameters") from None
    if not hasattr(os_game, "new_initial_state") or not hasattr(os_game, "get_type"):
        raise GutsInputError(f"expected a pyspiel game or a game string; got {type(os_game).__name__}")
    gt = os_game.get_type()
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise GutsInputError(
            f"OpenSpiel game {gt.short_name!r} has {gt.dynamics}; accepted: sequential games "
            "(convert simultaneous games with pyspiel.convert_to_turn_based)")
    if gt.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise GutsInputError(
            f"OpenSpiel game {gt.short_name!r} has sampled chance; accepted: explicit or deterministic chance")
    if not gt.provides_information_state_string and \
            gt.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise GutsInputError(
            f"OpenSpiel game {gt.short_name!r} provides no information_state_string; "
            "accepted: games that do (or perfect-information games)")
    return pyspiel, os_game


def _labels(names, ids):
    """Action labels of one node: OpenSpiel's strings when unique, else the ids."""
    return tuple(names) if len(set(names)) == len(names) else tuple(str(a) for a in ids)


def _nodes_text(n) -> str:
    return f"{int(n):,}".replace(",", " ")


#: Nodes between two updates of the import's progress bar (shown only past this many
#: nodes: small games import silently in well under a second).
_PROGRESS_STEP = 50_000


class _Counter:
    def __init__(self, cap, progress=False, desc="OpenSpiel import"):
        self.n, self.cap = 0, int(cap)
        self.bar, self.desc = None, None
        self.show(progress, desc)

    def show(self, progress, desc):
        """Show a progress bar (nodes walked against the budget) from ``_PROGRESS_STEP`` nodes on."""
        if progress:
            self.desc = desc

    def _update(self):
        if self.bar is None:
            from ..progress import progress_bar

            self.bar = progress_bar(total=self.cap, desc=f"{self.desc} (nodes, budget)", enabled=True, leave=False)
        self.bar.update(_PROGRESS_STEP)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def tick(self, name):
        self.n += 1
        if self.desc is not None and self.n % _PROGRESS_STEP == 0:
            self._update()
        if self.n > self.cap:
            self.close()
            raise GutsInputError(
                f"OpenSpiel game {name!r} stopped after {_nodes_text(self.n - 1)} nodes, the budget; accepted: "
                f"games under max_nodes={self.cap} (--max-nodes on guts solve-game; memory grows with it)")


def estimate_tree_size(os_game, *, probes: int = PREFLIGHT_PROBES, random_state=0, stop_above=None) -> float:
    """Estimated number of nodes of an OpenSpiel game tree, from random root-to-leaf paths.

    Knuth's estimator (D. E. Knuth, *Estimation of the efficiency of backtrack programs*,
    1975): along a path that picks a uniformly random child at every node, the sum over
    depths of the product of the branching factors met so far is an unbiased estimate of
    the number of nodes; the mean over ``probes`` paths is returned.  Chance nodes count
    their outcomes as children (the tree, not its probability).  ``stop_above``: return as
    soon as the mean is known to exceed it (one path alone can show it), so that games such
    as chess are refused after a few plies.
    """
    rng = np.random.default_rng(random_state)
    total = 0.0
    limit = None if stop_above is None else float(stop_above) * probes
    for _ in range(int(probes)):
        state = os_game.new_initial_state()
        width, est = 1.0, 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                moves = [a for a, _ in state.chance_outcomes()]
            else:
                moves = state.legal_actions()
            if not moves:
                break
            width *= len(moves)
            est += width
            if limit is not None and total + est > limit:
                return (total + est) / probes
            state.apply_action(moves[int(rng.integers(len(moves)))])
        total += est
    return total / probes


def _preflight(os_game, budget):
    """Refuse at once a game whose tree is obviously far above ``budget`` nodes."""
    length = int(os_game.max_game_length())
    try:                                 # max_game_length() counts only the players' moves
        length += int(os_game.max_chance_nodes_in_history())
    except Exception:                    # not every game answers: probe then
        length += 20
    branch = max(int(os_game.num_distinct_actions()), int(os_game.max_chance_outcomes()), 1)
    # a tree of depth L and branching b has at most (b^(L+1) - 1)/(b - 1) nodes
    bound = length + 1 if branch == 1 else (float(branch) ** min(length + 1, 20) - 1) / (branch - 1)
    if bound <= budget:
        return
    threshold = PREFLIGHT_MARGIN * budget
    est = estimate_tree_size(os_game, stop_above=threshold)
    if est > threshold:
        name = os_game.get_type().short_name
        raise GutsInputError(
            f"OpenSpiel game {name!r} has an estimated 10^{np.log10(est):.1f} nodes or more (random paths; "
            f"max_game_length {length}, {os_game.num_distinct_actions()} distinct actions, "
            f"{os_game.max_chance_outcomes()} chance outcomes), refused before expanding it; accepted: "
            f"games under max_nodes={int(budget)} (--max-nodes on guts solve-game)")


def from_openspiel(os_game, *, form: str = "auto", max_nodes: int | None = None, max_states: int | None = None,
                   progress: bool = False):
    """An OpenSpiel game as an engine game.

    Parameters
    ----------
    os_game : pyspiel.Game or str
        A finite sequential game with explicit chance and terminal returns (``returns()``
        at terminal states are the payoffs), e.g. ``pyspiel.load_game("leduc_poker")``;
        a string is passed to ``pyspiel.load_game``.
    form : {"auto", "public", "explicit"}
        ``"public"``: the vectorised public tree (``GutsInputError`` when the game is not
        poker-shaped, see the module docstring); ``"explicit"``: the explicit form;
        ``"auto"``: the public tree when the game has that shape, else explicit.
    max_nodes : int, optional
        Budget of OpenSpiel states walked (default :data:`MAX_IMPORT_NODES`; the walk
        builds Python objects per state).  Before walking, a game whose size estimated
        from its ``max_game_length()``, ``num_distinct_actions()``,
        ``max_chance_outcomes()`` and random paths (:func:`estimate_tree_size`) is far
        above it is refused at once; the walk stops as soon as it exceeds it.  Either way
        one ``GutsInputError`` naming the game and the budget.
    max_states : int, optional
        Former name of ``max_nodes``.
    progress : bool
        A progress bar of the nodes walked against the budget (:mod:`guts.engine.progress`).

    Returns
    -------
    PublicTreeGame or ExplicitGame
        with ``.openspiel`` = :class:`OpenSpielLink`.
    """
    pyspiel, os_game = _check_pyspiel_game(os_game)
    form = check_choice("form", form, ("auto", "public", "explicit"))
    if max_nodes is not None and max_states is not None:
        raise GutsInputError("max_nodes and max_states are the same budget; accepted: one of them")
    max_states = MAX_IMPORT_NODES if max_nodes is None and max_states is None else \
        (max_nodes if max_nodes is not None else max_states)
    if isinstance(max_states, bool) or not isinstance(max_states, (int, np.integer)) or max_states < 1:
        raise GutsInputError(f"max_nodes must be an integer >= 1; got {max_states!r}")
    if form in ("auto", "public"):
        try:
            return _public(pyspiel, os_game, max_states, progress)
        except _NotPublic as exc:
            if form == "public":
                raise GutsInputError(
                    f"OpenSpiel game {os_game.get_type().short_name!r} has no clean public tree: {exc}; "
                    "accepted: form='explicit' for this game") from None
    return _explicit(pyspiel, os_game, max_states, progress)


def _infostate(state, p, perfect):
    return str(state) if perfect else state.information_state_string(p)


def _explicit(pyspiel, os_game, max_states, progress=False):
    n = os_game.num_players()
    gt = os_game.get_type()
    perfect = not gt.provides_information_state_string
    _preflight(os_game, max_states)
    counter = _Counter(max_states, progress, f"{gt.short_name} import")
    infosets, actions = {}, {}

    def build(state):
        counter.tick(gt.short_name)
        if state.is_terminal():
            return ExplicitTerminal(state.returns())
        if state.is_chance_node():
            outs = state.chance_outcomes()
            labs = _labels([state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outs],
                           [a for a, _ in outs])
            return ExplicitChance({lab: (pr, build(state.child(a))) for lab, (a, pr) in zip(labs, outs)})
        p = state.current_player()
        if p < 0:
            raise GutsInputError(f"OpenSpiel state {str(state)!r}: simultaneous or unknown player {p}")
        key = _infostate(state, p, perfect)
        ids = tuple(state.legal_actions())
        labs = _labels([state.action_to_string(p, a) for a in ids], ids)
        infosets[key] = (p, key, 0)
        actions[(p, key)] = ids
        return ExplicitDecision(p, key, {lab: build(state.child(a)) for lab, a in zip(labs, ids)})

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        root = build(os_game.new_initial_state())
    finally:
        sys.setrecursionlimit(old)
        counter.close()
    g = ExplicitGame(root, n, name=str(os_game))
    g.openspiel = OpenSpielLink(os_game, infosets, actions)
    return g


class _NotPublic(Exception):
    """The game has no clean public tree (reason in the message)."""


def _public(pyspiel, os_game, max_states, progress=False):
    n = os_game.num_players()
    gt = os_game.get_type()
    if not gt.provides_information_state_string:
        raise _NotPublic("no information_state_string")
    counter = _Counter(max_states)
    # 1. the deal: the initial run of chance nodes
    deals = []                                   # (prob, state)

    def deal(state, prob):
        counter.tick(gt.short_name)
        if state.is_chance_node():
            for a, pr in state.chance_outcomes():
                deal(state.child(a), prob * pr)
        else:
            deals.append((prob, state))

    deal(os_game.new_initial_state(), 1.0)
    D = len(deals)
    if D == 1:
        raise _NotPublic("no private deal at the start")
    if any(s.is_terminal() for _, s in deals):
        raise _NotPublic("a deal ends the game")
    _preflight(os_game, max_states)
    info = np.zeros((n, D), dtype=np.int64)
    type_labels = []
    for p in range(n):
        seen = {}
        for d, (_, s) in enumerate(deals):
            try:
                key = s.information_state_string(p)
            except Exception as exc:  # some games only answer for the player to move
                raise _NotPublic(f"no information state for player {p} after the deal ({exc})") from None
            info[p, d] = seen.setdefault(key, len(seen))
        type_labels.append(tuple(seen))
    # 2. the public tree after the deal, walked once per deal
    nodes = {}        # history -> record

    def walk(state, hist, d):
        counter.tick(gt.short_name)
        if state.is_terminal():
            rec = nodes.setdefault(hist, ["T", np.zeros((n, D))])
            if rec[0] != "T":
                raise _NotPublic(f"history {hist} is terminal for some deals only")
            rec[1][:, d] = state.returns()
            return
        if state.is_chance_node():
            rec = nodes.setdefault(hist, ["C", {}])
            if rec[0] != "C":
                raise _NotPublic(f"history {hist} is a chance node for some deals only")
            outs = state.chance_outcomes()
            for a, pr in outs:
                lab = state.action_to_string(pyspiel.PlayerId.CHANCE, a)
                ent = rec[1].setdefault(a, [lab, np.zeros(D)])
                if ent[0] != lab:
                    raise _NotPublic(f"chance outcome {a} at {hist} has two labels")
                ent[1][d] = pr
            for a, _ in outs:
                walk(state.child(a), hist + (rec[1][a][0],), d)
            return
        p = state.current_player()
        ids = tuple(state.legal_actions())
        labs = _labels([state.action_to_string(p, a) for a in ids], ids)
        rec = nodes.setdefault(hist, ["D", p, ids, labs, {}])
        if rec[0] != "D" or rec[1] != p or rec[2] != ids or rec[3] != labs:
            raise _NotPublic(f"the player or legal actions at public history {hist} depend on the deal")
        t = int(info[p, d])
        key = state.information_state_string(p)
        if rec[4].setdefault(t, key) != key:
            raise _NotPublic(f"player {p} learns private information after the deal (at {hist})")
        for lab, a in zip(labs, ids):
            walk(state.child(a), hist + (lab,), d)

    counter.show(progress, f"{gt.short_name} import")
    try:
        for d, (_, s) in enumerate(deals):
            walk(s, (), d)
    finally:
        counter.close()
    infosets, actions = {}, {}
    for hist, rec in nodes.items():
        if rec[0] == "D":
            p = rec[1]
            actions[(p, hist)] = rec[2]
            for t, key in rec[4].items():
                if infosets.setdefault(key, (p, hist, t)) != (p, hist, t):
                    raise _NotPublic(f"OpenSpiel information state {key!r} spans several public histories")

    def make(hist):
        rec = nodes[hist]
        if rec[0] == "T":
            return Terminal(rec[1])
        if rec[0] == "C":
            items = sorted(rec[1].items())
            # deals that never reach this public node have no outcome: any distribution
            # does (their reach is 0); uniform keeps the tree valid
            total = sum(pr for _, (_, pr) in items)
            unreached = total <= 0
            for _, ent in items:
                ent[1] = np.where(unreached, 1.0 / len(items), ent[1])
            labs = [lab for _, (lab, _) in items]
            if len(set(labs)) != len(labs):
                raise _NotPublic(f"chance labels at {hist} are not unique")
            return Chance({lab: (pr, make(hist + (lab,))) for _, (lab, pr) in items})
        return Decision(rec[1], {lab: make(hist + (lab,)) for lab in rec[3]})

    prob = np.array([pr for pr, _ in deals])
    g = PublicTreeGame(make(()), Deals(prob / prob.sum(), info, type_labels), n, name=str(os_game))
    g.openspiel = OpenSpielLink(os_game, infosets, actions)
    return g


def to_openspiel_policy(game, strategies, os_game=None, *, link: OpenSpielLink | None = None):
    """A strategy profile of ``game`` as an OpenSpiel ``TabularPolicy``.

    Parameters
    ----------
    game : PublicTreeGame or ExplicitGame
        Imported by :func:`from_openspiel` (or pass ``link``).
    strategies : tuple of dict
        ``strategies[p][key]`` = array ``(num_types[p], num_actions)``.
    os_game : pyspiel.Game, optional
        Defaults to the game imported; a game from
        :func:`~.openspiel_export.to_openspiel_game` brings its own link.
    link : OpenSpielLink, optional
        The correspondence, for a game built without :func:`from_openspiel` (see
        :func:`openspiel_link`).

    Notes
    -----
    Every OpenSpiel information state must be one (player, key, type) of the link;
    states no strategy reaches get the row of that key anyway (it exists: the maps are
    one to one).
    """
    from open_spiel.python import policy as os_policy

    from .strategies import to_flat

    if link is None:    # an exported game carries its link (openspiel_export.to_openspiel_game)
        link = getattr(os_game, "guts_link", None) or getattr(game, "openspiel", None)
    if link is None:
        raise GutsInputError("game was not imported from OpenSpiel; accepted: a game from from_openspiel, "
                             "an os_game from to_openspiel_game or an explicit link=OpenSpielLink(...)")
    to_flat(game, strategies)                       # validates shapes and sums
    os_game = link.game if os_game is None else os_game
    pol = os_policy.TabularPolicy(os_game)
    for key, idx in pol.state_lookup.items():
        try:
            p, h, t = link.infosets[key]
        except KeyError:
            raise GutsInputError(f"OpenSpiel information state {key!r} has no counterpart in the game") from None
        row = np.zeros(pol.action_probability_array.shape[1])
        row[list(link.actions[(p, h)])] = np.asarray(strategies[p][h], dtype=float)[t]
        pol.action_probability_array[idx] = row
    return pol


def openspiel_link(game, os_game, *, deal_types, label) -> OpenSpielLink:
    """The correspondence between a hand-built public-tree game and an OpenSpiel game.

    Walks ``os_game``: the initial run of chance actions is the deal, and
    ``deal_types(actions)`` gives every player's type index for it; after the deal,
    ``label(state, action)`` is the label of that action (or chance outcome) in
    ``game``'s histories.  Used to compare the package's own games (e.g. Leduc hold'em)
    with OpenSpiel's.  Raises ``GutsInputError`` if one OpenSpiel information state is
    two of ours.
    """
    labels = {p: game.action_labels(p) for p in range(game.num_players)}
    infosets, actions = {}, {}

    def walk(state, hist, dealt, in_deal):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                if in_deal:
                    walk(state.child(a), hist, dealt + (a,), True)
                else:
                    walk(state.child(a), hist + (label(state, a),), dealt, False)
            return
        types = deal_types(dealt)
        p = state.current_player()
        key = state.information_state_string(p)
        val = (p, hist, int(types[p]))
        if infosets.setdefault(key, val) != val:
            raise GutsInputError(f"OpenSpiel information state {key!r} is two of ours")
        ids = {label(state, a): a for a in state.legal_actions()}
        actions[(p, hist)] = tuple(ids[lab] for lab in labels[p][hist])
        for a in state.legal_actions():
            walk(state.child(a), hist + (label(state, a),), dealt, False)

    walk(os_game.new_initial_state(), (), (), True)
    return OpenSpielLink(os_game, infosets, actions)
