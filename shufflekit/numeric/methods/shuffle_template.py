r"""The asymptotic template :math:`f_{n,\varepsilon}(\chi)` and the asymptotic accountants built on it.

:math:`f_{n,\varepsilon}(\chi) = e^{-\chi^2\varepsilon^2 n/2}/(\sqrt{2\pi}\,\chi^3\varepsilon^2 n^{3/2})`
(Takagi-Liew 2026, Lemma 2.1) describes :math:`\delta(\varepsilon)` of a shuffled mechanism with shuffle
index :math:`\chi` in the high-privacy regime, up to a :math:`(1 + o(1))` factor.  Nothing here is
a certificate:

* ``bmg-asymptotic``: :math:`f_{n,\varepsilon}(\chi_{lo})` for BMG (Takagi-Liew 2026, Thm 3.2 and Sec. 4.2);
* ``gaussian-local-asymptotic``: :math:`f_{n,\varepsilon}(\chi_{chua})` for the Gaussian local
  randomizer (Takagi-Liew 2026, Sec. 4.3), which has no blanket; it rests on Conjecture 3.2 of Chua et al.
  (2024), which is open.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import mpmath as mp

from shufflekit.errors import InvalidParameter
from shufflekit.numeric.accountant import Accountant, accountant, register
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.validation import check_delta, check_epsilon, check_n

if TYPE_CHECKING:
    from shufflekit.numeric.accountant import PrivacyProfile


def template_log(n: Any, epsilon: Any, chi: Any, dps: int = 50) -> mp.mpf:
    r""":math:`\log f_{n,\varepsilon}(\chi)` (Takagi-Liew 2026, Lemma 2.1), in mpmath at ``dps`` digits."""
    with mp.workdps(dps):
        n_, e_, c_ = mp.mpf(n), mp.mpf(epsilon), mp.mpf(chi)
        if e_ <= 0:
            return mp.inf
        return (
            -((c_ * e_) ** 2) * n_ / 2
            - mp.log(mp.sqrt(2 * mp.pi))
            - 3 * mp.log(c_)
            - 2 * mp.log(e_)
            - mp.mpf(3) / 2 * mp.log(n_)
        )


def template(n: Any, epsilon: Any, chi: Any, dps: int = 50) -> mp.mpf:
    r""":math:`f_{n,\varepsilon}(\chi)` (Takagi-Liew 2026, Lemma 2.1)."""
    with mp.workdps(dps):
        return mp.exp(template_log(n, epsilon, chi, dps))


def template_epsilon(n: int, delta: float, chi: float) -> float:
    r""":math:`\varepsilon` with :math:`f_{n,\varepsilon}(\chi) = \delta` (f is decreasing in :math:`\varepsilon`)."""
    from scipy.optimize import brentq

    target = math.log(check_delta(delta))
    g = lambda le: float(template_log(n, math.exp(le), chi, 30)) - target  # noqa: E731
    lo, hi = -60.0, 5.0
    if g(lo) < 0:
        return math.exp(lo)
    while g(hi) > 0:
        hi += 5.0
    return math.exp(brentq(g, lo, hi, xtol=1e-14))


def chi_chua(sigma0: Any, dps: int = 40) -> mp.mpf:
    r""":math:`\chi_{chua} = 1/\sqrt{\mathrm{Var}_{Y\sim R_{-e}}[\ell_0(Y; e, 0, R_{-e})]}` for the
    Gaussian local randomizer (Takagi-Liew 2026, Prop. 4.3), by quadrature of its definition."""
    with mp.workdps(dps):
        try:
            s = mp.mpf(sigma0)
        except (TypeError, ValueError):
            raise InvalidParameter("sigma0", sigma0, "(0, inf)") from None
        if not s > 0 or not mp.isfinite(s):
            raise InvalidParameter("sigma0", sigma0, "(0, inf)")
        pdf = lambda y, mu: mp.npdf(y, mu, s)  # noqa: E731

        def ell(y):
            return (pdf(y, 1) - pdf(y, 0)) / pdf(y, -1)

        m1 = mp.quad(lambda y: ell(y) * pdf(y, -1), [-mp.inf, -1, mp.inf])
        m2 = mp.quad(lambda y: ell(y) ** 2 * pdf(y, -1), [-mp.inf, -1, 2 * s, mp.inf])
        return 1 / mp.sqrt(m2 - m1**2)


class TemplateAccountant(Accountant):
    r""":math:`\delta(\varepsilon) \approx f_{n,\varepsilon}(\chi)` (kind ``asymptotic``, never a certificate)."""

    kind = Kind.ASYMPTOTIC

    def __init__(
        self,
        mech: Any,
        n: int,
        chi: float,
        *,
        method: str,
        adjacency: str,
        certificate: str,
        pairs: str = "all",
    ):
        self.mechanism, self.n, self.chi = mech, check_n(n), float(chi)
        self.method, self.adjacency, self.certificate, self.pairs = (
            method,
            adjacency,
            certificate,
            pairs,
        )

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        val = 1.0 if epsilon == 0 else min(float(template(self.n, epsilon, self.chi)), 1.0)
        return self._bound(
            "delta",
            epsilon,
            val,
            val,
            seconds=time.perf_counter() - t0,
            note=f"template f_(n,eps)(chi) with chi = {self.chi:.10g}",
        )


def _is(name: str):
    return lambda m: True if getattr(m, "name", None) == name else f"applies to {name} only"


@register(
    "bmg-asymptotic",
    kind=Kind.ASYMPTOTIC,
    supports=_is("bmg"),
    adjacencies=("zero-out",),
    summary="template f_(n,eps)(chi_lo) for BMG (Takagi-Liew 2026 Thm 3.2); asymptotic, not certified",
)
def bmg_asymptotic_accountant(mech, n, *, adjacency="zero-out"):
    chi = float(mech.chi_lo())  # the mechanism's own chi_lo (Takagi-Liew 2026, Def. 2.4)
    return TemplateAccountant(
        mech,
        n,
        chi,
        method="bmg-asymptotic",
        adjacency=adjacency,
        certificate="none: Takagi-Liew 2026 Thm 3.2 template, (1 + o(1)) dropped",
    )


@register(
    "gaussian-local-asymptotic",
    kind=Kind.ASYMPTOTIC,
    supports=_is("gaussian-local"),
    adjacencies=("zero-out",),
    default_for=lambda m, n: getattr(m, "name", None) == "gaussian-local",
    summary="template f_(n,eps)(chi_chua) for the Gaussian local randomizer; rests on the "
    "open Conjecture 3.2 of Chua et al. (2024)",
)
def gaussian_local_asymptotic_accountant(mech, n, *, adjacency="zero-out"):
    chi = float(chi_chua(mech.sigma0))
    return TemplateAccountant(
        mech,
        n,
        chi,
        method="gaussian-local-asymptotic",
        adjacency=adjacency,
        certificate="none: Takagi-Liew 2026 Sec. 4.3 template; conjectural (Chua et al. "
        "2024, Conj. 3.2)",
    )


def gaussian_local_asymptotic_profile(
    mech: Any,
    n: int,
    epsilons: Sequence[float] | None = None,
    deltas: Sequence[float] | None = None,
) -> PrivacyProfile:
    r"""Asymptotic profile :math:`f_{n,\varepsilon}(\chi_{chua})` of the shuffled Gaussian local
    randomizer (Takagi-Liew 2026, Sec. 4.3), method ``gaussian-local-asymptotic``.  **Not a
    certificate**: it rests on the open Conjecture 3.2 of Chua et al. (2024); the kind is
    ``asymptotic`` and the mechanism record carries :math:`\chi_{chua}` and a warning."""
    n = check_n(n)
    acc = accountant(mech, n, method="gaussian-local-asymptotic")
    prof = acc.profile(epsilons=epsilons, deltas=deltas)
    return replace(
        prof,
        mechanism={
            **prof.mechanism,
            "chi_chua": acc.chi,
            "warning": "asymptotic template resting on an open conjecture; not a certified bound",
        },
    )
