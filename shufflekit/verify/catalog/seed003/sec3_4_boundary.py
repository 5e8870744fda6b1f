r"""Seed 003, Sec. 3.4: the boundary regime a_n = e^{eps0}/n."""
from __future__ import annotations

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify.claims import claim, confirmed, not_checkable, refuted


@claim(id="003.3.4.boundary", paper="003", source="Sec. 3.4",
       statement=r"a_n = e^{\varepsilon_0}/n;\ \text{Gaussian limit iff } a_n\to0,\ \text{Berry-Esseen } O(\sqrt{a_n})",
       section="003 Sec. 3.4")
def check_003_3_4_boundary(ctx):
    der = F.randomized_response_boundary()
    if der.extras["lyapunov_limit"] != 1:
        return refuted(f"Lyapunov ratio/sqrt(a_n) -> {der.extras['lyapunov_limit']}")
    return confirmed("Lyapunov ratio of the RR privacy loss = sqrt(a_n)(1+O(e^-eps0)); mu_n^2 = chi^2/n ~ a_n "
                     "(derived); the a_n -> c > 0 Poisson regime is outside this check")


@claim(id="003.3.4.critical", paper="003", source="Sec. 3.4",
       statement=r"a_n\to c>0:\ \text{Poisson/Skellam limit};\ a_n\to\infty:\ \text{supercritical}",
       expected="not-checkable", section="003 Sec. 3.4")
def check_003_3_4_critical(ctx):
    return not_checkable("treated in Parts II-III, which are not among the source papers")
