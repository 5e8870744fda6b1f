r"""Arbitrary-precision evaluation of derived results (mpmath).

* :func:`evaluate` evaluates a :class:`~shufflekit.symbolic.derivation.Derivation`
  (or a sympy expression / :class:`~shufflekit.symbolic.series.Series`) at ``dps``
  decimal digits.  It works with guard digits and re-evaluates with more guard
  digits until two evaluations agree to ``dps`` digits, so cancellation (e.g.
  :math:`\bar\Phi(a-b) - e^\varepsilon\bar\Phi(a+b)`) cannot silently eat the digits.
* :func:`log_ndtr` / :func:`log_ndtr_complement`: :math:`\log\Phi(x)` and
  :math:`\log\bar\Phi(x)` in log space (mpmath's ``erfc`` has no underflow).
* :func:`gaussian_profile` / :func:`log_gaussian_profile`: the central Gaussian
  profile (Takagi-Liew 2026, eq. (delta-ab)) computed in log space as
  :math:`\log\bar\Phi(a-b) + \log(1 - e^{\varepsilon + \log\bar\Phi(a+b) - \log\bar\Phi(a-b)})`,
  right to the requested digits even when :math:`\delta \approx 10^{-300}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath as mp
import sympy as sp

from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.series import Series

GUARD_DIGITS = 15
MAX_DPS = 5000


def _check_dps(dps: int) -> int:
    if not isinstance(dps, int) or dps < 1 or dps > MAX_DPS:
        raise ValueError(f"dps={dps!r} is not allowed; allowed range [1, {MAX_DPS}] (integer)")
    return dps


def _as_expr(obj: Any) -> sp.Expr:
    if isinstance(obj, Derivation):
        obj = obj.result
    if isinstance(obj, Series):
        return obj.expr()
    return sp.sympify(obj)


def _eval_once(expr: sp.Expr, values: Mapping, prec_dps: int) -> mp.mpf:
    with mp.workdps(prec_dps):
        subs = {
            k: sp.Float(
                mp.nstr(
                    mp.mpf(v) if not isinstance(v, sp.Basic) else mp.mpf(sp.N(v, prec_dps)),
                    prec_dps,
                ),
                prec_dps,
            )
            if not (isinstance(v, sp.Basic) and v.is_Rational) and not isinstance(v, int)
            else sp.sympify(v)
            for k, v in values.items()
        }
        e = expr.subs(subs)
        if e.free_symbols:
            raise ValueError(
                f"free symbols left after substitution: {sorted(map(str, e.free_symbols))}"
            )
        val = sp.N(e, prec_dps)
        if not val.is_real and not val.is_Number:
            raise ValueError(f"the expression does not evaluate to a real number: {val}")
        return mp.mpf(sp.re(val).evalf(prec_dps)._mpf_) if val.is_Float else mp.mpf(str(sp.re(val)))


def evaluate(
    obj: Any, values: Mapping | None = None, dps: int = 30, guard: int = GUARD_DIGITS
) -> mp.mpf:
    """Value of a derivation / expression / series at ``values``, correct to ``dps`` digits.

    sympy's ``N`` already evaluates with adaptive internal precision; on top of
    that two evaluations at ``dps + guard`` and ``dps + 2 guard`` digits must agree
    to ``dps`` significant digits, otherwise the guard is doubled (up to
    :data:`MAX_DPS`).  Returns an ``mpmath.mpf`` (at the caller's ``mp.dps``).
    """
    dps = _check_dps(dps)
    expr = _as_expr(obj)
    values = dict(values or {})
    g = guard
    while True:
        v1 = _eval_once(expr, values, dps + g)
        v2 = _eval_once(expr, values, dps + 2 * g)
        with mp.workdps(dps + 2 * g):
            scale = max(abs(v2), mp.mpf(10) ** (-(dps + 2 * g) * 10))
            if v2 == 0 and v1 == 0:
                return mp.mpf(0)
            if abs(v1 - v2) <= scale * mp.mpf(10) ** (-(dps + 1)):
                return +v2
        g *= 2
        if dps + 2 * g > MAX_DPS:
            raise ValueError(f"could not reach {dps} digits below {MAX_DPS} working digits")


def log_ndtr(x: Any, dps: int = 30) -> mp.mpf:
    r""":math:`\log\Phi(x)`, accurate for very negative :math:`x` (no underflow in mpmath)."""
    _check_dps(dps)
    with mp.workdps(dps + GUARD_DIGITS):
        x = mp.mpf(x)
        if x > 0:
            # Phi(x) = 1 - Phi-bar(x): log1p of a small number
            return mp.log1p(-mp.erfc(x / mp.sqrt(2)) / 2)
        return mp.log(mp.erfc(-x / mp.sqrt(2)) / 2)


def log_ndtr_complement(x: Any, dps: int = 30) -> mp.mpf:
    r""":math:`\log\bar\Phi(x) = \log\Phi(-x)`."""
    return log_ndtr(-mp.mpf(x), dps)


def log_gaussian_profile(epsilon: Any, sigma: Any, n: Any, dps: int = 30) -> mp.mpf:
    r""":math:`\log\delta_{\mathsf{GM}(\sigma)}(\varepsilon)` with sensitivity :math:`1/n`, noise :math:`\sigma/\sqrt n`.

    Both tails are taken in log space; the difference is
    :math:`\log\bar\Phi(a-b) + \log(-\mathrm{expm1}(\varepsilon + \log\bar\Phi(a+b) - \log\bar\Phi(a-b)))`,
    with guard digits raised until the relative cancellation is covered.
    """
    _check_dps(dps)
    for name, v in (("epsilon", epsilon), ("sigma", sigma), ("n", n)):
        fv = float(v)
        if not (fv == fv) or fv < 0 or (name != "epsilon" and fv == 0):
            raise ValueError(
                f"{name}={v!r} is not allowed; allowed range "
                f"{'[0, inf)' if name == 'epsilon' else '(0, inf)'}"
            )
    g = GUARD_DIGITS
    prev = None
    while True:
        with mp.workdps(dps + g):
            e, s, nn = mp.mpf(epsilon), mp.mpf(sigma), mp.mpf(n)
            a = e * s * mp.sqrt(nn)
            b = 1 / (2 * s * mp.sqrt(nn))
            la = log_ndtr_complement(a - b, dps + g)
            lb = log_ndtr_complement(a + b, dps + g)
            diff = e + lb - la
            val = la + mp.log(-mp.expm1(diff)) if diff < 0 else None
        if val is None:  # the two tails agree to all working digits: more digits
            g *= 2
            if dps + g > MAX_DPS:
                raise ValueError(f"could not resolve the profile below {MAX_DPS} working digits")
            continue
        if prev is not None:
            with mp.workdps(dps + g):
                if abs(val - prev) <= abs(val) * mp.mpf(10) ** (-(dps + 1)):
                    return +val
        prev = val
        g *= 2
        if dps + g > MAX_DPS:
            raise ValueError(f"could not reach {dps} digits below {MAX_DPS} working digits")


def gaussian_profile(epsilon: Any, sigma: Any, n: Any, dps: int = 30) -> mp.mpf:
    r""":math:`\delta_{\mathsf{GM}(\sigma)}(\varepsilon)` to ``dps`` digits (via :func:`log_gaussian_profile`)."""
    with mp.workdps(dps + GUARD_DIGITS):
        return mp.exp(log_gaussian_profile(epsilon, sigma, n, dps + 5))


def template(n: Any, epsilon: Any, chi: Any, dps: int = 30) -> mp.mpf:
    r""":math:`f_{n,\varepsilon}(\chi)` of Takagi-Liew 2026, Lemma 2.6, evaluated by mpmath."""
    with mp.workdps(dps + GUARD_DIGITS):
        n, e, c = mp.mpf(n), mp.mpf(epsilon), mp.mpf(chi)
        return mp.exp(-(c**2) * e**2 * n / 2) / (
            mp.sqrt(2 * mp.pi) * c**3 * e**2 * n ** mp.mpf(1.5)
        )
