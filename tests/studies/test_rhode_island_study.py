"""The Rhode Island study on a small deck: its bracket holds the full game's LP value, and a
second call resumes the first's checkpoint (more iterations, a bracket at least as good at
the checks' schedule)."""
from dataclasses import replace

import pandas as pd

from guts.engine.extensive import solve_lp
from guts.engine.tolerances import CERTIFICATE_TOL
from guts.games.poker import build_poker, read_poker
from guts.studies import rhode_island as study


def small():
    spec = replace(read_poker("rhode_island"), ranks=3, suits=2)
    return replace(spec, rounds=tuple(replace(r, max_raises=1) for r in spec.rounds))


def test_study_brackets_the_lp_value_and_resumes(tmp_path):
    lp = solve_lp(build_poker(small()))
    ck = tmp_path / "ri.ckpt"
    first = study.run(out=tmp_path / "a", time_limit=1.0, checkpoint=ck, progress=False, spec=small()).iloc[0]
    assert first.lower - CERTIFICATE_TOL <= lp.value <= first.upper + CERTIFICATE_TOL
    second = study.run(out=tmp_path / "b", time_limit=1.0, checkpoint=ck, progress=False, spec=small()).iloc[0]
    assert second.iterations > first.iterations
    assert second.lower - CERTIFICATE_TOL <= lp.value <= second.upper + CERTIFICATE_TOL
    hist = pd.read_csv(tmp_path / "b" / "rhode_island_history.csv")
    assert hist.iteration.is_monotonic_increasing and hist.iteration.iloc[-1] == second.iterations
    assert (tmp_path / "b" / "rhode_island.meta.json").exists()
