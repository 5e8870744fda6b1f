r"""Shvets 2026, Sec. 6: the Jensen-Shannon expansions (Lemma 6.1, Thms 6.2-6.5)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import CANONICAL_MOMENTS, JSD_SERIES
from shufflekit.verify.catalog.seed001.running_example import (
    canonical_jsd_remainder,
    composition_k,
    fisher_at,
    jsd_leading_remainder,
    n_grid,
    score_statistics,
    shuffled_pair_at,
)
from shufflekit.verify.claims import claim, confirmed, refuted
from shufflekit.verify.mutation import printed


@claim(
    id="001.lemma6.1.D",
    paper="001",
    source="Lemma 6.1",
    statement=r"\mathrm{JSD}(P\|Q) = \mathbb{E}_P D(L),\ D(1+u) = \tfrac12(1+u)\log(1+u) - \tfrac12(2+u)\log(1+u/2)",
    section="Sec. 6",
)
def check_001_lemma6_1_D(ctx):
    gap = F.jsd_function().extras["gap_to_closed_form"]
    if any(x != 0 for x in gap):
        return refuted(f"gap {gap}")
    pair = shuffled_pair_at(100, 30)
    P, Q = pair.p, pair.q
    M = (P + Q) / 2
    direct = 0.5 * float(np.sum(P * np.log(P / M)) + np.sum(Q * np.log(Q / M)))
    return checks.numeric_agreement(
        pair.jsd(),
        direct,
        rel_tol=1e-10,
        what="E_P D(L) vs the definition (n=100)",
        why="float sums of 5e3 terms with first-order cancellation in the direct form",
    )


for _j, _v in JSD_SERIES.items():

    @claim(
        id=f"001.lemma6.1.series.u{_j}",
        paper="001",
        source="Lemma 6.1 (series)",
        statement=rf"[u^{_j}]D(1+u) = {sp.latex(_v)}",
        section="Sec. 6",
    )
    def check_001_lemma6_1_series_u(ctx, _j=_j, _v=_v):
        return checks.exact_identity(
            F.jsd_series(7).extras["coefficients"][_j], _v, what=f"coefficient of u^{_j}"
        )


for _j, _v in CANONICAL_MOMENTS.items():

    @claim(
        id=f"001.thm6.2.moment{_j}",
        paper="001",
        source="Thm 6.2 (moments of U_n)",
        statement=rf"\mathbb{{E}}U_n^{_j} = {sp.latex(_v)}",
        section="Sec. 6",
    )
    def check_001_thm6_2_moment(ctx, _j=_j, _v=_v):
        return checks.exact_identity(
            F.canonical_moments(6).extras["moments"][_j], _v, what=f"E U_n^{_j}"
        )


@claim(
    id="001.thm6.2.canonical-jsd",
    paper="001",
    source="Thm 6.2",
    statement=r"\mathrm{JSD}(T_{n,0}\|T_{n,1}) = \frac{\chi^2}{8n} - \frac{\mu_3}{16n^2} + \frac{7(\chi^2)^2}{64n^2} + O(n^{-3})",
    section="Sec. 6",
)
def check_001_thm6_2_canonical_jsd(ctx):
    der = F.canonical_jsd_expansion()
    printed = F.chi2 / (8 * F.n) - F.mu3 / (16 * F.n**2) + 7 * F.chi2**2 / (64 * F.n**2)
    sym = checks.exact_identity(der.result, printed, what="coefficients")
    if sym.verdict != "confirmed":
        return sym
    return canonical_jsd_remainder(ctx, "coefficients derived exactly; ")


@claim(
    id="001.thm6.4.jsd",
    paper="001",
    source="Thm 6.4 / abstract",
    statement=r"\mathrm{JSD}(T_{n,k}\|T_{n,k+1}) = \frac{I_{k/n}}{8n} + O(n^{-2})",
    section="Sec. 6",
)
def check_001_thm6_4_jsd(ctx):
    return checks.remainder_order(
        jsd_leading_remainder,
        n_grid(ctx),
        -2.0,
        tol=0.1,
        what="JSD - I_{k/n}/(8n), k = round(0.3 n)",
    )


@claim(
    id="001.thm6.5.f-divergence",
    paper="001",
    source="Thm 6.5",
    statement=r"D_f(T_{n,k+1}\|T_{n,k}) = \frac{f''(1)}{2}\frac{I_{k/n}}{n} + o(n^{-1})",
    section="Sec. 6",
)
def check_001_thm6_5_f_divergence(ctx):
    der = F.smooth_f_divergence_leading()
    f = sp.Function("f")
    I = sp.Symbol("I", positive=True)
    expected = sp.diff(f(F.u), F.u, 2).subs(F.u, 1) / 2 * I / F.n
    sym = checks.exact_identity(
        sp.simplify(der.result.doit()),
        sp.simplify(expected.doit()),
        what="second-order Taylor term",
    )
    if sym.verdict != "confirmed":
        return sym
    outs = []
    for name, fpp, fn in (
        ("KL(Q||P)", 1.0, lambda pr: pr.kl_qp()),
        ("KL(P||Q)", 1.0, lambda pr: pr.kl_pq()),
        ("chi^2(Q||P)", 2.0, lambda pr: pr.chi2_qp()),
    ):

        def rem(n, fpp=fpp, fn=fn):
            k = composition_k(n)
            return fn(shuffled_pair_at(n, k)) - fpp / 2 * fisher_at(sp.Rational(k, n)) / n

        o = checks.remainder_order(rem, n_grid(ctx), -2.0, tol=0.15, what=f"{name} - f''(1) I/(2n)")
        outs.append(o)
    res = checks.all_confirmed(
        outs, "symbolic leading term; KL both ways and chi^2 have remainders of order n^-2 (o(1/n))"
    )
    return res


@claim(
    id="001.thm6.4.EU2",
    paper="001",
    source="Thm 6.4 (proof)",
    statement=r"\mathbb{E}_PU^2 = I_{k/n}/n + O(n^{-2})",
    section="Sec. 6",
    kind="proof-step",
)
def check_001_thm6_4_EU2(ctx):
    return checks.remainder_order(
        lambda n: score_statistics(n)["EU2"] - score_statistics(n)["I"] / n,
        n_grid(ctx),
        -2.0,
        tol=0.1,
        what="E U^2 - I_{k/n}/n",
    )


@claim(
    id="001.thm6.4.tail",
    paper="001",
    source="Thm 6.4 (proof)",
    statement=r"\mathbb{P}(|U|>1/2) = O(n^{-4})",
    section="Sec. 6",
    kind="proof-step",
    mutation="the tail is exponentially small, so O(n^-p) holds for every p: no corruption of the "
    "printed order can be false; the negated statement (n^4 P unbounded) is caught",
)
def check_001_thm6_4_tail(ctx):
    vals = {n: score_statistics(n)["tail"] for n in n_grid(ctx)}
    ok = all(vals[n] * n**4 <= vals[n_grid(ctx)[0]] * n_grid(ctx)[0] ** 4 for n in vals)
    msg = (
        "P(|U| > 1/2) = "
        + ", ".join(f"{v:.3g} (n={n})" for n, v in vals.items())
        + "; n^4 P decreases (the tail is exponentially small)"
    )
    return checks.decide(ok, msg, statement="n^4 P(|U| > 1/2) stays bounded")


@claim(
    id="001.thm6.5.mean-zero",
    paper="001",
    source="Thm 6.5 (proof)",
    statement=r"\mathbb{E}_{T_{n,k}}[L-1] = 0",
    section="Sec. 6",
    kind="proof-step",
)
def check_001_thm6_5_mean_zero(ctx):
    mean = float(printed(0, "E_P[L - 1]"))
    worst = max(abs(score_statistics(n)["EU"] - mean) for n in n_grid(ctx))
    # float sum of ~1e5 terms of size <= 1: round-off below 1e-12
    msg = f"max |E_P(L-1) - {mean:g}| = {worst:.2e} over n in {n_grid(ctx)}"
    return confirmed(msg) if worst < 1e-12 else refuted(msg)
