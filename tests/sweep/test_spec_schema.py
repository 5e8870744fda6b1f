"""Sweep specs are checked against one schema before anything is expanded or computed.

Unknown or misspelt keys are errors naming the nearest valid key; every value lies in the range
the command line documents for its option (the same table, ``shufflekit.validation.DOMAINS``,
that ``shufflekit.accountant`` and ``compose`` use); the number of points is counted from the
axis lengths and capped before any axis is expanded.
"""

import argparse
import contextlib
import io

import pytest

import shufflekit.sweep.spec as spec_module
from shufflekit.cli import build_parser
from shufflekit.errors import InvalidParameter
from shufflekit.sweep.spec import MAX_POINTS, grid_size, parse_spec, tasks_of

BASE = {"mechanism": "krr", "k": 3, "eps0": 1.0, "n": 100, "method": "blanket", "delta": 1e-6}


def parse(**changes):
    grid = {k: v for k, v in {**BASE, **changes}.items() if v is not None}
    return parse_spec({"grid": [grid]})


@pytest.mark.parametrize(
    "grid, wrong, nearest",
    [
        (
            {**BASE, "mechanism": "blh", "k": 4, "hash_famly": "nonconstant"},
            "hash_famly",
            "hash_family",
        ),
        ({**BASE, "methd": "blanket"}, "methd", "method"),
        ({**BASE, "eps_0": 2.0}, "eps_0", "eps0"),
        ({**{k: v for k, v in BASE.items() if k != "delta"}, "deltas": 1e-6}, "deltas", "delta"),
        ({**BASE, "adjacncy": "zero-out"}, "adjacncy", "adjacency"),
    ],
)
def test_misspelt_key_is_an_error_naming_the_nearest_key(grid, wrong, nearest):
    with pytest.raises(InvalidParameter) as info:
        parse_spec({"grid": [grid]})
    assert info.value.value == wrong
    assert f"did you mean {nearest!r}" in str(info.value)


def test_misspelt_top_level_key_and_unknown_mechanism():
    with pytest.raises(InvalidParameter, match="did you mean 'title'"):
        parse_spec({"titel": "x", "grid": [BASE]})
    with pytest.raises(InvalidParameter, match="did you mean 'krr'"):
        parse(mechanism="kr")


def test_key_of_another_mechanism_and_missing_parameter_are_errors():
    with pytest.raises(InvalidParameter, match="k does not apply to rr"):
        parse(mechanism="rr")
    with pytest.raises(InvalidParameter, match=r"grid\[0\]\.eps0=None"):
        parse(eps0=None)
    with pytest.raises(InvalidParameter, match="exactly one of eps0 or p for rr"):
        parse(mechanism="rr", k=None, p=0.7)


def test_unknown_method_is_rejected_up_front():
    with pytest.raises(InvalidParameter, match="did you mean 'blanket'"):
        parse(method="blankt")


def cli_allowed(option: str, text: str) -> str:
    """The 'allowed ...' part of the command line's one-line error for ``--option text``."""
    argv = [
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
        f"--{option}={text}",
    ]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as info:
        build_parser().parse_args(argv)
    assert info.value.code == 2
    return err.getvalue().split("allowed ", 1)[1].strip()


#: values just outside the documented ranges (and their CLI spelling)
OUTSIDE = [
    ("eps0", 500, "500"),
    ("eps0", 100.001, "100.001"),
    ("n", 2_000_000_000, "2e9"),
    ("delta", 1e-301, "1e-301"),
    ("k", 1, "1"),
    ("k", 2_000_000, "2000000"),
    ("gamma", 1.5, "1.5"),
    ("theta", 2, "2"),
    ("d", 0, "0"),
    ("m", 5, "5"),
]


@pytest.mark.parametrize("key, value, text", OUTSIDE, ids=[f"{k}={t}" for k, _, t in OUTSIDE])
def test_sweep_and_cli_reject_the_same_values_with_the_same_range(key, value, text):
    mech = {"gamma": "bmg", "theta": "privunit", "d": "privunit", "m": "joint-krr"}.get(key)
    grid = {**BASE, key: value}
    if mech == "bmg":
        grid = {
            **BASE,
            "mechanism": "bmg",
            "k": None,
            "eps0": None,
            "sigma0": 1.0,
            "method": "bmg-blanket",
            "gamma": value,
        }
    elif mech == "privunit":
        grid = {
            **BASE,
            "mechanism": "privunit",
            "k": None,
            "eps0": None,
            "p": 0.6,
            "theta": 0.1,
            "d": 3,
            "method": "blanket",
            key: value,
        }
    elif mech == "joint-krr":
        grid = {**BASE, "mechanism": "joint-krr", key: value}
    grid = {k: v for k, v in grid.items() if v is not None}
    with pytest.raises(InvalidParameter) as info:
        parse_spec({"grid": [grid]})
    assert info.value.name == f"grid[0].{key}"
    assert cli_allowed(key, text).startswith(info.value.allowed)


def test_boundary_values_are_accepted_by_both():
    tasks = parse(eps0=100, n=10**9, delta=1e-300).tasks
    assert [(dict(t.params)["eps0"], t.n, t.target) for t in tasks] == [(100, 10**9, 1e-300)]
    build_parser().parse_args(
        ["profile", "krr", "--k", "3", "--eps0", "100", "--n", "1e9", "--delta", "1e-300"]
    )


def test_python_accountant_has_the_same_ranges():
    import shufflekit as sk

    with pytest.raises(InvalidParameter) as info:
        sk.accountant(sk.make("krr", k=2, eps0=500), 100)
    assert info.value.allowed == cli_allowed("eps0", "500")
    with pytest.raises(InvalidParameter) as info:
        sk.accountant(sk.make("krr", k=2, eps0=1), 2 * 10**9)
    assert info.value.allowed == cli_allowed("n", "2e9")


def test_size_is_the_product_of_axis_lengths_or_the_zip_length():
    grid = {
        **BASE,
        "n": {"logspace": [2, 8, 1000]},
        "eps0": {"linspace": [0.5, 8, 300]},
        "k": {"range": [2, 12, 1]},
    }
    assert grid_size(grid) == 1000 * 300 * 10
    assert (
        grid_size({**grid, "eps0": 1.0, "k": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] * 100, "mode": "zip"})
        == 1000
    )


class NoExpansion:
    """Stands for numpy in the spec module: any expanded range form fails the test."""

    def __getattr__(self, name):
        raise AssertionError(f"an axis was expanded (numpy.{name})")


def test_too_large_a_grid_is_refused_before_expanding(monkeypatch):
    monkeypatch.setattr(spec_module, "np", NoExpansion())
    grid = {**BASE, "n": {"logspace": [2, 8, 10**6]}, "eps0": {"linspace": [0.5, 8, 10**6]}}
    with pytest.raises(InvalidParameter) as info:
        parse_spec({"grid": [grid]})
    assert info.value.value == 10**12 and str(MAX_POINTS) in info.value.allowed


def test_grids_add_up_to_the_cap():
    half = {**BASE, "n": {"range": [1, MAX_POINTS // 2 + 2, 1]}}
    with pytest.raises(InvalidParameter, match=rf"spec size={MAX_POINTS + 2}\b"):
        parse_spec({"grid": [half, half]})


def test_matrix_as_text_or_rows_is_one_hashable_value():
    grid = {
        "mechanism": "finite",
        "n": 10,
        "method": "blanket",
        "delta": 1e-6,
        "matrix": ["0.7,0.3;0.2,0.8", [[0.7, 0.3], [0.2, 0.8]]],
    }
    a, b = parse_spec({"grid": [grid]}).tasks
    assert dict(a.params)["matrix"] == "0.7,0.3;0.2,0.8"
    assert hash(b) and dict(b.params)["matrix"] == "0.7,0.3;0.2,0.8"
    with pytest.raises(InvalidParameter, match="matrix"):
        parse_spec({"grid": [{**grid, "matrix": [[0.7, 0.3]]}]})


def test_parser_types_are_the_validation_table():
    """The command line's mechanism option types come from the one table: every option of
    ``profile`` named in DOMAINS rejects a value just above its documented top."""
    from shufflekit.validation import DOMAINS

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    dests = {a.dest for a in sub.choices["profile"]._actions}
    for key in ("k", "m", "d", "n", "eps0"):
        assert key in dests
        assert DOMAINS[key].allowed in cli_allowed(key, str(int(DOMAINS[key].hi) + 1))


@pytest.mark.parametrize(
    "method, options, wrong, nearest",
    [
        ("blanket-fft", {"rel_los": 1e-3}, "rel_los", "rel_loss"),
        ("blanket", {"engin": "fft"}, "engin", "engine"),
        ("lower", {"engine": "fft"}, "engine", None),  # lower takes no option at all
        (None, {"resolutoin": 8.0}, "resolutoin", "resolution"),
    ],
)
def test_unknown_method_option_is_an_error(method, options, wrong, nearest):
    with pytest.raises(InvalidParameter) as info:
        parse(method=method, options=options)
    assert info.value.value == wrong
    assert (f"did you mean {nearest!r}" in str(info.value)) == (nearest is not None)


def test_known_method_options_pass():
    assert tasks_of([parse(method="blanket-fft", options={"rel_loss": 1e-3})])[0].options == (
        ("rel_loss", 1e-3),
    )
