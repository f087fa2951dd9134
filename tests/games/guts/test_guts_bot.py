"""The guts-bot (paper §5.1): chips, exact values, simulation, and the interactive game in a pty."""
import dataclasses
import itertools
import math
import os
import pty
import select
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guts import GutsInputError, fixed_point
from guts.studies.bot import load_bot_strategy
from guts.games.guts.bot import (GutsTable, bot_strategy, multiplier_moments, parse_support, play_games,
                      settle, simulate, stationary_value)
from guts.games.guts.payoffs import alpha, alpha_enumeration, beta, beta_enumeration
from guts.studies.table1 import paper_table1, run_table1


@pytest.fixture(scope="module")
def bot2():
    return bot_strategy(2, mesh=101)


@pytest.fixture(scope="module")
def bot2_coarse():
    return bot_strategy(2, mesh=21)


# ---------------------------------------------------------------------------
# One hand's chips (paper §3 rules)
# ---------------------------------------------------------------------------
def test_settle_each_case_by_the_rules():
    hands = np.array([[0.2, 0.8, 0.5]] * 4)
    holds = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 1]], dtype=bool)
    pot = np.array([3.0, 3.0, 3.0, 6.0])
    s = settle(hands, holds, pot)
    # nobody holds: redeal, pot stays
    assert s.payments[0].tolist() == [0, 0, 0] and s.new_pot[0] == 3 and s.winner[0] == -1 and not s.done[0]
    # a lone holder takes the pot: game over
    assert s.payments[1].tolist() == [0, 3, 0] and s.new_pot[1] == 0 and s.winner[1] == 1 and s.done[1]
    # two holders: the better (0.5) takes 3, the other matches it: new pot 3 (x (h-1) = 1)
    assert s.payments[2].tolist() == [-3, 0, 3] and s.new_pot[2] == 3 and s.winner[2] == 2 and not s.done[2]
    # three holders, pot 6: best takes 6, two losers pay 6 each: pot 12 (x 2)
    assert s.payments[3].tolist() == [-6, 6, -6] and s.new_pot[3] == 12 and s.holders[3] == 3


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), G=st.integers(1, 20), seed=st.integers(0, 2**32 - 1))
def test_settle_is_zero_sum_and_follows_the_rules(n, G, seed):
    rng = np.random.default_rng(seed)
    hands = rng.random((G, n))
    holds = rng.random((G, n)) < 0.5
    pot = n * rng.integers(1, 50, size=G).astype(float)
    s = settle(hands, holds, pot)
    np.testing.assert_array_equal(s.payments.sum(axis=1) + s.new_pot - pot, 0.0)  # chips are integers: exact
    h = holds.sum(axis=1)
    np.testing.assert_array_equal(s.new_pot, np.where(h == 0, pot, np.where(h == 1, 0.0, (h - 1) * pot)))
    for g in range(G):
        if h[g]:
            assert holds[g, s.winner[g]] and hands[g, s.winner[g]] == hands[g][holds[g]].max()
            assert s.payments[g, s.winner[g]] == pot[g]
        others = np.delete(np.arange(n), s.winner[g]) if h[g] else np.arange(n)
        np.testing.assert_array_equal(s.payments[g, others], np.where(holds[g, others], -pot[g], 0.0))


def test_chips_telescope_to_the_papers_alpha_and_beta():
    """Real chips + stakes after a hand at stakes 1 (pot n): mean change = α_1, mean pot ratio = β (§3)."""
    rng = np.random.default_rng(11)
    thr = np.array([0.3, 0.7, 0.55, 0.9])
    n, G = thr.size, 400_000
    u = rng.random((G, n))
    s = settle(u, u > thr, np.full(G, float(n)))
    virtual = s.payments[:, 0] + s.new_pot / n - 1.0   # chips + stakes share after - before
    se = virtual.std() / math.sqrt(G)
    assert abs(virtual.mean() - float(alpha(thr[0], thr[1:]))) < 4 * se
    ratio = s.new_pot / n
    assert abs(ratio.mean() - float(beta(thr))) < 4 * ratio.std() / math.sqrt(G)


# ---------------------------------------------------------------------------
# The strategies come from the package; exact values of stationary play
# ---------------------------------------------------------------------------
@pytest.mark.slow
def test_bot_plays_the_fixed_point_for_every_table1_size():
    paper = paper_table1().set_index("N")
    for N in range(1, 16):
        s = bot_strategy(N, mesh=101)
        assert s.size == N and s.mesh == 101 and s.profiles.shape[1] == N
        assert abs(s.weights.sum() - 1) < 1e-12 and abs(s.player1_weights.sum() - 1) < 1e-12
        assert abs(-s.value - paper.loc[N, "opponent_value"]) < 5e-4   # Table 1, fictitious-play precision
        assert s.certified_lower - 1e-12 <= s.value <= s.certified_upper + 1e-12
        # x A y / (1 - x B y) = V at the fixed point: both mixtures redrawn every hand give V per game
        assert abs(stationary_value(s) - s.value) < 1e-9
        beta_, gamma = multiplier_moments(s)
        assert beta_ < 1 and gamma < 1   # finite mean and variance of a game's return


def test_every_profile_of_the_support_is_an_equalizer(bot2):
    """Each pure profile j in y's support gives W(x*, j) = V, and a loose threshold breaks a fixed profile."""
    for j in range(bot2.weights.size):
        pure = dataclasses.replace(bot2, profiles=bot2.profiles[j:j + 1], weights=np.ones(1))
        assert abs(stationary_value(pure) - bot2.value) < 1e-9
    pseudo = next(j for j in range(bot2.weights.size) if bot2.profiles[j, 0] == 0.0)
    pure = dataclasses.replace(bot2, profiles=bot2.profiles[pseudo:pseudo + 1], weights=np.ones(1))
    q = 1.0 - bot2.profiles[pseudo, 1]          # β = (1 - q) + 1 + (1 - p3) - 1 = 1 at q = 1 - p3
    assert multiplier_moments(pure, q - 0.01)[0] > 1 and math.isnan(stationary_value(pure, q - 0.01))
    assert multiplier_moments(bot2, q - 0.01)[0] < 1   # the per-hand mixture keeps the stakes shrinking


def test_threshold_value_against_the_enumeration_oracle(bot2):
    """W(q, y) = Σ y_j α_j / (1 - Σ y_j β_j) with the paper's Θ(n 3^n) enumeration."""
    for s in (bot2, bot_strategy(3, mesh=21)):
        for q in (0.0, 0.3, 0.64, 0.8, 1.0):
            a = sum(w * alpha_enumeration([q, *p])[0] for p, w in zip(s.profiles, s.weights))
            b = sum(w * beta_enumeration([q, *p]) for p, w in zip(s.profiles, s.weights))
            assert abs(stationary_value(s, q) - a / (1 - b)) < 1e-12


def test_threshold_value_is_the_fixed_point_of_the_one_row_game(bot2):
    from guts.games.guts.payoffs import alpha_matrix, beta_matrix

    for q in (0.5, 0.64, 0.9):
        A = alpha_matrix([q], bot2.profiles) @ bot2.weights
        B = beta_matrix([q], bot2.profiles) @ bot2.weights
        fp = fixed_point(A[:, None], B[:, None], v0=-1.0, solver="lp")
        assert fp.converged and abs(fp.value - stationary_value(bot2, q)) < 1e-9
    # no threshold beats the fixed-point value against the coalition's mixture (it is optimal)
    grid = np.linspace(0, 1, 101)
    assert max(stationary_value(bot2, q) for q in grid) <= bot2.value + 1e-9


def test_multiplier_moments_by_brute_force(bot2):
    for q in (None, 0.2, 0.9):
        qs, xs = (bot2.player1_thresholds, bot2.player1_weights) if q is None else ([q], [1.0])
        m1 = m2 = 0.0
        for (qi, xi), (p, yj) in itertools.product(zip(qs, xs), zip(bot2.profiles, bot2.weights)):
            t = np.array([qi, *p])
            for pattern in itertools.product([0, 1], repeat=t.size):
                prob = np.prod(np.where(pattern, 1 - t, t))
                h = sum(pattern)
                mult = 1.0 if h == 0 else (0.0 if h == 1 else h - 1.0)
                m1 += xi * yj * prob * mult
                m2 += xi * yj * prob * mult**2
        b, g = multiplier_moments(bot2, q)
        assert abs(b - m1) < 1e-12 and abs(g - m2) < 1e-12


def test_infinite_stakes_have_no_value():
    s = bot_strategy(15, mesh=101)
    b, _ = multiplier_moments(s, 0.0)   # always holding against 15: the stakes grow on average
    assert b >= 1 and math.isnan(stationary_value(s, 0.0))


# ---------------------------------------------------------------------------
# Simulation against the exact values
# ---------------------------------------------------------------------------
def test_simulated_mean_matches_the_game_value(bot2):
    r = simulate(bot2, games=200_000, random_state=0)
    assert abs(r.exact - bot2.value) < 1e-9
    assert r.ci_low <= bot2.value <= r.ci_high and r.contains
    assert abs(r.z) < 4
    assert abs(r.ci_high - r.mean - 1.959964 * r.stderr) < 1e-5 * r.stderr
    assert r.max_zero_sum_error == 0 and r.unfinished == 0


def test_simulation_tells_a_bad_threshold_from_the_optimum(bot2):
    w = stationary_value(bot2, 0.3)
    assert w < bot2.value - 0.05
    r = simulate(bot2, games=200_000, player1=0.3, random_state=1)
    assert r.ci_low <= w <= r.ci_high
    assert not (r.ci_low <= bot2.value <= r.ci_high)


@pytest.mark.parametrize("N,player1", [(1, None), (3, None), (3, 0.9), (8, 0.88)])
def test_simulated_mean_within_four_standard_errors(N, player1):
    s = bot_strategy(N, mesh=21)
    r = simulate(s, games=100_000, player1=player1, random_state=N)
    assert abs(r.mean - stationary_value(s, player1)) < 4 * r.stderr


def test_confidence_interval_coverage(bot2_coarse):
    """200 independent 95% intervals: the binomial(200, 0.95) count is >= 180 except w.p. ~1e-3."""
    rng = np.random.default_rng(2024)
    hits = sum(simulate(bot2_coarse, games=4_000, random_state=rng).contains for _ in range(200))
    assert 180 <= hits <= 200


def test_simulation_is_reproducible(bot2_coarse):
    a = simulate(bot2_coarse, games=5_000, random_state=7)
    b = simulate(bot2_coarse, games=5_000, random_state=7)
    c = simulate(bot2_coarse, games=5_000, random_state=8)
    np.testing.assert_array_equal(a.returns, b.returns)
    assert a.mean != c.mean


def test_every_game_is_zero_sum_and_starts_with_antes(bot2_coarse):
    rec = play_games(bot2_coarse, 20_000, player1=0.6, random_state=3)
    assert rec.finished.all()
    np.testing.assert_array_equal(rec.balances.sum(axis=1), 0.0)
    np.testing.assert_array_equal(rec.pot, 0.0)
    # a one-hand game: the lone holder nets n - 1, everyone else loses the ante
    one = rec.hands == 1
    assert one.any()
    b = rec.balances[one]
    assert np.all(np.sort(b, axis=1) == [-1.0, -1.0, 2.0])
    # games end only when one player holds alone: a winner nets a positive amount
    assert np.all(rec.balances.max(axis=1) > 0)


# ---------------------------------------------------------------------------
# The interactive table's bookkeeping
# ---------------------------------------------------------------------------
def test_table_running_balances_add_up(bot2_coarse):
    t = GutsTable(bot2_coarse, random_state=5)
    rng = np.random.default_rng(0)
    ledger = np.zeros(3)
    game = np.zeros(3)
    for _ in range(3000):
        d = t.deal()
        if d.new_game:
            ledger -= 1
            game = np.full(3, -1.0)
            assert d.pot == 3 and d.hand == 1
        r = t.resolve(bool(rng.random() < 0.5))
        ledger += r.payments
        game += r.payments
        np.testing.assert_array_equal(t.balances, ledger)
        np.testing.assert_array_equal(r.game_balances, game)
        assert t.balances.sum() + t.pot == 0
        if r.game_over:
            assert game.sum() == 0 and t.pot == 0 and r.holders == 1
    finished = sum(t.results)
    in_play = t.game_balances[0] if t.in_game else 0.0
    assert abs(finished + in_play - t.balances[0]) < 1e-9
    assert len(t.results) == t.games_started - int(t.in_game)


def test_cards_do_not_depend_on_how_you_play(bot2_coarse):
    bold, shy = GutsTable(bot2_coarse, random_state=9), GutsTable(bot2_coarse, random_state=9)
    for _ in range(300):
        a, b = bold.deal(), shy.deal()
        np.testing.assert_array_equal(a.hands, b.hands)
        assert a.profile_index == b.profile_index
        bold.resolve(True)
        shy.resolve(False)


def test_table_auto_play_earns_the_exact_value(bot2_coarse):
    t = GutsTable(bot2_coarse, random_state=1)
    for _ in range(20_000):
        d = t.deal()
        t.resolve(bool(d.hands[0] > 0.8))
    res = np.array(t.results)
    assert abs(res.mean() - stationary_value(bot2_coarse, 0.8)) < 4 * res.std() / math.sqrt(res.size)


# ---------------------------------------------------------------------------
# Strategies read from a Table 1 CSV
# ---------------------------------------------------------------------------
def test_load_from_table1_csv(tmp_path, bot2_coarse):
    run_table1([2, 3], mesh=21, solver="oracle", out=tmp_path, progress=False)
    s = load_bot_strategy(tmp_path / "table1.csv", 2)
    assert s.mesh == 21 and s.size == 2
    order = lambda st: np.lexsort(st.profiles.T[::-1])  # noqa: E731
    np.testing.assert_allclose(s.profiles[order(s)], bot2_coarse.profiles[order(bot2_coarse)])
    np.testing.assert_allclose(s.weights[order(s)], bot2_coarse.weights[order(bot2_coarse)], atol=1e-6)
    assert abs(s.value - bot2_coarse.value) < 1e-9
    assert abs(stationary_value(s) - s.value) < 1e-5   # the CSV rounds probabilities to 1e-6
    with pytest.raises(GutsInputError, match="no row N = 5"):
        load_bot_strategy(tmp_path / "table1.csv", 5)


@pytest.mark.parametrize("text", ["", "0.5", "0.5:x", "0.5/0.6:1", "0.5:0.7", "1.5:1", "0.5:-1 0.6:2"])
def test_parse_support_rejects_bad_text(text):
    with pytest.raises(GutsInputError):
        parse_support(text, 1)


# ---------------------------------------------------------------------------
# guts simulate / guts play from the command line
# ---------------------------------------------------------------------------
def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "guts", *args], capture_output=True, text=True, input=stdin,
                          timeout=300)


def test_simulate_command_reports_value_and_interval():
    p = run_cli("simulate", "-N", "2", "--mesh", "21", "--games", "100000", "--seed", "0")
    assert p.returncode == 0, p.stderr
    assert "mesh 21" in p.stdout and "95% CI" in p.stdout and "zero-sum" in p.stdout
    s = bot_strategy(2, mesh=21)
    r = simulate(s, games=100_000, random_state=0)
    assert f"{r.mean:+.5f}" in p.stdout and f"V = {s.value:+.9f}" in p.stdout
    assert ("inside" if r.contains else "OUTSIDE") in p.stdout


@pytest.mark.parametrize("args,needle", [
    (["play", "--opponents", "0"], "opponents"), (["play", "-N", "x"], "opponents"),
    (["play", "--seed", "-1"], "seed"), (["play", "--seed", "1.5"], "seed"),
    (["play", "--hands", "0"], "hands"), (["play", "--auto", "1.5"], "threshold"),
    (["simulate", "--games", "1"], "games"), (["simulate", "--player1", "abc"], "threshold"),
    (["simulate", "--table", "/nonexistent/table1.csv"], "cannot read table"),
    (["simulate", "--table", "x.csv", "--mesh", "21"], "either"),
])
def test_bad_input_exits_2_without_traceback(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert needle in p.stderr and "Traceback" not in p.stderr


def test_auto_play_is_reproducible_and_its_money_adds_up():
    args = ("play", "-N", "2", "--mesh", "21", "--seed", "4", "--auto", "0.7", "--hands", "30")
    p, q = run_cli(*args), run_cli(*args)
    assert p.returncode == 0 and p.stdout == q.stdout
    assert p.stdout.count("auto (hold above 0.7)") == 30
    assert "mesh 21" in p.stdout and "Value of the game for you: V =" in p.stdout
    # every displayed balance line sums to zero with the pot
    for line in p.stdout.splitlines():
        if "balances:" in line.lower():
            tail = line.split("alances:", 1)[1].replace("|", " ").replace(",", "")
            nums = [float(tok) for tok in tail.split() if tok[0] in "+-0123456789"]
            assert abs(sum(nums[:-1]) + nums[-1]) < 1e-9, line


# --- the interactive game through a pseudo-terminal -------------------------
class Pty:
    """``guts play`` on a pseudo-terminal: its controlling terminal, so Ctrl-C and Ctrl-D are real."""

    def __init__(self, *args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child
            # as an interactive shell does for a foreground job: default SIGINT, whatever
            # the test runner inherited (a background job starts with SIGINT ignored)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execv(sys.executable, [sys.executable, "-m", "guts", "play", *args])
        self.out = b""
        self.pos = 0  # end of the last match: each expect reads on from there

    def expect(self, needle: str, timeout: float = 60.0):
        needle_b = needle.encode()
        deadline = time.monotonic() + timeout
        while needle_b not in self.out[self.pos:]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {needle!r}; got:\n{self.out.decode(errors='replace')}")
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"program ended before {needle!r}:\n{self.out.decode(errors='replace')}")
                self.out += chunk
        self.pos = self.out.index(needle_b, self.pos) + len(needle_b)
        return self

    def send(self, data: str):
        os.write(self.fd, data.encode())
        return self

    def finish(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.fd], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                self.out += chunk
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    @property
    def text(self) -> str:
        return self.out.decode(errors="replace").replace("\r\n", "\n")

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


PROMPT = "hold or drop?"


@pytest.fixture
def session():
    made = []

    def start(*args):
        p = Pty(*args)
        made.append(p)
        return p

    yield start
    for p in made:
        p.kill()


def test_pty_invalid_input_reprompts_then_eof_gives_summary(session):
    p = session("-N", "2", "--mesh", "21", "--seed", "1")
    p.expect("mesh 21").expect("V = ").expect(PROMPT)
    p.send("maybe\n").expect("not understood").expect(PROMPT)
    p.send("a 7\n").expect("must be in [0, 1]").expect(PROMPT)
    p.send("\n").expect("please answer").expect(PROMPT)
    p.send("h\n").expect("balances:").expect(PROMPT)
    p.send("\x04")                                   # Ctrl-D at the prompt: end of input
    assert p.expect("Session summary").finish() == 0
    t = p.text
    assert t.count("Game 1, hand 1:") == 1           # the invalid answers re-asked the same hand
    assert "(end of input)" in t and "1 hand, " in t
    assert "Traceback" not in t


def test_pty_ctrl_c_leaves_with_summary(session):
    p = session("-N", "3", "--mesh", "21", "--seed", "2")
    p.expect(PROMPT).send("d\n").expect(PROMPT)
    p.send("\x03")                                   # Ctrl-C through the terminal: SIGINT
    code = p.expect("Session summary").finish()
    assert code == 130
    assert "(interrupted)" in p.text and "balances:" in p.text and "Traceback" not in p.text


def test_pty_auto_mode_then_quit(session):
    p = session("-N", "2", "--mesh", "21", "--seed", "3")
    p.expect(PROMPT).send("a 0.6 4\n")
    p.expect(PROMPT).send("?\n").expect("hint: your optimal play").expect(PROMPT).send("q\n")
    assert p.expect("Session summary").finish() == 0
    assert p.text.count("auto (hold above 0.6)") == 4 and "4 hands" in p.text


def test_pty_seed_makes_a_session_reproducible(session):
    def transcript(seed):
        p = session("-N", "2", "--mesh", "21", "--seed", str(seed))
        for answer in "hdhhdh":
            p.expect(PROMPT).send(answer + "\n")
        p.expect(PROMPT).send("q\n")
        assert p.expect("Session summary").finish() == 0
        return p.text

    a, b, c = transcript(11), transcript(11), transcript(12)
    assert a == b
    assert a != c
    assert "6 hands" in a
