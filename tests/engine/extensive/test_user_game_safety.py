"""Safety of user games: cycles, sizes before building, non-numeric input, bet sizes."""
import numpy as np
import pytest

from guts.engine.extensive import (
    Chance, Deals, Decision, ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal,
    PublicTreeGame, Terminal, estimate_size, expected_values,
)
from guts.errors import GutsInputError
from guts.games.toy import leduc_poker

ONE_DEAL = Deals([1.0], [[0], [0]])


@pytest.mark.timeout(20)
def test_cyclic_public_tree_rejected_as_a_cycle():
    loop = Decision(0, {"stop": Terminal([1.0, -1.0])})
    loop.actions["again"] = Decision(1, {"back": loop, "stop": Terminal([0.0, 0.0])})
    with pytest.raises(GutsInputError, match=r"cycle.*'back'.*\('again'\).*\(\) \(the root\)"):
        PublicTreeGame(loop, ONE_DEAL, 2)


@pytest.mark.timeout(20)
def test_cyclic_explicit_game_named_a_cycle_not_imperfect_recall():
    c = ExplicitChance({"end": (0.5, ExplicitTerminal([1.0, -1.0]))})
    c.outcomes["again"] = (0.5, c)                 # chance only: used to expand forever
    with pytest.raises(GutsInputError, match="cycle"):
        ExplicitGame(c, 2)
    d = ExplicitDecision(0, "I", {"stop": ExplicitTerminal([0.0, 0.0])})
    d.actions["again"] = d                         # used to be reported as imperfect recall
    with pytest.raises(GutsInputError, match="cycle"):
        ExplicitGame(d, 2)


def binary_dag(k):
    """k levels, each node's two actions lead to the SAME child: 2^(k+1) - 1 paths/nodes."""
    node = Terminal([1.0, -1.0])
    for i in range(k):
        node = Decision(i % 2, {"l": node, "r": node})
    return node


def test_size_estimate_counts_paths_without_expanding():
    s = estimate_size(binary_dag(60), ONE_DEAL, 2)           # 2^61 nodes: counted, not built
    assert s.public_nodes == 2 ** 61 - 1 and s.terminals == 2 ** 60
    assert s.infosets == 2 ** 60 - 1 and s.sequences == 2 * (2 ** 60 - 1)
    g = leduc_poker()
    assert g.size.public_nodes == g.compiled.num_nodes
    assert g.size.terminals == g.compiled.num_terminals
    # Leduc: 936 information sets with a possible card (OpenSpiel's); ours count all 6 cards
    # at every decision node, including the board card's own
    assert g.size.infosets == sum(len(g.decision_histories(p)) for p in range(2)) * 6


@pytest.mark.timeout(20)
def test_request_over_the_memory_budget_refused(monkeypatch):
    with pytest.raises(GutsInputError, match="memory budget"):
        PublicTreeGame(binary_dag(60), ONE_DEAL, 2)
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", "10K")
    with pytest.raises(GutsInputError, match="GUTS_MEMORY_BUDGET"):
        leduc_poker()
    monkeypatch.setenv("GUTS_MEMORY_BUDGET", "1G")
    assert PublicTreeGame(binary_dag(8), ONE_DEAL, 2).compiled.num_terminals == 256


@pytest.mark.parametrize("make", [
    lambda: Terminal(["a", "b"]),
    lambda: Terminal.showdown(["one", 1], np.ones((2, 1))),
    lambda: Terminal.affine([["x"], [1]], [0, 0], 1.0),
    lambda: Chance({"h": ("half", Terminal([0, 0]))}),
    lambda: Deals(["x"], [[0], [0]]),
    lambda: ExplicitTerminal(["one", "two"]),
    lambda: ExplicitTerminal([{"a": 1}, 2]),
])
def test_non_numeric_values_give_guts_input_error(make):
    with pytest.raises(GutsInputError, match="must be numbers"):
        make()


def test_leduc_bet_sizes_honoured_not_truncated():
    g = leduc_poker(raises=(2.7, 4))
    uniform = tuple({h: np.eye(len(labs))[list(labs).index(pick)] if (pick := want.get(h)) else
                     np.full(len(labs), 1 / len(labs))
                     for h, labs in g.action_labels(p).items()} for p, want in
                    enumerate([{(): "r", ("r", "r"): "f"}, {("r",): "r"}]))
    # player 0 raises 2.7, player 1 re-raises, player 0 folds: he loses ante + 2.7
    assert expected_values(g, uniform)[0] == pytest.approx(-3.7, abs=1e-12)
    with pytest.raises(GutsInputError, match="raises"):
        leduc_poker(raises=(2, -1))
    with pytest.raises(GutsInputError, match="raises"):
        leduc_poker(raises=(2, float("nan")))
