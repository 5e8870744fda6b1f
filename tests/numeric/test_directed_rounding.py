"""Directed conversion to float64: exact, safe-side, for every certified number type.

Properties, checked with exact rational arithmetic (floats convert to ``Fraction`` exactly, so
no comparison here rounds): ``float_up(x)`` is the least float not below ``x`` and
``float_down(x)`` the greatest float not above it, from the subnormal range to beyond the
largest float.  A source scan keeps every certified module on these helpers.
"""

from __future__ import annotations

import ast
import math
import pathlib
from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx
from hypothesis import given
from hypothesis import strategies as st

from shufflekit.numeric.kernels.directed_rounding import MAX_FLOAT, float_down, float_up

TINY = math.nextafter(0.0, 1.0)

# rationals from 10^-1500 to 10^400: far below the smallest subnormal and beyond the largest float
rationals = st.builds(
    lambda p, q, e: Fraction(p, q) * Fraction(10) ** e,
    st.integers(-(10**9), 10**9),
    st.integers(1, 10**9),
    st.integers(-1500, 400),
)


def _arb_of(x: Fraction) -> arb:
    """An Arb ball containing ``x`` (at 200 bits, so it is not exact for most ``x``)."""
    with ctx.workprec(200):
        return arb(x.numerator) / arb(x.denominator)


def _check_up(x: Fraction, f: float) -> None:
    if math.isinf(f):
        assert f > 0 and x > Fraction(MAX_FLOAT)
        return
    assert Fraction(f) >= x
    below = math.nextafter(f, -math.inf)
    assert math.isinf(below) or Fraction(below) < x


def _check_down(x: Fraction, f: float) -> None:
    if math.isinf(f):
        assert f < 0 and x < -Fraction(MAX_FLOAT)
        return
    assert Fraction(f) <= x
    above = math.nextafter(f, math.inf)
    assert math.isinf(above) or Fraction(above) > x


@given(rationals)
def test_fractions_round_to_the_adjacent_float_on_the_safe_side(x):
    _check_up(x, float_up(x))
    _check_down(x, float_down(x))


@given(rationals)
def test_arb_balls_round_outward_past_their_whole_ball(x):
    ball = _arb_of(x)
    _check_up(_exact(ball.upper()), float_up(ball))
    _check_down(_exact(ball.lower()), float_down(ball))


def _exact(end: arb) -> Fraction:
    man, exp = (int(v) for v in end.mid().man_exp())
    return Fraction(man) * Fraction(2) ** exp


@pytest.mark.parametrize(
    "x, up, down",
    [
        (arb(10) ** -1360, TINY, 0.0),  # underflow never certifies 0 from above
        (-(arb(10) ** -1360), -0.0, -TINY),
        (arb(0), 0.0, 0.0),
        (arb(10) ** 400, math.inf, MAX_FLOAT),
        (Fraction(1, 10), 0.1, math.nextafter(0.1, 0.0)),  # the float 0.1 is above 1/10
        (10**400, math.inf, MAX_FLOAT),
        (mpmath.mpf(2) ** -1100, TINY, 0.0),
    ],
)
def test_edge_values(x, up, down):
    assert float_up(x) == up and float_down(x) == down


def test_nan_and_unbounded_balls():
    assert float_up(arb("nan")) == math.inf and float_down(arb("nan")) == -math.inf
    with pytest.raises(ValueError):
        float_up(float("nan"))


# ------------------------------------------------------------------------- source scan
NUMERIC = pathlib.Path(__file__).resolve().parents[2] / "shufflekit" / "numeric"


def _endpoint_conversions(path: pathlib.Path) -> list[str]:
    """``float(<expr>.upper())`` / ``float(<expr>.lower())`` calls in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "float"
            and len(node.args) == 1
        ):
            arg = node.args[0]
            if (
                isinstance(arg, ast.Call)
                and isinstance(arg.func, ast.Attribute)
                and arg.func.attr in ("upper", "lower")
                and not arg.args
            ):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_scan_finds_an_endpoint_conversion(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(b):\n    return float(b.upper()) + float((b * 2).lower())\n")
    assert _endpoint_conversions(bad) == ["bad.py:2", "bad.py:2"]


@pytest.mark.parametrize("module", sorted(p.name for p in NUMERIC.glob("*.py")))
def test_certified_modules_convert_arb_endpoints_only_by_directed_rounding(module):
    """``float()`` of an Arb endpoint rounds to nearest (and underflows to 0); every such
    conversion must be ``float_up``/``float_down``."""
    assert _endpoint_conversions(NUMERIC / module) == []
