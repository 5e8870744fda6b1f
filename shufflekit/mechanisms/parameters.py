"""Validation of mechanism parameters: numbers, numeric text or sympy symbols.

Numbers become exact sympy numbers; a parameter out of its range raises
:class:`~shufflekit.errors.InvalidParameter` naming it, its value and the allowed range.
"""

from __future__ import annotations

import math
import re
from typing import Any

import sympy as sp

from shufflekit.errors import InvalidParameter


def as_param(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    integer: bool = False,
) -> Any:
    """Return ``value`` as a sympy number/expression after a range check.

    Sympy expressions with free symbols pass unchecked (their assumptions carry the range).
    Numbers become exact sympy rationals of their shortest decimal form (``0.1`` -> ``1/10``),
    so every derived quantity is exact and can be evaluated at any precision.  Text must be a
    number or a closed-form constant expression (``"0.6"``, ``"1/3"``, ``"log(3)"``): text with
    names in it (``"abc"``) is rejected, never turned into a symbol.
    """
    rng = range_text(low, high, low_open, high_open, integer)
    if isinstance(value, sp.Basic) and value.free_symbols:
        return value
    if isinstance(value, bool):
        raise InvalidParameter(name, value, rng, "a number, not a boolean")
    shown = value
    if isinstance(value, str):
        text = value.strip()
        try:
            value = sp.Rational(text)  # decimal strings are exact: '0.6' -> 3/5
        except ZeroDivisionError:
            raise InvalidParameter(name, shown, rng, "division by zero") from None
        except (TypeError, ValueError):
            if not is_constant_text(text):
                raise InvalidParameter(name, shown, rng, "not a number") from None
            try:
                value = sp.sympify(text, rational=True)
            except (
                sp.SympifyError,
                TypeError,
                ValueError,
                SyntaxError,
                AttributeError,
                ZeroDivisionError,
                OverflowError,
                RecursionError,
            ):
                raise InvalidParameter(name, shown, rng, "not a number") from None
        if not isinstance(value, sp.Expr) or value.free_symbols:
            raise InvalidParameter(name, shown, rng, "not a number")
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameter(name, shown, rng, "not a number") from None
    if math.isnan(f) or math.isinf(f):
        raise InvalidParameter(name, shown, rng, "not a finite number")
    if integer and (f != int(f)):
        raise InvalidParameter(name, shown, rng, "not an integer")
    if low is not None and (f < low or (low_open and f == low)):
        raise InvalidParameter(name, shown, rng)
    if high is not None and (f > high or (high_open and f == high)):
        raise InvalidParameter(name, shown, rng)
    if integer:
        return sp.Integer(int(f))
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, int) or f == int(f):
        return sp.Integer(int(f))
    return sp.nsimplify(value, rational=True)


#: names allowed in a parameter given as text (everything else is rejected before sympify)
CONSTANT_NAMES = frozenset({"log", "exp", "sqrt", "pi", "E"})
CONSTANT_TEXT = re.compile(r"[0-9.eE+\-*/() a-z_A-Z]{1,80}")


def is_constant_text(text: str) -> bool:
    """True if ``text`` is a short closed-form constant: digits, + - * / ( ), and the names
    log, exp, sqrt, pi, E (no powers, so no huge numbers; no other names, so nothing is run)."""
    if not CONSTANT_TEXT.fullmatch(text) or "**" in text:
        return False
    names = set(re.findall(r"[A-Za-z_]+", re.sub(r"(?<=[0-9.])[eE][+-]?(?=[0-9])", " ", text)))
    return names <= CONSTANT_NAMES


def check_law_epsilon(epsilon: Any) -> Any:
    """The epsilon at which an amplification law is formed: a symbol, or a number in [0, inf)."""
    if isinstance(epsilon, sp.Basic) and epsilon.free_symbols:
        return epsilon
    return as_param(epsilon, "epsilon", low=0)


def range_text(
    low: float | None,
    high: float | None,
    low_open: bool = False,
    high_open: bool = False,
    integer: bool = False,
) -> str:
    """``range [low, high)`` style text of an interval (``None`` = unbounded)."""
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    text = f"{'(' if low_open or low is None else '['}{lo}, {hi}{')' if high_open or high is None else ']'}"
    return "range " + text + (" (integer)" if integer else "")
