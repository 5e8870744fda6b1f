r"""The Gaussian local randomizer :math:`R_x = N(x, \sigma_0^2 I_d)` (Takagi-Liew 2026, Sec. 4.3, App. A.8).

* :math:`V(\sigma_0) = \mathrm{Var}_{Y\sim R_{-e}}[\ell_0(Y; e, 0, R_{-e})]` with
  :math:`\ell_0 = (R_e - R_0)/R_{-e}`, from the densities and the Gaussian MGF;
  :math:`\chi_{chua}^2 = 1/V`.
* Series in :math:`a = 1/\sigma_0^2`; the inverse series :math:`\chi_{chua}^2(\sigma_0)`;
  the reversion :math:`\sigma_0^2(\chi_{chua})` (order by order) and
  :math:`\mathsf{Err}_1 = d\sigma_0^2` in :math:`\chi_{chua}` (Prop. 4.2).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.gaussian_moments import exp_affine_terms, ratio_variance
from shufflekit.symbolic.series import Series
from shufflekit.symbols import chi, d, sigma0

a = sp.Symbol("a", positive=True)  # a = 1/sigma0^2
w = sp.Symbol("w", positive=True)  # w = 1/chi^2
x = sp.Symbol("x", positive=True)  # x = 1/chi (display variable chi)
z = sp.Symbol("z", positive=True)  # z = 1/sigma0 (display variable sigma0)

SOURCE = "Takagi-Liew 2026, Prop. 4.2 and App. A.8"


@cache
def variance() -> Derivation:
    r""":math:`V = \mathrm{Var}_{N(-1,\sigma_0^2)}[R_1/R_{-1} - R_0/R_{-1}]` from the densities."""
    mech = make("gaussian-local", sigma0=sigma0)
    ref = mech.density(-1)
    terms = exp_affine_terms(mech.density(1), ref) + [
        (-wt, s) for wt, s in exp_affine_terms(mech.density(0), ref)
    ]
    m1, m2, var = ratio_variance(terms, -1, sigma0)
    return Derivation(
        id="gaussian-local.V",
        title="V = Var of l_0(Y; e, 0, R_{-e}) under R_{-e}",
        result=var,
        variables=(sigma0,),
        assumptions=("sigma0 > 0", "e a unit vector"),
        source=SOURCE + ", eq. (var-ell0-gauss)",
        steps=(
            ("l_0 = sum of w_i exp(s_i y): (w_i, s_i)", sp.Matrix([[wt, s] for wt, s in terms])),
            ("E[l_0] under R_{-e}", m1),
            ("E[l_0^2] under R_{-e}", m2),
        ),
        lhs=r"V(\sigma_0)",
    )


def _terms_needed(terms: int) -> int:
    return max(int(terms), 1)


@cache
def variance_series(terms: int = 4) -> Derivation:
    r""":math:`V` as a series in :math:`a = 1/\sigma_0^2` (eq. (V-series-in-a))."""
    V = variance().result.subs(sigma0, 1 / sp.sqrt(a))
    ser = Series.from_expr(V, a, _terms_needed(terms) + 1)
    return Derivation(
        id="gaussian-local.variance",
        title="series of V in a = 1/sigma0^2",
        result=ser.truncate(terms),
        variables=(a,),
        assumptions=("a = 1/sigma0^2 -> 0",),
        source=SOURCE + ", eq. (V-series-in-a)",
        steps=(("V in a", V),),
        lhs="V",
    )


@cache
def inverse_series(terms: int = 4) -> Derivation:
    r""":math:`\chi_{chua}^2 = 1/V` as a series in :math:`\sigma_0` (eq. (chiup-tilde-series-in-sigma))."""
    V = variance_series(terms + 1).result
    inv = V.inverse()
    disp = inv.rescale(2, var=z, at_infinity=sigma0).truncate(terms)
    return Derivation(
        id="gaussian-local.chi2-in-sigma",
        title="chi_chua^2 = 1/V as sigma0 -> oo",
        result=disp,
        variables=(sigma0,),
        assumptions=("sigma0 -> oo",),
        source=SOURCE + ", eq. (chiup-tilde-series-in-sigma)",
        steps=(("1/V in a = 1/sigma0^2", inv.truncate(terms)),),
        lhs=r"\chi_{\mathrm{chua}}^2",
    )


@cache
def sigma2_in_chi(terms: int = 5) -> Derivation:
    r"""Reversion: :math:`\sigma_0^2` as a series in :math:`\chi_{chua}` (eq. (sigma2-in-chiup-tilde)).

    Solve :math:`V(a) = w` (:math:`w = \chi^{-2}`) for :math:`a` order by order, then
    :math:`\sigma_0^2 = 1/a(w)`.
    """
    V = variance_series(terms + 1).result
    a_of_w = V.revert(var=w)
    s2 = a_of_w.inverse()
    disp = s2.rescale(2, var=x, at_infinity=chi).truncate(terms)
    return Derivation(
        id="gaussian-local.sigma2-in-chi",
        title="sigma0^2 as a series in chi_chua (reversion)",
        result=disp,
        variables=(chi,),
        assumptions=("chi_chua -> oo",),
        source=SOURCE + ", eq. (sigma2-in-chiup-tilde)",
        steps=(("V(a) = w solved for a, w = chi^-2", a_of_w.truncate(terms)),),
        lhs=r"\sigma_0^2",
    )


@cache
def err_in_chi(terms: int = 4) -> Derivation:
    r""":math:`\mathsf{Err}_1 = d\sigma_0^2` in :math:`\chi_{chua}` (Prop. 4.2); :math:`E\|Y-x\|^2` from the density."""
    y1 = sp.Symbol("y1", real=True)
    mech = make("gaussian-local", sigma0=sigma0)
    per_coord = sp.simplify(sp.integrate((y1 - 1) ** 2 * mech.density(1, y1), (y1, -sp.oo, sp.oo)))
    s2 = sigma2_in_chi(terms).result
    return Derivation(
        id="gaussian-local.err-in-chi",
        title="Err_1 = d sigma0^2 in chi_chua (Prop. 4.2)",
        result=s2 * (d * per_coord / sigma0**2),
        variables=(d, chi),
        assumptions=("estimator x-hat(Y) = Y", "chi_chua -> oo"),
        source=SOURCE,
        steps=(("per-coordinate squared error E[(Y_1 - x_1)^2]", per_coord),),
        lhs=r"\mathsf{Err}_1",
    )
