"""Fan-out: ordering, local processes, the Dask backend, and resuming from the cache."""
import math
from pathlib import Path

import pytest

from guts import GutsInputError
from guts.studies.sweep import parse_sizes, run_sweep, sweep_cache


def slow_square(x):
    """Out-of-order completion: larger inputs finish first."""
    import time

    time.sleep(0.02 * (5 - x % 5))
    return x * x


def logged_cube(item):
    """Append the item to a log file (to count real evaluations); fail on request."""
    x, log, fail_at = item
    if x == fail_at and not Path(log + ".failed").exists():
        Path(log + ".failed").write_text("")
        raise KeyboardInterrupt  # an interrupted sweep
    with open(log, "a") as fh:
        fh.write(f"{x}\n")
    return x**3


def test_results_in_input_order_local_processes():
    items = list(range(10))
    assert run_sweep(slow_square, items, jobs=2, progress=False) == [x * x for x in items]
    assert run_sweep(slow_square, items, jobs=2, backend="threading", progress=False) == [x * x for x in items]


def test_interrupted_sweep_resumes_from_cache(tmp_path):
    log = str(tmp_path / "calls.log")
    items = [(x, log, 4) for x in range(7)]
    with pytest.raises(KeyboardInterrupt):
        run_sweep(logged_cube, items, cache=tmp_path / "cache", progress=False)
    assert Path(log).read_text().split() == ["0", "1", "2", "3"]  # finished before the interruption
    out = run_sweep(logged_cube, items, cache=tmp_path / "cache", progress=False)
    assert out == [x**3 for x in range(7)]
    # only the unfinished points were evaluated the second time
    assert Path(log).read_text().split() == ["0", "1", "2", "3", "4", "5", "6"]
    assert run_sweep(logged_cube, items, cache=tmp_path / "cache", progress=False, jobs=2) == out
    assert len(Path(log).read_text().split()) == 7


def test_dask_backend_on_a_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        items = list(range(8))
        got = run_sweep(slow_square, items, backend="dask", scheduler=cluster.scheduler_address, progress=False)
        assert got == [x * x for x in items]
        log = str(tmp_path / "calls.log")
        cubes = [(x, log, -1) for x in range(5)]
        run_sweep(logged_cube, cubes[:3], backend="dask", scheduler=cluster.scheduler_address,
                  cache=tmp_path / "cache", progress=False)
        out = run_sweep(logged_cube, cubes, backend="dask", scheduler=cluster.scheduler_address,
                        cache=tmp_path / "cache", progress=False)
        assert out == [x**3 for x in range(5)]
        assert sorted(Path(log).read_text().split()) == ["0", "1", "2", "3", "4"]  # each point once


def test_table1_signature_still_works():
    assert run_sweep(math.sqrt, [4.0, 9.0], jobs=1, progress=False, desc="Table 1", backend=None) == [2.0, 3.0]


@pytest.mark.parametrize("kwargs, match", [
    (dict(jobs=0), "jobs"),
    (dict(jobs=1.5), "jobs"),
    (dict(backend="spark"), "backend"),
    (dict(backend="dask"), "scheduler address"),
    (dict(scheduler="tcp://127.0.0.1:8786"), "only used with backend 'dask'"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(GutsInputError, match=match):
        run_sweep(abs, [1], progress=False, **kwargs)


def test_cache_folder_must_be_a_folder(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(GutsInputError, match="not a folder"):
        sweep_cache(f)
    assert sweep_cache(None) is None


def test_parse_sizes():
    assert parse_sizes("1-3, 7,5") == [1, 2, 3, 5, 7]
    with pytest.raises(GutsInputError):
        parse_sizes("3-1")


def test_cache_entries_are_data_and_a_crafted_pickle_is_never_run(tmp_path):
    """The cache once held pickles, and a crafted file in the folder ran a shell command."""
    import pickle

    cache = tmp_path / "cache"
    log = str(tmp_path / "calls.log")
    items = [(x, log, -1) for x in range(3)]
    assert run_sweep(logged_cube, items, cache=cache, progress=False) == [0, 1, 8]
    entries = sorted(cache.iterdir())
    assert entries and all(p.suffix == ".json" for p in entries)

    class Boom:
        def __reduce__(self):
            return (Path(tmp_path / "pwned").write_text, ("ran",))

    for p in entries:  # replace every entry by a pickle that would write a file when loaded
        p.write_bytes(pickle.dumps(Boom()))
        (cache / (p.stem + ".pkl")).write_bytes(pickle.dumps(Boom()))
    assert run_sweep(logged_cube, items, cache=cache, progress=False) == [0, 1, 8]  # recomputed
    assert not (tmp_path / "pwned").exists()
    assert len(Path(log).read_text().split()) == 6


def test_sizes_refused_before_they_are_built():
    import time

    t0 = time.perf_counter()
    with pytest.raises(GutsInputError, match="above 100"):
        parse_sizes("1-1000000000", maximum=100)
    with pytest.raises(GutsInputError, match="more than"):
        parse_sizes("1-1000000000")
    assert time.perf_counter() - t0 < 1.0


def test_multiprocessing_backend_keeps_the_order():
    assert run_sweep(slow_square, list(range(4)), jobs=2, backend="multiprocessing", progress=False) == [0, 1, 4, 9]


def test_cache_keeps_rows_with_a_missing_figure(tmp_path):
    """A row with NaN (a paper figure the source does not print) is cached and read back as NaN."""
    import math

    from guts.studies.sweep import JsonCache

    cache = JsonCache(tmp_path)
    cache.put(abs, 3, {"value": 0.5, "paper": float("nan")})
    hit, row = cache.get(abs, 3)
    assert hit and row["value"] == 0.5 and math.isnan(row["paper"])
