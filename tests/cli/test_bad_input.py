"""Every option of every command, given a bad value, is rejected cleanly.

For each command a small valid call is taken and one option at a time is given a value outside
its range (nan, inf, words, empty list entries, huge and negative numbers, unknown choices) or
left out when it is required.  Each probe must exit with status 2 and print one line that names
the option and says what is allowed (``allowed ...`` or argparse's ``choose from ...``), with no
traceback.  The ``verify`` command (claim catalog) is probed in tests/verify.  ``sweep`` runs on a
tiny spec written to a temporary directory ({SPEC}, {CACHE} in its base call).
"""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from shufflekit.cli import build_parser, main
from tests.cli.sweep_spec import ONE_POINT_SWEEP

BASE = {
    "list": ["list", "mechanisms"],
    "mechanism": ["mechanism", "krr", "--k", "3", "--eps0", "1"],
    "latex": ["latex", "rr.basics"],
    "series": ["series", "rr.err-in-chi"],
    "profile": ["profile", "krr", "--k", "3", "--eps0", "1", "--n", "10", "--epsilon", "0.5"],
    "histogram": ["histogram", "--w0", "0.7,0.3", "--w1", "0.2,0.8", "--n", "10"],
    "design": ["design", "bmg", "--n", "100", "--epsilon", "1", "--delta", "1e-5"],
    "compose": ["compose", "rr", "--eps0", "1", "--n", "10", "--rounds", "2", "--delta", "1e-3"],
    "sweep": ["sweep", "{SPEC}", "--workers", "1", "--cache-dir", "{CACHE}"],
    "check-expansion": [
        "check-expansion",
        "x + x**2/2",
        "--function",
        "exp(x) - 1",
        "--at",
        "0",
        "--no-certify",
    ],
}
SPEC = ONE_POINT_SWEEP
BAD_NUMBERS = ["nan", "inf", "-inf", "abc", "", "-3", "1e400", "0.5,,0.5", "1/0"]
BAD_OUTPUT = ["/nonexistent/dir/out.txt", "", "/"]
FREE_TEXT = {"method", "schedule", "plot_x"}  # checked after parsing (registry, JSON, spec)
#: text options with their own syntax, and values outside it
BAD_TEXT = {
    "expression": ["", "nan", "__import__('os')", "x**", "0.5,,0.5", "10**10**10", "x.func"],
    "name": ["", "1x", "a b", "__x", "lambda"],
    "directory": ["", "/nonexistent/dir/c", "{SPEC}"],  # {SPEC}: a file, not a directory
    "plot": BAD_OUTPUT + ["plot.xyz"],
    "scheduler": ["bogus", "", "http://x"],
}
TEXT_KIND = {
    "claimed": "expression",
    "function": "expression",
    "inverse_of": "expression",
    "quantity": "expression",
    "order": "expression",
    "var": "name",
    "of": "name",
    "cache_dir": "directory",
    "plot": "plot",
    "scheduler": "scheduler",
}
#: an unknown value of a positional argument (a text that is not a name of anything)
BAD_POSITIONAL = {"check-expansion": "x**"}


def parsers() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {k: v for k, v in sub.choices.items() if k in BASE}


def without(argv: list[str], flags: list[str]) -> list[str]:
    """``argv`` with ``flag value...`` removed for each of ``flags``."""
    out, skip = [], False
    for tok in argv:
        if tok in flags:
            skip = True
            continue
        if skip and not tok.startswith("--"):
            continue
        skip = False
        out.append(tok)
    return out


def probes() -> list[tuple[str, list[str], str]]:
    """(option name, argv, kind) for every bad value of every option."""
    out = []
    for command, parser in parsers().items():
        base = BASE[command]
        for action in parser._actions:
            if action.dest in ("help", "ones_deprecated") or action.nargs == 0:
                continue
            if not action.option_strings:  # positional: an unknown name
                pos = base.index(base[1]) if len(base) > 1 and not base[1].startswith("-") else None
                if pos is not None:
                    bad = BAD_POSITIONAL.get(command, "bogus")
                    out.append((action.dest, base[:pos] + [bad] + base[pos + 1 :], "value"))
                continue
            flag = action.option_strings[-1]
            rest = without(base, action.option_strings)
            if action.required:
                out.append((flag.lstrip("-"), rest, "missing"))
            if action.dest == "output":
                values = BAD_OUTPUT
            elif action.choices:
                values = ["bogus"]
            elif action.dest in FREE_TEXT:
                values = ["bogus"]
            elif action.dest in TEXT_KIND:
                values = BAD_TEXT[TEXT_KIND[action.dest]]
            else:
                values = BAD_NUMBERS
            for v in values:  # a value that looks like an option is written --flag=value
                if action.nargs == 2:  # a pair: the bad value first
                    if v.startswith("-") and v != "-3":
                        continue  # argparse would read it as an option
                    arg = [flag, v, "1"]
                else:
                    arg = [f"{flag}={v}"] if v.startswith("-") else [flag, v]
                out.append((flag.lstrip("-"), rest + arg, "value"))
    return out


PROBES = probes()


@pytest.fixture(scope="module")
def spec_paths(tmp_path_factory):
    where = tmp_path_factory.mktemp("sweep")
    (where / "spec.toml").write_text(SPEC)
    return {"{SPEC}": str(where / "spec.toml"), "{CACHE}": str(where / "cache")}


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def test_probe_count():
    # every command of BASE contributes; the count guards against probes silently vanishing
    assert len({argv[0] for _, argv, _ in PROBES}) == len(BASE)
    assert len(PROBES) > 250


@pytest.mark.parametrize("name,argv,kind", PROBES, ids=[" ".join(a)[:70] for _, a, _ in PROBES])
def test_bad_value_is_one_clean_line(name, argv, kind, spec_paths):
    code, err = run([spec_paths.get(a, a) for a in argv])
    assert code == 2, (code, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    key = name.replace("_", "-")
    assert key in lines[0] or name in lines[0], lines[0]
    if kind == "value":
        assert "allowed" in lines[0] or "choose from" in lines[0], lines[0]
