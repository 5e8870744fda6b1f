r"""The Shvets summary, Sec. 3.1: the JSD expansions."""

from __future__ import annotations

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import (
    canonical_jsd_remainder,
    jsd_leading_remainder,
    n_grid,
)
from shufflekit.verify.claims import claim


@claim(
    id="003.3.1.jsd-leading",
    paper="003",
    source="Sec. 3.1",
    statement=r"\mathrm{JSD}(T_{n,k}\|T_{n,k+1}) = \frac{I_\pi}{8n} + O(n^{-2})",
    section="003 Sec. 3.1",
)
def check_003_3_1_jsd_leading(ctx):
    return checks.remainder_order(
        jsd_leading_remainder, n_grid(ctx), -2.0, tol=0.1, what="JSD - I_{k/n}/(8n)"
    )


@claim(
    id="003.3.1.mixture-smaller",
    paper="003",
    source="Sec. 2 item 3 / Sec. 3.1",
    statement=r"\Sigma_{\mathrm{mix}} = \Sigma_\pi + \pi(1-\pi)vv^\top \Rightarrow I^{\mathrm{mix}} < I_\pi",
    section="003 Sec. 3.1",
)
def check_003_3_1_mixture_smaller(ctx):
    rel = F.sherman_morrison_relation().result
    return checks.exact_identity(rel, 0, what="1/I_mix - 1/I_pi - pi(1-pi)")


@claim(
    id="003.3.1.canonical-O3",
    paper="003",
    source="Sec. 3.1",
    statement=r"\text{canonical pair: JSD expansion with } O(n^{-3}) \text{ remainder incl. third-moment term}",
    section="003 Sec. 3.1",
)
def check_003_3_1_canonical_O3(ctx):
    return canonical_jsd_remainder(ctx)
