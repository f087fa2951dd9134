"""Family views of the strategy explorer (guts.studies.view_families) and the families' solution
files read back with their rebuilt game (guts.games.<family>.persist).

Every number a panel shows is compared with the solution's own strategies, through an
independent reading: the hold'em chart's "any raise" is the sum of the raise columns, a
Mercer bet frequency is one minus the probabilities of fold, check and call, a guts member's
line is the marginal law of its threshold in the coalition's profiles, the continuous-poker
closed-form regions and call thresholds are Spears's (2025) c(s) = (x2 + s) / (1 + s).  The
certificate of a file read back is recomputed (NashConv and values by the engine's best
response; Theorem 1.2 for a guts coalition), and a file whose recorded certificate is not the
strategies' is refused.  The browser test renders each family's page in headless Chromium and
reads the numbers back from the DOM.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import warnings

import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.studies.view import PROB_UNITS, read_page, write_view
from guts.studies.view_families import load_for_view

HALF_UNIT = 0.5 / PROB_UNITS + 1e-12


def _doc(path):
    return read_page(path)


def _solve(family):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if family == "mercer":
            from guts.games.poker.mercer import solve

            return solve("smh", players=2, method="lp")
        if family == "holdem":
            from guts.games.holdem import solve_raise_game

            return solve_raise_game(raises=[2, 4, 8])
        if family == "continuous":
            from guts.games.continuous_poker.discrete import solve_discretised

            return solve_discretised(0.5, 1.0, mesh=40, sizes=3)
        from guts import solve_coalition

        return solve_coalition(size=2, mesh=21)


FAMILIES = ("mercer", "holdem", "continuous", "guts")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """family -> (result, file, solution read back, game rebuilt, page, embedded document)."""
    d = tmp_path_factory.mktemp("families")
    out = {}
    for family in FAMILIES:
        result = _solve(family)
        path = result.save(d / f"{family}.npz")
        solution, game, title = load_for_view(path)
        page = write_view(solution, game, d / f"{family}.html", title=title)
        out[family] = (result, path, solution, game, page, _doc(page))
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_file_reads_back_with_its_game(pages, family):
    result, _, solution, game, _, d = pages[family]
    assert (game is None) == (family == "guts")
    assert np.array_equal(np.asarray(solution.values, dtype=float), np.asarray(result.values, dtype=float))
    for mine, theirs in zip(solution.strategies, result.strategies):
        assert set(mine) == set(theirs)
        for k in mine:
            assert np.array_equal(np.asarray(mine[k], dtype=float), np.asarray(theirs[k], dtype=float))
    assert d["panels"] and d["cert"]["kind"] == result.certificate.kind
    if game is not None:                     # the rebuilt game is the one solved: same value
        from guts.engine.extensive import expected_values

        assert np.allclose(expected_values(game, solution.strategies)[0], result.values[0], atol=1e-9, rtol=0)


def test_holdem_chart(pages):
    result, _, _, _, _, d = pages["holdem"]
    grids = [P for P in d["panels"] if P["kind"] == "grid"]
    alice = next(P for P in grids if P["player"] == 0 and P["history"] == [])
    X = np.asarray(result.alice_strategy)
    assert alice["actions"] == ["f", "c", "r2", "r4", "r8", "any raise"]
    assert alice["actions"][alice["default"]] == "any raise"
    got = np.asarray(alice["probs"], dtype=float) / PROB_UNITS           # (actions, 169)
    assert np.max(np.abs(got[:5].T - X)) <= HALF_UNIT
    assert np.max(np.abs(got[5] - X[:, 2:].sum(axis=1))) <= HALF_UNIT
    # every class plays some action: the columns of one decision sum to one
    assert np.max(np.abs(got[:5].sum(axis=0) - 1.0)) <= 5 * HALF_UNIT
    # Bob facing a raise r with AA: calling wins (2 + r)(2 e - 1) > 0 (e > 1/2 against every class),
    # folding loses the big blind: he calls with probability one
    for P in grids:
        if P["player"] == 1:
            aa = P["labels"].index("AA")
            assert P["actions"][P["default"]] == "c"
            assert P["probs"][P["default"]][aa] == PROB_UNITS
    assert {tuple(P["history"]) for P in grids if P["player"] == 1} == {("r2",), ("r4",), ("r8",)}


def test_mercer_bet_frequencies(pages):
    result, _, solution, game, _, d = pages["mercer"]
    tables = {P["player"]: P for P in d["panels"] if P["kind"] == "table"}
    assert set(tables) == {0, 1}
    # seat 0 opens; seat 1 first acts after each of seat 0's actions but the fold (which ends the hand)
    assert tables[0]["histories"] == [[]]
    assert sorted(map(tuple, tables[1]["histories"])) == sorted((a,) for a in game.action_labels(0)[()] if a != "f")
    for p, P in tables.items():
        vals = np.asarray(P["vals"], dtype=float).reshape(len(P["rows"]), len(P["cols"])) / PROB_UNITS
        assert P["rows"] == list(game.deals.type_labels[p])
        for c, h in enumerate(P["histories"]):
            acts = game.action_labels(p)[tuple(h)]
            s = np.asarray(solution.strategies[p][tuple(h)])
            passive = sum(s[:, k] for k, a in enumerate(acts) if a in ("f", "k", "c"))
            assert np.max(np.abs(vals[:, c] - (1.0 - passive))) <= HALF_UNIT + 1e-9


def test_guts_thresholds(pages):
    result, _, _, _, _, d = pages["guts"]
    (P,) = d["panels"]
    assert P["kind"] == "steps" and d["names"] == ["player 1", "coalition"]
    lines = {ln["name"]: ln for ln in P["lines"]}
    p1 = lines["player 1"]
    assert dict(zip(p1["at"], p1["w"])) == pytest.approx({float(k): float(v) for k, v in
                                                         result.player1_strategy.items()}, abs=1e-15)
    size = result.size
    for m in range(size):
        ln = lines[f"coalition, member {m + 1}"]
        law = {}
        for prof, w in result.coalition_strategy.items():
            law[prof[m]] = law.get(prof[m], 0.0) + w
        assert dict(zip(ln["at"], ln["w"])) == pytest.approx(law, abs=1e-15)
        assert sum(ln["w"]) == pytest.approx(1.0, abs=1e-9)      # P(hold | x) reaches one below x = 1
    assert d["lab"] == [] and "1 v. 2 guts" in d["title"]


def test_continuous_poker_regions(pages):
    from guts.games.continuous_poker import limit_poker

    result, _, solution, game, _, d = pages["continuous"]
    (P,) = d["panels"]
    rows = {r["name"]: r["segs"] for r in P["rows"]}
    closed = limit_poker(0.5, 1.0)
    x2 = closed.x[2]
    form = rows[f"bettor, closed form ({closed.name})"]
    assert np.allclose([(lo, hi) for lo, hi, *_ in form], [(r.lo, r.hi) for r in closed.regions if r.hi > r.lo],
                       atol=1e-15, rtol=0)
    for s, c in zip(P["sizes"], P["c"]):
        assert c == pytest.approx((x2 + s) / (1 + s), abs=1e-12)         # Spears's c(s)
        assert rows[f"caller facing {s:g}, closed form"] == [[0.0, c, "fold", "fold"], [c, 1.0, "call", "call"]]
    M = result.hands
    lp = rows[f"bettor, LP ({M} hands, most likely action)"]
    assert lp[0][0] == 0.0 and lp[-1][1] == 1.0 and all(a[1] == b[0] for a, b in zip(lp, lp[1:]))
    root = np.asarray(solution.strategies[0][()])
    labels = ["check"] + [f"bet {s:g}" for s in result.bet_sizes]
    for lo, hi, what, _ in lp:
        for i in range(round(lo * M), round(hi * M)):
            assert labels[int(np.argmax(root[i]))] == what


def test_certificates_are_rechecked(tmp_path):
    """A file whose recorded certificate is not its strategies' is refused (one line)."""
    from guts.games.guts.persist import load_coalition
    from guts.games.poker.mercer.persist import load_mercer

    r = _solve("mercer")
    seat0 = {h: np.full_like(s, 1.0 / s.shape[1]) for h, s in r.strategies[0].items()}   # uniform play
    r.replace(strategies=(seat0, r.strategies[1])).save(tmp_path / "m.npz")
    with pytest.raises(GutsInputError, match="certificate does not hold"):
        load_mercer(tmp_path / "m.npz")
    load_mercer(tmp_path / "m.npz", verify=False)
    c = _solve("guts")
    moved = {t: 1.0 / len(c.player1_strategy) for t in c.player1_strategy}
    c.replace(player1_strategy=moved).save(tmp_path / "c.npz")
    with pytest.raises(GutsInputError, match="Theorem 1.2 certificate does not hold"):
        load_coalition(tmp_path / "c.npz")


def test_team_game_reads_back_with_its_certificate(tmp_path):
    """An m v. n team solution: Theorem 1.2 recomputed for both teams; one line per team member."""
    from guts.games.guts.teams import solve_teams

    r = solve_teams(2, 2, mesh=11)
    solution, game, title = load_for_view(r.save(tmp_path / "teams.npz"))
    assert game is None and title.startswith("2 v. 2 guts teams")
    d = _doc(write_view(solution, game, tmp_path / "teams.html", title=title))
    lines = {ln["name"]: ln for ln in d["panels"][0]["lines"]}
    assert sorted(lines) == ["team 1, member 1", "team 1, member 2", "team 2, member 1", "team 2, member 2"]
    for t, strategy in ((1, r.team1_strategy), (2, r.team2_strategy)):
        for m in range(2):
            law = {}
            for prof, w in strategy.items():
                law[prof[m]] = law.get(prof[m], 0.0) + w
            ln = lines[f"team {t}, member {m + 1}"]
            assert dict(zip(ln["at"], ln["w"])) == pytest.approx(law, abs=1e-15)
    always_hold = {tuple(float(v) for v in r.team1_profiles[0]): 1.0}        # both members hold every hand
    assert always_hold != r.team1_strategy
    r.replace(team1_strategy=always_hold).save(tmp_path / "bad.npz")
    with pytest.raises(GutsInputError, match="Theorem 1.2 certificate does not hold"):
        load_for_view(tmp_path / "bad.npz")


def test_strong_collusion_reads_back_as_the_team_game(tmp_path):
    """Strong collusion is solved as the merged two-player team game; the file records its seats'
    values (the team's split evenly, Ullman 2015 §5) and reads back with the merged game."""
    from guts.engine.extensive import expected_values
    from guts.games.poker.mercer import solve
    from guts.games.poker.mercer.persist import load_mercer
    from guts.studies.view_families import family_panels

    r = solve("smh", players=3, method="lp", collusion="strong", team=(1, 2))
    solution, game = load_mercer(r.save(tmp_path / "strong.npz"))
    assert game.num_players == 2 and len(solution.values) == 3
    team, victim = expected_values(game, solution.strategies)[::-1]       # players: seat 0, then the team
    assert np.allclose(solution.values, [victim, team / 2, team / 2], atol=1e-9, rtol=0)
    titles = [P["title"] for P in family_panels(solution, game)]
    assert titles == ["Mercer: bet frequencies of seat 0 (first betting round)",
                      "Mercer: bet frequencies of the team (seats 1 and 2) (first betting round)"]
    r.replace(values=r.values + np.array([0.0, 0.01, -0.01])).save(tmp_path / "bad.npz")
    with pytest.raises(GutsInputError, match="certificate does not hold"):
        load_mercer(tmp_path / "bad.npz")


def test_command_needs_no_game_for_a_family(tmp_path, monkeypatch, capsys):
    """The documented lines of docs/view.md: a coalition kept, then viewed without --game."""
    from guts.cli import main
    from guts.engine.extensive import solve_lp
    from guts.games.toy import kuhn_poker

    monkeypatch.chdir(tmp_path)
    (tmp_path / "results" / "runs").mkdir(parents=True)
    _solve("guts").save("results/runs/coalition.npz")
    assert main(["view", "results/runs/coalition.npz"]) == 0
    assert capsys.readouterr().out.strip() == "results/runs/coalition.html"
    assert _doc(tmp_path / "results/runs/coalition.html")["panels"][0]["kind"] == "steps"
    solve_lp(kuhn_poker()).save(tmp_path / "kuhn.npz")          # a game the file does not record
    assert main(["view", str(tmp_path / "kuhn.npz")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--game GAME" in err[0]
    assert not (tmp_path / "kuhn.html").exists()


def _chromium():
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def _cells(dom, cls):
    return re.findall(rf'<td [^>]*class="{cls}"[^>]*>', dom)


@pytest.mark.slow
@pytest.mark.browser
def test_family_pages_render_in_chromium(pages, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    flags = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}"]
    for family in FAMILIES:
        result, _, solution, game, page, d = pages[family]
        shot = tmp_path / f"{family}.png"
        dom = subprocess.run([*flags, "--window-size=1000,900", f"--screenshot={shot}", "--dump-dom",
                              page.as_uri()], capture_output=True, text=True, timeout=120, check=True).stdout
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert re.search(r'id="timing" data-ms="\d+(\.\d+)?"', dom)
        panels = dom.split('id="panels"', 1)[1].split('id="controls"', 1)[0]
        assert panels.count('class="panel"') == len(d["panels"])
        if family == "holdem":
            # the first chart: Alice's "any raise", cell (row, col) of the 13 x 13 chart is class 13 row + col
            first = panels.split('id="panel-1"', 1)[0]
            cells = re.findall(r'<td [^>]*data-cls="([^"]+)" data-p="([\d.]+)"', first)
            assert len(cells) == 169
            X = np.asarray(result.alice_strategy)
            for k, (lab, p) in enumerate(cells):
                row, col = divmod(k, 13)
                assert (lab[0] == lab[1]) == (row == col) and lab.endswith("s") == (row < col)
                assert abs(float(p) - X[k, 2:].sum()) <= HALF_UNIT + 1e-9
        elif family == "mercer":
            nums = [float(x) for x in re.findall(r'<span class="num">([\d.]+)</span>', panels)]
            want = np.concatenate([np.asarray(P["vals"], dtype=float) / PROB_UNITS for P in d["panels"]])
            assert np.allclose(nums, want, atol=1e-12)
            s = np.asarray(solution.strategies[0][()])
            acts = game.action_labels(0)[()]
            bet = 1.0 - sum(s[:, k] for k, a in enumerate(acts) if a in ("f", "k", "c"))   # seat 0 opens
            assert np.max(np.abs(np.asarray(nums[:len(bet)]) - bet)) <= HALF_UNIT + 1e-9
        elif family == "guts":
            rows = re.findall(r'<td class="at">([\d.]+)</td><td class="w">([\d.]+)</td>', panels)
            got = [(float(a), float(w)) for a, w in rows]
            want = [(a, w) for ln in d["panels"][0]["lines"] for a, w in zip(ln["at"], ln["w"])]
            assert np.allclose(got, want, atol=5e-7)
            assert "player 1: " in dom and "coalition: " in dom
        else:
            segs = re.findall(r'data-lo="([\d.]+)" data-hi="([\d.]+)" data-what="([^"]+)"', panels)
            want = [(lo, hi, what) for r in d["panels"][0]["rows"] for lo, hi, what, _ in r["segs"]]
            assert len(segs) == len(want)
            for (lo, hi, what), (wlo, whi, wwhat) in zip(segs, want):
                assert abs(float(lo) - wlo) <= 5e-7 and abs(float(hi) - whi) <= 5e-7 and what == wwhat
