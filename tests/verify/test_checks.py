"""The shared check kinds can say both yes and no."""

import math

import sympy as sp

from shufflekit.verify import checks


def test_exact_identity_both_ways():
    x = sp.Symbol("x")
    assert checks.exact_identity((x + 1) ** 2, x**2 + 2 * x + 1).verdict == "confirmed"
    assert checks.exact_identity(sp.Rational(651, 8), sp.Rational(650, 8)).verdict == "refuted"


def test_printed_digits():
    assert checks.printed_digits(1.5664, "1.566").verdict == "confirmed"
    assert checks.printed_digits(1.5672, "1.566").verdict == "imprecise"  # one unit off
    assert checks.printed_digits(1.60, "1.566").verdict == "refuted"
    assert checks.printed_digits(8.957e-3, "8.96e-3").verdict == "confirmed"
    assert checks.printed_digits(0.2004, "20.0%").verdict == "confirmed"


def test_remainder_order_detects_wrong_rate():
    grid = [10.0 * 2**i for i in range(6)]
    ok = checks.remainder_order(lambda x: 3 / x**2, grid, -2.0)
    assert ok.verdict == "confirmed" and math.isclose(ok.values["slope"], -2.0, abs_tol=1e-9)
    slow = checks.remainder_order(lambda x: 3 / x, grid, -2.0)
    assert slow.verdict == "refuted"


def test_sandwich_and_inequality():
    assert checks.sandwich([("a", 0.1, 0.2, 0.3)]).verdict == "confirmed"
    assert checks.sandwich([("a", 0.1, 0.4, 0.3)]).verdict == "refuted"
    assert checks.inequality_holds(range(5), lambda v: v < 3, what="v < 3").verdict == "refuted"


def test_property_holds_finds_and_shrinks_counterexamples():
    from hypothesis import strategies as st

    from shufflekit.verify.claims import CheckContext

    ctx = CheckContext(quick=True)
    ok = checks.property_holds(st.integers(0, 100), lambda v: v >= 0, ctx, what="nonneg")
    assert ok.verdict == "confirmed" and ok.values["checked"] > 5
    bad = checks.property_holds(st.integers(0, 100), lambda v: v < 50, ctx, what="small")
    assert bad.verdict == "refuted" and bad.values["counterexample"] == "50"
