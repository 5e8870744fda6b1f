"""Fuzz the command line: argument lists generated from the parser itself.

Every generated call must end with exit status 0, 2 (bad input) or 3 (cannot certify), print no
traceback, print at most one line on stderr when it fails, write standard JSON when asked for
JSON, and finish within a time limit.  Values mix sensible ones with empty list entries,
nan/inf, words, huge and tiny numbers; options are left out at random (so required ones go
missing).  The ``verify`` command runs the claim catalog and is exercised by tests/verify.
``sweep`` runs a one-point spec written to a temporary directory, always with ``--workers 1``
and a temporary cache (a Dask cluster per call would dominate the run time), and its plot goes
to an unwritable path; ``check-expansion`` may also exit 1 (a refuted or undecided claim).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shufflekit.cli import build_parser, main
from tests.cli.sweep_spec import ONE_POINT_SWEEP

#: wall-clock limit of one call: the slowest generated call takes about 5 s of CPU (a joint
#: composition of two 4-ary k-RR described exactly); the margin is for a shared, loaded machine
CALL_SECONDS = 30

GOOD = {
    "name": [
        "rr",
        "krr",
        "blh",
        "rappor",
        "oue",
        "hr",
        "joint-krr",
        "privunit",
        "gaussian-local",
        "bmg",
        "finite",
        "central-gaussian",
    ],
    "k": ["2", "3", "4"],
    "m": ["1", "2"],
    "eps0": ["0.5", "1", "log(3)", "1/2"],
    "p": ["0.6", "0.75"],
    "theta": ["0", "0.2", "-0.5"],
    "d": ["1", "3"],
    "gamma": ["0.3", "1"],
    "sigma0": ["1", "2"],
    "matrix": ["0.7,0.3;0.2,0.8", "1,0;0.5,0.5"],
    "sigma": ["100", "2"],
    "noise_multiplier": ["3000", "5"],
    "n": ["10", "100", "2"],
    "epsilon": ["0.5", "1", "0"],
    "delta": ["1e-3", "0.5"],
    "grid": ["0.01"],
    "order": ["3", "1"],
    "w0": ["0.7,0.3", "0.5,0.25,0.25"],
    "w1": ["0.2,0.8", "0.1,0.1,0.8"],
    "ones": ["0", "3"],
    "ids": ["rr.basics", "hcr.rr", "bmg.chi-lo"],
    "id": ["rr.err-in-chi", "bmg.chi-lo", "privunit.constant"],
    "method": ["blanket", "exact", "gdp", "certified", "index", "nope"],
    "rounds": ["1", "2", "3"],
    "tail": ["1e-12"],
    "schedule": [
        '[{"name": "rr", "eps0": 1, "n": 10, "rounds": 2}]',
        '[{"name": "krr", "k": 3, "eps0": "1/2", "n": 20}]',
        "[]",
        '[{"n": 1}]',
    ],
    "claimed": ["x + x**2/2", "x", "1/x + x**-2", "x + x**2/3"],
    "function": ["exp(x) - 1", "log(1 + x)", "x + 1/x"],
    "inverse_of": ["x**2 + x", "exp(u)"],
    "quantity": ["u", "u**2"],
    "of": ["u", "x"],
    "var": ["x", "y"],
    "dps": ["15", "30"],
    "points": ["3", "5"],
    "budget": ["10", "100"],
    "certify_range": ["0.01", "0.1", "2"],
    "plot_x": ["k", "n"],
    "spec": [],  # filled with the temporary spec by the sweep_spec fixture
}
BAD = [
    "",
    " ",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "abc",
    "1e308",
    "1e-308",
    "-3",
    "0",
    "-0",
    "1e400",
    "0.5,,0.5",
    ",",
    ";",
    "0.7,,0.3;0.2,0.8",
    "99999999999999999999",
    "1/0",
    "log(-1)",
    "oo",
    "x**2",
    "2**99999",
    "__import__('os')",
    "1e6",
    "3.5",
    "-1e-300",
]
SKIP_DEST = {"help", "version", "command", "func", "ones_deprecated"}
#: options that start long legitimate computations; their behaviour is covered elsewhere
SKIP_OPTION = {"--all", "--document"}
#: sweep options the fuzz sets itself: serial, a temporary cache, a plot that cannot be written
SWEEP_FIXED = {"workers", "cache_dir", "plot", "scheduler"}
SWEEP_SPEC = ONE_POINT_SWEEP
SWEEP_DIR: dict[str, str] = {}


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {k: v for k, v in sub.choices.items() if k != "verify"}


PARSERS = subparsers()


def value(action: argparse.Action):
    """A strategy for one value of ``action``: its choices, a good value or a bad one."""
    good = list(action.choices) if action.choices else GOOD.get(action.dest, ["1"])
    return st.one_of(
        st.sampled_from(good), st.sampled_from(good), st.sampled_from(BAD), st.text(max_size=6)
    )


@st.composite
def argv(draw):
    command = draw(st.sampled_from(sorted(PARSERS)))
    args = [command]
    for action in PARSERS[command]._actions:
        if action.dest in SKIP_DEST or set(action.option_strings) & SKIP_OPTION:
            continue
        if command == "sweep" and action.dest in SWEEP_FIXED:
            continue
        if not action.option_strings:  # positional
            if action.nargs in ("*", "?") and draw(st.booleans()):
                continue
            args.append(draw(value(action)))
            continue
        if not draw(st.integers(0, 2)):  # leave out (1 in 3)
            continue
        flag = draw(st.sampled_from(action.option_strings))
        if action.dest == "output":
            args += [flag, draw(st.sampled_from(["/nonexistent/dir/out.txt", "", "/"]))]
        elif action.nargs == 0:
            args.append(flag)
        elif action.nargs in ("+", "*"):
            args += [flag, *draw(st.lists(value(action), min_size=1, max_size=3))]
        elif isinstance(action.nargs, int):
            args += [flag, *(draw(value(action)) for _ in range(action.nargs))]
        else:
            args += [flag, draw(value(action))]
    if command == "sweep":
        args += ["--workers", "1", "--cache-dir", SWEEP_DIR["cache"]]
        if draw(st.booleans()):
            args += ["--plot", draw(st.sampled_from(["/nonexistent/dir/p.png", "", "/"]))]
    return args


@pytest.fixture(scope="module", autouse=True)
def sweep_spec(tmp_path_factory):
    where = tmp_path_factory.mktemp("fuzz-sweep")
    (where / "spec.toml").write_text(SWEEP_SPEC)
    SWEEP_DIR["cache"] = str(where / "cache")
    GOOD["spec"] = [str(where / "spec.toml"), str(where / "none.toml")]
    yield
    GOOD["spec"] = []


#: valid calls of the commands that compute (most calls of ``argv`` stop at a bad value)
EPS0 = ["0.5", "1", "log(3)", "1/2"]


@st.composite
def compose_call(draw):
    """A valid ``compose`` call: a mechanism (or a schedule), rounds, targets, options."""
    kind = draw(st.sampled_from(["rr", "krr", "central-gaussian", "schedule"]))
    if kind == "rr":
        args = ["rr", "--eps0", draw(st.sampled_from(EPS0))]
    elif kind == "krr":
        args = [
            "krr",
            "--k",
            draw(st.sampled_from(["2", "3", "5"])),
            "--eps0",
            draw(st.sampled_from(EPS0)),
        ]
    elif kind == "central-gaussian":
        args = [
            "central-gaussian",
            *draw(
                st.sampled_from([["--sigma", "2"], ["--sigma", "0.5"], ["--noise-multiplier", "5"]])
            ),
        ]
    else:
        args = ["schedule", "--schedule", draw(st.sampled_from(GOOD["schedule"][:2]))]
    if kind != "schedule":
        args += [
            "--n",
            draw(st.sampled_from(["10", "100", "1000"])),
            "--rounds",
            draw(st.sampled_from(["1", "2", "5", "50"])),
        ]
    targets = draw(st.sampled_from([["--epsilon"], ["--delta"], ["--epsilon", "--delta"]]))
    for flag in targets:
        vals = ["0", "0.5", "1", "3"] if flag == "--epsilon" else ["1e-3", "1e-6", "0.5"]
        args += [flag, *draw(st.lists(st.sampled_from(vals), min_size=1, max_size=3))]
    if kind == "rr" and draw(st.booleans()):
        args.append("--lower")
    if draw(st.booleans()):
        args += ["--grid", draw(st.sampled_from(["0.01", "0.003"]))]
    if draw(st.booleans()):
        args += ["--tail", draw(st.sampled_from(["1e-12", "1e-20"]))]
    return ["compose", *args, "--format", draw(st.sampled_from(["table", "json", "csv"]))]


@st.composite
def check_expansion_call(draw):
    """A valid ``check-expansion`` call: a right or a wrong claim about a known function."""
    claim, at = draw(
        st.sampled_from(
            [
                (["x + x**2/2", "--function", "exp(x) - 1"], "0"),
                (["x + x**2/3", "--function", "exp(x) - 1"], "0"),
                (["x - x**2/2", "--function", "log(1 + x)"], "0"),
                (["1/x - 1/(2*x**2)", "--function", "log(1 + 1/x)"], "oo"),
                (["x**(1/2) - 1/2", "--inverse-of", "u**2 + u", "--of", "u"], "oo"),
            ]
        )
    )
    args = ["check-expansion", *claim, "--at", at]
    if draw(st.booleans()):
        args += ["--dps", draw(st.sampled_from(["15", "30"]))]
    if draw(st.booleans()):
        args += ["--points", draw(st.sampled_from(["3", "8"]))]
    args += draw(st.sampled_from([["--no-certify"], ["--budget", "200"]]))
    return args + ["--format", draw(st.sampled_from(["table", "json", "csv", "latex"]))]


@st.composite
def sweep_call(draw):
    """A valid ``sweep`` call on the one-point spec, serial, in a temporary cache."""
    args = ["sweep", GOOD["spec"][0], "--workers", "1", "--cache-dir", SWEEP_DIR["cache"]]
    for flag in ("--no-cache", "--dry-run"):
        if draw(st.booleans()):
            args.append(flag)
    if draw(st.booleans()):
        args += ["--plot-x", draw(st.sampled_from(["k", "n"]))]
    return args + ["--format", draw(st.sampled_from(["table", "json", "csv", "jsonl"]))]


class CallTimeout(BaseException):
    """Raised by the alarm; a BaseException so that the command line's own handlers (which turn
    every Exception into one line and an exit status) cannot swallow it."""


def quick_design(n, epsilon, delta, d=1, **_):
    """Stand-in for the BMG design search (tens of seconds per call on a loaded machine): same
    input checks, a fixed design.  The fuzz test is about the command line, not the optimiser."""
    from shufflekit.numeric.design.bmg_design import Design
    from shufflekit.validation import check_delta, check_epsilon, check_n

    n, epsilon, delta = check_n(n), check_epsilon(epsilon), check_delta(delta)
    return Design(n, epsilon, delta, 0.2, 1.5, 0.2, delta / 2, 0.7, 0.07, d)


@pytest.fixture(autouse=True)
def fast_design(monkeypatch):
    from shufflekit.numeric.design import bmg_design

    monkeypatch.setattr(bmg_design, "design_for_privacy", quick_design)
    monkeypatch.setattr(bmg_design, "design_by_index", quick_design)


def run(args: list[str]) -> tuple[int, str, str]:
    def alarm(signum, frame):
        raise CallTimeout(" ".join(args))

    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(CALL_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue(), err.getvalue()


def strict_json(text: str):
    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


TALLY = {"tried": 0, "clean": 0}


def check(args: list[str]) -> None:
    TALLY["tried"] += 1
    code, out, err = run(args)
    refuted = args[0] == "check-expansion" and code == 1 and "internal error" not in err
    assert code in (0, 2, 3) or refuted, (args, code, err[-2000:])
    assert "Traceback" not in err, (args, err[-2000:])
    if code in (2, 3):
        lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("\r")]
        assert len(lines) == 1, (args, err)
        assert lines[0].startswith("shufflekit"), (args, err)
    if code in (0, 1) and "json" in args and "-o" not in args and "--output" not in args:
        strict_json(out)
    TALLY["clean"] += 1


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(argv())
def test_fuzz_cli(args):
    check(args)


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(compose_call(), check_expansion_call(), sweep_call()))
def test_fuzz_valid_calls_of_the_computing_commands(args):
    """Valid calls run to the end: exit 0 (1 for a refuted claim), standard JSON, in time."""
    check(args)


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(compose_call(), check_expansion_call(), sweep_call()))
def test_fuzz_valid_calls_more(args):
    check(args)


@pytest.mark.slow
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(argv())
def test_fuzz_cli_more(args):
    check(args)


#: the bad-input probes named in the issue (one per line of its list)
PROBES = [
    ["design", "bmg", "--n", "100", "--epsilon", "1", "--delta", "1e-5", "--d", "0"],
    ["mechanism", "bmg", "--gamma", "0.5", "--sigma0", "inf"],
    ["mechanism", "krr", "--k", "3", "--eps0", "1", "--epsilon", "nan"],
    ["mechanism", "privunit", "--p", "1", "--theta", "0", "--d", "3"],
    ["mechanism", "rr", "--eps0", "1", "-o", "/nonexistent/dir/x.json"],
    ["design", "bmg", "--n", "100", "--epsilon", "1", "--delta", "1e-5", "--d", "-3"],
    ["histogram", "--w0", "0.5,,0.5", "--w1", "0.5,0.5", "--n", "10"],
    ["mechanism", "finite", "--matrix", "0.7,,0.3;0.2,0.8"],
    ["mechanism", "krr", "--k", "3", "--eps0", "1", "--epsilon", "inf"],
    ["mechanism", "krr", "--k", "3", "--eps0", "1", "--epsilon", "abc"],
    ["profile", "krr", "--k", "3", "--eps0", "inf", "--n", "10", "--epsilon", "1"],
    ["series", "nope"],
    ["latex"],
]


UNCERTIFIABLE = [
    # an asymptotic method has no dominating pair, so its rounds cannot be composed with a proof
    [
        "compose",
        "bmg",
        "--gamma",
        "0.5",
        "--sigma0",
        "1",
        "--n",
        "10",
        "--method",
        "bmg-asymptotic",
        "--delta",
        "1e-6",
    ],
]


@pytest.mark.parametrize("args", UNCERTIFIABLE, ids=lambda a: " ".join(a)[:60])
def test_valid_but_uncertifiable_exits_3(args):
    """A valid call whose bound cannot be certified: exit 3, one line saying so.  (The BMG
    profile at delta = 1e-300 used to be such a call; the blanket bound capped by the
    single-report divergence now certifies it, so it is no longer one.)"""
    code, out, err = run(args)
    assert code == 3 and "cannot certify" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("args", PROBES, ids=lambda a: " ".join(a)[:60])
def test_issue_probes(args):
    code, out, err = run(args)
    assert code == 2, (code, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "allowed" in err, err
