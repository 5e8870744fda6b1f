r"""Takagi-Liew 2026, Sec. 4.3 and App. A.8: the Gaussian local randomizer (Prop. 4.2)."""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic import bmg as B
from shufflekit.symbolic import gaussian_local as GL
from shufflekit.symbolic import hcr as H
from shufflekit.verify import checks
from shufflekit.verify.claims import claim, confirmed
from shufflekit.verify.mutation import printed

R = sp.Rational


@claim(
    id="000.sec4.3.chi-ratio",
    paper="000",
    source="Sec. 4.3",
    statement=r"\mathsf{BMG}: \chi_{\mathrm{up}} > \chi_{\mathrm{lo}},\ \chi_{\mathrm{up}}/\chi_{\mathrm{lo}}\to1",
    section="Sec. 4.3",
)
def check_000_sec4_3_chi_ratio(ctx):
    # chi_lo^2 <= chi_up^2 <= chi_lo^2 / gamma: lower from R_z >= gamma R_BG, upper from the reference z = 0
    upper = sp.simplify(H.bmg_bound().result / B.chi_lo().result)
    out = checks.exact_identity(
        upper, 1 / B.gamma, what="chi_up^2/chi_lo^2 bound from the reference x = 0"
    )
    limit = sp.limit(upper.subs(B.gamma, 1 - B.chi ** R(-2, 3)), B.chi, sp.oo)
    return checks.joined(
        out, checks.exact_identity(limit, 1, what="the bound along Thm 4.1, chi -> oo")
    )


@claim(
    id="000.prop4.2.ell0",
    paper="000",
    source="eq. (ell0-gauss)",
    statement=r"\ell_0(y) = e^{2y/\sigma^2} - e^{y/\sigma^2 + 1/(2\sigma^2)}",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_ell0(ctx):
    s = GL.sigma0
    yv = sp.Symbol("y", real=True)
    mech = make("gaussian-local", sigma0=s)
    from shufflekit.mechanisms.gaussian import y as ysym

    ell = sp.simplify((mech.density(1) - mech.density(0)) / mech.density(-1))
    printed = sp.exp(2 * ysym / s**2) - sp.exp(ysym / s**2 + 1 / (2 * s**2))
    return checks.exact_identity(
        sp.simplify(sp.expand(sp.powsimp(ell - printed))), 0, what="l_0 - printed"
    )


@claim(
    id="000.prop4.2.V",
    paper="000",
    source="eq. (var-ell0-gauss)",
    statement=r"V = e^{4/\sigma^2}-2e^{2/\sigma^2}+e^{1/\sigma^2}",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_V(ctx):
    s = GL.sigma0
    return checks.exact_identity(
        GL.variance().result, sp.exp(4 / s**2) - 2 * sp.exp(2 / s**2) + sp.exp(1 / s**2), what="V"
    )


@claim(
    id="000.prop4.2.V-series",
    paper="000",
    source="eq. (V-series-in-a)",
    statement=r"V = a+\tfrac92a^2+\tfrac{49}{6}a^3+\tfrac{75}{8}a^4+O(a^5)",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_V_series(ctx):
    return checks.series_coefficients(
        GL.variance_series(4).result, [1, 2, 3, 4], [1, R(9, 2), R(49, 6), R(75, 8)], "V series"
    )


@claim(
    id="000.prop4.2.inverse",
    paper="000",
    source="eq. (chiup-tilde-series-in-sigma)",
    statement=r"\chi_{\mathrm{chua}}^2 = \sigma^2-\tfrac92+\tfrac{145}{12}\sigma^{-2}-27\sigma^{-4}+O(\sigma^{-6})",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_inverse(ctx):
    return checks.series_coefficients(
        GL.inverse_series(4).result, [2, 0, -2, -4], [1, -R(9, 2), R(145, 12), -27], "1/V series"
    )


@claim(
    id="000.prop4.2.reversion",
    paper="000",
    source="eq. (sigma2-in-chiup-tilde)",
    statement=r"\sigma^2 = \chi^2+\tfrac92-\tfrac{145}{12}\chi^{-2}+\tfrac{651}{8}\chi^{-4}+O(\chi^{-6})",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_reversion(ctx):
    ser = GL.sigma2_in_chi(5).result
    out = checks.series_coefficients(
        ser, [2, 0, -2, -4], [1, R(9, 2), -R(145, 12), R(651, 8)], "reversion"
    )
    if out.verdict != "confirmed":
        return out
    # round trip: chi^2(sigma^2(chi)) = chi^2 to the order of the truncation
    s2 = ser.truncate(4)
    grid = [mp.mpf(16) * 2**k for k in range(6)]
    fs = sp.lambdify(GL.chi, s2.expr_in(), "mpmath")

    def rem(c):
        with mp.workdps(ctx.digits(60)):
            return fs(mp.mpf(c)) - _sigma2_exact(c, ctx.digits(60))

    r = checks.remainder_order(rem, grid, -6, tol=0.1, what="sigma^2 minus 4 terms")
    return checks.joined(out, r)


def _sigma2_exact(c, dps: int):
    """sigma0^2 with 1/V(sigma0) = c^2, by root finding at ``dps`` digits."""
    with mp.workdps(dps):
        c = mp.mpf(c)
        g = lambda a: mp.exp(4 * a) - 2 * mp.exp(2 * a) + mp.exp(a) - 1 / c**2
        a = mp.findroot(g, 1 / c**2)
        return 1 / a


@claim(
    id="000.prop4.2.statement",
    paper="000",
    source="Prop. 4.2",
    statement=r"\mathsf{Err}_1 = d\chi_{\mathrm{chua}}^2\left(1+\tfrac92\chi_{\mathrm{chua}}^{-2}+O(\chi_{\mathrm{chua}}^{-4})\right)",
    section="Sec. 4.3",
)
def check_000_prop4_2_statement(ctx):
    ser = GL.err_in_chi(4).result
    d = GL.d
    out = checks.series_coefficients(ser, [2, 0], [d, R(9, 2) * d], "Err_1")
    if out.verdict != "confirmed":
        return out
    grid = [mp.mpf(32) * 2**k for k in range(6)]  # chi >= 32: past the pre-asymptotic range
    r = checks.remainder_order(
        lambda c: _sigma2_exact(c, ctx.digits(60)) / c**2 - 1 - mp.mpf(9) / 2 / c**2,
        grid,
        -4,
        tol=0.05,
        what="Err/(d chi^2) - 1 - 9/(2 chi^2)",
    )
    return checks.joined(out, r)


@claim(
    id="000.prop4.2.conclusion",
    paper="000",
    source="App. A.8, conclusion",
    statement=r"\mathsf{Err}_1 = d\chi^2+\tfrac92d-\tfrac{145}{12}d\chi^{-2}+O(d\chi^{-4})",
    section="App. A.8",
)
def check_000_prop4_2_conclusion(ctx):
    d = GL.d
    out = checks.series_coefficients(
        GL.err_in_chi(4).result, [2, 0, -2], [d, R(9, 2) * d, -R(145, 12) * d], "Err_1"
    )
    if out.verdict == "confirmed":
        return confirmed(
            out.evidence + "; consistent with Prop. 4.2 (the chi^-2 term is O(chi^-4) relative)"
        )
    return out


@claim(
    id="000.sec4.3.rates",
    paper="000",
    source="Sec. 4.3",
    statement=r"\text{excess of GL is } O(\chi_{\mathrm{chua}}^{-2}) \text{, of BMG } O(\chi_{\mathrm{lo}}^{-2/3})",
    section="Sec. 4.3",
)
def check_000_sec4_3_rates(ctx):
    gl = GL.err_in_chi(3).result
    bm = B.err_expansion(3).extras["relative"]
    gl_first = gl.terms[1][0]  # exponent in 1/chi of the second term (relative: minus 2)
    bm_first = bm.terms[1][0]
    gl_rate = printed(2, "GL excess exponent (chi^-2)")
    bm_rate = printed(R(2, 3), "BMG excess exponent (chi^-2/3)")
    ok = gl_first - gl.terms[0][0] == gl_rate and bm_first == bm_rate
    return checks.decide(
        ok,
        f"relative excess starts at chi^-{gl_first - gl.terms[0][0]} (GL) and "
        f"chi^-({bm_first}) (BMG); printed {gl_rate}, {bm_rate}",
        statement="the excess rates are as printed",
    )
