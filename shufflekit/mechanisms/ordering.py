r"""Exact sign decisions for probabilities that may contain sympy symbols.

Mechanism parameters may be numbers or sympy symbols (declared ``positive``).
Taking an infimum over inputs needs the order of expressions such as
:math:`e^{\varepsilon_0}/(e^{\varepsilon_0}+k-1)` and :math:`1/(e^{\varepsilon_0}+k-1)`.
sympy does not know :math:`e^{\varepsilon_0} > 1` for a positive symbol, so each
:math:`e^{s}` with :math:`s > 0` is replaced by :math:`1 + u` with a fresh
positive :math:`u` before asking for the sign of the factored difference.
Numbers are compared exactly (sympy evaluates with guaranteed precision).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp


def sign(expr: Any) -> int:
    """Return -1, 0 or 1; raise ``ValueError`` when the sign cannot be decided."""
    if not isinstance(expr, sp.Basic):
        value = float(expr)
        return (value > 0) - (value < 0)
    expr = sp.sympify(expr)
    if not expr.free_symbols:
        return _numeric_sign(expr)
    rewritten = _exp_as_one_plus(_with_lower_bounds(expr))
    for make in (lambda e: e, lambda e: sp.factor(sp.together(e)), sp.simplify):
        candidate = make(rewritten)
        if candidate.is_zero:
            return 0
        if candidate.is_positive:
            return 1
        if candidate.is_negative:
            return -1
    raise ValueError(
        f"cannot decide the sign of {sp.sstr(expr)}; "
        "declare the parameters' assumptions (e.g. positive=True) or use numbers"
    )


ZERO_THRESHOLD = sp.Float("1e-60", 80)


@lru_cache(maxsize=65536)
def _numeric_sign(expr: sp.Expr) -> int:
    """Sign of a closed-form number: evaluate at 80 digits; a value below 1e-60 in
    magnitude is zero only if exact cancellation (``cancel``) or ``equals`` says so."""
    if expr.is_Rational:
        return int(bool(expr > 0)) - int(bool(expr < 0))
    value = expr.evalf(80)
    if abs(value) > ZERO_THRESHOLD:
        return 1 if value > 0 else -1
    if expr.is_positive:  # tiny but structurally positive (e.g. p**k of a large alphabet)
        return 1
    if expr.is_negative:
        return -1
    if sp.cancel(sp.together(expr)) == 0 or expr.equals(0):
        return 0
    value = expr.evalf(400)
    if value == 0:
        return 0
    return 1 if value > 0 else -1


_LOWER_BOUNDS: dict = {}


def assume_at_least(symbol: sp.Symbol, bound: int) -> None:
    """Record that the integer ``symbol`` is at least ``bound`` (e.g. alphabet size k >= 3)."""
    _LOWER_BOUNDS[symbol] = max(bound, _LOWER_BOUNDS.get(symbol, bound))


def _with_lower_bounds(expr: sp.Expr) -> sp.Expr:
    reps = {
        s: b + sp.Dummy("t", integer=True, nonnegative=True)
        for s, b in _LOWER_BOUNDS.items()
        if s in expr.free_symbols
    }
    return expr.xreplace(reps) if reps else expr


def _exp_as_one_plus(expr: sp.Expr) -> sp.Expr:
    """Replace the exponentials of each positive symbol ``s`` by powers of ``1 + u``.

    ``exp(c s)`` with rational ``c`` becomes ``(1 + u)**(c q)`` where ``exp(s/q) = 1 + u``
    and ``q`` is the common denominator of the coefficients, so ``exp(s/2)`` and
    ``exp(s)`` stay consistent (``exp(s) = (1 + u)**2``).  Exponentials of sums are
    split first.
    """
    expr = sp.expand(
        expr, power_exp=True, mul=False, multinomial=False, power_base=False, log=False
    )
    coeffs: dict = {}
    for e in expr.atoms(sp.exp):
        arg = e.args[0]
        syms = arg.free_symbols
        if len(syms) == 1:
            (s_,) = syms
            c = sp.simplify(arg / s_)
            if s_.is_positive and c.is_Rational and c > 0:
                coeffs.setdefault(s_, set()).add(c)
    reps = {}
    for s_, cs in coeffs.items():
        q = sp.ilcm(1, *[c.q for c in cs])
        base = 1 + sp.Dummy("u", positive=True)
        for c in cs:
            reps[sp.exp(c * s_)] = base ** (c * q)
    return expr.xreplace(reps) if reps else expr


def is_zero(expr: Any) -> bool:
    if not isinstance(expr, sp.Basic):
        return float(expr) == 0.0
    try:
        return sign(expr) == 0
    except ValueError:
        return False


def smallest(values: Sequence[Any]) -> Any:
    """The minimum of ``values`` under exact comparison."""
    best = values[0]
    for v in values[1:]:
        if sign(v - best) < 0:
            best = v
    return best


def largest(values: Sequence[Any]) -> Any:
    best = values[0]
    for v in values[1:]:
        if sign(v - best) > 0:
            best = v
    return best
