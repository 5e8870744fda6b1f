r"""The planar Laplace mechanism (Andrés, Bordenabe, Chatzikokolakis and Palamidessi 2013,
"Geo-indistinguishability"): an input :math:`x\in\mathbb R^2` is reported with density

.. math:: R_x(y) = \frac{\varepsilon_0^2}{2\pi}e^{-\varepsilon_0\|y - x\|},

so :math:`\log R_x/R_{x'} \le \varepsilon_0\|x - x'\|` (metric LDP).  As for
``laplace-metric``, a shuffle guarantee needs the users' inputs in a bounded set: here a disc of
diameter :math:`d` = ``distance``, and neighbouring datasets replace one input by one at distance
:math:`d` (the antipodal pairs, all the same up to rotation); the local
:math:`\varepsilon_0` of such a pair is :math:`\varepsilon_0 d`.

**A blanket with a one-dimensional amplification variable.**  For the pair :math:`x, x'` (foci,
centre :math:`c` of the disc), use elliptic coordinates :math:`u = (\|y-x\|+\|y-x'\|)/d \ge 1`,
:math:`v = (\|y-x'\|-\|y-x\|)/d\in[-1,1]`.  Every input :math:`z` of the disc has
:math:`\|y - z\| \le \|y - c\| + d/2 \le (\|y-x\|+\|y-x'\|)/2 + d/2` (triangle inequality, then
convexity of the norm at the midpoint :math:`c`), so

.. math:: c'(y) = \frac{\varepsilon_0^2}{2\pi}e^{-a(u+1)},\qquad a = \varepsilon_0 d/2,

lies below every :math:`R_z`: a valid blanket (Balle et al. 2019 only need a common part; it is
smaller than the maximal one, so the bound is valid and somewhat weaker).  Its ratios depend on
:math:`v` alone: :math:`\alpha = R_x/c' = e^{a(1+v)}`, :math:`\beta = R_{x'}/c' = e^{a(1-v)}`
(:math:`\alpha\beta = e^{2a}`, a convex arc).  With :math:`dA = \tfrac{d^2}4
\frac{u^2-v^2}{\sqrt{(u^2-1)(1-v^2)}}du\,dv` and :math:`v = \sin\theta`, the law of :math:`\theta`
under :math:`\omega' = c'/\gamma'` has density proportional to
:math:`J_2(a) - K_0(a)\sin^2\theta` on :math:`[-\pi/2, \pi/2]`, where
:math:`K_0(a) = \int_1^\infty e^{-au}(u^2-1)^{-1/2}du` and
:math:`J_2(a) = \int_1^\infty u^2e^{-au}(u^2-1)^{-1/2}du = K_0(a) + K_1(a)/a` (modified Bessel
functions; sympy evaluates both integrals as Meijer G functions, the tests check the identities),
and :math:`\gamma' = a^2e^{-a}(K_0(a)/2 + K_1(a)/a)` (each :math:`(u, v)` is two points of the
plane, mirror images across the line of the foci).  The blanket CDF in
:math:`\theta` is closed form; the first moments of :math:`\alpha, \beta` over a cell are
rigorous Arb quadratures (``acb.integral``) in the numeric layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import sympy as sp

from shufflekit.mechanisms.continuous import PiecewiseMechanism
from shufflekit.mechanisms.parameters import as_param
from shufflekit.mechanisms.protocol import ParamMap

theta = sp.Symbol("theta", real=True)
MAX_LOCAL_EPS0 = 60


@dataclass(frozen=True)
class QuadraturePiece:
    r"""A piece in the variable ``variable`` whose blanket CDF is closed form and whose first
    moments of :math:`\alpha, \beta` are integrals of ``alpha * density`` (numeric quadrature)."""

    t0: Any
    t1: Any
    shape: str
    alpha: sp.Expr
    beta: sp.Expr
    omega_cdf: sp.Expr
    density: sp.Expr
    variable: Any = theta
    totals: tuple = ()


@dataclass(frozen=True, eq=False)
class PlanarLaplace(PiecewiseMechanism):
    """Planar Laplace with rate ``eps0`` on a disc of diameter ``distance`` (module docstring)."""

    eps0_rate: Any
    distance: Any = 1
    name: str = "planar-laplace"

    def __post_init__(self):
        object.__setattr__(
            self, "eps0_rate", as_param(self.eps0_rate, "eps0", low=0, low_open=True)
        )
        object.__setattr__(
            self, "distance", as_param(self.distance, "distance", low=0, low_open=True)
        )
        local = self.eps0_rate * self.distance
        if not (isinstance(local, sp.Basic) and local.free_symbols):
            as_param(local, "eps0 * distance", low=0, high=MAX_LOCAL_EPS0, low_open=True)

    @property
    def params(self) -> ParamMap:
        return ParamMap(eps0=self.eps0_rate, distance=self.distance)

    @property
    def pairs_note(self) -> str:  # type: ignore[override]
        return (
            f"replace-one pairs at distance {self.distance} in a disc of that diameter "
            "(antipodal: one pair up to rotation); blanket c' of the module docstring"
        )

    @property
    def pair(self) -> tuple:
        h = self.distance / 2
        return ((h, 0), (-h, 0))

    @property
    def a(self) -> Any:
        return self.eps0_rate * self.distance / 2

    def bessel_forms(self) -> tuple[Any, Any]:
        r""":math:`(K_0(a), J_2(a)) = (K_0(a), K_0(a) + K_1(a)/a)`."""
        a = self.a
        return sp.besselk(0, a), sp.besselk(0, a) + sp.besselk(1, a) / a

    @cached_property
    def gamma(self) -> Any:
        r""":math:`\gamma' = \int c' = 2\cdot\frac{a^2}{2\pi}e^{-a}\int(J_2 - K_0\sin^2\theta)
        d\theta` (the factor 2: both half-planes)."""
        k0, j2 = self.bessel_forms()
        a = self.a
        integral = sp.integrate(j2 - k0 * sp.sin(theta) ** 2, (theta, -sp.pi / 2, sp.pi / 2))
        return sp.simplify(a**2 / sp.pi * sp.exp(-a) * integral)

    @cached_property
    def derived_pieces(self) -> list:
        k0, j2 = self.bessel_forms()
        a = self.a
        weight = j2 - k0 * sp.sin(theta) ** 2
        s = sp.Symbol("s", real=True)
        norm = sp.integrate(weight, (theta, -sp.pi / 2, sp.pi / 2))
        cdf = sp.integrate(weight.subs(theta, s), (s, -sp.pi / 2, theta)) / norm
        v = sp.sin(theta)
        return [
            QuadraturePiece(
                -sp.pi / 2,
                sp.pi / 2,
                "convex",
                sp.exp(a * (1 + v)),
                sp.exp(a * (1 - v)),
                sp.simplify(cdf),
                weight / norm,
                theta,
                (sp.S(1),),
            )
        ]

    def variance_alpha0(self) -> Any:
        r""":math:`\mathrm{Var}_{\omega'}[R_x/\omega'] = \gamma' E_{\omega'}[\alpha^2] - 1` as an
        unevaluated integral (sympy)."""
        p = self.derived_pieces[0]
        second = sp.Integral(p.alpha**2 * p.density, (theta, -sp.pi / 2, sp.pi / 2))
        return self.gamma * second - 1

    def chi_lo(self) -> Any:
        r""":math:`\chi_{lo} = \sqrt{\gamma'/\mathrm{Var}_{\omega'}[R_x/\omega']}` with the blanket
        :math:`c'` (Takagi-Liew 2026, Def. 2.4); a 30-digit float (mpmath quadrature of the
        integral, which has no elementary closed form), symbolic for symbolic parameters."""
        if self.a.free_symbols:
            return sp.sqrt(self.gamma / self.variance_alpha0())
        import mpmath

        p = self.derived_pieces[0]
        integrand = p.alpha**2 * p.density
        consts = {b: sp.Float(sp.N(b, 40), 40) for b in integrand.atoms(sp.besselk)}
        f = sp.lambdify(theta, integrand.subs(consts), modules="mpmath")
        with mpmath.workdps(30):
            second = mpmath.quad(f, [-mpmath.pi / 2, mpmath.pi / 2])
            g = mpmath.mpf(sp.N(self.gamma, 40))
            return sp.Float(mpmath.sqrt(g / (g * second - 1)), 30)

    def floor_expr(self) -> sp.Expr:
        """Not used: the blanket is given in elliptic coordinates (module docstring)."""
        raise NotImplementedError("planar-laplace gives its blanket in elliptic coordinates")

    def blanket_density(self) -> sp.Expr:
        """The law of theta under the blanket (the amplification variable depends on it alone)."""
        return self.derived_pieces[0].density

    def eps0(self) -> Any:
        """The local eps0 of the accounted pairs: eps0 * distance."""
        return self.eps0_rate * self.distance

    def latex(self) -> dict[str, str]:
        p = self.derived_pieces[0]
        return {
            "gamma": sp.latex(self.gamma),
            "theta_density": sp.latex(p.density),
            "alpha": sp.latex(p.alpha),
            "beta": sp.latex(p.beta),
            "eps0": sp.latex(self.eps0()),
        }


def planar_laplace(eps0: Any, distance: Any = 1) -> PlanarLaplace:
    """Planar Laplace with rate ``eps0``, pairs at distance ``distance``."""
    return PlanarLaplace(eps0, distance)
