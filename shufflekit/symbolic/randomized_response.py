r"""Binary randomized response RR(p) as a mean estimator on :math:`\{-1,+1\}` (Takagi-Liew 2026, Prop. 3.6, App. A.5).

From the probability matrix of :func:`shufflekit.mechanisms.make` (``"rr"``):
blanket mass :math:`\gamma`, :math:`\chi_{lo}`, :math:`\chi_{up}` (computed by the
finite-mechanism layer), :math:`t = E[Y\mid x=1] = 2p-1`, the unbiased estimator
:math:`Y/t` with :math:`\mathsf{Err}_1 = 1/t^2 - 1`; then :math:`t(\chi)` from
:math:`\chi_{lo}^2 = (1-t)/t^2` and :math:`\mathsf{Err}_1` as a closed form and a series in :math:`\chi`.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.series import Series
from shufflekit.symbols import chi, eps0

t = sp.Symbol("t", positive=True)
x = sp.Symbol("x", positive=True)  # 1/chi

SOURCE = "Takagi-Liew 2026, Prop. 3.6 and App. A.5"


def _in_t(expr: sp.Expr) -> sp.Expr:
    r"""Rewrite an expression of :math:`\varepsilon_0` through :math:`t = 2p-1 = (e^{\varepsilon_0}-1)/(e^{\varepsilon_0}+1)`."""
    u = sp.Symbol("u", positive=True)  # u = e^{eps0}
    e_u = sp.sympify(expr).rewrite(sp.exp).subs(eps0, sp.log(u))
    u_of_t = sp.solve(sp.Eq((u - 1) / (u + 1), t), u)[0]
    out = sp.powsimp(sp.expand(e_u.subs(u, u_of_t)), force=True)
    # |.| of a quantity without zeros on t in (0, 1): its sign is the sign at t = 1/2
    out = out.replace(sp.Abs, lambda arg: arg if arg.subs(t, sp.Rational(1, 2)) > 0 else -arg)
    return sp.factor(sp.cancel(sp.radsimp(sp.cancel(out))))


@cache
def basics() -> Derivation:
    r""":math:`\gamma`, :math:`\chi_{lo}^2`, :math:`\chi_{up}^2` and :math:`\mathsf{Err}_1` in :math:`t = 2p-1`."""
    mech = make("rr", eps0=eps0)
    p = mech.row(1)[0]
    t_def = sp.simplify(2 * p - 1)
    gamma = mech.blanket().gamma
    chi_lo2 = mech.chi_lo().value ** 2
    chi_up2 = mech.chi_up().value ** 2
    # E[Y | x = 1] and the squared error of the estimator Y / t for x = +1 and x = -1
    mean = sum(prob * out for prob, out in zip(mech.row(1), mech.outputs))
    errs = [
        sp.simplify(
            sum(prob * (out / mean - xin) ** 2 for prob, out in zip(mech.row(xin), mech.outputs))
        )
        for xin in mech.inputs
    ]
    err = _in_t(errs[0])
    same = sp.simplify(_in_t(errs[1]) - err)
    return Derivation(
        id="rr.basics",
        title="randomized response: gamma, chi_lo^2, chi_up^2 and Err_1 in t = 2p - 1",
        result=sp.Matrix([_in_t(gamma), _in_t(chi_lo2), _in_t(chi_up2), err]),
        variables=(t,),
        assumptions=("p = e^eps0/(e^eps0 + 1) in (1/2, 1)", "estimator Y/t"),
        source=SOURCE,
        steps=(
            ("t = 2p - 1", t_def),
            ("gamma", gamma),
            ("chi_lo^2", chi_lo2),
            ("chi_up^2", chi_up2),
            ("Err for x = -1 minus Err for x = +1", same),
        ),
        lhs=r"(\gamma, \chi_{\mathrm{lo}}^2, \chi_{\mathrm{up}}^2, \mathsf{Err}_1)",
        extras={
            "gamma": _in_t(gamma),
            "chi_lo2": _in_t(chi_lo2),
            "chi_up2": _in_t(chi_up2),
            "err": err,
        },
    )


@cache
def t_of_chi() -> Derivation:
    r"""Positive root :math:`t(\chi)` of :math:`\chi_{lo}^2(t) = \chi^2` (eq. (t-in-chilo))."""
    chi_lo2 = basics().extras["chi_lo2"]
    roots = [s for s in sp.solve(sp.Eq(chi_lo2, chi**2), t) if s.subs(chi, 2).is_positive]
    if len(roots) != 1:
        raise ValueError(f"expected one positive root, got {roots}")
    return Derivation(
        id="rr.t-of-chi",
        title="t as a function of chi_lo",
        result=sp.simplify(roots[0]),
        variables=(chi,),
        source=SOURCE + ", eq. (t-in-chilo)",
        steps=(("chi_lo^2 in t", chi_lo2),),
        lhs="t",
    )


@cache
def err_closed_form() -> Derivation:
    r""":math:`\mathsf{Err}_1` as an exact function of :math:`\chi = \chi_{lo}`."""
    err_t = basics().extras["err"]
    closed = sp.expand(sp.radsimp(sp.cancel(err_t.subs(t, t_of_chi().result))))
    return Derivation(
        id="rr.err-closed-form",
        title="Err_1 of RR in closed form in chi_lo",
        result=closed,
        variables=(chi,),
        source=SOURCE,
        steps=(("Err_1 in t", err_t), ("t(chi)", t_of_chi().result)),
        lhs=r"\mathsf{Err}_1(\mathrm{RR})",
    )


@cache
def err_in_chi(terms: int = 6) -> Derivation:
    r""":math:`\mathsf{Err}_1` as :math:`\chi\to\infty` (Prop. 3.6), from the closed form."""
    closed = err_closed_form().result
    ser = Series.from_expr(closed.subs(chi, 1 / x), x, terms - 2, at_infinity=chi)
    t_ser = Series.from_expr(t_of_chi().result.subs(chi, 1 / x), x, 4, at_infinity=chi)
    return Derivation(
        id="rr.err-in-chi",
        title="Err_1 of RR as a series in chi_lo (Prop. 3.6)",
        result=ser,
        variables=(chi,),
        assumptions=("chi_lo -> oo",),
        source=SOURCE,
        steps=(("closed form", closed), ("t(chi) as chi -> oo", t_ser)),
        lhs=r"\mathsf{Err}_1(\mathrm{RR})",
        extras={"t_series": t_ser},
    )


@cache
def hcr_gap() -> Derivation:
    r""":math:`\mathsf{Err}_1 - d\chi_{up}^2` with :math:`d = 1` (Thm 3.3): identically zero for RR."""
    b = basics().extras
    gap = sp.simplify(b["err"] - b["chi_up2"])
    return Derivation(
        id="rr.hcr-gap",
        title="HCR gap Err_1 - chi_up^2 of randomized response",
        result=gap,
        variables=(t,),
        source="Takagi-Liew 2026, Thm 3.3 (d = 1)",
        steps=(("Err_1", b["err"]), ("chi_up^2", b["chi_up2"])),
        lhs=r"\mathsf{Err}_1 - \chi_{\mathrm{up}}^2",
    )
