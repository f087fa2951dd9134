"""Strategy spaces: counts, the paper's product indexing, and the multiset reduction."""
from math import comb

import numpy as np
import pytest

from guts import GutsInputError, solve_coalition
from guts.games.guts.strategies import coalition_profiles, count_profiles, mesh, product_index, pseudo_bloc_parts


@pytest.mark.parametrize("structure,N,M,expected", [
    ("bloc", 4, 11, 11), ("pseudo-bloc", 4, 11, 121), ("pseudo-bloc", 1, 11, 11),
    ("full", 3, 11, comb(13, 3)), ("product", 3, 5, 125)])
def test_counts(structure, N, M, expected):
    assert count_profiles(N, M, structure) == expected
    assert coalition_profiles(N, mesh(M), structure).shape == (expected, N)


def test_product_space_uses_paper_indexing():
    """§4.1.3: column j1 + j2 M + j3 M^2 has member k at mesh index j_k."""
    M, N = 4, 3
    g = mesh(M)
    prof = coalition_profiles(N, g, "product")
    for idx in [(0, 0, 0), (1, 2, 3), (3, 0, 2), (2, 2, 1)]:
        j = product_index(idx, M)
        np.testing.assert_allclose(prof[j], g[list(idx)])
        # the paper's retrieval rule floor((x mod M^i) / M^(i-1))
        assert [(j % M**i) // M ** (i - 1) for i in range(1, N + 1)] == list(idx)


def test_full_is_all_multisets():
    prof = coalition_profiles(3, mesh(5), "full")
    assert np.all(np.diff(prof, axis=1) >= 0)
    assert len({tuple(r) for r in prof}) == prof.shape[0]


@pytest.mark.parametrize("N,M", [(2, 6), (3, 5)])
def test_multiset_reduction_keeps_the_value(N, M):
    """Product space (M^N columns) and its multiset reduction give the same game value."""
    full = solve_coalition(N, M, structure="full", solver="lp")
    prod = solve_coalition(N, M, structure="product", solver="lp")
    assert full.coalition_value == pytest.approx(prod.coalition_value, abs=1e-10)
    assert full.lower == pytest.approx(prod.lower, abs=1e-10)


def test_pseudo_bloc_contains_bloc_and_is_contained_in_full():
    """bloc ⊂ pseudo-bloc ⊂ full, so the coalition's value is monotone in the space."""
    v = {s: solve_coalition(3, 11, structure=s, solver="lp").coalition_value for s in ("bloc", "pseudo-bloc", "full")}
    assert v["bloc"] <= v["pseudo-bloc"] + 1e-10 <= v["full"] + 2e-10


def test_pseudo_bloc_parts():
    assert pseudo_bloc_parts((0.0, 0.9, 0.9)) == (0.0, 0.9)
    assert pseudo_bloc_parts((0.1, 0.2, 0.3)) is None


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, "x", None])
def test_bad_mesh(bad):
    with pytest.raises(GutsInputError, match="mesh"):
        mesh(bad)


def test_bad_structure_and_size():
    with pytest.raises(GutsInputError, match="structure"):
        coalition_profiles(2, mesh(3), "clique")
    with pytest.raises(GutsInputError, match="size"):
        coalition_profiles(0, mesh(3), "bloc")
    with pytest.raises(GutsInputError, match="at most"):
        coalition_profiles(6, mesh(101), "product")
