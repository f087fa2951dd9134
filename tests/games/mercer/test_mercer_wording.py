"""Every printed Mercer hold'em line says what its number is, and every documented weak /
strong-separate figure is what today's code makes.

* ``guts mercer solve`` prints ``team value`` only where the team maximises its joint payoff as
  one player (strong, correlated, independent); weak and strong-separate collusion print the
  colluders' summed payoff at the profile under another name.
* Information-set counts come with their seating: the total and each seat's (each player's for
  a merged strong-collusion team), checked against :func:`count_tree`, which counts the tree
  from the rules without building it.
* The documented figures are read from the documentation's own tables and sentences and
  recomputed with the code the documentation names, to the precision printed there.
"""
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from guts.engine.extensive import fictitious_play
from guts.errors import ConvergenceWarning
from guts.games.poker.builder import count_tree
from guts.games.poker.mercer import Collusion, build_game, solve, variant_rules
from guts.games.poker.mercer.solve import program_action_priority
from test_mercer_cli import _run

ROOT = Path(__file__).resolve().parents[3]
MERCER_DOC = ROOT / "docs" / "mercer.md"
#: The CLI prints values with six decimals: a printed sum is within this of the sum of the printed values.
PRINTED_SIX_DECIMALS = 2e-6
#: The per-player decomposition of a total is exact (integers).
TEAMS = ((0, 1), (0, 2), (1, 2))


def _doc(path=MERCER_DOC) -> str:
    return Path(path).read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """The text with line breaks and runs of spaces as one space (prose wraps)."""
    return " ".join(text.split())


def _num(text: str):
    """A documented figure (``−0.0216``, ``+0.3243``, ``−1.17e-3``, ``2 096``) and half a unit of
    its last printed digit: the precision it is printed to."""
    t = text.strip().strip("*").replace("−", "-").replace("\u2009", "").replace(" ", "")
    m = re.fullmatch(r"([+-]?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?", t)
    assert m, f"not a documented figure: {text!r}"
    sign, whole, frac, exp = m.groups()
    e = int(exp or 0)
    value = float(f"{sign}{whole}.{frac or '0'}") * 10.0**e
    return value, 0.5 * 10.0 ** (e - len(frac or ""))


def _section(title: str) -> str:
    """The documentation's ``## title...`` section, up to the next one."""
    text = _doc()
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _row(label: str, text: str | None = None) -> list:
    """The cells of the documentation's table row whose first cell is ``label``."""
    text = _doc() if text is None else text
    rows = [line for line in text.splitlines() if line.startswith(f"| {label} |")]
    assert len(rows) == 1, f"{len(rows)} rows labelled {label!r} in the documentation"
    return [c.strip() for c in rows[0].strip().strip("|").split("|")]


def _assert_figure(documented: str, computed: float, what: str):
    value, half_unit = _num(documented)
    assert abs(computed - value) <= half_unit * (1 + 1e-9), f"{what}: documented {documented}, code {computed:.6g}"


def _quiet_solve(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return solve(*args, **kw)


# --------------------------------------------------------------------------- the printed headlines
def _line(out: str, head: str) -> str:
    return next(x for x in out.splitlines() if x.startswith(head))


@pytest.mark.parametrize("collusion", ["weak", "strong-separate"])
def test_separate_colluders_print_their_summed_payoff_not_a_team_value(capsys, collusion):
    """In weak and strong-separate collusion the colluders are two players of a three-player
    game: no one maximises their sum, so it is printed as their summed payoff at the profile
    (the sum of the two printed seat values), never under the headline ``team value``."""
    _run(["mercer", "solve", "smh", "--players", "3", "--method", "cfr+", "--target", "0.05",
          "--collusion", collusion, "--team", "0,2", "--quiet"])
    out = capsys.readouterr().out
    assert not any(x.startswith("team value") for x in out.splitlines())
    line = _line(out, "colluders' sum")
    assert "summed payoff at this profile" in line and "not the team's max-min value" in line
    seats = [float(x) for x in _line(out, "values per seat").split()[3:]]
    assert abs(float(line.split()[2]) - (seats[0] + seats[2])) <= PRINTED_SIX_DECIMALS


def test_team_value_headline_is_the_team_max_min_value_under_strong_collusion(capsys):
    """Strong collusion by the LP: the printed team value is the exact max-min value, the two
    ends of the printed bracket."""
    assert _run(["mercer", "solve", "smh", "--players", "3", "--collusion", "strong", "--team", "0,1",
                 "--quiet"]) == 0
    line = _line(capsys.readouterr().out, "team value")
    value = float(line.split()[2])
    lo, hi = (float(x) for x in line.split("[")[1].split("]")[0].split(","))
    assert lo - PRINTED_SIX_DECIMALS <= value <= hi + PRINTED_SIX_DECIMALS and hi - lo <= PRINTED_SIX_DECIMALS


# --------------------------------------------------------------------------- information sets with their seating
def _tree_split(out: str):
    line = _line(out, "tree")
    m = re.search(r"(\d+) information sets \(([\d/]+) per (seat|player)", line)
    assert m, line
    return int(m.group(1)), [int(x) for x in m.group(2).split("/")], m.group(3), line


@pytest.mark.parametrize("players,collusion", [(2, None), (3, None), (3, "weak"), (3, "strong-separate")])
def test_tree_line_gives_the_total_and_each_seat(capsys, players, collusion):
    argv = ["mercer", "solve", "smh", "--players", str(players), "--quiet"]
    if collusion:
        argv += ["--collusion", collusion, "--team", "1,2", "--method", "cfr+", "--target", "0.05"]
    _run(argv)
    total, split, unit, _ = _tree_split(capsys.readouterr().out)
    counted = count_tree(variant_rules("smh", players), Collusion((1, 2), "strong" if collusion == "strong-separate"
                                                                  else collusion) if collusion else None)
    assert unit == "seat" and len(split) == players
    assert split == list(counted.info_sets_per_player) and total == sum(split) == counted.info_sets


def test_tree_line_of_a_merged_team_is_per_player(capsys):
    """Strong collusion solves the team as one player: the split is the team's and the victim's."""
    _run(["mercer", "solve", "smh", "--players", "3", "--collusion", "strong", "--team", "0,1", "--quiet"])
    total, split, unit, line = _tree_split(capsys.readouterr().out)
    counted = count_tree(variant_rules("smh", 3), Collusion((0, 1), "strong"), merge_team=True)
    assert unit == "player" and "team of seats 0,1/victim" in line
    assert split == list(counted.info_sets_per_player) and total == sum(split) == counted.info_sets


def test_sizes_prints_totals_and_per_seat(capsys):
    assert _run(["mercer", "sizes"]) == 0
    out = capsys.readouterr().out
    assert "info sets (all seats)" in out and "per seat" in out
    for v in ("smh", "mmh"):
        for n in (2, 3):
            cells = _line(out, f"{n}P-{v.upper()}").split()
            c = count_tree(variant_rules(v, n))
            assert int(cells[3]) == c.info_sets and cells[4] == "/".join(map(str, c.info_sets_per_player))


def _grouped(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def test_documented_information_set_counts_say_their_seating():
    """docs/mercer.md's sizes table, README's 209 715 and docs/performance.md's 960: each total
    with its per-seat split, as counted from the rules."""
    for v in ("smh", "mmh"):
        for n in (2, 3):
            cells = _row(f"{n}P-{v.upper()}", _section("How it is built"))
            c = count_tree(variant_rules(v, n))
            assert cells[2] == _grouped(c.info_sets)
            assert cells[3] == " / ".join(_grouped(x) for x in c.info_sets_per_player)
    team = count_tree(variant_rules("mmh", 3), Collusion((0, 1), "strong"), merge_team=True)
    cells = _row("3P-MMH, strong collusion of seats 0, 1")
    assert cells[2] == _grouped(team.info_sets)
    assert cells[3].startswith(f"team {_grouped(team.info_sets_per_player[0])} / victim "
                               f"{_grouped(team.info_sets_per_player[1])}")
    big = count_tree(variant_rules("mmh", 2, betting="limit", bets=(4.0, 8.0)))
    readme = _flat(_doc(ROOT / "README.md"))
    assert (f"({_grouped(big.info_sets)} information sets over both seats, "
            f"{' / '.join(_grouped(x) for x in big.info_sets_per_player)} per seat;") in readme
    paper = count_tree(variant_rules("mmh", 2))
    assert (f"2P-MMH ({paper.info_sets} information sets, "
            f"{' / '.join(map(str, paper.info_sets_per_player))} per seat)") in _flat(_doc(ROOT / "docs" / "performance.md"))


# --------------------------------------------------------------------------- documented weak / strong-separate figures
def _strong_separate_row(variant: str):
    """``(victim values of the three seatings, their mean, iterations)``: the documented command."""
    rs = [_quiet_solve(variant, 3, "cfr+", target=0.01 / 3, collusion="strong-separate", team=t) for t in TEAMS]
    victims = [float(r.values[next(s for s in range(3) if s not in t)]) for r, t in zip(rs, TEAMS)]
    assert all(r.converged and r.nash_conv <= 0.0100 for r in rs)
    return victims, float(np.mean(victims)), [r.num_iter for r in rs]


def test_documented_strong_separate_smh_row():
    cells = _row("3P-SMH, strong-separate (CFR+)")
    victims, mean, _ = _strong_separate_row("smh")
    for documented, computed, what in zip(cells[1:5], victims + [mean], ("0,1", "0,2", "1,2", "mean")):
        _assert_figure(documented, computed, f"3P-SMH strong-separate {what}")


def test_documented_strong_separate_mmh_row_and_sentences():
    """The row, its iteration counts, and the two sentences that quote seats 0, 2 (a figure of a
    non-converging three-player dynamic: the doc gives the iteration it stopped at)."""
    cells = _row("3P-MMH, strong-separate (CFR+)")
    victims, mean, iterations = _strong_separate_row("mmh")
    for documented, computed, what in zip(cells[1:5], victims + [mean], ("0,1", "0,2", "1,2", "mean")):
        _assert_figure(documented, computed, f"3P-MMH strong-separate {what}")
    assert f"({' / '.join(map(str, iterations))} iterations)" in cells[5]
    text = _flat(_doc())
    m = re.search(r"stops after (\d+) iterations at a victim value of (\S+),", text)
    assert m and int(m.group(1)) == iterations[1]
    _assert_figure(m.group(2), victims[1], "3P-MMH strong-separate (0,2), collusion section")
    m = re.search(r"with seats 0, 2 colluding in 3P-MMH the victim keeps (\S+) where", text)
    _assert_figure(m.group(1), victims[1], "3P-MMH strong-separate (0,2), collusion-methods section")


def _table7_weak(variant: str) -> dict:
    """Table 7's weak columns: the study's rows averaged over the seatings, A = the victim."""
    import pandas as pd

    from guts.studies.mercer import table7_rows

    df = pd.DataFrame(table7_rows(variant))
    df = df[df.kind == "weak"]
    return {(scen, col): float(df[df.scenario == scen][f"value_{col}"].mean())
            for scen in ("public", "private", "suspicious") for col in "ABC"}


def _check_table7_weak(variant: str, labels):
    computed = _table7_weak(variant)
    for label, col in labels:
        cells = _row(label)
        for documented, scen in zip(cells[4:7], ("public", "private", "suspicious")):
            _assert_figure(documented, computed[scen, col], f"Table 7 {label} weak {scen}")


def test_documented_table7_weak_columns_smh():
    _check_table7_weak("smh", [("3P-SMH, A (victim)", "A")])


def test_documented_table7_weak_columns_mmh():
    _check_table7_weak("mmh", [("3P-MMH, A (victim)", "A"), ("3P-MMH, B", "B"), ("3P-MMH, C", "C")])


def test_documented_weak_loss_against_epsilon():
    """The weak points of the collusion-against-ε section (NashConv 0.1, 0.03, 0.01, 0.003)."""
    from guts.studies.mercer import COLLUSION_TARGETS, collusion_epsilon_rows

    m = re.search(r"weak: ([\d.]+), ([\d.]+), ([\d.]+), ([\d.]+) \(error ([\d.]+) → ([\d.]+);", _flat(_doc()))
    assert m
    rows = []
    for t in COLLUSION_TARGETS[:4]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            rows += [r for r in collusion_epsilon_rows(("mmh", t)) if r["kind"] == "weak"]
    assert len(rows) == 4
    for documented, row in zip(m.groups()[:4], rows):
        _assert_figure(documented, row["victim_loss"], f"weak loss at NashConv {row['epsilon']:g}")
    _assert_figure(m.group(5), rows[0]["error"], "weak error bar at NashConv 0.1")
    _assert_figure(m.group(6), rows[-1]["error"], "weak error bar at NashConv 0.003")


def _fp_counts(variant: str, collusion: str, team, eps: float, program: bool):
    game = build_game(variant_rules(variant, 3), Collusion(team, collusion)).game
    classical = fictitious_play(game, target=eps, averaging="realisation", max_iterations=200_000)
    ours = (fictitious_play(game, target=eps, averaging="behavioural", action_priority=program_action_priority,
                            max_iterations=200_000).num_iter if program else None)
    return ours, classical.num_iter


def _check_fp_row(variant: str, collusion: str, eps: float, program: bool):
    """A row of the fictitious-play reproduction table: the program's rule here and classical
    fictitious play, every seating (the program plays strong collusion as three players:
    ``Collusion(team, "strong")`` without merging, i.e. strong-separate)."""
    cells = _row(f"3P-{variant.upper()}, {collusion} (0,1) / (0,2) / (1,2)")
    assert _num(cells[1])[0] == pytest.approx(eps)
    counts = [_fp_counts(variant, collusion, t, eps, program) for t in TEAMS]
    if program:
        assert [int(x) for x in cells[3].split(" / ")] == [c[0] for c in counts]
    assert [int(x) for x in cells[4].split(" / ")] == [c[1] for c in counts]


@pytest.mark.parametrize("collusion", ["strong", "weak"])
def test_documented_fp_counts_smh(collusion):
    _check_fp_row("smh", collusion, 0.01, program=True)


def test_documented_fp_counts_mmh_strong():
    _check_fp_row("mmh", "strong", 0.1, program=True)


def test_documented_fp_counts_mmh_weak():
    _check_fp_row("mmh", "weak", 0.1, program=True)


def test_documented_weak_speed_row_iterations():
    """The performance table's weak (0,1) row, as ``benchmarks/mercer_speed.py`` runs it: CFR+
    iterations to NashConv 0.01 (exploitability 0.01 / 3), the program's fictitious play's and
    classical fictitious play's to regret 0.01 (its times are measurements, not checked here)."""
    cells = _row("3P-MMH weak (0,1)")
    r = _quiet_solve("mmh", 3, "cfr+", target=0.01 / 3, collusion="weak", team=(0, 1))
    assert int(cells[1].split(",")[0]) == r.num_iter
    program, classical = _fp_counts("mmh", "weak", (0, 1), 0.01, program=True)
    assert int(_num(cells[2].split(",")[0])[0]) == program
    assert int(_num(cells[3].split(",")[0])[0]) == classical
