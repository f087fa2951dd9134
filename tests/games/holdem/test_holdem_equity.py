"""The exact preflop equity table: identities, independent enumeration, published figures,
and the checksum-guarded cache.  The table is loaded from the package cache, never rebuilt
here (except through a stub builder)."""
import itertools
import shutil
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from guts.errors import GutsInputError
from guts.games.holdem import equity
from guts.games.holdem import _kernel
from guts.games.holdem.cards import (CLASS_LABELS, class_combos, class_index, class_sizes, combo_classes,
                                     combos, pair_counts)
from guts.games.holdem.equities import (BOARDS_PER_PAIR, DEFAULT_TABLE_PATH, EquityCacheWarning,
                                      board_win_counts, load_equity_table, write_equity_table)

_pheval = pytest.importorskip("phevaluator._pheval")


@pytest.fixture(scope="module")
def table():
    return load_equity_table(rebuild=False)


def test_class_layout_and_deal_counts():
    assert class_sizes().sum() == 1326
    assert [class_sizes()[class_index(c)] for c in ("AA", "AKs", "AKo", "72o")] == [6, 4, 12, 12]
    n = pair_counts()
    assert n.sum() == 1326 * 1225
    assert np.array_equal(n, n.T)
    # closed forms: C(2,2) complementary pair; 6*6; AKs against AKs needs two other suits
    assert n[class_index("AA"), class_index("AA")] == 6
    assert n[class_index("AA"), class_index("KK")] == 36
    assert n[class_index("AKs"), class_index("AKs")] == 4 * 3
    assert n[class_index("AA"), class_index("AKo")] == 6 * (2 * 3)  # one of 2 free aces, a king off that suit
    assert n[class_index("AKo"), class_index("AKo")] == sum(
        1 for a, b in itertools.product(class_combos("AKo"), repeat=2) if not set(a) & set(b))


def test_labels_and_bad_class():
    assert CLASS_LABELS[0] == "AA" and CLASS_LABELS[1] == "AKs" and CLASS_LABELS[13] == "AKo"
    assert CLASS_LABELS[168] == "22"
    assert class_index("KAo") == class_index("AKo")
    for bad in ("AKx", "AK", "A", "11", "AAs", "", None, 169):
        with pytest.raises(GutsInputError, match="unknown hand class"):
            class_index(bad)
    with pytest.raises(GutsInputError, match="unknown hand class"):
        equity("AA", "K9")


def test_identities(table):
    W, T, n = table.win, table.tie, table.pairs
    # every (combo pair, board) is a win, a loss or a tie; the loss count of (i, j) is win(j, i)
    assert np.array_equal(W + W.T + T, n * BOARDS_PER_PAIR)
    lose = table.win_prob.T
    assert np.allclose(table.win_prob + lose + table.tie_prob, 1.0, atol=1e-15, rtol=0)
    # a class against itself is an even game
    d = np.arange(169)
    assert np.array_equal(W[d, d] * 2 + T[d, d], n[d, d] * BOARDS_PER_PAIR)
    # all (combo pair, board) triples: 1326 * 1225 * C(48, 5)
    assert (W.sum() * 2 + T.sum()) == 1326 * 1225 * comb(48, 5)
    assert np.allclose(table.equity + table.equity.T, 1.0, atol=1e-14, rtol=0)


def _orbits(cls_a, cls_b):
    """Disjoint concrete combo pairs of two classes grouped by suit permutation: {rep: count}."""
    out = {}
    for a, b in itertools.product(class_combos(cls_a), class_combos(cls_b)):
        if set(a) & set(b):
            continue
        key = min((tuple(sorted(4 * (c // 4) + p[c % 4] for c in a)), tuple(sorted(4 * (c // 4) + p[c % 4] for c in b)))
                  for p in itertools.permutations(range(4)))
        out[key] = out.get(key, 0) + 1
    return out


def _direct_counts(a, b):
    """(win, loss, tie) of hole cards a vs b over all C(48, 5) boards, phevaluator (smaller wins)."""
    rest = [c for c in range(52) if c not in a and c not in b]
    w = l = t = 0
    ev = _pheval.evaluate_7cards
    for bd in itertools.combinations(rest, 5):
        x, y = ev(*bd, *a), ev(*bd, *b)
        if x < y:
            w += 1
        elif y < x:
            l += 1
        else:
            t += 1
    return w, l, t


@pytest.mark.parametrize("pair", [("AA", "AKs"), ("76s", "AKo"),
                                  ("T9s", "T9o")])
def test_class_pair_against_direct_enumeration_of_every_board(table, pair):
    orb = _orbits(*pair)
    i, j = class_index(pair[0]), class_index(pair[1])
    assert sum(orb.values()) == table.pairs[i, j]
    tot = np.zeros(3, dtype=np.int64)
    for (a, b), mult in orb.items():
        tot += mult * np.array(_direct_counts(a, b))
    assert (tot[0], tot[1], tot[2]) == (table.win[i, j], table.win[j, i], table.tie[i, j])


def test_board_counts_against_phevaluator_on_sampled_boards():
    rng = np.random.default_rng(7)
    cmb, cls = combos(), combo_classes()
    boards = [np.sort(rng.choice(52, 5, replace=False)) for _ in range(3)]
    boards.append(np.array([0, 4, 8, 12, 48]))      # 2c 3c 4c 5c Ac: a steel wheel on the board
    boards.append(np.array([48, 49, 50, 44, 45]))   # Ac Ad Ah Kc Kd: aces full on the board
    for board in boards:
        ok = np.array([not (set(c) & set(board.tolist())) for c in cmb.tolist()])
        cm, cl = cmb[ok], cls[ok]
        s = np.array([_pheval.evaluate_7cards(*map(int, board), int(x), int(y)) for x, y in cm])
        share = (cm[:, None, :, None] == cm[None, :, None, :]).any(axis=(2, 3))
        beats = (s[:, None] < s[None, :]) & ~share
        direct = np.zeros((169, 169), dtype=np.int64)
        ii, jj = np.nonzero(beats)
        np.add.at(direct, (cl[ii], cl[jj]), 1)
        assert np.array_equal(board_win_counts(board), direct)


def test_suit_orbit_weighting():
    """Class-level counts are invariant under suit permutations of the board: summing the
    counts of every image of a canonical board equals its orbit size times its counts."""
    boards, weights = _kernel.canonical_boards(_kernel.SUIT_PERMUTATIONS)
    assert len(boards) == 134459 and weights.sum() == comb(52, 5)
    rng = np.random.default_rng(3)
    for k in rng.choice(len(boards), 3, replace=False):
        b = boards[k]
        images = {tuple(sorted(4 * (c // 4) + p[c % 4] for c in b)) for p in itertools.permutations(range(4))}
        assert len(images) == weights[k]
        total = sum(board_win_counts(np.array(im)) for im in images)
        assert np.array_equal(total, weights[k] * board_win_counts(b))


def test_published_figures(table):
    # PokerStove / widely published all-in preflop equities, at their printed precision
    assert round(100 * equity("AA", "KK"), 2) == 81.95
    assert round(100 * equity("KK", "AA"), 2) == 18.05
    vr = dict(zip(CLASS_LABELS, table.vs_random()))
    assert round(100 * vr["AA"], 1) == 85.2
    assert round(100 * vr["KK"], 1) == 82.4
    assert round(100 * vr["AKs"], 1) == 67.0
    assert round(100 * vr["72o"], 1) == 34.6
    assert round(100 * vr["32o"], 1) == 32.3
    assert min(vr, key=vr.get) == "32o"
    # the seed author's exact AA-vs-random figure (girving/poker, heads-up: limit_donkey_equity)
    i = class_index("AA")
    exact = Fraction(2 * int(table.win[i].sum()) + int(table.tie[i].sum()), 2 * int(table.trials[i].sum()))
    assert exact == Fraction(893604787, 1048786200)
    assert table.equity_fraction("AA", "AA") == Fraction(1, 2)


def _copy_table(tmp_path):
    dst = tmp_path / "equity_table.npz"
    shutil.copy(DEFAULT_TABLE_PATH, dst)
    shutil.copy(str(DEFAULT_TABLE_PATH) + ".sha256", str(dst) + ".sha256")
    return dst


def test_corrupt_or_missing_cache_is_detected(tmp_path, table):
    path = _copy_table(tmp_path)
    load_equity_table(path, rebuild=False)                       # intact copy loads
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF                                   # flip one byte of the compressed data
    path.write_bytes(bytes(raw))
    with pytest.raises(GutsInputError, match="corrupt|sha256"):
        load_equity_table(path, rebuild=False)
    # a well-formed file with one count changed fails the checksum
    write_equity_table(table, path)
    with np.load(path) as d:
        arrays = {k: d[k] for k in d.files}
    arrays["win"][3, 5] += 1
    np.savez_compressed(path, **arrays)
    with pytest.raises(GutsInputError, match="sha256"):
        load_equity_table(path, rebuild=False)
    (tmp_path / "equity_table.npz.sha256").unlink()
    with pytest.raises(GutsInputError, match="checksum file"):
        load_equity_table(path, rebuild=False)
    with pytest.raises(GutsInputError, match="missing"):
        load_equity_table(tmp_path / "nowhere.npz", rebuild=False)


def test_corrupt_cache_is_rebuilt_not_used(tmp_path, table):
    path = _copy_table(tmp_path)
    path.write_bytes(b"not a zip file")
    calls = []

    def builder():
        calls.append(1)
        return table

    with pytest.warns(EquityCacheWarning, match="rebuilding"):
        t = load_equity_table(path, builder=builder)
    assert calls == [1] and np.array_equal(t.win, table.win)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t2 = load_equity_table(path, rebuild=False)             # the rewritten file verifies
    assert np.array_equal(t2.tie, table.tie)


@pytest.mark.parametrize("threads", ["abc", 1e300, 0, True])
def test_compute_equity_table_refuses_a_bad_thread_count_before_the_enumeration(threads):
    from guts.games.holdem.equities import compute_equity_table

    with pytest.raises(GutsInputError, match="threads"):
        compute_equity_table(threads=threads)
