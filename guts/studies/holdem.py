"""Hold'em raise game artefacts (the online note on a simplified heads-up hold'em) under ``results/holdem/``.

* ``equity_vs_random.csv`` / ``equity_matrix.csv`` - the exact preflop table, summarised;
* ``raise_game_R<R>_*`` - the R = 40 solution: both strategies (CSV), Alice's action
  distribution over raise sizes (the plot the note promises), the 13 x 13 grid of each
  class's preferred action, Bob's calling ranges by raise size, and the comparison with
  the note's figures and claims;
* ``reraise_*`` - the game where Bob may re-raise, against the same game without.

Every file is written atomically with a ``.meta.json`` of its parameters.

    python experiments/holdem_raise_game.py            # R = 40 artefacts
    python experiments/holdem_reraise.py               # Bob re-raises
    python experiments/holdem_equities.py              # equity summaries
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from guts.errors import GutsInputError
from guts.games.holdem import CLASS_LABELS, equity_table, solve_raise_game
from guts.games.holdem.cards import RANKS, class_kind, class_sizes
from guts.studies.output import ensure_output_dir, publish, save_figure, write_csv, write_meta

__all__ = ["strategy_frames", "write_solution", "source_comparison", "raise_game_study", "reraise_study",
           "equity_study", "parse_sizes_list"]

DEFAULT_OUT = Path("results") / "holdem"
SEED_VALUE = 0.39776          # the note: "an average of at least 0.39776" (R = 40)
PRINT_TOL = 1e-12             # strategy entries below this are written as zero / omitted
SEED_RERAISES = (5, 10, 20, 40, 80, 160)   # Bob's re-raise sizes (the note: "<= 6 sizes" per round)
SEED_RAISES = (4, 6, 9, 13, 20, 30)         # Alice's six raise sizes for the two-round game


def _readable(paths):
    """Give written files (and their .meta.json) the usual 0644 mode: the atomic writer's
    temporary files are created 0600."""
    import os

    for p in paths:
        for q in (Path(p), Path(p).with_name(Path(p).stem + ".meta.json")):
            if q.exists():
                os.chmod(q, 0o644)
    return paths


def parse_sizes_list(text) -> tuple:
    """``"4,8,16"`` -> (4, 8, 16); integers >= 2."""
    if isinstance(text, (list, tuple)):
        return tuple(int(v) for v in text)
    try:
        vals = tuple(int(v) for v in str(text).replace(" ", "").split(",") if v)
    except ValueError:
        raise GutsInputError(f"sizes must be a comma-separated list of integers >= 2, like '4,8,16'; got {text!r}") from None
    if any(v < 2 for v in vals):
        raise GutsInputError(f"sizes must be integers >= 2; got {text!r}")
    return vals


def strategy_frames(result):
    """Long-form DataFrames ``(alice, bob)`` of a :class:`RaiseGameResult` (zeros omitted)."""
    rows = []
    X = result.alice_strategy
    for i, lab in enumerate(CLASS_LABELS):
        for a, act in enumerate(result.actions):
            if X[i, a] > PRINT_TOL:
                rows.append({"class": lab, "node": "root", "action": act, "probability": X[i, a]})
        for k, r in enumerate(result.raises):
            if X[i, 2 + k] <= PRINT_TOL:
                continue
            for ll, s in enumerate(result.reraises):
                rows.append({"class": lab, "node": f"r{r}/rr{s}", "action": "c",
                             "probability": result.alice_call_reraise[i, k, ll]})
    alice = pd.DataFrame(rows, columns=["class", "node", "action", "probability"])
    rows = []
    for k, r in enumerate(result.raises):
        for j, lab in enumerate(CLASS_LABELS):
            rec = {"raise": r, "class": lab, "call": result.bob_strategy[j, k]}
            for ll, s in enumerate(result.reraises):
                rec[f"reraise_{s}"] = result.bob_reraise[j, k, ll]
            rec["fold"] = 1.0 - rec["call"] - sum(rec.get(f"reraise_{s}", 0.0) for s in result.reraises)
            rows.append(rec)
    bob = pd.DataFrame(rows)
    return alice, bob


def _params(result) -> dict:
    return {"raises": f"{result.raises[0]}..{result.raises[-1]}" if result.raises == tuple(
        range(result.raises[0], result.raises[-1] + 1)) else list(result.raises),
        "reraises": list(result.reraises), "method": result.method}


def _certificate(result) -> dict:
    return {"value": result.value, "exploitability": result.exploitability, "nash_conv": result.nash_conv,
            "certified_by": result.certified_by, "converged": result.converged, "seconds": result.seconds}


def write_solution(result, out_dir, stem: str) -> list:
    """Both strategies as CSV (+ meta) under ``out_dir``; returns the paths."""
    out = ensure_output_dir(out_dir)
    with publish(out, stem):
        alice, bob = strategy_frames(result)
        paths = []
        for name, df in (("alice", alice), ("bob", bob)):
            p = write_csv(df, out / f"{stem}_{name}.csv", float_format="%.12g")
            write_meta(p, _params(result), **_certificate(result))
            paths.append(p)
    return _readable(paths)


def action_table(result, table=None) -> pd.DataFrame:
    """Alice's overall action frequencies (deal-weighted) by action."""
    freq = result.action_frequencies(table)
    return pd.DataFrame({"action": result.actions, "probability": freq})


def source_comparison(result, table=None) -> pd.DataFrame:
    """The note's printed figures and claims next to ours (R = 40).

    The source is an online note on a simplified heads-up hold'em (Alice raises by integers
    up to 40, Bob calls or folds) solved by one LP; see docs/references.md.
    """
    table = table or equity_table()
    f = dict(zip(result.actions, result.action_frequencies(table)))
    X = {lab: dict(zip(result.actions, result.alice_strategy[i])) for i, lab in enumerate(CLASS_LABELS)}

    def top(lab, k=3):
        d = sorted(((p, a) for a, p in X[lab].items() if p > 1e-6), reverse=True)[:k]
        return ", ".join(f"{a} {p:.0%}" for p, a in d)

    band = lambda lo, hi: sum(f.get(f"r{r}", 0.0) for r in range(lo, hi + 1))  # noqa: E731
    rows = [
        ("value (chips per hand, Alice)", "at least 0.39776 (his strategy vs Bob's best response; "
         "his code also prints 0.397866 for Alice's best response: the exact value lies between)",
         f"{result.value:.10f}", f"exploitability {result.exploitability:.1e}"),
        ("Alice folds", "never", f"{f['f']:.2e}", "fold is dominated: calling earns 2(2E-1) > -1 (E > 1/4 vs any hand)"),
        ("flat call share", "around 43%", f"{f['c']:.2%}", ""),
        ("raise 4-7", "moderate raises 4-7 (trailing off up to 16)", f"{band(4, 7):.2%} (8-16: {band(8, 16):.2%})", ""),
        ("raise 20-21", "go all out with 20 or 21", f"{band(20, 21):.2%} (22: {f.get('r22', 0):.2%})", ""),
        ("raise 2-3 or > 23", "almost never", f"{band(2, 3) + band(24, 10 ** 6):.2e}", ""),
        ("63s", "raises by 15 70% of the time", top("63s"),
         "the note's strategy is approximate (duality gap 1.1e-4); Alice's exact strategy is the same from "
         "three LP formulations to 1e-12"),
        ("87s", "13 (40%), 16 (10%), 22 (29%), small probabilities in between",
         top("87s", 5), "the note's interior-point solution spreads small amounts over nearby sizes"),
    ]
    return pd.DataFrame(rows, columns=["quantity", "the note (printed)", "exact (this package)", "comment"])


# --------------------------------------------------------------------------- figures
def _grid(values):
    return np.asarray(values).reshape(13, 13)


def plot_action_distribution(result, target, table=None, title=None):
    """Bar chart: probability of fold, call and each raise size (the plot the note promises)."""
    import matplotlib.pyplot as plt

    freq = result.action_frequencies(table)
    fig, ax = plt.subplots(figsize=(9, 3.6))
    xs = [-2, 0] + list(result.raises)
    colors = ["#999999", "#4477aa"] + ["#cc6677"] * len(result.raises)
    ax.bar(xs, freq, color=colors, width=0.8)
    ax.set_xticks([-2, 0] + [r for r in result.raises if r % 2 == 0 or len(result.raises) < 20])
    ax.set_xticklabels(["fold", "call"] + [str(r) for r in result.raises if r % 2 == 0 or len(result.raises) < 20],
                       fontsize=7)
    ax.set_xlabel("Alice's action: fold, call (complete to 2) or raise by r")
    ax.set_ylabel("probability over all deals")
    ax.set_title(title or f"Alice's action distribution, raises 2..{result.raises[-1]} "
                 f"(value {result.value:.5f} per hand)")
    fig.tight_layout()
    save_figure(fig, target, dpi=120)
    plt.close(fig)


def preferred_actions(result) -> pd.DataFrame:
    """Each class's most likely action and its probability (13 x 13 chart order)."""
    X = result.alice_strategy
    best = X.argmax(axis=1)
    return pd.DataFrame({"class": CLASS_LABELS, "kind": [class_kind(k) for k in range(169)],
                         "preferred": [result.actions[a] for a in best], "probability": X[np.arange(169), best],
                         "raise_probability": X[:, 2:].sum(axis=1),
                         "mean_raise_if_raising": np.where(X[:, 2:].sum(axis=1) > 0,
                                                           (X[:, 2:] * np.asarray(result.raises)).sum(axis=1)
                                                           / np.maximum(X[:, 2:].sum(axis=1), 1e-300), np.nan)})


def plot_preferred_grid(result, target):
    """13 x 13 chart: each class's preferred action (colour: raise size; grey: call)."""
    import matplotlib
    import matplotlib.pyplot as plt

    pref = preferred_actions(result)
    fig, ax = plt.subplots(figsize=(8.2, 7.6))
    rmax = max(result.raises)
    cmap = matplotlib.colormaps["viridis"]
    for k in range(169):
        row, col = divmod(k, 13)
        act = pref["preferred"][k]
        if act == "c":
            color = "#dddddd"
        elif act == "f":
            color = "#ffffff"
        else:
            color = cmap(int(act[1:]) / rmax)
        ax.add_patch(plt.Rectangle((col, 12 - row), 1, 1, color=color))
        txt = "#000000" if act in ("c", "f") or int(act[1:]) > 0.55 * rmax else "#ffffff"
        ax.text(col + 0.5, 12 - row + 0.62, CLASS_LABELS[k], ha="center", va="center", fontsize=6.5, color=txt)
        ax.text(col + 0.5, 12 - row + 0.3, f"{act} {pref['probability'][k]:.0%}", ha="center", va="center",
                fontsize=5.5, color=txt)
    ax.set_xlim(0, 13)
    ax.set_ylim(0, 13)
    ax.set_aspect("equal")
    ax.axis("off")
    raises = sorted(result.raises)
    contiguous = raises == list(range(raises[0], raises[-1] + 1))
    shown = f"raises {raises[0]}..{rmax}" if contiguous else f"raises {', '.join(map(str, raises))}"
    ax.set_title(f"Alice's preferred action per class ({shown}"
                 + (f", Bob re-raises {list(result.reraises)}" if result.reraises else "")
                 + ")\nc = call, rN = raise by N (colour: size); % = its probability", fontsize=9)
    sm = matplotlib.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, rmax))
    fig.colorbar(sm, ax=ax, fraction=0.04, pad=0.02, label="raise size")
    fig.tight_layout()
    save_figure(fig, target, dpi=120)
    plt.close(fig)


def plot_bob_calling(result, target, table=None, sizes=None):
    """Bob's calling ranges: 13 x 13 call-probability charts at the raise sizes Alice uses
    most, and his overall call frequency against each size Alice uses."""
    import matplotlib.pyplot as plt

    table = table or equity_table()
    freq = result.action_frequencies(table)[2:]
    if sizes is None:
        order = np.argsort(-freq)[:8]
        sizes = sorted(result.raises[k] for k in order if freq[k] > 0)
    pos = {r: k for k, r in enumerate(result.raises)}
    ncol = 4
    nrow = (len(sizes) + ncol - 1) // ncol + 1
    fig = plt.figure(figsize=(11, 2.9 * nrow))
    for t, r in enumerate(sizes):
        ax = fig.add_subplot(nrow, ncol, t + 1)
        ax.imshow(_grid(result.bob_strategy[:, pos[r]]), cmap="Blues", vmin=0, vmax=1)
        ax.set_xticks(range(13))
        ax.set_yticks(range(13))
        ax.set_xticklabels(RANKS[::-1], fontsize=5)
        ax.set_yticklabels(RANKS[::-1], fontsize=5)
        ax.set_title(f"raise {r}: Alice raises {freq[pos[r]]:.1%}", fontsize=8)
    # overall call frequency of Bob's hands, weighted by his class probability given the raise
    ax = fig.add_subplot(nrow, 1, nrow)
    n = table.pairs.astype(float)
    used = [k for k in range(len(result.raises)) if freq[k] > 1e-9]
    share = []
    for k in used:
        w = n.T @ result.alice_strategy[:, 2 + k]              # Bob's class weights given raise k
        share.append(float((w * result.bob_strategy[:, k]).sum() / w.sum()))
    ax.plot([result.raises[k] for k in used], share, "o-", color="#4477aa")
    ax.set_xlabel("Alice's raise r (sizes she uses)")
    ax.set_ylabel("P(Bob calls | raise r)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    fig.suptitle("Bob's calling ranges by raise size (13 x 13 chart: pairs on the diagonal, suited above; "
                 "dark = calls)", fontsize=9)
    fig.tight_layout()
    save_figure(fig, target, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------- studies
def equity_study(out_dir=DEFAULT_OUT) -> list:
    """``equity_vs_random.csv`` (169 rows) and ``equity_matrix.csv`` (169 x 169 equities)."""
    out = ensure_output_dir(out_dir)
    t = equity_table()
    lose = t.win.T.sum(axis=1) / t.trials.sum(axis=1)
    df = pd.DataFrame({"class": CLASS_LABELS, "kind": [class_kind(k) for k in range(169)], "combos": class_sizes(),
                       "win": t.win.sum(axis=1) / t.trials.sum(axis=1),
                       "tie": t.tie.sum(axis=1) / t.trials.sum(axis=1), "lose": lose,
                       "equity": t.vs_random()})
    df = df.sort_values("equity", ascending=False)
    params = {"boards": "all C(48,5) per combo pair", "method": "exact enumeration"}
    with publish(out, "equities"):
        p1 = write_csv(df, out / "equity_vs_random.csv", float_format="%.10f")
        write_meta(p1, params)
        mat = pd.DataFrame(np.round(t.equity, 6), columns=CLASS_LABELS)
        mat.insert(0, "class", CLASS_LABELS)
        p2 = write_csv(mat, out / "equity_matrix.csv")
        write_meta(p2, params, note="equity (win + tie/2) of the row class against the column class")
    return _readable([p1, p2])


def raise_game_study(max_raise: int = 40, out_dir=DEFAULT_OUT, method: str = "auto", progress: bool = True) -> list:
    """The R = ``max_raise`` solution and its figures/tables (see the module docstring)."""
    out = ensure_output_dir(out_dir)
    table = equity_table()
    r = solve_raise_game(max_raise=max_raise, method=method, table=table, progress=progress)
    stem = f"raise_game_R{max_raise}"
    with publish(out, stem):
        paths = write_solution(r, out, stem)
        params, cert = _params(r), _certificate(r)

        def plotted(name, plot, *args):
            plot(r, out / name, *args)
            return out / name

        made = [lambda: write_csv(action_table(r, table), out / f"{stem}_actions.csv", float_format="%.12g"),
                lambda: plotted(f"{stem}_actions.png", plot_action_distribution, table),
                lambda: write_csv(preferred_actions(r), out / f"{stem}_grid.csv", float_format="%.6g"),
                lambda: plotted(f"{stem}_grid.png", plot_preferred_grid),
                lambda: plotted(f"{stem}_bob_calls.png", plot_bob_calling, table)]
        if max_raise == 40:
            made.append(lambda: write_csv(source_comparison(r, table), out / "note_comparison_R40.csv"))
        for make in made:          # each file with the solution's parameters and certificate
            path = make()
            write_meta(path, params, **cert)
            paths.append(path)
    return _readable(paths), r


def reraise_point(item):
    """The raise game at ``item = (raises, reraises, progress)`` (module-level: a sweep pickles it)."""
    raises, reraises, progress = item
    return solve_raise_game(raises=raises, reraises=reraises, table=equity_table(), progress=progress)


def reraise_study(raises=SEED_RAISES, reraises=SEED_RERAISES, out_dir=DEFAULT_OUT, progress=True, jobs: int = 1,
                  backend: str | None = None, scheduler: str | None = None):
    """Bob may re-raise: value and Alice's strategy against the same raises without re-raises.

    ``jobs``, ``backend``, ``scheduler``: the two games as the points of a
    :func:`guts.studies.sweep.run_sweep` (``jobs=2`` solves them side by side).
    """
    from guts.studies.sweep import check_backend, run_sweep

    check_backend(backend, scheduler)
    out = ensure_output_dir(out_dir)
    table = equity_table()
    base, rr = run_sweep(reraise_point, [(tuple(raises), (), progress and jobs == 1),
                                         (tuple(raises), tuple(reraises), progress and jobs == 1)],
                         jobs=jobs, progress=progress and jobs != 1, desc="raise games", backend=backend,
                         scheduler=scheduler)
    stem = "reraise"
    with publish(out, stem):
        paths = write_solution(rr, out, stem)
        fa, fb = base.action_frequencies(table), rr.action_frequencies(table)
        comp = pd.DataFrame({"action": base.actions, "without_reraise": fa, "with_reraise": fb})
        comp = comp[(comp.without_reraise > 1e-9) | (comp.with_reraise > 1e-9)]
        summary = pd.DataFrame([
            {"game": "Bob calls or folds", "value": base.value, "exploitability": base.exploitability,
             "fold": fa[0], "call": fa[1], "raise": fa[2:].sum(), "seconds": base.seconds},
            {"game": f"Bob may also re-raise by {list(reraises)}", "value": rr.value,
             "exploitability": rr.exploitability, "fold": fb[0], "call": fb[1], "raise": fb[2:].sum(),
             "seconds": rr.seconds},
        ])
        params = {"raises": _params(base)["raises"], "reraises": list(reraises)}
        for name, df in (("summary", summary), ("actions", comp)):
            p = write_csv(df, out / f"{stem}_{name}.csv", float_format="%.12g")
            write_meta(p, params)
            paths.append(p)
        pc = pd.DataFrame({"class": CLASS_LABELS, "without_reraise": preferred_actions(base)["preferred"],
                           "with_reraise": preferred_actions(rr)["preferred"],
                           "fold_with_reraise": rr.alice_strategy[:, 0],
                           "raise_without": base.alice_strategy[:, 2:].sum(axis=1),
                           "raise_with": rr.alice_strategy[:, 2:].sum(axis=1)})
        p = write_csv(pc, out / f"{stem}_classes.csv", float_format="%.6g")
        write_meta(p, params)
        paths.append(p)
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(9, 3.6))
        xs = np.array([-2, 0] + list(base.raises), dtype=float)
        ax.bar(xs - 0.2, fa, width=0.4, label=f"Bob calls/folds (value {base.value:.4f})", color="#4477aa")
        ax.bar(xs + 0.2, fb, width=0.4, label=f"Bob may re-raise {list(reraises)} (value {rr.value:.4f})",
               color="#cc6677")
        ax.set_xlabel("Alice's action: fold (-2), call (0), raise r")
        ax.set_ylabel("probability over all deals")
        ax.legend(fontsize=8)
        ax.set_title("Alice's action distribution with and without Bob's re-raise")
        fig.tight_layout()
        p = out / f"{stem}_actions.png"
        save_figure(fig, p, dpi=120)
        plt.close(fig)
        write_meta(p, params)
        paths.append(p)
        p = out / f"{stem}_grid.png"
        plot_preferred_grid(rr, p)
        write_meta(p, params)
        paths.append(p)
    return _readable(paths), base, rr


seed_comparison = source_comparison  # the former name (kept for outside code)
