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
    code = main(["sweep", str(spec), "-o", str(out), "--workers", "1",
                 "--cache-dir", str(tmp_path / "c"), "--plot", str(plot)])
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
    assert main(["sweep", str(spec), "--workers", "1", "--cache-dir", str(tmp_path / "c"),
                 "--format", "json"]) == 0
    text = capsys.readouterr().out

    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    payload = json.loads(text, parse_constant=refuse)
    assert payload["summary"]["points"] == 2 and len(payload["points"]) == 2
    assert main(["profile", "krr", "--k", "2", "--eps0", "1", "--n", "100", "--delta", "1e-6",
                 "--format", "json"]) == 0
    prof = json.loads(capsys.readouterr().out)["points"][0]
    for pt in payload["points"]:
        assert list(pt)[:len(prof)] == list(prof)
        assert pt["bound"] == "upper" and pt["status"] == "ok"
    assert [pt["k"] for pt in payload["points"]] == [2, 3]
    # the same bound as profile at the same point
    assert payload["points"][0]["epsilon"] == prof["epsilon"]


def test_table_format_to_file(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "t.txt"
    assert main(["sweep", str(spec), "--workers", "1", "--cache-dir", str(tmp_path / "c"),
                 "--format", "table", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].split()[:3] == ["mechanism", "eps0", "k"] and len(lines) == 4


@pytest.mark.parametrize("args, name", [
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
])
def test_bad_input_exits_2(tmp_path, capsys, args, name):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    assert main(["sweep", str(spec), "--cache-dir", str(tmp_path / "c"), *args]) == 2
    err = capsys.readouterr().err
    assert name in err and "Traceback" not in err


def test_missing_spec_exits_2(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "none.toml")]) == 2
    assert "spec=" in capsys.readouterr().err
