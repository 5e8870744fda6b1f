r"""Shvets 2026, Sec. 7: the privacy loss and the local privacy curve (Thm 7.1-7.3, Cor. 7.4-7.5)."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.running_example import (
    composition_k,
    fisher_at,
    n_grid,
    residual_order,
    score_statistics,
    shuffled_pair_at,
)
from shufflekit.verify.claims import claim, confirmed


def _g(t: float) -> float:
    return math.exp(-t * t / 2) / math.sqrt(2 * math.pi) - t * 0.5 * math.erfc(t / math.sqrt(2))


@claim(
    id="001.thm7.1.privacy-loss",
    paper="001",
    source="Thm 7.1",
    statement=r"\Lambda_{n,k} = \mu_n\xi_n - \tfrac12\mu_n^2 + \rho_n,\ \mathbb{E}_P|\rho_n| = O(n^{-1})",
    section="Sec. 7",
)
def check_001_thm7_1_privacy_loss(ctx):
    return residual_order(ctx, "rho_abs", -1.0, tol=0.1, what="E|rho_n| at pi = 0.3")


@claim(
    id="001.thm7.1.privacy-loss-mean",
    paper="001",
    source="Thm 7.1",
    statement=r"\mathbb{E}_P\rho_n = O(n^{-2})",
    section="Sec. 7",
)
def check_001_thm7_1_privacy_loss_mean(ctx):
    return residual_order(ctx, "rho_mean", -2.0, tol=0.1, what="E rho_n at pi = 0.3")


@claim(
    id="001.eq9.gdp-local",
    paper="001",
    source="eq. (9), Thm 7.3",
    statement=r"\delta_{\mathrm{GDP}}(t\mu;\mu) = \mu\{\varphi(t)-t\Phi(-t)\} + O(\mu^2)",
    section="Sec. 7",
)
def check_001_eq9_gdp_local(ctx):
    der = F.local_privacy_curve(3)
    out = checks.exact_identity(
        der.extras["lead_gap"], 0, what="first-order coefficient minus phi(t) - t Phi(-t)"
    )
    if out.verdict == "confirmed":
        return confirmed(
            out.evidence + f"; next term derived: (mu^2/2) t (phi(t) - t Phi(-t)) "
            f"(second coefficient / g = {der.extras['next_ratio']})"
        )
    return out


def _local_curve_remainders(ctx, direction: str):
    """Exact directed delta at t mu_n minus mu_n g(t), fitted against n ("qp" or "pq")."""
    outs = []
    for t in (1.0,) if ctx.quick else (0.5, 1.0, 2.0):

        def rem(n, t=t):
            k = composition_k(n)
            mu = math.sqrt(fisher_at(sp.Rational(k, n)) / n)
            pair = shuffled_pair_at(n, k)
            d = pair.delta_qp(t * mu) if direction == "qp" else pair.delta_pq(t * mu)
            return d - mu * _g(t)

        outs.append(
            checks.remainder_order(
                rem, n_grid(ctx), -1.0, tol=0.12, what=f"t={t}: exact delta - mu_n g(t)"
            )
        )
    return checks.all_confirmed(outs, f"both remainders O(1/n) ({direction})")


@claim(
    id="001.thm7.3.local-curve",
    paper="001",
    source="Thm 7.3 / Cor. 7.4",
    statement=r"\delta_{T_{n,k+1}\|T_{n,k}}(t\mu_n) = \mu_n\{\varphi(t)-t\Phi(-t)\} + O(n^{-1})",
    section="Sec. 7",
)
def check_001_thm7_3_local_curve(ctx):
    return _local_curve_remainders(ctx, "qp")


@claim(
    id="001.cor7.5.reverse-curve",
    paper="001",
    source="Cor. 7.5",
    statement=r"\delta_{T_{n,k}\|T_{n,k+1}}(t\mu_n) = \mu_n\{\varphi(t)-t\Phi(-t)\} + O(n^{-1})",
    section="Sec. 7",
)
def check_001_cor7_5_reverse_curve(ctx):
    return _local_curve_remainders(ctx, "pq")


@claim(
    id="001.cor7.5.reverse-identity",
    paper="001",
    source="Cor. 7.5 (proof)",
    statement=r"\delta_{P\|Q}(\varepsilon) = \mathbb{E}_P[(1-e^{\varepsilon}(1+U))_+]",
    section="Sec. 7",
    kind="proof-step",
)
def check_001_cor7_5_reverse_identity(ctx):
    pair = shuffled_pair_at(100, 30)
    outs = []
    for eps in (0.0, 0.05, 0.2):
        via_p = float(pair.p @ np.maximum(1 - math.exp(eps) * pair.likelihood_ratio, 0))
        outs.append(
            checks.numeric_agreement(
                via_p,
                pair.delta_pq(eps),
                rel_tol=1e-12,
                what=f"eps={eps}",
                why="two float sums of the same non-negative terms",
            )
        )
    return checks.all_confirmed(outs, "change of measure")


def _gauss_call(t: float) -> float:
    return _g(t)  # E(G - t)_+ = phi(t) - t Phi(-t)


@claim(
    id="001.lemma7.2.call-payoff",
    paper="001",
    source="Lemma 7.2",
    statement=r"\sup_{0\le t\le T}|\mathbb{E}_P(\xi_n-t)_+ - \mathbb{E}(G-t)_+| \le C_Tn^{-1/2}",
    section="Sec. 7",
)
def check_001_lemma7_2_call_payoff(ctx):
    def gap(n):
        st_ = score_statistics(n)["call"]
        return max(abs(v - _gauss_call(t)) for t, v in st_.items())

    return checks.remainder_order(
        gap, n_grid(ctx), -0.5, tol=0.1, what="max over t in {0, .5, 1, 2} of the call-payoff gap"
    )
