"""OpenSpiel games imported by ``from_openspiel`` and policies exported by
``to_openspiel_policy``: OpenSpiel's own evaluation (``exploitability.nash_conv``) is the
oracle for our NashConv of the same policy, random and solved, in both forms."""
import numpy as np
import pytest

from guts.engine.extensive import (
    ExplicitGame, PublicTreeGame, cfr_plus, from_openspiel, nash_conv, solve_lp,
    to_openspiel_policy, uniform_strategy,
)
from guts.errors import GutsInputError
from guts.engine.extensive.openspiel import MAX_IMPORT_NODES

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import exploitability as os_expl  # noqa: E402

OPENSPIEL_TOL = 1e-9
#: A Leduc-sized limit game in universal_poker's parameters (3 ranks x 2 suits, two rounds).
UNIVERSAL_LIMIT = ("universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
                   "raiseSize=2 4,firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks=3,"
                   "numHoleCards=1,numBoardCards=0 1,stack=100 100)")

GAMES = ["kuhn_poker", "kuhn_poker(players=3)", "leduc_poker", "liars_dice(dice_sides=3)",
         "tiny_hanabi", UNIVERSAL_LIMIT]


def random_profile(game, seed):
    rng = np.random.default_rng(seed)
    return tuple({h: rng.dirichlet(np.full(len(labs), 0.5), size=game.num_types[p])
                  for h, labs in game.action_labels(p).items()} for p in range(game.num_players))


@pytest.fixture(scope="module")
def imported():
    cache = {}

    def get(name, form):
        if (name, form) not in cache:
            osg = pyspiel.load_game(name)
            cache[name, form] = (osg, from_openspiel(osg, form=form))
        return cache[name, form]
    return get


@pytest.mark.parametrize("form", ["public", "explicit"])
@pytest.mark.parametrize("name", GAMES)
def test_nash_conv_of_random_policies_equals_openspiel(imported, name, form):
    osg, g = imported(name, form)
    assert isinstance(g, PublicTreeGame if form == "public" else ExplicitGame)
    # OpenSpiel's Python best response is the slow part: fewer profiles on the larger games
    # (the explicit form of the two Leduc-sized games: the uniform profile only; its
    # random profiles are checked on the smaller games and in the public form)
    profiles = [uniform_strategy(g)]
    if form == "public" or g.compiled.num_terminals < 1000:
        profiles.append(random_profile(g, 1))
    if g.compiled.num_terminals < 1000:
        profiles.append(random_profile(g, 2))
    for s in profiles:
        ours = nash_conv(g, s)
        theirs = os_expl.nash_conv(osg, to_openspiel_policy(g, s))
        assert ours == pytest.approx(theirs, abs=OPENSPIEL_TOL)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "liars_dice(dice_sides=3)", UNIVERSAL_LIMIT])
def test_lp_solution_is_unexploitable_for_openspiel(imported, name):
    from open_spiel.python.algorithms import expected_game_score

    osg, g = imported(name, "public")
    r = solve_lp(g)
    pol = to_openspiel_policy(g, r.strategies)
    assert r.converged and os_expl.exploitability(osg, pol) <= OPENSPIEL_TOL
    v = expected_game_score.policy_value(osg.new_initial_state(), [pol] * 2)
    assert r.value == pytest.approx(v[0], abs=OPENSPIEL_TOL)


def test_closed_form_values():
    # Kuhn poker: -1/18 (Kuhn 1950); the universal_poker Leduc twin has Leduc's value
    _, kuhn = None, from_openspiel(pyspiel.load_game("kuhn_poker"), form="explicit")
    assert solve_lp(kuhn).value == pytest.approx(-1 / 18, abs=1e-12)
    leduc = solve_lp(from_openspiel(pyspiel.load_game("leduc_poker"))).value
    twin = solve_lp(from_openspiel(pyspiel.load_game(UNIVERSAL_LIMIT))).value
    assert twin == pytest.approx(leduc, abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn_poker(players=3)", "tiny_hanabi"])
def test_cfr_policies_of_n_player_and_cooperative_games(imported, name):
    osg, g = imported(name, "public")
    r = cfr_plus(g, max_iterations=200, report_every=50)
    assert r.nash_conv == pytest.approx(os_expl.nash_conv(osg, to_openspiel_policy(g, r.strategies)),
                                        abs=OPENSPIEL_TOL)
    assert r.history[-1][1] < r.history[0][1]


def test_information_sets_one_to_one(imported):
    # Leduc: OpenSpiel's 936 information states are exactly our (public node, card) pairs
    osg, g = imported("leduc_poker", "public")
    link = g.openspiel
    assert len(link.infosets) == 936
    assert len(set(link.infosets.values())) == 936


def test_public_form_refused_when_not_poker_shaped():
    # Kuhn converted to a game whose first mover sees nothing dealt: tic-tac-toe has no deal
    with pytest.raises(GutsInputError, match="no clean public tree"):
        from_openspiel(pyspiel.load_game("tic_tac_toe"), form="public", max_states=10)
    g = from_openspiel(pyspiel.load_game("kuhn_poker"), form="auto")
    assert isinstance(g, PublicTreeGame)


def test_bad_input():
    with pytest.raises(GutsInputError, match="max_nodes=100"):
        from_openspiel("leduc_poker", max_states=100)
    with pytest.raises(GutsInputError, match="sequential"):
        from_openspiel("matrix_rps")
    with pytest.raises(GutsInputError, match="no game 'no_such_game'"):
        from_openspiel("no_such_game")
    with pytest.raises(GutsInputError, match="cannot load"):  # a registered name, bad parameters
        from_openspiel("kuhn_poker(players=-1)")
    with pytest.raises(GutsInputError, match="form"):
        from_openspiel("kuhn_poker", form="tree")


def test_huge_game_refused_before_expanding():
    # chess has more than 30^6 nodes within six plies: the random-path estimate refuses it
    # before the walk builds anything (which would take minutes and gigabytes)
    import time

    t0 = time.perf_counter()
    with pytest.raises(GutsInputError) as err:
        from_openspiel("chess")
    assert time.perf_counter() - t0 < 20
    msg = str(err.value)
    assert "\n" not in msg and "'chess'" in msg and f"max_nodes={MAX_IMPORT_NODES}" in msg


def test_node_budget_stops_the_walk():
    # Kuhn's tree: root deal (1) + 3 + 6 deal nodes, then per deal 9 public nodes: 64 > 20
    with pytest.raises(GutsInputError, match="stopped after 20 nodes.*max_nodes=20") as err:
        from_openspiel("kuhn_poker", max_nodes=20)
    assert "'kuhn_poker'" in str(err.value)
    g = from_openspiel("kuhn_poker", max_nodes=64)
    assert isinstance(g, PublicTreeGame)
    with pytest.raises(GutsInputError, match="max_nodes=63"):
        from_openspiel("kuhn_poker", max_nodes=63)


def test_tree_size_estimate_is_exact_on_uniform_trees():
    # Knuth's estimator is exact when every node at one depth has the same branching:
    # Kuhn's tree has 1 + 3 + 6 (deal) + 6 * 9 (betting) = 64 nodes, but its betting is
    # not uniform; matching pennies turned sequential has 1 + 2 + 4 nodes exactly
    from guts.engine.extensive.openspiel import estimate_tree_size

    osg = pyspiel.convert_to_turn_based(pyspiel.load_game("matrix_mp"))
    assert estimate_tree_size(osg, probes=3) == pytest.approx(7.0, abs=1e-12)


def test_unknown_game_is_one_line_with_the_closest_names(capfd):
    """OpenSpiel's own load_game prints every registered name on stderr first; the name is
    checked against pyspiel.registered_names() before, with difflib's closest names."""
    import difflib

    names = list(pyspiel.registered_names())
    with pytest.raises(GutsInputError) as info:
        from_openspiel("kuhn_pokr(players=3)")
    msg = str(info.value)
    assert "\n" not in msg and "'kuhn_pokr'" in msg and "pyspiel.registered_names()" in msg
    for close in difflib.get_close_matches("kuhn_pokr", names, n=3, cutoff=0.6):
        assert close in msg
    assert "kuhn_poker" in msg
    out, err = capfd.readouterr()   # nothing from OpenSpiel on the process's stderr
    assert "Available games" not in err and "Available games" not in out
