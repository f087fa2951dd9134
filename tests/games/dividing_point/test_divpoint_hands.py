"""FIG. 29: a dividing point on a discrete ranked hand list (claims 31-33)."""
import pytest

from guts.errors import GutsInputError
from guts.games.dividing_point import hand_strategy, split_at

RANKS = [0.2646, 0.2676, 0.2706, 0.2736]


def test_divpoint_fig_29_lowest():
    s = split_at(RANKS, 0.2686, "lowest")
    assert (s.lower, s.upper) == (1, 2)
    assert s.a == pytest.approx(0.0010) and s.b == pytest.approx(0.0020)
    assert s.p_lower_above == pytest.approx(2 / 3)  # "two-thirds of its 2910 hands"
    assert s.p_upper_above == 1.0                    # "always ... with its 2920 hands"


def test_divpoint_highest_and_both():
    s = split_at(RANKS, 0.2686, "highest")  # the upper hand plays the action below a/(a+b)
    assert s.p_lower_above == 0.0 and 1 - s.p_upper_above == pytest.approx(1 / 3)
    s = split_at(RANKS, 0.2686, "both")
    assert s.p_lower_above == pytest.approx(2 / 3) and 1 - s.p_upper_above == pytest.approx(1 / 3)


def test_divpoint_virtual_hand_mass():
    # the expected number of hands playing the action above is linear in the point between
    # two ranks, and equals the count of hands strictly above plus b/(a+b) of the lower one
    for v in (0.2680, 0.2690, 0.2700):
        s = split_at(RANKS, v, "lowest")
        assert s.p_lower_above == pytest.approx((RANKS[2] - v) / (RANKS[2] - RANKS[1]))


def test_divpoint_hand_strategy_on_an_axis():
    rows = hand_strategy(RANKS, [(0.0, 0.2686, "pass-fold", "C1"), (0.2686, 1.0, "pass-call")], {"C1": "lowest"})
    assert rows[0] == {"pass-fold": 1.0}
    assert rows[1]["pass-call"] == pytest.approx(2 / 3)
    assert rows[2] == rows[3] == {"pass-call": 1.0}


def test_divpoint_exact_hit_follows_the_definition():
    rows = hand_strategy(RANKS, [(0.0, 0.2676, "fold", "C2"), (0.2676, 1.0, "call")])
    assert rows[1] == {"call": 1.0}  # "a hand having a ranking equal to C1 will follow pass-call"


@pytest.mark.parametrize("ranks", [[], [0.3, 0.2], [0.1, 1.5]])
def test_divpoint_bad_ranks(ranks):
    with pytest.raises(GutsInputError):
        split_at(ranks, 0.2, "lowest")


def test_divpoint_bad_kind():
    with pytest.raises(GutsInputError):
        split_at(RANKS, 0.27, "middle")
