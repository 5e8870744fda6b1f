"""Validation of user-facing parameters: one place, one message format, one tolerance.

Every check returns the cleaned value or raises :class:`~shufflekit.errors.InvalidParameter`
naming the parameter, its value and the allowed range.  ``nan``, infinities where they are not
allowed, strings that are not numbers and booleans are rejected, never passed on.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

from shufflekit.errors import InvalidParameter

#: Relative tolerance used wherever a user-given probability vector must sum to one.
PROBABILITY_SUM_TOL = 1e-9


def _interval(lo: float, hi: float, lo_open: bool, hi_open: bool) -> str:
    left = "(" if lo_open or lo == -math.inf else "["
    right = ")" if hi_open or hi == math.inf else "]"
    fmt = lambda v: "inf" if v == math.inf else "-inf" if v == -math.inf else f"{v:g}"  # noqa: E731
    return f"range {left}{fmt(lo)}, {fmt(hi)}{right}"


def check_real(name: str, value: Any, lo: float = -math.inf, hi: float = math.inf, *,
               lo_open: bool = False, hi_open: bool = False, allow_inf: bool = False) -> float:
    """``value`` as a float in the interval ``lo .. hi`` (ends open or closed)."""
    allowed = _interval(lo, hi, lo_open, hi_open)
    if isinstance(value, bool):
        raise InvalidParameter(name, value, allowed, "a number, not a boolean")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameter(name, value, allowed, "not a number") from None
    if math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise InvalidParameter(name, value, allowed)
    if x < lo or x > hi or (lo_open and x == lo) or (hi_open and x == hi):
        raise InvalidParameter(name, value, allowed)
    return x


def check_int(name: str, value: Any, lo: int = -(10 ** 18), hi: int = 10 ** 18) -> int:
    """``value`` as an int in ``[lo, hi]``; integral floats such as ``1e6`` are accepted."""
    allowed = f"range [{lo}, {hi}] (integer)" if hi < 10 ** 18 else f"range [{lo}, inf) (integer)"
    if isinstance(value, bool):
        raise InvalidParameter(name, value, allowed, "an integer, not a boolean")
    if isinstance(value, numbers.Integral):
        v = int(value)
    else:
        try:
            x = Fraction(str(value).strip()) if isinstance(value, str) else Fraction(value)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            raise InvalidParameter(name, value, allowed, "not an integer") from None
        if x.denominator != 1:
            raise InvalidParameter(name, value, allowed, "not an integer")
        v = int(x)
    if not lo <= v <= hi:
        raise InvalidParameter(name, value, allowed)
    return v


def check_n(n: Any) -> int:
    """Number of users, an integer >= 1."""
    return check_int("n", n, 1)


def check_epsilon(epsilon: Any) -> float:
    """Privacy parameter epsilon in [0, inf)."""
    return check_real("epsilon", epsilon, 0.0)


def check_delta(delta: Any) -> float:
    """Privacy parameter delta in (0, 1)."""
    return check_real("delta", delta, 0.0, 1.0, lo_open=True, hi_open=True)


def check_probability(name: str, p: Any, *, open_ends: bool = False) -> float:
    """A probability in [0, 1] (or (0, 1) with ``open_ends``)."""
    return check_real(name, p, 0.0, 1.0, lo_open=open_ends, hi_open=open_ends)
