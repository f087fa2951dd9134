"""Files written by ``write_efg`` open in Gambit (pygambit) whatever the labels, and read back as the same game."""
from fractions import Fraction

import pytest

from guts.engine.extensive import read_efg, solve_lp, write_efg
from guts.engine.extensive.efg import efg_label
from guts.engine.extensive.explicit import ExplicitChance, ExplicitDecision, ExplicitGame, ExplicitTerminal

pygambit = pytest.importorskip("pygambit")

BAD = ["K\u00f6nig\n", 'Q "queen" ', "a  b", " lead", "tab\there", "snow \u2603", "back\\slash", ""]


def _ok_for_gambit(label: str) -> bool:
    # Gambit's rule: printable ASCII and single spaces, no space at either end
    return all(" " <= ch <= "~" for ch in label) and "  " not in label and label == label.strip()


def test_labels_made_gambit_safe():
    for lab in BAD:
        assert _ok_for_gambit(efg_label(lab)), lab
    assert efg_label("fine label") == "fine label"


def _hostile_game():
    """Chance deals K or Q (1/2 each); player 0 sees it and bets or checks; player 1, blind,
    calls or folds a bet.  Labels break every Gambit rule; two action labels collide after
    cleaning ("bet  " and "bet")."""
    def p1(pot):
        return ExplicitDecision(1, "P1 \u2603 sees\tbet\n", {'call "c"': ExplicitTerminal(pot),
                                                              "fold  ": ExplicitTerminal((1.0, -1.0))})

    def p0(card, win):
        s = 1.0 if win else -1.0
        return ExplicitDecision(0, f"card:  {card}", {
            "bet  ": p1((2 * s, -2 * s)), "bet": ExplicitTerminal((s, -s)), "\u00e9chec": ExplicitTerminal((0.0, 0.0))})

    root = ExplicitChance({BAD[0]: (0.5, p0(BAD[0], True)), BAD[1]: (0.5, p0(BAD[1], False))})
    return ExplicitGame(root, 2, name="hostile \u00e9 \n game")


def _check_gambit_file(game, path):
    write_efg(game, path)
    gg = pygambit.read_efg(str(path))                  # raises on a label Gambit refuses
    labels = [gg.title] + [a.label for a in gg.actions] + [i.label for i in gg.infosets]
    assert all(_ok_for_gambit(lab) for lab in labels)
    back = read_efg(path)
    # same game: same information sets per player, same multiset of terminal payoffs, same value
    assert [len(pl.infosets) for pl in gg.players] == [len(back.action_labels(p)) for p in range(game.num_players)]
    pays = sorted(tuple(float(n.outcome[pl]) for pl in gg.players) for n in gg.nodes if n.is_terminal)
    return gg, back, pays


def test_hostile_labels_open_in_gambit_with_the_same_value(tmp_path):
    g = _hostile_game()
    gg, back, pays = _check_gambit_file(g, tmp_path / "hostile.efg")
    assert pays == sorted([(2.0, -2.0), (1.0, -1.0), (1.0, -1.0), (0.0, 0.0),
                           (-2.0, 2.0), (1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)])
    v, vb = solve_lp(g).value, solve_lp(back).value
    assert vb == pytest.approx(v, abs=1e-9)
    # Gambit's own sequence-form LP, an independent oracle, in exact rationals
    eq = pygambit.nash.lp_solve(gg, rational=True).equilibria[0]
    assert float(Fraction(str(eq.payoff(list(gg.players)[0])))) == pytest.approx(v, abs=1e-9)


def test_goofspiel_import_exported_for_gambit(tmp_path):
    pytest.importorskip("pyspiel")
    from guts.engine.extensive import from_openspiel

    g = from_openspiel("turn_based_simultaneous_game(game=goofspiel(num_cards=3))")
    gg, back, pays = _check_gambit_file(g, tmp_path / "goofspiel.efg")
    assert [len(pl.infosets) for pl in gg.players] == [len(g.action_labels(p)) for p in range(2)]
    assert solve_lp(back).value == pytest.approx(solve_lp(g).value, abs=1e-9)
    # goofspiel is symmetric: every win (+1, -1) has its mirror
    assert pays == sorted((b, a) for a, b in pays)
