"""Sweep specs expand into the right tasks, and bad specs name the offending entry."""

import math

import pytest

from shufflekit.errors import InvalidParameter
from shufflekit.sweep.spec import expand_values, load_spec, parse_spec


@pytest.mark.parametrize(
    "value, expected",
    [
        (3, [3]),
        ([1, 2], [1, 2]),
        ({"range": [1, 7, 2]}, [1, 3, 5]),
        ({"linspace": [0.0, 1.0, 3]}, [0.0, 0.5, 1.0]),
        ({"logspace": [3, 5, 3]}, [1e3, 1e4, 1e5]),
        ({"geomspace": [1e-6, 1e-12, 3]}, [1e-6, 1e-9, 1e-12]),
    ],
)
def test_value_forms(value, expected):
    got = expand_values("x", value)
    # 1e-12 relative: numpy's log-spaced points are exact to a few ulps
    assert len(got) == len(expected)
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(got, expected))


def test_product_and_zip():
    base = {
        "mechanism": "krr",
        "k": 10,
        "eps0": [1.0, 4.0],
        "n": [100, 1000],
        "method": "blanket",
        "delta": 1e-6,
    }
    assert len(parse_spec({"grid": [base]}).tasks) == 4
    zipped = parse_spec({"grid": [{**base, "mode": "zip"}]}).tasks
    assert [(dict(t.params)["eps0"], t.n) for t in zipped] == [(1.0, 100), (4.0, 1000)]


def test_targets_and_parameters():
    spec = parse_spec(
        {
            "title": "t",
            "grid": [
                {
                    "mechanism": "krr",
                    "k": 3,
                    "eps0": 1,
                    "n": {"logspace": [2, 3, 2]},
                    "epsilon": 0.5,
                },
                {"mechanism": "rappor", "k": 4, "eps0": 2, "n": 50, "delta": [1e-6, 1e-8]},
            ],
        }
    )
    assert [t.quantity for t in spec.tasks] == ["delta", "delta", "epsilon", "epsilon"]
    assert [t.n for t in spec.tasks] == [100, 1000, 50, 50]  # n rounded to integers
    assert spec.param_names == ["eps0", "k"]


@pytest.mark.parametrize(
    "grid, name",
    [
        ({"k": 3, "n": 10, "delta": 1e-6}, "mechanism"),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "delta": 1e-6}, "n"),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "n": 10}, "epsilon/delta"),
        (
            {"mechanism": "krr", "k": 3, "eps0": 1, "n": 10, "delta": 1e-6, "epsilon": 1.0},
            "epsilon/delta",
        ),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "n": 0, "delta": 1e-6}, "n"),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "n": 10, "delta": 2.0}, "delta"),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "n": 10, "epsilon": float("nan")}, "epsilon"),
        (
            {"mechanism": "krr", "k": 3, "eps0": 1, "n": 10, "delta": 1e-6, "mode": "diagonal"},
            "mode",
        ),
        (
            {
                "mechanism": "krr",
                "eps0": 1,
                "n": [1, 2],
                "k": [3, 4, 5],
                "delta": 1e-6,
                "mode": "zip",
            },
            "mode",
        ),
        (
            {"mechanism": "krr", "k": 3, "eps0": 1, "n": {"logspace": [1, 2]}, "delta": 1e-6},
            "n.logspace",
        ),
        ({"mechanism": "krr", "k": 3, "eps0": 1, "n": [], "delta": 1e-6}, "n"),
    ],
)
def test_bad_specs_name_the_entry(grid, name):
    with pytest.raises(InvalidParameter, match=rf"^grid\[0\]\.{name}="):
        parse_spec({"grid": [grid]})


def test_bad_file(tmp_path):
    with pytest.raises(InvalidParameter, match="spec="):
        load_spec(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[grid]\nmechanism = ")
    with pytest.raises(InvalidParameter, match="valid TOML"):
        load_spec(bad)


def test_example_specs_load():
    from pathlib import Path

    for path in (Path(__file__).resolve().parents[2] / "examples" / "sweeps").glob("*.toml"):
        spec = load_spec(path)
        assert spec.tasks, path
