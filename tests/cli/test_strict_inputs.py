"""Strict inputs and no hangs: every bad request is refused up front, as one line, exit 2.

Each test makes the expensive step it guards fail loudly (monkeypatched), so a check that came
too late, after work had started, fails the test at once instead of running long.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

import shufflekit as sk
import shufflekit.numeric.composition.fixed as comp
from shufflekit.cli import build_parser, main
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.composition.fixed import Round


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def no_work(monkeypatch):
    """Building a round's dominating pair, an accountant or a sweep run fails the test."""

    def never(*args, **kwargs):
        raise AssertionError("work started before the input was checked")

    import shufflekit.numeric.accountant as accountant
    import shufflekit.sweep as sweep

    monkeypatch.setattr(comp, "dominating_pair", never)
    monkeypatch.setattr(comp, "composed_accountant", never)
    monkeypatch.setattr(accountant, "accountant", never)
    monkeypatch.setattr(sweep, "run_tasks", never)
    return never


RR = '{"name": "rr", "eps0": 1, "n": 100'


# ------------------------------------------------------------------ compose schedules
@pytest.mark.parametrize(
    "schedule, needle",
    [
        (
            f'[{RR}, "adjacency": "replace-one"}}, {RR}, "adjacency": "zero-out"}}]',
            "schedule adjacency='replace-one and zero-out'",
        ),
        (
            '[{"name": "central-gaussian", "n": 100, "sigma": 1, "noise_multiplier": 5}]',
            "schedule sigma/noise_multiplier=(1.0, 5.0)",
        ),
        (f'[{RR}, "adjacenci": "zero-out"}}]', "did you mean 'adjacency'?"),
        (f'[{RR}, "k": 3}}]', "k does not apply to rr"),
        ('[{"name": "rr", "eps0": 500, "n": 100}]', "schedule eps0=500"),
        ('[{"name": "rr", "eps0": 1, "n": 2e9}]', "schedule n=2000000000.0"),
    ],
)
def test_bad_schedule_is_refused_before_any_work(schedule, needle, monkeypatch):
    monkeypatch.setattr(comp, "dominating_pair", lambda *a, **k: pytest.fail("work started"))
    code, _, err = run(["compose", "--schedule", schedule, "--delta", "1e-5"])
    assert code == 2 and needle in one_line(err), err


@pytest.mark.parametrize(
    "schedule, needle",
    [
        (
            [
                Round(sk.make("rr", eps0=1), 100, 1, adjacency="replace-one"),
                Round(sk.make("rr", eps0=1), 100, 1, adjacency="zero-out"),
            ],
            "schedule adjacency",
        ),
        (
            [
                {
                    "mechanism": {
                        "name": "central-gaussian",
                        "sigma": 1.0,
                        "noise_multiplier": 5.0,
                    },
                    "n": 100,
                }
            ],
            "sigma/noise_multiplier",
        ),
        (
            [{"name": "central-gaussian", "n": 100, "sigma": 1.0, "noise_multiplier": 5.0}],
            "sigma/noise_multiplier",
        ),
        (
            [{"mechanism": sk.make("rr", eps0=1), "n": 100, "adjacenci": "zero-out"}],
            "did you mean 'adjacency'?",
        ),
        ([Round(sk.make("krr", k=3, eps0=500), 100)], "eps0=500"),
        ([Round(sk.make("rr", eps0=1), 10**10)], "n=10000000000"),
    ],
)
def test_python_schedule_is_checked_like_the_command_line(schedule, needle, monkeypatch):
    monkeypatch.setattr(comp, "dominating_pair", lambda *a, **k: pytest.fail("work started"))
    with pytest.raises(InvalidParameter, match=needle.replace("(", r"\(").replace("?", r"\?")):
        sk.compose(schedule=schedule, deltas=[1e-5])


def test_default_adjacencies_that_differ_are_refused(monkeypatch):
    """rr's default method bounds replace-one; an explicit zero-out round cannot join it."""
    monkeypatch.setattr(comp, "dominating_pair", lambda *a, **k: pytest.fail("work started"))
    with pytest.raises(InvalidParameter, match="replace-one and zero-out"):
        comp.composed_accountant(
            schedule=[
                Round(sk.make("rr", eps0=1), 100),
                Round(sk.make("rr", eps0=1), 50, 1, "blanket", "zero-out"),
            ]
        )


def test_heterogeneous_schedule_is_labelled_round_by_round(tmp_path):
    sched = [
        {"name": "rr", "eps0": 1, "n": 100, "rounds": 2, "adjacency": "zero-out"},
        {"name": "krr", "k": 3, "eps0": 1, "n": 500, "adjacency": "zero-out"},
    ]
    path = tmp_path / "schedule.json"
    path.write_text(json.dumps(sched))
    code, out, err = run(
        ["compose", "--schedule", str(path), "--delta", "1e-5", "--format", "json"]
    )  # no mechanism name: it is optional
    assert code == 0, err
    payload = json.loads(out)
    rounds = payload["mechanism"]["schedule"]
    assert [(r["name"], r["n"], r["rounds"], r["adjacency"], r["method"]) for r in rounds] == [
        ("rr", 100, 2, "zero-out", "blanket"),
        ("krr", 500, 1, "zero-out", "blanket"),
    ]
    assert payload["n"] is None and payload["adjacency"] == "zero-out" and payload["rounds"] == 3
    assert "notes" not in payload


def test_schedule_without_a_mechanism_name_and_a_missing_name_without_one():
    parser = build_parser()
    args = parser.parse_args(["compose", "--schedule", "[]", "--delta", "1e-5"])
    assert args.name is None
    code, _, err = run(["compose", "--n", "10", "--delta", "1e-5"])
    assert code == 2 and "name=None" in one_line(err)


# ------------------------------------------------------------------ targets and --lower
@pytest.mark.parametrize(
    "argv",
    [
        ["profile", "rr", "--eps0", "1", "--n", "100"],
        ["compose", "rr", "--eps0", "1", "--n", "100"],
        ["compose", "--schedule", f"[{RR}}}]"],
    ],
)
def test_missing_target_is_refused_before_any_work(argv, no_work):
    code, _, err = run(argv)
    assert code == 2 and "epsilon/delta=None" in one_line(err)


def test_missing_target_of_a_sweep_is_refused_before_any_work(tmp_path, no_work):
    spec = tmp_path / "s.toml"
    spec.write_text('[[grid]]\nmechanism = "krr"\nk = 3\neps0 = 1.0\nn = 100\n')
    code, _, err = run(["sweep", str(spec), "--workers", "1", "--no-cache"])
    assert code == 2 and "epsilon/delta" in one_line(err)


def test_lower_on_another_mechanism_is_refused_before_any_work(no_work):
    code, _, err = run(
        ["compose", "krr", "--k", "3", "--eps0", "1", "--n", "10", "--lower", "--delta", "1e-6"]
    )
    assert code == 2 and "lower=True" in one_line(err)


# ------------------------------------------------------------------ bounded up front
@pytest.mark.parametrize("grid", ["1e-300", "1e-6", "3e-5"])
def test_loss_grid_below_the_minimum_is_a_parse_error(grid):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as info:
        build_parser().parse_args(
            ["compose", "rr", "--eps0", "1", "--n", "100", "--delta", "1e-5", "--grid", grid]
        )
    assert info.value.code == 2
    assert (
        f"grid={grid}" in one_line(err.getvalue())
        and "allowed range [3.05176e-05, 1]" in err.getvalue()
    )


def test_loss_grid_minimum_in_the_python_api(monkeypatch):
    monkeypatch.setattr(comp, "dominating_pair", lambda *a, **k: pytest.fail("work started"))
    with pytest.raises(InvalidParameter, match="grid=1e-300"):
        sk.compose(sk.make("rr", eps0=1), 100, 2, deltas=[1e-5], grid=1e-300)


def test_minimum_grid_is_derived_from_the_fft_size():
    from shufflekit.numeric.kernels.radix2_fft import MAX_FFT
    from shufflekit.validation import MAX_EPS0, MAX_LOSS_CELLS, MIN_GRID

    assert MAX_LOSS_CELLS == MAX_FFT
    # one round's losses, in [-eps0, eps0], fit one FFT at the smallest grid, not at half of it
    assert 2 * MAX_EPS0 / MIN_GRID <= MAX_LOSS_CELLS < 2 * MAX_EPS0 / (MIN_GRID / 2)


@pytest.mark.parametrize(
    "claimed, extra",
    [
        ("x**1000000", []),
        ("x + (1 + x)**60 * x**60", []),
        ("x", ["--order", "1000"]),
        ("x", ["--function", "exp(x**1000) - 1"]),
    ],
)
def test_expansion_degree_and_order_are_bounded_up_front(claimed, extra, monkeypatch):
    import shufflekit.verify.expansion as expansion

    monkeypatch.setattr(expansion, "check_expansion", lambda *a, **k: pytest.fail("work started"))
    function = [] if "--function" in extra else ["--function", "exp(x) - 1"]
    code, _, err = run(["check-expansion", claimed, *function, "--at", "0", *extra])
    assert code == 2
    line = one_line(err)
    assert "above 100" in line or "<= 100" in line, line


def test_expansion_degree_bound():
    import sympy

    from shufflekit.cli.arguments import expression_degree

    x, y = sympy.symbols("x y")
    assert expression_degree(x**1000000) == 1000000
    assert expression_degree((1 + x) ** 3 * x) == 4
    assert expression_degree(sympy.exp(x**2) + y) == 2
    assert expression_degree(sympy.Integer(10) ** 50) == 0


# ------------------------------------------------------------------ Ctrl-C
def interrupted(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["run", "parse"])
def test_ctrl_c_is_one_line_and_exit_130(where, monkeypatch):
    import shufflekit.cli as cli
    import shufflekit.cli.profile as profile

    if where == "run":
        monkeypatch.setattr(profile, "run", interrupted)
    else:
        monkeypatch.setattr(cli, "build_parser", interrupted)
    try:
        code, _, err = run(["profile", "rr", "--eps0", "1", "--n", "10", "--epsilon", "1"])
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped main (a traceback on the terminal)")
    assert code == 130 and "interrupted" in one_line(err)
