r"""Su-Cheng-Wang 2026, Appendix A: the correction of Koskela et al."""

from __future__ import annotations

import math
from functools import cache

from scipy import stats

from shufflekit.verify.claims import CheckContext, claim, confirmed, imprecise, refuted
from shufflekit.verify.mutation import printed


@cache
def _koskela_laws(n: int, k: int, eps0: float):
    gam = k / (math.exp(eps0) + k - 1)
    exact = {}
    kosk = {}
    q = 1 / (math.exp(eps0) + k - 1)
    for N in range(n):
        pN = stats.binom.pmf(N, n - 1, gam)
        for j0 in range(N + 1):  # blanket draws at x0
            for j1 in range(N - j0 + 1):  # blanket draws at x1
                pe = (
                    pN
                    * math.comb(N, j0)
                    * math.comb(N - j0, j1)
                    * (1 / k) ** (j0 + j1)
                    * ((k - 2) / k) ** (N - j0 - j1)
                )
                exact[(j0 + 1, j1)] = exact.get((j0 + 1, j1), 0.0) + pe
    for a in range(n):
        for b in range(n):
            kosk[(a + 1, b)] = stats.binom.pmf(a, n - 1, q) * stats.binom.pmf(b, n - 1, q)
    return exact, kosk


def _corrected_law(n: int, k: int, eps0: float, offset: int) -> dict:
    """Law of (N0, N1) with N ~ Bin(n-1, gamma), N0 - 1 ~ Bin(N, 1/k) and
    N1 | N0 ~ Bin(N - N0 + offset, 1/(k-1)) (offset 0 as printed in Su-Cheng-Wang 2026, App. A)."""
    gam = k / (math.exp(eps0) + k - 1)
    law: dict = {}
    for N in range(n):
        pN = stats.binom.pmf(N, n - 1, gam)
        for j0 in range(N + 1):
            trials = N - (j0 + 1) + offset
            if trials < 0:
                continue
            for j1 in range(trials + 1):
                key = (j0 + 1, j1)
                law[key] = law.get(key, 0.0) + pN * stats.binom.pmf(j0, N, 1 / k) * stats.binom.pmf(
                    j1, trials, 1 / (k - 1)
                )
    return law


@claim(
    id="002.appA.koskela-correction",
    paper="002",
    source="Appendix A",
    expected="imprecise",
    statement=r"N\sim\mathrm{Bin}(n-1,\tfrac{k}{e^{\varepsilon_0}+k-1}),\ N_0\sim\mathrm{Bin}(N,\tfrac1k)+1,\ "
    r"N_1\sim\mathrm{Bin}(N-N_0,\tfrac{1}{k-1})",
    section="Appendix A",
)
def check_002_appA_koskela_correction(ctx: CheckContext):
    n, k, eps0 = (12, 4, 1.0) if ctx.quick else (25, 5, 1.5)
    exact, kosk = _koskela_laws(n, k, eps0)
    offset = printed(0, "N1 ~ Bin(N - N0 + c, 1/(k-1)): printed c", mutant=lambda c: c + 1)
    paper = _corrected_law(n, k, eps0, offset)
    fixed = _corrected_law(n, k, eps0, 1)  # N - N0 + 1 blanket draws remain after the N0 - 1 at x0
    keys = set(exact) | set(paper) | set(kosk) | set(fixed)
    tv_paper = 0.5 * sum(abs(exact.get(x, 0) - paper.get(x, 0)) for x in keys)
    tv_kosk = 0.5 * sum(abs(exact.get(x, 0) - kosk.get(x, 0)) for x in keys)
    tv_fixed = 0.5 * sum(abs(exact.get(x, 0) - fixed.get(x, 0)) for x in keys)
    msg = (
        f"exact joint law of (N0, N1) by enumeration (n={n}, k={k}, eps0={eps0}): Koskela's "
        f"independent form is off by TV {tv_kosk:.3g} (the mistake is real); the printed "
        f"correction Bin(N - N0 + {offset}, 1/(k-1)) is off by TV {tv_paper:.3g}; Bin(N - N0 + 1, 1/(k-1)) "
        f"(N - N0 + 1 blanket draws remain after the N0 - 1 at x0) matches within {tv_fixed:.2g}"
    )
    # 1e-12: float round-off of sums of a few thousand pmf products
    vals = dict(tv_paper=tv_paper, tv_koskela=tv_kosk, tv_fixed=tv_fixed)
    if tv_paper < 1e-12:
        return confirmed(msg, **vals)
    if tv_fixed < 1e-12 and tv_kosk > 1e-6:
        return imprecise(
            msg + "; the mistake it corrects is real, the correction is off by one", **vals
        )
    return refuted(msg, **vals)
