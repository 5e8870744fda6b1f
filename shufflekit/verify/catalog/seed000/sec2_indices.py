r"""Takagi-Liew 2026, Sec. 2 (and App. A.2): the indices chi_lo, chi_up, the template f_{n,eps} and the zero-out/replace-one conversion."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.symbolic import central_gaussian as CG
from shufflekit.verify import checks
from shufflekit.verify.claims import CheckContext, claim, confirmed, refuted
from shufflekit.verify.mutation import printed


@claim(
    id="000.lem2.6.decreasing",
    paper="000",
    source="Lemma 2.6",
    statement=r"f_{n,\varepsilon}(\chi)\ \text{is decreasing in}\ \chi",
    section="Sec. 2.4",
)
def check_000_lem2_6_decreasing(ctx: CheckContext):
    dlog = CG.template_ratio().extras["dlog"]
    negative = bool(dlog.is_negative)
    return checks.decide(
        negative,
        f"d/dchi log f = {sp.sstr(dlog)}: negative for chi, eps, n > 0: {negative}",
        statement="f is decreasing in chi",
        derivative=sp.sstr(dlog),
    )


@claim(
    id="000.lem2.6.ratio",
    paper="000",
    source="eq. (ratio-f)",
    statement=r"\frac{f_{n,\varepsilon}(\chi+\eta)}{f_{n,\varepsilon}(\chi)} = \left(\frac{\chi}{\chi+\eta}\right)^3"
    r"\exp\!\left(-\frac{(\chi+\eta)^2-\chi^2}{2}\varepsilon^2 n\right)",
    section="App. A.2",
    kind="proof-step",
)
def check_000_lem2_6_ratio(ctx):
    chi, eta, eps, n = CG.chi, CG.eta, CG.eps, CG.n
    printed = (chi / (chi + eta)) ** 3 * sp.exp(-((chi + eta) ** 2 - chi**2) / 2 * eps**2 * n)
    return checks.exact_identity(CG.template_ratio().result, printed, what="ratio of templates")


@claim(
    id="000.def2.4.chi-up-ge-chi-lo",
    paper="000",
    source="Def. 2.4",
    statement=r"\chi_{\mathrm{up}}(\mathcal R) \ge \chi_{\mathrm{lo}}(\mathcal R)",
    section="Sec. 2.4",
)
def check_000_def2_4_chi_up_ge_chi_lo(ctx):
    rng = np.random.default_rng(20260)
    n = 40 if ctx.quick else 150
    examples = []
    for _ in range(n):
        k, m = int(rng.integers(2, 4)), int(rng.integers(2, 5))
        examples.append(rng.dirichlet(np.ones(m) * 2, size=k).tolist())

    def holds(mat):
        mech = FiniteMechanism.from_matrix(mat)
        return float(mech.chi_up().value) >= float(mech.chi_lo().value) * (
            1 - 1e-12
        )  # float rounding only

    out = checks.inequality_holds(
        examples, holds, what="chi_up >= chi_lo on random finite mechanisms"
    )
    if out.verdict != "confirmed":
        return out
    # BMG in closed form: R_z >= gamma * blanket, so every chi_up variance is <= Var_lo / gamma
    return confirmed(
        out.evidence + "; BMG: R_z >= gamma R_BG gives the inequality for every reference",
        **out.values,
    )


@claim(
    id="000.sec2.3.replace-one",
    paper="000",
    source="Sec. 2.3",
    statement=r"(\varepsilon,\delta)\text{ zero-out} \Rightarrow (2\varepsilon,2\delta)\text{ replace-one}",
    expected="refuted",
    section="Sec. 2.3",
)
def check_000_sec2_3_replace_one(ctx):
    # explicit three-point counterexample: M(x) = P, M(perp) = Q, M(x') = R
    Pp = np.array([0.13603628, 0.32980993, 0.53415378])
    Qp = np.array([0.06162182, 0.86992361, 0.06845456])
    Rp = np.array([0.17871579, 0.81780511, 0.0034791])
    Pp, Qp, Rp = Pp / Pp.sum(), Qp / Qp.sum(), Rp / Rp.sum()
    eps = 1.986815232484751

    def hs(p, q, a):
        return float(np.maximum(p - a * q, 0).sum())

    e = math.exp(eps)
    delta = max(hs(Pp, Qp, e), hs(Qp, Pp, e), hs(Rp, Qp, e), hs(Qp, Rp, e))
    two = max(hs(Pp, Rp, e * e), hs(Rp, Pp, e * e))
    ratio = two / delta
    factor = printed(2, "replace-one delta factor", mutant=lambda f: 1 + e)
    if ratio > factor * (1 + 1e-9):
        return refuted(
            f"a mechanism with zero-out delta({eps:.4f}) = {delta:.5g} has replace-one "
            f"delta({2 * eps:.4f}) = {two:.5g} = {ratio:.3f} delta > {factor} delta; the valid "
            f"factor is 1 + e^eps = {1 + e:.3f}",
            delta=delta,
            replace_one=two,
            ratio=ratio,
        )
    return confirmed(f"ratio {ratio:.3f} <= {float(factor):.4g}", ratio=ratio)
