r"""PrivUnit(:math:`p,\theta`) as an unbiased mean estimator (Takagi-Liew 2026, Prop. 3.5, App. A.4).

* :math:`q(\theta,d) = P(T<\theta)` from the mechanism (regularized incomplete beta);
  the density of :math:`T = \langle U, v\rangle` is :math:`\partial_\theta q`, and
  :math:`\alpha = E[T\mid T\ge\theta] = \int_\theta^1 t\,q'(t)\,dt/(1-q)`.
* :math:`m = \alpha(p+q-1)/q`, :math:`\mathsf{Err}_1 = 1/m^2 - 1` (estimator :math:`Y/m`).
* With the blanket mass :math:`\gamma` and :math:`\chi_{lo}` of the mechanism,
  :math:`\mathsf{Err}_1 = C_\gamma(\theta,d)\,d\,\chi_{lo}^2 - 1` exactly, where
  :math:`C_\gamma = q/((1-q)\gamma d\alpha^2)`; the paper's :math:`C(\theta,d)` is the
  :math:`\gamma\to1` value.
* :math:`C(0,d)` in closed form and as :math:`d\to\infty`; :math:`C(\tau) =
  \Phi(\tau)Q(\tau)/\phi(\tau)^2`, :math:`\tfrac{d}{d\tau}\log C`, :math:`C(0) = \pi/2`,
  and the Taylor series of :math:`C(\tau)` at 0.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.mechanisms.gaussian import normal_pdf
from shufflekit.mechanisms.privunit import cap_complement_probability
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.series import Series, series_eval
from shufflekit.symbols import d, p, theta

tau = sp.Symbol("tau", real=True)
x = sp.Symbol("x", positive=True)  # 1/d
_s = sp.Symbol("s", real=True)

SOURCE = "Takagi-Liew 2026, Prop. 3.5 and App. A.4"


def _piece(expr: sp.Expr) -> sp.Expr:
    """The generic branch of a sympy Piecewise (d != 1)."""
    if isinstance(expr, sp.Piecewise):
        return expr.args[0][0]
    return expr


def cap_mean(theta_: sp.Expr, d_: sp.Expr) -> sp.Expr:
    r""":math:`\alpha(\theta,d) = E[T\mid T\ge\theta]`, integrating :math:`t\,q'(t)` over :math:`[\theta, 1]`."""
    q_s = cap_complement_probability(_s, d_)
    dens = sp.simplify(sp.diff(q_s, _s))
    first = _piece(sp.integrate(_s * dens, (_s, theta_, 1)))
    q = cap_complement_probability(theta_, d_)
    return sp.simplify(first / (1 - q))


@cache
def quantities() -> Derivation:
    r"""q, alpha, m, Err_1 and chi_lo^2 for symbolic :math:`(p, \theta, d)` (steps 1-4 of App. A.4)."""
    q = cap_complement_probability(theta, d)
    alpha = cap_mean(theta, d)
    m = alpha * (p + q - 1) / q
    err = 1 / m**2 - 1
    return Derivation(
        id="privunit.quantities",
        title="PrivUnit: q, alpha, m, Err_1",
        result=sp.Matrix([q, alpha, m, err]),
        variables=(p, theta, d),
        assumptions=("d >= 2", "-1 < theta < 1", "p > 1 - q (informative cap)"),
        source=SOURCE + ", eqs. (privunit-beta), (privunit-m)",
        steps=(("q = P(T < theta)", q), ("alpha = E[T | T >= theta]", alpha), ("m", m)),
        lhs=r"(q, \alpha, m, \mathsf{Err}_1)",
        extras={"q": q, "alpha": alpha, "m": m, "err": err},
    )


def exact_numbers(p_: sp.Expr, theta_: sp.Expr, d_: int) -> dict:
    r"""All PrivUnit quantities for numbers :math:`(p,\theta,d)`, exact (sympy), from the mechanism."""
    mech = make("privunit", p=p_, theta=theta_, d=d_)
    q = mech.q
    alpha = cap_mean(mech.theta, mech.d)
    m = alpha * (mech.p + q - 1) / q
    err = 1 / m**2 - 1
    chi_lo2 = mech.chi_lo() ** 2
    gam = mech.gamma
    c_gamma = q / ((1 - q) * gam * mech.d * alpha**2)
    return {
        "q": q,
        "alpha": alpha,
        "m": m,
        "err": err,
        "chi_lo2": chi_lo2,
        "gamma": gam,
        "C_gamma": c_gamma,
        "C": q / ((1 - q) * mech.d * alpha**2),
        "identity_residual": err - (c_gamma * mech.d * chi_lo2 - 1),
    }


@cache
def constant_at_zero() -> Derivation:
    r""":math:`C(0,d) = q/((1-q)d\alpha^2)` at :math:`\theta = 0` in closed form and as :math:`d\to\infty`."""
    # q(0, d) = I_{1/2}(k, k) = 1/2 by the symmetry I_x(k, k) = 1 - I_{1-x}(k, k) of the beta law
    q0 = cap_complement_probability(sp.Integer(0), d)
    k = (d - 1) / 2
    q0 = q0.subs(sp.betainc_regularized(k, k, 0, sp.Rational(1, 2)), sp.Rational(1, 2))
    q_check = q0
    alpha_general = quantities().extras["alpha"]
    alpha0 = sp.simplify(
        alpha_general.subs(theta, 0).subs(
            sp.betainc_regularized(k, k, 0, sp.Rational(1, 2)), sp.Rational(1, 2)
        )
    )
    c0 = sp.simplify(sp.gammasimp((q0 / ((1 - q0) * d * alpha0**2)).rewrite(sp.gamma)))
    # d -> oo: write the gamma functions through loggamma and expand in x = 1/d
    c0_log = sp.expand_log(sp.log(c0.subs(d, 1 / x)), force=True)
    c0_log = c0_log.replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.gamma),
        lambda e: sp.loggamma(e.args[0].args[0]),
    )
    ser_log = sp.series(c0_log, x, 0, 5).removeO()
    ser = series_eval(sp.exp(sp.expand(ser_log)), x, 4)
    return Derivation(
        id="privunit.constant",
        title="PrivUnit constant C(0, d) and its expansion as d -> oo",
        result=ser.with_display(d),
        variables=(d,),
        assumptions=("theta = 0", "gamma -> 1"),
        source=SOURCE + ", Step 5-6",
        steps=(
            ("alpha at theta = 0", alpha0),
            ("q(0, d) (should be 1/2)", q_check),
            ("C(0, d) closed form", c0),
        ),
        lhs=r"C(0,d)",
        extras={"closed_form": c0, "alpha0": alpha0},
    )


@cache
def limit_constant() -> Derivation:
    r""":math:`C(\tau) = \Phi(\tau)Q(\tau)/\phi(\tau)^2`, its log-derivative, :math:`C(0)` and Taylor series."""
    u = sp.Symbol("u", real=True)
    Phi = sp.integrate(normal_pdf(u, 0, 1), (u, -sp.oo, tau)).rewrite(sp.erfc)
    Q = sp.integrate(normal_pdf(u, 0, 1), (u, tau, sp.oo)).rewrite(sp.erfc)
    phi = normal_pdf(tau, 0, 1)
    C = Phi * Q / phi**2
    dlog = sp.diff(sp.log(Phi), tau) + sp.diff(sp.log(Q), tau) - 2 * sp.diff(sp.log(phi), tau)
    dlog = sp.simplify(dlog)
    c_at_0 = sp.simplify(C.subs(tau, 0))
    tau_p = sp.Symbol("tau", positive=True)
    taylor = Series.from_expr(sp.series(C, tau, 0, 7).removeO().subs(tau, tau_p), tau_p, 7)
    even = sp.simplify(C.subs(tau, -tau) - C)
    return Derivation(
        id="privunit.limit-constant",
        title="high-dimensional PrivUnit constant C(tau) and its minimum",
        result=C,
        variables=(tau,),
        assumptions=("theta = tau / sqrt(d)", "d -> oo"),
        source=SOURCE + ", Step 6",
        steps=(
            ("C(-tau) - C(tau) (C is even)", even),
            ("d/dtau log C", dlog),
            ("C(0)", c_at_0),
            ("Taylor series of C at 0", taylor),
        ),
        lhs=r"C(\tau)",
        extras={"dlog": dlog, "C0": c_at_0, "taylor": taylor, "Phi": Phi, "Q": Q},
    )
