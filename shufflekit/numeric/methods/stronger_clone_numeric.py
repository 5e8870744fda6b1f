r"""The exact divergence of the stronger clone pair (Feldman-McMillan-Talwar 2023), certified.

Feldman-McMillan-Talwar 2023 (Lemma 3.2, as restricted by its erratum) reduce the shuffled output
of an :math:`\varepsilon_0`-LDP randomizer to a pair of counts: the differing user reports ``0``
with probability :math:`e^{\varepsilon_0}/(e^{\varepsilon_0}+1)` (``1`` otherwise) under
:math:`x^0`, and mirrored under :math:`x^1`; each of the other :math:`n-1` users is a *clone*
with probability :math:`2/(e^{\varepsilon_0}+1)`, reporting a fair bit.  With
:math:`C\sim\mathrm{Bin}(n-1, 2/(e^{\varepsilon_0}+1))` and :math:`A\sim\mathrm{Bin}(C, 1/2)`,

.. math::
    \delta(\varepsilon) \le D_{e^\varepsilon}\big((A+\Delta, C-A+1-\Delta)\,\big\|\,
    (A+1-\Delta, C-A+\Delta)\big),\qquad
    \Delta\sim\mathrm{Bern}\big(e^{\varepsilon_0}/(e^{\varepsilon_0}+1)\big).

The reduction needs every input's report law to contain the common part
:math:`(R_{x^0}+R_{x^1})/(e^{\varepsilon_0}+1)` (the class kept by the erratum, see
:func:`shufflekit.numeric.methods.baselines.stronger_clone_applies`: binary and k-ary
randomized response belong to it); outside it the method is refused with the reason.  The
closed form of the same paper (Thm 3.2) is the ``stronger-clone`` method; this one evaluates the
divergence itself (Koskela et al. evaluate it numerically without a certificate: about
:math:`\varepsilon = 0.41` at :math:`\delta = 10^{-6}`, :math:`n = 10^4`,
:math:`\varepsilon_0 = 4`, where the closed form gives 0.958).

Evaluation: :func:`shufflekit.numeric.kernels.mirrored_pair.mirrored_divergence` with
:math:`u = p/(p+1)`, :math:`v = s = 1/(p+1)`, :math:`p = e^{\varepsilon_0}`.  The divergence
grows with :math:`p` (the pair separates and the clone probability falls), and a mechanism in
the class for :math:`\varepsilon_0` is in it for any larger value, so the local
:math:`\varepsilon_0` rounded up (:func:`~shufflekit.numeric.kernels.gparv_law.numeric_eps0`)
gives a valid bound.
"""

from __future__ import annotations

from flint import arb, ctx

from shufflekit.numeric.accountant import register
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels.directed_rounding import float_up
from shufflekit.numeric.kernels.gparv_law import numeric_eps0
from shufflekit.numeric.kernels.mirrored_pair import mirrored_divergence
from shufflekit.numeric.methods.baselines import (
    DeltaFunctionAccountant,
    stronger_clone_supported,
)
from shufflekit.validation import check_epsilon, check_n

PREC = 128


def stronger_clone_delta(eps0: float, n: int, epsilon: float) -> float:
    r"""Upper bound on the stronger clone divergence at ``epsilon`` for a local ``eps0``."""
    n, epsilon = check_n(n), check_epsilon(epsilon)
    with ctx.workprec(PREC):
        p = arb(float_up(arb(eps0).exp()))  # one exact p >= e^eps0
        u, v = p / (p + 1), 1 / (p + 1)
        return mirrored_divergence(u, v, v, n, epsilon, upper=True)


@register(
    "stronger-clone-numeric",
    kind=Kind.UPPER,
    supports=stronger_clone_supported,
    adjacencies=("replace-one",),
    summary="exact divergence of the stronger clone pair (FMT 2023 Lemma 3.2), within its "
    "erratum's class (e.g. k-RR)",
)
def _stronger_clone_numeric(mech, n, *, adjacency="replace-one", **options):
    r"""Feldman-McMillan-Talwar 2023, Lemma 3.2 within its erratum's class: the stronger clone
    pair's exact divergence, enclosed in Arb and proven float sums."""
    e0 = numeric_eps0(mech)

    def fn(epsilon):
        return 0.0, stronger_clone_delta(e0, n, epsilon), ""

    return DeltaFunctionAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="stronger-clone-numeric",
        kind=Kind.UPPER,
        fn=fn,
        certificate="FMT 2023 Lemma 3.2 within its erratum's class (all pairs); Arb anchors "
        "and float sums with proven error bounds",
    )
