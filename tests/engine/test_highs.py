"""guts.engine.highs: the one module that calls HiGHS."""
import ast
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp

import guts
from guts.engine import highs
from guts.errors import SolverError

ROOT = pathlib.Path(guts.__file__).parent


def _solver_imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            if n.startswith("highspy") or n.endswith("linprog") or n.startswith("scipy.optimize._linprog"):
                yield n


def test_only_the_highs_module_calls_highs():
    offenders = {str(p.relative_to(ROOT)): list(_solver_imports(p))
                 for p in ROOT.rglob("*.py") if p.name != "highs.py" or p.parent.name != "engine"}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_infeasible_lp_raises_naming_the_status():
    # x >= 1 and x <= 0: infeasible (HiGHS status 2)
    with pytest.raises(SolverError, match=r"toy LP: status 2"):
        highs.linprog([1.0], A_ub=[[1.0]], b_ub=[0.0], bounds=[(1.0, None)], what="toy LP")


def _one_shot(A):
    """A matrix game as a sequence form: one decision per player, plans sum to one."""
    R, C = A.shape
    E = sp.csr_matrix(np.ones((1, R)))
    F = sp.csr_matrix(np.ones((1, C)))
    return sp.csr_matrix(A), E, np.ones(1), F, np.ones(1)


def test_sequence_form_maxmin_matching_pennies():
    x, y, v, _ = highs.sequence_form_maxmin(*_one_shot(np.array([[1.0, -1.0], [-1.0, 1.0]])))
    assert v == pytest.approx(0.0, abs=1e-12)
    assert x == pytest.approx([0.5, 0.5], abs=1e-9)
    assert y == pytest.approx([0.5, 0.5], abs=1e-9)


def test_equilibrium_range_unique_and_free():
    # matching pennies: the equilibrium is unique; a constant game: every plan is optimal
    assert highs.sequence_form_range(*_one_shot(np.array([[1.0, -1.0], [-1.0, 1.0]])), 0.0, 0.0, 0) \
        == pytest.approx((0.5, 0.5), abs=1e-9)
    assert highs.sequence_form_range(*_one_shot(np.ones((2, 2))), 1.0, 0.0, 0) \
        == pytest.approx((0.0, 1.0), abs=1e-9)


def test_dense_minimax_closed_form():
    # [[3, 0], [0, 1]]: x = y = (1/4, 3/4), value 3/4
    x, y, _ = highs.dense_minimax(np.array([[3.0, 0.0], [0.0, 1.0]]))
    assert x / x.sum() == pytest.approx([0.25, 0.75], abs=1e-9)
    assert y == pytest.approx([0.25, 0.75], abs=1e-9)
