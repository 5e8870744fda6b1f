r"""The Shvets summary, Sec. 2: the mechanisms of the summary."""

from __future__ import annotations

import numpy as np

from shufflekit.numeric.methods import histogram as H
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import W0F, W1F
from shufflekit.verify.claims import claim, not_checkable


@claim(
    id="003.2.1.canonical-linear",
    paper="003",
    source="Sec. 2 item 1",
    statement=r"L_{n,0} = 1 + U_n \text{ is linear in } N",
    section="003 Sec. 2",
)
def check_003_2_1_canonical_linear(ctx):
    pair = H.canonical_pair(W0F, W1F, 30)
    dp = H.shuffled_pair(W0F, W1F, 30, 0)
    gap = float(np.max(np.abs(pair.likelihood_ratio - dp.likelihood_ratio)))
    msg = f"closed linear form vs DP, n=30: max gap {gap:.1e}"
    # 1e-12: float round-off of the histogram DP at n = 30
    return checks.decide(gap < 1e-12, msg, statement="L_{n,0} is the linear form")


@claim(
    id="003.2.2.linearization-rates",
    paper="003",
    source="Sec. 2 item 2",
    statement=r"\text{linearization remainder } O(n^{-3/4}) \text{ or } O(n^{-1}) \text{ on the typical set}",
    expected="not-checkable",
    section="003 Sec. 2",
)
def check_003_2_2_linearization_rates(ctx):
    return not_checkable(
        "qualitative summary without the set or the norm; the computable version is "
        "001.prop5.4.R2 (E R^2 = O(n^-2)), which is confirmed"
    )
