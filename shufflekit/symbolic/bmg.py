r"""The blanket-mixed Gaussian mechanism BMG(:math:`\gamma, \sigma_0`) (Takagi-Liew 2026, Sec. 4, App. A.6).

From the densities of :mod:`shufflekit.mechanisms.gaussian`:

* :math:`\chi_{lo}^2 = \gamma/\sup_{\|x\|\le1}\mathrm{Var}_{R_{BG}}[\ell_0(Y;x,\perp)]`,
  the variance from the Gaussian MGF: :math:`A^2(e^{r^2/\sigma_0^2}-1)`, :math:`A = 1-\gamma`;
* :math:`\mathrm{Cov}(Y)`, :math:`\mathsf{Err}_1 = d\sigma_0^2/A^2 + \gamma/A` for
  :math:`\hat x = Y/A`;
* :math:`\mathsf{Err}_1(\gamma,\chi)` after solving :math:`\chi_{lo} = \chi` for :math:`\sigma_0`;
* Thm 4.1: :math:`A = \chi^{-2/3}` gives a series in :math:`h = \chi^{-2/3}`;
* the optimal :math:`A(\chi) = \chi^{-2/3}(1 + c_1 h + \dots)` from the stationarity
  condition, solved order by order, and the optimal first-order constant.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.gaussian_moments import exp_affine_terms, ratio_variance, tilted_moment
from shufflekit.symbolic.series import Series, series_eval
from shufflekit.symbols import chi, d, gamma, sigma0

r = sp.Symbol("r", positive=True)  # norm of the input
A = sp.Symbol("A", positive=True)  # A = 1 - gamma
h = sp.Symbol("h", positive=True)  # h = chi^(-2/3)
x = sp.Symbol("x", positive=True)  # x = 1/chi
wv = sp.Symbol("w", positive=True)  # A = h * w
c = sp.Symbol("c", positive=True)
beta_ = sp.Symbol("beta", positive=True)

SOURCE = "Takagi-Liew 2026, Sec. 4.2 and App. A.6"


@cache
def chi_lo() -> Derivation:
    r""":math:`\chi_{lo}^2` from :math:`\mathrm{Var}_{N(0,\sigma_0^2)}[R_x/R_{BG} - 1]` (Step 1 of App. A.6)."""
    mech = make("bmg", gamma=gamma, sigma0=sigma0)
    terms = exp_affine_terms(mech.density(r), mech.blanket_density()) + [
        (-sp.Integer(1), sp.Integer(0))
    ]
    m1, m2, var_r = ratio_variance(terms, 0, sigma0)
    var_r = sp.factor(var_r)
    dvar = sp.factor(sp.diff(var_r, r))  # positive: the sup over ||x|| <= 1 is at r = 1
    var1 = var_r.subs(r, 1)
    chi2 = sp.factor(gamma / var1)
    return Derivation(
        id="bmg.chi-lo",
        title="lower shuffle index of BMG from the Gaussian MGF",
        result=chi2,
        variables=(gamma, sigma0),
        assumptions=("0 < gamma < 1", "sigma0 > 0"),
        source=SOURCE + ", Step 1",
        steps=(
            ("E[l_0] under the blanket", m1),
            ("Var[l_0] for ||x|| = r", var_r),
            ("d/dr Var (positive, so the sup is at r = 1)", dvar),
        ),
        lhs=r"\chi_{\mathrm{lo}}(\mathcal R^{\mathsf{BMG}})^2",
        extras={"var_r": var_r, "dvar": dvar},
    )


@cache
def covariance() -> Derivation:
    r""":math:`\mathrm{Cov}(Y)` along :math:`x` (:math:`\sigma_0^2 + \gamma A r^2`) and :math:`\mathsf{Err}_1`."""
    mech = make("bmg", gamma=gamma, sigma0=sigma0)
    # moments of the mixture as tilted moments of the blanket: E_mix[Y^k] = E_BG[Y^k R_x/R_BG]
    terms = exp_affine_terms(mech.density(r), mech.blanket_density())
    mean = sp.simplify(tilted_moment(terms, 1, 0, sigma0))
    second = sp.simplify(tilted_moment(terms, 2, 0, sigma0))
    var_along = sp.factor(sp.simplify(second - mean**2))
    blanket_var = sp.simplify(tilted_moment([(sp.Integer(1), sp.Integer(0))], 2, 0, sigma0))
    a_scale = sp.simplify(mean / r)  # E[Y] = A x, so the unbiased estimator is Y / A
    err_r = sp.simplify(((d - 1) * blanket_var + var_along) / a_scale**2)
    derr = sp.simplify(sp.diff(err_r, r))
    err = sp.simplify(err_r.subs(r, 1))
    return Derivation(
        id="bmg.err",
        title="Cov(Y) and worst-case squared error of the estimator Y/(1-gamma)",
        result=err,
        variables=(d, gamma, sigma0),
        assumptions=("estimator x-hat = Y/(1-gamma)",),
        source=SOURCE + ", Step 2, eq. (gauss-mix-mse-exact)",
        steps=(
            ("E[Y] along x (||x|| = r)", mean),
            ("Var(Y) along x", var_along),
            ("Var(Y) orthogonal to x", blanket_var),
            ("E||x-hat - x||^2 at ||x|| = r", err_r),
            ("d/dr (positive: worst case r = 1)", derr),
        ),
        lhs=r"\mathsf{Err}_1(\mathcal R^{\mathsf{BMG}}, \widehat x)",
        extras={"mean": mean, "var_along": var_along, "var_orth": blanket_var, "err_r": err_r},
    )


@cache
def err_in_gamma_chi() -> Derivation:
    r"""Solve :math:`\chi_{lo}(\gamma,\sigma_0) = \chi` for :math:`\sigma_0^2` and substitute into :math:`\mathsf{Err}_1`."""
    s2 = sp.Symbol("s2", positive=True)
    eq = sp.Eq(chi_lo().result.subs(sigma0, sp.sqrt(s2)), chi**2)
    sols = sp.solve(eq, s2)
    if len(sols) != 1:
        raise ValueError(f"expected one solution for sigma0^2, got {sols}")
    s2_sol = _log1p_form(sp.simplify(sols[0]))
    err = _log1p_form(sp.simplify(covariance().result.subs(sigma0, sp.sqrt(s2_sol))))
    return Derivation(
        id="bmg.err-gamma-chi",
        title="Err_1 of BMG at chi_lo = chi, as a function of (gamma, chi)",
        result=err,
        variables=(d, gamma, chi),
        assumptions=("chi_lo = chi",),
        source="Takagi-Liew 2026, Sec. 4.2 (display after the chi_lo formula)",
        steps=(("sigma0^2 solving chi_lo = chi", s2_sol),),
        lhs=r"\mathsf{Err}_1",
        extras={"sigma2": s2_sol},
    )


def _log1p_form(expr: sp.Expr) -> sp.Expr:
    """Rewrite every ``log(arg)`` as ``log(1 + factor(arg - 1))`` (fast, clean series)."""
    return expr.replace(
        lambda e: isinstance(e, sp.log), lambda e: sp.log(1 + sp.factor(sp.cancel(e.args[0] - 1)))
    )


@cache
def _relative_in_h_w() -> sp.Expr:
    r""":math:`\mathsf{Err}_1/(d\chi^2)` with :math:`\chi^2 = h^{-3}` and :math:`A = h w`."""
    err = err_in_gamma_chi().result
    rel = err.subs(gamma, 1 - A) / (d * chi**2)
    rel = rel.subs(A, h * wv).subs(chi, h ** sp.Rational(-3, 2))
    return sp.factor(_log1p_form(rel))


@cache
def err_expansion(terms: int = 4) -> Derivation:
    r"""Thm 4.1: :math:`\mathsf{Err}_1` at :math:`A = \chi^{-2/3}` as :math:`\chi\to\infty`, ``d`` symbolic."""
    rel = _relative_in_h_w().subs(wv, 1)
    rel_series = series_eval(rel, h, terms)
    u_expr = sp.expand((1 - A) / (A**2 * chi**2)).subs(A, chi ** sp.Rational(-2, 3))
    rel_chi = rel_series.rescale(sp.Rational(2, 3), var=x, at_infinity=chi)
    absolute = (rel_chi * d).shift(-2)
    return Derivation(
        id="bmg.err-expansion",
        title="Err_1 of BMG with A = chi^(-2/3) (Thm 4.1)",
        result=absolute,
        variables=(d, chi),
        assumptions=("A = 1 - gamma = chi^(-2/3)", "chi_lo = chi -> oo"),
        source="Takagi-Liew 2026, Thm 4.1 and App. A.6",
        steps=(
            ("Err_1/(d chi^2) with h = chi^(-2/3)", rel_series),
            ("u = (1-A)/(A^2 chi^2) at A = chi^(-2/3)", sp.expand(u_expr)),
        ),
        lhs=r"\mathsf{Err}_1",
        extras={"relative": rel_chi, "relative_h": rel_series},
    )


@cache
def optimal_expansion(terms: int = 4) -> Derivation:
    r"""Optimal :math:`A(\chi)`: :math:`\partial_A\mathsf{Err}_1 = 0` solved order by order.

    With :math:`A = h w(h)`, :math:`w = 1 + c_1h + c_2h^2 + \dots`, the :math:`h^{k+1}`
    coefficient of :math:`\partial_w F` is linear in :math:`c_k` (its coefficient is
    :math:`3`, from :math:`\partial_w[h(w + 1/(2w^2))] = h(1 - w^{-3})`).
    """
    F = _relative_in_h_w()
    n = terms + 2
    F_series = series_eval(F, h, n + 1)  # coefficients are functions of w
    f_k = [sp.cancel(F_series.coefficient(k)) for k in range(n + 1)]
    F_ser = F_series.expr()

    def at_w(coeffs: list, delta: Series, upto: int) -> Series:
        r""":math:`\sum_k h^k f_k(1+\delta(h))` for Laurent polynomials :math:`f_k` in :math:`w`."""
        W = Series.make({0: 1}, h, upto) + delta
        powers: dict = {}

        def wpow(j: int) -> Series:
            if j not in powers:
                powers[j] = W.power(j) if j >= 0 else W.inverse().power(-j)
            return powers[j]

        total = Series.make({}, h, upto)
        for k, fk in enumerate(coeffs):
            if k >= upto or fk == 0:
                continue
            num, den = sp.fraction(sp.together(fk))
            dpoly = sp.Poly(den, wv)
            if len(dpoly.terms()) != 1:
                raise ValueError(f"coefficient {fk} is not a Laurent polynomial in w")
            (m,), cden = dpoly.terms()[0]
            for (i,), ci in sp.Poly(num, wv).terms():
                total = total + (wpow(i - m) * (ci / cden)).shift(k)
        return Series.make(total.terms, h, upto)

    g_k = [sp.cancel(sp.diff(fk, wv)) for fk in f_k]
    known: list = []
    for k in range(1, terms + 1):
        # the h^(k+1) coefficient of dF/dw is affine in c_k: evaluate at c_k = 0 and c_k = 1
        def residual(ck):
            delta = Series.make({j: cj for j, cj in enumerate(known + [ck], start=1)}, h, k + 2)
            return at_w(g_k, delta, k + 2).coefficient(k + 1)

        r0 = residual(sp.Integer(0))
        slope = sp.cancel(residual(sp.Integer(1)) - r0)
        if slope == 0:
            raise ValueError(f"order {k}: the stationarity equation does not determine c_{k}")
        known.append(sp.factor(sp.cancel(-r0 / slope)))
    w_series = Series.make({0: 1, **{j: cj for j, cj in enumerate(known, start=1)}}, h, terms + 1)
    F_opt = at_w(
        f_k, Series.make({j: cj for j, cj in enumerate(known, start=1)}, h, terms + 1), terms + 1
    )
    F_opt = F_opt.map_coefficients(lambda v: sp.factor(sp.simplify(v)))
    A_series = w_series.shift(1).rescale(sp.Rational(2, 3), var=x, at_infinity=chi)
    rel_chi = F_opt.rescale(sp.Rational(2, 3), var=x, at_infinity=chi).truncate(terms)
    return Derivation(
        id="bmg.optimal-expansion",
        title="Err_1/(d chi^2) of BMG at the optimal A(chi)",
        result=rel_chi,
        variables=(d, chi),
        assumptions=("A minimises Err_1 at chi_lo = chi", "chi -> oo"),
        source="Takagi-Liew 2026, Sec. 4.2 (numerical optimisation of gamma), Thm 4.1",
        steps=(
            ("optimal A(chi) = 1 - gamma", A_series),
            ("F(h, w) = Err_1/(d chi^2), A = h w, h = chi^(-2/3)", F_ser),
        ),
        lhs=r"\frac{\mathsf{Err}_1^{\mathrm{opt}}}{d\chi^2}",
        extras={"A_series": A_series, "w_series": w_series, "relative_h": F_opt},
    )


@cache
def first_order_constant() -> Derivation:
    r"""Is :math:`3/2` the best first-order constant?  Scan :math:`A = c\,\chi^{-\beta}`.

    The excess of :math:`\mathsf{Err}_1/(d\chi^2)` is :math:`A + u/2 + \dots` with
    :math:`u \approx \chi^{-2}A^{-2}`: the exponents :math:`\beta` and :math:`2-2\beta` of the
    two terms balance at :math:`\beta = 2/3`, and then the coefficient
    :math:`c + 1/(2c^2)` is minimal at :math:`c = 1` with value :math:`3/2`.
    """
    F = _relative_in_h_w()
    first = sp.simplify(series_eval(F, h, 2).coefficient(1))  # a function of w (= c)
    first_c = first.subs(wv, c)
    crit = sp.solve(sp.Eq(sp.diff(first_c, c), 0), c)
    crit = [s for s in crit if s.is_positive]
    best = sp.simplify(first_c.subs(c, crit[0]))
    second_deriv = sp.simplify(sp.diff(first_c, c, 2).subs(c, crit[0]))
    balance = sp.solve(sp.Eq(beta_, 2 - 2 * beta_), beta_)[0]
    return Derivation(
        id="bmg.first-order-constant",
        title="best first-order constant over A = c chi^(-2/3)",
        result=best,
        variables=(),
        assumptions=("A = c chi^(-beta)",),
        source="Takagi-Liew 2026, Thm 4.1 and Conclusion (rate chi^(-2/3))",
        steps=(
            ("first-order coefficient of Err_1/(d chi^2) as a function of c", first_c),
            ("exponent balance beta = 2 - 2 beta", balance),
            ("minimiser c", crit[0]),
            ("second derivative at the minimiser", second_deriv),
        ),
        lhs=r"\min_c \left(c + \tfrac{1}{2c^2}\right)",
        extras={"minimiser": crit[0], "coefficient": first_c, "beta": balance},
    )


def err_exact(d_: int | sp.Expr, gamma_: sp.Expr, chi_: sp.Expr) -> sp.Expr:
    """:math:`\\mathsf{Err}_1(\\gamma, \\chi)` with numbers substituted (exact sympy)."""
    return err_in_gamma_chi().result.subs({d: d_, gamma: gamma_, chi: chi_})


@cache
def chi_lo_series(terms: int = 4) -> Derivation:
    r""":math:`\chi_{lo}^2` of BMG as :math:`\sigma_0\to\infty` (series in :math:`1/\sigma_0^2`)."""
    a = sp.Symbol("a", positive=True)
    z = sp.Symbol("z", positive=True)
    expr = chi_lo().result.subs(sigma0, 1 / sp.sqrt(a))
    ser = series_eval(expr, a, terms - 1)
    return Derivation(
        id="bmg.chi-lo",
        title="chi_lo^2 of BMG as sigma0 -> oo",
        result=ser.rescale(2, var=z, at_infinity=sigma0),
        variables=(gamma, sigma0),
        assumptions=("sigma0 -> oo",),
        source=SOURCE + ", Step 1",
        steps=(("closed form", chi_lo().result),),
        lhs=r"\chi_{\mathrm{lo}}^2",
    )
