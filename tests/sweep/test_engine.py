"""Running sweeps: serial and Dask paths agree, the cache is used, failing points are rows."""

import csv
import json
import logging
import os

import pytest

from shufflekit.sweep import load_spec, parse_spec, run_sweep
from shufflekit.sweep.output import columns_for

GRID = {
    "mechanism": "krr",
    "k": [2, 3],
    "eps0": 1.0,
    "n": [50, 200],
    "method": "blanket",
    "delta": 1e-6,
}
#: a point inside the documented ranges that fails when computed (k-RR is built up to k = 1e5)
BAD = {"mechanism": "krr", "k": 200_000, "eps0": 1.0, "n": 50, "method": "blanket", "delta": 1e-6}


def spec(*grids):
    return parse_spec({"grid": list(grids)})


def values(rows):
    return {r["index"]: (r["status"], r.get("epsilon"), r.get("hi")) for r in rows}


def test_serial_rows_match_direct_accountant_calls(tmp_path):
    from shufflekit.mechanisms import make
    from shufflekit.numeric.accountant import accountant

    summary, rows = run_sweep(
        spec(GRID), str(tmp_path / "o.csv"), workers=1, use_cache=False, progress=False
    )
    assert summary.total == summary.computed == 4 and summary.errors == 0
    for r in rows:
        b = accountant(make("krr", k=r["k"], eps0=1.0), r["n"], method="blanket").get_epsilon(1e-6)
        assert (r["epsilon"], r["lo"], r["hi"], r["bound"]) == (b.value, b.lo, b.hi, str(b.kind))


def test_cache_hit_path(tmp_path):
    cache = tmp_path / "cache"
    first, rows1 = run_sweep(
        spec(GRID), str(tmp_path / "a.csv"), workers=1, cache_dir=cache, progress=False
    )
    second, rows2 = run_sweep(
        spec(GRID), str(tmp_path / "b.csv"), workers=1, cache_dir=cache, progress=False
    )
    assert (first.cached, first.computed) == (0, 4)
    assert (second.cached, second.computed) == (4, 0)
    assert values(rows1) == values(rows2)
    assert all(r["cached"] for r in rows2)
    # a changed point (new n) is the only one recomputed
    third, _ = run_sweep(
        spec({**GRID, "n": [50, 201]}), None, workers=1, cache_dir=cache, progress=False
    )
    assert (third.cached, third.computed) == (2, 2)
    # --no-cache recomputes everything
    fourth, _ = run_sweep(
        spec(GRID),
        str(tmp_path / "c.csv"),
        workers=1,
        cache_dir=cache,
        use_cache=False,
        progress=False,
    )
    assert fourth.computed == 4


def test_erroring_point_is_a_row_and_is_not_cached(tmp_path):
    cache = tmp_path / "cache"
    summary, rows = run_sweep(
        spec(GRID, BAD), str(tmp_path / "o.jsonl"), workers=1, cache_dir=cache, progress=False
    )
    assert summary.total == 5 and summary.errors == 1
    bad = [r for r in rows if r["status"] == "error"]
    assert len(bad) == 1 and "k=200000" in bad[0]["message"]
    lines = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert len(lines) == 5 and sum(x["status"] == "error" for x in lines) == 1
    again, _ = run_sweep(spec(GRID, BAD), None, workers=1, cache_dir=cache, progress=False)
    assert (again.cached, again.computed) == (4, 1)


def test_csv_schema(tmp_path):
    out = tmp_path / "o.csv"
    run_sweep(spec(GRID, BAD), str(out), workers=1, use_cache=False, progress=False)
    with open(out) as fh:
        reader = csv.DictReader(fh)
        rows = list(reader)
    assert reader.fieldnames == columns_for(["eps0", "k"])
    assert reader.fieldnames[:4] == ["mechanism", "eps0", "k", "index"]
    for name in ("epsilon", "delta", "bound", "lo", "hi", "error", "seconds", "version", "key"):
        assert name in reader.fieldnames
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) == 4 and all(float(r["lo"]) <= float(r["epsilon"]) <= float(r["hi"]) for r in ok)
    assert all(r["bound"] == "upper" for r in ok)


@pytest.mark.slow
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="a local cluster has one worker per core")
def test_local_cluster_with_two_workers_matches_serial(tmp_path):
    _, serial = run_sweep(spec(GRID, BAD), None, workers=1, use_cache=False, progress=False)
    summary, dask_rows = run_sweep(
        spec(GRID, BAD), str(tmp_path / "o.json"), workers=2, use_cache=False, progress=False
    )
    assert summary.workers == 2 and summary.errors == 1
    assert 0.0 < summary.startup and 0.0 <= summary.teardown
    assert summary.startup + summary.teardown < summary.seconds
    assert values(dask_rows) == values(serial)
    assert len(json.loads((tmp_path / "o.json").read_text())) == 5


@pytest.mark.slow
def test_scheduler_address_path(tmp_path):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        host="127.0.0.1",
    ) as cluster:
        summary, rows = run_sweep(
            spec(GRID), None, scheduler=cluster.scheduler_address, use_cache=False, progress=False
        )
    assert summary.scheduler.startswith("tcp://127.0.0.1") and summary.computed == 4
    _, serial = run_sweep(spec(GRID), None, workers=1, use_cache=False, progress=False)
    assert values(rows) == values(serial)


def test_unreachable_scheduler_is_bad_input(monkeypatch):
    import shufflekit.sweep.engine as engine
    from shufflekit.errors import InvalidParameter

    monkeypatch.setattr(engine, "CONNECT_TIMEOUT", "1s")  # the default 10 s, shortened
    with pytest.raises(InvalidParameter, match="scheduler="):
        run_sweep(spec(GRID), None, scheduler="tcp://127.0.0.1:9", use_cache=False, progress=False)


def test_example_figure_spec_is_the_notebook_grid():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "sweeps" / "figure2.toml"
    s = load_spec(path)
    mechs = {(t.mechanism, dict(t.params)["k"], dict(t.params)["eps0"]) for t in s.tasks}
    assert mechs == {("krr", 10, 1.0), ("krr", 10, 4.0), ("blh", 4, 1.0), ("blh", 4, 4.0)}
    assert {t.n for t in s.tasks} == {10_000}


def test_parquet_output(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")  # Parquet is the optional extra [parquet]
    out = tmp_path / "o.parquet"
    run_sweep(spec(GRID, BAD), str(out), workers=1, use_cache=False, progress=False)
    table = pq.read_table(out)
    assert table.num_rows == 5 and table.column_names == columns_for(["eps0", "k"])


def test_serial_path_holds_blas_pools_to_one_thread(tmp_path, monkeypatch):
    """--workers 1 must use one core, as each Dask worker does (fair 1 vs 2 comparison)."""
    from threadpoolctl import threadpool_info

    import shufflekit.sweep.engine as engine

    seen = []
    real = engine.compute

    def spy(task, index=None):
        seen.append([p["num_threads"] for p in threadpool_info()])
        return real(task, index)

    monkeypatch.setattr(engine, "compute", spy)
    summary, _ = run_sweep(spec(GRID), None, workers=1, use_cache=False, progress=False)
    assert len(seen) == 4 and all(n == 1 for pools in seen for n in pools)
    assert (summary.startup, summary.teardown) == (0.0, 0.0)


def test_warm_up_fills_the_method_registry():
    from shufflekit.numeric.accountant import methods
    from shufflekit.sweep.task import warm_up
    from shufflekit.sweep.worker_setup import WarmUp

    WarmUp().setup(worker=None)
    warm_up()
    assert "blanket-fft" in {m.name for m in methods()}


WORKER_ENVIRONMENT = """
import json, logging, os
import dask
from distributed import Client, LocalCluster
from shufflekit.sweep.engine import LOCAL_CLUSTER_CONFIG

def probe():
    import os
    from threadpoolctl import threadpool_info
    threads = sorted({p["num_threads"] for p in threadpool_info()})
    return os.environ.get("MALLOC_TRIM_THRESHOLD_"), threads

if __name__ == "__main__":
    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
    with cluster, Client(cluster) as client:
        print(json.dumps(list(client.run(probe).values())))
"""


@pytest.mark.slow
def test_local_cluster_workers_run_like_the_serial_path(tmp_path):
    """One BLAS thread per worker, and glibc's adaptive malloc (no fixed trim threshold).

    Run in a fresh interpreter: a cluster started earlier in this process with Dask's defaults
    leaves ``MALLOC_TRIM_THRESHOLD_`` in the environment every later worker inherits."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "probe.py"
    script.write_text(WORKER_ENVIRONMENT)
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    out = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(seen) == 2
    assert all(trim is None and threads in ([1], []) for trim, threads in seen)
