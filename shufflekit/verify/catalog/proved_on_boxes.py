r"""Statements over a range of parameters, proved on the whole range (not sampled).

Each check builds the function whose sign is the statement from our own derivations
(:mod:`shufflekit.symbolic`), and proves the sign on a parameter box by interval
branch-and-bound in ball arithmetic (:mod:`shufflekit.verify.box`).  A ``confirmed`` verdict
reports the number of boxes; a ``refuted`` one a certified counterexample point; an
``imprecise`` one the box the budget could not decide.  Printed numbers (range ends, ratios)
appear only as the statements being tested.

Ids end in ``.box``; statements that sharpen a paper's asymptotic claim into an inequality on
a finite range are ours, say "(refinement)" in their source and have ``kind="refinement"``.

Mutation testing (:mod:`shufflekit.verify.mutation`): every check declares what it compares
against through :func:`~shufflekit.verify.mutation.printed` -- the printed decimals of Shvets 2026,
the bound on the other side of each inequality (an upper bound is corrupted to 9/10 of itself,
:func:`~shufflekit.verify.mutation.tighter_upper`, since a larger one is merely weaker), and the
direction of each inequality (:func:`oriented`: negated, the check proves the opposite
inequality, which the box search refutes with a certified point).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic import bmg as B
from shufflekit.symbolic import central_gaussian as CG
from shufflekit.symbolic import fixed_composition as F
from shufflekit.symbolic import gaussian_local as GL
from shufflekit.symbolic import hcr as H
from shufflekit.symbolic import privunit as PU
from shufflekit.symbolic import randomized_response as RR
from shufflekit.symbolic.series import Series
from shufflekit.verify.box import (
    all_of,
    arb_function,
    arb_gradient,
    check_expr_on_box,
    check_positive_beyond_root,
    enclose_extremum,
    enclosure_rounds_to,
)
from shufflekit.verify.claims import CheckContext, Outcome, claim, confirmed, imprecise, refuted
from shufflekit.verify.mutation import printed, tighter_upper

W0 = ("7/10", "1/5", "1/10")  # the three-symbol channel of Shvets 2026, Sec. 8.3
W1 = ("3/20", "11/20", "3/10")
PI_RANGE = ("0.05", "0.95")
# the numbers Shvets 2026 prints after Table 3: what the range claims are compared against
PRINTED = {
    "I_min": "1.47",
    "I_max": "2.30",
    "I_factor": "1.56",
    "under_min": "6.5%",
    "under_max": "31.3%",
}


def budget(ctx: CheckContext, full: int) -> int:
    """Box budget: the quick profile allows a quarter of the full one."""
    return max(full // 4, 200) if ctx.quick else full


def bits(ctx: CheckContext) -> int:
    """Ball working precision from ``ctx.dps`` (decimal digits; 3.33 bits each, at least 64)."""
    return max(64, int(ctx.dps * 3.33) + 1)


def oriented(expr: sp.Expr, name: str = "direction") -> sp.Expr:
    r"""The declared direction of the inequality ``expr >= 0`` (``> 0``): ``expr`` itself, or
    ``-expr`` when the declared ``True`` is negated -- the opposite inequality, which a correct
    check must then refute."""
    return expr if printed(True, name) else -expr


def truncated_sum(series: Series, n_terms: int) -> sp.Expr:
    r"""The first ``n_terms`` of a series at infinity as an expression in its large variable."""
    big = series.at_infinity
    return sp.Add(*[c * big ** (-e) for e, c in series.terms[:n_terms]])


# ============================================================ Takagi-Liew 2026 (Takagi-Liew)
@claim(
    id="000.sec4.chi-order-bmg.box",
    paper="000",
    source="Def. 2.4 and Sec. 4.3 (BMG)",
    statement=r"\chi_{\mathrm{up}} \ge \chi_{\mathrm{lo}} \text{ for BMG},\ \gamma\in[0.05,0.99],\ "
    r"\sigma_0\in[0.5,20]",
    section="Sec. 4.3",
)
def check_000_sec4_chi_order_bmg_box(ctx):
    # (i) the proof step: R_x >= gamma R_BG pointwise, so Var_{R_x}[l_0] = int D^2/R_x <= Var_BG[l_0]/gamma
    mech = make("bmg", gamma=B.gamma, sigma0=B.sigma0)
    factor = printed(B.gamma, "domination factor gamma")
    excess = oriented(
        sp.simplify(mech.density(B.r) / mech.blanket_density() - factor),
        "direction: R_x >= gamma R_BG",
    )
    if not excess.subs(B.gamma, 1 - B.A).is_positive:
        return refuted(f"R_x/R_BG - gamma = {excess} is not positive: the domination step fails")
    # (ii) the sandwich chi_lo^2 <= chi_up^2 <= 1/Var_0 (reference x = 0) is non-empty on the box
    gap = sp.factor(
        H.bmg_bound().result - printed(B.chi_lo().result, "chi_lo^2")
    )  # exact, then the box
    box = check_expr_on_box(
        oriented(gap, "direction: 1/Var_0 > chi_lo^2"),
        {B.gamma: ("0.05", "0.99"), B.sigma0: ("0.5", "20")},
        strict=True,
        what="1/Var_0 - chi_lo^2",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
        centered=True,
    )
    if box.verdict != "confirmed":
        return box
    return confirmed(
        f"R_x/R_BG - gamma = {sp.sstr(excess)} > 0 gives chi_up >= chi_lo for every "
        f"(gamma, sigma0); consistency of the sandwich: {box.evidence}",
        **box.values,
    )


@claim(
    id="000.prop3.5.sign.box",
    paper="000",
    source="App. A.4, Step 6",
    statement=r"\frac{d}{d\tau}\log C(\tau) > 0 \text{ on } (0, 20],\ < 0 \text{ on } [-20, 0)",
    section="Sec. 3.3",
    kind="proof-step",
)
def check_000_prop3_5_sign_box(ctx):
    tau = PU.tau
    dlog = PU.limit_constant().extras["dlog"]
    odd = sp.simplify(dlog.subs(tau, -tau) + dlog)
    if odd != 0:
        return refuted(f"d/dtau log C is not odd: dlog(-tau) + dlog(tau) = {sp.sstr(odd)}")
    out = check_positive_beyond_root(
        oriented(dlog),
        tau,
        0,
        1,
        20,
        what="d/dtau log C",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
    )
    return Outcome(
        out.verdict,
        out.evidence + "; dlog(-tau) = -dlog(tau) (exact) gives the sign on [-20, 0)",
        out.values,
    )


@claim(
    id="000.prop4.2.reversion-monotone.box",
    paper="000",
    source="App. A.8 (reversion step)",
    statement=r"\chi_{\mathrm{chua}}^2 = 1/V(\sigma_0) \text{ is increasing on } [0.5, 20] "
    r"\text{ (so } \sigma_0^2(\chi_{\mathrm{chua}}) \text{ is well defined)}",
    section="App. A.8",
    kind="proof-step",
)
def check_000_prop4_2_reversion_monotone_box(ctx):
    V = GL.variance().result
    return check_expr_on_box(
        oriented(-sp.diff(V, GL.sigma0)),
        {GL.sigma0: ("0.5", "20")},
        strict=True,
        what="-dV/dsigma0",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
        centered=True,
    )


@claim(
    id="000.prop4.2.inverse-truncation.box",
    paper="000",
    source="eq. (chiup-tilde-series-in-sigma) (refinement)",
    kind="refinement",
    statement=r"S_2(\sigma_0) < \chi_{\mathrm{chua}}^2 < S_3(\sigma_0) \text{ on } [1, 20],\ "
    r"S_k \text{ the first } k \text{ terms of the series in } \sigma_0",
    section="App. A.8",
)
def check_000_prop4_2_inverse_truncation_box(ctx):
    V = sp.factor(GL.variance().result)  # exact; exposes exp(1/sigma0^2) - 1 (evaluated as expm1)
    ser = GL.inverse_series(4).result
    s2 = printed(truncated_sum(ser, 2), "lower bound S_2")
    s3 = printed(truncated_sum(ser, 3), "upper bound S_3", mutant=tighter_upper)
    rng = {GL.sigma0: (1, 20)}
    b = budget(ctx, 20000)
    p = bits(ctx)
    return all_of(
        [
            check_expr_on_box(
                oriented(1 / V - s2, "direction: S_2 < chi^2"),
                rng,
                strict=True,
                what="chi^2 - S_2",
                budget=b,
                prec=p,
                centered=True,
            ),
            check_expr_on_box(
                oriented(s3 - 1 / V, "direction: chi^2 < S_3"),
                rng,
                strict=True,
                what="S_3 - chi^2",
                budget=b,
                prec=p,
                centered=True,
            ),
        ],
        f"S_2 = {sp.sstr(s2)}, S_3 = {sp.sstr(s3)}",
    )


@claim(
    id="000.appA.6.u-small.box",
    paper="000",
    source="App. A.6 Step 3 (refinement)",
    statement=r"0 < u = \chi^{-2/3} - \chi^{-4/3} \le 1/2 \text{ for } \chi \in (1, 10^6]",
    section="App. A.6",
    kind="refinement",
    mutation="the bound 1/2 has slack: u = A - A^2 with A = chi^(-2/3) in (0, 1) peaks at 1/4 "
    "(chi = 2^(3/2)), so a bound corrupted to 9/20 or 11/20 is still true and cannot change "
    "the verdict; the lower bound 0 and both directions are killed",
)
def check_000_appA_6_u_small_box(ctx):
    u = B.err_expansion(3).steps[1][1]
    lower = printed(sp.Integer(0), "lower bound 0")
    upper = printed(sp.Rational(1, 2), "upper bound 1/2", mutant=tighter_upper)
    b = budget(ctx, 20000)
    return all_of(
        [
            check_positive_beyond_root(
                oriented(u - lower, "direction: u > 0"),
                B.chi,
                1,
                2,
                10**6,
                what="u",
                budget=b,
                prec=bits(ctx),
            ),
            check_expr_on_box(
                oriented(upper - u, "direction: u <= 1/2"),
                {B.chi: (1, 10**6)},
                strict=True,
                what="1/2 - u",
                budget=b,
                prec=bits(ctx),
                centered=True,
            ),
        ],
        f"u = {sp.sstr(u)}",
    )


@claim(
    id="000.eqA.1.mills-truncation.box",
    paper="000",
    source="eq. (mills) (refinement)",
    statement=r"0 < \bar\Phi(t)/\phi(t) - (1/t - 1/t^3) < 3/t^5 \text{ on } [1, 8]",
    section="App. A.1",
    kind="refinement",
)
def check_000_eqA_1_mills_truncation_box(ctx):
    t = CG.mills_series(4).at_infinity
    mills = CG.gaussian_sf(t) * sp.sqrt(2 * sp.pi) * sp.exp(t**2 / 2)
    ser = CG.mills_series(4)
    rem = mills - truncated_sum(ser, 2)
    lower = printed(sp.Integer(0), "lower bound 0")
    nxt = printed(
        truncated_sum(ser, 3) - truncated_sum(ser, 2), "upper bound 3/t^5", mutant=tighter_upper
    )
    rng = {t: (1, 8)}
    b = budget(ctx, 20000)
    return all_of(
        [
            check_expr_on_box(
                oriented(rem - lower, "direction: M > S_2"),
                rng,
                strict=True,
                what="M - S_2",
                budget=b,
                prec=bits(ctx),
                centered=True,
            ),
            check_expr_on_box(
                oriented(nxt - rem, "direction: M - S_2 < 3/t^5"),
                rng,
                strict=True,
                what="next term - (M - S_2)",
                budget=b,
                prec=bits(ctx),
                centered=True,
            ),
        ],
        f"next term {sp.sstr(nxt)}",
    )


@claim(
    id="000.prop3.6.rr-truncation.box",
    paper="000",
    source="Prop. 3.6 (refinement)",
    statement=r"0 < \mathsf{Err}_1^{RR} - (\chi^2 + \chi - 1/2) \le \tfrac{1}{8\chi} "
    r"\text{ on } \chi\in[1/10, 100]",
    section="Sec. 3.3",
    kind="refinement",
)
def check_000_prop3_6_rr_truncation_box(ctx):
    err = RR.err_closed_form().result
    ser = RR.err_in_chi(4).result
    big = ser.at_infinity
    rem = err.subs(next(iter(err.free_symbols)), big) - truncated_sum(ser, 3)
    rem = 1 / sp.radsimp(1 / rem)  # rationalised (an identity): no cancellation of sqrt - chi
    lower = printed(sp.Integer(0), "lower bound 0")
    nxt = printed(
        truncated_sum(ser, 4) - truncated_sum(ser, 3), "upper bound 1/(8 chi)", mutant=tighter_upper
    )
    rng = {big: (sp.Rational(1, 10), 100)}
    b = budget(ctx, 20000)
    p = bits(ctx)
    return all_of(
        [
            check_expr_on_box(
                oriented(rem - lower, "direction: Err > S_3"),
                rng,
                strict=True,
                what="Err - S_3",
                budget=b,
                prec=p,
                centered=True,
            ),
            check_expr_on_box(
                oriented(nxt - rem, "direction: Err - S_3 <= 1/(8 chi)"),
                rng,
                what="next term - (Err - S_3)",
                budget=b,
                prec=p,
                centered=True,
            ),
        ],
        f"next term {sp.sstr(nxt)}",
    )


@claim(
    id="000.def2.4.chi-order-rr.box",
    paper="000",
    source="Def. 2.4 (RR)",
    statement=r"\chi_{\mathrm{up}}^2 > \chi_{\mathrm{lo}}^2 \text{ for RR},\ t = 2p-1 \in [10^{-3}, 1)",
    section="Sec. 2.4",
)
def check_000_def2_4_chi_order_rr_box(ctx):
    ex = RR.basics().extras
    t = RR.basics().variables[0]
    gap = oriented(ex["chi_up2"] - printed(ex["chi_lo2"], "chi_lo^2"))
    return check_positive_beyond_root(
        gap,
        t,
        1,
        sp.Rational(1, 2),
        sp.Rational(1, 1000),
        what="chi_up^2 - chi_lo^2",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
    )


# ============================================================ Shvets 2026 (Shvets)
@cache
def fisher_expr() -> sp.Expr:
    return F.fisher_constant(W0, W1).result


@cache
def mixture_expr() -> sp.Expr:
    return F.mixture_fisher_constant(W0, W1).result


def extremum(expr: sp.Expr, kind: str, ctx: CheckContext):
    f = arb_function(expr, [F.pi])
    g = arb_gradient(expr, [F.pi])
    return enclose_extremum(
        f,
        {"pi": PI_RANGE},
        kind=kind,
        tol=1e-9,
        gradient=g,
        budget=budget(ctx, 20000),
        prec=bits(ctx),
    )


def rounds(ext, cell: str, what: str) -> Outcome:
    ok = enclosure_rounds_to(ext.lo, ext.hi, cell)
    text = f"{what}: {ext.describe()}; printed {cell}"
    if ok is True:
        return confirmed(text + " (every value in the enclosure rounds to it)", boxes=ext.boxes)
    if ok is False:
        return refuted(
            text + " (the certified enclosure rounds to something else)", boxes=ext.boxes
        )
    return imprecise(text + " (the enclosure straddles a rounding edge)", boxes=ext.boxes)


@claim(
    id="001.sec8.3.I-range.box",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"\min_{[0.05,0.95]} I_\pi = 1.47,\ \max_{[0.05,0.95]} I_\pi = 2.30",
    section="Sec. 8.3",
)
def check_001_sec8_3_I_range_box(ctx):
    I = fisher_expr()
    return all_of(
        [
            rounds(extremum(I, "min", ctx), printed(PRINTED["I_min"], "I_min"), "min I_pi"),
            rounds(extremum(I, "max", ctx), printed(PRINTED["I_max"], "I_max"), "max I_pi"),
        ]
    )


@claim(
    id="001.sec8.3.I-factor.box",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"\max I_\pi / \min I_\pi = 1.56 \text{ on } [0.05, 0.95]",
    section="Sec. 8.3",
)
def check_001_sec8_3_I_factor_box(ctx):
    I = fisher_expr()
    lo, hi = extremum(I, "min", ctx), extremum(I, "max", ctx)
    ratio_lo, ratio_hi = hi.lo / lo.hi, hi.hi / lo.lo
    factor = printed(PRINTED["I_factor"], "I_factor")
    ok = enclosure_rounds_to(ratio_lo, ratio_hi, factor)
    text = (
        f"max/min in [{float(ratio_lo.lower()):.8g}, {float(ratio_hi.upper()):.8g}] from certified "
        f"{lo.describe()} and {hi.describe()}; printed {factor}"
    )
    make = confirmed if ok is True else refuted if ok is False else imprecise
    return make(text, boxes=lo.boxes + hi.boxes)


@claim(
    id="001.sec8.3.underestimate-range.box",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"1 - I^{\mathrm{mix}}_\pi/I_\pi \text{ ranges from } 6.5\% \text{ to } 31.3\% "
    r"\text{ on } [0.05, 0.95]",
    section="Sec. 8.3",
)
def check_001_sec8_3_underestimate_range_box(ctx):
    u = 1 - mixture_expr() / fisher_expr()
    return all_of(
        [
            rounds(
                extremum(u, "min", ctx),
                printed(PRINTED["under_min"], "under_min"),
                "min underestimate",
            ),
            rounds(
                extremum(u, "max", ctx),
                printed(PRINTED["under_max"], "under_max"),
                "max underestimate",
            ),
        ]
    )


@claim(
    id="001.prop3.2.strict-gap.box",
    paper="001",
    source="Prop. 3.2 (Table 3 channel)",
    statement=r"I_\pi > I^{\mathrm{mix}}_\pi \text{ on } [0.01, 0.99]",
    section="Sec. 3",
)
def check_001_prop3_2_strict_gap_box(ctx):
    gap = oriented(fisher_expr() - printed(mixture_expr(), "I_mix"))
    return check_expr_on_box(
        gap,
        {F.pi: ("0.01", "0.99")},
        strict=True,
        what="I_pi - I_mix",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
        centered=True,
    )


@claim(
    id="001.prop3.4.convex.box",
    paper="001",
    source="Prop. 3.4 (Table 3 channel)",
    statement=r"\pi \mapsto I_\pi \text{ is convex on } [0, 1]",
    section="Sec. 3",
)
def check_001_prop3_4_convex_box(ctx):
    second = sp.diff(fisher_expr(), F.pi, 2)
    return check_expr_on_box(
        oriented(second),
        {F.pi: (0, 1)},
        strict=True,
        what="d^2 I_pi / d pi^2",
        budget=budget(ctx, 20000),
        prec=bits(ctx),
        centered=True,
    )
