"""One vocabulary: the old names of renamed knobs are refused (not silently taken), and
docs/engine.md's table lists every rename of guts._names.VOCABULARY."""
import re
from pathlib import Path

import numpy as np
import pytest

from guts._names import VOCABULARY

ROOT = Path(__file__).resolve().parents[1]


def _old_name_calls():
    from guts.engine.extensive import cfr_plus, fictitious_play
    from guts.engine.recursive import fixed_point
    from guts.games.continuous_poker.discrete import solve_discretised
    from guts.games.guts.coalition import solve_coalition
    from guts.games.guts.fictitious import fictitious_play as guts_fictitious_play
    from guts.games.guts.fictitious import payoff_tensor
    from guts.studies.large_n import run_large_n
    from guts.games.toy import kuhn_poker

    A, B = np.array([[0.5]]), np.array([[0.5]])
    return [(cfr_plus, (kuhn_poker(),), {"iterations": 5}),
            (cfr_plus, (kuhn_poker(),), {"target_exploitability": 0.1}),
            (fictitious_play, (kuhn_poker(),), {"epsilon": 0.05}),
            (fixed_point, (A, B), {"max_iter": 10}),
            (solve_discretised, (1.0, 1.0), {"hands": 10}),
            (solve_coalition, (1, 11), {"max_iter": 100}),
            (guts_fictitious_play, (), {"n_players": 3}),
            (payoff_tensor, (), {"n_players": 3}),
            (run_large_n, ([1],), {"points": 20}),
            (run_large_n, ([1],), {"max_rounds": 2}),
            (run_large_n, ([1],), {"study_points": 0})]


def test_old_names_are_refused_naming_the_keyword():
    for func, args, kwargs in _old_name_calls():
        (old,) = kwargs
        with pytest.raises(TypeError, match=old):
            func(*args, **kwargs)


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
               "solve_large_n": {"points", "max_rounds"},
               "run_large_n": {"points", "max_rounds", "study_points"}, "payoff_tensor": {"n_players"}, "solve_discretised": {"hands"}, "solve": {"epsilon"}}
    bad = []
    for path in (ROOT / "guts").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                for kw in node.keywords:
                    if kw.arg in renames.get(name, ()) or (name == "fictitious_play" and kw.arg == "n_players"):
                        if name == "fictitious_play" and kw.arg == "epsilon" and "guts/games/guts" in str(path):
                            continue
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}({kw.arg}=)")
    assert bad == []
