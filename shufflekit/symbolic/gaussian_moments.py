r"""Moments of likelihood ratios of Gaussian mixtures, from the densities.

For densities that are (mixtures of) :math:`N(\mu_i, \sigma^2)` and a Gaussian
reference :math:`N(\mu_0, \sigma^2)`, each component ratio is
:math:`w_i e^{s_i y}` (the log ratio is affine in :math:`y`; the quadratic terms
cancel).  Expectations under the reference then follow from its moment
generating function :math:`M(t) = E[e^{tY}]`, which is itself obtained by
integrating :math:`e^{ty}` against the reference density (not typed in).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sympy as sp

from shufflekit.mechanisms.gaussian import normal_pdf, y

_t = sp.Symbol("t", real=True)
_m = sp.Symbol("m", real=True)
_s = sp.Symbol("s", positive=True)


@cache
def _mgf_template() -> sp.Expr:
    r""":math:`M(t) = \int e^{ty}\,\phi_{m,s}(y)\,dy` by sympy integration."""
    val = sp.integrate(sp.exp(_t * y) * normal_pdf(y, _m, _s), (y, -sp.oo, sp.oo), conds="none")
    return sp.simplify(val)


def normal_mgf(t: Any, mean: Any, sd: Any) -> sp.Expr:
    """Moment generating function of :math:`N(\\text{mean}, \\text{sd}^2)` at ``t``."""
    return _mgf_template().subs({_t: t, _m: mean, _s: sd})


def exp_affine_terms(density: sp.Expr, reference: sp.Expr, var: sp.Symbol = y) -> list[tuple]:
    r"""Write ``density/reference`` as :math:`\sum_i w_i e^{s_i y}`; return ``[(w_i, s_i)]``.

    Each additive component of ``density`` is divided by the (single Gaussian)
    ``reference``; its log is expanded and must be affine in ``var``.
    """
    out = []
    for term in sp.Add.make_args(sp.expand(density)):
        lg = sp.expand(sp.expand_log(sp.log(term / reference), force=True))
        poly = sp.Poly(lg, var)
        if poly.degree() > 1:
            raise ValueError(f"log ratio of {term} to the reference is not affine in {var}")
        slope = sp.simplify(poly.coeff_monomial(var))
        intercept = poly.coeff_monomial(1)
        out.append((sp.simplify(sp.exp(intercept)), slope))
    return out


def ratio_moment(terms: list[tuple], power: int, mean: Any, sd: Any) -> sp.Expr:
    r""":math:`E_{N(\text{mean},\text{sd}^2)}[(\sum_i w_i e^{s_i Y})^{\text{power}}]` for power 1 or 2."""
    if power == 1:
        return sp.Add(*[w * normal_mgf(s, mean, sd) for w, s in terms])
    if power == 2:
        return sp.Add(
            *[w1 * w2 * normal_mgf(s1 + s2, mean, sd) for w1, s1 in terms for w2, s2 in terms]
        )
    raise ValueError(f"power={power} is not supported; allowed 1 or 2")


def ratio_variance(
    numerator_terms: list[tuple], mean: Any, sd: Any
) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(mean, second moment, variance) of the ratio under the reference, simplified."""
    m1 = sp.simplify(ratio_moment(numerator_terms, 1, mean, sd))
    m2 = sp.simplify(ratio_moment(numerator_terms, 2, mean, sd))
    var = sp.simplify(sp.expand(sp.powsimp(m2 - m1**2)))
    return m1, m2, var


def tilted_moment(terms: list[tuple], k: int, mean: Any, sd: Any) -> sp.Expr:
    r""":math:`E_{ref}[Y^k \sum_i w_i e^{s_iY}] = \sum_i w_i M^{(k)}(s_i)` (k-th derivative of the MGF)."""
    t = sp.Symbol("t_", real=True)
    Mk = sp.diff(normal_mgf(t, mean, sd), t, k)
    return sp.Add(*[w * Mk.subs(t, s) for w, s in terms])
