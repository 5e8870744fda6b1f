r"""Fixed-composition shuffle asymptotics, derived symbolically (Shvets 2026, Secs. 3, 6, 7, 8.3, 10).

Setting: a binary-input channel :math:`W_0, W_1` on a finite alphabet, :math:`v = W_1 - W_0`,
composition :math:`\pi = k/n` of the other users.  Everything below is computed by sympy
from its definition:

* :math:`\Sigma_b = \operatorname{diag}(W_b) - W_bW_b^\top`, :math:`\Sigma_\pi = (1-\pi)\Sigma_0 + \pi\Sigma_1`
  (covariance of a fixed-composition sum, Prop. 3.1) and the multinomial covariance of the
  mixture :math:`f_\pi = (1-\pi)W_0 + \pi W_1`; their difference is
  :math:`\pi(1-\pi)vv^\top` (Prop. 3.2, eq. (4));
* :math:`I_\pi = v^\top\Sigma_\pi^+v` by the **bordered solve**
  :math:`\Sigma_\pi x + \lambda\mathbf 1 = v,\ \mathbf 1^\top x = 0` (the pseudo-inverse on
  the tangent space of sum-zero vectors; :math:`\Sigma_\pi\mathbf 1 = 0` and
  :math:`\mathbf 1^\top v = 0` force :math:`\lambda = 0`), never a generic pinv;
* :math:`I^{\rm mix}_\pi` the same way, and the exact relation
  :math:`1/I^{\rm mix}_\pi = 1/I_\pi + \pi(1-\pi)` (Sherman-Morrison on the tangent space);
* the JSD integrand :math:`D` from :math:`\mathrm{JSD} = \tfrac12\mathrm{KL}(P\|M)+\tfrac12\mathrm{KL}(Q\|M)`
  (Lemma 6.1) and its Taylor series; the moments of :math:`U_n` from the moment generating
  function; the canonical JSD expansion (Thm 6.2); the smooth f-divergence constant
  (Thm 6.5); the local GDP curve (Thm 7.3, eq. (9)); the binary-output constant (Sec. 8.3);
  the randomized-response boundary quantities (Sec. 10).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbols import chi2, n

pi = sp.Symbol("pi", nonnegative=True)
u = sp.Symbol("u", real=True)
ell = sp.Symbol("ell", positive=True)
t = sp.Symbol("t", nonnegative=True)
mu = sp.Symbol("mu", positive=True)
lam = sp.Symbol("lambda")
mu3, mu4, mu5, mu6 = sp.symbols("mu3 mu4 mu5 mu6", real=True)
b = sp.Symbol("b", positive=True)  # b = e^{eps0}

SOURCE = "Shvets 2026"


# ------------------------------------------------------------------ input
def as_channel(w0: Sequence, w1: Sequence) -> tuple[sp.Matrix, sp.Matrix]:
    r"""Exact column vectors :math:`W_0, W_1` (floats are read as their decimal strings).

    Raises ``ValueError`` for rows of different length, entries outside [0, 1], rows
    not summing to 1, or fewer than 2 symbols.
    """
    rows = []
    for name, w in (("w0", w0), ("w1", w1)):
        vals = []
        for x in w:
            if isinstance(x, float):
                x = sp.Rational(repr(x))
            v = sp.nsimplify(x, rational=True) if not isinstance(x, sp.Basic) else x
            if v.is_number and not (0 <= v <= 1):
                raise ValueError(f"{name}={list(w)} is not allowed; entries must lie in [0, 1]")
            vals.append(v)
        if len(vals) < 2:
            raise ValueError(f"{name}={list(w)} is not allowed; need at least 2 output symbols")
        total = sp.simplify(sum(vals))
        if total != 1:
            raise ValueError(f"{name}={list(w)} sums to {total}; allowed: sum = 1 exactly")
        rows.append(sp.Matrix(vals))
    if rows[0].shape != rows[1].shape:
        raise ValueError(
            f"w0 has {rows[0].shape[0]} symbols but w1 has {rows[1].shape[0]}; they must match"
        )
    return rows[0], rows[1]


def multinomial_covariance(w: sp.Matrix) -> sp.Matrix:
    r""":math:`\operatorname{diag}(w) - ww^\top`, the covariance of one categorical draw with law w."""
    return sp.diag(*list(w)) - w * w.T


def tangent_solve(sigma: sp.Matrix, v: sp.Matrix) -> sp.Matrix:
    r"""The :math:`x` with :math:`\Sigma x = v`, :math:`\mathbf 1^\top x = 0` (bordered solve).

    For :math:`\Sigma` symmetric with :math:`\Sigma\mathbf 1 = 0`, positive definite on the
    sum-zero space, and :math:`\mathbf 1^\top v = 0`, this is :math:`\Sigma^+v`.
    """
    d = sigma.shape[0]
    one = sp.ones(d, 1)
    border = sp.zeros(d + 1, d + 1)
    border[:d, :d] = sigma
    border[:d, d] = one
    border[d, :d] = one.T
    rhs = sp.Matrix(list(v) + [0])
    try:  # exact LU over the fraction field of the entries' domain (e.g. QQ(pi))
        A = DomainMatrix.from_Matrix(border).to_field()
        sol = A.lu_solve(DomainMatrix.from_Matrix(rhs).convert_to(A.domain)).to_Matrix()
    except Exception:  # domains DomainMatrix cannot unify: fall back to sympy's LU
        sol = border.LUsolve(rhs)
    return sp.Matrix([sp.cancel(sp.together(sol[i])) for i in range(d)])


def quadratic_form_pinv(sigma: sp.Matrix, v: sp.Matrix) -> sp.Expr:
    r""":math:`v^\top\Sigma^+v` through :func:`tangent_solve`, as a cancelled rational function."""
    x = tangent_solve(sigma, v)
    return sp.factor(sp.cancel((v.T * x)[0, 0]))


# ------------------------------------------------------------ covariances
@cache
def mixture_covariance_identity(d: int = 3) -> Derivation:
    r""":math:`\Sigma^{\rm mix}_\pi - \Sigma_\pi - \pi(1-\pi)vv^\top = 0` for a generic channel (Prop. 3.2)."""
    a = sp.Matrix(sp.symbols(f"a0:{d}", positive=True))
    c = sp.Matrix(sp.symbols(f"c0:{d}", positive=True))
    v = c - a
    sig0, sig1 = multinomial_covariance(a), multinomial_covariance(c)
    sig_pi = (1 - pi) * sig0 + pi * sig1
    f = (1 - pi) * a + pi * c
    sig_mix = multinomial_covariance(f)
    diff = (sig_mix - sig_pi - pi * (1 - pi) * v * v.T).applyfunc(sp.expand)
    return Derivation(
        id="fixed-composition.sigma-mix-identity",
        title="mixture covariance = fixed-composition covariance + pi(1-pi) v v^T",
        result=diff,
        variables=(pi,) + tuple(a) + tuple(c),
        assumptions=(f"generic W0 = a, W1 = c on {d} symbols (no sum constraint needed)",),
        source="Shvets 2026, Prop. 3.1 and Prop. 3.2, eq. (4)",
        steps=(
            ("Sigma_0 = diag(W0) - W0 W0^T", sig0),
            ("Sigma_1", sig1),
            ("Sigma_pi = (1-pi) Sigma_0 + pi Sigma_1", sig_pi),
            ("Sigma_mix = diag(f) - f f^T, f = (1-pi) W0 + pi W1", sig_mix),
            ("Sigma_mix - Sigma_pi - pi(1-pi) v v^T (expanded)", diff),
        ),
        lhs=r"\Sigma^{\mathrm{mix}}_\pi - \Sigma_\pi - \pi(1-\pi)vv^\top",
    )


def _key(w0, w1) -> tuple:
    W0, W1 = as_channel(w0, w1)
    return tuple(W0), tuple(W1)


def covariances(w0: Sequence, w1: Sequence) -> Derivation:
    r"""Exact :math:`\Sigma_0, \Sigma_1, \Sigma_\pi, \Sigma^{\rm mix}_\pi` of a channel (Prop. 3.1-3.2)."""
    return _covariances(*_key(w0, w1))


@cache
def _covariances(w0: tuple, w1: tuple) -> Derivation:
    W0, W1 = sp.Matrix(w0), sp.Matrix(w1)
    v = W1 - W0
    sig0, sig1 = multinomial_covariance(W0), multinomial_covariance(W1)
    sig_pi = ((1 - pi) * sig0 + pi * sig1).applyfunc(sp.expand)
    sig_mix = multinomial_covariance((1 - pi) * W0 + pi * W1).applyfunc(sp.expand)
    gap = (sig_mix - sig_pi).applyfunc(sp.factor)
    return Derivation(
        id="fixed-composition.covariances",
        title="fixed-composition and mixture covariances",
        result=sig_pi,
        variables=(pi,),
        assumptions=("0 <= pi <= 1",),
        source="Shvets 2026, Prop. 3.1-3.2",
        steps=(
            ("Sigma_0", sig0),
            ("Sigma_1", sig1),
            ("v = W1 - W0", v),
            ("Sigma_mix", sig_mix),
            ("Sigma_mix - Sigma_pi", gap),
        ),
        lhs=r"\Sigma_\pi",
        extras={"sigma0": sig0, "sigma1": sig1, "sigma_mix": sig_mix, "v": v, "gap": gap},
    )


# ------------------------------------------------------------ constants
def fisher_constant(w0: Sequence, w1: Sequence) -> Derivation:
    r""":math:`I_\pi = v^\top\Sigma_\pi^+v` as an exact rational function of :math:`\pi` (Sec. 3)."""
    return _fisher_constant(*_key(w0, w1))


@cache
def _fisher_constant(w0: tuple, w1: tuple) -> Derivation:
    cov = _covariances(w0, w1)
    v = cov.extras["v"]
    x = tangent_solve(cov.result, v)
    i_pi = quadratic_form_pinv(cov.result, v)
    return Derivation(
        id="fixed-composition.I-pi",
        title="fixed-composition Fisher constant I_pi",
        result=i_pi,
        variables=(pi,),
        assumptions=("0 <= pi <= 1", "W0, W1 with full support"),
        source="Shvets 2026, Sec. 3 (I_pi = v^T Sigma_pi^+ v)",
        steps=(
            ("Sigma_pi", cov.result),
            ("tangent solution x = Sigma_pi^+ v (bordered solve)", x),
            ("I_pi = v^T x", i_pi),
        ),
        lhs=r"I_\pi",
    )


def mixture_fisher_constant(w0: Sequence, w1: Sequence) -> Derivation:
    r""":math:`I^{\rm mix}_\pi = v^\top(\operatorname{diag}f_\pi - f_\pi f_\pi^\top)^+v`, with the checks
    :math:`I^{\rm mix}_\pi = \sum_y v(y)^2/f_\pi(y)` and :math:`1/I^{\rm mix}_\pi - 1/I_\pi = \pi(1-\pi)`."""
    return _mixture_fisher_constant(*_key(w0, w1))


@cache
def _mixture_fisher_constant(w0: tuple, w1: tuple) -> Derivation:
    cov = _covariances(w0, w1)
    v = cov.extras["v"]
    i_mix = quadratic_form_pinv(cov.extras["sigma_mix"], v)
    W0, W1 = sp.Matrix(w0), sp.Matrix(w1)
    f = (1 - pi) * W0 + pi * W1
    sum_form = sp.factor(sp.cancel(sum(v[i] ** 2 / f[i] for i in range(len(w0)))))
    i_pi = _fisher_constant(w0, w1).result
    relation = sp.cancel(1 / i_mix - 1 / i_pi)
    return Derivation(
        id="fixed-composition.I-mix",
        title="i.i.d. mixture Fisher constant and its relation to I_pi",
        result=i_mix,
        variables=(pi,),
        assumptions=("0 <= pi <= 1",),
        source="Shvets 2026, Sec. 3 and Sec. 8.3 (I^mix)",
        steps=(
            ("I_mix = v^T Sigma_mix^+ v (bordered solve)", i_mix),
            ("sum_y v(y)^2 / f_pi(y)", sum_form),
            ("1/I_mix - 1/I_pi", relation),
        ),
        lhs=r"I^{\mathrm{mix}}_\pi",
        extras={
            "sum_form": sum_form,
            "relation": relation,
            "ratio": sp.cancel(i_mix / i_pi),
            "underestimate": sp.cancel(1 - i_mix / i_pi),
        },
    )


@cache
def sherman_morrison_relation() -> Derivation:
    r"""General proof on a 2-dimensional tangent space: with :math:`A` symmetric invertible and
    :math:`c = \pi(1-\pi)`, :math:`v^\top(A + cvv^\top)^{-1}v = I/(1+cI)`, :math:`I = v^\top A^{-1}v`,
    i.e. :math:`1/I^{\rm mix} = 1/I_\pi + \pi(1-\pi)`."""
    a11, a12, a22, v1, v2, c = sp.symbols("a11 a12 a22 v1 v2 c")
    A = sp.Matrix([[a11, a12], [a12, a22]])
    v = sp.Matrix([v1, v2])
    I = sp.cancel((v.T * A.inv() * v)[0, 0])
    Imix = sp.cancel((v.T * (A + c * v * v.T).inv() * v)[0, 0])
    diff = sp.simplify(1 / Imix - 1 / I - c)
    return Derivation(
        id="fixed-composition.sherman-morrison",
        title="1/I_mix = 1/I_pi + pi(1-pi)",
        result=diff,
        variables=(c,),
        assumptions=("A = Sigma_pi restricted to sum-zero vectors (d = 3)", "c = pi(1-pi)"),
        source="Shvets 2026, Prop. 3.2 (strict gap I_pi > I_mix)",
        steps=(
            ("I = v^T A^{-1} v", I),
            ("I_mix = v^T (A + c v v^T)^{-1} v", Imix),
            ("1/I_mix - 1/I - c", diff),
        ),
        lhs=r"1/I^{\mathrm{mix}} - 1/I_\pi - \pi(1-\pi)",
    )


def endpoint_chi2(w0: Sequence, w1: Sequence) -> Derivation:
    r""":math:`I_0 = \chi^2(W_1\|W_0)` and :math:`I_1 = \chi^2(W_0\|W_1)` (Prop. 3.3)."""
    return _endpoint_chi2(*_key(w0, w1))


@cache
def _endpoint_chi2(w0: tuple, w1: tuple) -> Derivation:
    i_pi = _fisher_constant(w0, w1).result
    chi2_10 = sum((b1 - a0) ** 2 / a0 for a0, b1 in zip(w0, w1))
    chi2_01 = (
        sum((b1 - a0) ** 2 / b1 for a0, b1 in zip(w0, w1)) if all(x > 0 for x in w1) else sp.oo
    )
    return Derivation(
        id="fixed-composition.I0-chi2",
        title="endpoint constants equal the channel chi-square",
        result=sp.nsimplify(i_pi.subs(pi, 0)),
        variables=(),
        source="Shvets 2026, Prop. 3.3 (I_0 = chi^2(W1||W0))",
        steps=(
            ("I_pi at pi = 0", i_pi.subs(pi, 0)),
            ("chi^2(W1||W0) from its definition", chi2_10),
            ("I_pi at pi = 1", i_pi.subs(pi, 1)),
            ("chi^2(W0||W1)", chi2_01),
        ),
        lhs=r"I_0",
        extras={"chi2_10": chi2_10, "chi2_01": chi2_01, "I1": sp.nsimplify(i_pi.subs(pi, 1))},
    )


def convexity(w0: Sequence, w1: Sequence) -> Derivation:
    r""":math:`\partial_\pi^2 I_\pi` as a rational function (Prop. 3.4: non-negative on [0, 1])."""
    i_pi = fisher_constant(w0, w1).result
    second = sp.factor(sp.cancel(sp.diff(i_pi, pi, 2)))
    return Derivation(
        id="fixed-composition.convexity",
        title="second derivative of pi -> I_pi",
        result=second,
        variables=(pi,),
        source="Shvets 2026, Prop. 3.4",
        steps=(("I_pi", i_pi), ("d^2/dpi^2 I_pi", second)),
        lhs=r"\partial_\pi^2 I_\pi",
    )


# ------------------------------------------------------------ JSD
@cache
def jsd_function() -> Derivation:
    r""":math:`\mathrm{JSD}(P\|Q) = \mathbb{E}_P[D(L)]` with :math:`D` from the definition (Lemma 6.1)."""
    # M = (1 + L) P / 2:  KL(P||M) = E_P log(2/(1+L)),  KL(Q||M) = E_P[L log(2L/(1+L))]
    kl_pm = sp.log(2 / (1 + ell))
    kl_qm = ell * sp.log(2 * ell / (1 + ell))
    D = sp.Rational(1, 2) * (kl_pm + kl_qm)
    D_u = sp.expand_log(D.subs(ell, 1 + u), force=True)
    printed_form = sp.Rational(1, 2) * (1 + u) * sp.log(1 + u) - sp.Rational(1, 2) * (
        2 + u
    ) * sp.log(1 + u / 2)
    # identity check without log simplification: the gap vanishes with its first derivative
    # at u = 0 and its second derivative is a rational function that cancels to 0
    g = D_u - printed_form
    gap = sp.Matrix(
        [
            sp.simplify(g.subs(u, 0)),
            sp.simplify(sp.diff(g, u).subs(u, 0)),
            sp.cancel(sp.together(sp.diff(g, u, 2))),
        ]
    )
    return Derivation(
        id="fixed-composition.jsd-function",
        title="JSD integrand D(L) from the definition of JSD",
        result=D,
        variables=(ell,),
        assumptions=("M = (P+Q)/2 = (1+L) P / 2", "Q << P"),
        source="Shvets 2026, Lemma 6.1",
        steps=(
            ("pointwise KL(P||M) integrand", kl_pm),
            ("pointwise KL(Q||M) integrand (under P)", kl_qm),
            ("D(1+u)", D_u),
            ("gap g = D(1+u) - [(1+u)log(1+u) - (2+u)log(1+u/2)]/2: (g(0), g'(0), g''(u))", gap),
        ),
        lhs=r"D(\ell)",
        extras={"D_u": D_u, "gap_to_closed_form": gap},
    )


@cache
def jsd_series(order: int = 7) -> Derivation:
    r"""Taylor series of :math:`D(1+u)` at :math:`u = 0` up to :math:`O(u^{\text{order}})`."""
    D_u = jsd_function().extras["D_u"]
    ser = sp.series(D_u, u, 0, order).removeO()
    coeffs = {j: sp.nsimplify(ser.coeff(u, j)) for j in range(order)}
    return Derivation(
        id="fixed-composition.jsd-series",
        title="Taylor series of the JSD integrand",
        result=ser + sp.O(u**order),
        variables=(u,),
        source="Shvets 2026, Lemma 6.1 (series)",
        steps=(("D(1+u)", D_u), ("series at u = 0", ser)),
        lhs=r"D(1+u)",
        extras={"coefficients": coeffs},
    )


@cache
def canonical_moments(max_order: int = 6) -> Derivation:
    r""":math:`\mathbb{E}U_n^j` for :math:`U_n = \frac1n\sum_{i\le n}Z_i`, :math:`Z_i` i.i.d. with
    mean 0, variance :math:`\chi^2` and central moments :math:`\mu_3, \dots` (Thm 6.2), from
    :math:`\mathbb{E}e^{sU_n} = M_Z(s/n)^n` (exact in :math:`n`)."""
    s = sp.Symbol("s")
    raw = {2: chi2, 3: mu3, 4: mu4, 5: mu5, 6: mu6}
    m_z = 1 + sum(raw[j] * s**j / sp.factorial(j) for j in range(2, max_order + 1))
    cgf = sp.expand(sp.series(sp.log(m_z), s, 0, max_order + 1).removeO())
    mgf_sum = sp.series(sp.exp(n * cgf), s, 0, max_order + 1).removeO()
    moments = {}
    for j in range(2, max_order + 1):
        moments[j] = sp.factor(sp.expand(mgf_sum.coeff(s, j) * sp.factorial(j) / n**j))
    return Derivation(
        id="fixed-composition.canonical-moments",
        title="moments of U_n for the canonical pair",
        result=sp.Matrix([moments[j] for j in range(2, max_order + 1)]),
        variables=(n, chi2, mu3, mu4, mu5),
        assumptions=("Z_i = r(Y_i), Y_i ~ W0 i.i.d.", "E Z = 0, E Z^2 = chi^2, E Z^j = mu_j"),
        source="Shvets 2026, Thm 6.2 (moment display)",
        steps=(("cumulant generating function of Z", cgf),)
        + tuple((f"E U_n^{j}", moments[j]) for j in range(2, max_order + 1)),
        lhs=r"(\mathbb{E}U_n^j)_{j\ge2}",
        extras={"moments": moments},
    )


@cache
def canonical_jsd_expansion() -> Derivation:
    r""":math:`\mathrm{JSD}(T_{n,0}\|T_{n,1}) = \sum_j c_j\mathbb{E}U_n^j` collected in :math:`1/n` up to
    :math:`O(n^{-3})` (Thm 6.2): the terms :math:`j \le 6` contain every :math:`n^{-1}, n^{-2}` term."""
    coeffs = jsd_series(7).extras["coefficients"]
    moments = canonical_moments(6).extras["moments"]
    total = sp.expand(sum(coeffs[j] * moments[j] for j in range(2, 7)))
    x = sp.Symbol("x", positive=True)  # x = 1/n
    in_x = sp.expand(total.subs(n, 1 / x))
    c1 = sp.factor(in_x.coeff(x, 1))
    c2 = sp.factor(in_x.coeff(x, 2))
    result = c1 / n + c2 / n**2
    return Derivation(
        id="fixed-composition.canonical-jsd",
        title="JSD of the canonical pair to O(n^-3)",
        result=result,
        variables=(n, chi2, mu3),
        assumptions=("canonical pair (k = 0)", "full support", "remainder O(n^-3)"),
        source="Shvets 2026, Thm 6.2",
        steps=(
            ("sum_j c_j E U_n^j, j = 2..6", total),
            ("coefficient of 1/n", c1),
            ("coefficient of 1/n^2", c2),
        ),
        lhs=r"\mathrm{JSD}(T_{n,0}\|T_{n,1})",
        extras={"c1": c1, "c2": c2},
    )


@cache
def smooth_f_divergence_leading() -> Derivation:
    r""":math:`D_f(Q\|P) = \mathbb{E}_P f(1+U) = \tfrac{f''(1)}2\mathbb{E}U^2 + \dots = \tfrac{f''(1)}2\tfrac{I}{n} + o(1/n)`
    (Thm 6.5), with :math:`f(1) = 0`, :math:`\mathbb{E}_PU = 0`, :math:`\mathbb{E}_PU^2 = I/n + O(n^{-2})`."""
    f = sp.Function("f")
    I = sp.Symbol("I", positive=True)
    EU1, EU2 = sp.Integer(0), I / n
    taylor = sp.series(f(1 + u), u, 0, 3).removeO()
    expectation = sp.expand(taylor.subs(u**2, EU2).subs(u, EU1)).subs(f(1), 0)
    result = sp.simplify(expectation.doit())
    return Derivation(
        id="fixed-composition.f-divergence",
        title="leading constant of smooth f-divergences",
        result=result,
        variables=(n, I),
        assumptions=("f(1) = 0", "f twice differentiable at 1"),
        source="Shvets 2026, Thm 6.5",
        steps=(
            ("second-order Taylor polynomial of f(1+u)", taylor),
            ("E_P with E U = 0, E U^2 = I/n", expectation),
        ),
        lhs=r"D_f(T_{n,k+1}\|T_{n,k})",
    )


# ------------------------------------------------------------ local privacy curve
def _Phi(x: sp.Expr) -> sp.Expr:
    return sp.erfc(-x / sp.sqrt(2)) / 2


def _phi(x: sp.Expr) -> sp.Expr:
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


@cache
def local_privacy_curve(order: int = 3) -> Derivation:
    r"""Series of :math:`\delta_{\rm GDP}(t\mu;\mu) = \Phi(-t+\mu/2) - e^{t\mu}\Phi(-t-\mu/2)` in :math:`\mu`
    (eq. (9), Thm 7.3): :math:`\mu\{\varphi(t)-t\Phi(-t)\} + \tfrac{\mu^2}{2}t\{\varphi(t)-t\Phi(-t)\} + O(\mu^3)`."""
    gdp = _Phi(-t + mu / 2) - sp.exp(t * mu) * _Phi(-t - mu / 2)
    ser = sp.series(gdp, mu, 0, order).removeO()
    coeffs = {j: sp.simplify(ser.coeff(mu, j)) for j in range(order)}
    g = _phi(t) - t * _Phi(-t)
    lead_gap = sp.simplify(coeffs[1] - g)
    next_ratio = sp.simplify(coeffs[2] / g) if order > 2 else None
    return Derivation(
        id="fixed-composition.local-curve",
        title="local GDP privacy curve at eps = t mu",
        result=ser + sp.O(mu**order),
        variables=(t, mu),
        assumptions=("mu -> 0, t fixed",),
        source="Shvets 2026, eq. (9) and Thm 7.3",
        steps=(
            ("delta_GDP(t mu; mu) (Gaussian tails via erfc)", gdp),
            ("series in mu", ser),
            ("first coefficient minus phi(t) - t Phi(-t)", lead_gap),
            ("second coefficient / (phi(t) - t Phi(-t))", next_ratio),
        ),
        lhs=r"\delta_{\mathrm{GDP}}(t\mu;\mu)",
        extras={
            "coefficients": coeffs,
            "lead_gap": lead_gap,
            "next_ratio": next_ratio,
            "gdp": gdp,
            "g": g,
        },
    )


# ------------------------------------------------------------ binary output
@cache
def binary_output_fisher() -> Derivation:
    r"""Binary output :math:`W_b = (p_b, 1-p_b)`: :math:`I_\pi = (p_1-p_0)^2/\{(1-\pi)p_0(1-p_0)+\pi p_1(1-p_1)\}`."""
    p0, p1 = sp.symbols("p0 p1", positive=True)
    W0, W1 = sp.Matrix([p0, 1 - p0]), sp.Matrix([p1, 1 - p1])
    sig = (1 - pi) * multinomial_covariance(W0) + pi * multinomial_covariance(W1)
    i_pi = quadratic_form_pinv(sig, W1 - W0)
    return Derivation(
        id="fixed-composition.binary-I-pi",
        title="binary-output fixed-composition constant",
        result=i_pi,
        variables=(pi, p0, p1),
        source="Shvets 2026, Sec. 8.3 (binary output)",
        steps=(("Sigma_pi", sig), ("I_pi", i_pi)),
        lhs=r"I_\pi^{\mathrm{bin}}",
        extras={"p0": p0, "p1": p1},
    )


def identify_binary_channel(printed: sp.Expr) -> list[dict]:
    r"""All binary channels :math:`(p_0, p_1) \in (0,1)^2` whose :math:`I_\pi` equals ``printed``
    (a rational function :math:`a/(c + e\pi)` of :math:`\pi`), found by matching
    :math:`(p_1-p_0)^2 : p_0(1-p_0) : p_1(1-p_1) = a : c : c + e` up to a common scale."""
    der = binary_output_fisher()
    p0, p1 = der.extras["p0"], der.extras["p1"]
    num, den = sp.fraction(sp.cancel(sp.nsimplify(printed, rational=True)))
    a = num
    c0 = den.subs(pi, 0)
    c1 = den.subs(pi, 1)
    scale = sp.Symbol("scale", positive=True)
    sols = sp.solve(
        [(p1 - p0) ** 2 - a * scale, p0 * (1 - p0) - c0 * scale, p1 * (1 - p1) - c1 * scale],
        [p0, p1, scale],
        dict=True,
    )
    out = []
    for s in sols:
        if all(0 < s[x] < 1 for x in (p0, p1)):
            check = sp.cancel(
                der.result.subs({p0: s[p0], p1: s[p1]}) - sp.nsimplify(printed, rational=True)
            )
            out.append(
                {
                    "p0": s[p0],
                    "p1": s[p1],
                    "scale": s[scale],
                    "residual": check,
                    "composition_independent": sp.diff(der.result.subs({p0: s[p0], p1: s[p1]}), pi)
                    == 0,
                }
            )
    return out


# ------------------------------------------------------------ RR boundary
@cache
def randomized_response_boundary() -> Derivation:
    r"""Binary RR with :math:`b = e^{\varepsilon_0}` (Sec. 10): :math:`W_0(1) = q = 1/(1+b)`,
    :math:`W_1(1) = 1-q`; :math:`Z = r(Y)` takes :math:`b-1` w.p. :math:`q` and :math:`b^{-1}-1`
    w.p. :math:`1-q`; :math:`\chi^2 = (b-1)^2/b`; :math:`a_n = b/n`; Lyapunov ratio
    :math:`\mathbb{E}|Z|^3/(\chi^3\sqrt n) \sim \sqrt{a_n}` as :math:`b\to\infty`."""
    q = 1 / (1 + b)
    W0 = (q, 1 - q)
    W1 = (1 - q, q)
    r_vals = [sp.simplify(W1[i] / W0[i] - 1) for i in range(2)]
    mean = sp.simplify(W0[0] * r_vals[0] + W0[1] * r_vals[1])
    chi2_b = sp.factor(sp.simplify(W0[0] * r_vals[0] ** 2 + W0[1] * r_vals[1] ** 2))
    chi2_def = sp.factor(sp.simplify(sum((W1[i] - W0[i]) ** 2 / W0[i] for i in range(2))))
    abs3 = sp.simplify(W0[0] * r_vals[0] ** 3 - W0[1] * r_vals[1] ** 3)  # b > 1: r0 > 0 > r1
    a_n = sp.Symbol("a_n", positive=True)
    lyapunov_over_sqrt_a = sp.simplify(
        abs3 / chi2_b ** sp.Rational(3, 2) / sp.sqrt(b)
    )  # times sqrt(b/n)/sqrt(a_n) = 1
    limit = sp.limit(lyapunov_over_sqrt_a, b, sp.oo)
    mu2_over_a = sp.simplify(chi2_b / b)  # mu_n^2 / a_n = chi^2 / e^{eps0}
    return Derivation(
        id="fixed-composition.rr-boundary",
        title="randomized-response boundary quantities",
        result=chi2_b,
        variables=(b,),
        assumptions=("b = e^{eps0} > 1", "a_n = e^{eps0}/n -> 0"),
        source="Shvets 2026, Sec. 10 (Prop. 10.1)",
        steps=(
            ("r(1), r(0)", sp.Matrix(r_vals)),
            ("E Z", mean),
            ("chi^2 = E Z^2", chi2_b),
            ("chi^2 from its definition", chi2_def),
            ("E|Z|^3", abs3),
            ("mu_n^2 / a_n", mu2_over_a),
            ("Lyapunov ratio / sqrt(a_n)", lyapunov_over_sqrt_a),
            ("limit b -> oo", limit),
        ),
        lhs=r"\chi^2(b)",
        extras={
            "q": q,
            "r": r_vals,
            "mean": mean,
            "chi2_def": chi2_def,
            "abs3": abs3,
            "lyapunov_limit": limit,
            "mu2_over_a": mu2_over_a,
            "a_n": a_n,
        },
    )


# ------------------------------------------------------------ listing
EXAMPLE_CHANNEL = (
    ("7/10", "1/5", "1/10"),
    ("3/20", "11/20", "3/10"),
)  # Shvets 2026, Sec. 8.3 (Tables 3-5)


def derivations() -> list[Derivation]:
    """Every derivation of this module (channel-specific ones for Shvets 2026 example channel)."""
    w0, w1 = EXAMPLE_CHANNEL
    return [
        mixture_covariance_identity(3),
        covariances(w0, w1),
        fisher_constant(w0, w1),
        mixture_fisher_constant(w0, w1),
        sherman_morrison_relation(),
        endpoint_chi2(w0, w1),
        convexity(w0, w1),
        jsd_function(),
        jsd_series(),
        canonical_moments(),
        canonical_jsd_expansion(),
        smooth_f_divergence_leading(),
        local_privacy_curve(),
        binary_output_fisher(),
        randomized_response_boundary(),
    ]
