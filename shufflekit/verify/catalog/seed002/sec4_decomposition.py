r"""Su-Cheng-Wang 2026, Sec. 4: the decomposition theorems (Thm 3, Example 4.0)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.numeric.kernels.brute_force import rows_delta, worst_shuffled_delta
from shufflekit.numeric.methods import baselines as bl
from shufflekit.numeric.methods.blanket import BlanketAccountant
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed002.parameters import random_mechanisms
from shufflekit.verify.claims import CheckContext, claim, confirmed, refuted
from shufflekit.verify.mutation import printed


@claim(
    id="002.example4.0.krr-decomposition",
    paper="002",
    source="Example 4.0",
    statement=r"R(x_i) = p\mathbb{1}_{x_1^0}+p\mathbb{1}_{x_1^1}+qU+(e^{\varepsilon_0}-1)p\mathbb{1}_{x_i},\ "
    r"p=\tfrac{1}{e^{\varepsilon_0}+k-1},\ q=(k-2)p,\ \text{and it is the blanket decomposition}",
    section="Sec. 4.3",
)
def check_002_example4_0_krr_decomposition(ctx: CheckContext):
    k = sp.Symbol("k", integer=True, positive=True)
    e0 = sp.Symbol("epsilon_0", positive=True)
    mech = make("krr", k=k, eps0=e0)
    p = printed(1 / (sp.exp(e0) + k - 1), "p = 1/(e^eps0 + k - 1)")
    # lumped outputs (x, x', z, rest); qU puts p on each of the k-2 outputs other than x, x'
    common = [p, p, p, p]  # p 1_x + p 1_x' + qU, per output
    own = {"x": 0, "x'": 1, "z": 2}  # where (e^eps0 - 1) p 1_{x_i} adds its mass
    claimed = {
        x: [common[j] + ((sp.exp(e0) - 1) * p if j == own[x] else 0) for j in range(4)] for x in own
    }
    bad = [
        (x, j)
        for x in claimed
        for j in range(4)
        if sp.simplify(mech.row(x)[j] - claimed[x][j]) != 0
    ]
    floor = mech.blanket().floor
    bad_floor = [j for j in range(4) if sp.simplify(floor[j] - common[j]) != 0]
    if bad or bad_floor:
        return refuted(f"mismatch at {bad} / blanket floor at {bad_floor}")
    return confirmed(
        "each row equals p 1_{x0} + p 1_{x1} + qU + (e^eps0 - 1) p 1_{x_i} and the "
        "common part p per output is the blanket floor min_x R_x(y) (symbolic k, eps0)"
    )


def _gc_pair_delta(P, x0, x1, theta, n, eps):
    """Exact D(P0^GC || P1^GC) for the decomposition with point-mass components
    Q^j = 1_{y_j}, c_j = theta * min_x R_x(y_j) (a valid general-clone decomposition)."""
    floor = P.min(axis=0)
    c = theta * floor
    beta = 1 - c.sum()
    a0 = np.append(P[x0], 0.0)
    a1 = np.append(P[x1], 0.0)
    a2 = np.append(c, beta)
    return rows_delta([a0] + [a2] * (n - 1), [a1] + [a2] * (n - 1), eps).hi


@claim(
    id="002.thm3.hierarchy",
    paper="002",
    source="Thm 3",
    statement=r"D_{e^\varepsilon}(M_S(X_0),M_S(X_1))\le D_{e^\varepsilon}(P_0^B,P_1^B)\le D_{e^\varepsilon}(P_0^{GC},P_1^{GC})",
    section="Sec. 4.2",
)
def check_002_thm3_hierarchy(ctx: CheckContext):
    rng = np.random.default_rng(31)
    pts = []
    for i, mech in enumerate(random_mechanisms(max(6, ctx.examples // 4), seed=26, max_out=3)):
        P, _ = mech.to_numpy()
        e0 = float(mech.eps0())
        for n in (2, 3):
            for eps in (0.1, 0.6):
                bl_val = BlanketAccountant.of(mech, n).delta(eps)[0]
                brute = worst_shuffled_delta(P, n, eps).hi
                theta = float(rng.uniform(0.05, 1.0))
                gc = max(
                    _gc_pair_delta(P, a, b, theta, n, eps)
                    for a in range(len(P))
                    for b in range(len(P))
                    if a != b
                )
                clone = bl.clone_delta(e0, n, eps)[0]
                # bl_val is the certified upper end of the blanket value; 1e-12 float slack of
                # the plain-float enumerations (brute force, general clone)
                pts.append(((i, n, eps, "GC"), brute - 1e-12, bl_val, gc + 1e-12))
                pts.append(((i, n, eps, "clone"), brute - 1e-12, bl_val, clone + 1e-12))
    return checks.sandwich(
        pts,
        what="worst pair <= blanket <= general clone (random point-mass "
        "decompositions; standard clone)",
    )
