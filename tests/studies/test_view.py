"""The strategy explorer (guts.studies.view, ``guts view``): one self-contained HTML page whose
embedded data are the solution's strategies, with every label escaped.

The probabilities read back from the page are compared with the solution's own strategies
(stored to four decimals: error at most half a unit of 1e-4); the tree read back from the
page's flat arrays is compared with the game's public tree (same number of public nodes,
every information set of the solution exactly once).  The browser test renders the page
in headless Chromium and reads the rendered DOM.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

from guts.engine.extensive import Deals, Decision, PublicTreeGame, Terminal, read_efg, solve_lp, write_efg
from guts.games.toy import kuhn_poker, leduc_poker
from guts.studies.view import CHANCE, GROUP, PROB_UNITS, read_page, write_view

DATA = re.compile(r'<script type="application/json" id="guts-data">(.*?)</script>', re.S)


def _page(path):
    text = path.read_text(encoding="utf-8")
    m = DATA.search(text)
    assert m is not None and json.loads(m.group(1))["format"] == 2
    return text, read_page(text)


def _histories(d):
    """History (tuple of labels) of every node, from the page's flat arrays."""
    hist = [()] * len(d["lab"])
    for i, (k0, nk) in enumerate(zip(d["kid0"], d["nkid"])):
        for j in range(k0, k0 + nk):
            hist[j] = hist[i] + (d["labs"][d["lab"][j]],)
    return hist


@pytest.fixture(scope="module", params=["kuhn", "leduc"])
def solved(request, tmp_path_factory):
    game = kuhn_poker() if request.param == "kuhn" else leduc_poker()
    result = solve_lp(game)
    path = write_view(result, game, tmp_path_factory.mktemp("view") / f"{request.param}.html")
    return game, result, path


def test_page_is_self_contained(solved):
    _, _, path = solved
    text, _ = _page(path)
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"""(src|href)\s*=""", text)          # nothing loaded from anywhere
    assert text.count("<script") == 3 and text.count("</script>") == 3       # data, probabilities, code


def test_embedded_probabilities_are_the_solutions(solved):
    game, result, path = solved
    text, d = _page(path)
    hist = _histories(d)
    assert d["np"] == game.num_players and d["types"] == [list(t) for t in game.deals.type_labels]
    seen = [set() for _ in range(game.num_players)]
    for i, p in enumerate(d["mover"]):
        if p < 0:
            continue
        h = hist[i]
        s = np.asarray(result.strategies[p][h])
        acts = [d["labs"][d["lab"][d["kid0"][i] + a]] for a in range(d["nkid"][i])]
        assert tuple(acts) == game.action_labels(p)[h]
        got = np.asarray(d["p"][d["off"][i]:d["off"][i] + s.size], dtype=float).reshape(s.shape) / PROB_UNITS
        assert np.max(np.abs(got - s)) <= 1e-4
        seen[p].add(h)
    for p in range(game.num_players):
        assert seen[p] == set(result.strategies[p])           # every information set exactly once
    # the public tree of these games: every chance node leads to decisions, so the tree of
    # histories is the whole public tree
    assert len(d["lab"]) == game.compiled.kind.size
    # rounds (public chance events above a decision): Kuhn has one, Leduc two (before and
    # after the public card)
    index = {h: i for i, h in enumerate(hist)}
    rounds = {sum(d["mover"][index[h[:k]]] == CHANCE for k in range(len(h))) for h, m in zip(hist, d["mover"])
              if m >= 0}
    assert rounds == ({0} if game.name.startswith("kuhn") else {0, 1})
    # the certificate at the top
    c = result.certificate
    assert f"{c.exploitability:.4g}" in text and "<th>method</th><td>lp</td>" in text
    for v in result.values:
        assert f"{v:+.6f}" in text


def _odd_game():
    """One decision of player 0 whose type and action labels are HTML metacharacters."""
    types = ['<b>', '&amp;"q\'']
    deals = Deals([0.5, 0.5], [[0, 1], [0, 0]], type_labels=[types, ["-"]])
    acts = {"</script><script>alert(1)</script>": Terminal([1.0, -1.0]),
            "a&b<i>": Terminal(np.array([[-1.0, 2.0], [1.0, -2.0]]))}
    return PublicTreeGame(Decision(0, acts), deals, 2, name="<odd & game>"), types, list(acts)


def test_labels_are_escaped(tmp_path):
    game, types, acts = _odd_game()
    result = solve_lp(game)
    text, d = _page(write_view(result, game, tmp_path / "odd.html", title='<img src=x onerror="1">'))
    for raw in [*types, *acts, "<odd & game>", "<img"]:
        assert raw not in text
    assert "&lt;img src=x onerror=&quot;1&quot;&gt;" in text
    assert d["types"][0] == types and d["labs"] == acts and d["title"] == '<img src=x onerror="1">'
    # type <b> takes the first action (payoff 1 > -1), type &amp;"q' the second (2 > -1)
    assert d["p"] == [PROB_UNITS, 0, 0, PROB_UNITS]


def test_command_writes_the_page(tmp_path, capsys):
    from guts.cli import main

    efg = tmp_path / "kuhn.efg"
    write_efg(kuhn_poker(), efg)
    game = read_efg(efg)
    solve_lp(game).save(tmp_path / "kuhn.npz")
    assert main(["view", str(tmp_path / "kuhn.npz"), "--game", str(efg)]) == 0
    out = capsys.readouterr().out.strip()
    assert out == str(tmp_path / "kuhn.html")
    _, d = _page(tmp_path / "kuhn.html")
    # an explicit game (information sets named by labels): one folder of information sets per player
    assert d["explicit"] and d["mover"][0] == GROUP and d["nkid"][0] == 2
    result = solve_lp(game)
    for i, h in enumerate(_histories(d)):
        if d["mover"][i] >= 0:
            p = d["mover"][i]
            assert h[0] == f"player {p}" and len(h) == 2
            s = np.asarray(result.strategies[p][h[1]])
            got = np.asarray(d["p"][d["off"][i]:d["off"][i] + s.size], dtype=float).reshape(s.shape) / PROB_UNITS
            assert np.max(np.abs(got - s)) <= 1e-4
    assert sum(m >= 0 for m in d["mover"]) == sum(len(game.decision_histories(p)) for p in range(2))
    # another game's solution, a missing file, another suffix: one line, exit 2, nothing written
    for argv in (["view", str(tmp_path / "kuhn.npz"), "--game", "no_such.toml"],
                 ["view", str(tmp_path / "none.npz"), "--game", str(efg)],
                 ["view", str(tmp_path / "kuhn.npz"), "--game", str(efg), "--out", str(tmp_path / "k.txt")]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("guts view: error: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kuhn.efg", "kuhn.html", "kuhn.npz"]


def test_documented_command(tmp_path, monkeypatch, capsys):
    """The two lines of docs/view.md (the solve writing its CSV into a folder of its own)."""
    pytest.importorskip("pyspiel")
    from guts.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["solve-game", "openspiel:kuhn_poker", "--save", "results/runs/kuhn.npz"]) == 0
    assert main(["view", "results/runs/kuhn.npz", "--game", "openspiel:kuhn_poker"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "results/runs/kuhn.html"
    assert [p.name for p in tmp_path.iterdir()] == ["results"]      # nothing outside the scratch folder
    _, d = _page(tmp_path / "results" / "runs" / "kuhn.html")
    assert d["np"] == 2 and sum(m >= 0 for m in d["mover"]) == 4      # Kuhn: four public decision nodes


def _chromium():
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.mark.browser
def test_page_renders_in_chromium(tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    game = kuhn_poker()
    result = solve_lp(game)
    page = write_view(result, game, tmp_path / "kuhn.html")
    flags = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}"]
    shot = tmp_path / "shots" / "kuhn.png"
    shot.parent.mkdir()
    # one launch: the rendered DOM on stdout and a screenshot
    dom = subprocess.run([*flags, "--window-size=800,600", f"--screenshot={shot}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert 'id="certificate"' in dom and "exploitability" in dom
    tree = dom.split('id="tree"', 1)[1].split('id="guts-data"', 1)[0]     # empty until the script ran
    assert "(root)" in tree and "player 0 to act" in tree
    for row in np.asarray(result.strategies[0][()]):
        for v in row:
            assert f"{v:.4f}" in tree
    assert re.search(r'id="timing" data-ms="\d+(\.\d+)?"', dom)
    # filters from the address: player 1's decisions, type "2" only
    dom = subprocess.run([*flags, "--dump-dom", page.as_uri() + "#player=1&type=2"], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    listed = dom.split('id="list"', 1)[1].split('id="timing"', 1)[0]
    assert "Matching decisions" in listed
    assert listed.count("<table") == len(result.strategies[1]) == 2
    assert "<th>2</th>" in listed and "<th>0</th>" not in listed and "<th>1</th>" not in listed
    for h, s in result.strategies[1].items():
        assert f"{h[0]} \u2014 player 1" in listed
        for v in s[2]:
            assert f"{v:.4f}" in listed
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (800, 600)
