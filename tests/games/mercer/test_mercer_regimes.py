"""Mercer hold'em collusion in the three team regimes (communication, correlated, independent).

The mathematics checked: on a deck small enough to enumerate every joint pure plan, the
correlated (TMECor) value is the max-min of a matrix game between distributions over the
colluders' joint pure plans and the victim's pure plans (Celli and Gatti, *Computational
results for extensive-form adversarial team games*, 2018), solved here by scipy's LP over a
payoff matrix built by the brute-force oracle (physical deals, rules replayed from the action
history); the solver's bracket must hold it.  Always communication >= correlated >=
independent; the communication regime is the merged team of strong collusion (Ullman 2015).
"""
import functools
import importlib
import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linprog

from guts.engine.extensive import solve_team
from guts.errors import ConvergenceWarning, GutsInputError
from guts.games.poker.mercer import Deck, build_game, variant_rules
from guts.games.poker.mercer.solve import solve, solve_regimes
from guts.studies.mercer_regimes import CERTIFIED_WIDTH, prices

import mercer_oracle as O
from test_mercer_builder import oracle_rules

TEAMS = ((0, 1), (0, 2), (1, 2))
#: The module (the package's ``solve`` is the function).
solve_module = importlib.import_module("guts.games.poker.mercer.solve")
#: The smallest SMH deck with a flop for three players: ranks 2 and 3, four copies (8 cards;
#: three hand types per player, so every joint pure plan can be enumerated).
RANKS, COPIES = (2, 3), 4
TOL = 1e-8


def small(**kw):
    return dict(deck=Deck(RANKS, COPIES), **kw)


# --------------------------------------------------------------------------- the oracle
class PlanOracle:
    """Every player's pure plans and the team's payoff for every (team plan, victim plan), by brute force."""

    def __init__(self, team):
        self.team = tuple(team)
        self.victim = next(s for s in range(3) if s not in team)
        rules = oracle_rules("smh", 3, RANKS, COPIES)
        enum = O.Enumeration(rules)
        self.labels = [sorted({h[p] for h in enum.hand_labels}) for p in range(3)]
        # betting histories to the end of the betting (a fold, or the flop's chance node)
        self.decisions = [[] for _ in range(3)]            # per player: (prefix, legal actions)
        ends = []

        def walk(hist):
            st = O.replay(rules, hist)
            if st["kind"] == "decision":
                self.decisions[st["player"]].append((hist, st["legal"]))
                for a in st["legal"]:
                    walk(hist + (a,))
            else:
                ends.append(hist)
        walk(())
        self.ends = ends
        # C[e, t]: the team's chance-weighted payoff at the end of betting e with hand labels t
        triples = sorted({h for h in enum.hand_labels})
        self.triples = triples
        tix = {t: i for i, t in enumerate(triples)}
        C = np.zeros((len(ends), len(triples)))
        for e, hist in enumerate(ends):
            for w in range(enum.W):
                st = O.replay(rules, hist)
                if st["kind"] == "chance":
                    st = O.replay(rules, hist + (enum.board_labels[w][0],))
                pay = enum.payoff(w, st)
                C[e, tix[enum.hand_labels[w]]] += enum.weight[w] * sum(pay[q] for q in self.team)
        self.C = C.ravel()

    def steps(self, e):
        """(player, decision index, action index) along betting history ``e``."""
        hist = self.ends[e]
        out = []
        for k in range(len(hist)):
            for p in range(3):
                for d, (prefix, legal) in enumerate(self.decisions[p]):
                    if prefix == hist[:k]:
                        out.append((p, d, legal.index(hist[k])))
        return out

    def plans(self, p):
        """All pure plans of ``p``: arrays (decisions, labels) of action indices."""
        dec = self.decisions[p]
        L = len(self.labels[p])
        choices = [range(len(legal)) for _, legal in dec for _ in range(L)]
        return [np.array(c, dtype=int).reshape(len(dec), L) for c in itertools.product(*choices)]

    def indicator(self, p, behaviour):
        """(plans or one behaviour strategy) -> matrix over (e, t) of p's probability of his actions there.

        ``behaviour(d, l)`` -> action probabilities at p's decision d with label index l."""
        n_e, n_t = len(self.ends), len(self.triples)
        out = np.ones(n_e * n_t)
        for e in range(n_e):
            for (q, d, a) in self.steps(e):
                if q != p:
                    continue
                for ti, t in enumerate(self.triples):
                    out[e * n_t + ti] *= behaviour(d, self.labels[p].index(t[p]))[a]
        return out

    @functools.lru_cache(maxsize=None)
    def pure_indicators(self, p):
        rows = []
        for plan in self.plans(p):
            rows.append(self.indicator(p, lambda d, li, plan=plan: np.eye(len(self.decisions[p][d][1]))[plan[d, li]]))
        return np.array(rows)

    @functools.lru_cache(maxsize=None)
    def matrix(self):
        """Team payoff M[joint team plan, victim plan]."""
        a, b = (self.pure_indicators(q) for q in self.team)
        joint = (a[:, None, :] * b[None, :, :]).reshape(-1, a.shape[1])
        return (joint * self.C) @ self.pure_indicators(self.victim).T


def maxmin(M):
    """max over distributions x of min over columns of x @ M (scipy's HiGHS LP)."""
    J, K = M.shape
    c = np.zeros(J + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-M.T, np.ones((K, 1))])
    A_eq = np.concatenate([np.ones(J), [0.0]])[None, :]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(K), A_eq=A_eq, b_eq=[1.0],
                  bounds=[(0, None)] * J + [(None, None)], method="highs")
    assert res.status == 0
    return -res.fun


@pytest.fixture(scope="module")
def oracles():
    return {team: PlanOracle(team) for team in TEAMS}


@pytest.fixture(scope="module")
def small_regimes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return {team: solve_regimes("smh", team, **small()) for team in TEAMS}


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("team", TEAMS)
def test_correlated_value_is_the_brute_force_maxmin_over_joint_pure_plans(team, oracles, small_regimes):
    orc = oracles[team]
    M = orc.matrix()
    v_cor = maxmin(M)
    cor = small_regimes[team]["correlated"]
    assert cor.converged and cor.certified_upper - cor.certified_lower <= 1e-9
    assert cor.certified_lower - TOL <= v_cor <= cor.certified_upper + TOL
    # a pure joint plan is an independent profile: the best one's max-min is below the correlated value
    assert M.min(axis=1).max() <= v_cor + TOL
    assert cor.team_value == pytest.approx(float(np.sum(cor.values[list(team)])), abs=1e-12)
    assert np.sum(cor.values) == pytest.approx(0.0, abs=1e-12)     # zero-sum


@pytest.mark.parametrize("team", TEAMS)
def test_independent_bracket_and_its_guarantee_by_brute_force(team, oracles, small_regimes):
    """The independent lower end is exactly what the returned behaviour profile guarantees against
    every pure plan of the victim (oracle), and the bracket holds the (unknown) independent value:
    lower <= guarantee of any profile's optimum <= correlated value <= upper."""
    orc = oracles[team]
    ind = small_regimes[team]["independent"]
    game = ind.built.game
    P = np.ones(orc.C.size)
    for m in team:
        strat = ind.strategies[m]
        tl = list(game.deals.type_labels[m])

        def beh(d, li, m=m, strat=strat, tl=tl):
            prefix = orc.decisions[m][d][0]
            return strat[tuple(prefix)][tl.index(orc.labels[m][li])]
        P = P * orc.indicator(m, beh)
    guarantee = float(((P * orc.C) @ orc.pure_indicators(orc.victim).T).min())
    assert ind.certified_lower == pytest.approx(guarantee, abs=TOL)
    v_cor = maxmin(orc.matrix())
    assert ind.certified_lower <= v_cor + TOL <= ind.certified_upper + 2 * TOL


@pytest.mark.parametrize("team", TEAMS)
def test_regimes_are_ordered_and_communication_is_strong_collusion(team, small_regimes):
    r = small_regimes[team]
    com, cor, ind = r["communication"], r["correlated"], r["independent"]
    assert com.collusion == "strong" and com.stats.players == 2        # the merged team's LP
    assert com.certified_upper + TOL >= cor.certified_lower            # communication >= correlated
    assert cor.certified_upper + TOL >= ind.certified_lower            # correlated >= independent
    assert ind.certified_upper <= cor.certified_upper + TOL
    # the engine's communication regime on the plain three-player game is strong collusion
    plain = build_game(variant_rules("smh", 3, **small())).game
    tr = solve_team(plain, team, "communication")
    assert tr.value == pytest.approx(com.team_value, abs=1e-9)


def test_solve_correlated_returns_a_certified_mercer_result():
    r = solve("smh", 3, collusion="correlated", team=(2, 1), **small())
    assert r.team == (1, 2) and r.collusion == "correlated" and r.players == 3
    assert r.certificate.kind == "interval" and r.certificate.holds(1e-9)
    assert r.nash_conv == pytest.approx(r.certified_upper - r.certified_lower, abs=1e-15)
    assert r.team_result.support and sum(w for w, _ in r.team_result.support) == pytest.approx(1.0)
    assert r.certified_lower - 1e-12 <= r.team_value <= r.certified_upper + 1e-12


@pytest.mark.parametrize("kw, match", [
    (dict(method="cfr+"), "does not apply to collusion='correlated'"),
    (dict(method="fp"), "accepted: method='lp'"),
    (dict(lp_method="ipm"), "lp_method 'ipm' does not apply"),
])
def test_regimes_refuse_methods_that_do_not_apply(kw, match):
    with pytest.raises(GutsInputError, match=match) as exc:
        solve("smh", 3, collusion="correlated", team=(0, 1), **kw)
    assert "\n" not in str(exc.value)


def test_regimes_need_three_players_and_a_team():
    with pytest.raises(GutsInputError, match="3 players"):
        solve("smh", 2, collusion="independent", team=(0, 1))
    with pytest.raises(GutsInputError, match="team"):
        solve("smh", 3, collusion="independent")
    with pytest.raises(GutsInputError, match="accepted"):
        solve("smh", 3, collusion="correlate", team=(0, 1))


# --------------------------------------------------------------------------- CLI
def _cli(argv, monkeypatch):
    from guts.cli import main

    real = solve_module.variant_rules
    monkeypatch.setattr(solve_module, "variant_rules", lambda v, n, **kw: real(v, n, **{**kw, **small()}))
    return main(argv)


@pytest.mark.parametrize("regime", ["correlated", "independent"])
def test_cli_solve_prints_the_team_bracket(regime, monkeypatch, capsys):
    code = _cli(["mercer", "solve", "smh", "--players", "3", "--collusion", regime, "--team", "1,2", "--quiet"],
                monkeypatch)
    out = capsys.readouterr().out
    assert code == 0
    assert f"team max-min value ({regime}) in [" in out and "note" in out


@pytest.mark.parametrize("extra, needle", [
    (["--method", "cfr+"], "does not apply to collusion='correlated'"),
    (["--lp-method", "ipm"], "does not apply"),
])
def test_cli_refusals_are_one_line(extra, needle, capsys):
    from guts.cli import main

    code = main(["mercer", "solve", "smh", "--players", "3", "--collusion", "correlated", "--team", "0,1",
                 "--quiet", *extra])
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert code == 2 and len(err) == 1 and err[0].startswith("guts mercer") and ": error: " in err[0]
    assert needle in err[0]


# --------------------------------------------------------------------------- the study's tables
def test_prices_are_interval_arithmetic():
    rows = []
    for regime, lo, hi in (("communication", 0.5, 0.5), ("correlated", 0.2, 0.25), ("independent", -0.1, 0.2)):
        rows.append(dict(variant="smh", team="1,2", victim=0, regime=regime, value=lo, lower=lo, upper=hi))
    pr = prices(pd.DataFrame(rows)).iloc[0]
    assert pr.communication_minus_correlated_lower == pytest.approx(0.25)
    assert pr.communication_minus_correlated_upper == pytest.approx(0.3)
    assert pr.correlated_minus_independent_lower == 0.0            # the brackets overlap
    assert pr.correlated_minus_independent_upper == pytest.approx(0.35)
    assert pr.price_of_communication_lower == pytest.approx(2.0)
    assert pr.price_of_communication_upper == pytest.approx(2.5)
    assert np.isnan(pr.price_of_correlation_lower)                  # a bracket reaches below 0: no ratio


def _committed():
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "results"
    path = root / "mercer_regimes.csv"
    if not path.exists():
        pytest.skip("results/mercer_regimes.csv not generated")
    return pd.read_csv(path), pd.read_csv(root / "mercer_regimes.prices.csv")


def test_committed_table_is_ordered_within_its_brackets():
    df, pr = _committed()
    assert set(df.regime) == {"communication", "correlated", "independent"}
    assert (df.lower <= df.upper + TOL).all()
    assert ((df.width <= CERTIFIED_WIDTH) == df.certified).all()
    for (_v, _t), g in df.groupby(["variant", "team"]):
        by = g.set_index("regime")
        assert by.loc["communication", "certified"]
        assert by.loc["communication", "upper"] + TOL >= by.loc["correlated", "lower"]
        assert by.loc["correlated", "upper"] + TOL >= by.loc["independent", "lower"]
    again = prices(df)
    pd.testing.assert_frame_equal(again.reset_index(drop=True), pr, check_dtype=False, atol=1e-9)
    smh = df[df.variant == "smh"]
    assert smh[smh.regime != "independent"].certified.all()         # SMH: exact to 1e-4
    for _t, g in df[df.variant == "mmh"].groupby("team"):
        by = g.set_index("regime")
        # MMH: the relaxation cut at the flop certifies the correlated value well below communication
        assert by.loc["correlated", "upper"] < by.loc["communication", "upper"] - 0.05
        assert by.loc["independent", "upper"] <= by.loc["correlated", "upper"] + TOL


def test_documented_table_matches_the_committed_csv():
    from pathlib import Path

    df, _ = _committed()
    page = (Path(__file__).resolve().parents[3] / "docs" / "mercer.md").read_text(encoding="utf-8")
    section = page.split("## Three regimes", 1)[1].split("\n## ", 1)[0]
    for r in df[df.certified].itertuples():
        assert f"{r.value:+.4f}".replace("-", "−") in section or f"{r.value:+.4f}" in section, (r.variant, r.team,
                                                                                                 r.regime)


@pytest.mark.slow
@pytest.mark.parametrize("team", TEAMS)
def test_full_smh_regimes_are_ordered(team):
    """Three-player SMH (the thesis's deck), every seating: correlated certified to 1e-9, the order
    communication >= correlated >= independent within the brackets (minutes on a loaded machine)."""
    r = solve_regimes("smh", team)
    com, cor, ind = r["communication"], r["correlated"], r["independent"]
    assert cor.converged
    assert com.certified_upper + TOL >= cor.certified_lower
    assert cor.certified_upper + TOL >= ind.certified_lower
