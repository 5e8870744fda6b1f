r"""Shvets 2026, Sec. 5: the linearization residuals and their orders."""

from __future__ import annotations

import numpy as np

from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import (
    W0F,
    W1F,
    histogram_moments,
    n_grid,
    residual_order,
    residuals,
)
from shufflekit.verify.claims import claim, confirmed, refuted
from shufflekit.verify.mutation import printed


@claim(
    id="001.prop5.4.R2",
    paper="001",
    source="Prop. 5.4",
    statement=r"\mathbb{E}_P R_{n,k}^2 = O(n^{-2})",
    section="Sec. 5",
)
def check_001_prop5_4_R2(ctx):
    return residual_order(ctx, "R2", -2.0, tol=0.1, what="E R^2 at pi = 0.3 (Table 3 channel)")


@claim(
    id="001.prop5.4.R4",
    paper="001",
    source="Prop. 5.4",
    statement=r"\mathbb{E}_P R_{n,k}^4 = O(n^{-4})",
    section="Sec. 5",
)
def check_001_prop5_4_R4(ctx):
    return residual_order(ctx, "R4", -4.0, tol=0.15, what="E R^4 at pi = 0.3")


@claim(
    id="001.prop5.4.RZ-orthogonal",
    paper="001",
    source="Table 1 / Lemma 5.3",
    statement=r"\mathbb{E}[R_{n,k}Z_{n,k}] = 0",
    section="Sec. 5",
)
def check_001_prop5_4_RZ_orthogonal(ctx):
    target = float(printed(0, "E[R Z]"))
    vals = [abs(residuals(n)["RZ"] - target) / residuals(n)["Z2"] for n in n_grid(ctx)]
    # exact zero (E[UZ] = s^T v = I = E[Z^2]/n at pi = k/n); float sums over ~1e5 atoms: ~1e-13
    ok = max(vals) < 1e-11
    msg = f"|E[RZ]|/E[Z^2] = {max(vals):.2e} over n in {n_grid(ctx)} (round-off level)"
    return confirmed(msg) if ok else refuted(msg)


@claim(
    id="001.sec5.2.cross-moment",
    paper="001",
    source="Sec. 5.2 (display before Prop. 5.4)",
    statement=r"\mathbb{E}_P[\Delta U] = \mathbb{E}_P[\Delta\,r(Y_\star)] = v",
    section="Sec. 5",
    kind="proof-step",
)
def check_001_sec5_2_cross_moment(ctx):
    v = printed(tuple(float(x) for x in W1F - W0F), "v = W1 - W0")
    outs = []
    for n in (40, 200):
        _, _, cross, _ = histogram_moments(n)
        gap = float(np.max(np.abs(cross - np.array(v, dtype=float))))
        outs.append(
            confirmed(f"n={n}: gap {gap:.1e}")
            if gap < 1e-10
            else refuted(f"n={n}: E[Delta U] = {cross}, v = {W1F - W0F}")
        )
    return checks.all_confirmed(
        outs, "E_P[(N - E N) U] = v = W1 - W0 exactly (float sums agree to 1e-10)"
    )
