"""Validation of mechanism parameters: numbers or sympy symbols, with clear errors."""
from __future__ import annotations

import math
from typing import Any

import sympy as sp


def as_param(value: Any, name: str, *, low: float | None = None, high: float | None = None,
             low_open: bool = False, high_open: bool = False, integer: bool = False) -> Any:
    """Return ``value`` as a sympy number/expression after a range check.

    Symbols pass unchecked (their assumptions carry the range).  Numbers become
    exact sympy rationals of their shortest decimal form (``0.1`` -> ``1/10``), so
    every derived quantity is exact and can be evaluated at any precision.
    """
    if isinstance(value, sp.Basic) and value.free_symbols:
        return value
    shown = value
    if isinstance(value, str):
        text = value.strip()
        try:
            value = sp.Rational(text)  # decimal strings are exact: '0.6' -> 3/5
        except (TypeError, ValueError):
            try:
                value = sp.sympify(text)
            except (sp.SympifyError, TypeError):
                raise ValueError(f"{name}={text!r} is not a number") from None
        if value.free_symbols:
            return value
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} is not a number") from None
    rng = _range_text(low, high, low_open, high_open, integer)
    if math.isnan(f):
        raise ValueError(f"{name}=nan is not allowed; allowed range {rng}")
    if integer and (f != int(f)):
        raise ValueError(f"{name}={shown} must be an integer; allowed range {rng}")
    if low is not None and (f < low or (low_open and f == low)):
        raise ValueError(f"{name}={shown} is out of range; allowed range {rng}")
    if high is not None and (f > high or (high_open and f == high)):
        raise ValueError(f"{name}={shown} is out of range; allowed range {rng}")
    if math.isinf(f):
        raise ValueError(f"{name}={shown} is not finite; allowed range {rng}")
    if integer:
        return sp.Integer(int(f))
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, int) or f == int(f):
        return sp.Integer(int(f))
    return sp.Rational(str(value)) if isinstance(value, str) else sp.nsimplify(value, rational=True)


def _range_text(low, high, low_open, high_open, integer) -> str:
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    text = f"{'(' if low_open or low is None else '['}{lo}, {hi}{')' if high_open or high is None else ']'}"
    return text + (" (integer)" if integer else "")
