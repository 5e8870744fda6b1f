r"""Takagi-Liew 2026, Sec. 4.2 and App. A.6: the blanket-mixture Gaussian (BMG) and Thm 4.1."""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from shufflekit.symbolic import bmg as B
from shufflekit.verify import checks
from shufflekit.verify.claims import claim, confirmed, refuted
from shufflekit.verify.mutation import printed, tighter_upper

R = sp.Rational


@claim(
    id="000.sec4.2.chi-lo",
    paper="000",
    source="Sec. 4.2, App. A.6 Step 1",
    statement=r"\chi_{\mathrm{lo}}(\mathcal R^{\mathsf{BMG}})^2 = \frac{\gamma}{(1-\gamma)^2}\frac{1}{e^{1/\sigma_0^2}-1}",
    section="Sec. 4.2",
    kind="proof-step",
)
def check_000_sec4_2_chi_lo(ctx):
    g, s = B.gamma, B.sigma0
    return checks.exact_identity(
        B.chi_lo().result, g / (1 - g) ** 2 / (sp.exp(1 / s**2) - 1), what="chi_lo^2"
    )


@claim(
    id="000.appA.6.variance",
    paper="000",
    source="App. A.6 Step 1",
    statement=r"\mathrm{Var}[\ell_0] = A^2(e^{\|x\|^2/\sigma_0^2}-1),\ \text{increasing in } \|x\|",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_variance(ctx):
    c = B.chi_lo()
    g, s, r = B.gamma, B.sigma0, B.r
    out = checks.exact_identity(
        c.extras["var_r"], (1 - g) ** 2 * (sp.exp(r**2 / s**2) - 1), what="Var l_0"
    )
    if out.verdict == "confirmed" and c.extras["dvar"].is_nonnegative:
        return confirmed(
            out.evidence + f"; d/dr = {sp.sstr(c.extras['dvar'])} >= 0 (> 0 for gamma < 1)"
        )
    return out if out.verdict != "confirmed" else refuted("derivative not positive")


@claim(
    id="000.appA.6.mgf",
    paper="000",
    source="App. A.6 Step 1",
    statement=r"\mathbb E[e^{\langle x,Y\rangle/\sigma_0^2-\|x\|^2/(2\sigma_0^2)}]=1,\ "
    r"\mathbb E[e^{2\langle x,Y\rangle/\sigma_0^2-\|x\|^2/\sigma_0^2}]=e^{\|x\|^2/\sigma_0^2}",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_mgf(ctx):
    from shufflekit.symbolic.gaussian_moments import normal_mgf

    r, s = B.r, B.sigma0
    m1 = sp.simplify(normal_mgf(r / s**2, 0, s) * sp.exp(-(r**2) / (2 * s**2)))
    m2 = sp.simplify(normal_mgf(2 * r / s**2, 0, s) * sp.exp(-(r**2) / s**2))
    return checks.all_confirmed(
        [
            checks.exact_identity(m1, 1, what="first moment"),
            checks.exact_identity(m2, sp.exp(r**2 / s**2), what="second moment"),
        ],
        "both moments from the Gaussian MGF (integrated from the density)",
    )


@claim(
    id="000.appA.6.cov",
    paper="000",
    source="App. A.6 Step 2",
    statement=r"\mathrm{Cov}(Y) = \sigma_0^2 I_d + \gamma A\,xx^\top",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_cov(ctx):
    cv = B.covariance().extras
    g, s, r = B.gamma, B.sigma0, B.r
    o1 = checks.exact_identity(cv["var_along"], s**2 + g * (1 - g) * r**2, what="variance along x")
    o2 = checks.exact_identity(cv["var_orth"], s**2, what="variance orthogonal to x")
    return checks.joined(o1, o2)


@claim(
    id="000.appA.6.err",
    paper="000",
    source="eq. (gauss-mix-mse-exact)",
    statement=r"\sup_x\mathbb E\|\widehat x(Y)-x\|_2^2 = \frac{d\sigma_0^2}{A^2}+\frac{\gamma}{A}",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_err(ctx):
    g, s, d = B.gamma, B.sigma0, B.d
    return checks.exact_identity(
        B.covariance().result, d * s**2 / (1 - g) ** 2 + g / (1 - g), what="Err_1"
    )


@claim(
    id="000.sec4.2.err-gamma-chi",
    paper="000",
    source="Sec. 4.2",
    statement=r"\mathsf{Err}_1 = \frac{d}{(1-\gamma)^2\log\left(1+\frac{\gamma}{(1-\gamma)^2\chi^2}\right)}+\frac{\gamma}{1-\gamma}",
    section="Sec. 4.2",
)
def check_000_sec4_2_err_gamma_chi(ctx):
    g, c, d = B.gamma, B.chi, B.d
    printed = d / ((1 - g) ** 2 * sp.log(1 + g / ((1 - g) ** 2 * c**2))) + g / (1 - g)
    return checks.exact_identity(B.err_in_gamma_chi().result, printed, what="Err_1(gamma, chi)")


@claim(
    id="000.appA.6.u",
    paper="000",
    source="eq. (u-expand)",
    statement=r"u = \frac{1-A}{A^2\chi^2} = \chi^{-2/3}-\chi^{-4/3}\ (A=\chi^{-2/3})",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_u(ctx):
    c = B.chi
    return checks.exact_identity(
        B.err_expansion(3).steps[1][1], c ** R(-2, 3) - c ** R(-4, 3), what="u"
    )


@claim(
    id="000.appA.6.u-small",
    paper="000",
    source="App. A.6 Step 3",
    statement=r"0 < u \le 1/2 \text{ for all sufficiently large } \chi",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_u_small(ctx):
    h = sp.Symbol("h", positive=True)
    umax = sp.maximum(h - h**2, h, sp.Interval(0, 1))
    # the printed 1/2 is not attained (max u = 1/4): the corruption is a bound below the maximum
    bound = printed(R(1, 2), "upper bound on u", mutant=lambda b: b / 4)
    return checks.decide(
        umax <= bound,
        f"u = h - h^2 with h = chi^(-2/3) in (0, 1) for chi > 1; "
        f"max u = {umax}, printed bound {bound}",
        statement="u <= bound",
    )


@claim(
    id="000.appA.6.log-remainder",
    paper="000",
    source="eq. (log-remainder)",
    statement=r"|\log(1+u) - (u - u^2/2)| \le C_{\log}u^3 \text{ on } (0,1/2]",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_log_remainder(ctx):
    with mp.workdps(ctx.digits(30)):
        us = [mp.mpf(i) / 400 for i in range(1, 201)]
        worst = max(abs(mp.log1p(u) - (u - u**2 / 2)) / u**3 for u in us)
    c_log = printed(R(1, 3), "C_log (Lagrange: 2/3! from |f'''| <= 2)", mutant=tighter_upper)
    return checks.decide(
        worst <= mp.mpf(c_log.p) / c_log.q,
        f"max |R_log(u)|/u^3 on a grid of (0, 1/2] is {float(worst):.6f}; C_log = {c_log}",
        statement="|R_log(u)| <= C_log u^3",
        worst=float(worst),
    )


@claim(
    id="000.appA.6.1overA2u",
    paper="000",
    source="eq. (1overA2u)",
    statement=r"\frac{1}{A^2u} = \frac{\chi^2}{1-A}",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_1overA2u(ctx):
    A, c = B.A, B.chi
    u = (1 - A) / (A**2 * c**2)
    return checks.exact_identity(1 / (A**2 * u), c**2 / (1 - A), what="1/(A^2 u)")


@claim(
    id="000.appA.6.three-halves",
    paper="000",
    source="App. A.6, eq. (dominant-final)",
    statement=r"A + \tfrac{u}{2} = \tfrac32\chi^{-2/3} + O(\chi^{-4/3}),\ "
    r"\frac{1}{A^2t} = \chi^2\left(1+\tfrac32\chi^{-2/3}+O(\chi^{-4/3})\right)",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_three_halves(ctx):
    c = B.chi
    u = c ** R(-2, 3) - c ** R(-4, 3)
    comb = sp.expand(c ** R(-2, 3) + u / 2)
    lead = sp.limit(comb * c ** R(2, 3), c, sp.oo)
    if lead == R(3, 2):
        rel = B.err_expansion(3).extras["relative"]
        return checks.series_coefficients(
            rel, [0, R(-2, 3)], [1, R(3, 2)], "A + u/2 leading 3/2; Err_1/(d chi^2)"
        )
    return refuted(f"coefficient {lead}")


@claim(
    id="000.appA.6.mixture",
    paper="000",
    source="eq. (mixture-relative)",
    statement=r"\frac{\gamma}{A} = \chi^{2/3}-1,\ \frac{\gamma/A}{d\chi^2} = O(\chi^{-4/3})",
    section="App. A.6",
    kind="proof-step",
)
def check_000_appA_6_mixture(ctx):
    c, d = B.chi, B.d
    A = c ** R(-2, 3)
    o = checks.exact_identity(sp.expand((1 - A) / A), c ** R(2, 3) - 1, what="gamma/A")
    lead = sp.limit(((1 - A) / A) / (d * c**2) * c ** R(4, 3), c, sp.oo)
    if o.verdict == "confirmed" and lead == 1 / d:
        return confirmed(o.evidence + f"; (gamma/A)/(d chi^2) ~ {lead} chi^(-4/3)")
    return o if o.verdict != "confirmed" else refuted(f"leading {lead}")


@claim(
    id="000.thm4.1.expansion",
    paper="000",
    source="Thm 4.1 / Cor. 3.4",
    statement=r"\mathsf{Err}_1 = d\chi^2\left(1+\tfrac32\chi^{-2/3}+O(\chi^{-4/3})\right)",
    section="Sec. 4.2",
)
def check_000_thm4_1_expansion(ctx):
    rel = B.err_expansion(4).extras["relative"]
    out = checks.series_coefficients(rel, [0, R(-2, 3)], [1, R(3, 2)], "Err_1/(d chi^2)")
    if out.verdict != "confirmed":
        return out
    dv = 3
    err = B.err_in_gamma_chi().result.subs(B.d, dv)
    f = sp.lambdify((B.gamma, B.chi), err, "mpmath")
    grid = [mp.mpf(10) * 4**k for k in range(7)]

    def rem(c):
        with mp.workdps(ctx.digits(60)):
            A = c ** (-mp.mpf(2) / 3)
            return f(1 - A, c) / (dv * c**2) - 1 - mp.mpf(3) / 2 * c ** (-mp.mpf(2) / 3)

    r = checks.remainder_order(rem, grid, -4 / 3, tol=0.05, what="remainder of Thm 4.1 (d = 3)")
    c2 = sp.simplify(rel.coefficient_in(R(-4, 3)))
    return (
        checks.joined(out, r)
        if r.verdict != "confirmed"
        else confirmed(
            out.evidence + "; " + r.evidence + f"; next coefficient {sp.sstr(c2)}", **r.values
        )
    )


@claim(
    id="000.thm4.1.optimal-constant",
    paper="000",
    source="Thm 4.1, Sec. 4.2",
    statement=r"\text{with } \gamma \text{ tuned optimally, } \mathsf{Err}_1 = d\chi^2(1+\tfrac32\chi^{-2/3}+\dots)"
    r"\text{: the constant } \tfrac32 \text{ and rate } \chi^{-2/3} \text{ are optimal for BMG}",
    section="Sec. 4.2",
)
def check_000_thm4_1_optimal_constant(ctx):
    fo = B.first_order_constant()
    opt = B.optimal_expansion(4)
    c1 = sp.simplify(opt.result.coefficient_in(R(-2, 3)))
    A1 = sp.simplify(opt.extras["A_series"].coefficient_in(R(-2, 3)))
    constant = printed(R(3, 2), "optimal constant 3/2")
    rate = printed(R(2, 3), "rate exponent 2/3")
    if fo.result == constant and c1 == constant and A1 == 1 and fo.extras["beta"] == rate:
        c3 = sp.simplify(opt.result.coefficient_in(-2))
        return confirmed(
            f"min_c (c + 1/(2c^2)) = 3/2 at c = 1; exponent balance beta = 2/3; the optimal "
            f"A(chi) = chi^(-2/3)(1 + ...) gives the same 3/2 (differences start at chi^-2: {sp.sstr(c3)})"
        )
    return refuted(f"best constant {fo.result}, optimal coefficient {c1}, A leading {A1}")
