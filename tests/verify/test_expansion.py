"""The expansion checker confirms right expansions and catches wrong coefficients, skipped
terms and wrong orders, symbolically and numerically; its certified bound is a true bound."""

import json

import mpmath as mp
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.cli import main
from shufflekit.errors import InvalidParameter
from shufflekit.verify.expansion import check_expansion, parse_terms

V = "exp(4/sigma0**2) - 2*exp(2/sigma0**2) + exp(sigma0**(-2))"  # Takagi-Liew 2026, eq. (var-ell0-gauss)
REVERSION = dict(var="chi", at="oo", inverse_of=f"({V})**(-1/2)", of="sigma0", quantity="sigma0**2")


def test_parse_terms_with_rational_exponents_and_logs():
    x = sp.Symbol("x", positive=True)
    terms = parse_terms("3*x**(3/2) - log(x)**2/x + 1/4", x)
    got = {(t.exponent, t.log_power): t.coefficient for t in terms}
    assert got == {(sp.Rational(3, 2), 0): 3, (-1, 2): -1, (0, 0): sp.Rational(1, 4)}
    with pytest.raises(InvalidParameter, match="claimed"):
        parse_terms("sin(x)", x)


def test_gaussian_local_reversion_is_confirmed():
    rep = check_expansion(None, "chi**2 + 9/2 - 145/12*chi**-2", certify=False, **REVERSION)
    assert rep.verdict == "confirmed"
    assert [r.symbolic for r in rep.terms] == ["confirmed"] * 3
    assert [r.numeric for r in rep.terms] == ["confirmed"] * 3
    assert rep.order == -4  # the next derived exponent (651/8 chi^-4)
    # a fitted slope over two decades of chi; 0.1 is far below the gap of 2 between exponents
    assert abs(rep.last_slope - (-4)) < 0.1


def test_gaussian_local_reversion_with_a_wrong_coefficient_is_refuted():
    rep = check_expansion(None, "chi**2 + 9/2 - 143/12*chi**-2", certify=False, **REVERSION)
    assert rep.verdict == "refuted"
    bad = rep.terms[2]
    assert bad.symbolic == "refuted" and bad.derived == sp.Rational(-145, 12)
    assert bad.numeric == "refuted"
    assert rep.terms[0].symbolic == rep.terms[1].symbolic == "confirmed"


def test_skipped_term_is_reported_missing():
    rep = check_expansion(
        "chi**2 + sqrt(4*chi**2 + 1)/2 - 1/2", "chi**2 - 1/2", "chi", certify=False
    )
    assert rep.verdict == "refuted"
    assert [sp.sstr(t.coefficient) for t in rep.missing] == ["1"]


def test_at_zero_and_dps_is_honoured():
    rep = check_expansion("exp(x) - 1", "x + x**2/2", "x", at=0, dps=30, certify=False)
    assert rep.verdict == "confirmed" and rep.dps == 30 and rep.at == "0"
    assert abs(rep.last_slope - 3) < 0.05  # next term x^3/6; 0.05 allows the x^4 correction
    with pytest.raises(InvalidParameter, match="dps"):
        check_expansion("exp(x) - 1", "x", "x", at=0, dps=5)


def test_log_terms_by_successive_limits():
    ok = check_expansion("x*log(1 + 1/x)*log(x)", "log(x) - log(x)/(2*x)", "x", dps=40)
    assert ok.verdict == "confirmed"
    wrong = check_expansion("x*log(1 + 1/x)*log(x)", "log(x) - log(x)/(3*x)", "x", dps=40)
    assert wrong.verdict == "refuted" and wrong.terms[1].symbolic == "refuted"


def test_callable_function_gets_numeric_checks_only():
    rep = check_expansion(lambda t: t**2 + 3 + 1 / t, "x**2 + 3", "x", order=-1, dps=30)
    assert [r.symbolic for r in rep.terms] == ["not-symbolic"] * 2
    assert rep.verdict == "confirmed" and rep.certified is None
    wrong = check_expansion(lambda t: t**2 + 3 + 1 / t, "x**2 + 2", "x", order=-1, dps=30)
    assert wrong.verdict == "refuted" and wrong.terms[1].numeric == "refuted"


@pytest.mark.slow
def test_certified_bound_holds_at_sample_points():
    rep = check_expansion(
        "chi**2 + sqrt(4*chi**2 + 1)/2 - 1/2",
        "chi**2 + chi - 1/2 + 1/(8*chi)",
        "chi",
        certify_range=(20, 60),
        dps=40,
    )
    c = rep.certified
    assert c is not None and c.order == -3
    with mp.workdps(40):
        for chi in (20, 27, 33.5, 47, 60):
            chi = mp.mpf(chi)
            exact = chi**2 + mp.sqrt(4 * chi**2 + 1) / 2 - mp.mpf(1) / 2
            rem = exact - (chi**2 + chi - mp.mpf(1) / 2 + 1 / (8 * chi))
            assert abs(rem) <= c.constant * chi**-3
    # the true constant is 1/128 (next term -chi^-3/128); C stops within 1% of the maximum
    assert 1 / 128 <= c.constant < 1.02 / 128


@pytest.mark.slow
def test_certified_bound_of_the_reversion():
    rep = check_expansion(None, "chi**2 + 9/2 - 145/12*chi**-2", certify_range=(5, 20), **REVERSION)
    c = rep.certified
    assert c is not None and c.order == -4 and "monotone" in c.note
    # sample |sigma0^2 - S(chi)| chi^4 along sigma0 (chi = V^(-1/2) explicit): C bounds every sample,
    # and the search stops within 1% of the maximum (2% allows for the sampling missing the peak)
    with mp.workdps(50):
        samples = []
        for i in range(41):
            s0 = mp.mpf(5.3958013) + (mp.mpf(20.111447) - mp.mpf(5.3958013)) * i / 40
            a = 1 / s0**2
            chi = (mp.exp(4 * a) - 2 * mp.exp(2 * a) + mp.exp(a)) ** mp.mpf(-0.5)
            if 5 <= chi <= 20:
                samples.append(
                    abs(s0**2 - (chi**2 + mp.mpf(9) / 2 - mp.mpf(145) / 12 / chi**2)) * chi**4
                )
    assert all(v <= c.constant for v in samples)
    assert c.constant < 1.02 * float(max(samples))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(-20, 20).filter(lambda k: k != 0), st.integers(1, 9))
def test_any_wrong_constant_is_caught(num, den):
    wrong = 4 + sp.Rational(num, den * 10)  # the true constant term is 4
    rep = check_expansion(
        "chi**2 + sqrt(4*chi**2 + 1)/2 + 4", f"chi**2 + chi + {wrong}", "chi", certify=False, dps=30
    )
    assert rep.verdict == "refuted"
    assert rep.terms[2].symbolic == "refuted"


def test_cli_confirms_and_refutes(capsys):
    base = [
        "check-expansion",
        "--var",
        "chi",
        "--inverse-of",
        f"({V})**(-1/2)",
        "--of",
        "sigma0",
        "--quantity",
        "sigma0**2",
        "--no-certify",
    ]
    assert main(base[:1] + ["chi**2 + 9/2 - 145/12*chi**-2"] + base[1:] + ["--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["verdict"] == "confirmed" and payload["terms"][2]["derived"] == "-145/12"
    assert main(base[:1] + ["chi**2 + 9/2 - 143/12*chi**-2"] + base[1:]) == 1
    out = capsys.readouterr().out
    assert "refuted" in out and "-145/12" in out
    assert main(base[:1] + ["chi**2"] + base[1:] + ["--dps", "4"]) == 2
    assert (
        main(
            [
                "check-expansion",
                "x",
                "--function",
                "exp(x) - 1",
                "--at",
                "0",
                "--format",
                "latex",
                "--no-certify",
            ]
        )
        == 0
    )
    assert r"\begin{tabular}" in capsys.readouterr().out


def test_cli_csv_and_output_file(tmp_path, capsys):
    out = tmp_path / "e.csv"
    assert (
        main(
            [
                "check-expansion",
                "x + x**2/2",
                "--function",
                "exp(x) - 1",
                "--at",
                "0",
                "--no-certify",
                "--format",
                "csv",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    lines = out.read_text().splitlines()
    assert lines[0].startswith("term,exponent,log_power,claimed,derived,symbolic")
    assert len(lines) == 3 and all(",confirmed," in ln for ln in lines[1:])


@pytest.mark.parametrize(
    "args, needle",
    [
        (["x", "--function", "__import__('os')"], "function="),  # never evaluated as Python
        (["x", "--function", "open(1)"], "'open' is not allowed"),
        (["x", "--function", "y + x"], "function="),  # a second variable
        (["x", "--function", "x", "--var", "1x"], "var="),
        (["x", "--function", "x", "--grid", "2", "1"], "LO < HI"),
        (["x", "--function", "x", "--points", "2"], "points=2"),
        (["x", "--function", "x", "--budget", "0"], "budget=0"),
        (["x", "--inverse-of", "u**2"], "of="),
        (["10**10**10", "--function", "x"], "claimed="),
    ],
)
def test_cli_bad_input_is_one_line(args, needle, capsys):
    assert main(["check-expansion", *args, "--no-certify"]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "allowed" in err and "\n" not in err, err


def test_a_hidden_log_factor_breaks_the_claimed_order():
    # coefficients right, but the remainder is x^(3/2) log x, not O(x^(3/2))
    rep = check_expansion(
        "sqrt(x) + x + x**(3/2)*log(x)", "x**(1/2) + x", "x", at=0, order="3/2", certify=False
    )
    assert [r.symbolic for r in rep.terms] == ["confirmed", "confirmed"]
    assert rep.verdict == "refuted" and any("near the limit" in n for n in rep.notes)
    full = check_expansion(
        "sqrt(x) + x + x**(3/2)*log(x)",
        "x**(1/2) + x + x**(3/2)*log(x)",
        "x",
        at=0,
        order="3/2",
        certify=False,
    )
    assert full.verdict == "confirmed"
