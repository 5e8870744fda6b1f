r"""Shvets 2026, Sec. 8: finite-n comparisons."""

from __future__ import annotations

import math

import numpy as np

from shufflekit.numeric.kernels.brute_force import sequence_laws
from shufflekit.numeric.methods import histogram as H
from shufflekit.numeric.methods.chernoff import chernoff_delta
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import W0, W0F, W1, W1F
from shufflekit.verify.claims import claim
from shufflekit.verify.mutation import printed


@claim(
    id="001.prop8.1.positive-part",
    paper="001",
    source="Prop. 8.1",
    statement=r"\delta_{Q\|P}(\varepsilon) = \sum_N T_{n,k}(N)(L_{n,k}(N)-e^{\varepsilon})_+",
    section="Sec. 8",
)
def check_001_prop8_1_positive_part(ctx):
    import itertools

    n, k = 4, 1
    P, Q, _ = sequence_laws(W0, W1, n, k)
    hs = list(P)
    pair = H.shuffled_pair(W0F, W1F, n, k)
    outs = []
    for eps in (0.0, 0.3, 1.0):
        # brute force: sup over all events A of Q(A) - e^eps P(A) (2^15 events)
        vals = np.array([float(Q[h]) - math.exp(eps) * float(P[h]) for h in hs])
        best = (
            max(
                sum(vals[list(A)]) if A else 0.0
                for r_ in range(len(hs) + 1)
                for A in itertools.combinations(range(len(hs)), r_)
            )
            if len(hs) <= 15
            else None
        )
        outs.append(
            checks.numeric_agreement(
                pair.delta_qp(eps),
                best,
                rel_tol=1e-12,
                what=f"eps={eps}",
                why="float64 DP vs rational enumeration",
            )
        )
    return checks.all_confirmed(
        outs, f"sup over all 2^{len(hs)} events equals the positive part (n={n}, k={k})"
    )


@claim(
    id="001.sec8.1.binary-lr",
    paper="001",
    source="Sec. 8.1",
    statement=r"L_{n,0}(K) = \frac{n-K}{n}\frac{1-p_1}{1-p_0} + \frac Kn\frac{p_1}{p_0}",
    section="Sec. 8",
)
def check_001_sec8_1_binary_lr(ctx):
    p0, p1, n = 0.3, 0.65, 40
    w_zero, w_one = printed(((1 - p1) / (1 - p0), p1 / p0), "weights (1-p1)/(1-p0), p1/p0")
    K = np.arange(n + 1)
    formula = ((n - K) * w_zero + K * w_one) / n
    closed = H.binary_pair(p0, p1, n, 0)
    dp = H.shuffled_pair([p0, 1 - p0], [p1, 1 - p1], n, 0)
    # binary_pair atoms are K = N_1 = 0..n; the DP cube's axis 0 holds N_1 as well
    gap = float(np.max(np.abs(formula - dp.likelihood_ratio)))
    gap_closed = float(np.max(np.abs(closed.likelihood_ratio - dp.likelihood_ratio)))
    msg = (
        f"printed formula vs histogram DP: max |L difference| = {gap:.2e}; closed-form pair "
        f"{gap_closed:.2e} (n={n})"
    )
    # 1e-12: float round-off of the DP (n = 40 steps of products of O(1) numbers)
    return checks.decide(
        gap < 1e-12 and gap_closed < 1e-12, msg, statement="L equals the printed formula"
    )


@claim(
    id="001.sec8.2.chernoff",
    paper="001",
    source="Sec. 8.2",
    statement=r"\delta_{T_{n,1}\|T_{n,0}}(\varepsilon) \le e^{-\lambda n\tau}M(\lambda)^{n-1}\{M(\lambda)+M'(\lambda)\}",
    section="Sec. 8",
)
def check_001_sec8_2_chernoff(ctx):
    points = []
    for n in (20, 100, 400):
        pair = H.canonical_pair(W0F, W1F, n)
        for eps in (0.0, 0.05, 0.2, 0.5, 1.0):
            points.append(((n, eps), 0.0, pair.delta_qp(eps), chernoff_delta(W0F, W1F, n, eps)))
    return checks.sandwich(points, what="0 <= exact <= Chernoff (canonical pair, Table 3 channel)")
