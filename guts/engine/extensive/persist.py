"""Solution files read back (:func:`load_solution`, exported as ``guts.load_solution``) and
checked against the extensive-form game they are meant for.

The format and the writer are :mod:`guts.engine.persist` (``result.save(path)``).  A file
records the fingerprint of its game (:func:`.fingerprint.game_fingerprint`); read with
``game=``, a file of another game is refused, and the certificate is recomputed by the
best-response pass.
"""
from __future__ import annotations

import os

import numpy as np

from ...errors import GutsInputError
from ..persist import SOLUTION_FORMAT, decode_strategies, from_json, read_container
from ..result import Certificate, Solution
from ..tolerances import RELOAD_CERT_TOL
from .fingerprint import describe_fingerprint, game_fingerprint
from .result import ExtensiveResult

__all__ = ["load_solution", "check_solution", "confirm_certificate"]

#: The result class rebuilt as itself on loading (any other is read back as a
#: :class:`~guts.engine.result.Solution` with the protocol's fields).
_EXTENSIVE = "guts.engine.extensive.result.ExtensiveResult"


def load_solution(path, game=None, *, verify: bool = True):
    """A result saved by ``result.save(path)``, as the result class it was saved from.

    Parameters
    ----------
    path : str or Path
    game : optional
        The extensive-form game the solution is meant for: the file's game fingerprint
        must be this game's (else one ``GutsInputError`` line naming both), and, unless
        ``verify=False``, the certificate is recomputed (values and NashConv by the
        best-response pass, :func:`guts.engine.extensive.nash_conv`) and must agree with the
        file within :data:`guts.engine.tolerances.RELOAD_CERT_TOL` times the game's payoff
        scale.
    verify : bool
        Recompute the certificate when ``game`` is given.

    Returns
    -------
    Result
        An :class:`~guts.engine.extensive.result.ExtensiveResult` for an extensive-form
        solution, else a :class:`~guts.engine.result.Solution` with the protocol's fields.

    Raises
    ------
    GutsInputError
        Not a guts solution file, another format version, truncated or tampered, another
        game, or a certificate the game does not confirm.
    """
    meta, arrays = read_container(path, SOLUTION_FORMAT)
    name = os.fspath(path)
    try:
        strategies = decode_strategies(meta["strategies"], arrays)
        cls = meta["result"]["class"]
        proto = meta["protocol"]
        result = None
        if cls == _EXTENSIVE and not meta["result"].get("omitted"):
            kw = {"strategies": strategies}
            for k, v in meta["result"]["fields"].items():
                kw[k] = arrays[v["array"]] if "array" in v else from_json(v["json"])
            # the file's game and budget (recorded at saving) are the result's from now on
            kw["game_fingerprint"] = kw.get("game_fingerprint") or from_json(meta.get("game"))
            kw["budget"] = kw.get("budget") or from_json(meta.get("budget"))
            result = Solution.of(ExtensiveResult(**kw))
        if result is None:
            cert = Certificate(**from_json(proto["certificate"]))
            result = Solution(value=from_json(proto["value"]), values=from_json(proto["values"]),
                              strategies=strategies, certificate=cert, converged=bool(proto["converged"]),
                              num_iter=int(proto["num_iter"]), seconds=from_json(proto["seconds"]),
                              method=str(proto["method"]))
    except GutsInputError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise GutsInputError(f"{name!r} is a guts solution file whose content cannot be rebuilt "
                             f"({type(exc).__name__}: {str(exc)[:120]})") from None
    if game is not None:
        check_solution(result, meta, game, verify=verify, path=name)
    return result


def check_solution(result, meta, game, *, verify: bool = True, path: str = "solution") -> None:
    """Refuse a solution read from ``path`` that is not one of ``game``, or (``verify``)
    whose certificate ``game`` does not confirm (one ``GutsInputError`` line)."""
    from . import _kernels as K
    from ._interrupt import deferred_signals
    from .strategies import to_flat

    mine = game_fingerprint(game)
    theirs = meta.get("game")
    if theirs and (theirs.get("sha256") != mine["sha256"] or theirs.get("version") != mine["version"]):
        raise GutsInputError(f"{path!r} is a solution of {describe_fingerprint(theirs)}, not of this "
                             f"{describe_fingerprint(mine)}; accepted: a solution of this game (or no game=)")
    strategies = result.strategies
    if not (isinstance(strategies, tuple) and strategies and all(isinstance(s, dict) for s in strategies)):
        raise GutsInputError(f"{path!r} holds no per-information-set strategies; accepted with game=: an "
                             "extensive-form solution")
    try:
        flat = to_flat(game, strategies)
    except GutsInputError as exc:
        raise GutsInputError(f"{path!r} does not fit this game: {exc}") from None
    if not verify:
        return
    cg = game.compiled
    K.prepare(cg)
    with deferred_signals():
        ev, br, _ = K.values_and_br(cg, flat, keep=False)
    saved_nc = float(getattr(result, "nash_conv", result.certificate.nash_conv))
    confirm_certificate(result, game, float(np.sum(br - ev)), ev, saved_nash_conv=saved_nc, path=path)


def confirm_certificate(result, game, nash_conv: float, values, *, saved_nash_conv: float | None = None,
                        path: str = "solution", what: str = "this game") -> None:
    """Refuse ``result`` (read from ``path``) unless its recorded NashConv and values equal the
    recomputed ``nash_conv`` and ``values`` within :data:`~guts.engine.tolerances.RELOAD_CERT_TOL`
    times ``game``'s payoff scale (one ``GutsInputError`` line naming each difference and ``what``).

    ``saved_nash_conv`` defaults to the result's certificate's.
    """
    tol = RELOAD_CERT_TOL * max(1.0, float(game.compiled.payoff_scale))
    saved_nc = float(result.certificate.nash_conv if saved_nash_conv is None else saved_nash_conv)
    saved_values = np.atleast_1d(np.asarray(result.values, dtype=float))
    values = np.atleast_1d(np.asarray(values, dtype=float))
    nash_conv = float(nash_conv)
    bad = []
    if not abs(nash_conv - saved_nc) <= tol:
        bad.append(f"NashConv {saved_nc!r} in the file, {nash_conv!r} recomputed")
    if saved_values.shape != values.shape or not np.all(np.abs(saved_values - values) <= tol):
        bad.append(f"values {saved_values.tolist()} in the file, {values.tolist()} recomputed")
    if bad:
        raise GutsInputError(f"{path!r}: the certificate does not hold for {what} ({', '.join(bad)}, "
                             f"tolerance {tol:.3g} = RELOAD_CERT_TOL x payoff scale); accepted: a solution whose "
                             "certificate the game confirms (or verify=False)")
