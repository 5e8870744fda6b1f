"""Directed conversion is exact, not one step outward: a value that already is a float comes
back unchanged from both directions (a ``<=`` in place of the exact ``<`` test would move it
one ulp, still on the safe side but no longer the least / greatest float)."""

from __future__ import annotations

import math

import mpmath
import pytest

from shufflekit.numeric.kernels.directed_rounding import MAX_FLOAT, float_down, float_up

TINY = math.nextafter(0.0, 1.0)


@pytest.mark.parametrize(
    "x",
    [
        1.0,
        0.1,
        -0.1,
        0.0,
        TINY,
        -TINY,
        MAX_FLOAT,
        -MAX_FLOAT,
        mpmath.mpf(0.1),
        mpmath.mpf(-3),
        mpmath.mpf(2) ** -1074,
    ],
)
def test_a_value_that_is_a_float_converts_to_itself(x):
    # no tolerance: both conversions are exact comparisons, so equality is the specification
    assert float_up(x) == float(x)
    assert float_down(x) == float(x)
