"""--sampling-rate on profile and compose, the sampling_rate key of schedules and sweep specs:
one range (validation.DOMAINS), the subsampled randomizer's accountant, clear refusals."""

import json

import pytest

import shufflekit as sk
from shufflekit.cli import main
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.composition.fixed import compose
from shufflekit.sweep.spec import parse_spec
from shufflekit.sweep.task import compute


def run_json(argv, capsys):
    assert main(argv + ["--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


RR = ["rr", "--eps0", "1", "--n", "200"]


def test_profile_with_a_sampling_rate_is_the_subsampled_accountant(capsys):
    out = run_json(["profile", *RR, "--delta", "1e-6", "--sampling-rate", "1/4"], capsys)
    want = sk.accountant(sk.make("rr", eps0=1), 200, sampling_rate="1/4").get_epsilon(1e-6)
    assert out["points"][0]["hi"] == want.hi
    assert out["mechanism"]["params"]["sampling_rate"] == "1/4"
    full = run_json(["profile", *RR, "--delta", "1e-6"], capsys)
    assert out["points"][0]["hi"] < full["points"][0]["hi"]


def test_compose_with_a_sampling_rate_and_in_a_schedule(capsys):
    base = ["compose", *RR, "--rounds", "3", "--delta", "1e-6", "--grid", "0.015625"]
    out = run_json([*base, "--sampling-rate", "0.5"], capsys)
    sched = json.dumps([{"name": "rr", "eps0": 1, "n": 200, "rounds": 3, "sampling_rate": 0.5}])
    same = run_json(
        ["compose", "--schedule", sched, "--delta", "1e-6", "--grid", "0.015625"], capsys
    )
    assert out["points"][0]["hi"] == same["points"][0]["hi"]
    api = compose(sk.make("rr", eps0=1), 200, 3, deltas=[1e-6], grid=2**-6, sampling_rate=0.5)
    assert api.bounds[0].hi == out["points"][0]["hi"]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["profile", *RR, "--delta", "1e-6", "--sampling-rate", "0"], "range (0, 1]"),
        (["profile", *RR, "--delta", "1e-6", "--sampling-rate", "2"], "range (0, 1]"),
        (["profile", *RR, "--delta", "1e-6", "--sampling-rate", "x"], "sampling-rate"),
        (
            [
                "profile",
                *RR,
                "--delta",
                "1e-6",
                "--sampling-rate",
                "0.5",
                "--adjacency",
                "zero-out",
            ],
            "replace-one",
        ),
        (
            ["compose", *RR, "--delta", "1e-6", "--sampling-rate", "0.5", "--lower"],
            "sampling-rate",
        ),
        (
            [
                "profile",
                "central-gaussian",
                "--sigma",
                "1",
                "--n",
                "10",
                "--delta",
                "1e-6",
                "--sampling-rate",
                "0.5",
            ],
            "central-gaussian",
        ),
    ],
)
def test_bad_rates_are_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_sweep_specs_take_a_sampling_rate_checked_by_the_one_table():
    grid = {"mechanism": "rr", "eps0": 1, "n": 200, "delta": 1e-6, "sampling_rate": [1, 0.25]}
    spec = parse_spec({"grid": [grid]})
    assert [t.sampling_rate for t in spec.tasks] == [1, 0.25]
    assert "sampling_rate" in spec.param_names
    rows = [compute(t) for t in spec.tasks]
    assert all(r["status"] == "ok" for r in rows)
    assert rows[1]["hi"] < rows[0]["hi"] and rows[1]["sampling_rate"] == 0.25
    with pytest.raises(InvalidParameter, match=r"sampling_rate.*range \(0, 1\]"):
        parse_spec({"grid": [{**grid, "sampling_rate": 1.5}]})
    with pytest.raises(InvalidParameter, match="sampling_rate"):  # an unknown key stays an error
        parse_spec({"grid": [{**grid, "sampling_rte": 0.5}]})
    plain = parse_spec({"grid": [{k: v for k, v in grid.items() if k != "sampling_rate"}]})
    assert "sampling_rate" not in plain.tasks[0].as_dict()  # cache keys of plain specs unchanged
