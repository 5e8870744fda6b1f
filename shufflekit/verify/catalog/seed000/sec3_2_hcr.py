r"""Takagi-Liew 2026, Sec. 3.2: the Hammersley-Chapman-Robbins bound (Thm 3.3) and the reduction of Lemma 3.1."""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from shufflekit.symbolic import bmg as B
from shufflekit.symbolic import hcr as H
from shufflekit.verify import checks
from shufflekit.verify.claims import claim, not_checkable


@claim(
    id="000.thm3.3.hcr-rr",
    paper="000",
    source="Thm 3.3",
    statement=r"\mathsf{Err}_1(\mathrm{RR}) \ge \chi_{\mathrm{up}}^2\ (d=1)",
    section="Sec. 3.2",
)
def check_000_thm3_3_hcr_rr(ctx):
    return checks.exact_identity(
        sp.simplify(H.rr().result),
        0,
        what="Err_1 - chi_up^2 identically in t = 2p - 1 (the bound is attained by RR)",
    )


@claim(
    id="000.thm3.3.hcr-gaussian-local",
    paper="000",
    source="Thm 3.3",
    statement=r"\mathsf{Err}_1(\mathcal R^{\mathsf{GL}}) = d\sigma_0^2 \ge d\chi_{\mathrm{up}}^2",
    section="Sec. 3.2",
)
def check_000_thm3_3_hcr_gaussian_local(ctx):
    der = H.gaussian_local_bound()
    num = der.result
    k = H.k
    # k! [a^k] V = (2^k - 1)^2 >= 0 and [a^1] V = 1, so sigma0^2 V >= 1 >= sigma0^2 / chi_up^2 ... i.e. d sigma0^2 >= d/V >= d chi_up^2
    nonneg = all(num.subs(k, kk) >= 0 for kk in range(1, 30))
    return checks.decide(
        nonneg and der.extras["c1"] == 1,
        f"k! [a^k] V = {sp.sstr(num)} >= 0 for k < 30: {nonneg}; [a] V = {der.extras['c1']}; "
        f"so sigma0^2 V >= 1 and chi_up^2 <= 1/V",
        statement="Err_1(GL) >= d chi_up^2",
    )


@claim(
    id="000.thm3.3.hcr-bmg",
    paper="000",
    source="Thm 3.3",
    statement=r"\mathsf{Err}_1(\mathcal R^{\mathsf{BMG}}) \ge d\chi_{\mathrm{up}}^2",
    section="Sec. 3.2",
)
def check_000_thm3_3_hcr_bmg(ctx):
    der = H.bmg_bound()
    g, s0, d = B.gamma, B.sigma0, B.d
    # chi_up^2 <= 1/(A^2 (e^{1/s^2}-1)) <= s^2/A^2 <= Err/d  (e^u - 1 >= u; Err - d s^2/A^2 = gamma/A >= 0)
    gap = sp.simplify(der.extras["gap_chain"] - g / (1 - g))
    # numeric: sup over collinear references z = s e, s in [-1, 1], by quadrature
    gv, sv, dv = 0.9, 3.0, 2
    A = 1 - gv

    def var_at(zs):
        f = lambda yv: (
            (A * (mp.npdf(yv, 1, sv) - mp.npdf(yv, 0, sv))) ** 2
            / (gv * mp.npdf(yv, 0, sv) + A * mp.npdf(yv, zs, sv))
        )
        return mp.quad(f, [-mp.inf, -10, 0, 10, mp.inf])

    with mp.workdps(ctx.digits(20)):
        zs = [mp.mpf(i) / 4 for i in range(-4, 5)] if not ctx.quick else [-1, 1]
        vmax = max(var_at(z) for z in zs)
    err = dv * sv**2 / A**2 + gv / A
    return checks.decide(
        gap == 0 and err >= dv / float(vmax),
        f"chain chi_up^2 <= 1/(A^2(e^(1/s^2)-1)) <= s^2/A^2 <= Err/d: gap {sp.sstr(gap)}; "
        f"numerically (gamma, sigma0, d) = (0.9, 3, 2): Err = {err:.6g}, d/sup Var = "
        f"{dv / float(vmax):.6g}",
        statement="Err_1(BMG) >= d chi_up^2",
        err=err,
        bound=dv / float(vmax),
    )


@claim(
    id="000.lem3.1.reduction",
    paper="000",
    source="Lemma 3.1, Lemma A.2",
    statement=r"\mathsf{Err}^\star_{\mathrm{up}}(\chi)\le\mathsf{Err}^\star_{\mathrm{DP}}\le\mathsf{Err}^\star_{\mathrm{lo}}(\chi+\eta)",
    expected="not-checkable",
    section="Sec. 3.2",
)
def check_000_lem3_1_reduction(ctx):
    return not_checkable(
        "an existence/optimisation argument over all randomizers; its computable "
        "ingredients (template ratio, post-processing monotonicity) are separate claims"
    )
