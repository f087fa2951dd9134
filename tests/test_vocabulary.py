"""One vocabulary (issue 19): every renamed knob is accepted under its old name with a
DeprecationWarning and means the same; both names at once is an error; docs/engine.md's
table lists every rename of guts._names.VOCABULARY."""
import re
from pathlib import Path

import numpy as np
import pytest

from guts._names import VOCABULARY, renamed
from guts.errors import GutsInputError

ROOT = Path(__file__).resolve().parents[1]


def test_old_names_warn_and_mean_the_same():
    from guts.engine.extensive import cfr_plus, fictitious_play
    from guts.engine.recursive import fixed_point
    from guts.games.toy import kuhn_poker

    game = kuhn_poker()
    new = cfr_plus(game, max_iterations=500, target=1e-2)
    with pytest.warns(DeprecationWarning, match="target_exploitability= is deprecated, use target="):
        old = cfr_plus(game, iterations=500, target_exploitability=1e-2)
    assert old.num_iter == new.num_iter and old.value == new.value
    with pytest.warns(DeprecationWarning, match="epsilon="):
        f = fictitious_play(game, epsilon=0.05)
    assert f.certificate.kind == "max_regret" and f.certificate.holds(0.05)
    A, B = np.array([[0.5]]), np.array([[0.5]])   # V = 0.5 + 0.5 V: V = 1
    seen = []
    with pytest.warns(DeprecationWarning):
        r = fixed_point(A, B, v0=0.0, max_iter=200, progress=lambda v, t: seen.append(v))
    assert r.value == pytest.approx(1.0, abs=1e-9) and seen and r.num_iter <= 200


def test_old_names_of_the_families():
    from guts.games.continuous_poker.discrete import solve_discretised
    from guts.games.guts.coalition import solve_coalition

    with pytest.warns(DeprecationWarning, match="hands="):
        a = solve_discretised(1.0, 1.0, hands=10, sizes=1)
    assert a.value == solve_discretised(1.0, 1.0, mesh=10, sizes=1).value
    with pytest.warns(DeprecationWarning, match="max_iter="):
        c = solve_coalition(1, 11, max_iter=100)
    assert abs(c.value) < 1e-9   # two-player Guts is fair (Prop. 3.3)


def test_both_names_is_an_error_and_renames_are_checked():
    from guts.engine.extensive import cfr_plus
    from guts.games.toy import kuhn_poker

    with pytest.raises(GutsInputError, match="give target= only"):
        cfr_plus(kuhn_poker(), target=0.1, target_exploitability=0.1)
    with pytest.raises(GutsInputError):
        renamed(mesh="target")   # not a rename the vocabulary knows


def test_docs_table_lists_every_rename():
    text = (ROOT / "docs" / "engine.md").read_text()
    table = text[text.index("| name | meaning | old names"):]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| [^|]* \|(.*)\|$", table, re.M)}
    for new, olds in VOCABULARY.items():
        assert new in rows, new
        for old in olds:
            assert f"`{old}`" in rows[new], (new, old)


def test_package_uses_no_deprecated_name():
    """No module of the package calls a renamed function with an old name (they would warn)."""
    import ast

    renames = {"cfr_plus": {"iterations", "target_exploitability"}, "fictitious_play": {"epsilon"},
               "fixed_point": {"max_iter", "progress"}, "solve_coalition": {"max_iter"}, "solve_teams": {"max_iter"},
               "double_oracle": {"max_rounds"}, "solve_continuum": {"max_rounds"},
               "solve_large_n": {"points", "max_rounds"}, "solve_discretised": {"hands"}, "solve": {"epsilon"}}
    bad = []
    for path in (ROOT / "guts").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                for kw in node.keywords:
                    if kw.arg in renames.get(name, ()):
                        if name == "fictitious_play" and kw.arg == "epsilon" and "guts/games/guts" in str(path):
                            continue
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}({kw.arg}=)")
    assert bad == []
