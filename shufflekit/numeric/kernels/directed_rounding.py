r"""Directed conversion to float64: the one way a certified number becomes a float.

A certified quantity (an Arb ball, an exact rational, an ``mpf``, an integer) is reported as
float64 only through :func:`float_up` (for what bounds *from above*) and :func:`float_down`
(for what bounds *from below*).  Both are exact comparisons, not "one ulp outward":

* :math:`\mathrm{float\_up}(x)` is the least float :math:`\ge` every point of :math:`x`
  (``inf`` past the largest float), so it never underflows to a value below a positive
  number: :math:`10^{-1360}` becomes the smallest subnormal :math:`2^{-1074}`, not ``0.0``;
* :math:`\mathrm{float\_down}(x)` is the greatest float :math:`\le` every point of :math:`x`
  (``-inf`` past the most negative float), so a positive number never rounds up past itself.

For a ball :math:`[m \pm r]` the relevant end is the exact Arb endpoint ``upper()`` or
``lower()``; ``float()`` of that endpoint rounds to nearest, and one exact comparison with the
candidate float decides whether one step outward is needed.  Python floats, ``Fraction`` and
``int`` compare exactly with each other, and ``mpf`` values compare exactly with floats, so the
same test works for every type.  A test of the package checks that no certified module
converts an Arb endpoint to float any other way.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from flint import arb

__all__ = ["float_up", "float_down", "interval_of_arb", "round_up", "round_down"]

MAX_FLOAT = 1.7976931348623157e308


def round_down(x: float) -> float:
    """The float just below ``x`` (``x`` itself for -inf/nan)."""
    return math.nextafter(x, -math.inf) if math.isfinite(x) else x


def round_up(x: float) -> float:
    """The float just above ``x`` (``x`` itself for +inf/nan)."""
    return math.nextafter(x, math.inf) if math.isfinite(x) else x


def _nearest(x: Any) -> float:
    """``x`` rounded to a float (to nearest; +-inf past the largest float)."""
    try:
        return float(x)
    except OverflowError:  # Fraction / int beyond the float range
        return math.inf if x > 0 else -math.inf


def _exact_end(x: Any, upper: bool) -> Any:
    """The exact end of ``x`` on the requested side (an exact ``arb``, or ``x`` itself)."""
    if isinstance(x, arb):
        if not x.is_finite():
            return None
        return x.upper() if upper else x.lower()
    if isinstance(x, float):
        if math.isnan(x):
            raise ValueError("a certified quantity is NaN")
        return x
    return x


def _below(f: float, exact: Any) -> bool:
    """Exact test ``f < exact`` for a float ``f``."""
    if isinstance(exact, arb):
        return arb(f) < exact
    if isinstance(exact, (int, Fraction)):
        return Fraction(f) < exact
    return f < exact  # float, mpf: exact mixed comparison


def _above(f: float, exact: Any) -> bool:
    """Exact test ``f > exact`` for a float ``f``."""
    if isinstance(exact, arb):
        return arb(f) > exact
    if isinstance(exact, (int, Fraction)):
        return Fraction(f) > exact
    return f > exact


def float_up(x: Any) -> float:
    """The least float64 that is ``>=`` every point of ``x`` (``inf`` if none or unbounded)."""
    end = _exact_end(x, upper=True)
    if end is None:
        return math.inf
    f = _nearest(end)
    if math.isinf(f):  # beyond the float range
        return math.inf if f > 0 else -MAX_FLOAT
    if _below(f, end):
        f = math.nextafter(f, math.inf)
    return f


def float_down(x: Any) -> float:
    """The greatest float64 that is ``<=`` every point of ``x`` (``-inf`` if none or unbounded)."""
    end = _exact_end(x, upper=False)
    if end is None:
        return -math.inf
    f = _nearest(end)
    if math.isinf(f):
        return -math.inf if f < 0 else MAX_FLOAT
    if _above(f, end):
        f = math.nextafter(f, -math.inf)
    return f


def interval_of_arb(ball: arb) -> tuple[float, float]:
    """The tightest float interval ``[lo, hi]`` containing every point of the Arb ball."""
    if not ball.is_finite():
        return -math.inf, math.inf
    return float_down(ball), float_up(ball)
