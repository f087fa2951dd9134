"""solve_coalition validates what it is given, and a result without certificates is never
"converged" (a nan certificate certifies nothing)."""
import math

import numpy as np
import pytest

from guts.engine.result import check_result
from guts.errors import GutsInputError
from guts.games.guts.coalition import solve_coalition


@pytest.mark.parametrize("kwargs, names", [
    (dict(random_state="abc"), "random_state"),
    (dict(random_state=1.5), "random_state"),
    (dict(random_state=-1), "random_state"),
    (dict(certify_result="abc"), "certify_result"),
    (dict(certify_result=1), "certify_result"),
])
def test_bad_arguments_are_refused(kwargs, names):
    with pytest.raises(GutsInputError, match=names):
        solve_coalition(2, mesh=11, **kwargs)


def test_good_seeds_are_accepted():
    for seed in (None, 0, 7, np.random.default_rng(3)):
        assert solve_coalition(1, mesh=5, solver="fp", fp_iterations=20, random_state=seed).num_iter >= 1


def test_without_certificates_the_result_is_not_converged():
    bare = solve_coalition(2, mesh=11, certify_result=False)
    assert math.isnan(bare.certificate.measure) and not bare.certificate.holds(math.inf)
    assert not bare.converged and check_result(bare) == []
    full = solve_coalition(2, mesh=11)
    # the same fixed points: with the certificates the values are certified
    assert full.converged and full.certificate.holds(1e-8)
    assert abs(full.coalition_value - bare.coalition_value) <= 1e-12
