"""Every study sweep through ``run_sweep``: the rows of a Dask cluster, of local processes and
of the sequential run are the same, in the same order, and a sweep resumes from its cache."""
import subprocess
import sys

import pandas as pd
import pytest

from guts import GutsInputError
from guts.studies import continuous_poker, full_vs_pseudo_bloc, teams

TIMING = ("seconds", "seconds_full", "seconds_pseudo_bloc")


def _rows(df):
    return df.drop(columns=[c for c in TIMING if c in df.columns])


def test_full_vs_pseudo_bloc_on_a_local_cluster_gives_the_sequential_rows():
    distributed = pytest.importorskip("distributed")
    cases = [(2, 21), (3, 21), (4, 11)]   # (N, mesh)
    seq = full_vs_pseudo_bloc.run(cases, out=None, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        got = full_vs_pseudo_bloc.run(cases, out=None, progress=False, backend="dask",
                                      scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(_rows(got), _rows(seq))
    assert [(r.N, r.mesh) for r in got.itertuples()] == cases       # input order
    # the full coalition space contains every pseudo-bloc profile: it forces at least as much
    assert (got["difference"] >= -1e-9).all()


def test_lp_scan_resumes_from_its_cache_on_a_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    kw = dict(limits=((0.5, 1.0), (1.0, 1.0)), meshes=(8, 16), sizes=(3,), max_work=10_000, out=None,
              progress=False, cache=tmp_path / "cache")
    first, _ = continuous_poker.run_lp_convergence(**kw)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        again, _ = continuous_poker.run_lp_convergence(**kw, backend="dask", scheduler=cluster.scheduler_address)
    # the same rows, timings included: every point came back from the cache, none was re-solved
    pd.testing.assert_frame_equal(again, first)
    assert list(zip(first.L, first.M)) == [(0.5, 8), (0.5, 16), (1.0, 8), (1.0, 16)]
    # the LP value approaches the closed form (Spears 2025) as the mesh is refined
    err = first.set_index(["L", "M"])["error"].abs()
    assert err[(0.5, 16)] < err[(0.5, 8)] and (err < 1e-2).all()


def test_teams_local_processes_give_the_sequential_rows():
    cases = [(1, 1, 11, "full"), (2, 2, 11, "full")]
    seq = teams.run(cases, out=None, progress=False)
    par = teams.run(cases, out=None, progress=False, jobs=2)
    pd.testing.assert_frame_equal(_rows(par), _rows(seq))
    # 2 v. 2 is symmetric: value 0 (Buck et al. 2022, §1.2)
    assert abs(seq.iloc[1]["team1_value"]) < 1e-6


@pytest.mark.parametrize("kwargs, match", [(dict(backend="dask"), "scheduler address"),
                                           (dict(scheduler="tcp://127.0.0.1:8786"), "only used with backend")])
def test_bad_backend_refused_before_any_work(tmp_path, kwargs, match):
    with pytest.raises(GutsInputError, match=match):
        teams.run([(1, 1, 11, "full")], out=tmp_path / "o", progress=False, **kwargs)
    assert not (tmp_path / "o").exists()


def test_cli_sweep_options():
    p = subprocess.run([sys.executable, "-m", "guts", "mercer", "study", "sizes", "--jobs", "2", "--out", "/nonexistent"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "not a sweep" in p.stderr and "Traceback" not in p.stderr


def test_mercer_beyond_on_a_local_cluster_gives_the_sequential_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    from guts.studies.mercer import BEYOND, run_beyond

    cases = BEYOND[:2]      # 2P-SMH as in the thesis, and with a free check
    seq = run_beyond(out=tmp_path / "seq", cases=cases, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        got = run_beyond(out=tmp_path / "dask", cases=cases, progress=False, backend="dask",
                         scheduler=cluster.scheduler_address, cache="default")
    per_run = ["solve_seconds", "build_seconds", "peak_rss_mb"]
    pd.testing.assert_frame_equal(got.drop(columns=per_run), seq.drop(columns=per_run))
    assert list(got.note) == [label for label, *_ in cases]
    assert (tmp_path / "dask" / ".cache").is_dir()      # cache="default": <out>/.cache
    # zero-sum certificate brackets the value; a free check guarantees the showdown equity: value 0
    assert (got.value_lower <= got.value_upper + 1e-12).all()
    assert abs(got.value_0.iloc[1]) < 1e-9
