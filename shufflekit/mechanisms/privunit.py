r"""PrivUnit(p, theta) on the sphere :math:`\mathbb S^{d-1}` (Takagi-Liew 2026, Def. A.2).

Given :math:`v`, output :math:`U\sim\mathrm{Unif}(C_\theta(v))` with probability
:math:`p` and :math:`U\sim\mathrm{Unif}(C_\theta(v)^c)` otherwise, where
:math:`C_\theta(v) = \{u: \langle u, v\rangle \ge \theta\}`.  With
:math:`T = \langle U, v\rangle` for uniform :math:`U`, :math:`(1+T)/2 \sim
\mathrm{Beta}((d-1)/2, (d-1)/2)`, so

.. math:: q(\theta, d) = P(T < \theta) = I_{(1+\theta)/2}\big(\tfrac{d-1}{2}, \tfrac{d-1}{2}\big),

and the density with respect to the uniform measure takes two values,
:math:`h = p/(1-q)` on the cap and :math:`l = (1-p)/q` off it.  Every output lies
in some cap and outside some other (for :math:`-1<\theta<1`), so the maximal
blanket is uniform with :math:`\gamma = \min(h, l)`.

For the zero-out pair :math:`(v,\perp)` the privacy amplification variable only
sees cap membership, so its law is exact and finite.  For :math:`d = 1` the
sphere is :math:`\{\pm1\}`, the cap is :math:`\{v\}` and PrivUnit is binary
randomized response (:math:`q = 1/2`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.mechanisms.finite import Blanket, FiniteMechanism
from shufflekit.mechanisms.law import DiscreteLaw
from shufflekit.mechanisms.ordering import sign, smallest
from shufflekit.mechanisms.parameters import as_param, check_law_epsilon
from shufflekit.mechanisms.protocol import Describable, ParamMap


def cap_complement_probability(theta: Any, d: Any) -> Any:
    r""":math:`q(\theta, d) = P(\langle U, v\rangle < \theta)` for uniform :math:`U`.

    For a concrete dimension the marginal density
    :math:`c_d (1-t^2)^{(d-3)/2}`, :math:`c_d = \Gamma(d/2)/(\sqrt\pi\,\Gamma((d-1)/2))`,
    is integrated in closed form by sympy; for a symbolic ``d`` or ``theta`` the
    regularized incomplete beta function is returned.
    """
    if d == 1:
        return sp.Rational(1, 2) if sign(theta + 1) > 0 else sp.Integer(0)
    symbolic = (isinstance(d, sp.Basic) and d.free_symbols) or (
        isinstance(theta, sp.Basic) and theta.free_symbols
    )
    a = (sp.Integer(d) - 1) / 2 if not (isinstance(d, sp.Basic) and d.free_symbols) else (d - 1) / 2
    if symbolic or int(d) > 40:
        return sp.betainc_regularized(a, a, 0, (1 + theta) / 2)
    t = sp.Symbol("t", real=True)
    density = (
        sp.gamma(sp.Integer(d) / 2)
        / (sp.sqrt(sp.pi) * sp.gamma(a))
        * (1 - t**2) ** ((sp.Integer(d) - 3) / 2)
    )
    return sp.simplify(sp.integrate(density, (t, -1, theta)))


#: largest dimension for which the cap probability (a regularized incomplete beta function of
#: order d/2) is evaluated reliably; beyond it the hypergeometric series does not converge
PRIVUNIT_MAX_D = 2048


@dataclass(frozen=True)
class PrivUnit(Describable):
    p: Any
    theta: Any
    d: Any
    name: str = "privunit"

    def __post_init__(self):
        object.__setattr__(
            self, "p", as_param(self.p, "p", low=0, high=1, low_open=True, high_open=True)
        )
        object.__setattr__(self, "theta", as_param(self.theta, "theta", low=-1, high=1))
        object.__setattr__(
            self, "d", as_param(self.d, "d", low=1, high=PRIVUNIT_MAX_D, integer=True)
        )
        if not (isinstance(self.theta, sp.Basic) and self.theta.free_symbols):
            if self.theta in (-1, 1) and self.d != 1:
                raise ValueError(
                    f"theta={self.theta} makes a cap of measure 0 or 1; "
                    "allowed range (-1, 1) for d >= 2"
                )

    @property
    def q(self) -> Any:
        return cap_complement_probability(self.theta, self.d)

    def levels(self) -> tuple[Any, Any]:
        """Density levels (h on the cap, l off it) with respect to the uniform measure."""
        q = self.q
        return self.p / (1 - q), (1 - self.p) / q

    @property
    def gamma(self) -> Any:
        return smallest(list(self.levels()))

    def cap_view(self) -> FiniteMechanism:
        """The lumped two-class view: outputs 'cap of v' / 'outside', input ``v``.

        Exact for quantities that only involve one input and the blanket (the
        zero-out pair): the GPARV, :math:`\\gamma` and :math:`\\chi_{lo}`.
        """
        h, l = self.levels()
        q = self.q
        # densities times class measure; the blanket (uniform) is added as input 'u'
        return FiniteMechanism.from_matrix(
            [[h * (1 - q), l * q], [1 - q, q]],
            inputs=("v", "uniform"),
            outputs=("cap", "outside"),
            name="privunit-cap-view",
        )

    def blanket(self) -> Blanket:
        """The uniform blanket of mass gamma = min(h, l), on the two classes (cap, outside) of
        uniform measure (1 - q, q)."""
        q, g = self.q, self.gamma
        omega = (1 - q, q)
        return Blanket(gamma=g, omega=omega, floor=tuple(g * w for w in omega))

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> DiscreteLaw:
        """GPARV of the zero-out pair (v, null): atoms (h-e^eps)/gamma, (l-e^eps)/gamma, 0.

        By rotation invariance every zero-out pair has this law; ``pair`` is accepted for the
        common mechanism contract and must be ``None`` or a zero-out pair.
        """
        epsilon = check_law_epsilon(epsilon)
        h, l = self.levels()
        q, g = self.q, self.gamma
        e = sp.exp(epsilon)
        return DiscreteLaw.from_pairs(
            [((h - e) / g, g * (1 - q)), ((l - e) / g, g * q), (0, 1 - g)]
        )

    def chi_lo(self) -> Any:
        r""":math:`\chi_{lo}^2 = \gamma / \mathrm{Var}_\mu[f_v - 1]`."""
        h, l = self.levels()
        q = self.q
        var = (1 - q) * (h - 1) ** 2 + q * (l - 1) ** 2
        return sp.sqrt(self.gamma / var)

    def chi_up(self) -> Any:
        r""":math:`\chi_{up}` over references :math:`z` on the sphere.

        For the pair :math:`(v,\perp)` and reference :math:`z`, the variance is
        affine in :math:`a = \mu(C_\theta(v)\cap C_\theta(z))`, which decreases
        from :math:`1-q` (:math:`z=v`) to :math:`\max(0, 1-2q)` (:math:`z=-v`); so the
        sup over :math:`z` is attained at one of these two references.
        """
        h, l = self.levels()
        q = self.q

        def var(a):
            b = (1 - q) - a
            return (
                a * (h - 1) ** 2 / h
                + b * (h - 1) ** 2 / l
                + b * (l - 1) ** 2 / h
                + (1 - 2 * (1 - q) + a) * (l - 1) ** 2 / l
            )

        lo_a = (
            sp.Max(0, 1 - 2 * q)
            if (isinstance(q, sp.Basic) and q.free_symbols)
            else (0 if sign(1 - 2 * q) <= 0 else 1 - 2 * q)
        )
        candidates = [var(1 - q), var(lo_a)]
        worst = candidates[0] if sign(candidates[0] - candidates[1]) >= 0 else candidates[1]
        return 1 / sp.sqrt(worst)

    def eps0(self) -> Any:
        h, l = self.levels()
        return sp.Abs(sp.log(h / l))

    @property
    def params(self) -> ParamMap:
        return ParamMap(p=self.p, theta=self.theta, d=self.d)
