r"""The Shvets summary, Sec. 3.4: the boundary regime a_n = e^{eps0}/n."""

from __future__ import annotations

import sympy as sp

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.claims import claim, not_checkable
from shufflekit.verify.mutation import printed


@claim(
    id="003.3.4.boundary",
    paper="003",
    source="Sec. 3.4",
    statement=r"a_n = e^{\varepsilon_0}/n;\ \text{Gaussian limit iff } a_n\to0,\ \text{Berry-Esseen } O(\sqrt{a_n})",
    section="003 Sec. 3.4",
)
def check_003_3_4_boundary(ctx):
    der = F.randomized_response_boundary()
    lim = der.extras["lyapunov_limit"]
    rate = printed(
        sp.Rational(1, 2),
        "Berry-Esseen rate: exponent of a_n",
        mutant=lambda p: p + sp.Rational(1, 2),
    )
    ok = lim.is_finite and lim != 0 and rate <= sp.Rational(1, 2)
    return checks.decide(
        ok,
        f"Lyapunov ratio of the RR privacy loss / sqrt(a_n) -> {lim} (derived); printed "
        f"exponent {rate}; the a_n -> c > 0 Poisson regime is outside this check",
        statement="rate as printed",
    )


@claim(
    id="003.3.4.critical",
    paper="003",
    source="Sec. 3.4",
    statement=r"a_n\to c>0:\ \text{Poisson/Skellam limit};\ a_n\to\infty:\ \text{supercritical}",
    expected="not-checkable",
    section="003 Sec. 3.4",
)
def check_003_3_4_critical(ctx):
    return not_checkable("treated in Parts II-III, which are not among the source papers")
