"""The ``shufflekit sweep`` command: output file, summary line, bad input exits 2."""

import csv
import json

import pytest

from shufflekit.cli import main

SPEC = """
title = "tiny"
[[grid]]
mechanism = "krr"
k = [2, 3]
eps0 = 1.0
n = 100
method = "blanket"
delta = 1e-6
"""


def test_sweep_writes_csv_and_summary(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "o.csv"
    plot = tmp_path / "p.png"
    code = main(
        [
            "sweep",
            str(spec),
            "-o",
            str(out),
            "--workers",
            "1",
            "--cache-dir",
            str(tmp_path / "c"),
            "--plot",
            str(plot),
        ]
    )
    assert code == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2 and {r["k"] for r in rows} == {"2", "3"}
    assert plot.stat().st_size > 0
    assert "2 points (0 cached, 2 computed, 0 errors)" in capsys.readouterr().err
    assert main(["sweep", str(spec), "--dry-run", "--cache-dir", str(tmp_path / "c")]) == 0
    assert "2 points, 2 cached, 0 to compute" in capsys.readouterr().out


def test_json_is_standard_and_points_start_with_profiles_shape(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    assert (
        main(
            [
                "sweep",
                str(spec),
                "--workers",
                "1",
                "--cache-dir",
                str(tmp_path / "c"),
                "--format",
                "json",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out

    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    payload = json.loads(text, parse_constant=refuse)
    assert payload["summary"]["points"] == 2 and len(payload["points"]) == 2
    assert (
        main(
            [
                "profile",
                "krr",
                "--k",
                "2",
                "--eps0",
                "1",
                "--n",
                "100",
                "--delta",
                "1e-6",
                "--format",
                "json",
            ]
        )
        == 0
    )
    prof = json.loads(capsys.readouterr().out)["points"][0]
    for pt in payload["points"]:
        assert list(pt)[: len(prof)] == list(prof)
        assert pt["bound"] == "upper" and pt["status"] == "ok"
    assert [pt["k"] for pt in payload["points"]] == [2, 3]
    # the same bound as profile at the same point
    assert payload["points"][0]["epsilon"] == prof["epsilon"]


def test_table_format_to_file(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "t.txt"
    assert (
        main(
            [
                "sweep",
                str(spec),
                "--workers",
                "1",
                "--cache-dir",
                str(tmp_path / "c"),
                "--format",
                "table",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    lines = out.read_text().splitlines()
    assert lines[0].split()[:3] == ["mechanism", "eps0", "k"] and len(lines) == 4


@pytest.mark.parametrize(
    "args, name",
    [
        (["--workers", "0"], "workers=0"),
        (["--workers", "1e400"], "workers="),
        (["-o", "/nonexistent-dir/o.csv"], "output="),
        (["-o", "o.xlsx"], "output="),
        (["--format", "xlsx"], "--format"),
        (["--scheduler", "localhost"], "scheduler="),
        (["--cache-dir", "/nonexistent-dir/c"], "cache-dir="),
        (["--plot", "p.xyz"], "plot="),
        (["--plot", "/nonexistent-dir/p.png"], "plot="),
        (["--plot-x", "bogus"], "plot-x="),
    ],
)
def test_bad_input_exits_2(tmp_path, capsys, args, name):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    assert main(["sweep", str(spec), "--cache-dir", str(tmp_path / "c"), *args]) == 2
    err = capsys.readouterr().err
    assert name in err and "Traceback" not in err


def test_missing_spec_exits_2(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "none.toml")]) == 2
    assert "spec=" in capsys.readouterr().err


SLOW_SPEC = """
[[grid]]
mechanism = "krr"
k = 10
eps0 = [1.0, 8.0]
n = [1000, 10000]
method = "blanket-fft"
delta = {geomspace = [1e-6, 1e-12, 16]}
"""
# 64 points: after the first two rows there are always many left, however fast the machine
# finishes the cheap ones (with 16, a busy run once finished them all before the signal landed)
SLOW_POINTS = 64


@pytest.mark.slow
def test_ctrl_c_on_two_workers_keeps_finished_rows_and_exits_130(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a 2-worker
    sweep: exit 130, every finished row complete on disk, no worker left (the timeouts are
    safety nets for a loaded machine, not speed targets)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    spec = tmp_path / "s.toml"
    spec.write_text(SLOW_SPEC)
    out = tmp_path / "o.csv"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    cache = tmp_path / "cache"  # empty: every point is computed
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shufflekit.cli",
            "sweep",
            str(spec),
            "-o",
            str(out),
            "--workers",
            "2",
            "--cache-dir",
            str(cache),
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        # wait for the event (two finished points: each is in the cache as soon as it
        # finishes, while the file holds rows back until those before them are done), with a
        # cap generous enough for a loaded machine; the timeouts are safety nets, not
        # measurements
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list(cache.glob("*/*.json"))) >= 2:
                break
            time.sleep(0.1)
        assert proc.poll() is None, "the sweep finished before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    rows = list(csv.DictReader(out.open()))
    assert 2 <= len(rows) < SLOW_POINTS
    assert all(r["status"] == "ok" and r["epsilon"] and r["key"] for r in rows)
    indices = [int(r["index"]) for r in rows]
    assert indices == sorted(indices)  # spec order, with gaps where points did not finish
    # the worker processes (and the fork server) end with the command: they are in its
    # session; exited ones may stay a moment as zombies until init reaps them
    deadline, alive = time.monotonic() + 120, ["?"]
    while alive and time.monotonic() < deadline:
        ps = subprocess.run(
            ["ps", "-o", "stat=,pid=", "-s", str(proc.pid)], capture_output=True, text=True
        ).stdout.split("\n")
        alive = [line for line in ps if line.strip() and not line.strip().startswith("Z")]
        time.sleep(0.2)
    assert alive == []


FAILING_SPEC = """
[[grid]]
mechanism = "krr"
k = 200000
eps0 = 1.0
n = 100
method = "blanket"
delta = [1e-6, 1e-7]
"""


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_failed_points_exit_4_and_say_how_many(tmp_path, capsys, fmt):
    """k-RR is built up to k = 1e5: both points fail when computed (inside the documented
    ranges, so the spec itself is valid); every row is still written."""
    spec = tmp_path / "s.toml"
    spec.write_text(FAILING_SPEC)
    out = tmp_path / f"o.{fmt}"
    code = main(["sweep", str(spec), "-o", str(out), "--workers", "1", "--no-cache"])
    err = capsys.readouterr().err
    assert code == 4
    assert "2 of 2 points failed" in err
    rows = (
        list(csv.DictReader(out.open())) if fmt == "csv" else json.loads(out.read_text())["points"]
    )
    assert [r["status"] for r in rows] == ["error", "error"]


def test_exit_status_4_is_documented(capsys):
    assert main(["sweep", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "4 a sweep finished with failed points" in text and "exits 4" in text


HUGE_SPEC = """
[[grid]]
mechanism = "krr"
k = {range = [2, 102, 1]}
eps0 = {linspace = [0.5, 8, 100]}
n = {logspace = [2, 6, 1000]}
method = "blanket"
delta = 1e-6
"""


def test_dry_run_of_a_ten_million_point_grid_is_refused_at_once(tmp_path, capsys, monkeypatch):
    import shufflekit.sweep.spec as spec_module

    class NoExpansion:
        def __getattr__(self, name):
            raise AssertionError("an axis was expanded")

    monkeypatch.setattr(spec_module, "np", NoExpansion())
    spec = tmp_path / "s.toml"
    spec.write_text(HUGE_SPEC)
    assert main(["sweep", str(spec), "--dry-run", "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err.strip()
    assert "size=10000000" in err and "at most 100000 points" in err and "\n" not in err


def test_more_workers_than_cores_is_lowered_with_a_note(tmp_path, capsys, monkeypatch):
    import shufflekit.sweep.engine as engine

    seen = []
    monkeypatch.setattr(engine.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(
        engine,
        "_run_dask",
        lambda todo, sink, bar, workers, scheduler: seen.append(workers) or (0, 0),
    )
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    code = main(
        ["sweep", str(spec), "--workers", "64", "--no-cache", "-o", str(tmp_path / "o.csv")]
    )
    assert code == 0 and seen == [2]
    assert (
        "--workers 64 is more than the 2 core(s) of this machine; using 2"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "requested, cores, expected",
    [
        (None, 2, (2, None)),
        (1, 2, (1, None)),
        (2, 2, (2, None)),
        (64, 2, (2, "--workers 64")),
    ],
)
def test_local_workers(requested, cores, expected):
    from shufflekit.sweep.engine import local_workers

    count, note = local_workers(requested, cores)
    assert count == expected[0]
    assert (note is None) if expected[1] is None else note.startswith(expected[1])
