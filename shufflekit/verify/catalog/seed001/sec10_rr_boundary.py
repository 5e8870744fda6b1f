r"""Shvets 2026, Sec. 10: the randomized-response boundary regime."""

from __future__ import annotations

import sympy as sp

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.claims import claim
from shufflekit.verify.mutation import printed


@claim(
    id="001.sec10.two-point",
    paper="001",
    source="Sec. 10",
    statement=r"r(Y) = b-1 \text{ w.p. } q,\ b^{-1}-1 \text{ w.p. } 1-q,\ q = (1+e^{\varepsilon_0})^{-1}",
    section="Sec. 10",
)
def check_001_sec10_two_point(ctx):
    der = F.randomized_response_boundary()
    r1, r0 = der.extras["r"]
    return checks.all_confirmed(
        [
            checks.exact_identity(r1, F.b - 1, what="r at output 1"),
            checks.exact_identity(r0, 1 / F.b - 1, what="r at output 0"),
            checks.exact_identity(der.extras["mean"], 0, what="E r"),
        ],
        "two-point law",
    )


@claim(
    id="001.sec10.chi2",
    paper="001",
    source="Sec. 10",
    statement=r"\chi^2 = (e^{\varepsilon_0}-1)^2/e^{\varepsilon_0},\ \mu_n^2/a_n \to 1,\ a_n = e^{\varepsilon_0}/n",
    section="Sec. 10",
)
def check_001_sec10_chi2(ctx):
    der = F.randomized_response_boundary()
    outs = [
        checks.exact_identity(der.result, (F.b - 1) ** 2 / F.b, what="chi^2 from E Z^2"),
        checks.exact_identity(
            der.extras["chi2_def"], (F.b - 1) ** 2 / F.b, what="chi^2 from its definition"
        ),
        checks.exact_identity(
            sp.limit(der.extras["mu2_over_a"], F.b, sp.oo), 1, what="mu_n^2/a_n as b -> oo"
        ),
    ]
    return checks.all_confirmed(outs, "RR boundary chi^2")


@claim(
    id="001.prop10.1.berry-esseen",
    paper="001",
    source="Prop. 10.1",
    statement=r"\sup_x|\mathbb{P}((\Lambda_n+\mu_n^2/2)/\mu_n\le x)-\Phi(x)| \le C\sqrt{a_n}",
    section="Sec. 10",
)
def check_001_prop10_1_berry_esseen(ctx):
    der = F.randomized_response_boundary()
    lim = der.extras["lyapunov_limit"]  # Lyapunov ratio / sqrt(a_n), derived
    rate = printed(
        sp.Rational(1, 2),
        "Berry-Esseen rate: exponent of a_n",
        mutant=lambda p: p + sp.Rational(1, 2),
    )
    # the ratio is a_n^(1/2) (1 + o(1)), so an O(a_n^p) bound holds as a_n -> 0 exactly for p <= 1/2
    ok = lim.is_finite and lim != 0 and rate <= sp.Rational(1, 2)
    return checks.decide(
        ok,
        f"the Berry-Esseen (Lyapunov) ratio E|Z|^3/(chi^3 sqrt n) / sqrt(a_n) -> {lim} "
        f"(derived), so the bound is O(a_n^(1/2)); printed exponent {rate}; the constant C "
        f"is not specified, so only the rate is checked",
        statement="rate as printed",
    )
