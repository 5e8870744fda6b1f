r"""Shuffled mechanisms with a continuous amplification variable: the public entry points.

The pieces live one concept per module:

* :mod:`~shufflekit.numeric.lognormal_lattice` -- the affine-lognormal law of
  :math:`\ell_\varepsilon(Y)` and its certified lattice discretisation;
* :mod:`~shufflekit.numeric.radix2_fft` -- convolution with a proven round-off bound;
* :mod:`~shufflekit.numeric.bmg_blanket` -- the certified blanket bound of seed 000, App. C for
  BMG, both orders of the zero-out pair (method ``bmg-blanket``);
* :mod:`~shufflekit.numeric.shuffle_template` -- the template :math:`f_{n,\varepsilon}(\chi)`
  and the asymptotic methods ``bmg-asymptotic`` and ``gaussian-local-asymptotic``.

This module keeps the function-style interface (:func:`bmg_delta`, :func:`bmg_epsilon`,
:func:`bmg_profile`, :func:`gaussian_local_asymptotic_profile`) used by the command line and the
notebooks; every number comes from the accountants above.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from shufflekit.numeric.bmg_blanket import (BlanketResult, BMGBlanketAccountant, blanket_delta,
                                            bmg_delta, check_gamma, worst_radius)
from shufflekit.numeric.lognormal_lattice import AffineLognormal, LatticeLaw, discretise
from shufflekit.numeric.shuffle_template import (chi_chua, template, template_epsilon,
                                                 template_log)
from shufflekit.validation import check_delta, check_n

if TYPE_CHECKING:
    from shufflekit.numeric.accountant import PrivacyProfile

__all__ = ["AffineLognormal", "LatticeLaw", "discretise", "BlanketResult", "blanket_delta",
           "bmg_delta", "bmg_epsilon", "bmg_profile", "worst_radius", "epsilon_for_bound",
           "template", "template_log", "template_epsilon", "chi_chua",
           "gaussian_local_asymptotic_profile", "check_gamma"]


def epsilon_for_bound(bound: Callable[[float], float], delta: float, *, rel_tol: float = 1e-6,
                      eps_start: float = 1e-3) -> float:
    r"""Smallest :math:`\varepsilon` (to ``rel_tol``) at which a certified, non-increasing bound
    ``bound(eps)`` on :math:`\delta` has been *evaluated* to be :math:`\le` ``delta``.

    This wraps ``bound`` as an upper accountant and calls the shared inversion
    :func:`~shufflekit.numeric.accountant.invert_delta`."""
    from shufflekit.numeric.accountant import Accountant, invert_delta
    from shufflekit.numeric.bound import Kind

    class _Wrapped(Accountant):
        method, kind, adjacency, n, mechanism = "bound", Kind.UPPER, "zero-out", 1, None

        def get_delta(self, epsilon: float):
            d = min(float(bound(epsilon)), 1.0)
            return self._bound("delta", epsilon, d, d)

    return invert_delta(_Wrapped(), check_delta(delta), rel_tol=rel_tol, eps_start=eps_start).hi


def bmg_epsilon(mech: Any, n: int, delta: float, *, rel_tol: float = 1e-6, **kw: Any) -> float:
    r"""Smallest certified :math:`\varepsilon` with :math:`\delta_{bound}(\varepsilon) \le \delta` for the
    shuffled BMG (method ``bmg-blanket``); raises :class:`CannotCertify` if not reached."""
    n = check_n(n)
    delta = check_delta(delta)
    acc = BMGBlanketAccountant(mech, n, **kw)
    b = acc.get_epsilon(delta, rel_tol=rel_tol)
    return b.hi


def bmg_profile(mech: Any, n: int, epsilons: Sequence[float] | None = None,
                deltas: Sequence[float] | None = None, **kw: Any) -> "PrivacyProfile":
    """Certified profile of the shuffled BMG (method ``bmg-blanket``): one
    :class:`~shufflekit.numeric.bound.Bound` per epsilon and per delta."""
    n = check_n(n)
    check_gamma(mech.gamma)
    return BMGBlanketAccountant(mech, n, **kw).profile(epsilons=epsilons, deltas=deltas)


def gaussian_local_asymptotic_profile(mech: Any, n: int, epsilons: Sequence[float] | None = None,
                                      deltas: Sequence[float] | None = None) -> "PrivacyProfile":
    r"""Asymptotic profile :math:`f_{n,\varepsilon}(\chi_{chua})` of the shuffled Gaussian local
    randomizer (seed 000, Sec. 4.3), method ``gaussian-local-asymptotic``.  **Not a
    certificate**: it rests on the open Conjecture 3.2 of Chua et al. (2024); the kind is
    ``asymptotic`` and the mechanism record carries :math:`\chi_{chua}` and a warning."""
    from shufflekit.numeric.accountant import accountant

    n = check_n(n)
    acc = accountant(mech, n, method="gaussian-local-asymptotic")
    prof = acc.profile(epsilons=epsilons, deltas=deltas)
    return replace(prof, mechanism={**prof.mechanism, "chi_chua": acc.chi,
                                    "warning": "asymptotic template resting on an open conjecture; "
                                               "not a certified bound"})
