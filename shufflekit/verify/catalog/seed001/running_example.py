r"""The running example of Shvets 2026 (the Table 3 channel, pi = 0.3) and exact computations on it.

Every check re-derives the statement (sympy, :mod:`shufflekit.symbolic.fixed_composition`,
:mod:`shufflekit.symbolic.multi_message`) or recomputes it exactly
(:mod:`shufflekit.numeric.methods.histogram`, :mod:`shufflekit.numeric.methods.chernoff`).  Printed numbers
appear here only as the *expected* values.

Conventions found while reproducing the tables: the composition is :math:`k = \mathrm{round}(\pi n)`
(Tables 4-5, :math:`\pi = 0.3`), the "mixture underestimate" is :math:`1 - I^{\rm mix}_\pi/I_\pi`,
Table 5's "fixed-comp. GDP" column is :math:`\delta_{\rm GDP}(t\mu_n;\mu_n)` of eq. (9) (not the
first-order curve), its mixture column is :math:`\delta_{\rm GDP}(t\mu_n;\sqrt{I^{\rm mix}_\pi/n})`,
its exact column is :math:`\delta_{T_{n,k+1}\|T_{n,k}}`; Table 6's exact column is the two-sided
:math:`\varepsilon` of :math:`(T_{n,0},T_{n,1})` for binary RR with :math:`\varepsilon_0 = 1`, and its
ratios use the unrounded exact value.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import sympy as sp

from shufflekit.numeric.methods import histogram as H
from shufflekit.numeric.methods.gaussian import gdp_delta
from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.claims import CheckContext

W0 = ("7/10", "1/5", "1/10")


W1 = ("3/20", "11/20", "3/10")


W0F = np.array([0.70, 0.20, 0.10])


W1F = np.array([0.15, 0.55, 0.30])


PI_T = 0.3


@cache
def fisher_derivation():
    return F.fisher_constant(W0, W1)


@cache
def mixture_fisher_derivation():
    return F.mixture_fisher_constant(W0, W1)


def fisher_at(p) -> float:
    return float(fisher_derivation().result.subs(F.pi, sp.nsimplify(p)))


def mixture_fisher_at(p) -> float:
    return float(mixture_fisher_derivation().result.subs(F.pi, sp.nsimplify(p)))


@cache
def shuffled_pair_at(n: int, k: int) -> H.HistogramPair:
    return H.shuffled_pair(W0F, W1F, n, k)


def composition_k(n: int) -> int:
    return int(round(PI_T * n))


def gdp(eps: float, mu: float) -> float:
    return gdp_delta(eps, mu)


def n_grid(ctx: CheckContext) -> list[int]:
    return [100, 200, 400] if ctx.quick else [100, 200, 400, 800]


def latex_percent(text: str) -> str:
    """A printed cell as LaTeX (percent sign escaped)."""
    return text.replace("%", "\\%")


def centred_histogram_law(n: int, k: int):
    """The shuffled pair at (n, k), its output histograms as floats, and their mean
    E N = (n - k) W0 + k W1 (Shvets 2026, Sec. 5)."""
    pair = shuffled_pair_at(n, k)
    return pair, pair.histograms().astype(float), (n - k) * W0F + k * W1F


def mixture_covariance(pi: float) -> np.ndarray:
    r"""Covariance of one user's one-hot output in the mixture at weight ``pi``:
    :math:`\Sigma_\pi = (1-\pi)(\mathrm{diag}W_0 - W_0W_0^T) + \pi(\mathrm{diag}W_1 - W_1W_1^T)`
    (Shvets 2026, Sec. 5)."""
    return (1 - pi) * (np.diag(W0F) - np.outer(W0F, W0F)) + pi * (np.diag(W1F) - np.outer(W1F, W1F))


def score_direction(pi: float) -> np.ndarray:
    r"""The linear score :math:`s` with :math:`\Sigma_\pi s = W_1 - W_0 + c\mathbf 1` and
    :math:`\mathbf 1^T s = 0` (the bordered system; Shvets 2026, Sec. 5)."""
    d = len(W0F)
    border = np.zeros((d + 1, d + 1))
    border[:d, :d] = mixture_covariance(pi)
    border[:d, d] = 1
    border[d, :d] = 1
    return np.linalg.solve(border, np.concatenate([W1F - W0F, [0.0]]))[:d]


@cache
def residuals(n: int):
    k = composition_k(n)
    pi = k / n
    pair, hist, EN = centred_histogram_law(n, k)
    s = score_direction(pi)
    Z = (hist - EN) @ s
    U = pair.likelihood_ratio - 1
    R = U - Z / n
    p = pair.p
    I = float((W1F - W0F) @ s)
    mu = math.sqrt(I / n)
    sup = p > 0
    rho = np.log(pair.likelihood_ratio[sup]) - mu * Z[sup] / math.sqrt(n * I) + mu * mu / 2
    return {
        "R2": float(p @ R**2),
        "R4": float(p @ R**4),
        "RZ": float(p @ (R * Z)),
        "Z2": float(p @ Z**2),
        "rho_abs": float(p[sup] @ np.abs(rho)),
        "rho_mean": float(p[sup] @ rho),
    }


def residual_order(ctx, key: str, power: float, tol: float, what: str):
    """Check that the exact moment ``residuals(n)[key]`` of the running example decays like
    n^power over :func:`n_grid` (Shvets 2026, Prop. 5.4 and Thm 7.1)."""
    return checks.remainder_order(
        lambda n: residuals(n)[key], n_grid(ctx), power, tol=tol, what=what
    )


def jsd_leading_remainder(n: int) -> float:
    r"""JSD(T_{n,k} || T_{n,k+1}) - I_{k/n} / (8n) at k = round(0.3 n) (Shvets 2026, Thm 6.4)."""
    k = composition_k(n)
    return shuffled_pair_at(n, k).jsd() - fisher_at(sp.Rational(k, n)) / (8 * n)


def canonical_jsd_remainder(ctx, prefix: str = ""):
    r = W1F / W0F - 1
    chi2, mu3 = float(W0F @ r**2), float(W0F @ r**3)
    grid = [50, 100, 200, 400] if ctx.quick else [50, 100, 200, 400, 800]

    def rem(n):
        return H.canonical_pair(W0F, W1F, n).jsd() - (
            chi2 / (8 * n) + (7 * chi2**2 - 4 * mu3) / (64 * n**2)
        )

    out = checks.remainder_order(
        rem, grid, -3.0, tol=0.1, what="exact canonical JSD minus the expansion"
    )
    return type(out)(out.verdict, prefix + out.evidence, out.values)


@cache
def score_statistics(n: int):
    """Exact E_P[(xi_n - t)_+] for t in {0, 0.5, 1, 2}, P(|U| > 1/2), E U^2, E(L-1) at k = round(0.3 n)."""
    k = composition_k(n)
    pi = k / n
    pair, hist, EN = centred_histogram_law(n, k)
    c = H.channel_constants(W0F, W1F, pi)
    s = score_direction(pi)
    xi = (hist - EN) @ s / math.sqrt(n * c["I_pi"])
    U = pair.likelihood_ratio - 1
    call = {t: float(pair.p @ np.maximum(xi - t, 0.0)) for t in (0.0, 0.5, 1.0, 2.0)}
    return {
        "call": call,
        "tail": float(pair.p[np.abs(U) > 0.5].sum()),
        "EU2": float(pair.p @ U**2),
        "EU": float(pair.p @ U),
        "I": c["I_pi"],
    }


@cache
def histogram_moments(n: int):
    k = composition_k(n)
    pair, hist, EN = centred_histogram_law(n, k)
    delta = hist - EN
    cov = (delta * pair.p[:, None]).T @ delta
    cross = (delta * (pair.p * (pair.likelihood_ratio - 1))[:, None]).sum(axis=0)
    sig = mixture_covariance(k / n)
    return cov, n * sig, cross, float(pair.p @ hist.sum(axis=1)) / n
