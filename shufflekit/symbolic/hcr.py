r"""The Hammersley-Chapman-Robbins bound :math:`\mathsf{Err}_1 \ge d\,\chi_{up}^2` (Takagi-Liew 2026, Thm 3.3).

Checked in closed form for three randomizers:

* **RR** (:math:`d=1`): :math:`\mathsf{Err}_1 - \chi_{up}^2 = 0` identically (the bound is tight);
* **Gaussian local randomizer**: :math:`\chi_{up}^2 \le 1/V` (one admissible pair and
  reference, :math:`(e, 0)` with reference :math:`-e`), and
  :math:`\sigma_0^2 V(\sigma_0) \ge 1` because every Taylor coefficient
  :math:`(4^k - 2^{k+1} + 1)/k!` of :math:`V` in :math:`1/\sigma_0^2` is non-negative;
* **BMG**: reference :math:`x = 0` gives :math:`R_0 = R_{BG}`, hence
  :math:`\chi_{up}^2 \le 1/(A^2(e^{1/\sigma_0^2}-1)) \le \sigma_0^2/A^2 \le \mathsf{Err}_1/d`.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic import bmg, gaussian_local, randomized_response
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.gaussian_moments import exp_affine_terms, ratio_variance
from shufflekit.symbols import k

a = sp.Symbol("a", positive=True)


@cache
def rr() -> Derivation:
    gap = randomized_response.hcr_gap()
    return Derivation(
        id="hcr.rr",
        title="HCR bound for randomized response (tight)",
        result=gap.result,
        variables=gap.variables,
        source="Takagi-Liew 2026, Thm 3.3",
        steps=gap.steps,
        lhs=r"\mathsf{Err}_1 - \chi_{\mathrm{up}}^2",
    )


@cache
def gaussian_local_bound() -> Derivation:
    r""":math:`\sigma_0^2 V - 1 \ge 0` via the Taylor coefficients of :math:`aV`-form in :math:`a = 1/\sigma_0^2`."""
    V = gaussian_local.variance().result.subs(gaussian_local.sigma0, 1 / sp.sqrt(a))
    # k-th Taylor coefficient of V in a, as a closed form in k (each exponential contributes c^k/k!)
    coeff = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(V)):
        w_, e_ = term.as_coeff_Mul()
        rate = sp.simplify(sp.log(e_).expand(force=True) / a) if e_ != 1 else 0
        coeff += w_ * rate**k / sp.factorial(k)
    c1 = sp.simplify(coeff.subs(k, 1))
    # 4^k - 2^(k+1) + 1 = (2^k - 1)^2 >= 0
    numerator = sp.factor(sp.simplify(coeff * sp.factorial(k)).rewrite(sp.exp))
    return Derivation(
        id="hcr.gaussian-local",
        title="HCR bound for the Gaussian local randomizer: sigma0^2 V >= 1",
        result=numerator,
        variables=(k,),
        source="Takagi-Liew 2026, Thm 3.3 and Prop. 4.2",
        steps=(
            ("k-th Taylor coefficient of V in a = 1/sigma0^2", coeff),
            ("first coefficient (a^1), so sigma0^2 V = 1 + (non-negative terms)", c1),
        ),
        lhs=r"k!\,[a^k]\,V",
        extras={"coeff": coeff, "c1": c1},
    )


@cache
def bmg_bound() -> Derivation:
    r"""BMG: the variance at reference :math:`x = 0` and the chain of inequalities."""
    g, s0, d = bmg.gamma, bmg.sigma0, bmg.d
    mech = make("bmg", gamma=g, sigma0=s0)
    ref = mech.density(0)
    terms = exp_affine_terms(mech.density(1), ref) + [
        (-wt, sl) for wt, sl in exp_affine_terms(mech.blanket_density(), ref)
    ]
    _, _, var0 = ratio_variance(terms, 0, s0)
    var0 = sp.factor(var0)
    err = bmg.covariance().result
    gap_chain = sp.simplify(err - d * s0**2 / (1 - g) ** 2)  # = gamma/A >= 0
    return Derivation(
        id="hcr.bmg",
        title="HCR bound for BMG through the reference x = 0",
        result=sp.simplify(1 / var0),
        variables=(g, s0),
        source="Takagi-Liew 2026, Thm 3.3 and App. A.6",
        steps=(
            (
                "R_0 minus the blanket density (zero: R_0 is the blanket)",
                sp.simplify(ref - mech.blanket_density()),
            ),
            ("Var of (R_e - R_perp)/R_0 under R_0", var0),
            ("Err_1 - d sigma0^2/A^2", gap_chain),
        ),
        lhs=r"\chi_{\mathrm{up}}^2 \le",
        extras={"var0": var0, "gap_chain": gap_chain},
    )
