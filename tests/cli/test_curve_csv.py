"""Every curve CSV names its curve: mechanism, parameters and n in front of each row."""

import csv
import io
import json

from shufflekit.cli import main


def rows_of(text):
    reader = csv.DictReader(io.StringIO(text))
    return reader.fieldnames, list(reader)


def test_profile_csv_names_mechanism_parameters_and_n(capsys):
    assert (
        main(
            [
                "profile",
                "krr",
                "--k",
                "10",
                "--eps0",
                "4",
                "--n",
                "1000",
                "--method",
                "hoeffding",
                "--epsilon",
                "0.5",
                "1",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    names, rows = rows_of(capsys.readouterr().out)
    assert names[:4] == ["mechanism", "k", "eps0", "n"]
    assert [(r["mechanism"], r["k"], r["eps0"], r["n"]) for r in rows] == [
        ("krr", "10", "4", "1000")
    ] * 2
    assert [float(r["epsilon"]) for r in rows] == [0.5, 1.0] and "delta" in names


def test_profile_csv_of_exact_parameters_writes_numbers(capsys):
    assert (
        main(
            [
                "profile",
                "bmg",
                "--gamma",
                "0.95",
                "--sigma0",
                "4.6",
                "--n",
                "100",
                "--epsilon",
                "1",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    names, rows = rows_of(capsys.readouterr().out)
    assert names[:2] == ["mechanism", "gamma"] and "sigma0" in names and "n" in names
    assert (
        rows[0]["mechanism"],
        float(rows[0]["gamma"]),
        float(rows[0]["sigma0"]),
        rows[0]["n"],
    ) == ("bmg", 0.95, 4.6, "100")


def test_central_gaussian_csv_names_sigma_and_n(capsys):
    assert (
        main(
            [
                "profile",
                "central-gaussian",
                "--sigma",
                "100",
                "--n",
                "1000",
                "--delta",
                "1e-5",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    names, rows = rows_of(capsys.readouterr().out)
    assert names[0] == "mechanism" and rows[0]["mechanism"] == "central-gaussian"
    assert float(rows[0]["sigma"]) == 100.0 and rows[0]["n"] == "1000"


def test_compose_csv_names_mechanism_parameters_n_and_rounds(capsys):
    assert (
        main(
            [
                "compose",
                "rr",
                "--eps0",
                "1",
                "--n",
                "20",
                "--rounds",
                "2",
                "--delta",
                "1e-6",
                "--grid",
                "0.01",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    names, rows = rows_of(capsys.readouterr().out)
    assert names[:2] == ["mechanism", "eps0"]
    assert names.index("n") < names.index("rounds") < names.index("epsilon")
    assert (rows[0]["mechanism"], rows[0]["eps0"], rows[0]["n"], rows[0]["rounds"]) == (
        "rr",
        "1",
        "20",
        "2",
    )


def test_compose_schedule_csv_describes_the_rounds():
    from shufflekit.cli.output import curve_head

    mech = {
        "schedule": [
            {"name": "rr", "params": {"eps0": "1"}, "n": 100, "rounds": 2},
            {"name": "krr", "params": {"k": "3", "eps0": "1"}, "n": 50, "rounds": 1},
        ]
    }
    assert curve_head(mech, None, rounds=3) == {
        "mechanism": "schedule",
        "schedule": "rr(eps0=1) n=100 x2; krr(k=3, eps0=1) n=50 x1",
        "n": None,
        "rounds": 3,
    }


def test_histogram_csv_names_the_laws_and_n(capsys):
    assert (
        main(
            [
                "histogram",
                "--w0",
                "0.7,0.2,0.1",
                "--w1",
                "0.15,0.55,0.3",
                "--n",
                "80",
                "--ones-among-others",
                "3",
                "--epsilon",
                "0.1",
                "0.2",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    names, rows = rows_of(capsys.readouterr().out)
    assert names[:5] == ["mechanism", "w0", "w1", "ones_among_others", "n"]
    assert [(r["mechanism"], r["w0"], r["w1"], r["ones_among_others"], r["n"]) for r in rows] == [
        ("histogram", "0.7,0.2,0.1", "0.15,0.55,0.3", "3", "80")
    ] * 2


def test_sweep_csv_names_mechanism_parameters_and_n(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[[grid]]\nmechanism = "krr"\nk = [2, 3]\neps0 = 1.0\nn = 50\n'
        'method = "hoeffding"\ndelta = 1e-3\n'
    )
    out = tmp_path / "o.csv"
    assert main(["sweep", str(spec), "-o", str(out), "--workers", "1", "--no-cache"]) == 0
    names, rows = rows_of(out.read_text())
    assert names[:3] == ["mechanism", "eps0", "k"] and "n" in names
    assert [(r["mechanism"], r["eps0"], r["k"], r["n"]) for r in rows] == [
        ("krr", "1.0", "2", "50"),
        ("krr", "1.0", "3", "50"),
    ]


def test_json_points_are_unchanged(capsys):
    """Only the CSV rows carry the curve's columns; JSON keeps them once, at the top."""
    assert (
        main(
            [
                "profile",
                "krr",
                "--k",
                "10",
                "--eps0",
                "4",
                "--n",
                "1000",
                "--method",
                "hoeffding",
                "--epsilon",
                "0.5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert "mechanism" not in payload["points"][0] and payload["mechanism"]["name"] == "krr"
