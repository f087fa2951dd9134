"""Numerical tolerances of the engine, in one place.

Every tolerance is absolute unless its name says ``REL``; the ones on payoffs are
scaled by the payoff scale ``max(1, max|M|)`` where they are used.
"""
from __future__ import annotations

# --- certificates ------------------------------------------------------------------
#: The one certificate threshold of an exact solve, relative to the payoff scale: the
#: duality gap of a matrix-game LP (``LP_GAP_REL``), the exploitability of a
#: sequence-form LP pair (``LP_CERT_TOL``), the exploitability of a hold'em raise-game
#: solve (``EXPLOITABILITY_TOL``, chips per hand) are all this value.
CERTIFICATE_TOL = 1e-9
#: A solution read back from a file (:func:`guts.engine.extensive.persist.load_solution` with its
#: game) keeps its certificate when the recomputed NashConv and values agree with the
#: file's within this, relative to the payoff scale (the same float64 strategies give the
#: same numbers up to summation order).
RELOAD_CERT_TOL = CERTIFICATE_TOL

# --- linear programming (HiGHS, called only from :mod:`guts.engine.highs`) -----------
#: Primal and dual feasibility tolerance requested from HiGHS (its smallest accepted
#: value); also known as ``LP_TOL`` (sequence form) and ``LP_FEAS_TOL`` (hold'em).
HIGHS_FEASIBILITY_TOL = 1e-10
LP_TOL = HIGHS_FEASIBILITY_TOL
LP_FEAS_TOL = HIGHS_FEASIBILITY_TOL
#: IPM optimality tolerance of the structured LPs solved with crossover.
HIGHS_IPM_OPTIMALITY_TOL = 1e-12
#: The same for HiPO, which does not reach 1e-12 on the largest Mercer LPs (its optimality
#: check fails and HiGHS restarts with IPX); the exploitability certificate decides.
HIGHS_HIPO_OPTIMALITY_TOL = 1e-10
#: Duality gap of an LP solution accepted without a warning, relative to the payoff scale.
LP_GAP_REL = CERTIFICATE_TOL
#: Certificate of the sequence-form LP: exploitability <= LP_CERT_TOL * payoff scale.
LP_CERT_TOL = CERTIFICATE_TOL
#: ``method="auto"`` of the sequence-form LP switches from the dual simplex to the
#: interior-point method above ``LP_IPM_NNZ`` payoff non-zeros when they are at least
#: ``LP_IPM_NNZ_PER_ROW`` per row (rows and columns: both players' sequence x type counts),
#: and above ``LP_IPM_ANY_NNZ`` whatever the rows.  Measured with both methods on the same LPs
#: in one run (``benchmarks/lp_method.py``, ``results/benchmarks/lp_method.csv``, the 2-core
#: machine at load 8-10; CPU-time ratios): up to 1.7e4 non-zeros the simplex is as fast or
#: faster (Leduc, Leduc with 4 ranks, 2P Mercer MMH: IPM 0.68-0.96x; below 4e3 both take under
#: 0.05 s), and on Liar's Dice (2.6e4 and 1.5e5 non-zeros, 2.5 and 3 per row: IPM 0.49x and
#: 0.32x); the interior point is faster on the poker LPs above 2e4 (2.3e4-1.2e5 non-zeros, 4-10
#: per row: 1.3-2.5x; Leduc with 3 suits, 5 and 7 ranks, 2P MMH with call/raise).
#: ``LP_IPM_ANY_NNZ`` is the former single threshold: no LP above it was measured faster by the
#: simplex (a raise game of 2.3e6 non-zeros: IPM 5x).
LP_IPM_NNZ = 20_000
LP_IPM_NNZ_PER_ROW = 3.5
LP_IPM_ANY_NNZ = 200_000
#: ... and to HiPO (where installed, ``pip install "guts[hipo]"``) above this many: on 2P
#: Mercer hold'em IPX is faster up to 1.6e6 non-zeros (47-60 s against HiPO's 133 s) but
#: had done 16-18 of its iterations after 4-17 minutes at 6.1e6, which HiPO solves in 11
#: minutes (``benchmarks/lp_big.py --xlarge``).
LP_HIPO_NNZ = 3_000_000
#: Memory the sequence-form LP may use by default (bytes); larger LPs are refused
#: before they are built (the 2P Mercer LPs in <= 4 GB).
LP_MEMORY_LIMIT = 4 * 2**30
#: Peak memory of the sequence-form LP above the built game, calibrated against
#: the peak resident memory measured in fresh processes (``benchmarks/lp_memory.py``,
#: ``results/benchmarks/lp_memory.csv``: Mercer hold'em, discretised continuous poker,
#: 1.7e4 to 6.6e6 non-zeros): a base (the solver's libraries loaded on first use, ~72 MB
#: measured), then per payoff non-zero and per row or column (both players' sequence x
#: type counts) for the simplex (assembly, ``linprog``'s copies, basis factor) and the
#: interior-point method (one column-wise copy handed to HiGHS, IPX's normal-equation
#: preconditioner: ~110 bytes per non-zero and, on the Mercer LPs with many rows, ~760
#: per row measured).  The former single figure (300 per non-zero, no base) was up to
#: 13x low on small LPs and 2.6x high on large IPM ones.  The base is the part that varies
#: between machines (the CI machine read the 160-hand continuous-poker IPM solve at 71 MB
#: in all, against 87 MB here), so the IPM figure per non-zero is the measured one, with no
#: margin of its own, and the base sits between the two machines' readings: at least 8 %
#: above the measurement on every case here, at most 1.85x it on the CI machine.
LP_BYTES_BASE = 76 * 2**20
LP_BYTES_PER_NONZERO = 300
LP_BYTES_PER_ROW = 200
LP_IPM_BYTES_PER_NONZERO = 110
LP_IPM_BYTES_PER_ROW = 1000
#: The same for HiPO (``method="highs-hipo"``): its sparse factor of the augmented system
#: (fill-in ~5.4 on Mercer hold'em: 4.2e7 entries for 6.7e6 payoff non-zeros) on top of
#: HiGHS's copies of the model.
LP_HIPO_BYTES_PER_NONZERO = 160
LP_HIPO_BYTES_PER_ROW = 1000
#: (HiGHS is optimal only to its feasibility tolerances: a degenerate LP solution can
#: keep weight, within them, on a strategy that is not a best response, and a gap of a
#: few 1e-9 on a badly scaled game.  :func:`guts.engine.matrix_game.solve_lp` therefore
#: polishes on the best responses to the LP strategies, which restores gaps of ~1e-16.)
#: Probability below which a strategy's entry is outside its support (polish, reports).
SUPPORT_TOL = 1e-9
#: Largest negative entry accepted from the indifference equations of the polish.
POLISH_NEGATIVE_TOL = 1e-12

# --- double oracle -----------------------------------------------------------------
#: Stop when no best response improves on the restricted value by more than this.
ORACLE_IMPROVEMENT_TOL = 1e-11
#: Improvement tolerance of the double oracle inside the fixed point (stage solves).
ORACLE_STAGE_TOL = 1e-13
#: Full-game duality gap of the double oracle accepted as converged.
ORACLE_GAP_TOL = 1e-9

# --- recursive fixed point and certificates ----------------------------------------
#: Default distance to the fixed point at which the iteration stops.
FIXED_POINT_TOL = 1e-11
#: ``T(v0) <= v0 + NO_ENTRY_REL * max(1, |v0|)``: the player should not enter.
NO_ENTRY_REL = 1e-14
#: A Newton trial point ``c`` is accepted when the stage value is ``>= c - ACCEPT_REL * max(1, |c|)``.
ACCEPT_REL = 1e-13
#: Slopes within this of 1 give no Newton step (``1 / (1 - slope)`` would blow up).
SLOPE_MARGIN = 1e-12
#: Absolute allowance for floating-point error in a certificate's row combination
#: ``x A``, ``x B`` (entries are O(n); closed-form entries agree with the exact enumeration
#: to ~1e-14, see tests/games/guts/test_guts_payoffs.py).
CERT_ROUNDING = 1e-12
#: A reported value counts as certified when it lies in its own certified interval widened by
#: this (relative to ``1 + |v|``); the exact solvers' fixed points land within ~1e-11 of
#: their certified ends, fictitious play's usually do not (its values are then reported as
#: not certified, which is what they are).
CERT_VALUE_TOL = 1e-8
#: Largest fixed-point tolerance accepted by the public solvers: beyond it "converged" would
#: certify nothing (``tol=1e6`` stops at the first iterate).
MAX_FIXED_POINT_TOL = 1e-3
#: Largest duality-gap tolerance of the continuum double oracle (same reason).
MAX_GAP_TOL = 1e-3
#: A mixed strategy's entries must sum to one within this.
PROBABILITY_SUM_TOL = 1e-9

# --- extensive-form games ------------------------------------------------------------
#: Tolerance on probability sums (deal distribution, chance outcomes, strategy rows).
PROB_TOL = 1e-9
#: Relative tolerance (to the payoff scale) of the zero-sum check.
ZERO_SUM_TOL = 1e-12
#: Largest payoff magnitude a game file may give (Gambit ``.efg`` payoffs, an ACPC or TOML
#: description's blinds, antes and bet sizes): HiGHS calls matrix entries above 1e15 too
#: large, and doubles hold integers exactly only below 2**53 ~ 9e15; three orders of magnitude
#: below that leaves room for the sums of payoffs (pots, subtree values) the solvers form.
MAX_PAYOFF_MAGNITUDE = 1e12
#: Largest iteration budget of the iterative solvers (CFR+, DCFR, fictitious play):
#: ``max_iterations=1e300`` would never end.
MAX_ITERATIONS = 10**9
#: Default regret threshold (chips) of extensive-form fictitious play.
FP_EPSILON = 1e-3

# --- team games (guts.engine.extensive.team) -------------------------------------------
#: Default width of the certified bracket ``upper - lower`` of a team solve.
TEAM_TARGET = CERTIFICATE_TOL
#: The independent regime's local search accepts a member's new strategy only when it
#: raises the certified (adversary-best-response) team value by more than this.
TEAM_IMPROVEMENT_TOL = 1e-12
#: The team best response by dynamic programming over public states keeps arrays over
#: the subsets of every member's types; above this many (product of ``2^types``) the
#: mixed-integer LP prices instead (a size limit, not a tolerance; 2^16: two members with
#: 8 types each, arrays of 0.5 MB per public node).
TEAM_DP_STATES = 2 ** 16
#: Without a dynamic programme, the default correlated method prices by the MILP only up to
#: this many product columns (three-player SMH: 900, closed in 20-36 s a seating; Kuhn with 8
#: ranks, 616, unclosed after 120 s; three-player MMH: 135 100, no first plan in 10 min), and
#: above it by the local search bracketed by the pair relaxation (a size limit).
TEAM_MILP_PRODUCTS = 5_000
#: The default correlated column generation (exact pricing) also solves the pair relaxation
#: LP (``team_relaxation``) for its upper bound and pricing point when it has at most this
#: many sequence-pair columns (a size limit: three-player Kuhn with 8 ranks has 4 000 pairs and
#: solves in well under a second; three-player Leduc with 3 ranks, 507 000, takes minutes).
TEAM_RELAXATION_PAIRS = 100_000
#: The local-search column generation brackets the correlated value from above by the pair
#: relaxation only up to this many pairs, else by the communication value (a size limit:
#: three-player Leduc with 3 ranks, 507 000 pairs, solved in 15 min by HiPO on one thread once,
#: not within 30 min twice on the loaded machine; three-player MMH, 0.92 to 1.09 million, had not
#: finished in 40 min to 47 min).
TEAM_RELAXATION_MAX_PAIRS = 600_000
#: When the bound certified from HiPO's duals exceeds the LP's objective by more than this, the
#: relaxation is solved again by IPX and the lower of the two certified bounds kept (HiPO's duals
#: certified 18.6 for an LP of value 0.862 once; IPX's within 1e-9).
TEAM_RELAXATION_DUAL_SLACK = 1e-6
#: The correlated regime's default method is discounted CFR on the team belief DAG
#: (``team_dag``) where the DAG holds at most this many regrets and the team has at least
#: ``TEAM_DAG_MIN_DECISIONS`` public decision nodes, else column generation (size limits:
#: three-player Leduc with 3 ranks has 19.6 million regrets, 157 MB, 0.2 s an iteration, and
#: 1 846 team decisions; with 4 ranks 925 million regrets; three-player Kuhn, which column
#: generation closes exactly in seconds, 8 team decisions).  The graph keeps three numbers
#: a regret (the regret, the average flow the result's correlation device draws from, and
#: its copy at the best lower end): 1.2 GB at this limit.
TEAM_DAG_REGRETS = 50_000_000
TEAM_DAG_MIN_DECISIONS = 100
#: A correlated distribution's joint plans with weight below this are dropped from the
#: reported support (their weight is spread on the others before the bound is computed).
TEAM_SUPPORT_TOL = 1e-12

# --- fictitious play ------------------------------------------------------------------
#: Behavioural fictitious play (the Mercer hold'em program's rule): actions whose
#: counterfactual value is within this fraction of the largest |value| at the same
#: information set count as tied and the preferred one (``action_priority``) is taken.
#: The program compares doubles exactly, so a tie that is exact in rational arithmetic
#: (e.g. 2P-SMH, second player holding 34 against the uniform start) is decided by
#: rounding there; this relative margin (rounding is ~1e-16 relative) decides it by the
#: program's action order instead, which is what its published outputs show.
FP_TIE_REL = 1e-12

# --- exact (rational) certificates ------------------------------------------------------
#: A float read as a rational (:func:`guts.engine.extensive.rational.to_fraction`: deal and
#: chance probabilities, payoffs) is the simplest fraction with denominator at most
#: ``RATIONAL_INPUT_MAX_DENOMINATOR`` when that fraction is within ``RATIONAL_INPUT_REL``
#: (a few units in the last place) of it, else the float's exact binary value: 1/6 stored as
#: 0.1666... is read as 1/6.
RATIONAL_INPUT_MAX_DENOMINATOR = 10**9
RATIONAL_INPUT_REL = 8 * 2.0**-52
#: The denominators tried, in turn, by the rational reconstruction of an LP equilibrium
#: (:func:`guts.engine.extensive.rational.certify_exact`): each behaviour probability becomes
#: the closest fraction with denominator at most the bound, and the pair is verified by exact
#: best responses.  A double-precision LP vertex (HiGHS's tolerances 1e-10) determines a
#: rational of denominator Q only while 1 / (2 Q^2) exceeds its error: up to ~1e4-1e5.
RATIONAL_MAX_DENOMINATORS = (10**2, 10**3, 10**4, 10**5)
