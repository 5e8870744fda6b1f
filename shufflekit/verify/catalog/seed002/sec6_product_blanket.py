r"""Su-Cheng-Wang 2026, Sec. 6: the product blanket."""

from __future__ import annotations

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.verify.claims import CheckContext, claim, confirmed, refuted
from shufflekit.verify.mutation import printed


@claim(
    id="002.sec6.product-blanket",
    paper="002",
    source="Sec. 6 and Example 6.0",
    statement=r"\text{the optimal decomposition of } R^\times_{[1:m]} \text{ is the product of the components' optimal decompositions}",
    section="Sec. 6",
)
def check_002_sec6_product_blanket(ctx: CheckContext):
    jm = make("joint-krr", k=3, eps0=sp.Integer(2), m=2)
    flat = jm.to_finite()
    comps = jm.components
    bad = []
    for j, (y1, y2) in enumerate(flat.outputs):
        prod = comps[0].blanket().floor[y1] * comps[1].blanket().floor[y2]
        if sp.simplify(flat.blanket().floor[j] - prod) != 0:
            bad.append((y1, y2))
    # Example 6.0: p = 1/(e^{eps0/2}+k-1), rows are products of (e^{eps0/2}p 1_a + p ... )
    k, e0 = 3, sp.Integer(2)
    p = printed(1 / (sp.exp(e0 / 2) + k - 1), "Example 6.0 p = 1/(e^(eps0/2) + k - 1)")
    one = [[sp.exp(e0 / 2) * p if y == x else p for y in range(k)] for x in range(k)]
    ex = [
        sp.simplify(
            flat.probs[flat.inputs.index((x1, x2))][flat.outputs.index((y1, y2))]
            - one[x1][y1] * one[x2][y2]
        )
        for x1 in range(k)
        for x2 in range(k)
        for y1 in range(k)
        for y2 in range(k)
    ]
    g_prod = sp.simplify(jm.gamma - flat.blanket().gamma)
    if bad or any(e != 0 for e in ex) or g_prod != 0:
        return refuted(f"product structure fails at {bad[:3]}")
    return confirmed(
        "blanket floor of the enumerated 2-joint 3-RR equals the product of component "
        "floors at all 9 outputs; gamma = gamma_1 gamma_2; rows match Example 6.0"
    )
