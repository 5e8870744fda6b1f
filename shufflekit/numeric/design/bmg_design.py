r"""Design of the blanket-mixed Gaussian mechanism (Takagi-Liew 2026, Sec. 4.2) and correspondence data.

* :func:`chi_lo` -- lower shuffle index of :math:`\mathsf{BMG}(\gamma,\sigma_0)` from its definition
  :math:`\chi_{lo}^{-2} = \sup_r \gamma^{-1}\mathrm{Var}_{Y\sim R_{BG}}[\ell_0(Y; x, \perp, R_{BG})]`
  (Takagi-Liew 2026, Def. 2.5) with the law of :math:`\ell_0 = a + b e^{sZ+m}` read off the mechanism
  (lognormal variance :math:`b^2 e^{2m+s^2}(e^{s^2}-1)`), worst radius as in
  :func:`~shufflekit.numeric.methods.bmg_blanket.worst_radius`.
* :func:`err1` -- worst-case single-user MSE of :math:`\hat x = Y/(1-\gamma)` by the law of total
  variance: given the component, :math:`Y` has covariance :math:`\sigma_0^2 I_d`; the component mean
  is :math:`x` with probability :math:`1-\gamma` and 0 otherwise (Bernoulli variance
  :math:`\gamma(1-\gamma)\|x\|^2`); divide by :math:`(1-\gamma)^2`; sup at :math:`\|x\|=1`.
* :func:`optimal_gamma_for_chi` -- for a budget :math:`\chi_{lo} \ge \chi`, the :math:`\gamma` minimising
  :math:`\mathsf{Err}_1` (numerical; the expansion of Thm 4.1 chooses :math:`1-\gamma = \chi^{-2/3}`).
* :func:`design_for_privacy` -- given :math:`(n,\varepsilon,\delta)`, the :math:`(\gamma,\sigma_0)` of least
  RMSE whose *certified* blanket bound satisfies :math:`\delta(\varepsilon) \le \delta`.
* :func:`design_for_accuracy` -- given :math:`(n, \mathrm{RMSE}, \delta)`, the :math:`(\gamma,\sigma_0)` with
  that RMSE and the least certified :math:`\varepsilon` (how Figures 2-3 were calibrated).
* :func:`correspondence` -- :math:`\delta_{BMG}(\varepsilon_n)/f_{n,\varepsilon_n}(\chi_{lo})` and
  :math:`\delta_{GM(\sigma)}(\varepsilon_n)/f_{n,\varepsilon_n}(\sigma)` along
  :math:`\varepsilon_n = c\sqrt{\log n / n}/\chi` (the :math:`\sigma`-high privacy regime, Def. 3.1).

RMSE is per coordinate, :math:`\sqrt{\mathsf{Err}_n/d}` with :math:`\mathsf{Err}_n = \mathsf{Err}_1/n` for the
average of the :math:`n` unbiased single-user estimates (Takagi-Liew 2026, Sec. 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import mpmath as mp
from scipy.optimize import brentq, minimize_scalar

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.methods import bmg_blanket, gaussian, shuffle_template
from shufflekit.validation import check_delta, check_epsilon, check_n


def epsilon_for_bound(
    bound: Callable[[float], float], delta: float, *, rel_tol: float = 1e-6, eps_start: float = 1e-3
) -> float:
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


def _check_gamma(gamma: Any, *, allow_one: bool = True) -> float:
    g = float(gamma)
    if math.isnan(g) or not (0 < g < 1 or (allow_one and g == 1)):
        raise InvalidParameter("gamma", gamma, "(0, 1]" if allow_one else "(0, 1)")
    return g


def _make(gamma: float, sigma0: float, d: int = 1):
    from shufflekit.mechanisms import make

    return make("bmg", gamma=gamma, sigma0=sigma0, d=d)


# ----------------------------------------------------------------------------- single user
@lru_cache(maxsize=1)
def _ell0_law_functions():
    r"""Float functions :math:`(\gamma, \sigma_0, r) \mapsto (a, b, s, m)` of :math:`\ell_0` for BMG."""
    import sympy as sp

    g, s0, r = sp.symbols("gamma sigma0 r", positive=True)
    from shufflekit.mechanisms.gaussian import BlanketMixedGaussian

    law = BlanketMixedGaussian(gamma=g, sigma0=s0).amplification_law(sp.Integer(0), r=r)
    return tuple(sp.lambdify((g, s0, r), e, modules="mpmath") for e in (law.a, law.b, law.s, law.m))


def ell0_variance(gamma: float, sigma0: float, r: float = 1.0) -> float:
    r""":math:`\mathrm{Var}_{Y\sim R_{BG}}[\ell_0(Y; x, \perp, R_{BG})]`, :math:`\|x\| = r`."""
    with mp.workdps(30):
        a, b, s, m = (f(mp.mpf(gamma), mp.mpf(sigma0), mp.mpf(r)) for f in _ell0_law_functions())
        v = b**2 * mp.exp(2 * m + s**2) * mp.expm1(s**2)
        return float(v) if v < mp.mpf(10) ** 300 else math.inf


def chi_lo(gamma: Any, sigma0: Any, worst_r: float = 1.0) -> float:
    r""":math:`\chi_{lo}(\mathsf{BMG})` from its definition (Takagi-Liew 2026, Def. 2.5); the supremum over
    :math:`\|x\| \le 1` is at ``worst_r`` (= 1 by the convex-order argument)."""
    g = _check_gamma(gamma)
    s0 = gaussian.check_sigma(sigma0, "sigma0")
    v = ell0_variance(g, s0, worst_r)
    if v == 0:
        return math.inf
    return 0.0 if math.isinf(v) else 1.0 / math.sqrt(v / g)


def err1(gamma: Any, sigma0: Any, d: int = 1) -> float:
    r"""Worst-case single-user MSE :math:`\sup_{\|x\|\le1} E\|\hat x - x\|^2` of :math:`\hat x = Y/(1-\gamma)`."""
    g = _check_gamma(gamma, allow_one=False)
    s0 = gaussian.check_sigma(sigma0, "sigma0")
    keep = 1.0 - g  # probability of the informative component
    bern_var = keep * (1.0 - keep)  # variance of the component indicator
    r = 1.0  # the MSE grows with |x|^2
    return (d * s0**2 + bern_var * r**2) / keep**2


def rmse(gamma: Any, sigma0: Any, n: int, d: int = 1) -> float:
    """Per-coordinate RMSE of the shuffled mean estimate, :math:`\\sqrt{\\mathsf{Err}_1/(n d)}`."""
    return math.sqrt(err1(gamma, sigma0, d) / (check_n(n) * d))


def sigma0_for_chi(
    gamma: float, chi: float, chi_fn: Callable[[float, float], float] = chi_lo
) -> float:
    r"""The :math:`\sigma_0` with :math:`\chi_{lo}(\gamma,\sigma_0) = \chi` (:math:`\chi_{lo}` increases with :math:`\sigma_0`)."""
    g = _check_gamma(gamma, allow_one=False)
    chi = gaussian.check_sigma(chi, "chi")

    def f(ls: float) -> float:
        c = chi_fn(g, math.exp(ls))
        return (math.log(c) if c > 0 else -math.inf) - math.log(chi)

    lo, hi = -1.0, 5.0
    while f(lo) > 0:
        lo -= 1
    while f(hi) < 0:
        hi += 5
        if hi > 200:
            raise CannotCertify(f"chi={chi} is not reachable with gamma={gamma}")
    return math.exp(brentq(f, lo, hi, xtol=1e-14, rtol=1e-14))


@dataclass(frozen=True)
class ChiDesign:
    chi: float
    gamma: float
    sigma0: float
    err1_over_dchi2: float
    expansion_gamma: float  # 1 - chi^(-2/3)
    expansion_err1_over_dchi2: float  # Err_1/(d chi^2) at the expansion's choice


def optimal_gamma_for_chi(
    chi: float, d: int = 1, chi_fn: Callable[[float, float], float] = chi_lo
) -> ChiDesign:
    r"""Minimise :math:`\mathsf{Err}_1` over :math:`\gamma` subject to :math:`\chi_{lo} = \chi` (Takagi-Liew 2026, Sec. 4.2).

    Searches :math:`\log(1-\gamma)` on a bounded interval; returns the optimum next to the choice
    :math:`1-\gamma = \chi^{-2/3}` of the proof of Thm 4.1."""
    chi = gaussian.check_sigma(chi, "chi")

    def obj(log_a: float) -> float:
        g = -math.expm1(log_a)
        return err1(g, sigma0_for_chi(g, chi, chi_fn), d) / (d * chi**2)

    a_guess = chi ** (-2.0 / 3)
    hi = min(math.log(a_guess) + 4, math.log(0.999))
    lo = min(math.log(a_guess) - 4, hi - 8)  # small chi: a_guess > 1, keep a non-empty bracket
    res = minimize_scalar(obj, bounds=(lo, hi), method="bounded", options={"xatol": 1e-9})
    g_opt = -math.expm1(res.x)
    g_exp = 1 - a_guess
    return ChiDesign(
        chi,
        g_opt,
        sigma0_for_chi(g_opt, chi, chi_fn),
        float(res.fun),
        g_exp,
        obj(math.log(a_guess)) if a_guess < 1 else math.nan,
    )


def design_by_index_for_rmse(
    n: int, target_rmse: float, d: int = 1, chi_fn: Callable[[float, float], float] = chi_lo
) -> ChiDesign:
    r"""Sec. 4.2 route for a target accuracy: the largest :math:`\chi` whose Err_1-optimal design
    (:func:`optimal_gamma_for_chi`) has :math:`\mathsf{Err}_1 = n d\,\mathrm{RMSE}^2`.  No accountant is
    involved: this is the paper's "optimization described in Section 4.2"."""
    n = check_n(n)
    target = gaussian.check_sigma(target_rmse, "rmse") ** 2 * n * d
    g = lambda lc: (
        math.log(
            optimal_gamma_for_chi(math.exp(lc), d, chi_fn).err1_over_dchi2 * d * math.exp(2 * lc)
        )
        - math.log(target)
    )
    hi = 0.5 * math.log(target / d)  # Err_1 >= d chi^2 (HCR bound), so chi <= sqrt(target/d)
    lo = hi - 3
    while g(lo) > 0:
        lo -= 3
    return optimal_gamma_for_chi(math.exp(brentq(g, lo, hi, xtol=1e-12)), d, chi_fn)


# ----------------------------------------------------------------------------- n-user design
@dataclass(frozen=True)
class Design:
    r"""A BMG design :math:`(\gamma, \sigma_0)` for ``n`` users in ``d`` dimensions at
    :math:`(\varepsilon, \delta)`: its RMSE and certified blanket bound at :math:`\varepsilon`,
    next to the central Gaussian :math:`\mathsf{GM}(\sigma)` it is compared with (calibrated to
    the same :math:`(\varepsilon, \delta)` for a privacy target, to the same RMSE for an accuracy
    target; ``gm_epsilon`` is its epsilon at ``delta`` either way)."""

    n: int
    epsilon: float
    delta: float
    gamma: float
    sigma0: float
    rmse: float
    certified_delta: float
    gm_sigma: float
    gm_rmse: float
    d: int = 1
    gm_epsilon: float | None = None

    @classmethod
    def of(
        cls,
        n: int,
        epsilon: float,
        delta: float,
        gamma: float,
        sigma0: float,
        d: int,
        *,
        certified_delta: float,
        gm_sigma: float,
    ) -> Design:
        """The design with its RMSE (:func:`rmse`) and the RMSE and epsilon of GM(``gm_sigma``)."""
        return cls(
            n,
            epsilon,
            delta,
            gamma,
            sigma0,
            rmse(gamma, sigma0, n, d),
            certified_delta,
            gm_sigma,
            gaussian.rmse(gm_sigma, n),
            d,
            gaussian.epsilon_for_sigma(gm_sigma, delta, n),
        )

    def as_dict(self) -> dict:
        return {
            "n": self.n,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "d": self.d,
            "bmg": {
                "gamma": self.gamma,
                "sigma0": self.sigma0,
                "rmse": self.rmse,
                "certified_delta": self.certified_delta,
                "chi_lo": chi_lo(self.gamma, self.sigma0),
            },
            "central_gaussian": {
                "sigma": self.gm_sigma,
                "rmse": self.gm_rmse,
                "epsilon": self.gm_epsilon,
            },
            "rmse_ratio": self.rmse / self.gm_rmse,
        }


def check_privacy_target(n: int, epsilon: float, delta: float) -> tuple[int, float, float]:
    """Validated ``(n, epsilon, delta)`` of a privacy target (a design needs epsilon > 0)."""
    n, eps, delta = check_n(n), check_epsilon(epsilon), check_delta(delta)
    if eps == 0:
        raise InvalidParameter("epsilon", 0.0, "(0, inf)", "for a design")
    return n, eps, delta


@lru_cache(maxsize=1)
def generic_bmg_law():
    r"""BMG with symbolic :math:`(\gamma, \sigma_0)`: its law of :math:`\ell_\varepsilon` as mpmath
    functions of :math:`(\gamma, \sigma_0, \varepsilon, r)` and its worst radius, derived once."""
    import sympy as sp

    from shufflekit.mechanisms.gaussian import BlanketMixedGaussian

    g, s0, r = sp.symbols("gamma sigma0 r", positive=True)
    e = sp.Symbol("e", nonnegative=True)
    mech = BlanketMixedGaussian(gamma=g, sigma0=s0)
    law = mech.amplification_law(e, r=r)
    fns = tuple(
        sp.lambdify((g, s0, e, r), x, modules="mpmath") for x in (law.a, law.b, law.s, law.m)
    )
    radius, _why = bmg_blanket.worst_radius(mech)
    return fns, radius


def blanket_options(resolution: float) -> dict:
    """Lattice options of the blanket bound for a ``resolution`` (steps per sd of the sum)."""
    res = gaussian.check_sigma(resolution, "resolution")
    return {"level_resolution": res, "resolution": max(8.0, 2.0 * res / 3.0)}


@lru_cache(maxsize=512)
def certified_delta(
    gamma: float,
    sigma0: float,
    n: int,
    eps: float,
    resolution: float = 48.0,
    *,
    orders: tuple[str, ...] = bmg_blanket.ORDERS,
    budget: float = bmg_blanket.BUDGET,
) -> float:
    """Certified blanket bound of BMG(gamma, sigma0) at eps, worst over ``orders`` (both orders of
    the zero-out pair unless told otherwise: only that is a bound for the relation); the same
    accountant as method ``bmg-blanket``, without rebuilding the symbolic law for each parameter."""
    g = _check_gamma(gamma)
    s0 = gaussian.check_sigma(sigma0, "sigma0")
    fns, radius = generic_bmg_law()
    if math.isnan(radius):
        raise CannotCertify("no convex-order argument locates the worst input of BMG")
    bound_fns = tuple((lambda e, r, f=f: f(mp.mpf(g), mp.mpf(s0), e, r)) for f in fns)
    pairs = bmg_blanket.bmg_delta_pairs(
        bound_fns,
        g,
        check_n(n),
        check_epsilon(eps),
        radius,
        orders=orders,
        budget=budget,
        **blanket_options(resolution),
    )
    return max(v.delta for v in pairs.values())


def certified_epsilon(
    gamma: float,
    sigma0: float,
    n: int,
    delta: float,
    resolution: float = 48.0,
    rel_tol: float = 1e-6,
) -> float:
    """Certified epsilon at delta for BMG(gamma, sigma0): the shared inversion of
    :func:`certified_delta` (both pair orders), started at the template's epsilon."""
    delta = check_delta(delta)
    start = 1e-3
    chi = chi_lo(gamma, sigma0)
    if 0 < chi < math.inf:
        start = max(shuffle_template.template_epsilon(check_n(n), delta, chi), 1e-12)
    return epsilon_for_bound(
        lambda e: certified_delta(gamma, sigma0, n, e, resolution),
        delta,
        rel_tol=rel_tol,
        eps_start=start,
    )


def chi_for_template(n: int, eps: float, delta: float) -> float:
    r"""The :math:`\chi` with :math:`f_{n,\varepsilon}(\chi) = \delta` (a starting point only)."""
    g = lambda lc: float(shuffle_template.template_log(n, eps, math.exp(lc), 30)) - math.log(delta)  # noqa: E731
    lo, hi = -10.0, 20.0
    if g(lo) < 0:
        return math.exp(lo)
    return math.exp(brentq(g, lo, hi, xtol=1e-12))


def min_sigma0(
    gamma: float,
    n: int,
    epsilon: float,
    delta: float,
    *,
    resolution: float = 48.0,
    rel_tol: float = 1e-5,
    start: float | None = None,
    orders: tuple[str, ...] = bmg_blanket.ORDERS,
    factor: float = 1.25,
    budget: float = bmg_blanket.BUDGET,
) -> float:
    r"""Smallest :math:`\sigma_0` (to ``rel_tol``, on the feasible side) whose certified bound meets
    :math:`\delta(\varepsilon)\le\delta`; the bound decreases in :math:`\sigma_0` (convex order).

    Brackets by steps of ``factor`` from ``start``, solves :math:`\log\delta_{bound}(\sigma_0) = \log\delta` by Brent's
    method, then steps up until the certified bound is met."""
    log_target = math.log(delta)

    def f(ls: float) -> float:
        try:
            d = certified_delta(
                gamma, math.exp(ls), n, epsilon, resolution, orders=orders, budget=budget
            )
        except CannotCertify:  # the lattice does not fit: treat as not certified
            return math.inf
        return (math.log(d) if d > 0 else -745.0) - log_target

    x = math.log(start if start else 1.0)
    step = math.log(factor)
    fx = f(x)
    if fx <= 0:
        lo, hi = x - step, x
        while f(lo) <= 0:
            hi, lo = lo, lo - step
            if lo < math.log(1e-6):
                return math.exp(hi)
    else:
        lo, hi = x, x + step
        while f(hi) > 0:
            lo, hi = hi, hi + step
            if hi > math.log(1e8):
                raise CannotCertify(f"no sigma0 certifies delta={delta} at eps={epsilon}")
    g = lambda ls: min(f(ls), 1e3)
    root = brentq(g, lo, hi, xtol=rel_tol / 4, rtol=1e-12)
    while f(root) > 0:
        root += rel_tol / 4
    return math.exp(root)


def design_for_privacy(
    n: int,
    epsilon: float,
    delta: float,
    d: int = 1,
    *,
    resolution: float = 48.0,
    search_resolution: float = 12.0,
    gamma_tol: float = 1e-2,
) -> Design:
    r"""Least-RMSE :math:`(\gamma, \sigma_0)` with the certified blanket bound :math:`\le \delta` at :math:`\varepsilon`.

    The search over :math:`\log(1-\gamma)` only ranks candidates: it uses a coarser lattice, a
    larger clamp budget and the :math:`(x, \perp)` order alone.  The final :math:`\sigma_0` is recalibrated at ``resolution``
    with both orders of the zero-out pair, so the returned design is certified."""
    n, eps, delta = check_privacy_target(n, epsilon, delta)
    # starting point: the central Gaussian's sigma plays the role of chi (Thm 3.2)
    chi0 = gaussian.calibrate_sigma(eps, delta, n)
    a0 = min(chi0 ** (-2.0 / 3), 0.5)

    warm: dict[str, float] = {}

    def obj(log_a: float) -> float:
        # warm start: sigma0 moves little between neighbouring gammas, so the previous root
        # rescaled by the chi-design ratio brackets the new one within a few percent
        g = -math.expm1(log_a)
        start = sigma0_for_chi(g, chi0)
        if warm:
            start *= warm["ratio"]
        s0 = min_sigma0(
            g,
            n,
            eps,
            delta,
            resolution=search_resolution,
            rel_tol=1e-3,
            start=start,
            orders=bmg_blanket.ORDERS[:1],
            factor=1.05 if warm else 1.25,
            budget=1e-12,
        )
        warm["ratio"] = s0 / sigma0_for_chi(g, chi0)
        return rmse(g, s0, n, d)

    lo, hi = math.log(a0) - 1.5, min(math.log(a0) + 1.5, math.log(0.95))
    res = minimize_scalar(obj, bounds=(lo, hi), method="bounded", options={"xatol": gamma_tol})
    g = -math.expm1(res.x)
    # clamp/truncation budget per step: 1e-7 of the target (a few hundred steps at most)
    budget = max(bmg_blanket.BUDGET, 1e-7 * delta)
    s0 = min_sigma0(
        g,
        n,
        eps,
        delta,
        resolution=resolution,
        rel_tol=1e-4,
        start=sigma0_for_chi(g, chi0) * warm.get("ratio", 1.0),
        factor=1.05,
        budget=budget,
    )
    return Design.of(
        n,
        eps,
        delta,
        g,
        s0,
        d,
        certified_delta=certified_delta(g, s0, n, eps, resolution, budget=budget),
        gm_sigma=gaussian.calibrate_sigma(eps, delta, n),
    )


def design_by_index(n: int, epsilon: float, delta: float, d: int = 1) -> Design:
    r"""The paper's asymptotic route (Sec. 4.2 with Lemma 2.6): :math:`\chi` with
    :math:`f_{n,\varepsilon}(\chi) = \delta`, then the Err_1-optimal :math:`(\gamma, \sigma_0)` for
    :math:`\chi_{lo} = \chi`.  Not certified: ``certified_delta`` reports the blanket bound of the result,
    which may exceed ``delta``."""
    n, eps, delta = check_privacy_target(n, epsilon, delta)
    des = optimal_gamma_for_chi(chi_for_template(n, eps, delta), d)
    return Design.of(
        n,
        eps,
        delta,
        des.gamma,
        des.sigma0,
        d,
        certified_delta=certified_delta(des.gamma, des.sigma0, n, eps),
        gm_sigma=gaussian.calibrate_sigma(eps, delta, n),
    )


def sigma0_for_rmse(gamma: float, target_rmse: float, n: int, d: int = 1) -> float:
    r"""Invert :func:`rmse` in :math:`\sigma_0` (it is increasing); raises if the target is below the
    mixture floor :math:`\gamma/((1-\gamma) n d)`."""
    target_err1 = target_rmse**2 * n * d
    floor = err1(gamma, 1e-300, d)
    if target_err1 <= floor:
        raise CannotCertify(f"rmse={target_rmse} is below the floor of gamma={gamma}")
    return math.sqrt((target_err1 - floor) * (1 - gamma) ** 2 / d)


def design_for_accuracy(
    n: int,
    target_rmse: float,
    delta: float,
    d: int = 1,
    *,
    resolution: float = 100.0,
    search_resolution: float = 30.0,
    gamma_tol: float = 1e-3,
) -> Design:
    r"""Among :math:`(\gamma,\sigma_0)` with the given RMSE, the one with the least certified
    :math:`\varepsilon` at ``delta`` (the calibration of Takagi-Liew 2026, Figs. 2-3), next to the
    central Gaussian of the same RMSE."""
    n, delta = check_n(n), check_delta(delta)
    target_rmse = gaussian.check_sigma(target_rmse, "rmse")
    chi0 = target_rmse * math.sqrt(n)  # chi with d chi^2 = n d RMSE^2 (leading order)
    a0 = min(chi0 ** (-2.0 / 3), 0.5)

    def eps_of(g: float, res: float) -> float:
        s0 = sigma0_for_rmse(g, target_rmse, n, d)
        return certified_epsilon(g, s0, n, delta, res)

    def search_eps(la: float) -> float:
        try:
            return eps_of(-math.expm1(la), search_resolution)
        except CannotCertify:  # this gamma cannot reach the target RMSE: infeasible
            return math.inf

    lo, hi = math.log(a0) - 1.5, min(math.log(a0) + 1.5, math.log(0.95))
    res = minimize_scalar(
        search_eps, bounds=(lo, hi), method="bounded", options={"xatol": gamma_tol}
    )
    if not math.isfinite(res.fun):
        raise CannotCertify(
            f"rmse={target_rmse} cannot be reached by BMG with n={n} and d={d} "
            "in the searched range of gamma"
        )
    g = -math.expm1(res.x)
    s0 = sigma0_for_rmse(g, target_rmse, n, d)
    eps = eps_of(g, resolution)
    return Design.of(
        n,
        eps,
        delta,
        g,
        s0,
        d,
        certified_delta=certified_delta(g, s0, n, eps, resolution),
        gm_sigma=target_rmse * math.sqrt(n),
    )


# ----------------------------------------------------------------------------- correspondence
def correspondence(
    n_values: Sequence[int],
    gamma: float,
    sigma0: float,
    c: float = 1.0,
    *,
    resolution: float = 100.0,
    gm_dps: int = 30,
) -> list[dict]:
    r"""Ratios to the template along :math:`\varepsilon_n = c\sqrt{\log n/n}/\chi_{lo}` (Takagi-Liew 2026, Thm 3.2).

    For each :math:`n`: the certified :math:`\delta_{BMG}(\varepsilon_n)` over
    :math:`f_{n,\varepsilon_n}(\chi_{lo})` and the exact :math:`\delta_{GM(\chi_{lo})}(\varepsilon_n)` over
    the same template (:math:`\mathsf{GM}(\sigma)` with :math:`\sigma = \chi_{lo}`)."""
    mech = _make(gamma, sigma0)
    chi = chi_lo(gamma, sigma0)
    rows = []
    for n in n_values:
        n = check_n(n)
        eps = c * math.sqrt(math.log(n) / n) / chi
        f = shuffle_template.template(n, eps, chi, gm_dps)
        res = bmg_blanket.bmg_delta(mech, n, eps, **blanket_options(resolution))
        gm = gaussian.central_gaussian_delta(eps, chi, n, dps=gm_dps)
        rows.append(
            {
                "n": n,
                "epsilon": eps,
                "chi_lo": chi,
                "template": float(f),
                "delta_bmg": res.delta,
                "delta_bmg_error": res.error,
                "ratio_bmg": float(mp.mpf(res.delta) / f),
                "delta_gm": float(gm),
                "ratio_gm": float(gm / f),
            }
        )
    return rows


def gm_template_ratio(n: Any, c: float, sigma: float, dps: int = 50) -> mp.mpf:
    r""":math:`\delta_{\mathsf{GM}(\sigma)}(\varepsilon_n)/f_{n,\varepsilon_n}(\sigma)` at
    :math:`\varepsilon_n = c\sqrt{\log n/n}/\sigma`, at ``dps`` digits (any :math:`n`, e.g. :math:`10^{40}`)."""
    with mp.workdps(dps + 10):
        n_ = mp.mpf(n)
        eps = c * mp.sqrt(mp.log(n_) / n_) / sigma
        mu = 1 / (mp.mpf(sigma) * mp.sqrt(n_))
        d = gaussian.gdp_delta_mp(eps, mu, dps)
        return d / shuffle_template.template(n_, eps, sigma, dps + 10)
