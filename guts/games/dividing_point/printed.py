"""The patent's printed equations, transcribed, and their comparison with the derivation.

The patent is an OCR extraction: subscripts are run together (``C1RRrr2``), ``1`` is often
read as ``I`` (``BI``, ``KRI``) and the case of ``b1``/``B1`` is lost in places (the
text of equation (1) even lists "variables b1, B2, and C2" for b1, B1, C2, and (5)
reads ``B1 =`` for ``b1 =``).  Each transcription below keeps the printed symbols and
signs, with only these mechanical normalisations: ``I`` -> ``1`` inside a variable name,
LaTeX fractions written with ``/``.

A run-together product such as ``C1RR2`` can be read several ways (``C1R*R2`` or
``C1*RR2``); :func:`parse_printed` lists every reading and takes one that is a monomial of
the derivation when there is one (a reading is a transcription choice, not a correction).

:func:`compare` then reports, for each equation, ``printed - derived`` exactly, and
whether flipping the case of some ``b1``/``B1`` tokens (an OCR slip) makes it vanish.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np
import sympy as sp

from guts._validate import check_random_state
from guts.errors import GutsInputError

from .method import equations, solve_symbolic
from .patent import patent_layout, patent_rules
from .rules import P

__all__ = ["PRINTED", "PrintedEquation", "Comparison", "parse_printed", "compare", "compare_all"]


@dataclass(frozen=True)
class PrintedEquation:
    """One printed equation.

    ``kind``: ``"E1"`` (the expected return), ``"dE1"`` (``d E1 / d wrt = rhs``), ``"point"``
    (``wrt = rhs``, a closed form), ``"region"`` (the return from one resolution step, given
    by the P1 and P2 sequences in ``wrt = (seq1, seq2)``).
    """

    label: str
    game: str
    kind: str
    text: str
    wrt: object = None
    note: str = ""


# Transcriptions (see the module docstring for the normalisations).
PRINTED = (
    # ---- game (a), FIG. 6 --------------------------------------------------------------------
    PrintedEquation("(0)", "a", "E1",
                    "P/2*((B1^2/2) + (B1C2 - B1^2/2 - C2^2/2) + (C2 - B1C2) + (B1^2/2 - B1C2 + C2^2/2)"
                    " + (B1C2 - B1^2/2) - (C2^2/2 - B1C2 + B1^2/2) - (-B1^2/2 + B1 - B1 + B1C2 - C2^2/2)"
                    " + (P/2 + 1)*((1/2 - C2 + B1C2 - B1^2/2) - (B1 - B1C2) - (1/2 - B1 + B1^2/2)))",
                    note="as printed, the (P/2 + 1)[...] bracket sits inside P/2[...]"),
    PrintedEquation("(0) rebracketed", "a", "E1",
                    "P/2*((B1^2/2) + (B1C2 - B1^2/2 - C2^2/2) + (C2 - B1C2) + (B1^2/2 - B1C2 + C2^2/2)"
                    " + (B1C2 - B1^2/2) - (C2^2/2 - B1C2 + B1^2/2) - (-B1^2/2 + B1 - B1 + B1C2 - C2^2/2))"
                    " + (P/2 + 1)*((1/2 - C2 + B1C2 - B1^2/2) - (B1 - B1C2) - (1/2 - B1 + B1^2/2))",
                    note="(0) with the bracket closed before + (P/2 + 1), as in (39)"),
    PrintedEquation("(1)", "a", "E1", "B1C2P - B1^2P/2 - C2 + B1C2 - B1^2 - B1 + B1C2 + B1"),
    PrintedEquation("(2)", "a", "dE1", "C2P - B1P - 1 + C2", wrt="B1"),
    PrintedEquation("(3)", "a", "dE1", "C2 - 2B1 + 1", wrt="B1"),
    PrintedEquation("(4)", "a", "dE1", "B1P - 1 + B1 + B1", wrt="C2"),
    PrintedEquation("(5)", "a", "point", "P/((2P+1)(P+2))", wrt="B1"),
    PrintedEquation("(6)", "a", "point", "(P^2 + 4P + 2)/((2P+1)(P+2))", wrt="B1"),
    PrintedEquation("(7)", "a", "point", "(3P + 2)/((2P+1)(P+2))", wrt="C2"),
    # ---- game (b), FIGS. 10A-B, 12-22 -------------------------------------------------------
    PrintedEquation("E1 1024", "b", "region", "-P/2*((C1 - rr1)(b2) + (C1 - rr1)(1 - B2))", wrt=("pass-fold", "bet")),
    PrintedEquation("E1 1038", "b", "region", "P/2*(rr1(C2 - r2) + (1 - B1)(C2 - r2))", wrt=("bet", "fold")),
    PrintedEquation("E1 1051", "b", "region",
                    "-(P/2 + 1)*((b1)(1 - R2) + (C1R - B1)(1 - R2) + (b1)(r2) + (C1R - B1)(r2))",
                    wrt=("bet-fold", "raise")),
    PrintedEquation("E1 1066", "b", "region",
                    "(P/2 + 2)*((rr1 - b1)(C2RR - R2) + (1 - RR1)(C2RR - R2) + (rr1 - b1)(r2) + (1 - RR1)(r2))",
                    wrt=("bet-reraise", "raise-fold")),
    PrintedEquation("E1 1012", "b", "region",
                    "-(P/2)*((b2 - rr1)(B2 - b2) + (B2 - b2)^2/2) + P/2*((B1 - B2)(B2 - b2) + (B2 - b2)^2/2)",
                    wrt=("pass", "pass")),
    PrintedEquation("E1 1026", "b", "region",
                    "-(P/2 + 1)*((B1 - C1)(1 - B2) - (B1 - B2)^2/2) + (P/2 + 1)*((B1 - B2)^2/2 + (B1 - C1)(b2))",
                    wrt=("pass-call", "bet")),
    PrintedEquation("E1 1040", "b", "region",
                    "-(P/2 + 1)*((rr1)(R2 - C2) + (R2 - B1)^2/2) + (P/2 + 1)*((1 - B1)(R2 - C2) - (R2 - B1)^2/2)",
                    wrt=("bet", "call")),
    PrintedEquation("E1 1054", "b", "region",
                    "-(P/2 + 2)*((RR1 - C1R)(1 - R2) - (RR1 - R2)^2/2) + (P/2 + 3)*((RR1 - R2)^2/2 + (RR1 - C1R)(r2))",
                    wrt=("bet-call", "raise")),
    PrintedEquation("E1 1068", "b", "region",
                    "-(P/2 + 3)*((rr1 - b1)(1 - C2RR) + (1 - RR1)^2/2) + (P/2 + 3)*((1 - RR1)(1 - C2RR) - (1 - RR1)^2/2)",
                    wrt=("bet-reraise", "raise-call")),
    PrintedEquation("E1 (game b)", "b", "E1",
                    "B2^2 + C1 - b2C1 - B2C1 - C1R - C2 - C2RR + 2r2 - 3C1Rr2 + B1b2 - B1B2 + B1C2 + B1r2 - R2"
                    " - C1RR2 + R2^2 + 2b1 - 5b1C2RR - 3b1r2 + 3b1R2 - 3rr1 + C2rr1 + 5C2RRrr1 + 2r2rr1"
                    " - 3R2rr1 + RR1 + C2RRRR1 - RR1^2 + P(1/2b2^2 - b2C1 - C1Rr2 + B1r2 - B1C2RR - b1r2"
                    " + b1R2 + C2rr1 + C2RRrr1 - R2rr1)"),
    PrintedEquation("(8)", "b", "dE1", "2 - 5C2RR - 3r2 + 3R2 + P(-C2RR - r2 + R2)", wrt="b1"),
    PrintedEquation("(9)", "b", "dE1", "b2 - B2 + C2 + r2 + r2P", wrt="B1"),
    PrintedEquation("(10)", "b", "dE1", "-C1 + B1 + P(b2 - C1)", wrt="b2"),
    PrintedEquation("(11)", "b", "dE1", "2B2 - C1 - B1", wrt="B2"),
    PrintedEquation("(12)", "b", "dE1", "1 - b2 - B2 - b2P", wrt="C1"),
    PrintedEquation("(13)", "b", "dE1", "1 - 3r2 - R2 - r2P", wrt="C1R"),
    PrintedEquation("(14)", "b", "dE1", "-1 + B1 + rr1 + rr1P", wrt="C2"),
    PrintedEquation("(15)", "b", "dE1", "-1 - 5b1 + 5rr1 + RR1 + P(-b1 + rr1)", wrt="C2RR"),
    PrintedEquation("(16)", "b", "dE1", "2 - 3C1R + B1 - 3b1 + 2rr1 + P(-C1R + B1 - b1)", wrt="r2"),
    PrintedEquation("(17)", "b", "dE1", "-1 - C1R + 2R2 + 3b1 - 3rr1 + P(b1 - rr1)", wrt="R2"),
    PrintedEquation("(18)", "b", "dE1", "-3 + C2 + 5C2RR + 2r2 - 3R2 + P(C2 + C2RR - R2)", wrt="rr1"),
    PrintedEquation("(19)", "b", "dE1", "1 + C2RR - 2RR1", wrt="RR1"),
    # ---- game (c), FIGS. 23A-C, 24-26 -------------------------------------------------------
    PrintedEquation("(20)", "c", "E1",
                    "B2^2 + C1 - B2C1 + C1R + C1RR + 5b2C1RR - C2 - C2RR - 2kr1 + 3b2kr1 - B2kr1 + 3C2Rkr1"
                    " - 3b2KR1 + B2KR1 - C2KR1 + C2RKR1 + b2C1RRP + b2kr1P - B2kr1P + C2Rkr1P - b2KR1P + 2r2"
                    " - 3C1rr2 + 2KR1r2 - C1RPr2 - R2 - C1RR2 - KR1R2 + R2^2"
                    " - b1(-2 + C2RR(5 + P) + (3 + P)r2 - 3R2 - PR2) - rr1 - 3b2rr1 + B2rr1 + C2rr1 - 3C2Rrr1"
                    " + 5C2RRrr1 - b2rr1P + B2rr1P + C2rr1P - C2Rrr1P + C2RRrr1P + 2r2rr1 - 3R2rr1 - R2rr1P"
                    " - 2b2RR1 - B2RR1 + C2RR1 - C2RRRR1 - 2r2RR1 + R2RR1 - C1rr2 - 5C1RRrr2 - 2kr1rr2"
                    " + 2KR1rr2 - C1rr2P - C1RRrr2P + KR1rr2P + 2rr1rr2 + 3R2rr1r2 + rr2^2P/2"
                    " + B1(-B2 + C2 + r2 + r2P + rr2) - C1RRrr2 - RR1RR2 + RR2^2"),
    PrintedEquation("(21)", "c", "dE1", "2 - C2RR(5 + P) - (3 + P)r2 + 3R2 + R2P", wrt="b1"),
    PrintedEquation("(22)", "c", "dE1",
                    "-1 + B2 + C2 - 3C2R + 5C2RR + B2P + C2P - C2RP + C2RRP - b2(3 + P) + 2r2 - 3R2 - R2P + 2rr2",
                    wrt="rr1"),
    PrintedEquation("(23)", "c", "dE1", "-2 - B2 + 3C2R - B2P + C2RP + b2(3 + P) - 2rr2", wrt="kr1"),
    PrintedEquation("(24)", "c", "dE1", "1 - B2 - rr2 - rr2P", wrt="C1"),
    PrintedEquation("(25)", "c", "dE1", "-B2 + C2 + r2 + r2P + rr2", wrt="B1"),
    PrintedEquation("(26)", "c", "dE1", "1 - (3 + P)r2 - R2", wrt="C1R"),
    PrintedEquation("(27)", "c", "dE1", "B2 - C2 + C2R - b2(3 + P) + 2r2 - R2 + 2rr2 + rr2P", wrt="KR1",
                    note="printed 'b(3 + P)': the 2 of b2 is lost"),
    PrintedEquation("(28)", "c", "dE1", "1 + b2(5 + P) - (5 + P)rr2 - RR2", wrt="C1RR"),
    PrintedEquation("(29)", "c", "dE1", "-2b2 - B2 + C2 - C2R + C2RR - 2r2 + R2 + 3rr2 - RR2", wrt="RR1"),
    PrintedEquation("(30)", "c", "dE1", "2 + B1 - 3C1R + 2KR1 + B1P - C1RP - b1(3 + P) + 2rr1 - 2RR1", wrt="r2"),
    PrintedEquation("(31)", "c", "dE1", "-3KR1P + kr1(3 + P) + C1RR(5 + P) - 3rr1 - rr1P - 2RR1", wrt="b2",
                    note="the extraction prints the label (31) after the next equation"),
    PrintedEquation("(32)", "c", "dE1",
                    "B1 - 5C1RR - 2kr1 + 2KR1 - C1RRP + KR1P - C1(1 + P) + 2rr1 + 3RR1 + rr2P", wrt="rr2",
                    note="unlabelled in the extraction"),
    PrintedEquation("(33)", "c", "dE1", "-1 + B1 - KR1 + rr1 + rr1P + RR1", wrt="C2"),
    PrintedEquation("(34)", "c", "dE1", "-B1 + 2B2 - C1 - kr1 + KR1 - kr1P + rr1 + rr1P - RR1", wrt="B2"),
    PrintedEquation("(35)", "c", "dE1", "KR1 + kr1(3 + P) - 3rr1 - rr1P - RR1", wrt="C2R"),
    PrintedEquation("(37)", "c", "dE1", "-1 - b1(5 + P) + (5 + P)rr1 + RR1", wrt="C2RR"),
    PrintedEquation("(38)", "c", "dE1", "-C1RR - RR1 + 2RR2", wrt="RR2"),
    # ---- game (d), FIG. 27 ------------------------------------------------------------------
    PrintedEquation("(39)", "d", "E1",
                    "P/2*((b1^2/2) + (B1C2 - b1^2/2 - C2^2/2) + (C2 - B1C2) + (B1^2/2 - B1C2 + C2^2/2)"
                    " + (b1C2 - b1^2/2) - (C2^2/2 - b1C2 + b1^2/2) - (-B1^2/2 + B1 - b1 + B1C2 - C2^2/2))"
                    " + (3P/2)*((1/2 - C2 + B1C2 - B1^2/2) - (b1 - B1C2) - (1/2 - B1 + B1^2/2))"),
    PrintedEquation("(40)", "d", "E1", "P(-C2 + B1C2 - B1^2 - b1^2/2 + 2B1C2 + B1 - b1)"),
    PrintedEquation("(41)", "d", "dE1", "P(-b1 + 2C2 - 1)", wrt="b1"),
    PrintedEquation("(42)", "d", "dE1", "P(C2 - 2B1 + 1)", wrt="B1"),
    PrintedEquation("(43)", "d", "dE1", "P(-1 + B1 + 2b1)", wrt="C2"),
    PrintedEquation("(41)-(43) solution b1", "d", "point", "1/9", wrt="b1"),
    PrintedEquation("(41)-(43) solution B1", "d", "point", "7/9", wrt="B1"),
    PrintedEquation("(41)-(43) solution C2", "d", "point", "5/9", wrt="C2"),
)

#: The equation the extraction does not contain (18 variables, 17 printed derivatives).
MISSING = {"(36)": ("c", "R2")}


def _variables(game: str) -> tuple:
    return tuple(patent_layout(game).order)


def _readings(run: str, names) -> list:
    """Every way to split a run of letters/digits into a coefficient and variable names."""
    m = re.match(r"^(\d*)(.*)$", run)
    coeff, rest = m.group(1), m.group(2)
    names = sorted(set(names) | {"P"}, key=len, reverse=True)
    out = []

    def rec(s, acc):
        if not s:
            out.append(acc)
            return
        for n in names:
            if s.startswith(n):
                rec(s[len(n):], acc + [n])

    rec(rest, [])
    return [([coeff] if coeff else []) + r for r in out]


def parse_printed(text: str, game: str, derived: sp.Expr | None = None):
    """Parse a transcription into sympy.

    Returns ``(expr, flips)``: every ``b1``/``B1`` token of the text is a fresh symbol, and
    ``flips`` lists ``(symbol, printed name)`` so that a reading with some cases swapped can
    be tried (the OCR loses that case).  Run-together products with several readings take
    one whose monomial occurs in ``derived`` when possible.
    """
    names = list(_variables(game))
    syms = {n: sp.Symbol(n, real=True) for n in names}
    syms["P"] = P
    flips = []
    s = text.replace("\u2212", "-")
    # exponent: ^2 followed by a name or '(' needs an explicit product
    s = re.sub(r"\^(\d)(?=[A-Za-z(])", r"**\1*", s)
    s = s.replace("^", "**")
    deriv_monos = set()
    gens = [syms[n] for n in names] + [P]
    if derived is not None and sp.expand(derived).is_polynomial(*gens):
        deriv_monos = set(sp.Poly(sp.expand(derived), *gens).monoms())

    def mono_key(factors):
        e = [0] * (len(names) + 1)
        for f in factors:
            if f == "P":
                e[-1] += 1
            elif f in names:
                e[names.index(f)] += 1
        return tuple(e)

    def repl(m):
        run = m.group(0)
        if run.isdigit():
            return run
        readings = _readings(run, names)
        if not readings:
            raise GutsInputError(f"cannot read {run!r} as a product of {names}")
        chosen = readings[0]
        if len(readings) > 1 and deriv_monos:
            for r in readings:
                if mono_key(r) in deriv_monos:
                    chosen = r
                    break
        parts = []
        for f in chosen:
            if f in ("b1", "B1") and "b1" in names and "B1" in names:
                t = sp.Symbol(f"_tok{len(flips)}", real=True)
                flips.append((t, f))
                parts.append(t.name)
            else:
                parts.append(f)
        return "*".join(parts)

    s = re.sub(r"[A-Za-z0-9]+", repl, s)
    # implicit products: ")(" , ")x", "2(" , "x("
    s = re.sub(r"\)\s*\(", ")*(", s)
    s = re.sub(r"\)\s*([A-Za-z0-9_])", r")*\1", s)
    s = re.sub(r"([A-Za-z0-9_])\s*\(", r"\1*(", s)
    local = dict(syms)
    local.update({t.name: t for t, _ in flips})
    expr = sp.sympify(s, locals=local)
    return expr, flips


def as_printed(expr, flips):
    """Every token read as printed."""
    return sp.expand(expr.subs({t: sp.Symbol(n, real=True) for t, n in flips}))


@dataclass(frozen=True)
class Comparison:
    """``printed - derived`` for one equation.

    ``verdict``: ``"agrees"``, ``"agrees up to b1/B1 case"`` (``case_slips`` tokens read
    the other way), ``"differs"``, or ``"missing"``.
    """

    label: str
    game: str
    verdict: str
    difference: str
    case_slips: int
    derived: str
    printed: str
    note: str = ""


def _derived(eq: PrintedEquation, wrt_name):
    rules, layout = patent_rules(eq.game), patent_layout(eq.game)
    structure, E, grads = equations(rules, layout)
    if eq.kind == "E1":
        return E
    if eq.kind == "dE1":
        return grads[layout.order.index(wrt_name)]
    if eq.kind == "point":
        return solve_symbolic(rules, layout)[wrt_name]
    if eq.kind == "region":
        from .expected import meeting_return, meetings, symbols_of

        syms = symbols_of(layout)
        value = (lambda e: sp.Integer(e) if e in (0, 1) else syms[e])
        total = sp.Integer(0)
        for m in meetings(structure, layout):
            t = m.terminal
            if ("-".join(t.sequence(0)), "-".join(t.sequence(1))) == tuple(eq.wrt):
                total += meeting_return(m, layout, value)
        return sp.expand(total)
    raise GutsInputError(f"unknown equation kind {eq.kind!r}")


def _min_case_slips(diff, flips, game, rng) -> int | None:
    """Fewest b1/B1 tokens to read in the other case for ``diff`` to vanish identically.

    ``None`` if no reading works.  All ``2^k`` readings are tried for ``k <= 20`` tokens,
    else readings with at most 6 swaps.  Vanishing is tested at three random points (a
    nonzero polynomial vanishes at all three with probability 0).
    """
    names = list(_variables(game))
    syms = [sp.Symbol(n, real=True) for n in names]
    toks = [t for t, _ in flips]
    f = sp.lambdify(syms + [P] + toks, diff, "numpy")
    k = len(toks)
    if k <= 20:
        combos = np.array(list(itertools.product((0, 1), repeat=k)), dtype=bool).reshape(-1, k)
    else:
        rows = []
        for r in range(7):
            for idx in itertools.combinations(range(k), r):
                row = np.zeros(k, dtype=bool)
                row[list(idx)] = True
                rows.append(row)
        combos = np.array(rows)
    ok = np.ones(len(combos), dtype=bool)
    ib, iB = names.index("b1"), names.index("B1")
    for _ in range(3):
        vals = rng.uniform(0.1, 0.9, size=len(names))
        pval = rng.uniform(0.5, 5.0)
        args = []
        for j, (_, printed_name) in enumerate(flips):
            mine, other = (vals[ib], vals[iB]) if printed_name == "b1" else (vals[iB], vals[ib])
            args.append(np.where(combos[:, j], other, mine))
        out = np.broadcast_to(np.asarray(f(*vals, pval, *args), dtype=float), (len(combos),))
        ok &= np.abs(out) < 1e-9
    if not ok.any():
        return None
    return int(combos[ok].sum(axis=1).min())


def _compare_one(eq: PrintedEquation, rng) -> Comparison:
    wrts = [(eq.wrt, 0)]
    if eq.wrt in ("b1", "B1"):  # the label's case is as unreliable as the body's
        wrts.append(("B1" if eq.wrt == "b1" else "b1", 1))
    best = None
    for w, label_slip in wrts:
        derived = _derived(eq, w)
        printed, flips = parse_printed(eq.text, eq.game, derived)
        literal = as_printed(printed, flips)
        diff = sp.expand(literal - derived) if eq.kind != "point" else sp.simplify(literal - derived)
        if diff == 0 and not label_slip:
            c = Comparison(eq.label, eq.game, "agrees", "0", 0, str(derived), str(literal), eq.note)
        else:
            slips = 0 if diff == 0 else (_min_case_slips(printed - derived, flips, eq.game, rng) if flips else None)
            if slips is not None:
                c = Comparison(eq.label, eq.game, "agrees up to b1/B1 case", str(diff), slips + label_slip,
                               str(derived), str(literal), eq.note)
            else:
                c = Comparison(eq.label, eq.game, "differs", str(diff), -1, str(derived), str(literal), eq.note)
        rank = {"agrees": 0, "agrees up to b1/B1 case": 1, "differs": 2}[c.verdict]
        if best is None or (rank, c.case_slips) < best[0]:
            best = ((rank, c.case_slips), c)
    return best[1]


def compare(label: str, random_state: int = 0) -> Comparison:
    """Compare one printed equation (by its label, e.g. ``"(16)"``) with the derivation."""
    rng = np.random.default_rng(check_random_state("random_state", random_state))
    if label in MISSING:
        game, var = MISSING[label]
        return Comparison(label, game, "missing", "", -1, f"dE1/d{var}", "", "not in the extraction")
    for eq in PRINTED:
        if eq.label == label:
            return _compare_one(eq, rng)
    raise GutsInputError(f"unknown printed equation {label!r}; accepted: {', '.join(e.label for e in PRINTED)}")


def compare_all(random_state: int = 0) -> list:
    """:func:`compare` for every transcribed equation, plus the missing (36)."""
    random_state = check_random_state("random_state", random_state)
    out = [compare(eq.label, random_state) for eq in PRINTED]
    out += [compare(lbl, random_state) for lbl in MISSING]
    return out
