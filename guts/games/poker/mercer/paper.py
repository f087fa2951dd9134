"""The thesis's published figures, as printed (Ullman 2015, §4.2, §4.3, §5, Tables 1-8).

Bet percentages are the probability (in %) of betting 4 at the named decision for each
private holding. Each table row gives the seat that acts and the public history before
its decision, in this package's labels (``"b4"`` bet, ``"f"`` fold, ``"flop:xy"``).
The thesis computed them by fictitious play to a 0.01- (2P-SMH: 0.001-) equilibrium; they
are approximate and equilibria need not be unique: compare, never copy.
"""
from __future__ import annotations

__all__ = ["PAPER_VALUES", "PAPER_TABLES", "PAPER_TABLE7", "TABLE_HANDS", "PROGRAM_VALUES",
           "PAPER_3P_SMH_BET", "PROGRAM_FP", "PAPER_FP_ITERATIONS", "PROGRAM_NASH_2P_SMH"]

B, F = "b4", "f"

#: Expected values per seat (first seat first), §4.2-4.3.
PAPER_VALUES = {
    ("smh", 2): (-0.1, 0.1),
    ("mmh", 2): (-0.4, 0.4),
    ("smh", 3): (-0.29, 0.008, 0.282),
}

#: The bet size that reproduces the printed 3P-SMH values. With the stated bet of 4 the
#: game's equilibrium values are about (-0.094, 0.002, 0.092), as the authors' own output
#: file also shows (``PROGRAM_VALUES``); with a bet of 8 they are (-0.299, 0.016, 0.283).
#: The printed (-0.29, 0.008, 0.282) were therefore computed with a bet of 8 (a misprint of
#: the rules or of the run; the 2-player figures are those of the bet-4 games).
PAPER_3P_SMH_BET = 8.0

#: Expected values written by the thesis's own program (github.com/rjullman/poker-nasheq,
#: ``output/<game>/...summary.payoffs``), keyed like ``PAPER_VALUES`` plus collusion and
#: team; value: (values per seat, the program's stopping "max regret").
PROGRAM_VALUES = {
    ("smh", 2, None, None): ((-0.10400376104349932, 0.10400376104349932), 0.001),
    ("mmh", 2, None, None): ((-0.4177112935530961, 0.4177112935530961), 0.01),
    ("smh", 3, None, None): ((-0.09050262180872495, 0.002797609524848102, 0.0877050122838769), 0.01),
    ("smh", 3, "strong", (1, 2)): ((-0.19202163996787378, 0.09601081998393689, 0.09601081998393689), 0.01),
}

#: The fictitious-play runs written by Ullman's (2015) program (github.com/rjullman/poker-nasheq,
#: ``output/<game>/...out``: one line per iteration with the max regret of the profile
#: before that iteration's average, then "t iterations"), as printed. Key: (variant,
#: players, collusion, team, epsilon); value: (iterations, first four lines, last line).
#: Strong collusion there is three players (pooled payoffs, shared hands), not a merged
#: team; the 3P runs were written beside the no-collusion run of the same file.
PROGRAM_FP = {
    ("smh", 2, None, None, 0.001): (704, (0.75, 0.31291279669762634, 0.2179279899094142, 0.15490088579291367),
                                    9.9963959053187e-4),                         # smh2p/smh2p.out
    ("mmh", 2, None, None, 0.01): (1901, (4.441406249999999, 4.343995038200827, 3.4654411865880563,
                                          2.864056587064229), 0.009995935109385012),  # mmh2p/mmh2p.out
    ("smh", 3, None, None, 0.01): (116, (0.9693329666549481, 0.4025057766021388, 0.26322407535513825,
                                         0.198673519973104), 0.009943746053627897),   # smh3p/*/12.out
    ("smh", 3, None, None, 0.1): (9, (0.9693329666549482, 0.4025057766021389, 0.2632240753551384,
                                      0.19867351997310403), 0.09327053974412197),     # smh3p/wc/01.out
    ("smh", 3, "strong", (0, 1), 0.01): (97, (0.636410710033001, 0.3773131351899735, 0.25792032224995753,
                                              0.1956116018121993), 0.009902792843840755),
    ("smh", 3, "strong", (0, 2), 0.01): (85, (0.9693329666549481, 0.39183742432533064, 0.25722130920144326,
                                              0.19190965887451478), 0.009993005991348045),
    ("smh", 3, "strong", (1, 2), 0.01): (68, (0.8885506186280181, 0.3768621940172831, 0.2610221214241682,
                                              0.19728481101237724), 0.009904884298550937),
    ("smh", 3, "weak", (0, 1), 0.1): (9, (0.636410710033001, 0.38248186926592503, 0.2612103410865021,
                                          0.20108872707315054), 0.09714609763126111),
    ("smh", 3, "weak", (0, 1), 0.01): (129, (0.636410710033001, 0.3824818692659251, 0.2612103410865021,
                                             0.2010887270731506), 0.009961346141478422),  # smh3p/wc/tmp.out
    ("smh", 3, "weak", (0, 2), 0.01): (79, (0.9693329666549481, 0.3993745794539138, 0.2530500368288466,
                                            0.1956269211041367), 0.009905542850622347),
    ("smh", 3, "weak", (1, 2), 0.01): (61, (0.8885506186280181, 0.3948903296136271, 0.26889795504346586,
                                            0.1988769485105108), 0.009857326470422118),
    ("mmh", 3, None, None, 0.1): (185, (8.050537109375002, 6.910725460517515, 5.096861563966225,
                                        3.9875698222310945), 0.09987882425401151),    # mmh3p/*/*.out
    ("mmh", 3, "strong", (0, 1), 0.1): (175, (6.049904929266747, 5.962972825647791, 4.786515146629288,
                                              3.8430873707110633), 0.09993717293090168),
    ("mmh", 3, "strong", (0, 2), 0.1): (135, (7.386143245860043, 6.569598528789451, 4.98456703453178,
                                              3.9635694517230062), 0.0992787882950528),
    ("mmh", 3, "strong", (1, 2), 0.1): (109, (8.050537109375002, 6.8562682846929, 5.0172179099997845,
                                              3.9400433345169352), 0.09955014271071477),
    ("mmh", 3, "weak", (0, 1), 0.1): (176, (6.049904929266747, 5.981956696427901, 4.788890952300022,
                                            3.9075625781342023), 0.09953096192397648),
    ("mmh", 3, "weak", (0, 2), 0.1): (143, (7.386143245860043, 6.574517991212844, 5.0261421047355626,
                                            4.038500476318721), 0.09925279760408853),
    ("mmh", 3, "weak", (1, 2), 0.1): (99, (8.050537109375002, 6.877223060443524, 5.060464660518543,
                                           4.025906491386116), 0.09904583914096096),
}

#: The strategy the program returned for 2P-SMH at max regret 0.001 (``output/smh2p/smh2p.nash``):
#: probability of betting 4 per hand, printed to three decimals (Java ``DecimalFormat("0.000")``),
#: for the first player and for the second after the first bets.
PROGRAM_NASH_2P_SMH = {
    "first": dict(zip(("22", "23", "24", "25", "26", "33", "34", "35", "36", "44", "45", "46", "55", "56", "66"),
                      (0.999, 0.002, 0.004, 0.750, 0.999, 0.999, 0.693, 0.999, 0.999, 0.999, 0.999, 0.999,
                       0.999, 0.999, 0.999))),
    "second": dict(zip(("22", "23", "24", "25", "26", "33", "34", "35", "36", "44", "45", "46", "55", "56", "66"),
                       (0.999, 0.001, 0.001, 0.004, 0.999, 0.999, 0.004, 0.970, 0.999, 0.999, 0.999, 0.999,
                        0.999, 0.999, 0.999))),
}

#: Ullman (2015) §3.4: a 0.01-equilibrium of 3P-MMH took "roughly 10 hours and 3600 iterations
#: of fictitious play"; with collusion "up to roughly 24 hours (and 8500 iterations)".
PAPER_FP_ITERATIONS = {("mmh", 3, None, None, 0.01): 3600}

TABLE_HANDS = ("22", "23", "24", "25", "26", "34", "35", "36", "45", "46")

# name -> dict(variant, players, collusion, team, caption, columns, rows, hand/flop)
# rows: (row label, seat, history, values)
PAPER_TABLES = {
    "table1": dict(
        variant="smh", players=2, caption="2P-SMH bet percentages by holding (nontrivial hands)",
        columns=("25", "34", "35"),
        rows=[("1st Player", 0, (), (66, 65, 100)),
              ("2nd Player", 1, (B,), (0, 0, 97))]),
    "table2": dict(
        variant="mmh", players=2, caption="2P-MMH first bet percentages by holding",
        columns=("22", "23", "24", "25", "26", "34", "35", "36", "45"),
        rows=[("1st Player", 0, (), (98.1, 0.2, 0.2, 12.4, 27.1, 0.3, 66.5, 100, 100)),
              ("2nd Player", 1, (B,), (46.2, 0.2, 0.3, 0.5, 1.0, 0.5, 0.9, 34.6, 46.2))]),
    "table3": dict(
        variant="mmh", players=2, caption="2P-MMH first post-flop bet percentages with 45 (columns: flops)",
        columns=("22", "23", "26", "33", "36", "46", "56", "66"), hand="45",
        rows=[("1st Player", 0, (B, B, B, B, "flop:{}"), (20.5, 93.9, 62.9, 47.7, 24.7, 100, 100, 53.6)),
              ("2nd Player", 1, (B, B, B, B, "flop:{}", B), (30.0, 22.7, 34.9, 7.6, 46.1, 60.9, 98.1, 33.8))]),
    "table4": dict(
        variant="mmh", players=3, caption="3P-MMH second player's first bet percentages",
        columns=TABLE_HANDS,
        rows=[("1st Player Folds", 1, (F,), (84.7, 1.9, 2.4, 4.0, 100, 4.0, 62.6, 100, 100, 100)),
              ("1st Player Bets", 1, (B,), (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0))]),
    "table5": dict(
        variant="mmh", players=3, caption="3P-MMH first bet percentages, nobody folded yet",
        columns=TABLE_HANDS,
        rows=[("1st Player", 0, (), (76.1, 1.3, 1.9, 3.0, 5.1, 3.0, 4.6, 36.3, 33.6, 100)),
              ("2nd Player", 1, (B,), (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0)),
              ("3rd Player", 2, (B, B), (100, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5))]),
    "table6": dict(
        variant="mmh", players=3, caption="3P-MMH third player's first bet percentages",
        columns=TABLE_HANDS,
        rows=[("1st Player Folds", 2, (F, B), (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 100, 80.9, 100)),
              ("2nd Player Folds", 2, (B, F), (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6))]),
    "table8_nocol": dict(
        variant="mmh", players=3, caption="3P-MMH third player's first bet, no collusion",
        columns=TABLE_HANDS,
        rows=[("No Folding", 2, (B, B), (100, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5)),
              ("1st Player Folds", 2, (F, B), (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 100, 80.9, 100)),
              ("2nd Player Folds", 2, (B, F), (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6))]),
    "table8_col": dict(
        variant="mmh", players=3, collusion="weak", team=(0, 1),
        caption="3P-MMH third player's first bet, weak collusion of the first two",
        columns=TABLE_HANDS,
        rows=[("No Folding", 2, (B, B), (100, 2.0, 2.0, 3.7, 6.5, 3.1, 6.5, 12.7, 12.7, 36.4)),
              ("1st Player Folds", 2, (F, B), (30.2, 2.5, 3.1, 5.9, 13.8, 5.4, 9.9, 100, 68.6, 100)),
              ("2nd Player Folds", 2, (B, F), (46.6, 2.5, 3.1, 5.4, 12.1, 4.8, 9.3, 28.5, 41.5, 100))]),
}

#: Table 7: expected payoffs in 3P-MMH, players A, B, C, "A and B potentially colluding",
#: seats rotated. Weak-collusion figures are printed x 1e-3 (converted here to chips).
PAPER_TABLE7 = {
    ("strong", "public"): (-0.178, 0.0889, 0.0889),
    ("strong", "private"): (-0.195, 0.0977, 0.0977),
    ("strong", "suspicious"): (-0.0316, 0.0127, 0.0189),
    ("weak", "public"): (-0.996e-3, 0.498e-3, 0.498e-3),
    ("weak", "private"): (-0.748e-3, 0.374e-3, 0.374e-3),
    ("weak", "suspicious"): (-0.448e-3, 0.325e-3, 0.122e-3),
}
#: "All payoffs have an error of 0.00577" (Table 7 caption).
PAPER_TABLE7_ERROR = 0.00577
