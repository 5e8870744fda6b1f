"""The command line: subcommands, the output model, clean errors with exit status 2."""

import csv
import io
import json

import pytest

from shufflekit.cli import main


def test_help_lists_subcommands(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for cmd in ("list", "verify", "mechanism", "latex", "series", "profile", "histogram", "design"):
        assert cmd in out
    assert "3 cannot certify" in out


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("shufflekit ")


def test_every_option_has_help():
    from shufflekit.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():
        if name == "verify":  # options of the verify command are documented with it
            continue
        for action in p._actions:
            if action.dest in ("help", "ones_deprecated"):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"


def test_mechanism_krr_json(capsys):
    assert (
        main(
            ["mechanism", "krr", "--k", "10", "--eps0", "4", "--epsilon", "0.5", "--format", "json"]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["gamma"]["exact"] == "10/(9 + exp(4))"
    assert set(payload) >= {"name", "params", "gamma", "eps0", "chi_lo", "chi_up", "gparv"}
    law = payload["gparv"]
    assert len(law["atoms"]) == 4 and law["epsilon"] == 0.5 and law["epsilon_exact"] == "1/2"
    # numeric parameters are JSON numbers; their exact text sits beside them
    assert payload["params"] == {"k": 10, "eps0": 4} and type(payload["params"]["k"]) is int
    assert payload["params_exact"] == {"k": "10", "eps0": "4"}
    assert sum(law["probabilities_float"]) == pytest.approx(1.0, abs=1e-14)  # float rounding


def test_mechanism_json_rational_parameters_are_numbers(capsys):
    assert (
        main(
            [
                "mechanism",
                "privunit",
                "--p",
                "0.5",
                "--theta",
                "0.3",
                "--d",
                "3",
                "--format",
                "json",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["params"] == {"p": 0.5, "theta": 0.3, "d": 3}
    assert payload["params_exact"] == {"p": "1/2", "theta": "3/10", "d": "3"}


def test_mechanism_json_is_standard_for_unbounded_eps0(capsys):
    assert main(["mechanism", "bmg", "--gamma", "0.3", "--sigma0", "2", "--format", "json"]) == 0
    text = capsys.readouterr().out
    assert "Infinity" not in text and "NaN" not in text
    payload = json.loads(text)
    assert payload["eps0"]["float"] is None and payload["eps0"]["note"] == "infinite"


def test_mechanism_table_is_aligned_not_python(capsys):
    assert main(["mechanism", "rr", "--eps0", "1"]) == 0
    out = capsys.readouterr().out
    assert "{" not in out and "'" not in out
    assert out.splitlines()[0].split() == ["name", "rr"]


def test_mechanism_notes_unused_option(capsys):
    assert main(["mechanism", "rr", "--eps0", "1", "--k", "5", "--format", "json"]) == 0
    assert "--k does not apply to rr; ignored" in json.loads(capsys.readouterr().out)["notes"]


def test_list_series_each_id_once(capsys):
    from shufflekit.symbolic.results import SERIES_IDS

    assert main(["list", "series", "--format", "json"]) == 0
    ids = [r["id"] for r in json.loads(capsys.readouterr().out)["series"]]
    assert sorted(ids) == sorted(set(SERIES_IDS)) and len(ids) == len(set(ids))


def test_list_methods_from_registry(capsys):
    from shufflekit.numeric.accountant import methods

    assert main(["list", "methods", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["name"] for r in rows] == [m.name for m in methods()]


def test_list_mechanisms(capsys):
    from shufflekit.mechanisms import NAMES

    assert main(["list", "mechanisms"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in NAMES)


def test_profile_through_registry_records_adjacency(capsys):
    assert (
        main(
            [
                "profile",
                "krr",
                "--k",
                "4",
                "--eps0",
                "1",
                "--n",
                "200",
                "--epsilon",
                "0.5",
                "--delta",
                "1e-3",
                "--adjacency",
                "zero-out",
                "--grid",
                "0.01",
                "--format",
                "json",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["method"] == "blanket" and payload["adjacency"] == "zero-out"
    assert payload["kind"] == "upper"
    assert any("--grid" in n for n in payload["notes"])
    assert [p["quantity"] for p in payload["points"]] == ["delta", "epsilon"]
    assert all(p["adjacency"] == "zero-out" for p in payload["points"])


def test_profile_csv_and_output_file(tmp_path, capsys):
    out = tmp_path / "curve.csv"
    assert (
        main(
            [
                "profile",
                "krr",
                "--k",
                "4",
                "--eps0",
                "1",
                "--n",
                "200",
                "--epsilon",
                "0.2",
                "0.4",
                "--format",
                "csv",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    rows = list(csv.DictReader(out.open()))
    assert [float(r["epsilon"]) for r in rows] == [0.2, 0.4]
    assert float(rows[0]["delta"]) >= float(rows[1]["delta"])  # delta(eps) non-increasing


def test_central_gaussian_sigma_and_noise_multiplier_agree(capsys):
    n = 1000
    assert (
        main(
            [
                "profile",
                "central-gaussian",
                "--sigma",
                "100",
                "--n",
                str(n),
                "--delta",
                "1e-5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    a = json.loads(capsys.readouterr().out)
    assert (
        main(
            [
                "profile",
                "central-gaussian",
                "--noise-multiplier",
                str(100 * n**0.5),
                "--n",
                str(n),
                "--delta",
                "1e-5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    b = json.loads(capsys.readouterr().out)
    # same mechanism: z = sigma * sqrt(n); equal up to the float rounding of sqrt(n)
    assert a["points"][0]["epsilon"] == pytest.approx(b["points"][0]["epsilon"], rel=1e-9)
    assert a["adjacency"] == "n/a"


def test_histogram_ones_among_others(capsys):
    assert (
        main(
            [
                "histogram",
                "--w0",
                "0.7,0.3",
                "--w1",
                "0.2,0.8",
                "--n",
                "20",
                "--ones-among-others",
                "5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["ones_among_others"] == 5 and payload["pi"] == pytest.approx(5 / 20, rel=1e-15)


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["mechanism", "krr", "--k", "1", "--eps0", "4"], "k=1"),
        (["mechanism", "bmg", "--gamma", "1.2", "--sigma0", "1"], "gamma=1.2"),
        (["mechanism", "nope"], "unknown mechanism"),
        (["mechanism", "finite", "--matrix", "0.5,0.6;0.5,0.5"], "sums to"),
        (["mechanism", "finite", "--matrix", "0.7,,0.3;0.2,0.8"], "entry 2 is empty"),
        (["mechanism", "krr", "--k", "3", "--eps0", "nan"], "eps0=nan"),
        (["mechanism", "krr", "--k", "3", "--eps0", "inf"], "eps0=inf"),
        (["mechanism", "krr", "--k", "3", "--eps0", "abc"], "eps0=abc"),
        (["mechanism", "krr", "--k", "3", "--eps0", "1", "--epsilon", "nan"], "epsilon=nan"),
        (["mechanism", "privunit", "--p", "1", "--theta", "0", "--d", "3"], "p=1"),
        (["mechanism", "gaussian-local", "--sigma0", "inf"], "sigma0=inf"),
        (["mechanism", "rr", "--eps0", "1", "-o", "/nonexistent/dir/x.json"], "output="),
        (["design", "bmg", "--n", "100", "--epsilon", "1", "--delta", "1e-5", "--d", "0"], "d=0"),
        (["design", "bmg", "--n", "100", "--epsilon", "1", "--delta", "1e-5", "--d", "-3"], "d=-3"),
        (["histogram", "--w0", "0.5,,0.5", "--w1", "0.5,0.5", "--n", "10"], "entry 2 is empty"),
        (["profile", "krr", "--k", "3", "--eps0", "1", "--n", "10"], "--epsilon"),
        (
            ["profile", "krr", "--k", "3", "--eps0", "1", "--n", "10", "--epsilon", "-1"],
            "epsilon=-1",
        ),
        (["profile", "krr", "--k", "3", "--eps0", "1", "--n", "10", "--delta", "1"], "delta=1"),
        (
            [
                "profile",
                "krr",
                "--k",
                "3",
                "--eps0",
                "1",
                "--n",
                "10",
                "--epsilon",
                "1",
                "--method",
                "nope",
            ],
            "method='nope'",
        ),
        (["series", "rr.err-in-chi", "--order", "0"], "order=0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err
    assert "allowed" in err


def test_profile_bmg_is_certified_and_zero_out(capsys):
    assert (
        main(
            [
                "profile",
                "bmg",
                "--gamma",
                "0.9",
                "--sigma0",
                "3",
                "--n",
                "100",
                "--epsilon",
                "0.01",
                "--format",
                "json",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["kind"] == "upper" and payload["adjacency"] == "zero-out"
    assert 0 < payload["points"][0]["delta"] < 1
