"""Bound: outward rounding of Arb balls, the safe end, and the JSON point shape."""

import math

import pytest
from flint import arb
from hypothesis import given
from hypothesis import strategies as st

from shufflekit.numeric.bound import Bound, Kind, interval_of_arb


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.integers(-300, 300))
def test_interval_of_arb_contains_the_exact_rational(p, q, e10):
    from fractions import Fraction

    ball = arb(p) / q * arb(10) ** e10
    lo, hi = interval_of_arb(ball)
    exact = Fraction(p, q) * Fraction(10) ** e10
    # floats convert to Fractions exactly, so this comparison has no rounding of its own
    assert Fraction(lo) <= exact <= Fraction(hi)
    assert 0.0 <= lo <= hi and hi > 0.0  # a positive number never rounds up to 0


def test_interval_of_arb_is_outward_and_never_underflows_to_zero():
    from fractions import Fraction

    lo, hi = interval_of_arb(arb(1) / 3)
    assert Fraction(lo) < Fraction(1, 3) < Fraction(hi)
    assert interval_of_arb(arb("1e-400")) == (0.0, math.nextafter(0.0, 1.0))
    assert interval_of_arb(-arb("1e-400")) == (-math.nextafter(0.0, 1.0), 0.0)


@pytest.mark.parametrize(
    "kind, expected",
    [("upper", 0.3), ("lower", 0.1), ("exact", 0.2), ("asymptotic", 0.2), ("heuristic", 0.2)],
)
def test_value_is_the_safe_end(kind, expected):
    b = Bound("delta", 1.0, 0.1, 0.3, kind, "m", "replace-one")
    assert b.value == pytest.approx(expected, rel=1e-15)  # midpoint of floats: one rounding
    assert b.kind is Kind(kind)
    assert b.certified == (kind in ("upper", "lower", "exact"))


def test_point_shape_and_quantities():
    d = Bound("delta", 0.5, 1e-7, 2e-7, "upper", "blanket", "zero-out")
    e = Bound("epsilon", 1e-6, 0.03, 0.031, "upper", "blanket", "zero-out")
    assert (d.epsilon, d.delta) == (0.5, 2e-7)
    assert (e.epsilon, e.delta) == (0.031, 1e-6)
    p = e.point()
    assert {"epsilon", "delta", "bound", "error", "lo", "hi", "adjacency", "pairs"} <= set(p)
    assert p["bound"] == "upper" and p["adjacency"] == "zero-out"


@pytest.mark.parametrize("lo, hi", [(0.2, 0.1), (math.nan, 0.1), (0.0, math.nan)])
def test_invalid_enclosure_rejected(lo, hi):
    with pytest.raises(ValueError, match="enclosure"):
        Bound("delta", 0.5, lo, hi, "upper", "m", "replace-one")


def test_from_arb_clips_delta_to_unit_interval():
    b = Bound.from_arb("delta", 0.1, arb(2), kind="upper", method="m", adjacency="replace-one")
    assert b.hi == 1.0
