r"""Shvets 2026, Sec. 9: multi-message (bundled / unbundled) shuffling."""

from __future__ import annotations

from shufflekit.symbolic import multi_message as MM
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import W0, W1
from shufflekit.verify.claims import claim


@claim(
    id="001.sec9.1.unbundled-lr",
    paper="001",
    source="Sec. 9.1",
    statement=r"L^{(m)}_{n,0}(N) = \binom{nm}{m}^{-1}\sum_{\sum m_y=m}\prod_y\binom{N_y}{m_y}w(y)^{m_y}",
    section="Sec. 9",
)
def check_001_sec9_1_unbundled_lr(ctx):
    import itertools

    cases, mismatches = 0, []
    for n_, m_ in ((2, 2),) if ctx.quick else ((2, 2), (3, 2), (2, 3)):
        for hist in itertools.product(range(n_ * m_ + 1), repeat=3):
            if sum(hist) != n_ * m_:
                continue
            a = MM.unbundled_likelihood_ratio(W0, W1, n_, m_, hist)
            b = MM.brute_force_likelihood_ratio(W0, W1, n_, m_, hist)
            cases += 1
            if a != b:
                mismatches.append((n_, m_, hist, a, b))
    return checks.decide(
        not mismatches,
        f"formula vs Q/P from full enumeration of message sequences at "
        f"{cases} histograms (exact rationals): {len(mismatches)} mismatches "
        f"{mismatches[:2]}",
        statement="the formula equals Q/P",
    )


@claim(
    id="001.sec9.2.unbundled-leading",
    paper="001",
    source="Sec. 9.2",
    statement=r"n\,\chi^2(T^{(m)}_{n,1}\|T^{(m)}_{n,0}) \to m\chi^2(W_1\|W_0)",
    section="Sec. 9",
)
def check_001_sec9_2_unbundled_leading(ctx):
    outs = [
        checks.exact_identity(MM.unbundled_chi2(m).extras["lead"], m * MM.chi2, what=f"m={m}")
        for m in ((1, 2, 3) if ctx.quick else (1, 2, 3, 4))
    ]
    return checks.all_confirmed(outs, "leading 1/n coefficient of the exact unbundled chi^2")


@claim(
    id="001.sec9.3.bundled",
    paper="001",
    source="Sec. 9.3",
    statement=r"1+\chi^2(W_1^{\otimes m}\|W_0^{\otimes m}) = (1+\chi^2(W_1\|W_0))^m",
    section="Sec. 9",
)
def check_001_sec9_3_bundled(ctx):
    outs = [
        checks.exact_identity(
            MM.bundled_chi2(m, 3).result, (1 + MM.chi2) ** m - 1, what=f"chi^2 of the m={m} bundle"
        )
        for m in (1, 2, 3)
    ]
    return checks.all_confirmed(
        outs,
        "derived from the product likelihood ratio of a generic "
        "3-symbol channel (every channel symbol cancels)",
    )
