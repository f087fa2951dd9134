"""What `guts continuum` prints about mesh refinement: the observed order between successive
meshes, and whether those orders show an asymptotic regime."""
import numpy as np
import pandas as pd

from guts.studies.continuum import ASYMPTOTIC_SPREAD, refinement_rates, successive_orders

ORDER_TOL = 1e-9
MESHES = (21, 51, 101, 201, 401, 801)


def _ref(N, diffs):
    return pd.DataFrame({"N": N, "mesh": list(MESHES), "diff": list(diffs)})


def test_successive_orders_of_a_pure_power_are_its_exponent():
    h = 1.0 / (np.array(MESHES) - 1.0)
    for p in (1.0, 2.0, 3.5):
        assert np.allclose(successive_orders(MESHES, 0.7 * h**p), p, atol=ORDER_TOL)
    # the closed form on two meshes: halving h with the error divided by 8 is order 3
    assert abs(successive_orders([101, 201], [8e-6, 1e-6])[0] - 3.0) <= ORDER_TOL


def test_regime_asymptotic_scattered_exact_and_too_few():
    h = 1.0 / (np.array(MESHES) - 1.0)
    scatter = 3.0 * h**2 * np.array([1.0, 0.1, 1.0, 0.1, 1.0, 0.1])  # bounded by C h^2, not a power
    ref = pd.concat([_ref(2, 3.0 * h**2), _ref(3, scatter), _ref(1, np.full(6, 2e-16))])
    rates = refinement_rates(ref).set_index("N")
    assert rates.loc[2, "regime"] == "asymptotic" and abs(rates.loc[2, "rate"] - 2.0) <= ORDER_TOL
    assert abs(rates.loc[2, "envelope"] - 3.0) <= ORDER_TOL
    assert rates.loc[3, "regime"] == "not asymptotic" and not rates.loc[3, "asymptotic"]
    orders = np.array(rates.loc[3, "orders"].split(), dtype=float)
    assert np.ptp(orders) > ASYMPTOTIC_SPREAD and orders.min() < 0   # the error grows between two meshes
    assert rates.loc[3, "envelope"] <= 3.0 + ORDER_TOL                 # yet the C h^2 bound holds
    assert rates.loc[1, "regime"] == "exact"
    two = refinement_rates(_ref(2, 3.0 * h**2)[lambda d: d.mesh <= 101]).set_index("N")
    assert two.loc[2, "regime"] == "too few meshes"   # one order over M >= 51 cannot show settling


def test_committed_refinement_is_not_in_the_asymptotic_regime():
    """docs/guts.md states it: on M = 21..801 the successive orders scatter for every N >= 2."""
    from pathlib import Path

    ref = pd.read_csv(Path(__file__).resolve().parents[2] / "results" / "mesh_refinement.csv")
    rates = refinement_rates(ref).set_index("N")
    assert rates.loc[1, "regime"] == "exact"
    assert (rates.drop(index=1)["regime"] == "not asymptotic").all()
