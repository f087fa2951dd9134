"""``guts solve-game`` on hostile input: huge OpenSpiel games, labels Gambit refuses, constant-sum games."""
import numpy as np
import pytest

from guts.cli import main
from guts.engine.extensive import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal, efg_text, read_efg
from guts.games.toy import kuhn_poker


def _shifted(node, add):
    if isinstance(node, ExplicitTerminal):
        return ExplicitTerminal(np.asarray(node.payoffs, dtype=float) + add)
    if isinstance(node, ExplicitChance):
        return ExplicitChance({lab: (pr, _shifted(c, add)) for lab, (pr, c) in node.outcomes.items()})
    return ExplicitDecision(node.player, node.infoset, {lab: _shifted(c, add) for lab, c in node.actions.items()})


def test_constant_sum_efg_solved_by_the_lp(tmp_path, capsys):
    from guts.engine.extensive import write_efg

    kuhn = read_efg(efg_text(kuhn_poker(2)))
    g = ExplicitGame(_shifted(kuhn.root, np.array([3.0, 3.0])), 2, name="Kuhn plus 3")
    path = write_efg(g, tmp_path / "kuhn3.efg")
    assert main(["solve-game", str(path), "--out", str(tmp_path / "out"), "--quiet", "--no-exact"]) == 0
    out = capsys.readouterr().out
    assert "method            lp" in out
    vals = [float(v) for v in out.split("values")[1].split("\n")[0].split()]
    # Kuhn's value -1/18 (Kuhn, 1950), plus the 3 added to each player's payoffs
    assert vals == pytest.approx([-1 / 18 + 3, 1 / 18 + 3], abs=1e-8)


def test_max_nodes_option(tmp_path, capsys):
    pytest.importorskip("pyspiel")
    # Kuhn's tree has 64 nodes (1 + 3 + 6 deal nodes, 9 betting nodes per deal)
    code = main(["solve-game", "openspiel:kuhn_poker", "--max-nodes", "20", "--out", str(tmp_path), "--quiet"])
    err = capsys.readouterr().err
    assert code != 0 and "kuhn_poker" in err and "stopped after 20 nodes" in err and "max_nodes=20" in err
    assert main(["solve-game", "openspiel:kuhn_poker", "--max-nodes", "64", "--out", str(tmp_path / "ok"),
                 "--quiet"]) == 0
    assert main(["solve-game", "openspiel:chess", "--out", str(tmp_path / "c"), "--quiet"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len([ln for ln in err if "chess" in ln]) == 1


def test_goofspiel_efg_opens_in_gambit(tmp_path, capsys):
    pytest.importorskip("pyspiel")
    pygambit = pytest.importorskip("pygambit")
    spec = "openspiel:turn_based_simultaneous_game(game=goofspiel(num_cards=3))"
    assert main(["solve-game", spec, "--efg", "--out", str(tmp_path), "--quiet"]) == 0
    gg = pygambit.read_efg(str(tmp_path / "game.efg"))
    from guts.engine.extensive import from_openspiel

    g = from_openspiel(spec[len("openspiel:"):])
    assert len(list(gg.players)) == 2
    assert [len(pl.infosets) for pl in gg.players] == [len(g.action_labels(p)) for p in range(2)]


def test_solve_game_study_on_a_constant_sum_public_tree():
    # the automatic exact value is for zero-sum games: a constant-sum public tree gets the LP alone
    from guts.engine.extensive import Chance, PublicTreeGame, Terminal
    from guts.studies.solve_game import solve_game

    def shifted(node):
        if isinstance(node, Terminal):
            if node.table is None:
                return Terminal(np.asarray(node.offset, dtype=float) + 3.0)
            return Terminal.affine(node.table, np.asarray(node.offset, dtype=float) + 3.0, node.scale)
        if isinstance(node, Chance):
            return Chance({lab: (pr, shifted(c)) for lab, (pr, c) in node.outcomes.items()})
        return type(node)(node.player, {lab: shifted(c) for lab, c in node.actions.items()})

    k = kuhn_poker(2)
    s = solve_game(PublicTreeGame(shifted(k.root), k.deals, 2, name="Kuhn plus 3"))
    assert s.method == "lp" and s.exact is None
    assert s.result.value == pytest.approx(-1 / 18 + 3, abs=1e-9)
