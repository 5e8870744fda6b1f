"""The compose command: point shape of profile, agreement with a one-round profile, errors."""

import json
import math

import pytest

from shufflekit.cli import main


def run_json(argv, capsys):
    assert main(argv + ["--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_gaussian_rounds_agree_with_one_round_of_sigma_over_sqrt_t(capsys):
    """Issue 14, 'Done when': compose central-gaussian --sigma S --rounds T agrees with
    profile central-gaussian --sigma S/sqrt(T) on the upper side, within the reported grid."""
    S, T, D = 3.0, 9, 1e-6
    comp = run_json(
        [
            "compose",
            "central-gaussian",
            "--sigma",
            str(S),
            "--n",
            "1",
            "--rounds",
            str(T),
            "--delta",
            str(D),
        ],
        capsys,
    )
    prof = run_json(
        [
            "profile",
            "central-gaussian",
            "--sigma",
            str(S / math.sqrt(T)),
            "--n",
            "1",
            "--delta",
            str(D),
        ],
        capsys,
    )
    up = comp["points"][0]
    exact = prof["points"][0]["epsilon"]
    assert up["bound"] == "upper"
    assert exact <= up["epsilon"] <= exact + comp["grid"]


def test_point_shape_and_lower_option(capsys):
    out = run_json(
        [
            "compose",
            "rr",
            "--eps0",
            "1",
            "--n",
            "50",
            "--rounds",
            "3",
            "--epsilon",
            "0.5",
            "--delta",
            "1e-6",
            "--lower",
        ],
        capsys,
    )
    assert {"mechanism", "n", "rounds", "method", "points"} <= set(out)
    assert out["rounds"] == 3 and out["n"] == 50
    pts = out["points"]
    assert all({"epsilon", "delta", "bound", "error"} <= set(p) for p in pts)
    upper = {p["quantity"]: p for p in pts if p["bound"] == "upper"}
    lower = {p["quantity"]: p for p in pts if p["bound"] == "lower"}
    assert upper["delta"]["delta"] >= lower["delta"]["delta"]
    assert upper["epsilon"]["epsilon"] >= lower["epsilon"]["epsilon"]
    # issue 14: the note says how far the upper bound is above the exact boundary pair
    assert "exact-pair lower bound" in upper["epsilon"]["note"]
    assert f"{lower['epsilon']['epsilon']:.6g}" in upper["epsilon"]["note"]


def test_schedule_and_csv(capsys):
    sched = json.dumps(
        [
            {"name": "rr", "eps0": 1, "n": 100, "rounds": 2},
            {"name": "krr", "k": 3, "eps0": 1, "n": 100, "rounds": 1},
        ]
    )
    assert (
        main(["compose", "schedule", "--schedule", sched, "--delta", "1e-5", "--format", "csv"])
        == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("mechanism,schedule,n,rounds,epsilon,delta,bound,error")
    assert lines[1].startswith('schedule,"rr(')
    assert len(lines) == 2 and ",upper," in lines[1]


def test_table_mentions_grid_and_budget(capsys):
    assert (
        main(["compose", "rr", "--eps0", "1", "--n", "20", "--rounds", "2", "--delta", "1e-4"]) == 0
    )
    out = capsys.readouterr().out
    assert "loss grid" in out and "round-off budget" in out and "upper" in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (
            ["compose", "rr", "--eps0", "1", "--n", "10", "--rounds", "0", "--delta", "1e-6"],
            "rounds=0",
        ),
        (["compose", "rr", "--eps0", "1", "--n", "10", "--rounds", "2"], "epsilon"),
        (
            [
                "compose",
                "krr",
                "--k",
                "3",
                "--eps0",
                "1",
                "--n",
                "10",
                "--lower",
                "--delta",
                "1e-6",
            ],
            "lower",
        ),
        (["compose", "x", "--schedule", "[1, 2]", "--delta", "1e-6"], "schedule"),
        (["compose", "x", "--schedule", "not json", "--delta", "1e-6"], "schedule"),
        (["compose", "rr", "--eps0", "1", "--n", "10", "--grid", "2", "--delta", "1e-6"], "grid"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err


def test_noise_multiplier_is_sigma_times_sqrt_n(capsys):
    """compose takes central-gaussian's --noise-multiplier like profile: z = sigma sqrt(n)."""
    n, sigma = 100, 0.5
    by_sigma = run_json(
        [
            "compose",
            "central-gaussian",
            "--sigma",
            str(sigma),
            "--n",
            str(n),
            "--rounds",
            "4",
            "--delta",
            "1e-5",
        ],
        capsys,
    )
    by_z = run_json(
        [
            "compose",
            "central-gaussian",
            "--noise-multiplier",
            str(sigma * math.sqrt(n)),
            "--n",
            str(n),
            "--rounds",
            "4",
            "--delta",
            "1e-5",
        ],
        capsys,
    )
    # the same sigma up to the one rounding of z/sqrt(n): the same composed grid, same answer
    assert by_z["points"][0]["epsilon"] == pytest.approx(
        by_sigma["points"][0]["epsilon"], rel=1e-12
    )
    assert by_z["mechanism"]["sigma"] == pytest.approx(sigma, rel=1e-15)


def test_point_shape_is_profiles(capsys):
    """Every compose point has exactly the keys of a profile point, in the same order, and the
    payload carries profile's head (mechanism, n, method, kind, adjacency)."""
    comp = run_json(
        [
            "compose",
            "krr",
            "--k",
            "3",
            "--eps0",
            "1",
            "--n",
            "20",
            "--rounds",
            "2",
            "--epsilon",
            "1",
        ],
        capsys,
    )
    prof = run_json(
        ["profile", "krr", "--k", "3", "--eps0", "1", "--n", "20", "--epsilon", "1"], capsys
    )
    assert list(comp["points"][0]) == list(prof["points"][0])
    assert set(prof) - {"notes"} <= set(comp)
    assert comp["kind"] == "upper" and comp["rounds"] == 2


def test_output_file_and_unused_option_notes(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert (
        main(
            [
                "compose",
                "rr",
                "--eps0",
                "1",
                "--n",
                "20",
                "--k",
                "3",
                "--sigma",
                "2",
                "--delta",
                "1e-4",
                "--format",
                "json",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    payload = json.loads(out.read_text())
    assert any("--k" in n for n in payload["notes"])
    assert any("--sigma applies to central-gaussian only" in n for n in payload["notes"])
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--sigma", "0"], "sigma=0"),
        (["--tail", "1"], "tail=1"),
        (["--schedule", '[{"name": "rr", "eps0": 1, "n": 0}]'], "schedule n=0"),
        (["--schedule", '[{"name": "rr", "eps0": "nan", "n": 5}]'], "schedule eps0="),
        (["--schedule", '[{"name": "rr", "eps0": 1, "n": 5, "rounds": 1.5}]'], "schedule rounds="),
        (["--schedule", '[{"name": "rr", "eps0": 1, "n": 5, "bogus": 1}]'], "'bogus'"),
        (["--schedule", '[{"name": "central-gaussian", "n": 5}]'], "sigma"),
    ],
)
def test_more_bad_input(argv, needle, capsys):
    base = ["compose", "rr", "--eps0", "1", "--n", "10", "--delta", "1e-6"]
    assert main(base + argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "allowed" in err and "\n" not in err
