"""Curve fits of the coalition value V(N) and its asymptote (paper §5, Figure 3).

The paper fits, with SciPy, "a rational function" to the values the coalition
forces for N = 2..15 (Table 1) and prints

    V(n) = 0.163 - 0.84 / (n - 3.6),   r^2 ≈ 0.9991,   asymptote ≈ 0.16.

As printed the curve is wrong for small n (it gives V(2) = 0.688 and a pole at
n = 3.6); refitting the model ``a - b / (N - c)`` to the paper's own Table 1 gives
``c ≈ -3.6``, i.e. ``V(n) = 0.163 - 0.84 / (n + 3.6)``: the printed minus sign
should be a plus.  :func:`fit_rational` reproduces that fit (tested).

Models (every one has the asymptote ``a`` as N -> infinity)

``"rational"``            ``a - b / (N - c)``        (the paper's)
``"inverse-quadratic"``   ``a - b / N - c / N^2``
``"power"``               ``a - b N^(-c)``

Each fit reports r², the parameters' standard errors (from the covariance of
``scipy.optimize.curve_fit``), the residuals, the corrected Akaike information
criterion AICc (Gaussian errors, σ estimated: ``n log(SSE/n) + 2k + 2k(k+1)/(n-k-1)``
with ``k`` = parameters + 1; lower is better, the criterion used to compare
models), and two intervals for the asymptote ``a``:

* profile interval: the ``a`` with ``SSE(a) <= SSE_min (1 + F_{1, n-p}(level) / (n - p))``,
  where ``SSE(a)`` minimises over the other parameters (F-test inversion);
* residual bootstrap: refit to ``fitted + resampled residuals`` and take percentiles.

Both treat the residuals as noise.  For exactly computed values the residuals
are model error, not noise, and the intervals only measure how well the model
extrapolates *if it is right*: compare with directly computed large-N values
(:mod:`guts.games.guts.large_n`).

Examples
--------
>>> from guts.studies.fit import fit_rational
>>> from guts.studies.table1 import paper_table1
>>> t = paper_table1().query("N >= 2")
>>> f = fit_rational(t.N, t.opponent_value, bootstrap=0)
>>> round(f.a, 3), round(f.b, 2), round(f.c, 1), round(f.r2, 4)
(0.163, 0.84, -3.6, 0.9991)
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from guts._validate import GutsInputError, check_choice, check_int
from guts.studies.output import AUTO

__all__ = ["MODELS", "CurveFit", "fit_model", "fit_rational", "compare_models", "fits_table",
           "value_curve_datasets", "run_fit", "plot_value_curve"]


def _rational(N, a, b, c):
    return a - b / (N - c)


def _inverse_quadratic(N, a, b, c):
    return a - b / N - c / N**2


def _power(N, a, b, c):
    return a - b * N ** (-c)


# name -> (function, formula, parameter names)
MODELS = {
    "rational": (_rational, "a - b/(N - c)"),
    "inverse-quadratic": (_inverse_quadratic, "a - b/N - c/N^2"),
    "power": (_power, "a - b N^(-c)"),
}
PARAMS = ("a", "b", "c")


@dataclass(frozen=True)
class CurveFit:
    """A least-squares fit of V(N) with the asymptote's intervals.

    Attributes
    ----------
    model, formula : str
    a, b, c : float
        Parameters (``a`` is the asymptote V(infinity)).
    stderr : dict
        Standard errors ``{"a": ..., "b": ..., "c": ...}`` from curve_fit's covariance.
    r2 : float
        Coefficient of determination ``1 - SSE / SST``.
    rmse : float
        ``sqrt(SSE / n)``.
    aicc : float
        Corrected Akaike information criterion (lower is better).
    residuals : numpy.ndarray
        ``values - model(sizes)``.
    asymptote_interval : (float, float)
        Profile (F-test) interval for ``a`` at ``level``.
    bootstrap_interval : (float, float)
        Residual-bootstrap percentile interval for ``a`` (nan if not computed).
    bootstrap_failures : int
        Bootstrap refits that did not converge (left out of the percentiles).
    level : float
    sizes, values : numpy.ndarray
        The data.
    """

    model: str
    formula: str
    a: float
    b: float
    c: float
    stderr: dict
    r2: float
    rmse: float
    aicc: float
    residuals: np.ndarray = field(repr=False)
    asymptote_interval: tuple
    bootstrap_interval: tuple
    bootstrap_failures: int
    level: float
    sizes: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)

    @property
    def params(self) -> tuple:
        """``(a, b, c)``."""
        return (self.a, self.b, self.c)

    @property
    def asymptote(self) -> float:
        """``a``: the fitted value as N -> infinity."""
        return self.a

    def predict(self, N) -> np.ndarray:
        """The fitted curve at ``N``."""
        return MODELS[self.model][0](np.asarray(N, dtype=float), *self.params)

    def summary(self) -> dict:
        """One flat row (for ``results/fit.csv``)."""
        return {
            "model": self.model, "formula": self.formula, "n_points": int(self.sizes.size),
            "N_min": int(self.sizes.min()), "N_max": int(self.sizes.max()),
            "a": self.a, "b": self.b, "c": self.c,
            "a_se": self.stderr["a"], "b_se": self.stderr["b"], "c_se": self.stderr["c"],
            "r2": self.r2, "rmse": self.rmse, "aicc": self.aicc,
            "asymptote_low": self.asymptote_interval[0], "asymptote_high": self.asymptote_interval[1],
            "bootstrap_low": self.bootstrap_interval[0], "bootstrap_high": self.bootstrap_interval[1],
            "bootstrap_failures": self.bootstrap_failures, "level": self.level,
        }


def _data(sizes, values):
    N = np.asarray(sizes, dtype=float).ravel()
    V = np.asarray(values, dtype=float).ravel()
    if N.size != V.size:
        raise GutsInputError(f"sizes and values must have the same length; got {N.size} and {V.size}")
    if not (np.all(np.isfinite(N)) and np.all(np.isfinite(V))):
        raise GutsInputError("sizes and values must be finite numbers (found NaN or inf)")
    if np.any(N < 1):
        raise GutsInputError(f"coalition sizes must be >= 1; got {N.min()!r}")
    if np.unique(N).size < 5:
        raise GutsInputError(f"a 3-parameter fit needs at least 5 distinct sizes; got {np.unique(N).size}")
    return N, V


def _starts(model, N, V):
    """Starting points (several for the nonlinear models; the best fit is kept)."""
    top = V[np.argmax(N)]
    span = max(float(np.ptp(V)), 1e-3)
    if model == "rational":
        return [(top + span * 0.2, span * (N.max() + c0) / 2.0, c0) for c0 in (-10.0, -3.0, 0.0, 0.5 * N.min())]
    if model == "power":
        return [(top + span * 0.2, span * 2.0, g) for g in (0.5, 1.0, 2.0)]
    return [(top, span * N.min(), 0.0)]


def _bounds(model, N):
    inf = np.inf
    if model == "rational":  # keep the pole left of the data: N - c > 0
        return ([-inf, -inf, -inf], [inf, inf, float(N.min()) - 1e-6])
    if model == "power":
        return ([-inf, -inf, 1e-6], [inf, inf, 20.0])
    return ([-inf] * 3, [inf] * 3)


def _least_squares(model, N, V, starts=None, fixed_a=None):
    """Best curve_fit over the starting points; ``fixed_a`` profiles out the asymptote."""
    from scipy.optimize import curve_fit

    f = MODELS[model][0]
    lo, hi = _bounds(model, N)
    best = None
    for p0 in (starts or _starts(model, N, V)):
        p0 = np.clip(np.asarray(p0, dtype=float), np.array(lo) + 1e-9, np.array(hi) - 1e-9)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if fixed_a is None:
                    p, cov = curve_fit(f, N, V, p0=p0, bounds=(lo, hi), method="trf",
                                       x_scale="jac", ftol=1e-15, xtol=1e-15, gtol=1e-15, max_nfev=20_000)
                else:
                    p_bc, cov = curve_fit(lambda n, b, c: f(n, fixed_a, b, c), N, V, p0=p0[1:],
                                          bounds=(lo[1:], hi[1:]), method="trf", x_scale="jac",
                                          ftol=1e-15, xtol=1e-15, gtol=1e-15, max_nfev=20_000)
                    p = np.array([fixed_a, *p_bc])
        except (RuntimeError, ValueError):
            continue
        sse = float(np.sum((V - f(N, *p)) ** 2))
        if np.isfinite(sse) and (best is None or sse < best[0]):
            best = (sse, p, cov)
    return best


def fit_model(sizes, values, model: str = "rational", level: float = 0.95, bootstrap: int = 1000,
              random_state=0, tick=None) -> CurveFit:
    """Least-squares fit of one model of V(N) (scipy ``curve_fit``) with the asymptote's intervals.

    Parameters
    ----------
    sizes, values : array_like
        Coalition sizes N and the coalition's values V(N) (at least 5 distinct N).
    model : {"rational", "inverse-quadratic", "power"}
        See the module docstring.
    level : float
        Confidence level of the intervals, in (0, 1).
    bootstrap : int
        Residual-bootstrap refits (0: skip the bootstrap interval).
    random_state : int or numpy.random.Generator
        Seed of the bootstrap resampling.
    tick : callable, optional
        Called once per bootstrap refit (a progress bar's ``update``).

    Returns
    -------
    CurveFit
    """
    from scipy.stats import f as f_dist

    check_choice("model", model, tuple(MODELS))
    N, V = _data(sizes, values)
    if not (isinstance(level, float) and 0.0 < level < 1.0):
        raise GutsInputError(f"level must be a float in (0, 1); got {level!r}")
    bootstrap = check_int("bootstrap", bootstrap, 0)
    best = _least_squares(model, N, V)
    if best is None:
        raise GutsInputError(f"the {model} model could not be fitted to these {N.size} points")
    sse, p, cov = best
    func, formula = MODELS[model]
    n, k = N.size, 3
    resid = V - func(N, *p)
    sst = float(np.sum((V - V.mean()) ** 2))
    r2 = 1.0 - sse / sst if sst > 0 else math.nan
    kk = k + 1  # parameters + the noise variance
    aicc = n * math.log(max(sse, 1e-300) / n) + 2 * kk + (2 * kk * (kk + 1) / (n - kk - 1) if n > kk + 1 else math.inf)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, np.inf)) if cov is not None and np.all(np.isfinite(cov)) else np.full(3, np.nan)

    # Profile interval for a: SSE(a) <= SSE_min (1 + F(level; 1, n - k) / (n - k)).
    limit = sse * (1.0 + f_dist.ppf(level, 1, n - k) / (n - k))
    step = se[0] if np.isfinite(se[0]) and se[0] > 0 else max(abs(p[0]), 1e-3) * 1e-2

    def excess(a):
        r = _least_squares(model, N, V, starts=[p, *_starts(model, N, V)], fixed_a=a)
        return (r[0] if r is not None else math.inf) - limit

    interval = (_profile_end(excess, p[0], -step), _profile_end(excess, p[0], step))

    boot = (math.nan, math.nan)
    failures = 0
    if bootstrap:
        rng = np.random.default_rng(random_state)
        fitted = V - resid
        est = []
        for _ in range(bootstrap):
            Vb = fitted + rng.choice(resid, size=n, replace=True)
            r = _least_squares(model, N, Vb, starts=[p])
            if tick is not None:
                tick()
            if r is None:
                failures += 1
            else:
                est.append(r[1][0])
        if failures > 0.05 * bootstrap:
            warnings.warn(f"{failures} of {bootstrap} bootstrap refits of the {model} model failed",
                          RuntimeWarning, stacklevel=2)
        if est:
            q = (1.0 - level) / 2.0
            boot = (float(np.quantile(est, q)), float(np.quantile(est, 1.0 - q)))
    return CurveFit(
        model=model, formula=formula, a=float(p[0]), b=float(p[1]), c=float(p[2]),
        stderr=dict(zip(PARAMS, (float(s) for s in se))), r2=float(r2), rmse=math.sqrt(sse / n),
        aicc=float(aicc), residuals=resid, asymptote_interval=tuple(float(v) for v in interval),
        bootstrap_interval=boot, bootstrap_failures=failures, level=level, sizes=N, values=V,
    )


def _profile_end(excess, a0: float, step: float, max_doublings: int = 60) -> float:
    """Where ``excess(a)`` crosses 0 going from ``a0`` in the direction of ``step``."""
    from scipy.optimize import brentq

    inner, outer = a0, a0 + step
    for _ in range(max_doublings):
        if excess(outer) > 0:
            return float(brentq(excess, inner, outer, xtol=1e-12 * max(1.0, abs(a0)), rtol=1e-12))
        inner, outer = outer, a0 + 2.0 * (outer - a0)
    return math.inf if step > 0 else -math.inf


def fit_rational(sizes, values, level: float = 0.95, bootstrap: int = 1000, random_state=0) -> CurveFit:
    """The paper's rational fit ``V(N) = a - b / (N - c)`` (§5, Figure 3).

    See :func:`fit_model`; returns ``a, b, c, r2``, the standard errors, the
    residuals and the asymptote's profile and bootstrap intervals.
    """
    return fit_model(sizes, values, "rational", level=level, bootstrap=bootstrap, random_state=random_state)


def compare_models(sizes, values, models=tuple(MODELS), level: float = 0.95, bootstrap: int = 1000,
                   random_state=0, tick=None) -> list[CurveFit]:
    """Fit several models to the same data; sorted by AICc (best first)."""
    fits = [fit_model(sizes, values, m, level=level, bootstrap=bootstrap, random_state=random_state, tick=tick)
            for m in models]
    return sorted(fits, key=lambda f: f.aicc)


def fits_table(fits: list[CurveFit], **columns):
    """A DataFrame of :meth:`CurveFit.summary` rows with ΔAICc and Akaike weights.

    ``columns`` are constant columns put first (e.g. ``dataset="paper"``).
    """
    import pandas as pd

    df = pd.DataFrame([{**columns, **f.summary()} for f in fits])
    d = df["aicc"] - df["aicc"].min()
    df.insert(df.columns.get_loc("aicc") + 1, "delta_aicc", d)
    w = np.exp(-0.5 * d)
    df.insert(df.columns.get_loc("delta_aicc") + 1, "akaike_weight", w / w.sum())
    return df


# ---------------------------------------------------------------------------
# Figure 3 and results/fit.csv
# ---------------------------------------------------------------------------
CHECK_SIZES = (200, 1000, 100_000)
TAIL_N = 100


def value_curve_datasets(table1=None, large_n=None) -> dict:
    """The V(N) data sets to fit, as ``{name: (sizes, values, source)}``.

    ``"paper"``: the paper's Table 1, N = 2..15 (fictitious play, mesh 101).
    ``"mesh101"``: the computed Table 1 (exact LP values at its mesh), N = 2..15.
    ``"continuous"``: refined values of :mod:`guts.games.guts.large_n` (thresholds in [0, 1]), N = 2..15.
    ``"continuous-all"``: the same for every computed N >= 2 (up to 10^5).
    ``"continuous-tail"``: the same for N >= 100 only, where the 1/N expansion holds:
    the estimate of the asymptote from direct values.
    ``table1`` and ``large_n`` are CSV paths or DataFrames; missing ones are skipped.
    """
    import pandas as pd

    from guts.studies.table1 import paper_table1
    from guts.studies.table_trust import read_results_csv

    def load(src):
        if src is None:
            return None
        if isinstance(src, pd.DataFrame):
            return src
        p = Path(src)
        if not p.exists():
            return None
        return read_results_csv(p, "input")  # a regular file, bounded, before pandas parses it

    out = {}
    paper = paper_table1().query("N >= 2 and N <= 15")
    out["paper"] = (paper["N"].to_numpy(), paper["opponent_value"].to_numpy(), "guts/data/paper_table1.csv")
    t1 = load(table1)
    if t1 is not None:
        if not {"N", "opponent_value"} <= set(t1.columns):
            raise GutsInputError(f"{table1!s} has no N and opponent_value columns (is it a guts table1 CSV?)")
        t1 = t1.query("N >= 2 and N <= 15")
        if len(t1) >= 5:
            mesh = sorted(set(t1["mesh"])) if "mesh" in t1.columns else ["?"]
            out["mesh101" if mesh == [101] else f"mesh{mesh[0]}"] = (
                t1["N"].to_numpy(), t1["opponent_value"].to_numpy(), str(table1))
    ln = load(large_n)
    if ln is not None:
        if not {"N", "value"} <= set(ln.columns):
            raise GutsInputError(f"{large_n!s} has no N and value columns (is it a guts curve CSV?)")
        small = ln.query("N >= 2 and N <= 15")
        if len(small) >= 5:
            out["continuous"] = (small["N"].to_numpy(), small["value"].to_numpy(), str(large_n))
        allv = ln.query("N >= 2")
        if len(allv) > len(small) and len(allv) >= 5:
            out["continuous-all"] = (allv["N"].to_numpy(), allv["value"].to_numpy(), str(large_n))
        tail = ln.query(f"N >= {TAIL_N}")
        if len(tail) >= 5:
            out["continuous-tail"] = (tail["N"].to_numpy(), tail["value"].to_numpy(), str(large_n))
    return out


FULL_RUN = {"bootstrap": 1000, "level": 0.95, "random_state": 0, "table1": "full", "large_n": "full"}
"""The full default run (``guts fit``): the committed fit.csv, from the full table1.csv and large_n.csv."""


def _sha256(path) -> str:
    """SHA-256 of an input file (``""`` for a DataFrame or a missing file)."""
    import hashlib

    if not isinstance(path, (str, Path)) or not Path(path).is_file():
        return ""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _input_status(path, given: bool, what: str, allow_partial: bool, notes: list, recertify: bool = False) -> str:
    """Check one input of :func:`run_fit`; return ``"full"``, ``"partial"``, ``"unknown"`` or ``"missing"``.

    With ``recertify`` (a Table 1 CSV), a file that no complete, verified set holds is used
    only when its own strategies certify every value of its rows N = 2..15
    (:func:`_recertify_table1`).
    """
    from guts.studies.output import artefact_status, check_full, set_status
    from guts.studies.table_trust import check_regular_file

    if isinstance(path, str) or isinstance(path, Path):
        if Path(path).exists():
            check_regular_file(path, what)  # before any hashing: /dev/zero or a FIFO never ends
        status = artefact_status(path)
        if status == "missing" and not given:
            notes.append(f"{what} {str(path)!r} not found: its fits are skipped (partial fit)")
            return status
        check_full(path, what, strict=not allow_partial, warn=notes.append)  # missing/unreadable: error
        if recertify and not set_status(path).ok:
            _recertify_table1(path, what)
            notes.append(f"{what} {str(path)!r} is in no complete, verified set: its rows N = 2..15 were "
                         "re-certified from their own strategies")
        if status == "unknown":
            notes.append(f"{what} {str(path)!r} has no meta file: cannot tell whether it is a full run")
        return status
    return "unknown"  # a DataFrame


def _recertify_table1(path, what: str) -> None:
    """Re-certify every row N = 2..15 of the Table 1 CSV ``path`` from its own strategies.

    Raises :class:`GutsInputError` (one line naming the row and column) when a value is not
    in the interval the row's strategies certify (Theorem 1.2 of Buck et al., 2022).
    """
    import pandas as pd

    from guts.studies.bot import strategy_from_row
    from guts.studies.table_trust import read_results_csv

    df = read_results_csv(path, what)
    if "N" not in df.columns:
        raise GutsInputError(f"{what} {str(path)!r} has no N column (is it a guts table1 CSV?)")
    sizes = pd.to_numeric(df["N"], errors="coerce")
    if sizes.isna().any():
        raise GutsInputError(f"{what} {str(path)!r}: column N holds {df['N'][sizes.isna()].iloc[0]!r}; accepted: "
                             "integers (a guts table1 CSV)")
    for n in sorted({int(n) for n in sizes if 2 <= n <= 15}):
        strategy_from_row(df.assign(N=sizes), n, path)


def run_fit(out=AUTO, table1=None, large_n=None, bootstrap: int = 1000, level: float = 0.95,
            random_state=0, echo=None, progress: bool = False, allow_partial: bool = False):
    """Fit every data set with every model; write ``fit.csv`` and ``fig3_fit.png``.

    Parameters
    ----------
    out : AUTO, path or None
        Output folder (see :func:`guts.studies.output.plan_output`; ``None``: write
        nothing).  ``table1`` and ``large_n`` default to ``results/table1.csv`` and
        ``results/large_n.csv`` (``<out>/...`` for an explicit ``out``).
    table1, large_n : path or DataFrame, optional
        Inputs.  A named file that is missing or unreadable is an error; a default one
        that is missing is skipped (the fit is then partial).  An input whose meta file
        says it is a partial run is refused unless ``allow_partial`` (then a warning).
    bootstrap, level, random_state
        See :func:`fit_model`.
    echo : callable, optional
        Receives the text summary (and notes on the inputs).
    progress : bool
        A tqdm bar over the fits and bootstrap refits (with a time estimate).

    Returns
    -------
    (pandas.DataFrame, dict)
        The fit table (one row per data set and model, with predictions and, where
        a directly computed value exists, the prediction error at N = 200, 1000,
        100000) and ``{dataset: [CurveFit, ...]}``.
    """
    import pandas as pd
    from guts.engine.progress import progress_bar

    from guts.studies.output import RESULTS, plan_output, publish, save_figure, write_csv, write_meta

    bootstrap = check_int("bootstrap", bootstrap, 0)
    auto = out is AUTO
    base = RESULTS if auto or out is None else Path(out)
    given = {"table1": table1 is not None, "large_n": large_n is not None}
    table1 = base / "table1.csv" if table1 is None else table1
    large_n = base / "large_n.csv" if large_n is None else large_n
    notes: list[str] = []
    status = {"table1": _input_status(table1, given["table1"], "--table1", allow_partial, notes, recertify=True),
              "large_n": _input_status(large_n, given["large_n"], "--large-n", allow_partial, notes)}
    if echo is not None:
        for n in notes:
            echo(f"warning: {n}")
    params = {"bootstrap": bootstrap, "level": level, "random_state": random_state, **status}
    plan = plan_output("fit", out, params, FULL_RUN, targets=["fit.csv", "fig3_fit.png"], echo=echo)
    out_dir = plan.folder
    data = value_curve_datasets(None if status["table1"] == "missing" else table1,
                                None if status["large_n"] == "missing" else large_n)
    direct = {}
    if "continuous-all" in data:
        N_all, V_all, _ = data["continuous-all"]
        direct = {int(n): float(v) for n, v in zip(N_all, V_all)}
    tables, fits = [], {}
    bar = progress_bar(total=len(data) * len(MODELS) * max(bootstrap, 1), desc="fit" + (" + bootstrap" if bootstrap else ""),
                       enabled=progress, unit="fit")
    try:
        for name, (N, V, source) in data.items():
            fl = compare_models(N, V, level=level, bootstrap=bootstrap, random_state=random_state,
                                tick=bar.update if bootstrap else None)
            if not bootstrap:
                bar.update(len(fl))
            fits[name] = fl
            df = fits_table(fl, dataset=name, source=source)
            for n in CHECK_SIZES:
                df[f"pred_N{n}"] = [float(f.predict(n)) for f in fl]
                df[f"error_N{n}"] = [float(f.predict(n)) - direct[n] if n in direct else math.nan for f in fl]
            tables.append(df)
    finally:
        bar.close()
    table = pd.concat(tables, ignore_index=True)
    if echo is not None:
        echo(format_fits(table, direct))
    if out_dir is not None:
        target = out_dir / "fit.csv"
        with publish(plan, parameters=params):
            write_csv(table, target, float_format="%.12g")
            write_meta(target, {"datasets": {k: v[2] for k, v in data.items()}, "models": list(MODELS),
                                "bootstrap": bootstrap, "level": level, "random_state": random_state,
                                "check_sizes": list(CHECK_SIZES), "inputs": status,
                                # the fits of the near-exact tail move with the inputs' last digits: a
                                # fit.csv is only reproducible against the very files it was fitted to
                                "input_sha256": {"table1": _sha256(table1), "large_n": _sha256(large_n)}},
                       plan=plan)
            import matplotlib.pyplot as plt

            fig = plot_value_curve(fits, data)
            try:
                save_figure(fig, out_dir / "fig3_fit.png", dpi=130, bbox_inches="tight")
            finally:
                plt.close(fig)
        if echo is not None:
            echo(f"wrote {target}, {out_dir / 'fig3_fit.png'}")
    return table, fits


def format_fits(table, direct: dict | None = None) -> str:
    """Text summary of :func:`run_fit`'s table: parameters, r², ΔAICc, the asymptote's intervals."""
    direct = direct or {}
    head = (f"{'dataset':<15} {'model':<18} {'a':>8} {'b':>8} {'c':>8} {'r2':>9} {'dAICc':>6} "
            f"{'profile CI for a':>19} {'bootstrap CI':>19}")
    lines = [head, "-" * len(head)]
    for _, r in table.iterrows():
        lines.append(
            f"{r.dataset:<15} {r.model:<18} {r.a:>8.5f} {r.b:>8.4f} {r.c:>8.4f} {r.r2:>9.6f} {r.delta_aicc:>6.1f} "
            f"  [{r.asymptote_low:.5f}, {r.asymptote_high:.5f}] " + (
                f"[{r.bootstrap_low:.5f}, {r.bootstrap_high:.5f}]" if np.isfinite(r.bootstrap_low)
                else "(no bootstrap)".rjust(18)))
    if direct:
        lines.append("")
        lines.append("directly computed (continuous thresholds): "
                     + ", ".join(f"V({n}) = {direct[n]:.6f}" for n in CHECK_SIZES if n in direct))
        for name in ("continuous-tail", "continuous-all"):
            sub = table[table.dataset == name]
            if len(sub):
                r = sub.sort_values("aicc").iloc[0]
                lines.append(f"asymptote from the direct values ({name}, best model {r.model}): {r.a:.5f} "
                             f"[{r.asymptote_low:.5f}, {r.asymptote_high:.5f}]")
                break
        for name in ("paper", "continuous"):
            row = table[(table.dataset == name) & (table.model == "rational")]
            if len(row):
                r = row.iloc[0]
                lines.append(f"rational fit of {name} (N = 2..15) predicts "
                             + ", ".join(f"V({n}) = {r[f'pred_N{n}']:.6f} ({r[f'error_N{n}']:+.4f})"
                                         for n in CHECK_SIZES if n in direct)
                             + f"; asymptote {r.a:.4f}")
    return "\n".join(lines)


def plot_value_curve(fits: dict, data: dict):
    """Figure 3 and beyond: data, fits, asymptotes, residuals and the large-N values."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    ax, axr, axl, axi = axes.ravel()
    styles = {"paper": ("o", "C0", "paper Table 1 (FP, mesh 101)"),
              "mesh101": ("s", "C1", "exact LP, mesh 101"),
              "continuous": ("D", "C2", "exact, thresholds in [0, 1]")}
    model_ls = {"rational": "-", "inverse-quadratic": "--", "power": ":"}
    Ns = np.linspace(2, 15, 300)
    for name, (mk, col, label) in styles.items():
        if name not in data:
            continue
        N, V, _ = data[name]
        ax.plot(N, V, mk, color=col, ms=5, mfc="none" if name != "paper" else col, label=label)
        rat = next(f for f in fits[name] if f.model == "rational")
        ax.plot(Ns, rat.predict(Ns), "-", color=col, lw=1,
                label=f"{rat.a:.4f} - {rat.b:.3f}/(N {'+' if rat.c < 0 else '-'} {abs(rat.c):.2f}), r² = {rat.r2:.5f}")
        axr.plot(N, rat.residuals * 1e3, mk + "-", color=col, ms=4, lw=0.8, label=f"{label}: rational")
    if "paper" in fits:
        rat = next(f for f in fits["paper"] if f.model == "rational")
        lo, hi = rat.asymptote_interval
        ax.axhline(rat.a, color="C0", ls="--", lw=0.8)
        ax.axhspan(lo, hi, color="C0", alpha=0.08, label=f"paper-data asymptote {rat.a:.3f} [{lo:.3f}, {hi:.3f}]")
    ax.set(xlabel="coalition size N", ylabel="coalition value V(N)", title="Figure 3: rational fit, N = 2..15")
    ax.legend(fontsize=7, loc="lower right")
    for name in ("continuous", "paper"):
        if name in fits:
            for f in fits[name]:
                if f.model != "rational":
                    axr.plot(f.sizes, f.residuals * 1e3, model_ls[f.model], color=styles[name][1], lw=0.8,
                             label=f"{name}: {f.model}")
            break
    axr.axhline(0, color="k", lw=0.5)
    axr.set(xlabel="N", ylabel="residual (10⁻³)", title="residuals of the fits")
    axr.legend(fontsize=7)

    # Large N: log axis, direct values against the fits' extrapolations.
    Nl = np.logspace(np.log10(2), 5, 400)
    if "continuous-all" in data:
        N, V, _ = data["continuous-all"]
        for a_ in (axl, axi):
            a_.plot(N if a_ is axl else 1.0 / N, V, "D", color="k", ms=3.5, mfc="none",
                    label="computed, thresholds in [0, 1]")
    for name, col in (("paper", "C0"), ("continuous", "C2")):
        if name not in fits:
            continue
        for f in fits[name]:
            axl.plot(Nl, f.predict(Nl), model_ls[f.model], color=col, lw=1,
                     label=f"{name} N≤15, {f.model}: a = {f.a:.4f}")
    asym = "continuous-tail" if "continuous-tail" in fits else "continuous-all"
    if asym in fits:
        best = fits[asym][0]
        what = f"N ≥ {TAIL_N}" if asym == "continuous-tail" else "all N"
        axl.axhline(best.a, color="k", ls="-.", lw=0.8, label=f"direct values {what}, {best.model}: a = {best.a:.5f}")
        axi.axhline(best.a, color="k", ls="-.", lw=0.8, label=f"direct values {what}, {best.model}: a = {best.a:.5f}")
        x = np.linspace(1e-9, 1.0 / best.sizes.min(), 300)  # the fit over its own range of N
        axi.plot(x, best.predict(1.0 / x), "-", color="k", lw=0.8)
    if "paper" in fits:
        rat = next(f for f in fits["paper"] if f.model == "rational")
        x = np.linspace(1e-9, 0.5, 400)
        axi.plot(x, rat.predict(1.0 / x), "-", color="C0", lw=1,
                 label=f"paper-data rational fit (N ≤ 15), a = {rat.a:.4f}")
    axl.set(xscale="log", xlabel="N (log scale)", ylabel="V(N)", ylim=(0.0, 0.2),
            title="extrapolation vs direct values up to N = 10⁵")
    axl.legend(fontsize=6.5, loc="lower right")
    axi.set(xlabel="1/N", ylabel="V(N)", xlim=(0, 0.1), ylim=(0.095, 0.17),
            title="V against 1/N (N ≥ 10): the asymptote is the intercept")
    axi.legend(fontsize=7)
    fig.tight_layout()
    return fig
