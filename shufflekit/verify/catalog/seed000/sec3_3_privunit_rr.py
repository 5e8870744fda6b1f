r"""Takagi-Liew 2026, Sec. 3.3: PrivUnit (Prop. 3.5) and randomized response (Prop. 3.6)."""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from shufflekit.symbolic import privunit as PU
from shufflekit.symbolic import randomized_response as RR
from shufflekit.verify import checks
from shufflekit.verify.claims import claim, confirmed, refuted
from shufflekit.verify.mutation import printed

R = sp.Rational


@claim(
    id="000.prop3.5.identity",
    paper="000",
    source="Prop. 3.5, eq. (err1-in-chilo)",
    statement=r"\mathsf{Err}_1(\mathrm{PrivUnit}) = \frac{q}{1-q}\frac{1}{\gamma\alpha^2}\chi_{\mathrm{lo}}^2(1+O(\chi_{\mathrm{lo}}^{-1}))",
    section="Sec. 3.3",
)
def check_000_prop3_5_identity(ctx):
    pts = [(R(3, 5), R(1, 10), 5), (R(7, 10), R(-1, 5), 3), (R(11, 20), R(0), 8)]
    for p_, th, d_ in pts[: 2 if ctx.quick else 3]:
        v = PU.exact_numbers(p_, th, d_)
        if sp.simplify(v["identity_residual"]) != 0:
            return refuted(
                f"Err_1 - (C_gamma d chi_lo^2 - 1) = {v['identity_residual']} at {(p_, th, d_)}"
            )
    # relative correction along p -> 1 - q (chi_lo -> oo) at theta = 1/10, d = 5: O(chi^-1) from gamma -> 1
    th, d_ = R(1, 10), 5
    q = PU.exact_numbers(R(3, 5), th, d_)["q"]
    xs, rems = [], []
    for k in range(4, 10):
        p_ = 1 - q + sp.Rational(1, 2**k)
        v = PU.exact_numbers(p_, th, d_)
        chi2 = v["chi_lo2"]
        xs.append(float(sp.sqrt(chi2)))
        rems.append(float(v["err"] / (v["C"] * d_ * chi2) - 1))
    out = checks.remainder_order(
        lambda xv: rems[xs.index(xv)], xs, -1, tol=0.1, what="Err/(C d chi_lo^2) - 1 along p -> 1-q"
    )
    if out.verdict == "confirmed":
        return confirmed(
            "Err_1 = C_gamma d chi_lo^2 - 1 exactly (C_gamma = q/((1-q) gamma d alpha^2)); "
            + out.evidence,
            **out.values,
        )
    return out


@claim(
    id="000.prop3.5.C0",
    paper="000",
    source="App. A.4, Step 6",
    statement=r"C(0) = \frac{(1/2)(1/2)}{(1/\sqrt{2\pi})^2} = \frac{\pi}{2}",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_C0(ctx):
    return checks.exact_identity(PU.limit_constant().extras["C0"], sp.pi / 2, what="C(0)")


@claim(
    id="000.prop3.5.even",
    paper="000",
    source="App. A.4, Step 6",
    statement=r"C(\tau)=\Phi(\tau)Q(\tau)/\phi(\tau)^2 \text{ is even}",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_even(ctx):
    return checks.exact_identity(PU.limit_constant().steps[0][1], 0, what="C(-tau) - C(tau)")


@claim(
    id="000.prop3.5.dlog",
    paper="000",
    source="App. A.4, Step 6",
    statement=r"\frac{d}{d\tau}\log C = \frac{\phi}{\Phi} - \frac{\phi}{Q} + 2\tau",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_dlog(ctx):
    lc = PU.limit_constant()
    tau = PU.tau
    phi = sp.exp(-(tau**2) / 2) / sp.sqrt(2 * sp.pi)
    printed = phi / lc.extras["Phi"] + (-phi / lc.extras["Q"]) + 2 * tau
    return checks.exact_identity(lc.extras["dlog"], printed, what="log-derivative of C")


@claim(
    id="000.prop3.5.sign",
    paper="000",
    source="App. A.4, Step 6",
    statement=r"\frac{d}{d\tau}\log C(\tau) > 0\ (\tau>0),\ <0\ (\tau<0);\ \tau=0 \text{ unique minimiser}",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_sign(ctx):
    n = 60 if ctx.quick else 400
    with mp.workdps(ctx.digits(30)):

        def dlog(t):
            t = mp.mpf(t)
            phi, Phi, Q = mp.npdf(t), mp.ncdf(t), mp.ncdf(-t)
            return phi / Phi - phi / Q + 2 * t

        taus = [mp.mpf(20) * (i + 1) / n for i in range(n)]
        bad = [float(t) for t in taus if not (dlog(t) > 0 and dlog(-t) < 0)]
    taylor = PU.limit_constant().extras["taylor"]
    c2 = sp.simplify(taylor.coefficient(2))
    return checks.decide(
        not bad and bool(c2.is_positive),
        f"sign checked on {n} points of (0, 20] (and their negatives) at "
        f"{ctx.digits(30)} digits: {len(bad)} failures {bad[:5]}; C(tau) = pi/2 + "
        f"({sp.sstr(c2)}) tau^2 + ... near 0",
        statement="d/dtau log C > 0 for tau > 0",
        c2=sp.sstr(c2),
    )


def _privunit_C(theta, d):
    k = mp.mpf(d - 1) / 2
    q = mp.betainc(k, k, 0, (1 + theta) / 2, regularized=True)
    first = (1 - theta**2) ** k / ((d - 1) * mp.beta(mp.mpf(1) / 2, k))
    alpha = first / (1 - q)
    return q / ((1 - q) * d * alpha**2)


@claim(
    id="000.prop3.5.liminf",
    paper="000",
    source="Prop. 3.5",
    statement=r"\liminf_{d\to\infty}\inf_{\theta\in[-1,1]} C(\theta,d) \ge \frac{\pi}{2}",
    section="Sec. 3.3",
)
def check_000_prop3_5_liminf(ctx):
    ds = [2, 10, 100] if ctx.quick else [2, 5, 10, 100, 1000]
    rows = []
    with mp.workdps(ctx.digits(30)):
        for d in ds:
            s = mp.sqrt(d)
            grid = [mp.mpf(i) / (20 * s) for i in range(-100, 101) if abs(mp.mpf(i) / (20 * s)) < 1]
            val, arg = min((_privunit_C(t, d), t) for t in grid)
            rows.append((d, float(val), float(arg * s)))
    closed = PU.constant_at_zero()
    ser = closed.result
    c1 = sp.simplify(ser.coefficient_in(-1))
    increasing = all(r2[1] > r1[1] for r1, r2 in zip(rows, rows[1:]))
    bound = printed(sp.pi / 2, "liminf bound pi/2")
    lim = ser.coefficient_in(0)  # the constant term of C(0, d) in 1/d
    if (
        increasing
        and all(abs(r[2]) < 1e-12 for r in rows)
        and c1.is_negative
        and sp.simplify(lim - bound) == 0
    ):
        return confirmed(
            "inf over theta is attained at theta = 0 for every tested d; "
            + ", ".join(f"C(0,{d}) = {v:.6f}" for d, v, _ in rows)
            + f"; C(0,d) = pi/2 + ({sp.sstr(c1)})/d + O(d^-2) -> pi/2 from below, so the liminf "
            "equals pi/2 (each finite d is below pi/2)",
            values=[v for _, v, _ in rows],
        )
    return refuted(
        f"rows {rows}, 1/d coefficient {c1}, limit {sp.sstr(lim)} vs printed {sp.sstr(bound)}"
    )


@claim(
    id="000.prop3.5.C0-closed",
    paper="000",
    source="App. A.4, Step 5",
    statement=r"C(0,d) = \frac{q}{1-q}\frac{1}{d\alpha^2}\Big|_{\theta=0} \to \frac{\pi}{2}",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_C0_closed(ctx):
    der = PU.constant_at_zero()
    c0 = der.extras["closed_form"]
    lim = der.result.coefficient_in(0)  # constant term of the expansion in 1/d
    vals = {d: float(c0.subs(PU.d, d)) for d in (2, 3, 10)}
    out = checks.exact_identity(lim, sp.pi / 2, what="lim C(0,d)")
    return checks.joined(out, confirmed(f"C(0,d) = {sp.sstr(c0)}; values {vals}", values=vals))


@claim(
    id="000.prop3.6.quantities",
    paper="000",
    source="App. A.5",
    statement=r"\gamma = 1-t,\ \chi_{\mathrm{lo}}^2 = \frac{1-t}{t^2},\ \mathsf{Err}_1 = \frac{1}{t^2}-1",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_6_quantities(ctx):
    b = RR.basics().extras
    t = RR.t
    return checks.all_confirmed(
        [
            checks.exact_identity(b[name], form, what=name)
            for name, form in (("gamma", 1 - t), ("chi_lo2", (1 - t) / t**2), ("err", 1 / t**2 - 1))
        ],
        "gamma, chi_lo^2 and Err_1 derived from the RR matrix",
    )


@claim(
    id="000.prop3.6.t",
    paper="000",
    source="eq. (t-in-chilo)",
    statement=r"t = \frac{-1+\sqrt{1+4\chi^2}}{2\chi^2} = \chi^{-1} - \tfrac12\chi^{-2} + O(\chi^{-3})",
    section="Sec. 3.3",
)
def check_000_prop3_6_t(ctx):
    chi = RR.chi
    out = checks.exact_identity(
        RR.t_of_chi().result, (-1 + sp.sqrt(1 + 4 * chi**2)) / (2 * chi**2), what="t(chi)"
    )
    if out.verdict != "confirmed":
        return out
    return checks.series_coefficients(
        RR.err_in_chi(6).extras["t_series"], [-1, -2], [1, -R(1, 2)], "t(chi) expansion"
    )


@claim(
    id="000.prop3.6.expansion",
    paper="000",
    source="Prop. 3.6",
    statement=r"\mathsf{Err}_1(\mathrm{RR}) = \chi_{\mathrm{lo}}^2(1+\chi_{\mathrm{lo}}^{-1}+O(\chi_{\mathrm{lo}}^{-2}))",
    section="Sec. 3.3",
)
def check_000_prop3_6_expansion(ctx):
    ser = RR.err_in_chi(6).result
    out = checks.series_coefficients(ser, [2, 1], [1, 1], "Err_1 expansion")
    if out.verdict != "confirmed":
        return out
    closed = RR.err_closed_form().result
    grid = [10 * 2**k for k in range(8)]
    f = sp.lambdify(RR.chi, closed, "mpmath")
    with mp.workdps(ctx.digits(50)):
        r = checks.remainder_order(
            lambda c: f(mp.mpf(c)) / mp.mpf(c) ** 2 - 1 - 1 / mp.mpf(c),
            grid,
            -2,
            tol=0.05,
            what="Err/chi^2 - 1 - 1/chi",
        )
    return checks.joined(out, r)
