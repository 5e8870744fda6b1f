"""The ``shufflekit sweep`` command: output file, summary line, bad input exits 2."""
import csv

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


@pytest.mark.parametrize("args, name", [
    (["--workers", "0"], "workers=0"),
    (["-o", "/nonexistent-dir/o.csv"], "output="),
    (["-o", "o.xlsx"], "output="),
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
