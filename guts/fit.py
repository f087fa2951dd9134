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
(:mod:`guts.largen`).

Examples
--------
>>> from guts.fit import fit_rational
>>> from guts.table1 import paper_table1
>>> t = paper_table1().query("N >= 2")
>>> f = fit_rational(t.N, t.opponent_value, bootstrap=0)
>>> round(f.a, 3), round(f.b, 2), round(f.c, 1), round(f.r2, 4)
(0.163, 0.84, -3.6, 0.9991)
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from ._validate import GutsInputError, check_choice, check_int

__all__ = ["MODELS", "CurveFit", "fit_model", "fit_rational", "compare_models", "fits_table"]


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
              random_state=0) -> CurveFit:
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
                   random_state=0) -> list[CurveFit]:
    """Fit several models to the same data; sorted by AICc (best first)."""
    fits = [fit_model(sizes, values, m, level=level, bootstrap=bootstrap, random_state=random_state)
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
