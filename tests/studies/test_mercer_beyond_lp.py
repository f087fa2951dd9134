"""Beyond the paper: the two-player rows are exact sequence-form LPs when the
LP's memory and size estimates allow it, and the LP value lies inside the bracket an
independent method (CFR+, best-response gains) gives for the same game."""
import pytest

from guts.engine.tolerances import LP_CERT_TOL
from guts.games.poker.mercer import build_game, solve, variant_rules
from guts.studies.mercer import BEYOND_LP_MAX_NONZEROS, beyond_row, beyond_uses_lp


@pytest.mark.parametrize("label, variant, opts", [
    ("limit, check allowed", "smh", dict(betting="limit", check=True)),
    ("limit, raise 4 or 8", "smh", dict(betting="limit", bets=(4.0, 8.0))),
])
def test_beyond_lp_row_is_exact_and_inside_an_independent_cfr_bracket(label, variant, opts):
    row = beyond_row((label, variant, 2, opts, None))
    assert row["method"] == "lp" and row["converged"]
    # exact: the best-response gains of the LP pair close the bracket to the certificate
    assert 0.0 <= row["value_upper"] - row["value_lower"] <= 2 * LP_CERT_TOL * 8.0
    cfr = solve(variant, 2, "cfr+", target=1e-3 / 2, **opts)      # exploitability: NashConv 1e-3
    lo, hi = cfr.values[0] - cfr.gains[1], cfr.values[0] + cfr.gains[0]
    assert hi - lo <= 2e-3
    assert lo - 1e-12 <= row["value_0"] <= hi + 1e-12


def test_beyond_chooses_the_lp_from_its_estimates_before_building_it():
    """2P-MMH with a check (54 225 information sets) is an LP now; the estimate is read
    from the compiled tree (nothing is built) and bounds the LP's size."""
    from guts.engine.extensive.lp import lp_memory_estimate

    game = build_game(variant_rules("mmh", 2, check=True)).game
    nnz, need = lp_memory_estimate(game)
    assert nnz <= BEYOND_LP_MAX_NONZEROS and need < 2**30
    assert beyond_uses_lp(game)


#: CFR+ brackets [value_lower, value_upper] of the former committed beyond.csv (2026-11-23,
#: predictive CFR+ to NashConv <= 1e-3): an independent computation of the same values.
FORMER_CFR_BRACKETS = {
    "fixed, check allowed": (-7.1261e-4, 2.6813e-4),
    "fixed, bets 4 or 8": (-0.419770, -0.418807),
    "limit, check allowed": (-0.1051457, -0.1041606),
}


def test_committed_beyond_2p_rows_are_exact_and_inside_the_former_cfr_brackets():
    import pathlib

    import pandas as pd

    df = pd.read_csv(pathlib.Path(__file__).resolve().parents[2] / "results" / "mercer" / "beyond.csv")
    two = df[df.variant.str.startswith("2P")]
    lp = two[two.method == "lp"]
    assert (lp.value_upper - lp.value_lower <= 2 * LP_CERT_TOL * 8.0).all()
    for note, (lo, hi) in FORMER_CFR_BRACKETS.items():
        row = two[(two.variant == "2P-MMH") & (two.note == note)].iloc[0]
        assert row.method == "lp" and lo <= row.value_0 <= hi
